//! Sets of piece kinds, and drawing kinds for unknown pieces: what a seat notes about a hidden
//! piece (the kinds it can still be) and how a computer completes a board consistent with
//! every such note. Junqi and Sea-land-air share them; each game's kind enum is a [`Member`].

use crate::rng::Rng;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::marker::PhantomData;

/// A kind of piece that sets can hold: at most 32 of them, listed in [`Member::ALL`].
pub trait Member: Copy + Eq + fmt::Debug + Serialize + for<'de> Deserialize<'de> + 'static {
    /// Every kind, in order; a kind's place in this list is its bit in a [`Set`].
    const ALL: &'static [Self];

    /// The kind's place in [`Member::ALL`].
    fn index(self) -> usize;
}

/// A set of kinds. Written as the list of its kinds' names.
pub struct Set<K>(u32, PhantomData<K>);

impl<K> Clone for Set<K> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<K> Copy for Set<K> {}
impl<K> PartialEq for Set<K> {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}
impl<K> Eq for Set<K> {}
impl<K> std::hash::Hash for Set<K> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}
impl<K> Default for Set<K> {
    fn default() -> Self {
        Set(0, PhantomData)
    }
}

impl<K: Member> Set<K> {
    /// No kind.
    pub const NONE: Set<K> = Set(0, PhantomData);
    /// Every kind.
    pub const ALL: Set<K> = Set(((1u64 << K::ALL.len()) - 1) as u32, PhantomData);

    /// The set as a bit mask (bit `i`: `K::ALL[i]`).
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// The set holding only `kind`.
    pub fn only(kind: K) -> Set<K> {
        Set(1 << kind.index(), PhantomData)
    }

    /// Returns true if `kind` is in the set.
    pub fn contains(self, kind: K) -> bool {
        self.0 & (1 << kind.index()) != 0
    }

    /// Adds `kind`.
    pub fn insert(&mut self, kind: K) {
        self.0 |= 1 << kind.index();
    }

    /// Takes `kind` out.
    pub fn remove(&mut self, kind: K) {
        self.0 &= !(1 << kind.index());
    }

    /// The kinds in both sets.
    pub const fn and(self, other: Set<K>) -> Set<K> {
        Set(self.0 & other.0, PhantomData)
    }

    /// How many kinds the set holds.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Returns true if the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The one kind in the set, if it holds exactly one.
    pub fn single(self) -> Option<K> {
        (self.len() == 1).then(|| self.iter().next()).flatten()
    }

    /// The kinds in the set, in [`Member::ALL`]'s order.
    pub fn iter(self) -> impl Iterator<Item = K> {
        K::ALL.iter().copied().filter(move |k| self.contains(*k))
    }

    /// The kinds for which `keep` holds.
    pub fn matching(keep: impl Fn(K) -> bool) -> Set<K> {
        K::ALL.iter().copied().filter(|k| keep(*k)).collect()
    }
}

impl<K: Member> FromIterator<K> for Set<K> {
    fn from_iter<I: IntoIterator<Item = K>>(iter: I) -> Set<K> {
        let mut set = Set::NONE;
        for k in iter {
            set.insert(k);
        }
        set
    }
}

impl<K: Member> fmt::Debug for Set<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl<K: Member> Serialize for Set<K> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'de, K: Member> Deserialize<'de> for Set<K> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(Vec::<K>::deserialize(deserializer)?.into_iter().collect())
    }
}

/// An opposing piece whose kind a seat does not know.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unknown<P, K: Member> {
    /// Where it stands; `None` for a fallen piece.
    pub at: Option<P>,
    /// The kinds it can be.
    pub could_be: Set<K>,
}

/// Whether the kinds in `pool` (how many of each, in [`Member::ALL`]'s order) can be given out
/// so that every piece gets one its set allows: a bipartite matching of pieces to the pool's
/// places, by augmenting paths.
pub fn feasible<K: Member>(sets: &[Set<K>], pool: &[u8]) -> bool {
    let slots: Vec<usize> = pool
        .iter()
        .enumerate()
        .flat_map(|(k, &n)| std::iter::repeat_n(k, usize::from(n)))
        .collect();
    if slots.len() < sets.len() {
        return false;
    }
    let mut owner: Vec<Option<usize>> = vec![None; slots.len()];
    fn augment(
        piece: usize,
        masks: &[u32],
        slots: &[usize],
        owner: &mut [Option<usize>],
        seen: &mut [bool],
    ) -> bool {
        for s in 0..slots.len() {
            if seen[s] || masks[piece] & (1 << slots[s]) == 0 {
                continue;
            }
            seen[s] = true;
            let free = match owner[s] {
                None => true,
                Some(other) => augment(other, masks, slots, owner, seen),
            };
            if free {
                owner[s] = Some(piece);
                return true;
            }
        }
        false
    }
    let masks: Vec<u32> = sets.iter().map(|s| s.bits()).collect();
    (0..masks.len()).all(|piece| {
        let mut seen = vec![false; slots.len()];
        augment(piece, &masks, &slots, &mut owner, &mut seen)
    })
}

/// Draws one kind for each piece (in `sets`' order) from `pool`, each within its set, so that
/// the whole draw fits (given that [`feasible`] holds for it): the most constrained pieces
/// first, each kind weighted by how many are left times `likes(piece, kind)`.
pub fn draw<K: Member>(
    sets: &[Set<K>],
    pool: &[u8],
    seed: u64,
    likes: impl Fn(usize, K) -> f64,
) -> Vec<K> {
    let mut rng = Rng::new(seed);
    let mut order: Vec<usize> = (0..sets.len()).collect();
    rng.shuffle(&mut order);
    order.sort_by_key(|&i| sets[i].len());
    let mut left = pool.to_vec();
    let mut chosen = vec![K::ALL[0]; sets.len()];
    for (n, &i) in order.iter().enumerate() {
        let rest: Vec<Set<K>> = order[n + 1..].iter().map(|&j| sets[j]).collect();
        let mut weights: Vec<f64> = K::ALL
            .iter()
            .enumerate()
            .map(|(k, &kind)| {
                if !sets[i].contains(kind) || left.get(k).is_none_or(|&n| n == 0) {
                    return 0.0;
                }
                f64::from(left[k]) * likes(i, kind)
            })
            .collect();
        // Some pick always fits while `feasible` held before this draw.
        while let Some(pick) = rng.weighted(&weights) {
            left[pick] -= 1;
            if feasible(&rest, &left) {
                chosen[i] = K::ALL[pick];
                break;
            }
            left[pick] += 1;
            weights[pick] = 0.0;
        }
    }
    chosen
}
