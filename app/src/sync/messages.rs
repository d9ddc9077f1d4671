//! What the screens ask of the sync worker ([`Command`], [`LibraryCommand`]) and what it
//! reports back ([`Event`], [`LibraryEvent`]).

use crate::store::{GameId, Phrase};
use qiguan_core::GameKind;

/// What the UI asks of the worker.
#[derive(Debug)]
pub enum Command {
    /// Create a game on `server` with this device in `seat`.
    Create {
        server: String,
        game: GameKind,
        /// The game's options, as core serializes them (`null` for the defaults).
        options: serde_json::Value,
        seat: u8,
        /// Seats the server's computer plays.
        bots: Vec<(u8, qiguan_core::Strength)>,
        days_per_move: i64,
        name: String,
    },
    /// Join with an invite code.
    Join {
        server: String,
        code: String,
        name: String,
    },
    /// Send the outbox.
    Flush,
    /// Fetch every correspondence game.
    RefreshAll,
    /// Follow this game (long poll) until told otherwise; `None` stops following.
    Watch(Option<GameId>),
    /// Internal: the followed game moved on the server.
    Moved(GameId),
    /// Internal: the followed game's server stopped answering (its long poll failed).
    Unreachable,
    /// The app is back in the foreground: start the long poll again (its connection may have
    /// died meanwhile), send what waits, and re-read every game.
    Resumed,
    /// Linked devices: see [`LibraryCommand`].
    Library(LibraryCommand),
    /// Check that a Qiguan server answers at this address (Settings, once typed).
    Probe(String),
    /// Make (or find) the link to this game's page for anyone.
    Share(GameId),
    /// Withdraw this game's link.
    Withdraw(GameId),
    /// Send the games this device uploaded that changed since to their pages (also every
    /// few seconds: a computer's move changes a game too).
    SendUploads,
}

/// What the Devices screen asks of the worker.
#[derive(Debug)]
pub enum LibraryCommand {
    /// Report where this device stands (linked or not) and, if linked, its devices.
    Show,
    /// Start a library on `server` with this device.
    Start { server: String, name: String },
    /// Offer a pairing code for another device.
    Offer,
    /// Join the library a code opens.
    Join {
        server: String,
        code: String,
        name: String,
    },
    /// Unlink a device (this one too).
    Unlink(String),
    /// Sync now.
    Sync,
}

/// What the worker reports about linked devices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LibraryEvent {
    /// Where this device stands: its server when it is in a library, whether it was unlinked,
    /// and the library's devices as last heard.
    State {
        server: Option<String>,
        unlinked: bool,
        devices: Vec<crate::library::Device>,
    },
    /// A pairing code to show.
    Offer(crate::library::Offer),
    /// A sync under way has read or sent this much so far (each step is committed here).
    Progress(crate::library::Synced),
    /// A sync finished (at this time, Unix ms) with these results.
    Synced {
        at: i64,
        done: crate::library::Synced,
    },
    /// Something failed; `code` as [`SyncError::code`] gives it.
    Failed(String),
}

/// What the worker reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// A game was created; show the invite code (empty: the server's computer fills every
    /// other seat).
    Created { id: GameId, code: String },
    /// A game was joined.
    Joined { id: GameId },
    /// These games changed in the local store.
    Changed(Vec<GameId>),
    /// Whether the last attempt reached the server, and how many actions still wait.
    Status { online: bool, pending: usize },
    /// Phrases the other seats sent, newly heard (the games' screens already show them).
    Heard(Vec<(GameId, Phrase)>),
    /// Something failed; `what` is `create`, `join` or `sync`, `code` says why in a word the
    /// screen translates (see [`SyncError::code`]).
    Failed { what: &'static str, code: String },
    /// About linked devices.
    Library(LibraryEvent),
    /// What answers at an address Settings asked about: `code` is empty for a Qiguan
    /// server, else [`SyncError::code`]'s word (`offline`: nothing; `protocol`: something
    /// that is not a Qiguan server).
    Probed { server: String, code: String },
    /// The game's page is at `url`.
    Shared { id: GameId, url: String },
    /// The game's link was withdrawn.
    Unshared { id: GameId },
}
