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

/// Why a move is not possible, as the player is told.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum NoMove {
    /// The piece lies face down (flip mode): turn it up first.
    FaceDown,
    /// Landmines and the flag never move.
    Immobile,
    /// A piece in a headquarters stays there.
    InHeadquarters,
    /// The target holds one of the mover's own pieces.
    OwnPiece,
    /// The target lies face down: it cannot be attacked.
    FaceDownTarget,
    /// A piece in a camp cannot be attacked.
    CampSafe,
    /// Only an Engineer or a Bomb may attack a landmine (a house rule).
    LandmineNeedsEngineer,
    /// A Bomb never attacks the flag (flip mode).
    BombOnFlag,
    /// The flag can be taken only once its side's landmines are gone (flip mode).
    FlagGuarded,
    /// Bombs may not enter the opponent's headquarters (a house rule).
    BombIntoHeadquarters,
    /// Only the Engineer turns corners on the railway.
    OnlyEngineerTurns,
    /// A piece stands in the way on the railway.
    RailBlocked,
    /// The move goes straight over a mountain (between b5 and b6, or d5 and d6): nothing
    /// crosses there, by road or rail.
    Mountain,
    /// No road or railway leads there in one move (a road moves one step; the front line is
    /// crossed only where a road or railway crosses it).
    NoRoad,
}

impl NoMove {
    /// The stable code the screens translate.
    pub fn code(self) -> &'static str {
        match self {
            NoMove::FaceDown => "face-down",
            NoMove::Immobile => "immobile",
            NoMove::InHeadquarters => "in-headquarters",
            NoMove::OwnPiece => "own-piece",
            NoMove::FaceDownTarget => "face-down-target",
            NoMove::CampSafe => "camp-safe",
            NoMove::LandmineNeedsEngineer => "landmine-needs-engineer",
            NoMove::BombOnFlag => "bomb-on-flag",
            NoMove::FlagGuarded => "flag-guarded",
            NoMove::BombIntoHeadquarters => "bomb-into-headquarters",
            NoMove::OnlyEngineerTurns => "only-engineer-turns",
            NoMove::RailBlocked => "rail-blocked",
            NoMove::Mountain => "mountain",
            NoMove::NoRoad => "no-road",
        }
    }
}

/// House rules that change movement.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MoveRules {
    /// Pieces in a camp cannot be attacked (default); off: camps are not safe (seed 002 v3).
    pub camps_safe: bool,
    /// Bombs may move into the opponent's headquarters (default); off: never (seed 002 v2).
    pub bombs_enter_headquarters: bool,
    /// Flip mode (seed 002 v1): a Bomb never attacks a flag, and a flag can be attacked only
    /// once all its side's landmines are gone. (Face-down pieces are never entered in any mode.)
    pub flip: bool,
    /// Any piece may attack a landmine (default); off: only Engineers and Bombs may (a flip-mode
    /// option).
    pub landmines_attackable: bool,
}

impl Default for MoveRules {
    fn default() -> Self {
        MoveRules {
            camps_safe: true,
            bombs_enter_headquarters: true,
            flip: false,
            landmines_attackable: true,
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

/// The pieces on the 60 points, which of them lie face down (flip mode), and which pieces in a
/// headquarters may still move (flip mode deals some there).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Board {
    cells: [Option<Piece>; POINTS],
    /// Bit `i`: the piece on point `i` lies face down.
    face_down: u64,
    /// Bit `i`: the piece on point `i` stands in a headquarters and may still move.
    free: u64,
}

impl Default for Board {
    fn default() -> Self {
        Board {
            cells: [None; POINTS],
            face_down: 0,
            free: 0,
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

    /// Puts a piece on a point (or clears it). The piece lies face up and, in a headquarters,
    /// never moves again.
    pub fn set(&mut self, p: Point, piece: Option<Piece>) {
        self.cells[p.index()] = piece;
        self.face_down &= !(1 << p.index());
        self.free &= !(1 << p.index());
    }

    /// Returns true if the piece on `p` lies face down.
    pub fn is_face_down(&self, p: Point) -> bool {
        self.face_down & (1 << p.index()) != 0
    }

    /// Turns the piece on `p` face down (`true`) or up.
    pub fn set_face_down(&mut self, p: Point, down: bool) {
        if down {
            self.face_down |= 1 << p.index();
        } else {
            self.face_down &= !(1 << p.index());
        }
    }

    /// Returns true if the piece on `p` stands in a headquarters yet may still move (it was
    /// dealt there in flip mode).
    pub fn is_free(&self, p: Point) -> bool {
        self.free & (1 << p.index()) != 0
    }

    /// Lets the piece on `p`, in a headquarters, move (`true`) or locks it.
    pub fn set_free(&mut self, p: Point, free: bool) {
        if free {
            self.free |= 1 << p.index();
        } else {
            self.free &= !(1 << p.index());
        }
    }

    /// Returns how many of this side's landmines are on the board (face down ones included).
    pub fn landmines(&self, side: Side) -> usize {
        self.cells
            .iter()
            .flatten()
            .filter(|p| p.side == side && p.rank == Rank::Landmine)
            .count()
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
        // Landmines and the flag never move, nor does anything in a headquarters (unless
        // flip mode dealt it there) or face down.
        if piece.rank.immobile()
            || (from.is_headquarters() && !self.is_free(from))
            || self.is_face_down(from)
        {
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
            Some(other) if other.side == piece.side || self.is_face_down(to) => false,
            Some(_) if to.is_camp() && rules.camps_safe => false,
            Some(other) if other.rank == Rank::Landmine => {
                rules.landmines_attackable || matches!(piece.rank, Rank::Engineer | Rank::Bomb)
            }
            Some(other) if other.rank == Rank::Flag && rules.flip => {
                piece.rank != Rank::Bomb && self.landmines(other.side) == 0
            }
            Some(_) => true,
        }
    }

    /// Why the piece on `from` may not move to `to`, for the player who tried it: `None`
    /// when it may, or when there is no piece there. Asked of a board built from a seat's view
    /// it tells nothing the view does not show (an unknown piece is not said to be a landmine).
    pub fn why_not(&self, from: Point, to: Point, rules: MoveRules) -> Option<NoMove> {
        let piece = self.get(from)?;
        if self.is_face_down(from) {
            return Some(NoMove::FaceDown);
        }
        if piece.rank.immobile() {
            return Some(NoMove::Immobile);
        }
        if from.is_headquarters() && !self.is_free(from) {
            return Some(NoMove::InHeadquarters);
        }
        if self.targets(from, rules).contains(&to) {
            return None;
        }
        let g = graph();
        let (a, b) = (from.index(), to.index());
        let engineer = piece.rank == Rank::Engineer;
        let rail = |occupied: &dyn Fn(usize) -> bool| {
            g.on_rail(a)
                && if engineer {
                    g.rail_paths(a, occupied).contains(&b)
                } else {
                    g.rail_slides(a, occupied).contains(&b)
                }
        };
        let occupied = |i: usize| self.cells[i].is_some();
        if g.links(a).iter().any(|l| l.to == b) || rail(&occupied) {
            return Some(self.refusal(piece, to, rules));
        }
        let empty = |_: usize| false;
        if rail(&empty) {
            return Some(NoMove::RailBlocked);
        }
        // Straight ahead over a mountain: an engineer's rail path goes round it, but the
        // player meant to cross, and nothing does there.
        if from.column() == to.column()
            && super::board::MOUNTAINS.iter().any(|&(north, south)| {
                let column = |i: usize| i % super::board::COLUMNS;
                column(north) == from.column()
                    && from.row().min(to.row()) <= north / super::board::COLUMNS
                    && from.row().max(to.row()) >= south / super::board::COLUMNS
            })
        {
            return Some(NoMove::Mountain);
        }
        if !engineer && g.on_rail(a) && g.rail_paths(a, empty).contains(&b) {
            return Some(NoMove::OnlyEngineerTurns);
        }
        Some(NoMove::NoRoad)
    }

    /// Why `piece` may not end its move on `to`, which it can reach (see `may_enter`).
    fn refusal(&self, piece: Piece, to: Point, rules: MoveRules) -> NoMove {
        match self.get(to) {
            Some(other) if other.side == piece.side => NoMove::OwnPiece,
            Some(_) if self.is_face_down(to) => NoMove::FaceDownTarget,
            Some(_) if to.is_camp() && rules.camps_safe => NoMove::CampSafe,
            Some(other) if other.rank == Rank::Landmine => NoMove::LandmineNeedsEngineer,
            Some(other) if other.rank == Rank::Flag && piece.rank == Rank::Bomb => {
                NoMove::BombOnFlag
            }
            Some(other) if other.rank == Rank::Flag => NoMove::FlagGuarded,
            _ => NoMove::BombIntoHeadquarters,
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
