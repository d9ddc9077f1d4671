//! [`Position`]: the board, the side to move and the counters, with fast make and unmake.

use super::board::{Color, Kind, Move, POINTS, Piece, Square};

/// A Xiangqi position: what a FEN holds, plus a Zobrist hash of board and side.
///
/// It knows nothing of history; repetition lives in [`Xiangqi`](super::Xiangqi).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Position {
    pub(crate) board: [u8; POINTS],
    pub(crate) side: Color,
    pub(crate) kings: [u8; 2],
    pub(crate) hash: u64,
    pub(crate) counts: [[u8; 8]; 2],
    /// Plies since the last capture.
    pub(crate) halfmove: u32,
    /// Full moves, starting at 1, incremented after Black moves.
    pub(crate) fullmove: u32,
}

/// What [`Position::make`] needs to undo a move.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Undo {
    pub captured: u8,
    pub halfmove: u32,
}

/// SplitMix64's finaliser: the Zobrist keys, and the engine's deterministic whims.
pub(crate) const fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const fn build_zobrist() -> [[u64; POINTS]; 16] {
    let mut out = [[0u64; POINTS]; 16];
    let mut p = 0;
    while p < 16 {
        let mut s = 0;
        while s < POINTS {
            out[p][s] = splitmix((p * POINTS + s) as u64 * 0x1000_0001 + 7);
            s += 1;
        }
        p += 1;
    }
    out
}

static ZOBRIST: [[u64; POINTS]; 16] = build_zobrist();
const ZOBRIST_BLACK: u64 = splitmix(0xB1AC_C0DE);

impl Position {
    /// Returns the standard starting position.
    pub fn start() -> Position {
        Position::from_fen(super::fen::START_FEN).unwrap_or_else(|_| Position::empty())
    }

    /// Returns an empty board with Red to move; used while reading a FEN.
    pub(crate) fn empty() -> Position {
        Position {
            board: [0; POINTS],
            side: Color::Red,
            kings: [u8::MAX; 2],
            hash: 0,
            counts: [[0; 8]; 2],
            halfmove: 0,
            fullmove: 1,
        }
    }

    /// Puts a piece on an empty point (setup only).
    pub(crate) fn put(&mut self, sq: Square, piece: Piece) {
        let i = sq.index();
        self.board[i] = piece.code();
        self.hash ^= ZOBRIST[piece.code() as usize][i];
        self.counts[piece.color().index()][piece.kind() as usize] += 1;
        if piece.kind() == Kind::King {
            self.kings[piece.color().index()] = i as u8;
        }
    }

    /// Sets the side to move (setup only).
    pub(crate) fn set_side(&mut self, side: Color) {
        if self.side != side {
            self.hash ^= ZOBRIST_BLACK;
        }
        self.side = side;
    }

    /// Returns the side to move.
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Returns the piece on a point.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        match self.board[sq.index()] {
            0 => None,
            code => Some(Piece::from_code(code)),
        }
    }

    /// Returns where this side's general stands.
    pub fn king(&self, color: Color) -> Square {
        Square::from_index(self.kings[color.index()] as usize)
            .unwrap_or_else(|| unreachable!("a validated position has both generals"))
    }

    /// Returns how many pieces of this side and kind are on the board.
    pub fn count(&self, color: Color, kind: Kind) -> u8 {
        self.counts[color.index()][kind as usize]
    }

    /// Returns the hash of board and side to move (equal positions, equal hashes).
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Returns the plies since the last capture.
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// Returns the full-move number.
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// Returns true if this side still has a piece that can cross the river.
    pub fn has_attackers(&self, color: Color) -> bool {
        Kind::ALL
            .iter()
            .any(|k| k.attacker() && self.count(color, *k) > 0)
    }

    /// Plays a move known to be pseudo-legal and returns what undoing it needs.
    #[inline]
    pub(crate) fn make(&mut self, m: Move) -> Undo {
        let (from, to) = (m.from.index(), m.to.index());
        let piece = self.board[from];
        let captured = self.board[to];
        let undo = Undo {
            captured,
            halfmove: self.halfmove,
        };
        self.hash ^= ZOBRIST[piece as usize][from] ^ ZOBRIST[piece as usize][to] ^ ZOBRIST_BLACK;
        if captured != 0 {
            self.hash ^= ZOBRIST[captured as usize][to];
            let cap = Piece::from_code(captured);
            self.counts[cap.color().index()][cap.kind() as usize] -= 1;
            self.halfmove = 0;
        } else {
            self.halfmove += 1;
        }
        self.board[to] = piece;
        self.board[from] = 0;
        if piece & 7 == Kind::King as u8 {
            self.kings[self.side.index()] = to as u8;
        }
        if self.side == Color::Black {
            self.fullmove += 1;
        }
        self.side = self.side.other();
        undo
    }

    /// Takes back a move made with [`Position::make`].
    #[inline]
    pub(crate) fn unmake(&mut self, m: Move, undo: Undo) {
        let (from, to) = (m.from.index(), m.to.index());
        self.side = self.side.other();
        if self.side == Color::Black {
            self.fullmove -= 1;
        }
        let piece = self.board[to];
        self.board[from] = piece;
        self.board[to] = undo.captured;
        self.hash ^= ZOBRIST[piece as usize][from] ^ ZOBRIST[piece as usize][to] ^ ZOBRIST_BLACK;
        if undo.captured != 0 {
            self.hash ^= ZOBRIST[undo.captured as usize][to];
            let cap = Piece::from_code(undo.captured);
            self.counts[cap.color().index()][cap.kind() as usize] += 1;
        }
        self.halfmove = undo.halfmove;
        if piece & 7 == Kind::King as u8 {
            self.kings[self.side.index()] = from as u8;
        }
    }
}
