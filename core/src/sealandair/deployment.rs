//! Deployment (S1–S3): where a side's 37 pieces start, written as 37 letters in the order of
//! [`placement_order`]. Checked against every rule at once; dealt at random; or laid out with
//! some sense, for the computer and the "Random" button.

use super::board::{Label, Point, map, placement_order};
use super::pieces::{Domain, Kind};
use crate::Seat;
use crate::deploy::{Deploys, Fight, Losses};
use crate::junqi::Side;
use crate::sealandair::{self, SeaLandAir, SeaLandAirMove, SeaLandAirView};
use std::fmt;

/// One side's placement: the kind on each of its 37 placement points, in text order.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Deployment {
    /// The side.
    pub side: Side,
    /// Points and the kind placed on each, in [`placement_order`].
    pub pieces: Vec<(Point, Kind)>,
}

/// One thing wrong with a deployment.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum DeployProblem {
    /// A kind appears the wrong number of times.
    WrongCount {
        /// The kind.
        kind: Kind,
        /// How many there are.
        found: usize,
    },
    /// A piece on a placement point of the wrong kind (a ship on land, a plane at sea).
    WrongPlace(Point, Kind),
    /// The flag is not in the city.
    FlagNotInCity(Point),
}

impl fmt::Display for DeployProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeployProblem::WrongCount { kind, found } => write!(
                f,
                "{found} {} ({kind:?}) placed, {} needed",
                kind.chinese(),
                kind.count()
            ),
            DeployProblem::WrongPlace(p, kind) => {
                let place = match kind.domain() {
                    Domain::Land => "land",
                    Domain::Sea => "the sea",
                    Domain::Air => "an airport",
                };
                write!(
                    f,
                    "{} ({kind:?}) on {p}: it starts on {place}",
                    kind.chinese()
                )
            }
            DeployProblem::FlagNotInCity(p) => {
                write!(f, "the flag must stand in the city, not on {p}")
            }
        }
    }
}

fn domain_of(p: Point) -> Domain {
    use super::board::Layer;
    match p.layer() {
        Layer::Land => Domain::Land,
        Layer::Sea => Domain::Sea,
        Layer::Dot | Layer::Airport => Domain::Air,
    }
}

impl Deployment {
    /// Reads 37 letters for this side.
    pub fn from_text(side: Side, text: &str) -> Result<Deployment, String> {
        let letters: Vec<char> = text.trim().chars().collect();
        let order = placement_order(side);
        if letters.len() != order.len() {
            return Err(format!(
                "a deployment has {} letters, not {}",
                order.len(),
                letters.len()
            ));
        }
        let mut pieces = Vec::with_capacity(order.len());
        for (p, c) in order.into_iter().zip(letters) {
            let kind = Kind::from_letter(c)
                .ok_or_else(|| format!("{c:?} is not a piece (1-9, B C G D S, J R, A P M L F)"))?;
            pieces.push((p, kind));
        }
        Ok(Deployment { side, pieces })
    }

    /// Writes the 37 letters.
    pub fn to_text(&self) -> String {
        self.pieces.iter().map(|(_, k)| k.letter()).collect()
    }

    /// Checks every rule; returns all the problems found.
    pub fn validate(&self) -> Result<(), Vec<DeployProblem>> {
        let mut problems = Vec::new();
        for kind in Kind::ALL {
            let found = self.pieces.iter().filter(|(_, k)| *k == kind).count();
            if found != kind.count() {
                problems.push(DeployProblem::WrongCount { kind, found });
            }
        }
        for &(p, kind) in &self.pieces {
            if domain_of(p) != kind.domain() {
                problems.push(DeployProblem::WrongPlace(p, kind));
            } else if kind == Kind::Flag && p.label() != Label::City {
                problems.push(DeployProblem::FlagNotInCity(p));
            }
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems)
        }
    }

    /// Returns the kind placed on a point, if any.
    pub fn kind_at(&self, p: Point) -> Option<Kind> {
        self.pieces.iter().find(|(q, _)| *q == p).map(|(_, k)| *k)
    }

    /// Swaps the pieces on two of this side's placement points (the deployment screen).
    pub fn swap(&mut self, a: Point, b: Point) {
        let i = self.pieces.iter().position(|(p, _)| *p == a);
        let j = self.pieces.iter().position(|(p, _)| *p == b);
        if let (Some(i), Some(j)) = (i, j) {
            let (ka, kb) = (self.pieces[i].1, self.pieces[j].1);
            self.pieces[i].1 = kb;
            self.pieces[j].1 = ka;
        }
    }

    /// Deals a valid deployment uniformly at random from `seed`: every piece on a random
    /// placement point of its kind, the flag on a random city point.
    pub fn random(side: Side, seed: u64) -> Deployment {
        let mut rng = Rng::new(seed);
        let order = placement_order(side);
        let mut out: Vec<(Point, Kind)> = Vec::with_capacity(order.len());
        for domain in [Domain::Land, Domain::Sea, Domain::Air] {
            let mut points: Vec<Point> = order
                .iter()
                .copied()
                .filter(|p| domain_of(*p) == domain)
                .collect();
            let mut kinds: Vec<Kind> = Kind::ALL
                .into_iter()
                .filter(|k| k.domain() == domain)
                .flat_map(|k| std::iter::repeat_n(k, k.count()))
                .collect();
            if domain == Domain::Land {
                let city: Vec<Point> = points
                    .iter()
                    .copied()
                    .filter(|p| p.label() == Label::City)
                    .collect();
                let flag_at = city[rng.below(city.len())];
                out.push((flag_at, Kind::Flag));
                points.retain(|p| *p != flag_at);
                kinds.retain(|k| *k != Kind::Flag);
            }
            rng.shuffle(&mut kinds);
            out.extend(points.into_iter().zip(kinds));
        }
        Deployment::in_order(side, out)
    }

    /// Lays out a deployment with some sense, varied by `seed`: the flag in the city with the
    /// landmines beside it, artillery on two cannon placements, an anti-aircraft gun on a
    /// back point under a flight line, the battleships on the navy placements, the rest at
    /// random.
    pub fn sensible(side: Side, seed: u64) -> Deployment {
        let mut rng = Rng::new(seed ^ 0x5ea1_a4d0);
        let order = placement_order(side);
        let own_row = |p: Point| p.row_column().map_or(9, |(r, _)| side.own_row(r));
        let mut free: Vec<Point> = order.clone();
        let mut out: Vec<(Point, Kind)> = Vec::with_capacity(order.len());
        let mut put = |at: Point, kind: Kind, free: &mut Vec<Point>| {
            free.retain(|p| *p != at);
            out.push((at, kind));
        };
        let pick = |rng: &mut Rng, free: &[Point], keep: &dyn Fn(Point) -> bool| {
            let choices: Vec<Point> = free.iter().copied().filter(|p| keep(*p)).collect();
            (!choices.is_empty()).then(|| choices[rng.below(choices.len())])
        };
        let flag = pick(&mut rng, &free, &|p| p.label() == Label::City).expect("a city point");
        put(flag, Kind::Flag, &mut free);
        let beside: Vec<Point> = map()
            .land
            .links(flag.index())
            .iter()
            .filter_map(|l| Point::from_index(l.to))
            .collect();
        for _ in 0..2 {
            let at = pick(&mut rng, &free, &|p| beside.contains(&p) && own_row(p) <= 1)
                .or_else(|| {
                    pick(&mut rng, &free, &|p| {
                        domain_of(p) == Domain::Land && own_row(p) <= 1
                    })
                })
                .expect("a back point");
            put(at, Kind::Landmine, &mut free);
        }
        for _ in 0..2 {
            let at = pick(&mut rng, &free, &|p| p.label() == Label::CannonPlacement)
                .expect("a cannon placement");
            put(at, Kind::Artillery, &mut free);
        }
        if let Some(at) = pick(&mut rng, &free, &|p| {
            domain_of(p) == Domain::Land
                && own_row(p) <= 2
                && map().lines_through(p).next().is_some()
        }) {
            put(at, Kind::AntiAircraft, &mut free);
        }
        for at in order
            .iter()
            .copied()
            .filter(|p| p.label() == Label::NavyPlacement)
        {
            put(at, Kind::Battleship, &mut free);
        }
        for domain in [Domain::Land, Domain::Sea, Domain::Air] {
            let mut kinds: Vec<Kind> = Kind::ALL
                .into_iter()
                .filter(|k| k.domain() == domain)
                .flat_map(|k| {
                    let placed = out.iter().filter(|(_, placed)| *placed == k).count();
                    std::iter::repeat_n(k, k.count() - placed)
                })
                .collect();
            rng.shuffle(&mut kinds);
            let points: Vec<Point> = free
                .iter()
                .copied()
                .filter(|p| domain_of(*p) == domain)
                .collect();
            out.extend(points.into_iter().zip(kinds));
        }
        Deployment::in_order(side, out)
    }

    fn in_order(side: Side, mut pieces: Vec<(Point, Kind)>) -> Deployment {
        let order = placement_order(side);
        pieces.sort_by_key(|(p, _)| order.iter().position(|q| q == p));
        Deployment { side, pieces }
    }
}

pub(crate) use crate::rng::Rng;

// What a seat's view answers about the deployment (see `crate::deploy`).

impl Deploys for SeaLandAir {
    type Deployment = Deployment;
    type Point = Point;
    type Seen = sealandair::SeenPlay;

    fn point(index: usize) -> Option<Point> {
        Point::from_index(index)
    }

    fn has_piece(layout: &Deployment, p: Point) -> bool {
        layout.kind_at(p).is_some()
    }

    /// Land trades with land, ships with ships, planes with planes.
    fn swap(layout: &mut Deployment, a: Point, b: Point) -> bool {
        if a.layer() != b.layer() || !Self::has_piece(layout, a) || !Self::has_piece(layout, b) {
            return false;
        }
        layout.swap(a, b);
        true
    }

    fn last_play(view: &SeaLandAirView) -> Option<&sealandair::SeenPlay> {
        view.last.as_ref()
    }

    fn fight(seen: &sealandair::SeenPlay) -> Option<Fight> {
        let sealandair::SeaLandAirEvent::Battle {
            mv,
            attacker_removed,
            defender_removed,
            sent_home,
            ..
        } = &seen.event
        else {
            return None;
        };
        let name = |piece: &Option<sealandair::SeenPiece>| match piece {
            Some(p) => p.kind.map_or_else(|| "?".into(), |k| k.short().into()),
            None => String::new(),
        };
        let flag = seen
            .defender
            .as_ref()
            .is_some_and(|d| d.kind == Some(Kind::Flag));
        Some(Fight {
            at: mv
                .parse::<sealandair::Move>()
                .map(|m| m.to.to_string())
                .unwrap_or_default(),
            attacker_removed: *attacker_removed,
            defender_removed: *defender_removed,
            flag_taken: flag && *defender_removed,
            sent_home: sent_home.is_some(),
            names: [name(&seen.mover), name(&seen.defender)],
            attacker_side: seen.mover.as_ref().map(|p| p.side),
        })
    }

    fn losses(view: &SeaLandAirView, side: Side) -> Losses {
        Losses::from_kinds(
            &view.lost[side as usize],
            &Kind::ALL,
            view.left_by_kind(side).as_ref().map(|l| &l[..]),
            view.left_count(side),
            Kind::chinese,
        )
    }

    fn view_deploying(view: &SeaLandAirView) -> bool {
        view.deployed.iter().any(|d| !d)
    }

    fn view_deployed(view: &SeaLandAirView, seat: Seat) -> bool {
        view.deployed.get(seat.index()).copied().unwrap_or(false)
    }

    /// Seat 0 plays South, seat 1 North.
    fn view_side(_: &SeaLandAirView, seat: Seat) -> Option<Side> {
        Some(sealandair::state::side_of(seat))
    }

    fn layout_of(mv: &SeaLandAirMove, side: Side) -> Option<Result<Deployment, String>> {
        match mv {
            SeaLandAirMove::Deploy(text) => Some(Deployment::from_text(side, text)),
            _ => None,
        }
    }

    fn deploy(layout: &Deployment) -> Result<SeaLandAirMove, Vec<String>> {
        layout
            .validate()
            .map_err(|problems| problems.iter().map(ToString::to_string).collect::<Vec<_>>())?;
        Ok(SeaLandAirMove::Deploy(layout.to_text()))
    }
}
