//! Repetition: perpetual check and perpetual chase lose, any other threefold repetition draws.
//!
//! A *chase* (Asian rules, simplified as `RULES.md` states it): after a move, a piece of the
//! mover newly attacks an opposing piece that it could legally capture, and that piece is
//! unprotected — or the attacker is a horse or cannon and the target a chariot, protected or
//! not. Generals and soldiers may chase freely; generals cannot be chased (that is check);
//! a soldier that has not crossed the river cannot be chased; two pieces of the same kind
//! attacking each other offer an exchange, which is no chase.

use super::board::{Color, Kind, Move, POINTS};
use super::position::Position;
use super::state::seat_of;
use crate::game::{EndReason, Outcome};

/// What the repetition rules remember of one ply.
#[derive(Clone, Debug)]
pub(crate) struct Ply {
    pub mv: Move,
    /// The move gave check.
    pub check: bool,
    /// Identities of the opposing pieces this move started to chase.
    pub chased: Vec<u8>,
}

/// Returns the identities of the pieces that move `m` (legal, by the side to move) newly
/// chases.
pub(crate) fn chased_targets(pos: &Position, ids: &[u8; POINTS], m: Move) -> Vec<u8> {
    let side = pos.side_to_move();
    let before = chase_pairs(pos, ids, side);
    let mut after_pos = pos.clone();
    after_pos.play_unchecked(m);
    let mut after_ids = *ids;
    after_ids[m.to.index()] = ids[m.from.index()];
    after_ids[m.from.index()] = u8::MAX;
    let mut targets: Vec<u8> = chase_pairs(&after_pos, &after_ids, side)
        .into_iter()
        .filter(|pair| !before.contains(pair))
        .map(|(_, target)| target)
        .collect();
    targets.sort_unstable();
    targets.dedup();
    targets
}

/// Lists `(attacker id, target id)` for every chase-qualifying attack `side` has in `pos`.
fn chase_pairs(pos: &Position, ids: &[u8; POINTS], side: Color) -> Vec<(u8, u8)> {
    let mut p = pos.clone();
    p.set_side(side);
    let mut pairs = Vec::new();
    for m in p.legal_moves() {
        let (Some(attacker), Some(target)) = (p.piece_at(m.from), p.piece_at(m.to)) else {
            continue;
        };
        if matches!(attacker.kind(), Kind::King | Kind::Pawn) || target.kind() == Kind::King {
            continue;
        }
        if target.kind() == Kind::Pawn && target.color().own_half(m.to.rank()) {
            continue;
        }
        let special =
            matches!(attacker.kind(), Kind::Horse | Kind::Cannon) && target.kind() == Kind::Rook;
        let qualifies = if special {
            true
        } else {
            let exchange = attacker.kind() == target.kind() && attacks_back(&p, m);
            !(protected(&p, m) || exchange)
        };
        if qualifies {
            pairs.push((ids[m.from.index()], ids[m.to.index()]));
        }
    }
    pairs
}

/// Returns true if, after the capture `m`, the captured side can legally recapture.
fn protected(p: &Position, m: Move) -> bool {
    let mut after = p.clone();
    after.play_unchecked(m);
    after.legal_moves().iter().any(|r| r.to == m.to)
}

/// Returns true if the target of `m` could itself legally capture the attacker.
fn attacks_back(p: &Position, m: Move) -> bool {
    let mut q = p.clone();
    q.set_side(p.side_to_move().other());
    q.is_legal(Move::new(m.to, m.from))
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Violation {
    None,
    Chase,
    Check,
}

/// Judges the game after its latest ply: `None` unless the position occurred a third time.
/// `hashes[0]` is the start, `hashes[k]` the position after ply `k`; `first_mover` made ply 1.
pub(crate) fn judge_repetition(
    hashes: &[u64],
    history: &[Ply],
    first_mover: Color,
    chase_loses: bool,
) -> Option<Outcome> {
    let now = hashes.len() - 1;
    let current = hashes[now];
    let occurrences: Vec<usize> = (0..=now).filter(|&i| hashes[i] == current).collect();
    if occurrences.len() < 3 {
        return None;
    }
    // The span covers the two full cycles since the first of the three occurrences.
    let first = occurrences[occurrences.len() - 3];
    let span = &history[first..now];
    let mover_of = |ply_index: usize| {
        if ply_index.is_multiple_of(2) {
            first_mover
        } else {
            first_mover.other()
        }
    };
    let verdict = |color: Color| {
        let plies: Vec<&Ply> = span
            .iter()
            .enumerate()
            .filter(|(i, _)| mover_of(first + i) == color)
            .map(|(_, p)| p)
            .collect();
        violation(&plies, chase_loses)
    };
    let loser = match first_loses(verdict(Color::Red), verdict(Color::Black)) {
        None => None,
        Some(true) => Some(Color::Red),
        Some(false) => Some(Color::Black),
    };
    Some(match loser {
        None => Outcome::draw(EndReason::Repetition),
        Some(color) => {
            let reason = if verdict(color) == Violation::Check {
                EndReason::PerpetualCheck
            } else {
                EndReason::PerpetualChase
            };
            Outcome::win(seat_of(color.other()), reason)
        }
    })
}

/// Which of two sides, each with its violation in a repeated span, loses: `Some(true)` the
/// first, `Some(false)` the second, `None` (a draw) when both did alike. Perpetual check
/// weighs more than perpetual chase.
fn first_loses(first: Violation, second: Violation) -> Option<bool> {
    match (first, second) {
        (a, b) if a == b => None,
        (Violation::Check, _) | (Violation::Chase, Violation::None) => Some(true),
        _ => Some(false),
    }
}

/// Classifies one side's plies in the repeated span.
fn violation(plies: &[&Ply], chase_loses: bool) -> Violation {
    if plies.is_empty() {
        return Violation::None;
    }
    if plies.iter().all(|p| p.check) {
        return Violation::Check;
    }
    if !chase_loses || !plies.iter().all(|p| p.check || !p.chased.is_empty()) {
        return Violation::None;
    }
    // Every non-checking move must chase one and the same piece.
    let mut common: Option<Vec<u8>> = None;
    for p in plies.iter().filter(|p| !p.check) {
        common = Some(match common {
            None => p.chased.clone(),
            Some(c) => c.into_iter().filter(|id| p.chased.contains(id)).collect(),
        });
    }
    match common {
        Some(c) if !c.is_empty() => Violation::Chase,
        _ => Violation::None,
    }
}

/// What a repeated position means for the side to move in it: how a search scores a return
/// to a position seen earlier on its path (the rules core judges only a third occurrence; a
/// search treats the second as the cycle that would be played again).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum CycleVerdict {
    /// Nobody broke the rules, or both did: a draw.
    Draw,
    /// The side to move kept checking or chasing: it loses.
    MoverLoses,
    /// The other side kept checking or chasing: the side to move wins.
    MoverWins,
}

/// Judges the cycle of moves `cycle` that led from `pos` back to `pos` (which is the
/// position now, the side to move about to play again). The cycle is replayed from `pos`,
/// with fresh piece identities, to learn which of its moves checked and which chased.
pub(crate) fn judge_cycle(pos: &Position, cycle: &[Move], chase_loses: bool) -> CycleVerdict {
    let mut p = pos.clone();
    let mut ids = [u8::MAX; POINTS];
    for (i, id) in ids.iter_mut().enumerate() {
        if p.board[i] != 0 {
            *id = i as u8;
        }
    }
    let mover = p.side_to_move();
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    for &m in cycle {
        let side = p.side_to_move();
        let chased = if chase_loses {
            chased_targets(&p, &ids, m)
        } else {
            Vec::new()
        };
        p.play_unchecked(m);
        ids[m.to.index()] = ids[m.from.index()];
        ids[m.from.index()] = u8::MAX;
        let check = p.in_check(side.other());
        let ply = Ply {
            mv: m,
            check,
            chased,
        };
        if side == mover {
            ours.push(ply);
        } else {
            theirs.push(ply);
        }
    }
    let judge = |plies: &[Ply]| violation(&plies.iter().collect::<Vec<_>>(), chase_loses);
    match first_loses(judge(&ours), judge(&theirs)) {
        None => CycleVerdict::Draw,
        Some(true) => CycleVerdict::MoverLoses,
        Some(false) => CycleVerdict::MoverWins,
    }
}
