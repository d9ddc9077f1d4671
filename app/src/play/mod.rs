//! The play framework: one session for every game's screen. A game brings what is its own
//! through [`GameScreen`] (its board, how a tap becomes a move, its options and its computer)
//! and registers a [`GameEntry`]; the session does the rest: open, load, act (stored before it
//! shows, or queued for the server), the computer's turn, whose view shows and the hand-over
//! screen, draw offers, resignation, undo, review, reload after the sync worker changed the
//! game, and the sync line. Nothing here names a game or a screen.
//!
//! The files, from the bottom up: [`truth`] (where a game's truth lives, storing and queueing
//! an action), [`search`], [`choices`], [`phrases`], [`tips`] → [`session`] (the trait and the
//! session's state) → [`view`] (what the screen shows) → [`turn`] (how the session moves on)
//! → [`controls`] and [`lifecycle`] → [`entry`] (the registry entry a game's screen makes);
//! [`secret`] adds deployment and battles for the games with secrets.

pub mod choices;
pub mod controls;
pub mod entry;
pub mod lifecycle;
pub mod phrases;
pub mod search;
pub mod secret;
pub mod session;
pub mod tips;
pub mod truth;
pub mod turn;
pub mod view;

pub(crate) use choices::OnlineChoice;
pub(crate) use controls::{play_with, tap, update, viewer_acts};
pub(crate) use entry::entry;
pub(crate) use entry::{GameEntry, Imported, RulesPage};
pub(crate) use lifecycle::open;
pub(crate) use search::{Search, search_at_strength};
pub(crate) use session::slot;
pub(crate) use session::{Arrange, Call, GameScreen, Session};
pub(crate) use view::{BoardModel, refresh, reviewed, slide_last_event};

/// What the session's tests name (they were written beside the session's code).
#[cfg(test)]
use {
    crate::shell::format::{game_outcome, minutes_left},
    crate::store::{GameId, RemoteGame},
    qiguan_core::{Action, Actor, Match, Outcome, RecordEntry, Seat, Strength, ToAct},
    qiguan_ui::{GamePhase, ResultKind, SyncLine, Waiting},
    truth::{self as hidden, Source},
    turn::settle_viewer,
    view::{declined_offer, session_ui},
};

#[cfg(test)]
#[path = "session_tests.rs"]
mod tests;
