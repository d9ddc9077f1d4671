//! The transposition table: what earlier searches learnt of a position (best move, score
//! and how it bounds the true value), found by the position's Zobrist key.

use super::{MATE_BOUND, NONE};
use crate::xiangqi::board::Move;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The score is at least this (a cut-off).
    Lower,
    /// The score is at most this (nothing reached alpha).
    Upper,
}

#[derive(Clone, Copy, Debug)]
pub struct Entry {
    key: u64,
    pub mv: Move,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
    generation: u8,
}

const EMPTY: Entry = Entry {
    key: 0,
    mv: NONE,
    score: 0,
    depth: -1,
    bound: Bound::Upper,
    generation: 0,
};

/// A table of a power-of-two number of entries.
#[derive(Debug)]
pub struct Table {
    entries: Vec<Entry>,
    generation: u8,
}

impl Table {
    /// A table of about `mb` MiB (at least one entry).
    pub fn new(mb: usize) -> Table {
        let bytes = mb.clamp(1, 4096) << 20;
        let wanted = (bytes / size_of::<Entry>()).max(1);
        let len = if wanted.is_power_of_two() {
            wanted
        } else {
            wanted.next_power_of_two() / 2
        };
        Table {
            entries: vec![EMPTY; len],
            generation: 0,
        }
    }

    pub fn clear(&mut self) {
        self.entries.fill(EMPTY);
        self.generation = 0;
    }

    /// Marks the entries stored so far as older than the next search's.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        (key as usize) & (self.entries.len() - 1)
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let e = self.entries[self.index(key)];
        (e.key == key && e.depth >= 0).then_some(e)
    }

    /// Keeps what was learnt, unless the slot holds a deeper result of this search for
    /// another position.
    #[inline]
    pub fn store(&mut self, key: u64, mv: Move, score: i32, depth: i32, bound: Bound) {
        let generation = self.generation;
        let i = self.index(key);
        let e = &mut self.entries[i];
        if e.key != key && e.generation == generation && e.depth > depth + 2 {
            return;
        }
        // A result without a move keeps the move known before.
        let mv = if mv == NONE && e.key == key { e.mv } else { mv };
        *e = Entry {
            key,
            mv,
            score,
            depth: depth.max(0),
            bound,
            generation,
        };
    }
}

/// A mate score as stored: counted from this node, not from the root.
pub fn to_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// A stored mate score counted from the root again.
pub fn from_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}
