//! What a seat believes about the opposing pieces it cannot see (referee mode): for each unknown
//! piece, on the board or fallen, the kinds it can still be (the clues in the seat's view), and
//! the opponent's whole army, which those pieces must make up between them. Complete boards
//! consistent with every clue are drawn at random, weighted by how players deploy (a flag in a
//! headquarters guarded by landmines, bombs behind the front, and so on): a determinization, on
//! which a computer can search as if it saw everything.

use super::board::{POINTS, Point};
use super::clues::Ranks;
use super::deployment::Deployment;
use super::movegen::{Board, Piece};
use super::pieces::{Rank, Side};
use super::state::Visibility;
use super::view::JunqiView;
use crate::rng::Rng;
use std::sync::OnceLock;

/// An opposing piece whose kind the seat does not know.
pub type Unknown = crate::kinds::Unknown<Point, Rank>;

/// A seat's belief about the opposing side.
#[derive(Clone, Debug)]
pub struct Belief {
    /// The side the seat plays.
    pub side: Side,
    /// The pieces whose kind it does not know.
    pub unknown: Vec<Unknown>,
    /// How many of each kind ([`Rank::ALL`]'s order) the unknown pieces hold between them.
    pub pool: [u8; 12],
    /// The board as the seat sees it, unknown pieces standing as captains.
    pub board: Board,
}

fn index(rank: Rank) -> usize {
    rank as usize
}

impl Belief {
    /// The belief of the seat playing `side`, from its view; `None` when the view shows no
    /// game under way in referee mode, or its clues cannot all hold at once.
    pub fn of(view: &JunqiView, side: Side) -> Option<Belief> {
        if view.visibility != Visibility::Referee || view.deployed.iter().any(|d| !d) {
            return None;
        }
        let theirs = side.other();
        let mut pool = [0u8; 12];
        for r in Rank::ALL {
            pool[index(r)] = r.count() as u8;
        }
        let mut unknown = Vec::new();
        let mut board = Board::default();
        for seen in &view.pieces {
            let at: Point = seen.at.parse().ok()?;
            let rank = match seen.rank {
                Some(r) => {
                    if seen.side == theirs {
                        let slot = &mut pool[index(r)];
                        *slot = slot.checked_sub(1)?;
                    }
                    r
                }
                None => {
                    unknown.push(Unknown {
                        at: Some(at),
                        could_be: seen.could_be.unwrap_or(Ranks::ALL),
                    });
                    Rank::Captain
                }
            };
            board.set(
                at,
                Some(Piece {
                    side: seen.side,
                    rank,
                }),
            );
        }
        let lost = &view.lost[theirs as usize];
        let clues = &view.lost_could_be[theirs as usize];
        for (i, rank) in lost.iter().enumerate() {
            match rank {
                Some(r) => {
                    let slot = &mut pool[index(*r)];
                    *slot = slot.checked_sub(1)?;
                }
                None => unknown.push(Unknown {
                    at: None,
                    could_be: clues.get(i).copied().unwrap_or(Ranks::ALL),
                }),
            }
        }
        let masks: Vec<Ranks> = unknown.iter().map(|u| u.could_be).collect();
        if pool.iter().map(|&n| usize::from(n)).sum::<usize>() != unknown.len()
            || !feasible(&masks, pool)
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
    pub fn sample(&self, seed: u64) -> Vec<Rank> {
        let theirs = self.side.other();
        let sets: Vec<Ranks> = self.unknown.iter().map(|u| u.could_be).collect();
        crate::kinds::draw(&sets, &self.pool, seed, |i, r| {
            self.unknown[i].at.map_or(1.0, |p| likelihood(theirs, p, r))
        })
    }

    /// The board with the unknown pieces given the kinds of a sample.
    pub fn board_with(&self, sample: &[Rank]) -> Board {
        let mut board = self.board.clone();
        let theirs = self.side.other();
        for (u, &rank) in self.unknown.iter().zip(sample) {
            if let Some(p) = u.at {
                board.set(p, Some(Piece { side: theirs, rank }));
            }
        }
        board
    }
}

/// Flip mode: what lies face down is the rest of both armies, dealt at random, and nothing
/// tells one face-down piece from another; a board is drawn by shuffling the rest onto them.
#[derive(Clone, Debug)]
pub struct FlipBelief {
    /// The board as everyone sees it: face-up pieces, and the face-down points holding
    /// placeholders.
    pub board: Board,
    /// The face-down points.
    pub hidden: Vec<Point>,
    /// The pieces not face up and not fallen: what the face-down points hold between them.
    pub rest: Vec<Piece>,
}

impl FlipBelief {
    /// The belief from a flip-mode view once the deal is made; `None` otherwise, or when the
    /// view's counts do not add up.
    pub fn of(view: &JunqiView) -> Option<FlipBelief> {
        if view.visibility != Visibility::Flip {
            return None;
        }
        view.landmines_left?;
        let mut rest = super::state::full_sets();
        let mut take = |piece: Piece| -> Option<()> {
            let i = rest.iter().position(|p| *p == piece)?;
            rest.swap_remove(i);
            Some(())
        };
        let mut board = Board::default();
        for seen in &view.pieces {
            let at: Point = seen.at.parse().ok()?;
            let rank = seen.rank?;
            take(Piece {
                side: seen.side,
                rank,
            })?;
            board.set(
                at,
                Some(Piece {
                    side: seen.side,
                    rank,
                }),
            );
        }
        for side in [Side::South, Side::North] {
            for rank in &view.lost[side as usize] {
                take(Piece {
                    side,
                    rank: (*rank)?,
                })?;
            }
        }
        let hidden: Vec<Point> = view
            .face_down
            .iter()
            .map(|p| p.parse().ok())
            .collect::<Option<_>>()?;
        if hidden.len() != rest.len() {
            return None;
        }
        // Placeholders, with each side's landmines as many as the view says (a flag can be
        // attacked only once they are gone): whose they are does not matter otherwise.
        rest.sort_by_key(|p| (p.rank != Rank::Landmine, p.side as u8, p.rank));
        for (&p, &piece) in hidden.iter().zip(&rest) {
            board.set(p, Some(piece));
            board.set_face_down(p, true);
        }
        for p in view
            .free_in_headquarters
            .iter()
            .filter_map(|p| p.parse().ok())
        {
            board.set_free(p, true);
        }
        Some(FlipBelief {
            board,
            hidden,
            rest,
        })
    }

    /// Draws one board: the rest shuffled onto the face-down points.
    pub fn board(&self, seed: u64) -> Board {
        let mut rng = Rng::new(seed);
        let mut rest = self.rest.clone();
        rng.shuffle(&mut rest);
        let mut board = self.board.clone();
        for (&p, &piece) in self.hidden.iter().zip(&rest) {
            let free = board.is_free(p);
            board.set(p, Some(piece));
            board.set_face_down(p, true);
            board.set_free(p, free);
        }
        board
    }
}

pub(crate) fn feasible(masks: &[Ranks], pool: [u8; 12]) -> bool {
    crate::kinds::feasible(masks, &pool)
}

/// How much likelier a player deploys `rank` on `p` than chance would (the ratio of the two
/// frequencies): measured once over considered layouts and random ones, three to one, smoothed so
/// that no legal placement is ruled out. A point outside the side's half (the piece has moved
/// there) tells nothing.
fn likelihood(side: Side, p: Point, rank: Rank) -> f64 {
    let own_row = side.own_row(p.row());
    if own_row > 5 {
        return 1.0;
    }
    let column = p.column();
    let table = TABLE.get_or_init(|| {
        let mut counts = vec![[0.0f64; 12]; POINTS];
        let mut add = |d: &Deployment, weight: f64| {
            for &(q, r) in &d.pieces {
                let key = Side::South.own_row(q.row()) * 5 + q.column();
                counts[key][index(r)] += weight;
            }
        };
        for seed in 0..3000 {
            add(&Deployment::considered(Side::South, seed), 1.0);
        }
        for seed in 0..1000 {
            add(&Deployment::random(Side::South, seed), 1.0);
        }
        counts
            .into_iter()
            .map(|c| {
                let total: f64 = c.iter().sum();
                let mut ratio = [1.0; 12];
                for r in Rank::ALL {
                    let share = r.count() as f64 / 25.0;
                    let seen = (c[index(r)] + 2.0 * share) / (total + 2.0);
                    ratio[index(r)] = seen / share;
                }
                ratio
            })
            .collect()
    });
    table[own_row * 5 + column][index(rank)]
}

static TABLE: OnceLock<Vec<[f64; 12]>> = OnceLock::new();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feasibility_counts_places() {
        let mut pool = [0u8; 12];
        pool[index(Rank::Flag)] = 1;
        pool[index(Rank::Bomb)] = 1;
        let flag_or_bomb: Ranks = [Rank::Flag, Rank::Bomb].into_iter().collect();
        assert!(feasible(&[flag_or_bomb, Ranks::only(Rank::Flag)], pool));
        assert!(!feasible(
            &[Ranks::only(Rank::Flag), Ranks::only(Rank::Flag)],
            pool
        ));
        assert!(!feasible(&[Ranks::only(Rank::Captain)], pool));
    }

    #[test]
    fn deployment_habits_show_in_the_likelihoods() {
        let hq = Point::new(0, 1).unwrap_or_else(|| unreachable!());
        let front = Point::new(5, 2).unwrap_or_else(|| unreachable!());
        assert!(likelihood(Side::South, hq, Rank::Flag) > 5.0);
        assert!(likelihood(Side::South, front, Rank::Flag) < 0.1);
        assert!(
            likelihood(Side::South, front, Rank::Lieutenant)
                > likelihood(Side::South, front, Rank::Engineer)
        );
        // North's headquarters likes the flag just as South's does.
        let north_hq = Point::new(11, 3).unwrap_or_else(|| unreachable!());
        assert!(likelihood(Side::North, north_hq, Rank::Flag) > 5.0);
    }
}
