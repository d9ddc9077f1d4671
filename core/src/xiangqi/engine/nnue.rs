//! The network evaluation (issue 37): an efficiently updatable network trained on Qiguan's own
//! games (`scripts/train-xiangqi-net`, `docs/xiangqi-net.md`).
//!
//! Inputs: for each side's point of view, one feature per piece — whose it is (the viewer's or
//! the other side's), its kind and its point, the board turned so that the viewer's back rank
//! is rank 0 — for the points each kind can reach (a general 9, an advisor 5, an elephant 7, a
//! soldier 55, the others 90): 2 × 346 = 692 features, at most 32 on. Each point of view sums
//! the weights of
//! its features into an accumulator of [`HIDDEN`] integers; a move changes at most three
//! features (the piece leaves, arrives, a piece is taken), so the search updates the
//! accumulators instead of summing them again. The output is the side to move's accumulator
//! then the other's, each clipped to 0..=[`QA`], times the output weights.
//!
//! Integers throughout: the first layer's weights are the trainer's ×[`QA`] (stored as i8, the
//! sums i16), the output weights ×[`QB`] (i16). The net is small on purpose: the app ships
//! within 15 MB, and 692 × 128 bytes is what the first layer adds. The rows are vectors of eight 16-bit lanes (`wide`'s `i16x8`: SSE2
//! on x86-64, NEON on aarch64, behind a safe API; the workspace forbids `unsafe`): the app is
//! built optimised for size as one whole program, and there the compiler left the plain loops
//! scalar — the net searched at 53% of the hand-written evaluation's speed instead of 95%.

use crate::xiangqi::board::{Color, FILES, Move, POINTS};
use crate::xiangqi::position::Position;
use std::fmt;
use std::sync::{Arc, OnceLock};
use wide::{i16x8, i32x4};

/// Eight-lane vectors in a row of [`HIDDEN`].
const CHUNKS: usize = HIDDEN / 8;
/// One row: a feature's weights, or a point of view's sums.
type Row = [i16x8; CHUNKS];
const ZERO_ROW: Row = [i16x8::ZERO; CHUNKS];

/// The net the engine plays with, trained by `scripts/train-xiangqi-net`.
static EMBEDDED_BYTES: &[u8] = include_bytes!("xiangqi.qxnn");

/// The embedded net, read once.
pub fn embedded() -> Result<Arc<Network>, NetError> {
    static NET: OnceLock<Result<Arc<Network>, NetError>> = OnceLock::new();
    NET.get_or_init(|| Network::from_bytes(EMBEDDED_BYTES).map(Arc::new))
        .clone()
}

/// Inputs per point of view.
pub const FEATURES: usize = 692;
/// Accumulator width per point of view.
pub const HIDDEN: usize = 128;
/// The first layer's scale: the clipped range of the accumulator.
pub const QA: i32 = 255;
/// The output weights' scale.
pub const QB: i32 = 1024;
/// What the trainer's output (in win-probability logits) is multiplied by to give centipawns.
pub const SCALE: i32 = 400;
/// The file's first bytes.
const MAGIC: &[u8; 4] = b"QXNN";
/// The file format's version.
const VERSION: u32 = 2;
/// The largest output weight a file may hold (the trainer keeps them within ±8 × [`QB`]).
pub const MAX_OUT: u16 = 8 * QB as u16;
/// Scores past this (either sign) would read as mates: the net never goes there.
const LIMIT: i32 = 20_000;

/// Whether a piece of `kind` (0 general … 6 soldier) can stand at (`file`, `rank`), the rank
/// counted from its own back rank.
const fn reachable(kind: usize, file: usize, rank: usize) -> bool {
    match kind {
        0 => file >= 3 && file <= 5 && rank <= 2,
        1 => matches!((file, rank), (3, 0) | (5, 0) | (4, 1) | (3, 2) | (5, 2)),
        2 => matches!(
            (file, rank),
            (2, 0) | (6, 0) | (0, 2) | (4, 2) | (8, 2) | (2, 4) | (6, 4)
        ),
        6 => rank >= 5 || ((rank == 3 || rank == 4) && file.is_multiple_of(2)),
        _ => true,
    }
}

/// The feature of each (whose × 7 + kind, point as the viewer sees it); [`FEATURES`] (a row of
/// zeros) where a piece cannot stand, which only a position outside the rules would ask for.
const fn index_table() -> [[u16; POINTS]; 14] {
    let mut out = [[FEATURES as u16; POINTS]; 14];
    let mut next = 0;
    let mut block = 0;
    while block < 14 {
        let (theirs, kind) = (block / 7, block % 7);
        let mut sq = 0;
        while sq < POINTS {
            let rank = sq / FILES;
            let own_rank = if theirs == 0 { rank } else { 9 - rank };
            if reachable(kind, sq % FILES, own_rank) {
                out[block][sq] = next;
                next += 1;
            }
            sq += 1;
        }
        block += 1;
    }
    assert!(next as usize == FEATURES, "692 reachable points");
    out
}

static INDEX: [[u16; POINTS]; 14] = index_table();

/// A point of view's feature for a piece (board code `code`, Red's kinds 1–7, Black's 9–15) at
/// point `sq`.
#[inline]
pub fn feature(view: Color, code: u8, sq: usize) -> usize {
    let color = usize::from(code & 8 != 0);
    let kind = (code & 7) as usize - 1;
    let theirs = color ^ view.index();
    let point = match view {
        Color::Red => sq,
        Color::Black => (9 - sq / FILES) * FILES + sq % FILES,
    };
    INDEX[theirs * 7 + kind][point] as usize
}

/// A trained network.
#[derive(Clone)]
pub struct Network {
    /// First layer, by feature.
    weights: Box<[Row]>,
    biases: Row,
    /// Output weights: the side to move's half, then the other's.
    out: [Row; 2],
    out_bias: i32,
    /// The trainer's evaluation of the start position (Red to move), for checking the file.
    pub start_eval: i32,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Network({FEATURES}→{HIDDEN}×2→1)")
    }
}

/// Why a net file does not load.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// Not a Qiguan Xiangqi net.
    NotANet,
    /// A version or shape this build does not read.
    Unsupported(String),
    /// Shorter or longer than its shape says.
    WrongSize {
        /// The length the header promises.
        expected: usize,
        /// The file's length.
        found: usize,
    },
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::NotANet => write!(f, "not a Qiguan Xiangqi net (no QXNN header)"),
            NetError::Unsupported(what) => write!(f, "unsupported net: {what}"),
            NetError::WrongSize { expected, found } => {
                write!(f, "net file is {found} bytes, its header says {expected}")
            }
        }
    }
}

impl std::error::Error for NetError {}

/// The two points of view's sums, Red's first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Accumulator {
    v: [Row; 2],
}

impl Network {
    /// Reads a net file: `QXNN`, version, features, hidden, start evaluation (u32/i32 little
    /// endian), then the first layer's weights by feature (i8), its biases (i16), the output
    /// weights (side to move's half first, i16), and the output bias (i32).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() < 20 || &bytes[..4] != MAGIC {
            return Err(NetError::NotANet);
        }
        let word = |at: usize| {
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        };
        let (version, features, hidden) = (word(4), word(8) as usize, word(12) as usize);
        if version != VERSION {
            return Err(NetError::Unsupported(format!("version {version}")));
        }
        if features != FEATURES || hidden != HIDDEN {
            return Err(NetError::Unsupported(format!(
                "{features}→{hidden} (this build reads {FEATURES}→{HIDDEN})"
            )));
        }
        let start_eval = word(16) as i32;
        let expected = 20 + FEATURES * HIDDEN + 2 * (HIDDEN + 2 * HIDDEN) + 4;
        if bytes.len() != expected {
            return Err(NetError::WrongSize {
                expected,
                found: bytes.len(),
            });
        }
        let mut at = 20;
        let mut row = |width: usize| {
            let mut r = ZERO_ROW;
            for chunk in &mut r {
                let mut lanes = [0i16; 8];
                for lane in &mut lanes {
                    *lane = if width == 1 {
                        bytes[at] as i8 as i16
                    } else {
                        i16::from_le_bytes([bytes[at], bytes[at + 1]])
                    };
                    at += width;
                }
                *chunk = i16x8::new(lanes);
            }
            r
        };
        // The last row stays zero: the feature of a piece where none can stand.
        let weights: Box<[Row]> = (0..=FEATURES)
            .map(|f| if f < FEATURES { row(1) } else { ZERO_ROW })
            .collect();
        let biases = row(2);
        let out = [row(2), row(2)];
        let too_big = |r: &Row| {
            r.iter()
                .flat_map(|c| c.to_array())
                .any(|w| w.unsigned_abs() > MAX_OUT)
        };
        if out.iter().any(too_big) {
            return Err(NetError::Unsupported(format!(
                "output weights beyond ±{MAX_OUT}"
            )));
        }
        let out_bias = word(expected - 4) as i32;
        Ok(Network {
            weights,
            biases,
            out,
            out_bias,
            start_eval,
        })
    }

    /// The accumulators of a whole position, summed from scratch.
    pub fn refresh(&self, pos: &Position) -> Accumulator {
        let mut acc = Accumulator {
            v: [self.biases; 2],
        };
        for (sq, &code) in pos.board.iter().enumerate() {
            if code == 0 {
                continue;
            }
            for view in [Color::Red, Color::Black] {
                add(
                    &mut acc.v[view.index()],
                    &self.weights[feature(view, code, sq)],
                );
            }
        }
        acc
    }

    /// The accumulators after move `m` on `pos` (before it is made), from `acc`, `pos`'s.
    pub fn after(&self, acc: &Accumulator, pos: &Position, m: Move) -> Accumulator {
        let mut next = *acc;
        self.update(acc, &mut next, pos, m);
        next
    }

    /// Writes into `next` the accumulators after move `m` on `pos` (before it is made), from
    /// `acc`, `pos`'s: each point of view's row read once and written once.
    #[inline]
    pub fn update(&self, acc: &Accumulator, next: &mut Accumulator, pos: &Position, m: Move) {
        let (from, to) = (m.from.index(), m.to.index());
        let piece = pos.board[from];
        let captured = pos.board[to];
        for view in [Color::Red, Color::Black] {
            let leave = &self.weights[feature(view, piece, from)];
            let arrive = &self.weights[feature(view, piece, to)];
            let (old, new) = (&acc.v[view.index()], &mut next.v[view.index()]);
            if captured == 0 {
                shift(old, new, leave, arrive);
            } else {
                let taken = &self.weights[feature(view, captured, to)];
                shift_taking(old, new, leave, arrive, taken);
            }
        }
    }

    /// The evaluation in centipawns from the side to move's point of view.
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator, mover: Color) -> i32 {
        let us = &acc.v[mover.index()];
        let them = &acc.v[mover.other().index()];
        let sum = self.out_bias as i64
            + dot_clipped(us, &self.out[0]) as i64
            + dot_clipped(them, &self.out[1]) as i64;
        (sum * SCALE as i64 / (QA * QB) as i64).clamp(-LIMIT as i64, LIMIT as i64) as i32
    }

    /// The evaluation of a whole position from the side to move's point of view.
    pub fn evaluate_position(&self, pos: &Position) -> i32 {
        self.evaluate(&self.refresh(pos), pos.side_to_move())
    }
}

#[inline]
fn add(v: &mut Row, w: &Row) {
    for (a, b) in v.iter_mut().zip(w) {
        *a += *b;
    }
}

#[inline]
fn shift(old: &Row, new: &mut Row, leave: &Row, arrive: &Row) {
    for i in 0..CHUNKS {
        new[i] = old[i] - leave[i] + arrive[i];
    }
}

#[inline]
fn shift_taking(old: &Row, new: &mut Row, leave: &Row, arrive: &Row, taken: &Row) {
    for i in 0..CHUNKS {
        new[i] = old[i] - leave[i] + arrive[i] - taken[i];
    }
}

/// Σ clamp(v, 0, QA) × w, eight products at a time, adjacent pairs summed into four 32-bit
/// lanes. No overflow: the output weights are at most ±[`MAX_OUT`] (the reader refuses
/// others), so a lane is at most 2 × CHUNKS = 32 products of 255 × 8,192: under 2³¹.
#[inline]
fn dot_clipped(v: &Row, w: &Row) -> i32 {
    let top = i16x8::splat(QA as i16);
    let mut sum = i32x4::ZERO;
    for i in 0..CHUNKS {
        sum += v[i].max(i16x8::ZERO).min(top).dot(w[i]);
    }
    sum.reduce_add()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xiangqi::START_FEN;

    /// A small net with every weight set from a formula, in the file's format.
    pub(crate) fn synthetic() -> Vec<u8> {
        let mut bytes = Vec::new();
        bytes.extend_from_slice(MAGIC);
        for w in [VERSION, FEATURES as u32, HIDDEN as u32, 0] {
            bytes.extend_from_slice(&w.to_le_bytes());
        }
        let mut x: u32 = 12345;
        let mut push = |bytes: &mut Vec<u8>, range: i32| {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            let v = ((x >> 16) as i32 % (2 * range + 1)) - range;
            if range <= 127 && bytes.len() < 20 + FEATURES * HIDDEN {
                bytes.push(v as i8 as u8);
            } else {
                bytes.extend_from_slice(&(v as i16).to_le_bytes());
            }
        };
        for _ in 0..FEATURES * HIDDEN {
            push(&mut bytes, 40);
        }
        for _ in 0..HIDDEN {
            push(&mut bytes, 120);
        }
        for _ in 0..2 * HIDDEN {
            push(&mut bytes, 60);
        }
        bytes.extend_from_slice(&7i32.to_le_bytes());
        bytes
    }

    #[test]
    fn features_cover_every_piece_once_and_mirror_between_the_sides() {
        let pos = Position::from_fen(START_FEN).expect("the start");
        for view in [Color::Red, Color::Black] {
            let mut seen = std::collections::HashSet::new();
            for (sq, &code) in pos.board.iter().enumerate() {
                if code != 0 {
                    let f = feature(view, code, sq);
                    assert!(f < FEATURES);
                    assert!(seen.insert(f), "two pieces on one feature");
                }
            }
            assert_eq!(seen.len(), 32);
        }
        // Red's chariot at a1 seen by Red is Black's chariot at a10 seen by Black.
        assert_eq!(feature(Color::Red, 5, 0), feature(Color::Black, 13, 81));
        assert_eq!(feature(Color::Red, 13, 81), feature(Color::Black, 5, 0));
        // Every point a piece can reach has its own feature; an elephant across the river
        // has none (the row of zeros).
        let mut all = std::collections::HashSet::new();
        for code in (1..=7).chain(9..=15) {
            for sq in 0..POINTS {
                let f = feature(Color::Red, code, sq);
                assert!(f <= FEATURES);
                if f < FEATURES {
                    assert!(all.insert(f), "{code} at {sq}");
                }
            }
        }
        assert_eq!(all.len(), FEATURES);
        assert_eq!(feature(Color::Red, 3, 6 * 9 + 2), FEATURES);
    }

    #[test]
    fn updated_accumulators_equal_summed_ones_along_a_game() {
        let net = Network::from_bytes(&synthetic()).expect("the synthetic net");
        let mut pos = Position::from_fen(START_FEN).expect("the start");
        let mut acc = net.refresh(&pos);
        let mut seed = 7u64;
        for _ in 0..200 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            seed = crate::xiangqi::position::splitmix(seed);
            // Prefer captures, so that taking is tested often.
            let captures: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| pos.board[m.to.index()] != 0)
                .collect();
            let pool = if captures.is_empty() {
                &moves
            } else {
                &captures
            };
            let m = pool[(seed % pool.len() as u64) as usize];
            acc = net.after(&acc, &pos, m);
            pos.play_unchecked(m);
            assert_eq!(acc, net.refresh(&pos), "after {m}");
            assert_eq!(
                net.evaluate(&acc, pos.side_to_move()),
                net.evaluate_position(&pos)
            );
        }
    }

    #[test]
    fn the_embedded_net_loads_and_evaluates_the_start_as_the_trainer_did() {
        let net = embedded().expect("the embedded net reads");
        let start = Position::from_fen(START_FEN).expect("the start");
        assert_eq!(net.evaluate_position(&start), net.start_eval);
        // Not a blank file: the start is near level, and a chariot up is far ahead.
        assert!(net.start_eval.abs() < 100, "start {}", net.start_eval);
        let up = Position::from_fen(
            "1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        )
        .expect("Black without a chariot");
        assert!(
            net.evaluate_position(&up) > 300,
            "{}",
            net.evaluate_position(&up)
        );
    }

    #[test]
    fn bad_files_are_refused_with_a_reason() {
        assert_eq!(Network::from_bytes(b"hello").err(), Some(NetError::NotANet));
        let mut bytes = synthetic();
        bytes.pop();
        assert!(matches!(
            Network::from_bytes(&bytes),
            Err(NetError::WrongSize { .. })
        ));
        let mut bytes = synthetic();
        bytes[4] = 9;
        assert!(matches!(
            Network::from_bytes(&bytes),
            Err(NetError::Unsupported(_))
        ));
    }
}
