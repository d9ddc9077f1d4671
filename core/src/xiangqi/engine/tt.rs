//! The transposition table: what earlier searches learnt of a position (best move, score
//! and how it bounds the true value), found by the position's Zobrist key.

use super::{MATE_BOUND, NONE};
use crate::xiangqi::board::{Move, Square};
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

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
    pub mv: Move,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
    generation: u8,
}

/// A slot: the key XOR the packed entry, then the packed entry. Threads read and write slots
/// without locks; a slot torn by two writers no longer matches any key (the XOR), so it reads
/// as empty rather than as another position's entry.
#[derive(Debug, Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// The packed entry: move from (7 bits), move to (7), score + 32,768 (16), depth + 1 (8),
/// bound (2), generation (8), and bit 48 set on every stored entry.
fn pack(e: &Entry) -> u64 {
    let bound = match e.bound {
        Bound::Exact => 0u64,
        Bound::Lower => 1,
        Bound::Upper => 2,
    };
    (e.mv.from.index() as u64)
        | (e.mv.to.index() as u64) << 7
        | ((e.score.clamp(-32_767, 32_767) + 32_768) as u64) << 14
        | ((e.depth.clamp(-1, 254) + 1) as u64) << 30
        | bound << 38
        | (e.generation as u64) << 40
        | 1 << 48
}

fn unpack(d: u64) -> Option<Entry> {
    if d & (1 << 48) == 0 {
        return None;
    }
    let from = Square::from_index((d & 127) as usize)?;
    let to = Square::from_index((d >> 7 & 127) as usize)?;
    Some(Entry {
        mv: Move::new(from, to),
        score: (d >> 14 & 0xFFFF) as i32 - 32_768,
        depth: (d >> 30 & 0xFF) as i32 - 1,
        bound: match d >> 38 & 3 {
            0 => Bound::Exact,
            1 => Bound::Lower,
            _ => Bound::Upper,
        },
        generation: (d >> 40 & 0xFF) as u8,
    })
}

/// A table of a power-of-two number of slots, shared by the search's threads.
#[derive(Debug)]
pub struct Table {
    slots: Vec<Slot>,
    generation: AtomicU8,
}

impl Table {
    /// A table of about `mb` MiB (at least one slot).
    pub fn new(mb: usize) -> Table {
        let bytes = mb.clamp(1, 4096) << 20;
        let wanted = (bytes / size_of::<Slot>()).max(1);
        let len = if wanted.is_power_of_two() {
            wanted
        } else {
            wanted.next_power_of_two() / 2
        };
        Table {
            slots: (0..len).map(|_| Slot::default()).collect(),
            generation: AtomicU8::new(0),
        }
    }

    pub fn clear(&mut self) {
        for slot in &mut self.slots {
            *slot = Slot::default();
        }
        self.generation = AtomicU8::new(0);
    }

    /// Marks the entries stored so far as older than the next search's.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    #[inline]
    fn slot(&self, key: u64) -> &Slot {
        &self.slots[(key as usize) & (self.slots.len() - 1)]
    }

    /// The slot's entry and whether it is this key's.
    #[inline]
    fn read(&self, key: u64) -> (Option<Entry>, bool) {
        let slot = self.slot(key);
        let data = slot.data.load(Ordering::Relaxed);
        let check = slot.check.load(Ordering::Relaxed);
        (unpack(data), check ^ data == key)
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        match self.read(key) {
            (Some(e), true) if e.depth >= 0 => Some(e),
            _ => None,
        }
    }

    /// Keeps what was learnt, unless the slot holds a deeper result of this search for
    /// another position.
    #[inline]
    pub fn store(&self, key: u64, mv: Move, score: i32, depth: i32, bound: Bound) {
        let generation = self.generation.load(Ordering::Relaxed);
        let (old, same) = self.read(key);
        if let Some(e) = old
            && !same
            && e.generation == generation
            && e.depth > depth + 2
        {
            return;
        }
        // A result without a move keeps the move known before.
        let mv = match old {
            Some(e) if mv == NONE && same => e.mv,
            _ => mv,
        };
        let data = pack(&Entry {
            mv,
            score,
            depth: depth.max(0),
            bound,
            generation,
        });
        let slot = self.slot(key);
        slot.check.store(key ^ data, Ordering::Relaxed);
        slot.data.store(data, Ordering::Relaxed);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_packs_and_unpacks_unchanged() {
        for (from, to, score, depth, bound, generation) in [
            (0, 89, -30_000, 0, Bound::Exact, 0),
            (44, 53, 29_999, 120, Bound::Lower, 255),
            (89, 0, 0, 7, Bound::Upper, 17),
        ] {
            let e = Entry {
                mv: Move::new(
                    Square::from_index(from).expect("a point"),
                    Square::from_index(to).expect("a point"),
                ),
                score,
                depth,
                bound,
                generation,
            };
            let back = unpack(pack(&e)).expect("stored");
            assert_eq!(
                (back.mv, back.score, back.depth, back.bound, back.generation),
                (e.mv, e.score, e.depth, e.bound, e.generation)
            );
        }
        assert!(unpack(0).is_none(), "an empty slot holds nothing");
    }

    #[test]
    fn a_slot_answers_only_its_own_key() {
        let table = Table::new(1);
        let mv = Move::new(
            Square::from_index(10).expect("a point"),
            Square::from_index(19).expect("a point"),
        );
        table.store(12345, mv, 77, 5, Bound::Exact);
        let e = table.probe(12345).expect("stored");
        assert_eq!((e.mv, e.score, e.depth), (mv, 77, 5));
        // The same slot, another key.
        let len = table.slots.len() as u64;
        assert!(table.probe(12345 + len).is_none());
    }
}
