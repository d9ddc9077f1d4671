//! Move generation, attack detection and perft.

use super::board::{
    ADVISOR, Color, ELEPHANT, HORSE, HORSE_ATTACKERS, KING, Kind, Move, PAWN, PAWN_ATTACKERS,
    POINTS, Piece, RAYS, Square,
};
use super::position::Position;

/// A fixed-capacity list of moves, so generation never allocates.
#[derive(Clone)]
pub(crate) struct MoveList {
    len: usize,
    moves: [Move; 192],
}

impl MoveList {
    pub fn new() -> Self {
        let zero = Move::new(sq(0), sq(0));
        MoveList {
            len: 0,
            moves: [zero; 192],
        }
    }

    #[inline]
    fn push(&mut self, from: usize, to: usize) {
        self.moves[self.len] = Move::new(sq(from), sq(to));
        self.len += 1;
    }

    /// Adds a move.
    #[inline]
    pub fn push_move(&mut self, m: Move) {
        self.moves[self.len] = m;
        self.len += 1;
    }

    /// Swaps two moves.
    #[inline]
    pub fn swap(&mut self, a: usize, b: usize) {
        self.moves.swap(a, b);
    }

    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

#[inline]
fn sq(i: usize) -> Square {
    // Every index produced by the tables is on the board.
    Square::from_index(i).unwrap_or_else(|| unreachable!("table point {i} is off the board"))
}

const BLACK_BIT: u8 = 8;

#[inline]
fn color_bit(c: Color) -> u8 {
    match c {
        Color::Red => 0,
        Color::Black => BLACK_BIT,
    }
}

#[inline]
fn piece_code(c: Color, k: Kind) -> u8 {
    Piece::new(c, k).code()
}

/// Which moves of the side to move could leave its general attacked, when it is not in
/// check now: the general's own; a piece leaving a line from the general on which an enemy
/// chariot, cannon (or, on the file, the enemy general) stands further on (it may open the
/// line or unmake a double screen); a piece entering a line with an enemy cannon on it (it
/// may become the screen); a piece leaving a horse's leg next to the general with an enemy
/// horse behind it. Any other move cannot change an attack on the general, so it needs no
/// make-and-test.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Exposure {
    king: usize,
    /// Per direction from the general (up, down, left, right): an enemy chariot, cannon or
    /// (up or down) general somewhere along it.
    open: [bool; 4],
    /// Per direction: an enemy cannon somewhere along it.
    cannon: [bool; 4],
    /// Legs next to the general behind which an enemy horse stands (`u8::MAX`: none).
    legs: [u8; 4],
}

impl Exposure {
    pub(crate) fn new(pos: &Position, us: Color) -> Exposure {
        let b = &pos.board;
        let them = us.other();
        let king = pos.kings[us.index()] as usize;
        let rook = piece_code(them, Kind::Rook);
        let cannon = piece_code(them, Kind::Cannon);
        let general = piece_code(them, Kind::King);
        let mut open = [false; 4];
        let mut cannons = [false; 4];
        for (d, ray) in RAYS[king].iter().enumerate() {
            for &sq in &ray.sq[..ray.len as usize] {
                let t = b[sq as usize];
                if t == cannon {
                    cannons[d] = true;
                    open[d] = true;
                } else if t == rook || (t == general && d < 2) {
                    open[d] = true;
                }
            }
        }
        let horse = piece_code(them, Kind::Horse);
        let mut legs = [u8::MAX; 4];
        let mut n = 0;
        for (from, leg) in HORSE_ATTACKERS[king].iter() {
            if b[from] == horse && !legs.contains(&(leg as u8)) && n < 4 {
                legs[n] = leg as u8;
                n += 1;
            }
        }
        Exposure {
            king,
            open,
            cannon: cannons,
            legs,
        }
    }

    /// The direction from the general to `sq` if it is on the general's rank or file.
    #[inline]
    fn direction(&self, sq: Square) -> Option<usize> {
        let (kf, kr) = (self.king % 9, self.king / 9);
        let (f, r) = (sq.file(), sq.rank());
        if f == kf {
            Some(if r > kr { 0 } else { 1 })
        } else if r == kr {
            Some(if f < kf { 2 } else { 3 })
        } else {
            None
        }
    }

    /// True if the move needs the full test.
    #[inline]
    pub(crate) fn may_expose(&self, m: Move) -> bool {
        let from = m.from.index();
        if from == self.king || self.legs.contains(&(from as u8)) {
            return true;
        }
        if self.direction(m.from).is_some_and(|d| self.open[d]) {
            return true;
        }
        self.direction(m.to).is_some_and(|d| self.cannon[d])
    }
}

impl Position {
    /// Adds every pseudo-legal move of the side to move (own general may be left attacked).
    pub(crate) fn pseudo_moves(&self, out: &mut MoveList) {
        let us = self.side;
        let ours = color_bit(us);
        let b = &self.board;
        // A target is free if empty or held by the opponent.
        let free = |to: usize| b[to] == 0 || b[to] & BLACK_BIT != ours;
        for from in 0..POINTS {
            let code = b[from];
            if code == 0 || code & BLACK_BIT != ours {
                continue;
            }
            match Piece::from_code(code).kind() {
                Kind::King => {
                    for (to, _) in KING[us.index()][from].iter() {
                        if free(to) {
                            out.push(from, to);
                        }
                    }
                }
                Kind::Advisor => {
                    for (to, _) in ADVISOR[us.index()][from].iter() {
                        if free(to) {
                            out.push(from, to);
                        }
                    }
                }
                Kind::Elephant => {
                    for (to, eye) in ELEPHANT[us.index()][from].iter() {
                        if b[eye] == 0 && free(to) {
                            out.push(from, to);
                        }
                    }
                }
                Kind::Horse => {
                    for (to, leg) in HORSE[from].iter() {
                        if b[leg] == 0 && free(to) {
                            out.push(from, to);
                        }
                    }
                }
                Kind::Pawn => {
                    for (to, _) in PAWN[us.index()][from].iter() {
                        if free(to) {
                            out.push(from, to);
                        }
                    }
                }
                Kind::Rook => self.rook_moves(from, ours, out),
                Kind::Cannon => self.cannon_moves(from, ours, out),
            }
        }
    }

    #[inline]
    fn rook_moves(&self, from: usize, ours: u8, out: &mut MoveList) {
        for ray in &RAYS[from] {
            for &to in &ray.sq[..ray.len as usize] {
                let t = self.board[to as usize];
                if t == 0 {
                    out.push(from, to as usize);
                } else {
                    if t & BLACK_BIT != ours {
                        out.push(from, to as usize);
                    }
                    break;
                }
            }
        }
    }

    #[inline]
    fn cannon_moves(&self, from: usize, ours: u8, out: &mut MoveList) {
        for ray in &RAYS[from] {
            let mut screened = false;
            for &to in &ray.sq[..ray.len as usize] {
                let t = self.board[to as usize];
                if !screened {
                    if t == 0 {
                        out.push(from, to as usize);
                    } else {
                        screened = true;
                    }
                } else if t != 0 {
                    if t & BLACK_BIT != ours {
                        out.push(from, to as usize);
                    }
                    break;
                }
            }
        }
    }

    /// Returns true if `target` is attacked by a piece of side `by`, counting the flying
    /// general (a general "attacks" along an open file).
    pub(crate) fn attacked_by(&self, target: usize, by: Color) -> bool {
        let b = &self.board;
        let rook = piece_code(by, Kind::Rook);
        let cannon = piece_code(by, Kind::Cannon);
        let king = piece_code(by, Kind::King);
        for (d, ray) in RAYS[target].iter().enumerate() {
            let mut seen_screen = false;
            for &s in &ray.sq[..ray.len as usize] {
                let t = b[s as usize];
                if t == 0 {
                    continue;
                }
                if seen_screen {
                    if t == cannon {
                        return true;
                    }
                    break;
                }
                // Vertical rays only (d 0 and 1) let generals face each other.
                if t == rook || (t == king && d < 2) {
                    return true;
                }
                seen_screen = true;
            }
        }
        let pawn = piece_code(by, Kind::Pawn);
        for (from, _) in PAWN_ATTACKERS[by.index()][target].iter() {
            if b[from] == pawn {
                return true;
            }
        }
        let horse = piece_code(by, Kind::Horse);
        for (from, leg) in HORSE_ATTACKERS[target].iter() {
            if b[from] == horse && b[leg] == 0 {
                return true;
            }
        }
        false
    }

    /// Returns true if this side's general is attacked (or faces the other general).
    pub fn in_check(&self, color: Color) -> bool {
        self.attacked_by(self.kings[color.index()] as usize, color.other())
    }

    /// Returns true if the side to move may play this pseudo-legal move.
    #[inline]
    pub(crate) fn legal_after(&mut self, m: Move) -> bool {
        let us = self.side;
        let undo = self.make(m);
        let ok = !self.in_check(us);
        self.unmake(m, undo);
        ok
    }

    /// Lists the legal moves of the side to move, in generation order.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut list = MoveList::new();
        self.pseudo_moves(&mut list);
        let mut pos = self.clone();
        list.as_slice()
            .iter()
            .copied()
            .filter(|m| pos.legal_after(*m))
            .collect()
    }

    /// Returns true if the side to move has at least one legal move.
    pub fn has_legal_move(&self) -> bool {
        let mut list = MoveList::new();
        self.pseudo_moves(&mut list);
        let mut pos = self.clone();
        list.as_slice().iter().any(|m| pos.legal_after(*m))
    }

    /// Returns true if `m` is legal for the side to move.
    pub fn is_legal(&self, m: Move) -> bool {
        let mut list = MoveList::new();
        self.pseudo_moves(&mut list);
        list.as_slice().contains(&m) && self.clone().legal_after(m)
    }

    /// Counts the leaf nodes of the legal move tree to `depth` plies (bulk-counted at the
    /// last ply).
    pub fn perft(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut list = MoveList::new();
        self.pseudo_moves(&mut list);
        let us = self.side;
        let checked = self.in_check(us);
        let exposure = Exposure::new(self, us);
        let mut nodes = 0;
        for &m in list.as_slice() {
            let test = checked || exposure.may_expose(m);
            if depth == 1 && !test {
                nodes += 1;
                continue;
            }
            let undo = self.make(m);
            if !test || !self.in_check(us) {
                nodes += if depth == 1 { 1 } else { self.perft(depth - 1) };
            }
            self.unmake(m, undo);
        }
        nodes
    }

    /// Plays a move if it is legal for the side to move (no history rules apply here).
    pub fn play(&mut self, m: Move) -> Result<(), crate::IllegalMove> {
        if !self.is_legal(m) {
            return Err(crate::IllegalMove::Other(format!(
                "{m} is not a legal move here"
            )));
        }
        self.make(m);
        Ok(())
    }

    /// Plays a move without checking it; the caller has checked legality.
    pub(crate) fn play_unchecked(&mut self, m: Move) {
        self.make(m);
    }
}
