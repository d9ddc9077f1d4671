//! Junqi movement: one step along any link, or along the railroad (one straight line for most
//! pieces, any path of empty rail points for the Engineer); what may never move; what may not be
//! attacked (../shared/RULES.md).

use super::board::{POINTS, Point, graph};
use super::deployment::Deployment;
use super::pieces::{Rank, Side};
use std::fmt;
use std::str::FromStr;

/// A piece on the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    /// Whose it is.
    pub side: Side,
    /// What it is.
    pub rank: Rank,
}

/// House rules that change movement.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MoveRules {
    /// Pieces in a camp cannot be attacked (default); off: camps are not safe (seed 002 v3).
    pub camps_safe: bool,
    /// Bombs may move into the opponent's headquarters (default); off: never (seed 002 v2).
    pub bombs_enter_headquarters: bool,
}

impl Default for MoveRules {
    fn default() -> Self {
        MoveRules {
            camps_safe: true,
            bombs_enter_headquarters: true,
        }
    }
}

/// A move from one point to another (an attack when the other is occupied).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    /// Where the piece stands.
    pub from: Point,
    /// Where it goes.
    pub to: Point,
}

impl fmt::Display for Move {
    /// Writes both points: `a1a5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

impl FromStr for Move {
    type Err = String;
    /// Reads `a1a5` or `c10c11`: two points, column letters then rows.
    fn from_str(text: &str) -> Result<Move, String> {
        let second = text
            .char_indices()
            .skip(1)
            .find(|(_, c)| c.is_ascii_alphabetic())
            .map(|(i, _)| i)
            .ok_or_else(|| format!("{text:?}: expected two points like a1a5"))?;
        Ok(Move {
            from: text[..second].parse()?,
            to: text[second..].parse()?,
        })
    }
}

/// The pieces on the 60 points.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Board {
    cells: [Option<Piece>; POINTS],
}

impl Default for Board {
    fn default() -> Self {
        Board {
            cells: [None; POINTS],
        }
    }
}

impl Board {
    /// Places both sides' deployments.
    pub fn from_deployments(a: &Deployment, b: &Deployment) -> Board {
        let mut board = Board::default();
        for d in [a, b] {
            for &(p, rank) in &d.pieces {
                board.set(p, Some(Piece { side: d.side, rank }));
            }
        }
        board
    }

    /// Returns what stands on a point.
    pub fn get(&self, p: Point) -> Option<Piece> {
        self.cells[p.index()]
    }

    /// Puts a piece on a point (or clears it).
    pub fn set(&mut self, p: Point, piece: Option<Piece>) {
        self.cells[p.index()] = piece;
    }

    /// Iterates over the occupied points.
    pub fn pieces(&self) -> impl Iterator<Item = (Point, Piece)> + '_ {
        Point::all().filter_map(|p| self.get(p).map(|piece| (p, piece)))
    }

    /// Returns every point the piece on `from` may move to or attack.
    pub fn targets(&self, from: Point, rules: MoveRules) -> Vec<Point> {
        let Some(piece) = self.get(from) else {
            return Vec::new();
        };
        // Landmines and the flag never move, nor does anything in a headquarters.
        if piece.rank.immobile() || from.is_headquarters() {
            return Vec::new();
        }
        let g = graph();
        let occupied = |i: usize| self.cells[i].is_some();
        let mut reach: Vec<usize> = g.links(from.index()).iter().map(|l| l.to).collect();
        if g.on_rail(from.index()) {
            let along = if piece.rank == Rank::Engineer {
                g.rail_paths(from.index(), occupied)
            } else {
                g.rail_slides(from.index(), occupied)
            };
            reach.extend(along);
        }
        reach.sort_unstable();
        reach.dedup();
        reach
            .into_iter()
            .filter_map(Point::from_index)
            .filter(|&to| self.may_enter(piece, to, rules))
            .collect()
    }

    /// Returns true if `piece` may end its move on `to` (moving or attacking).
    fn may_enter(&self, piece: Piece, to: Point, rules: MoveRules) -> bool {
        if piece.rank == Rank::Bomb
            && !rules.bombs_enter_headquarters
            && to.is_headquarters()
            && piece.side.own_row(to.row()) > 5
        {
            return false;
        }
        match self.get(to) {
            None => true,
            Some(other) if other.side == piece.side => false,
            Some(_) => !(to.is_camp() && rules.camps_safe),
        }
    }

    /// Returns every move `side` may make.
    pub fn moves(&self, side: Side, rules: MoveRules) -> Vec<Move> {
        self.pieces()
            .filter(|(_, piece)| piece.side == side)
            .flat_map(|(from, _)| {
                self.targets(from, rules)
                    .into_iter()
                    .map(move |to| Move { from, to })
            })
            .collect()
    }
}
