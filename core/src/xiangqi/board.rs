//! Points, pieces and the precomputed move tables of the 9×10 Xiangqi board.
//!
//! A point is `rank * 9 + file`: file 0 (`a`) is Red's left, rank 0 is Red's back rank
//! (rank `1` in Fairy-Stockfish coordinates).

use std::fmt;

/// Files on the board.
pub const FILES: usize = 9;
/// Ranks on the board.
pub const RANKS: usize = 10;
/// Points on the board.
pub const POINTS: usize = FILES * RANKS;

/// A point of the board, `0..90`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Returns the point at this file (0–8) and rank (0–9), if on the board.
    pub const fn new(file: usize, rank: usize) -> Option<Square> {
        if file < FILES && rank < RANKS {
            Some(Square((rank * FILES + file) as u8))
        } else {
            None
        }
    }

    /// Returns the point with this index (0–89), if on the board.
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < POINTS {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// Returns the index, 0–89.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Returns the file, 0 (`a`, Red's left) to 8 (`i`).
    pub const fn file(self) -> usize {
        self.0 as usize % FILES
    }

    /// Returns the rank, 0 (Red's back rank) to 9 (Black's back rank).
    pub const fn rank(self) -> usize {
        self.0 as usize / FILES
    }

    /// Iterates over all 90 points.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..POINTS as u8).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file() as u8) as char,
            self.rank() + 1
        )
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A side. Red moves first and sits in seat 0.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    /// Red (uppercase in FEN), seat 0.
    Red = 0,
    /// Black (lowercase in FEN), seat 1.
    Black = 1,
}

impl Color {
    /// Returns the other side.
    pub const fn other(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    /// Returns 0 for Red, 1 for Black.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Returns true if this rank is on this side's half of the board.
    pub const fn own_half(self, rank: usize) -> bool {
        match self {
            Color::Red => rank <= 4,
            Color::Black => rank >= 5,
        }
    }
}

/// The seven kinds of piece.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Kind {
    /// General / King (帅, 将), `K`.
    King = 1,
    /// Advisor (仕, 士), `A`.
    Advisor = 2,
    /// Elephant (相, 象), `B` in FEN, `E` in WXF.
    Elephant = 3,
    /// Horse (马), `N` in FEN, `H` in WXF.
    Horse = 4,
    /// Chariot (车), `R`.
    Rook = 5,
    /// Cannon (炮), `C`.
    Cannon = 6,
    /// Soldier (兵, 卒), `P`.
    Pawn = 7,
}

impl Kind {
    /// All kinds.
    pub const ALL: [Kind; 7] = [
        Kind::King,
        Kind::Advisor,
        Kind::Elephant,
        Kind::Horse,
        Kind::Rook,
        Kind::Cannon,
        Kind::Pawn,
    ];

    /// Returns the kind's FEN letter, uppercase.
    pub const fn fen_char(self) -> char {
        match self {
            Kind::King => 'K',
            Kind::Advisor => 'A',
            Kind::Elephant => 'B',
            Kind::Horse => 'N',
            Kind::Rook => 'R',
            Kind::Cannon => 'C',
            Kind::Pawn => 'P',
        }
    }

    /// Returns true for the kinds that can cross the river (chariot, horse, cannon, soldier).
    pub const fn attacker(self) -> bool {
        matches!(self, Kind::Horse | Kind::Rook | Kind::Cannon | Kind::Pawn)
    }
}

/// A piece: a kind and a side, packed in a byte (0 is an empty point).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece(u8);

const BLACK_BIT: u8 = 8;

impl Piece {
    /// Returns the piece of this side and kind.
    pub const fn new(color: Color, kind: Kind) -> Piece {
        Piece(
            kind as u8
                | if matches!(color, Color::Black) {
                    BLACK_BIT
                } else {
                    0
                },
        )
    }

    /// Returns its side.
    pub const fn color(self) -> Color {
        if self.0 & BLACK_BIT != 0 {
            Color::Black
        } else {
            Color::Red
        }
    }

    /// Returns its kind.
    pub const fn kind(self) -> Kind {
        match self.0 & 7 {
            1 => Kind::King,
            2 => Kind::Advisor,
            3 => Kind::Elephant,
            4 => Kind::Horse,
            5 => Kind::Rook,
            6 => Kind::Cannon,
            _ => Kind::Pawn,
        }
    }

    /// Returns the byte stored on the board.
    pub(crate) const fn code(self) -> u8 {
        self.0
    }

    /// Returns the piece a non-zero board byte stands for.
    pub(crate) const fn from_code(code: u8) -> Piece {
        Piece(code)
    }

    /// Returns its FEN letter (uppercase Red, lowercase Black).
    pub fn fen_char(self) -> char {
        let c = self.kind().fen_char();
        match self.color() {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// Reads a FEN letter (`K A B N R C P`, lowercase for Black; `E`/`H` accepted too).
    pub fn from_fen_char(c: char) -> Option<Piece> {
        let kind = match c.to_ascii_uppercase() {
            'K' => Kind::King,
            'A' => Kind::Advisor,
            'B' | 'E' => Kind::Elephant,
            'N' | 'H' => Kind::Horse,
            'R' => Kind::Rook,
            'C' => Kind::Cannon,
            'P' => Kind::Pawn,
            _ => return None,
        };
        let color = if c.is_ascii_uppercase() {
            Color::Red
        } else {
            Color::Black
        };
        Some(Piece::new(color, kind))
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.fen_char())
    }
}

/// A move from one point to another. Its text is Fairy-Stockfish coordinates (`h3e3`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// Where the piece stands.
    pub from: Square,
    /// Where it goes.
    pub to: Square,
}

impl Move {
    /// Builds a move.
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

/// Returns true if the point is in the palace of this side.
pub const fn in_palace(color: Color, sq: usize) -> bool {
    let (file, rank) = (sq % FILES, sq / FILES);
    file >= 3
        && file <= 5
        && match color {
            Color::Red => rank <= 2,
            Color::Black => rank >= 7,
        }
}

/// Up to 8 targets per point, with the blocking point ("leg" or "eye") where one applies.
#[derive(Clone, Copy)]
pub(crate) struct Steps {
    pub len: u8,
    pub to: [u8; 8],
    pub block: [u8; 8],
}

impl Steps {
    const EMPTY: Steps = Steps {
        len: 0,
        to: [0; 8],
        block: [0; 8],
    };

    const fn push(mut self, to: usize, block: usize) -> Steps {
        self.to[self.len as usize] = to as u8;
        self.block[self.len as usize] = block as u8;
        self.len += 1;
        self
    }

    /// Iterates over `(to, block)` pairs.
    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..self.len as usize).map(|i| (self.to[i] as usize, self.block[i] as usize))
    }
}

const fn offset(sq: usize, df: isize, dr: isize) -> Option<usize> {
    let f = (sq % FILES) as isize + df;
    let r = (sq / FILES) as isize + dr;
    if f >= 0 && f < FILES as isize && r >= 0 && r < RANKS as isize {
        Some(r as usize * FILES + f as usize)
    } else {
        None
    }
}

/// The four orthogonal directions, as (file, rank) steps: up, down, left, right.
pub(crate) const DIRS: [(isize, isize); 4] = [(0, 1), (0, -1), (-1, 0), (1, 0)];

/// For each point and direction: the points along that ray, nearest first.
pub(crate) struct Ray {
    pub len: u8,
    pub sq: [u8; 9],
}

const fn build_rays() -> [[Ray; 4]; POINTS] {
    let mut out = [const { [const { Ray { len: 0, sq: [0; 9] } }; 4] }; POINTS];
    let mut sq = 0;
    while sq < POINTS {
        let mut d = 0;
        while d < 4 {
            let mut cur = sq;
            while let Some(next) = offset(cur, DIRS[d].0, DIRS[d].1) {
                let ray = &mut out[sq][d];
                ray.sq[ray.len as usize] = next as u8;
                ray.len += 1;
                cur = next;
            }
            d += 1;
        }
        sq += 1;
    }
    out
}

/// Rays from every point.
pub(crate) static RAYS: [[Ray; 4]; POINTS] = build_rays();

const HORSE_JUMPS: [(isize, isize, isize, isize); 8] = [
    // (file step, rank step, leg file step, leg rank step)
    (1, 2, 0, 1),
    (-1, 2, 0, 1),
    (1, -2, 0, -1),
    (-1, -2, 0, -1),
    (2, 1, 1, 0),
    (2, -1, 1, 0),
    (-2, 1, -1, 0),
    (-2, -1, -1, 0),
];

const fn build_horse(attackers: bool) -> [Steps; POINTS] {
    let mut out = [Steps::EMPTY; POINTS];
    let mut sq = 0;
    while sq < POINTS {
        let mut i = 0;
        while i < 8 {
            let (df, dr, lf, lr) = HORSE_JUMPS[i];
            if let Some(to) = offset(sq, df, dr) {
                if attackers {
                    // A horse on `to` reaches `sq`; its leg is next to `to`, towards `sq`.
                    if let Some(leg) = offset(to, -lf, -lr) {
                        out[sq] = out[sq].push(to, leg);
                    }
                } else if let Some(leg) = offset(sq, lf, lr) {
                    out[sq] = out[sq].push(to, leg);
                }
            }
            i += 1;
        }
        sq += 1;
    }
    out
}

/// Horse moves from each point, with the leg that must be empty.
pub(crate) static HORSE: [Steps; POINTS] = build_horse(false);
/// Points from which a horse reaches each point, with that horse's leg.
pub(crate) static HORSE_ATTACKERS: [Steps; POINTS] = build_horse(true);

const fn build_palace_steps(color: Color, diagonal: bool) -> [Steps; POINTS] {
    let mut out = [Steps::EMPTY; POINTS];
    let deltas: [(isize, isize); 4] = if diagonal {
        [(1, 1), (1, -1), (-1, 1), (-1, -1)]
    } else {
        DIRS
    };
    let mut sq = 0;
    while sq < POINTS {
        // Advisors stand only on the palace's five diagonal points.
        let own_rank = match color {
            Color::Red => sq / FILES,
            Color::Black => RANKS - 1 - sq / FILES,
        };
        let on_diagonal = (sq % FILES + own_rank) % 2 == 1;
        if in_palace(color, sq) && (!diagonal || on_diagonal) {
            let mut i = 0;
            while i < 4 {
                if let Some(to) = offset(sq, deltas[i].0, deltas[i].1)
                    && in_palace(color, to)
                {
                    out[sq] = out[sq].push(to, to);
                }
                i += 1;
            }
        }
        sq += 1;
    }
    out
}

/// King moves per side (block is unused).
pub(crate) static KING: [[Steps; POINTS]; 2] = [
    build_palace_steps(Color::Red, false),
    build_palace_steps(Color::Black, false),
];
/// Advisor moves per side (block is unused).
pub(crate) static ADVISOR: [[Steps; POINTS]; 2] = [
    build_palace_steps(Color::Red, true),
    build_palace_steps(Color::Black, true),
];

const fn build_elephant(color: Color) -> [Steps; POINTS] {
    let mut out = [Steps::EMPTY; POINTS];
    let deltas: [(isize, isize); 4] = [(2, 2), (2, -2), (-2, 2), (-2, -2)];
    let mut sq = 0;
    while sq < POINTS {
        if color.own_half(sq / FILES) {
            let mut i = 0;
            while i < 4 {
                let (df, dr) = deltas[i];
                if let Some(to) = offset(sq, df, dr)
                    && color.own_half(to / FILES)
                    && let Some(eye) = offset(sq, df / 2, dr / 2)
                {
                    out[sq] = out[sq].push(to, eye);
                }
                i += 1;
            }
        }
        sq += 1;
    }
    out
}

/// Elephant moves per side, with the eye that must be empty.
pub(crate) static ELEPHANT: [[Steps; POINTS]; 2] =
    [build_elephant(Color::Red), build_elephant(Color::Black)];

const fn forward(color: Color) -> isize {
    match color {
        Color::Red => 1,
        Color::Black => -1,
    }
}

/// Builds soldier steps; with `attackers`, the points a soldier reaching each point comes
/// from. Both are the same shape: straight (forward, or back for attackers), plus sideways
/// on the far side of the river (the two points share a rank, so both are crossed).
const fn build_pawn(color: Color, attackers: bool) -> [Steps; POINTS] {
    let mut out = [Steps::EMPTY; POINTS];
    let straight = if attackers {
        -forward(color)
    } else {
        forward(color)
    };
    let mut sq = 0;
    while sq < POINTS {
        if let Some(other) = offset(sq, 0, straight) {
            out[sq] = out[sq].push(other, other);
        }
        if !color.own_half(sq / FILES) {
            let sides: [isize; 2] = [-1, 1];
            let mut s = 0;
            while s < 2 {
                if let Some(other) = offset(sq, sides[s], 0) {
                    out[sq] = out[sq].push(other, other);
                }
                s += 1;
            }
        }
        sq += 1;
    }
    out
}

/// Soldier moves per side.
pub(crate) static PAWN: [[Steps; POINTS]; 2] = [
    build_pawn(Color::Red, false),
    build_pawn(Color::Black, false),
];
/// Points from which a soldier of each side reaches each point.
pub(crate) static PAWN_ATTACKERS: [[Steps; POINTS]; 2] =
    [build_pawn(Color::Red, true), build_pawn(Color::Black, true)];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names_follow_fairy_stockfish() {
        assert_eq!(Square::new(7, 2).map(|s| s.to_string()), Some("h3".into()));
        assert_eq!(Square::new(0, 9).map(|s| s.to_string()), Some("a10".into()));
    }

    #[test]
    fn tables_have_the_expected_reach() {
        let e5 = 4 * FILES + 4;
        assert_eq!(HORSE[e5].len, 8);
        assert_eq!(HORSE[0].len, 2);
        assert_eq!(KING[0][FILES + 4].len, 4);
        assert_eq!(ADVISOR[0][FILES + 4].len, 4);
        assert_eq!(ADVISOR[1][9 * FILES + 3].len, 1);
        // Red's elephant on e3 (rank index 2) cannot cross the river: 4 targets, all on rank 0 or 4.
        assert_eq!(ELEPHANT[0][2 * FILES + 4].len, 4);
        assert_eq!(ELEPHANT[0][4 * FILES + 2].len, 2);
        // An uncrossed red soldier moves forward only; a crossed one also sideways.
        assert_eq!(PAWN[0][3 * FILES].len, 1);
        assert_eq!(PAWN[0][5 * FILES + 4].len, 3);
        assert_eq!(PAWN[0][9 * FILES + 4].len, 2);
    }
}
