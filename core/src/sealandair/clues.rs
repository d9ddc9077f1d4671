//! What a player can tell about an opposing Sea-land-air piece it has not seen: where it was
//! deployed (ships at sea, aircraft at the airports, the flag in the city), every layer it has
//! stood on since (only a missile leaves land for the flight lines, only a battleship or a
//! cruiser comes ashore), whether it has moved (so it is neither a landmine nor the flag),
//! whether it went by railway (artillery and anti-aircraft guns go by road only, missiles by
//! road or one point along a flight line), and
//! its battles: a battle shows both pieces unless the game is in referee mode, where only its
//! result is told, and the kinds that would have given that result against the viewer's own
//! piece are what is left.
//!
//! The authority keeps one [`Trace`] per piece and gives each seat, in its view, the
//! [`Kinds`] each unknown opposing piece can be.

use super::board::{Label, Layer, Point, map};
use super::pieces::{Clash, Domain, Kind, Kinds, melee, remote};

/// The kinds a side may deploy on `home`, by the deployment rules.
pub fn deployable_kinds(home: Point) -> Kinds {
    let domain = match home.layer() {
        Layer::Land => Domain::Land,
        Layer::Sea => Domain::Sea,
        Layer::Dot | Layer::Airport => Domain::Air,
    };
    Kinds::matching(|k| k.domain() == domain && (k != Kind::Flag || home.label() == Label::City))
}

/// The kinds that can stand on a point of this layer.
pub fn kinds_on(layer: Layer) -> Kinds {
    Kinds::matching(|k| match layer {
        Layer::Land => k.domain() == Domain::Land || k.lands(),
        Layer::Sea => k.domain() == Domain::Sea || k == Kind::Missile,
        Layer::Dot => k.is_aircraft() || k == Kind::Missile,
        Layer::Airport => k.is_aircraft(),
    })
}

/// The kinds that may make a remote attack.
fn fires(kind: Kind) -> bool {
    matches!(
        kind,
        Kind::Artillery
            | Kind::Battleship
            | Kind::AntiAircraft
            | Kind::Destroyer
            | Kind::Fighter
            | Kind::Gunboat
    )
}

/// One battle a piece fought, as its opponent saw it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Fought {
    /// The opposing piece's kind (its owner knows it).
    pub(crate) foe: Kind,
    /// This piece attacked (rather than defended).
    pub(crate) attacked: bool,
    /// The attack was made from where the attacker stood.
    pub(crate) remote: bool,
    /// How it ended, as everyone was told.
    pub(crate) result: Clash,
}

/// Everything seen of one piece since the deployment.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct Trace {
    /// Where it was deployed.
    pub(crate) home: Point,
    /// The layers it has stood on (bit `Layer as u8`).
    pub(crate) layers: u8,
    /// It has moved or attacked.
    pub(crate) moved: bool,
    /// It went by railway.
    pub(crate) rail: bool,
    /// Its battles, in order.
    pub(crate) fights: Vec<Fought>,
}

impl Trace {
    pub(crate) fn new(home: Point) -> Trace {
        Trace {
            home,
            layers: 1 << home.layer() as u8,
            moved: false,
            rail: false,
            fights: Vec::new(),
        }
    }

    /// Notes that the piece now stands on `p`.
    pub(crate) fn stands(&mut self, p: Point) {
        self.layers |= 1 << p.layer() as u8;
    }

    /// Notes a move (not an attack from where it stands) from `from` to `to`.
    pub(crate) fn went(&mut self, from: Point, to: Point) {
        self.moved = true;
        if from.layer() == Layer::Land && to.layer() == Layer::Land {
            let by_road = map()
                .land
                .links(from.index())
                .iter()
                .any(|l| l.to == to.index() && !l.rail);
            // A missile steps one point along a flight line, which may join two land points.
            let by_flight = map().lines_through(from).any(|line| {
                line.windows(2)
                    .any(|w| (w[0] == from && w[1] == to) || (w[0] == to && w[1] == from))
            });
            self.rail |= !by_road && !by_flight;
        }
    }

    /// The kinds the piece can be, as the other side can tell.
    pub(crate) fn could_be(&self) -> Kinds {
        let mut set = deployable_kinds(self.home);
        for layer in [Layer::Land, Layer::Sea, Layer::Dot, Layer::Airport] {
            if self.layers & (1 << layer as u8) != 0 {
                set = set.and(kinds_on(layer));
            }
        }
        if self.moved {
            set.remove(Kind::Landmine);
            set.remove(Kind::Flag);
        }
        if self.rail {
            set = set.and(Kinds::matching(|k| k.is_army() || k.lands()));
        }
        for f in &self.fights {
            set = set.and(Kinds::matching(|k| {
                let result = match (f.attacked, f.remote) {
                    (true, true) if !fires(k) => return false,
                    (true, true) => remote(k, f.foe),
                    (true, false) => melee(k, f.foe),
                    (false, true) => remote(f.foe, k),
                    (false, false) => melee(f.foe, k),
                };
                result == f.result
            }));
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(name: &str) -> Point {
        name.parse().unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn where_a_piece_has_been_tells_what_it_can_be() {
        // A South land piece that walked onto a stopping dot is a missile.
        let mut t = Trace::new(at("c3"));
        assert!(t.could_be().contains(Kind::Flag) || at("c3").label() != Label::City);
        t.went(at("c3"), at("k0"));
        t.stands(at("k0"));
        assert_eq!(t.could_be().single(), Some(Kind::Missile));
        // A ship that came ashore is a battleship or a cruiser.
        let mut ship = Trace::new(at("f4"));
        ship.stands(at("c4"));
        assert_eq!(
            ship.could_be(),
            [Kind::Battleship, Kind::Cruiser].into_iter().collect()
        );
        // Only the city holds the flag, and a piece that moved is not it.
        let mut city = Trace::new(at("b0"));
        assert!(city.could_be().contains(Kind::Flag));
        assert!(!Trace::new(at("a1")).could_be().contains(Kind::Flag));
        city.went(at("b0"), at("b1"));
        assert!(!city.could_be().contains(Kind::Flag) && !city.could_be().contains(Kind::Landmine));
    }

    #[test]
    fn a_referee_battle_leaves_the_kinds_that_give_its_result() {
        // It beat our attacking regiment (rank 5): ranks 1–4 on land, a landmine takes both.
        let mut t = Trace::new(at("c2"));
        t.fights.push(Fought {
            foe: Kind::Regiment,
            attacked: false,
            remote: false,
            result: Clash::DefenderWins,
        });
        assert_eq!(
            t.could_be(),
            [
                Kind::Commander,
                Kind::ArmyGroup,
                Kind::Division,
                Kind::Brigade
            ]
            .into_iter()
            .collect()
        );
        // Fired on by our artillery, nothing happened: a top commander, a landmine or the flag.
        let mut shot = Trace::new(at("b0"));
        shot.fights.push(Fought {
            foe: Kind::Artillery,
            attacked: false,
            remote: true,
            result: Clash::NoEffect,
        });
        assert_eq!(
            shot.could_be(),
            [Kind::Commander, Kind::ArmyGroup, Kind::Landmine, Kind::Flag]
                .into_iter()
                .collect()
        );
        // A remote attack comes from a piece that fires.
        let mut gun = Trace::new(at("a4"));
        gun.fights.push(Fought {
            foe: Kind::Private,
            attacked: true,
            remote: true,
            result: Clash::AttackerWins,
        });
        assert!(gun.could_be().iter().all(fires));
        assert!(gun.could_be().contains(Kind::Artillery));
    }
}
