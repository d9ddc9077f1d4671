//! What happened in an Aeroplane game, as its screen tells it: each action's event (a launch,
//! a move, a capture, a roll with no move), the news a seat has not seen since its own last
//! move, and the game replayed to a step of the review.

use crate::play::Session;
use qiguan_core::aeroplane::{Aeroplane, AeroplaneEvent, AeroplaneMove, MoveKind, Plan};
use qiguan_core::{Action, Match, MatchEvent, Record, Seat, Told};
use qiguan_ui::AeroEvent;

/// What an action did, for the lines under the die.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Happened {
    pub(super) event: AeroEvent,
    pub(super) seat: Option<Seat>,
    pub(super) count: usize,
    /// Whose planes a capture sent back.
    pub(super) victim: Option<Seat>,
    /// The roll that let no plane move.
    pub(super) die: u8,
}

/// The most lines of news under the die.
pub(super) const NEWS: usize = 4;

/// What the seat to act has not seen yet: what happened since its own last move (every
/// other seat's moves, a capture of its planes among them), at most [`NEWS`], the newest
/// last; at least the last thing that happened. Over or in review: the last [`NEWS`].
pub(super) fn news_for(all: &[Happened], to_act: Option<Seat>) -> Vec<Happened> {
    let since = to_act
        .and_then(|seat| {
            all.iter().rposition(|h| {
                h.seat == Some(seat) && !matches!(h.event, AeroEvent::NoMove | AeroEvent::None)
            })
        })
        .map_or(0, |i| i + 1);
    let from = since
        .min(all.len().saturating_sub(1))
        .max(all.len().saturating_sub(NEWS));
    all[from..].to_vec()
}

/// Replays the first `ply` actions; returns the match and what its last action did.
pub(super) fn replay_to(
    record: &Record,
    ply: usize,
) -> Result<(Match<Aeroplane>, Vec<Happened>), String> {
    let mut record = record.clone();
    record.actions.truncate(ply);
    let mut game: Match<Aeroplane> = {
        let mut start = record.clone();
        start.actions.clear();
        Match::from_record(&start).map_err(|e| e.to_string())?
    };
    let mut happened = Vec::new();
    for entry in &record.actions {
        let action: Action<AeroplaneMove> = entry.action.parse()?;
        let told = game.apply(entry.by, &action).map_err(|e| e.to_string())?;
        happened.extend(what_happened(&told));
    }
    Ok((game, happened))
}

/// Reads what an action did from what it told everyone (a roll that lets a plane move tells
/// nothing of its own: the move will).
pub(super) fn what_happened(told: &[Told<MatchEvent<AeroplaneEvent>>]) -> Option<Happened> {
    let mut out = None;
    for t in told {
        let MatchEvent::Game { event } = &t.event else {
            continue;
        };
        let h = match event {
            AeroplaneEvent::Rolled {
                seat,
                can_move: false,
                value,
            } => Happened {
                event: AeroEvent::NoMove,
                seat: Some(*seat),
                count: 0,
                victim: None,
                die: *value,
            },
            AeroplaneEvent::Rolled { .. } => continue,
            AeroplaneEvent::ThreeSixes { seat, sent_back } => Happened {
                event: AeroEvent::ThreeSixes,
                seat: Some(*seat),
                count: sent_back.len(),
                victim: None,
                die: 0,
            },
            AeroplaneEvent::Moved { plan } => Happened {
                event: move_event(plan),
                seat: Some(plan.seat),
                count: plan.captured.len(),
                victim: plan.captured.first().map(|p| p.seat),
                die: 0,
            },
            AeroplaneEvent::Finished { seat, .. } => Happened {
                event: AeroEvent::Finished,
                seat: Some(*seat),
                count: 0,
                victim: None,
                die: 0,
            },
        };
        out = Some(h);
    }
    out
}

/// What a move did, the most telling first: a capture, a flight, a jump (core says which).
pub(super) fn move_event(plan: &Plan) -> AeroEvent {
    if !plan.captured.is_empty() {
        return AeroEvent::Capture;
    }
    match plan.kind {
        MoveKind::Launch => AeroEvent::Launch,
        MoveKind::Blocked => AeroEvent::Blocked,
        MoveKind::Bounced => AeroEvent::Bounce,
        MoveKind::Walk if plan.flew() => AeroEvent::Flight,
        MoveKind::Walk if plan.jumped() => AeroEvent::Jump,
        MoveKind::Walk => AeroEvent::Move,
    }
}

/// What each of the game's actions did (worked out once per version).
pub(super) fn all_happened(s: &Session<Aeroplane>, game: &Match<Aeroplane>) -> Vec<Happened> {
    let mut cached = s.board.happened.borrow_mut();
    match cached.as_ref() {
        Some((version, h)) if *version == game.version() => h.clone(),
        _ => {
            let h = replay_to(&game.record(), game.version())
                .map(|(_, h)| h)
                .unwrap_or_default();
            *cached = Some((game.version(), h.clone()));
            h
        }
    }
}
