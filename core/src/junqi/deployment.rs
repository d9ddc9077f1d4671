//! Deployment: where a side's 25 pieces start. Checked against every rule at once (all the
//! problems are reported, not just the first); dealt at random; a few classic layouts.

use super::board::{COLUMNS, Point};
use super::pieces::{Rank, Side};
use crate::Seat;
use crate::deploy::{Deploys, Fight, Losses};
use crate::junqi::{self, Junqi, JunqiMove, JunqiView, Visibility};
use crate::rng::Rng;
use std::fmt;

/// One side's placement: the kind on each of its 25 deployable points. The constructors keep
/// `pieces` sorted by point, so equal layouts compare equal.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Deployment {
    /// The side.
    pub side: Side,
    /// Points and the kind placed on each.
    pub pieces: Vec<(Point, Rank)>,
}

/// One thing wrong with a deployment.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum DeployProblem {
    /// A kind appears the wrong number of times.
    WrongCount {
        /// The kind.
        rank: Rank,
        /// How many there are.
        found: usize,
    },
    /// A piece is outside this side's half.
    OutsideHalf(Point),
    /// Two pieces on one point.
    SamePoint(Point),
    /// A piece in a camp (camps start empty).
    InCamp(Point),
    /// The flag is not in a headquarters.
    FlagNotInHeadquarters(Point),
    /// A landmine outside the back two rows.
    LandmineTooFarForward(Point),
    /// A bomb in the front row.
    BombInFrontRow(Point),
}

impl fmt::Display for DeployProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeployProblem::WrongCount { rank, found } => write!(
                f,
                "{} {} ({}) placed, {} needed",
                found,
                rank.chinese(),
                format!("{rank:?}").to_lowercase(),
                rank.count()
            ),
            DeployProblem::OutsideHalf(p) => write!(f, "{p} is not in your half"),
            DeployProblem::SamePoint(p) => write!(f, "two pieces on {p}"),
            DeployProblem::InCamp(p) => write!(f, "{p} is a camp and starts empty"),
            DeployProblem::FlagNotInHeadquarters(p) => {
                write!(f, "the flag must be in a headquarters, not {p}")
            }
            DeployProblem::LandmineTooFarForward(p) => {
                write!(f, "landmines go in the back two rows, not {p}")
            }
            DeployProblem::BombInFrontRow(p) => {
                write!(f, "bombs may not start in the front row ({p})")
            }
        }
    }
}

/// Returns the 25 points a side deploys on: its half without the camps.
pub fn deployable(side: Side) -> Vec<Point> {
    Point::all()
        .filter(|p| side.own_row(p.row()) <= 5 && !p.is_camp())
        .collect()
}

impl Deployment {
    /// Checks every rule; returns all the problems found.
    pub fn validate(&self) -> Result<(), Vec<DeployProblem>> {
        let mut problems = Vec::new();
        for rank in Rank::ALL {
            let found = self.pieces.iter().filter(|(_, r)| *r == rank).count();
            if found != rank.count() {
                problems.push(DeployProblem::WrongCount { rank, found });
            }
        }
        let mut seen = Vec::new();
        for &(p, rank) in &self.pieces {
            let own_row = self.side.own_row(p.row());
            if own_row > 5 {
                problems.push(DeployProblem::OutsideHalf(p));
                continue;
            }
            if seen.contains(&p) {
                problems.push(DeployProblem::SamePoint(p));
            }
            seen.push(p);
            if p.is_camp() {
                problems.push(DeployProblem::InCamp(p));
            }
            match rank {
                Rank::Flag if !p.is_headquarters() => {
                    problems.push(DeployProblem::FlagNotInHeadquarters(p))
                }
                Rank::Landmine if own_row > 1 => {
                    problems.push(DeployProblem::LandmineTooFarForward(p))
                }
                Rank::Bomb if own_row == 5 => problems.push(DeployProblem::BombInFrontRow(p)),
                _ => {}
            }
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems)
        }
    }

    /// Deals a random legal deployment from `seed` (the authority supplies the randomness).
    pub fn random(side: Side, seed: u64) -> Deployment {
        let mut state = seed ^ 0x9e37_79b9_7f4a_7c15;
        let mut next = move |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        let mut free = deployable(side);
        let mut pieces = Vec::with_capacity(25);
        let mut place = |allowed: &dyn Fn(Point) -> bool, rank: Rank, free: &mut Vec<Point>| {
            let choices: Vec<usize> = (0..free.len()).filter(|&i| allowed(free[i])).collect();
            let i = choices[next(choices.len())];
            pieces.push((free.swap_remove(i), rank));
        };
        // The constrained pieces first, so that every choice still leaves room for the rest.
        place(&|p: Point| p.is_headquarters(), Rank::Flag, &mut free);
        for _ in 0..Rank::Landmine.count() {
            place(
                &|p: Point| side.own_row(p.row()) <= 1,
                Rank::Landmine,
                &mut free,
            );
        }
        for _ in 0..Rank::Bomb.count() {
            place(&|p: Point| side.own_row(p.row()) < 5, Rank::Bomb, &mut free);
        }
        for rank in Rank::ALL
            .into_iter()
            .filter(|r| !matches!(r, Rank::Flag | Rank::Landmine | Rank::Bomb))
        {
            for _ in 0..rank.count() {
                place(&|_| true, rank, &mut free);
            }
        }
        Deployment { side, pieces }.sorted()
    }

    /// A layout a strong player would recognise, different with each seed: the flag in a
    /// headquarters guarded by landmines (usually all three around it, sometimes one away as
    /// a decoy), bombs a row or two behind the front where attackers come, the Field Marshal
    /// and General near the front on railroad points, engineers spread along the railroad,
    /// cheap pieces in the front row and in the other headquarters (a false flag).
    pub fn considered(side: Side, seed: u64) -> Deployment {
        let mut rng = Rng::new(seed ^ 0x6a75_6e71);
        let rel = |row: usize, column: usize| {
            let row = if side == Side::South { row } else { 11 - row };
            Point::new(row, column)
        };
        let flag_column = if rng.below(2) == 0 { 1 } else { 3 };
        let mut free = deployable(side);
        let mut pieces = Vec::with_capacity(25);
        let mut take = |p: Option<Point>, rank: Rank, free: &mut Vec<Point>| {
            if let Some(i) = free.iter().position(|q| Some(*q) == p) {
                pieces.push((free.swap_remove(i), rank));
                true
            } else {
                false
            }
        };
        take(rel(0, flag_column), Rank::Flag, &mut free);
        let mut guards = [
            rel(0, flag_column - 1),
            rel(0, flag_column + 1),
            rel(1, flag_column),
        ];
        rng.shuffle(&mut guards);
        // Usually all three landmines around the flag; sometimes one on the other side.
        let around = if rng.below(10) < 6 { 3 } else { 2 };
        for &g in &guards[..around] {
            take(g, Rank::Landmine, &mut free);
        }
        let mut placed: Vec<(Point, Rank)> = Vec::new();
        let order = [
            (Rank::Landmine, 3 - around),
            (Rank::Bomb, 2),
            (Rank::FieldMarshal, 1),
            (Rank::General, 1),
            (Rank::MajorGeneral, 2),
            (Rank::Brigadier, 2),
            (Rank::Engineer, 3),
            (Rank::Colonel, 2),
            (Rank::Major, 2),
            (Rank::Captain, 3),
            (Rank::Lieutenant, 3),
        ];
        for (rank, n) in order {
            for _ in 0..n {
                let weights: Vec<f64> = free
                    .iter()
                    .map(|&p| considered_weight(side, p, rank, flag_column))
                    .collect();
                let i = rng
                    .weighted(&weights)
                    .unwrap_or_else(|| rng.below(free.len()));
                placed.push((free.swap_remove(i), rank));
            }
        }
        pieces.extend(placed);
        Deployment { side, pieces }.sorted()
    }

    fn sorted(mut self) -> Deployment {
        self.pieces.sort_by_key(|(p, _)| *p);
        self
    }

    /// Returns a classic layout by name, for South; `mirror` gives it to North.
    pub fn classic(name: &str) -> Option<Deployment> {
        let rows = CLASSICS.iter().find(|(n, _)| *n == name)?.1;
        let mut pieces = Vec::new();
        // Rows are written front (row 5) to back (row 0); `.` marks a camp.
        for (i, line) in rows.iter().enumerate() {
            let row = 5 - i;
            for (column, word) in line.split_whitespace().enumerate().take(COLUMNS) {
                if word == "." {
                    continue;
                }
                let rank = Rank::ALL.into_iter().find(|r| r.chinese() == word)?;
                pieces.push((Point::new(row, column)?, rank));
            }
        }
        Some(
            Deployment {
                side: Side::South,
                pieces,
            }
            .sorted(),
        )
    }

    /// Returns the same layout for the other side, as that side sees it (mirrored).
    pub fn mirror(&self) -> Deployment {
        let pieces = self
            .pieces
            .iter()
            .filter_map(|&(p, r)| {
                Point::new(11 - p.row(), COLUMNS - 1 - p.column()).map(|q| (q, r))
            })
            .collect();
        Deployment {
            side: self.side.other(),
            pieces,
        }
        .sorted()
    }
}

/// How much a considered layout likes `rank` on `p` (0: never). `flag_column` is the
/// flag's headquarters column, 1 or 3.
fn considered_weight(side: Side, p: Point, rank: Rank, flag_column: usize) -> f64 {
    let row = side.own_row(p.row());
    let column = p.column();
    let rail = row == 1 || row == 5 || column == 0 || column == 4;
    let near_flag = (column as i64 - flag_column as i64).abs() <= 1;
    if p.is_headquarters() {
        // The other headquarters: a false flag, a cheap piece that never moves.
        return match rank {
            Rank::Lieutenant | Rank::Captain => 6.0,
            _ => 0.0,
        };
    }
    let by_row = |w: [f64; 6]| w[row];
    match rank {
        Rank::Landmine if row <= 1 => {
            if near_flag {
                3.0
            } else {
                1.0
            }
        }
        Rank::Landmine => 0.0,
        Rank::Bomb => by_row([0.0, 3.0, 3.0, 2.0, 1.0, 0.0]) * if near_flag { 1.5 } else { 1.0 },
        Rank::FieldMarshal | Rank::General => {
            by_row([0.0, 0.3, 1.0, 3.0, 3.0, 1.5]) * if rail || column == 2 { 2.0 } else { 1.0 }
        }
        Rank::MajorGeneral | Rank::Brigadier => by_row([0.0, 0.5, 1.5, 2.0, 2.0, 2.0]),
        Rank::Engineer => by_row([0.2, 2.0, 1.5, 1.5, 1.0, 0.4]) * if rail { 2.0 } else { 1.0 },
        Rank::Colonel | Rank::Major => by_row([0.3, 1.0, 1.5, 1.5, 1.5, 1.5]),
        Rank::Captain | Rank::Lieutenant => by_row([1.5, 1.0, 1.0, 1.0, 1.0, 3.0]),
        Rank::Flag => 0.0,
    }
}

/// The letter each kind is written with in a deployment's text: its rank 1–9, or B (bomb),
/// L (landmine), F (flag).
pub(crate) fn letter(rank: Rank) -> char {
    match rank.level() {
        Some(level) => (b'0' + level) as char,
        None => match rank {
            Rank::Bomb => 'B',
            Rank::Landmine => 'L',
            _ => 'F',
        },
    }
}

/// Reads a letter written by [`letter`] (either case).
pub(crate) fn rank_of_letter(c: char) -> Option<Rank> {
    Rank::ALL
        .into_iter()
        .find(|r| letter(*r) == c.to_ascii_uppercase())
}

/// The side's 25 deployable points in the order its text lists them: from its own back row
/// forward, each row from its own left.
fn text_order(side: Side) -> Vec<Point> {
    let mut points = Vec::with_capacity(25);
    for own_row in 0..=5 {
        for own_column in 0..COLUMNS {
            let (row, column) = match side {
                Side::South => (own_row, own_column),
                Side::North => (11 - own_row, COLUMNS - 1 - own_column),
            };
            if let Some(p) = Point::new(row, column).filter(|p| !p.is_camp()) {
                points.push(p);
            }
        }
    }
    points
}

impl Deployment {
    /// Writes the layout as 25 characters, as its owner sees it (so South and North share
    /// saved layouts): `1`–`9` for ranks, `B` bomb, `L` landmine, `F` flag, `.` nothing.
    pub fn to_text(&self) -> String {
        text_order(self.side)
            .into_iter()
            .map(|p| {
                self.pieces
                    .iter()
                    .find(|(q, _)| *q == p)
                    .map_or('.', |(_, r)| letter(*r))
            })
            .collect()
    }

    /// Reads a layout written by [`Deployment::to_text`] for `side`. Only the syntax is
    /// checked here; [`Deployment::validate`] checks the rules.
    pub fn from_text(side: Side, text: &str) -> Result<Deployment, String> {
        let chars: Vec<char> = text.trim().chars().collect();
        if chars.len() != 25 {
            return Err(format!(
                "a deployment has 25 characters, not {}",
                chars.len()
            ));
        }
        let mut pieces = Vec::new();
        for (p, c) in text_order(side).into_iter().zip(chars) {
            if c == '.' {
                continue;
            }
            let rank =
                rank_of_letter(c).ok_or_else(|| format!("{c:?} is not a piece (1-9, B, L, F)"))?;
            pieces.push((p, rank));
        }
        Ok(Deployment { side, pieces }.sorted())
    }
}

/// The names of the classic layouts.
pub fn classic_names() -> impl Iterator<Item = &'static str> {
    CLASSICS.iter().map(|(n, _)| *n)
}

/// Classic layouts, front row first. They are common shapes: the flag guarded by landmines in
/// a corner headquarters, bombs behind the front, strong pieces on the rail corners.
const CLASSICS: [(&str, [&str; 6]); 3] = [
    (
        "稳守 Steady defence",
        [
            "连长 排长 工兵 连长 营长",
            "团长 . 师长 . 旅长",
            "工兵 营长 . 排长 炸弹",
            "军长 . 炸弹 . 司令",
            "团长 师长 工兵 地雷 旅长",
            "连长 军旗 地雷 地雷 排长",
        ],
    ),
    (
        "快攻 Fast attack",
        [
            "司令 排长 工兵 军长 连长",
            "师长 . 团长 . 师长",
            "工兵 营长 . 炸弹 旅长",
            "排长 . 炸弹 . 团长",
            "营长 连长 地雷 工兵 旅长",
            "地雷 地雷 连长 军旗 排长",
        ],
    ),
    (
        "中路 Centre",
        [
            "排长 连长 司令 连长 排长",
            "工兵 . 军长 . 工兵",
            "旅长 师长 . 师长 旅长",
            "团长 . 炸弹 . 团长",
            "营长 炸弹 工兵 营长 地雷",
            "连长 军旗 地雷 排长 地雷",
        ],
    ),
];

// What a seat's view answers about the deployment (see `crate::deploy`).

impl Deploys for Junqi {
    type Deployment = Deployment;
    type Point = Point;
    type Seen = junqi::SeenPlay;

    fn point(index: usize) -> Option<Point> {
        Point::from_index(index)
    }

    fn has_piece(layout: &Deployment, p: Point) -> bool {
        layout.pieces.iter().any(|(at, _)| *at == p)
    }

    /// Any two of a side's pieces trade places.
    fn swap(layout: &mut Deployment, a: Point, b: Point) -> bool {
        let rank_at = |p| layout.pieces.iter().find(|(q, _)| *q == p).map(|x| x.1);
        let (Some(ra), Some(rb)) = (rank_at(a), rank_at(b)) else {
            return false;
        };
        for (p, rank) in &mut layout.pieces {
            if *p == a {
                *rank = rb;
            } else if *p == b {
                *rank = ra;
            }
        }
        true
    }

    fn last_play(view: &JunqiView) -> Option<&junqi::SeenPlay> {
        view.last.as_ref()
    }

    fn fight(seen: &junqi::SeenPlay) -> Option<Fight> {
        let junqi::JunqiEvent::Battle {
            mv,
            attacker_removed,
            defender_removed,
            ..
        } = &seen.event
        else {
            return None;
        };
        let name = |piece: &Option<junqi::SeenPiece>| match piece {
            Some(p) => p.rank.map_or_else(|| "?".into(), |r| r.chinese().into()),
            None => String::new(),
        };
        let flag = seen
            .defender
            .as_ref()
            .is_some_and(|d| d.rank == Some(Rank::Flag));
        Some(Fight {
            at: mv
                .parse::<junqi::Move>()
                .map(|m| m.to.to_string())
                .unwrap_or_default(),
            attacker_removed: *attacker_removed,
            defender_removed: *defender_removed,
            flag_taken: flag && !attacker_removed && *defender_removed,
            sent_home: false,
            names: [name(&seen.mover), name(&seen.defender)],
            attacker_side: seen.mover.as_ref().map(|p| p.side),
        })
    }

    fn losses(view: &JunqiView, side: Side) -> Losses {
        Losses::from_kinds(
            &view.lost[side as usize],
            &Rank::ALL,
            view.left_by_rank(side).as_ref().map(|l| &l[..]),
            view.left_count(side),
            Rank::chinese,
        )
    }

    /// Flip mode deals face down and has no deployment.
    fn view_deploying(view: &JunqiView) -> bool {
        view.visibility != Visibility::Flip && view.deployed.iter().any(|d| !d)
    }

    fn view_deployed(view: &JunqiView, seat: Seat) -> bool {
        Self::view_side(view, seat).is_some_and(|side| view.deployed[side as usize])
    }

    fn view_side(view: &JunqiView, seat: Seat) -> Option<Side> {
        view.colours.get(seat.index()).copied().flatten()
    }

    fn layout_of(mv: &JunqiMove, side: Side) -> Option<Result<Deployment, String>> {
        match mv {
            JunqiMove::Deploy(text) => Some(Deployment::from_text(side, text)),
            _ => None,
        }
    }

    fn deploy(layout: &Deployment) -> Result<JunqiMove, Vec<String>> {
        layout
            .validate()
            .map_err(|problems| problems.iter().map(ToString::to_string).collect::<Vec<_>>())?;
        Ok(JunqiMove::Deploy(layout.to_text()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn considered_layouts_are_legal_guard_the_flag_and_vary() {
        let mut seen = std::collections::HashSet::new();
        for seed in 0..400 {
            for side in [Side::South, Side::North] {
                let d = Deployment::considered(side, seed);
                assert_eq!(d.validate(), Ok(()), "{side:?} {seed}: {}", d.to_text());
                let at = |rank| {
                    d.pieces
                        .iter()
                        .filter(move |(_, r)| *r == rank)
                        .map(|x| x.0)
                };
                let flag = at(Rank::Flag).next().unwrap_or_else(|| unreachable!());
                let guards = at(Rank::Landmine)
                    .filter(|p| {
                        super::super::graph()
                            .links(flag.index())
                            .iter()
                            .any(|l| l.to == p.index())
                    })
                    .count();
                assert!(guards >= 2, "{}", d.to_text());
                // The Field Marshal never starts in a headquarters or the back row.
                let marshal = at(Rank::FieldMarshal)
                    .next()
                    .unwrap_or_else(|| unreachable!());
                assert!(side.own_row(marshal.row()) >= 1 && !marshal.is_headquarters());
                seen.insert(d.to_text());
            }
        }
        assert!(seen.len() > 790, "only {} different layouts", seen.len());
    }
}
