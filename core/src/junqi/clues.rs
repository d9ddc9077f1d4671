//! What a player can tell about an opposing piece whose identity the referee keeps hidden:
//! where it was deployed (a flag only in a headquarters, landmines only in the back two rows,
//! no bomb in the front row), whether it has moved (so it is neither a landmine nor the flag),
//! whether it turned a corner on the railroad (only an engineer does), and the battles it
//! fought. Every battle is against one of the viewer's own pieces, whose rank the viewer knows,
//! and its result is told to everyone; so the ranks a piece can still be follow from what the
//! viewer has seen, and nothing else. A Field Marshal's fall shows its side's flag, which tells
//! everyone which piece fell.
//!
//! The authority keeps one [`Trace`] per piece and gives each viewer, in its view, the
//! [`Ranks`] each unknown opposing piece can be: what a careful player would note on paper.

use super::board::Point;
use super::pieces::{Battle, BattleRules, Rank, Side, battle};

/// A set of ranks.
pub type Ranks = crate::kinds::Set<Rank>;

/// The ranks a side may deploy on `home`, by the deployment rules.
pub fn deployable_ranks(side: Side, home: Point) -> Ranks {
    let row = side.own_row(home.row());
    Ranks::matching(|r| match r {
        Rank::Flag => home.is_headquarters(),
        Rank::Landmine => row <= 1,
        Rank::Bomb => row < 5,
        _ => true,
    })
}

/// One battle a piece fought, as its opponent saw it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Fought {
    /// The opposing piece's rank (its owner knows it).
    pub(crate) foe: Rank,
    /// This piece attacked (rather than defended).
    pub(crate) attacked: bool,
    /// What the battle left.
    pub(crate) result: Battle,
}

/// Everything seen of one piece since the deployment.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct Trace {
    /// Where it was deployed.
    pub(crate) home: Point,
    /// It has moved or attacked.
    pub(crate) moved: bool,
    /// It went where only an engineer goes (around a railroad corner).
    pub(crate) engineer: bool,
    /// Its fall showed its side's flag: it was the Field Marshal.
    pub(crate) marshal: bool,
    /// Its battles, in order.
    pub(crate) fights: Vec<Fought>,
}

impl Trace {
    pub(crate) fn new(home: Point) -> Trace {
        Trace {
            home,
            moved: false,
            engineer: false,
            marshal: false,
            fights: Vec::new(),
        }
    }

    /// The ranks the piece (of `side`) can be, as the other side can tell.
    pub(crate) fn could_be(&self, side: Side, rules: BattleRules) -> Ranks {
        let mut set = deployable_ranks(side, self.home);
        if self.moved {
            set.remove(Rank::Landmine);
            set.remove(Rank::Flag);
        }
        if self.engineer {
            set = set.and(Ranks::only(Rank::Engineer));
        }
        if self.marshal {
            set = set.and(Ranks::only(Rank::FieldMarshal));
        }
        for f in &self.fights {
            set = set.and(Ranks::matching(|r| {
                let result = if f.attacked {
                    battle(r, f.foe, rules)
                } else {
                    battle(f.foe, r, rules)
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

    #[test]
    fn a_set_round_trips_through_its_text() {
        let set: Ranks = [Rank::Bomb, Rank::FieldMarshal].into_iter().collect();
        let text = serde_json::to_string(&set).unwrap_or_default();
        assert_eq!(text, r#"["field-marshal","bomb"]"#);
        assert_eq!(serde_json::from_str::<Ranks>(&text).ok(), Some(set));
        assert_eq!(set.len(), 2);
        assert_eq!(Ranks::only(Rank::Flag).single(), Some(Rank::Flag));
        assert_eq!(set.single(), None);
    }

    #[test]
    fn battles_narrow_what_a_piece_can_be() {
        let home = Point::new(8, 0).unwrap_or_else(|| unreachable!());
        let mut t = Trace::new(home);
        // North's piece on its row 3: anything but a flag or a landmine.
        assert_eq!(t.could_be(Side::North, BattleRules::default()).len(), 10);
        // It beat our attacking Colonel: higher than a Colonel, or a landmine (which could not
        // be on row 3), not a bomb (both would go).
        t.fights.push(Fought {
            foe: Rank::Colonel,
            attacked: false,
            result: Battle::DefenderWins,
        });
        let set = t.could_be(Side::North, BattleRules::default());
        assert_eq!(
            set,
            [
                Rank::FieldMarshal,
                Rank::General,
                Rank::MajorGeneral,
                Rank::Brigadier
            ]
            .into_iter()
            .collect()
        );
        // Then it traded with our Major General: it was one too.
        t.fights.push(Fought {
            foe: Rank::MajorGeneral,
            attacked: true,
            result: Battle::BothRemoved,
        });
        assert_eq!(
            t.could_be(Side::North, BattleRules::default()).single(),
            Some(Rank::MajorGeneral)
        );
    }

    #[test]
    fn deployment_rules_and_movement_narrow_it_too() {
        let hq = Point::new(0, 1).unwrap_or_else(|| unreachable!());
        let mut t = Trace::new(hq);
        assert!(
            t.could_be(Side::South, BattleRules::default())
                .contains(Rank::Flag)
        );
        assert!(
            !Trace::new(Point::new(0, 0).unwrap_or_else(|| unreachable!()))
                .could_be(Side::South, BattleRules::default())
                .contains(Rank::Flag)
        );
        t.moved = true;
        let set = t.could_be(Side::South, BattleRules::default());
        assert!(!set.contains(Rank::Flag) && !set.contains(Rank::Landmine));
        let front = Point::new(5, 0).unwrap_or_else(|| unreachable!());
        let behind = Point::new(4, 0).unwrap_or_else(|| unreachable!());
        assert!(
            !deployable_ranks(Side::South, front).contains(Rank::Bomb)
                && deployable_ranks(Side::South, behind).contains(Rank::Bomb)
        );
    }
}
