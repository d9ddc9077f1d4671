//! A computer opponent for Junqi, so that one person can play. It decides from what its seat
//! may know (its view), never from the hidden state: its own pieces, where the opposing pieces
//! stand, and the identities the rules have shown (everything in open mode, a flag after its
//! Field Marshal fell). It plays legal moves, takes the flag when it can, defends its own,
//! prefers safe captures, and spends cheap pieces on unknown ones.

use super::board::{POINTS, Point, graph};
use super::deployment::Deployment;
use super::movegen::{Board, Move, Piece};
use super::pieces::{Battle, Rank, Side, battle};
use super::search::{self, Effort, Rules};
use super::state::{JunqiMove, JunqiOptions, Visibility};
use super::view::JunqiView;
use crate::seat::{Seat, Strength};

/// Chooses an action for `seat` from its view. `seed` breaks ties (the authority gives it, so
/// replays stay exact). Returns `None` when the seat has nothing to do.
pub fn choose(
    view: &JunqiView,
    seat: Seat,
    options: &JunqiOptions,
    seed: u64,
) -> Option<JunqiMove> {
    let flip = view.visibility == Visibility::Flip;
    let side = view.colours.get(seat.index()).copied().flatten();
    if !flip {
        let side = side?;
        let me = side as usize;
        if !view.deployed[me] {
            return Some(JunqiMove::Deploy(Deployment::random(side, seed).to_text()));
        }
        if view.deployed.iter().any(|d| !d) {
            return None;
        }
    }
    let board = board_of(view);
    let rules = super::state::move_rules(options);
    let mut rng = seed | 1;
    let mut noise = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % 16) as i64
    };
    let mut scored: Vec<(i64, JunqiMove)> = Vec::new();
    if let Some(side) = side {
        for m in board.moves(side, rules) {
            let s = score(&board, view, side, m, options);
            scored.push((s * 16 + noise(), JunqiMove::Go(m)));
        }
    }
    for at in view
        .face_down
        .iter()
        .filter_map(|p| p.parse::<Point>().ok())
    {
        scored.push((
            flip_score(&board, side, at) * 16 + noise(),
            JunqiMove::Flip(at),
        ));
    }
    scored.into_iter().max_by_key(|(s, _)| *s).map(|(_, m)| m)
}

/// Whether the computer, playing `seat`, accepts a draw offered to it: when it is clearly
/// behind, with at least two pieces fewer than the opponent on the board (flags not counted).
/// The count needs nothing hidden; face-down pieces in flip mode belong to nobody yet.
pub fn accepts_draw(view: &JunqiView, seat: Seat) -> bool {
    let Some(side) = view.colours.get(seat.index()).copied().flatten() else {
        return false;
    };
    let count = |s: Side| {
        view.pieces
            .iter()
            .filter(|p| p.side == s && p.rank != Some(Rank::Flag))
            .filter(|p| !view.face_down.contains(&p.at))
            .count()
    };
    count(side) + 2 <= count(side.other())
}

/// Turning a piece up is worth a little: it may give us a piece, and it resets the quiet count.
/// Next to one of our valuable pieces it is a risk (it may be a stronger opposing piece).
fn flip_score(board: &Board, side: Option<Side>, at: Point) -> i64 {
    let exposed = graph().links(at.index()).iter().any(|l| {
        Point::from_index(l.to)
            .and_then(|p| board.get(p).filter(|_| !board.is_face_down(p)))
            .is_some_and(|q| Some(q.side) == side && worth(q.rank) >= 35)
    });
    if exposed { 2 } else { 8 }
}

/// What an unknown opposing piece is taken to be when building the board: only occupancy and
/// side matter for where pieces may go.
const UNKNOWN: Rank = Rank::Captain;

pub(crate) fn board_of(view: &JunqiView) -> Board {
    let mut board = Board::default();
    for seen in &view.pieces {
        if let Ok(p) = seen.at.parse::<Point>() {
            let rank = seen.rank.unwrap_or(UNKNOWN);
            board.set(
                p,
                Some(Piece {
                    side: seen.side,
                    rank,
                }),
            );
        }
    }
    // Face-down pieces block and cannot be attacked. Their identities are unknown, but each
    // side's count of landmines still standing matters (a flip-mode flag is guarded by them):
    // stand the missing landmines in for the first face-down pieces.
    let mut missing = view.landmines_left.unwrap_or([0, 0]).map(usize::from);
    for side in [Side::South, Side::North] {
        let face_up = board
            .pieces()
            .filter(|(_, q)| q.side == side && q.rank == Rank::Landmine)
            .count();
        missing[side as usize] = missing[side as usize].saturating_sub(face_up);
    }
    for at in view
        .face_down
        .iter()
        .filter_map(|p| p.parse::<Point>().ok())
    {
        let side = if missing[0] > 0 {
            Side::South
        } else {
            Side::North
        };
        let rank = if missing[side as usize] > 0 {
            missing[side as usize] -= 1;
            Rank::Landmine
        } else {
            UNKNOWN
        };
        board.set(at, Some(Piece { side, rank }));
        board.set_face_down(at, true);
    }
    for at in view
        .free_in_headquarters
        .iter()
        .filter_map(|p| p.parse::<Point>().ok())
    {
        board.set_free(at, true);
    }
    board
}

fn known(view: &JunqiView, p: Point) -> Option<Rank> {
    let at = p.to_string();
    view.pieces.iter().find(|s| s.at == at).and_then(|s| s.rank)
}

/// A rough worth of each piece, for trading.
fn worth(rank: Rank) -> i64 {
    match rank {
        Rank::FieldMarshal => 100,
        Rank::General => 80,
        Rank::MajorGeneral => 60,
        Rank::Brigadier => 45,
        Rank::Colonel => 35,
        Rank::Major => 25,
        Rank::Captain => 18,
        Rank::Lieutenant => 12,
        Rank::Engineer => 20,
        Rank::Bomb => 50,
        Rank::Landmine => 30,
        Rank::Flag => 1000,
    }
}

fn score(board: &Board, view: &JunqiView, side: Side, m: Move, options: &JunqiOptions) -> i64 {
    let Some(mover) = board.get(m.from) else {
        return i64::MIN;
    };
    let target = board.get(m.to);
    let mut s = 0;
    // Defend the flag: an opposing piece next to it must go.
    let own_flag = view
        .pieces
        .iter()
        .find(|p| p.side == side && p.rank == Some(Rank::Flag))
        .and_then(|p| p.at.parse::<Point>().ok());
    if let (Some(flag), Some(t)) = (own_flag, target)
        && t.side != side
        && graph()
            .links(flag.index())
            .iter()
            .any(|l| l.to == m.to.index())
    {
        s += 500;
    }
    match target {
        Some(t) if t.side != side => {
            s += match known(view, m.to) {
                Some(rank) => match battle(mover.rank, rank, super::state::battle_rules(options)) {
                    Battle::FlagTaken => 100_000,
                    Battle::AttackerWins => worth(rank) * 2,
                    Battle::BothRemoved => worth(rank) - worth(mover.rank),
                    // Never a known losing attack.
                    Battle::DefenderWins => -10 * worth(mover.rank),
                },
                None => unknown_attack(mover.rank, m.to, side),
            };
        }
        _ => {
            // Quiet moves: edge forward, keep the strongest pieces back a little.
            let forward = side.own_row(m.to.row()) as i64 - side.own_row(m.from.row()) as i64;
            s += forward * 3;
            if m.to.is_camp() {
                s += 4;
            }
            if matches!(mover.rank, Rank::FieldMarshal | Rank::General) {
                s -= 2;
            }
        }
    }
    // Stepping next to a known stronger enemy piece is not safe.
    if threatened(board, view, side, m, mover.rank, options) {
        s -= worth(mover.rank);
    }
    s
}

/// An attack on a piece of unknown identity: cheap pieces probe, engineers go for the back
/// rows (landmines), the strongest pieces wait for better odds.
fn unknown_attack(attacker: Rank, at: Point, side: Side) -> i64 {
    let their_row = side.other().own_row(at.row());
    let back_rows = their_row <= 1;
    match attacker {
        Rank::Engineer if back_rows => 30,
        Rank::Engineer => 2,
        Rank::Bomb => 15,
        Rank::Lieutenant | Rank::Captain | Rank::Major => 12,
        Rank::FieldMarshal | Rank::General if back_rows => -40,
        Rank::FieldMarshal | Rank::General => -5,
        _ => 6,
    }
}

fn threatened(
    board: &Board,
    view: &JunqiView,
    side: Side,
    m: Move,
    rank: Rank,
    options: &JunqiOptions,
) -> bool {
    if m.to.is_camp() && options.camps_safe {
        return false;
    }
    let mut after = board.clone();
    after.set(m.from, None);
    after.set(m.to, Some(Piece { side, rank }));
    let rules = super::state::move_rules(options);
    (0..POINTS).filter_map(Point::from_index).any(|p| {
        after.get(p).is_some_and(|q| q.side != side)
            && known(view, p).is_some_and(|theirs| {
                after.targets(p, rules).contains(&m.to)
                    && battle(theirs, rank, super::state::battle_rules(options))
                        == Battle::AttackerWins
            })
    })
}

/// Chooses an action at a strength: easy is [`choose`]; normal and hard deploy as a strong
/// player would and think about the hidden pieces ([`super::search`]), falling back on
/// [`choose`] where that search has nothing to go on (flip mode before the colours are fixed).
pub fn choose_at(
    view: &JunqiView,
    seat: Seat,
    options: &JunqiOptions,
    strength: Strength,
    seed: u64,
) -> Option<JunqiMove> {
    let effort = match strength {
        Strength::Normal => search::NORMAL,
        Strength::Hard => search::HARD,
        Strength::Easy | Strength::Strong | Strength::Level(_) => {
            return choose(view, seat, options, seed);
        }
    };
    choose_with(view, seat, options, effort, seed)
}

/// Chooses an action thinking with `effort` (see [`choose_at`]).
pub fn choose_with(
    view: &JunqiView,
    seat: Seat,
    options: &JunqiOptions,
    effort: Effort,
    seed: u64,
) -> Option<JunqiMove> {
    let Some(side) = view.colours.get(seat.index()).copied().flatten() else {
        // Flip mode before the colours are fixed: nothing to weigh yet.
        return choose(view, seat, options, seed);
    };
    let flip = view.visibility == Visibility::Flip;
    if !flip && !view.deployed[side as usize] {
        return Some(JunqiMove::Deploy(
            Deployment::considered(side, seed).to_text(),
        ));
    }
    if (!flip && view.deployed.iter().any(|d| !d)) || view.side_to_move != seat {
        return None;
    }
    let rules = Rules {
        moves: super::state::move_rules(options),
        battles: super::state::battle_rules(options),
        quiet_limit: options.quiet_limit(),
    };
    search::choose(view, side, rules, effort, seed).or_else(|| choose(view, seat, options, seed))
}

impl crate::Computer for super::Junqi {
    fn computer_move(
        view: &Self::View,
        seat: Seat,
        options: &Self::Options,
        strength: Strength,
        seed: u64,
    ) -> Option<Self::Move> {
        choose_at(view, seat, options, strength, seed)
    }

    fn accepts_draw(view: &Self::View, seat: Seat) -> bool {
        accepts_draw(view, seat)
    }
}
