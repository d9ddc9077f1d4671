//! Correspondence play: the HTTP client for qiguan-server and the engine that keeps local
//! games in step with it. No UI here: the app runs it on a worker thread, the end-to-end tests
//! drive it directly.
//!
//! An action made on this device is checked by core, then written with an outbox entry in one
//! transaction, so it is shown at once and survives a crash even with no network. `flush`
//! sends the outbox oldest first; each entry carries a `client_action_id`, so a resend after a
//! lost answer (or a crash between sending and forgetting) is applied once. The server's record
//! is the truth: `refresh` and `wait` mirror it into the local history.
//!
//! A game with secrets is refereed by the server, which sends each seat only its view
//! while the game goes on. The device keeps that view in place of the record, checks an action
//! against the view's legal actions, and queues it without recording it: the server's answer
//! is the next view. When the game ends the server sends the whole record, which replaces the
//! view, so that the history replays the game with every piece shown.
//!
//! - [`wire`]: what the server sends (a seat's view, the answers to create, join, share);
//! - [`client`]: the HTTP client, one method per request;
//! - [`engine`]: [`Correspondence`], the engine over the local store (flush, refresh, wait);
//! - [`mirror`]: the server's word written into the local history;
//! - [`worker`]: the thread the app runs all of it on; `messages`: what the screens ask of
//!   it and what it reports; `devices`: its side of linked devices.

mod client;
mod devices;
mod engine;
mod error;
mod messages;
mod mirror;
pub mod share;
mod wire;
pub mod worker;

pub use client::Client;
pub(crate) use client::read_answer;
pub use engine::{Correspondence, Flushed};
pub use error::SyncError;
pub use messages::{Command, Event, LibraryCommand, LibraryEvent};
pub use mirror::{check_hidden, queue_hidden, seat_view};
pub(crate) use wire::now;
pub use wire::{Created, Joined, Said, SeatInvite, ServerView, Shared, new_action_id};
pub use worker::Worker;
