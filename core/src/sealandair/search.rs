//! A Sea-land-air computer that reasons about hidden pieces: from its seat's view it knows, for
//! every opposing piece it has not seen, the kinds it can still be ([`super::clues`]), and the
//! opposing army those pieces make up between them. It draws complete boards consistent with all
//! of it ([`Belief`]), weighted by how players deploy, searches each as if it saw everything,
//! and plays the move with the best total ([`crate::pimc`]). A seed and a node budget fix its
//! answer, so that an authority's replays stay exact.

use super::board::{Layer, POINTS, Point, map, placement_order};
use super::clues::kinds_on;
use super::deployment::Deployment;
use super::movegen::{Board, Move, Piece, Played};
use super::pieces::{Clash, Kind, Kinds, melee, remote};
use super::view::SeaLandAirView;
use crate::junqi::Side;
use crate::kinds::{draw, feasible};
use crate::pimc::{self, Effort, Position, Quiet, Taken};
use std::sync::OnceLock;

/// The normal computer: its own move on eight boards, each judged with the best attack waiting
/// for the opponent.
pub const NORMAL: Effort = Effort {
    samples: 8,
    depth: 1,
    nodes: 40_000,
};

/// The hard computer: three plies (its move, the reply, its next move) on up to eight
/// boards; a busy position's first board takes the whole budget.
pub const HARD: Effort = Effort {
    samples: 8,
    depth: 3,
    nodes: 150_000,
};

/// An opposing piece whose kind the seat does not know.
pub type Unknown = crate::kinds::Unknown<Point, Kind>;

/// A seat's belief about the opposing side.
#[derive(Clone, Debug)]
pub struct Belief {
    /// The side the seat plays.
    pub side: Side,
    /// The pieces whose kind it does not know.
    pub unknown: Vec<Unknown>,
    /// How many of each kind ([`Kind::ALL`]'s order) the unknown pieces hold between them.
    pub pool: [u8; 21],
    /// The board as the seat sees it, unknown pieces standing as privates.
    pub board: Board,
}

fn index(kind: Kind) -> usize {
    kind as usize
}

impl Belief {
    /// The belief of the seat playing `side`, from its view; `None` before both deployments,
    /// or when its clues cannot all hold at once.
    pub fn of(view: &SeaLandAirView, side: Side) -> Option<Belief> {
        if view.deployed.iter().any(|d| !d) {
            return None;
        }
        let theirs = side.other();
        let mut pool = [0u8; 21];
        for k in Kind::ALL {
            pool[index(k)] = k.count() as u8;
        }
        let take = |k: Kind, pool: &mut [u8; 21]| -> Option<()> {
            let slot = &mut pool[index(k)];
            *slot = slot.checked_sub(1)?;
            Some(())
        };
        let mut unknown = Vec::new();
        let board = view.board();
        for seen in view.pieces.iter().filter(|s| s.side == theirs) {
            let at: Point = seen.at.parse().ok()?;
            match seen.kind {
                Some(k) => take(k, &mut pool)?,
                None => unknown.push(Unknown {
                    at: Some(at),
                    could_be: seen
                        .could_be
                        .unwrap_or(Kinds::ALL)
                        .and(kinds_on(at.layer())),
                }),
            }
        }
        let clues = view.lost_could_be.get(theirs as usize);
        for (i, kind) in view.lost[theirs as usize].iter().enumerate() {
            match kind {
                Some(k) => take(*k, &mut pool)?,
                None => unknown.push(Unknown {
                    at: None,
                    could_be: clues.and_then(|c| c.get(i).copied()).unwrap_or(Kinds::ALL),
                }),
            }
        }
        let sets: Vec<Kinds> = unknown.iter().map(|u| u.could_be).collect();
        if pool.iter().map(|&n| usize::from(n)).sum::<usize>() != unknown.len()
            || !feasible(&sets, &pool)
        {
            return None;
        }
        Some(Belief {
            side,
            unknown,
            pool,
            board,
        })
    }

    /// Draws one complete assignment of kinds to the unknown pieces (in `unknown`'s order)
    /// that every clue allows, weighted by how players deploy.
    pub fn sample(&self, seed: u64) -> Vec<Kind> {
        let theirs = self.side.other();
        let sets: Vec<Kinds> = self.unknown.iter().map(|u| u.could_be).collect();
        draw(&sets, &self.pool, seed, |i, k| {
            let u = self.unknown[i];
            // Only a piece that has not moved tells where it was deployed.
            match u.at {
                Some(p) if u.could_be.contains(Kind::Landmine) || p.layer() != Layer::Land => {
                    likelihood(theirs, p, k)
                }
                _ => 1.0,
            }
        })
    }

    /// The board with the unknown pieces given the kinds of a sample.
    pub fn board_with(&self, sample: &[Kind]) -> Board {
        let mut board = self.board.clone();
        for (u, &kind) in self.unknown.iter().zip(sample) {
            if let Some(p) = u.at
                && let Some(piece) = board.get(p)
            {
                board.set(p, Some(Piece { kind, ..piece }));
            }
        }
        board
    }
}

/// How much likelier a player deploys `kind` on `p` than chance would, measured once over
/// sensible layouts and random ones (two to one), smoothed so that no legal placement is ruled
/// out. A point outside the side's placement points tells nothing.
fn likelihood(side: Side, p: Point, kind: Kind) -> f64 {
    let order = placement_order(side);
    let Some(key) = order.iter().position(|&q| q == p) else {
        return 1.0;
    };
    let table = TABLE.get_or_init(|| {
        let mut counts = vec![[0.0f64; 21]; 37];
        let mut add = |d: &Deployment| {
            for (key, &(_, k)) in d.pieces.iter().enumerate() {
                counts[key][index(k)] += 1.0;
            }
        };
        for seed in 0..2000 {
            add(&Deployment::sensible(Side::South, seed));
        }
        for seed in 0..1000 {
            add(&Deployment::random(Side::South, seed));
        }
        counts
            .into_iter()
            .map(|c| {
                let total: f64 = c.iter().sum();
                let present = Kind::ALL.iter().filter(|k| c[index(**k)] > 0.0).count();
                let mut ratio = [1.0; 21];
                for k in Kind::ALL {
                    // What chance alone would give among the kinds that go there.
                    let share = 1.0 / present.max(1) as f64;
                    let seen = (c[index(k)] + 2.0 * share) / (total + 2.0);
                    ratio[index(k)] = seen / share;
                }
                ratio
            })
            .collect::<Vec<_>>()
    });
    table[key][index(kind)]
}

static TABLE: OnceLock<Vec<[f64; 21]>> = OnceLock::new();

/// A board that shows every piece, with what the rules need besides: where each side's
/// aircraft stands that attacked on its last turn (it may retreat safely, R2).
#[derive(Clone, Debug)]
struct Full {
    board: Board,
    attacked_last: [Option<Point>; 2],
}

impl Position for Full {
    type Side = Side;
    type Turn = Move;

    fn other(side: Side) -> Side {
        side.other()
    }

    fn turns(&self, side: Side) -> Vec<Move> {
        let mut moves = self.board.moves(side);
        // Attacks first: they decide most.
        moves.sort_by_key(|m| self.board.get(m.to).is_none());
        moves
    }

    fn take(&mut self, side: Side, m: Move) -> Taken {
        let mover = self.board.get(m.from);
        let after_attack = self.attacked_last[side as usize] == Some(m.from);
        let played = self.board.play(m, after_attack);
        let mut attacked = None;
        let taken = match played {
            Played::Moved | Played::Retreated { shot_down: false } => Taken::Quiet,
            Played::Retreated { shot_down: true } => Taken::Reset,
            Played::Battle { clash, removed, .. } => {
                let aircraft = mover.is_some_and(|p| p.kind.is_aircraft());
                let survived = mover.is_some_and(|p| !removed.contains(&p));
                if aircraft && survived && clash != Clash::BothHome {
                    attacked = Some(if m.remote { m.from } else { m.to });
                }
                match clash {
                    Clash::FlagTaken => Taken::Won,
                    _ if removed.is_empty() => Taken::Quiet,
                    _ => Taken::Reset,
                }
            }
        };
        self.attacked_last[side as usize] = attacked;
        taken
    }

    fn judge(&self, side: Side) -> i32 {
        evaluate(&self.board, side) + threat(&self.board, side) * 3 / 4
    }
}

/// Chooses a move for `side` from its view thinking with `effort` (`quiet_limit`: the plies
/// without a battle that draw), or `None` when the view
/// gives nothing to draw boards from (before the deployments, or clues that cannot all hold)
/// or the side has no move.
pub fn choose(
    view: &SeaLandAirView,
    side: Side,
    quiet_limit: u32,
    effort: Effort,
    seed: u64,
) -> Option<Move> {
    let belief = Belief::of(view, side)?;
    let roots = belief.board.moves(side);
    let attacked_last = [0, 1].map(|i| {
        view.attacked_last[i]
            .as_deref()
            .and_then(|p| p.parse().ok())
    });
    let quiet = Quiet {
        plies: view.quiet_plies,
        limit: quiet_limit,
    };
    let pick = pimc::choose(
        &roots,
        side,
        !belief.unknown.is_empty(),
        |seed| Full {
            board: belief.board_with(&belief.sample(seed)),
            attacked_last,
        },
        quiet,
        effort,
        seed,
    )?;
    roots.get(pick).copied()
}

/// What a piece is worth in trades.
fn worth(kind: Kind) -> i32 {
    super::bot::value(kind) as i32 * 25
}

/// The fewest moves between two points for a piece that goes by land, sea and the ports (a
/// railway line is one move).
fn distance(a: Point, b: Point) -> u32 {
    let table = DISTANCES.get_or_init(|| {
        let m = map();
        crate::graph::step_counts(POINTS, |p| {
            let mut next: Vec<usize> = m.land.links(p).iter().map(|l| l.to).collect();
            next.extend(m.sea.links(p).iter().map(|l| l.to));
            next.extend(m.land.rail_slides(p, |_| false));
            for &(port, land) in &m.landings {
                if port.index() == p {
                    next.push(land.index());
                } else if land.index() == p {
                    next.push(port.index());
                }
            }
            next
        })
    });
    u32::from(table[a.index()][b.index()])
}

static DISTANCES: OnceLock<Vec<Vec<u8>>> = OnceLock::new();

/// Whether a piece of this kind can take a flag (walk onto it).
fn takes_flags(kind: Kind) -> bool {
    !kind.immobile() && !kind.is_aircraft() && kind != Kind::Missile
}

/// The value of a board that shows every piece, for `side`: material, the danger to each flag
/// from the other side's pieces that can walk onto it, the hunt (a piece near one that beats
/// it), and a little for advancing on land.
fn evaluate(board: &Board, side: Side) -> i32 {
    let mut score = [0i32; 2];
    let mut flags: [Option<Point>; 2] = [None, None];
    // The points of each side's pieces that walk (and so hunt, and can take a flag).
    let mut walkers = [0u128; 2];
    let mut standing: [Vec<(Point, Kind)>; 2] = [Vec::new(), Vec::new()];
    for (p, piece) in board.pieces() {
        let i = piece.side as usize;
        score[i] += worth(piece.kind);
        if piece.kind == Kind::Flag {
            flags[i] = Some(p);
            continue;
        }
        if !p.is_ground() {
            continue;
        }
        standing[i].push((p, piece.kind));
        if takes_flags(piece.kind) {
            walkers[i] |= 1 << p.index();
            if p.layer() == Layer::Land
                && let Some((row, _)) = p.row_column()
            {
                score[i] += piece.side.own_row(row) as i32 * 3;
            }
        }
    }
    let near = nearby();
    let beats = beats();
    for i in 0..2 {
        if let Some(flag) = flags[i] {
            let danger: i32 = points_of(walkers[1 - i] & near[flag.index()])
                .map(|p| 4 - distance(p, flag) as i32)
                .map(|d| d * d * 40)
                .sum();
            score[i] -= danger;
        }
        // The hunt: a piece within reach of one that beats it is half lost already.
        for &(t, prey) in &standing[1 - i] {
            let closest = points_of(walkers[i] & near[t.index()])
                .filter(|&p| {
                    board
                        .get(p)
                        .is_some_and(|hunter| beats[index(hunter.kind)][index(prey)])
                })
                .map(|p| distance(p, t))
                .min();
            if let Some(d) = closest {
                let d = 4 - d as i32;
                score[i] += d * d * worth(prey) / 60;
            }
        }
    }
    let me = side as usize;
    score[me] - score[1 - me]
}

/// The points in a set of points (bit `index`).
fn points_of(mut set: u128) -> impl Iterator<Item = Point> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let i = set.trailing_zeros() as usize;
        set &= set - 1;
        Point::from_index(i)
    })
}

/// For each point, the points at most three moves away (see [`distance`]).
fn nearby() -> &'static [u128] {
    static NEARBY: OnceLock<Vec<u128>> = OnceLock::new();
    NEARBY.get_or_init(|| {
        Point::all()
            .map(|a| {
                Point::all()
                    .filter(|&b| distance(a, b) <= 3)
                    .fold(0u128, |set, b| set | 1 << b.index())
            })
            .collect()
    })
}

/// Whether an attack by moving of the first kind on the second removes it and nothing else.
fn beats() -> &'static [[bool; 21]; 21] {
    static BEATS: OnceLock<[[bool; 21]; 21]> = OnceLock::new();
    BEATS.get_or_init(|| {
        let mut table = [[false; 21]; 21];
        for a in Kind::ALL {
            for d in Kind::ALL {
                table[index(a)][index(d)] = melee(a, d) == Clash::AttackerWins;
            }
        }
        table
    })
}

/// The most `side`, to move, wins by one attack, so that a position with a capture waiting
/// is not judged as if the capture could not happen.
fn threat(board: &Board, side: Side) -> i32 {
    let mut best = 0;
    for m in board.moves(side) {
        let (Some(attacker), Some(target)) = (board.get(m.from), board.get(m.to)) else {
            continue;
        };
        if target.side == side || target.kind == Kind::Flag {
            continue;
        }
        let clash = if m.remote {
            remote(attacker.kind, target.kind)
        } else {
            melee(attacker.kind, target.kind)
        };
        let gain = match clash {
            Clash::AttackerWins => worth(target.kind),
            Clash::BothRemoved => worth(target.kind) - worth(attacker.kind),
            _ => 0,
        };
        best = best.max(gain);
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rules as _;
    use crate::sealandair::{SeaLandAir, SeaLandAirMove, SeaLandAirOptions};
    use crate::{Actor, Match, Seat, ToAct, Viewer};

    #[test]
    fn a_search_plays_a_legal_move_and_the_same_one_for_the_same_seed() {
        let mut game: Match<SeaLandAir> =
            Match::new(&SeaLandAirOptions::default(), None).unwrap_or_else(|e| panic!("{e:?}"));
        for (seat, side) in [(Seat::FIRST, Side::South), (Seat::SECOND, Side::North)] {
            let text = Deployment::sensible(side, 3).to_text();
            game.apply_text(Actor::Seat(seat), &format!("deploy:{text}"))
                .unwrap_or_else(|e| panic!("{e:?}"));
        }
        for _ in 0..6 {
            let ToAct::Seat(seat) = game.to_act() else {
                break;
            };
            let side = crate::sealandair::state::side_of(seat);
            let view = game.game().view(Viewer::Seat(seat));
            let a = choose(&view, side, 80, NORMAL, 11);
            let b = choose(&view, side, 80, NORMAL, 11);
            assert_eq!(a, b);
            let m = a.unwrap_or_else(|| panic!("no move"));
            game.apply_text(Actor::Seat(seat), &SeaLandAirMove::Go(m).to_string())
                .unwrap_or_else(|e| panic!("{m}: {e:?}"));
        }
    }

    #[test]
    fn deployment_habits_show_in_the_likelihoods() {
        let city = Point::circle(0, 2).unwrap_or_else(|| unreachable!());
        let north_city = Point::circle(11, 2).unwrap_or_else(|| unreachable!());
        let front = Point::circle(4, 2).unwrap_or_else(|| unreachable!());
        assert!(likelihood(Side::South, city, Kind::Flag) > 2.0);
        assert!(likelihood(Side::North, north_city, Kind::Flag) > 2.0);
        assert!(likelihood(Side::South, front, Kind::Flag) < 0.1);
    }
}
