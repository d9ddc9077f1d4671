//! How core's and the store's values are named for the screens: results, time left, dates
//! and computer strengths.

use qiguan_core::{GameResult, Outcome, Strength};
use qiguan_ui::{GameOutcome, ResultKind};

/// Whole minutes from `now` to a deadline (both Unix ms): 0 once it has passed, -1 for none.
pub(crate) fn minutes_left(deadline: Option<i64>, now: i64) -> i32 {
    match deadline {
        None => -1,
        Some(d) => ((d - now).max(0) / 60_000).min(i64::from(i32::MAX)) as i32,
    }
}

/// A game's result for the screens: who won, a draw, or not over yet, and why it ended.
pub(crate) fn game_outcome(outcome: Option<&Outcome>) -> GameOutcome {
    let Some(outcome) = outcome else {
        return GameOutcome::default();
    };
    let (kind, winner) = match &outcome.result {
        GameResult::Win { winners } => (
            ResultKind::Win,
            winners.first().map_or(-1, |s| s.index() as i32),
        ),
        GameResult::Ranking { order } => (
            ResultKind::Win,
            order.first().map_or(-1, |s| s.index() as i32),
        ),
        GameResult::Draw => (ResultKind::Draw, -1),
    };
    GameOutcome {
        kind,
        winner,
        reason: outcome.reason.as_str().into(),
    }
}

/// A stored result (`win:1`, `draw`, `rank:2,0,1`, none while unfinished) as the screens
/// take it: the winner is the first place of a ranking; a code this version cannot read
/// shows as unfinished rather than as a made-up winner.
pub(crate) fn stored_outcome(result: Option<&str>, reason: Option<&str>) -> GameOutcome {
    let first = |seats: &str| seats.split(',').next().and_then(|s| s.parse().ok());
    let (kind, winner) = match result {
        Some("draw") => (ResultKind::Draw, -1),
        Some(r) => match r.split_once(':') {
            Some(("win" | "rank", seats)) => match first(seats) {
                Some(seat) => (ResultKind::Win, seat),
                None => (ResultKind::Unfinished, -1),
            },
            _ => (ResultKind::Unfinished, -1),
        },
        None => (ResultKind::Unfinished, -1),
    };
    GameOutcome {
        kind,
        winner,
        reason: reason.unwrap_or_default().into(),
    }
}

/// Formats a Unix-millisecond time in local time, `2026-11-22 14:05`.
pub fn format_date(ms: i64) -> String {
    use chrono::TimeZone;
    match chrono::Local.timestamp_millis_opt(ms).single() {
        Some(t) => t.format("%Y-%m-%d %H:%M").to_string(),
        None => String::new(),
    }
}

/// A computer's strength as the screens name it where its game has three (Junqi and
/// Sea-land-air: `easy`, `normal`, `hard`); empty for a level (named as a number) and for
/// `strong` (Aeroplane chess's, or the first computer in a game stored before there were three).
pub(crate) fn strength_code(strength: Strength) -> &'static str {
    match strength {
        Strength::Easy => "easy",
        Strength::Normal => "normal",
        Strength::Hard => "hard",
        Strength::Strong | Strength::Level(_) => "",
    }
}
