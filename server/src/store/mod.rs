//! Where the server keeps its games: one [`Store`] trait, two implementations.
//!
//! - [`sqlite`]: one file, one process (the embedded default). A single writer thread commits
//!   every write; nothing else writes the file, so the server's cache is always current.
//! - [`postgres`]: one database shared by any number of server processes. Each process caches
//!   the games it serves and hears about every other process's commits through
//!   `LISTEN`/`NOTIFY`.
//!
//! Either way the database is the arbiter. A write that depends on the game as the server saw
//! it carries a [`Write::Guard`]: inside the transaction the game's row is locked and its
//! number of actions and taken seats compared with what the server's copy had. If another
//! process (or a stale copy) got there first, the commit fails with [`StoreError::Conflict`];
//! the server then reloads the game and judges the request again. Unique keys back it up
//! (one row per ply, per seat, per client id; an invite used only once).

pub mod postgres;
pub mod sqlite;

use crate::auth::Hash;
use async_trait::async_trait;
use tokio::sync::mpsc;

/// Why a commit or a read failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The game changed since the server read it, or a once-only row is taken: nothing was
    /// written; read again and decide again.
    #[error("conflict: {0}")]
    Conflict(String),
    /// The store failed (disk, connection): nothing was written, or nothing acknowledged.
    #[error("{0}")]
    Failed(String),
}

/// A change another server process committed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// This game changed.
    Game(String),
    /// Changes may have been missed (the notification connection dropped): anything cached
    /// may be stale.
    Lost,
}

/// The games' storage.
#[async_trait]
pub trait Store: Send + Sync + std::fmt::Debug {
    /// One game with everything needed to rebuild it, or `None` when there is no such game.
    async fn game(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        self.game_from(id, 0, 0).await
    }
    /// The game as [`Store::game`] reads it, but with only its actions from ply `actions` on
    /// and its phrases after the first `phrases`: what a copy that has those lacks.
    async fn game_from(
        &self,
        id: &str,
        actions: usize,
        phrases: usize,
    ) -> Result<Option<StoredGame>, StoreError>;
    /// The game and seat a token's hash holds.
    async fn seat_of(&self, token_hash: Hash) -> Result<Option<(String, u8)>, StoreError>;
    /// An invite by its code's hash.
    async fn invite(&self, code_hash: Hash) -> Result<Option<StoredInvite>, StoreError>;
    /// Writes these in one transaction; returns once it is committed (durable).
    async fn commit(&self, writes: Vec<Write>) -> Result<(), StoreError>;
    /// The device a token's hash belongs to (linked or not).
    async fn device(&self, token_hash: Hash) -> Result<Option<StoredDevice>, StoreError>;
    /// Every device that was ever in a library, in the order they were linked.
    async fn devices(&self, library_id: &str) -> Result<Vec<StoredDevice>, StoreError>;
    /// A pairing by its id.
    async fn pairing(&self, id: &str) -> Result<Option<StoredPairing>, StoreError>;
    /// A library's entries written after change `after`, oldest first, at most `limit`, and the
    /// library's newest change number.
    async fn entries(
        &self,
        library_id: &str,
        after: i64,
        limit: usize,
    ) -> Result<(Vec<StoredEntry>, i64), StoreError>;
    /// A shared page's link by its id.
    async fn share(&self, id: &str) -> Result<Option<StoredShare>, StoreError>;
    /// The link to this correspondence game's page not withdrawn, if any.
    async fn share_of_game(&self, game_id: &str) -> Result<Option<String>, StoreError>;
    /// Whether other processes may write the same games (then caches need [`Store::changes`]).
    fn shared(&self) -> bool;
    /// The changes other processes commit, for the one caller that asks first; `None` for a
    /// store no one else writes.
    fn changes(&self) -> Option<mpsc::UnboundedReceiver<Change>>;
}

/// One write. A request's writes go to the store together and commit together.
#[derive(Clone, Debug)]
pub enum Write {
    /// Fails the commit with a conflict unless the game has exactly these numbers of actions
    /// and of seats taken by people (what the server's copy was judged on). Locks the game's
    /// row for the rest of the transaction.
    Guard {
        game_id: String,
        actions: usize,
        seats: usize,
    },
    /// A new game.
    Game {
        id: String,
        kind: String,
        options: String,
        setup: String,
        days_per_move: i64,
        created_at: i64,
        /// The seed of the game's chance (hex): kept secret until the game is over.
        chance_seed: Option<String>,
    },
    /// A seat taken, with its token's hash.
    Seat {
        game_id: String,
        seat: u8,
        token_hash: Hash,
        name: String,
        /// The seat's contribution to a deal made when the last seat joins.
        contribution: Option<String>,
        at: i64,
    },
    /// An invite for a seat.
    Invite {
        code_hash: Hash,
        game_id: String,
        seat: u8,
    },
    /// An invite used up (a conflict if it already was).
    UseInvite { code_hash: Hash, at: i64 },
    /// An action at `ply`; `client_action_id` and `sent` (the text as the client sent it) only
    /// on the action a seat submitted.
    Action {
        game_id: String,
        ply: usize,
        actor: String,
        action: String,
        client_action_id: Option<String>,
        sent: Option<String>,
        /// A chance action's contributions, as a JSON array of strings.
        contributions: Option<String>,
        at: i64,
    },
    /// A seat the server's computer plays.
    Bot {
        game_id: String,
        seat: u8,
        strength: String,
    },
    /// A preset phrase a seat sent, number `seq` in its game.
    Phrase {
        game_id: String,
        seq: usize,
        seat: u8,
        phrase: String,
        client_phrase_id: String,
        at: i64,
    },
    /// The deadline of the seat to act (none when the game is over or waiting).
    Deadline {
        game_id: String,
        deadline: Option<i64>,
    },
    /// A new library of linked devices.
    Library { id: String, at: i64 },
    /// A device joins a library, with its token's hash and its name (sealed by the devices).
    Device {
        library_id: String,
        device_id: String,
        token_hash: Hash,
        name: Vec<u8>,
        at: i64,
    },
    /// A device leaves its library (a conflict if it was not in it).
    Unlink {
        library_id: String,
        device_id: String,
        at: i64,
    },
    /// A pairing offered (a conflict if its id is taken).
    Pairing {
        id: String,
        library_id: String,
        verifier: Hash,
        envelope: Vec<u8>,
        expires_at: i64,
    },
    /// A pairing used: gone after this (a conflict if it is gone or expired by `at`).
    UsePairing { id: String, at: i64 },
    /// A wrong proof for a pairing.
    MissPairing { id: String },
    /// Removes pairings expired by `at` or with [`MAX_PAIRING_MISSES`] wrong proofs.
    ForgetPairings { at: i64 },
    /// A new link to a shared page: of a correspondence game, or of an upload with the hash
    /// of the key that withdraws it (a conflict if its id is taken).
    Share {
        id: String,
        game_id: Option<String>,
        upload: Option<String>,
        names: String,
        key_hash: Option<Hash>,
        at: i64,
    },
    /// A link withdrawn: its upload is dropped (nothing changes if it already was).
    Withdraw { id: String, at: i64 },
    /// An uploaded game as it stands now, in place of what was uploaded before (nothing
    /// changes once the link is withdrawn).
    Reshare {
        id: String,
        upload: String,
        names: String,
    },
    /// A slot's new entry, based on the entry the device had seen there (`None`: the slot was
    /// empty). A conflict if the slot now holds another; nothing changes if it already holds
    /// this one (a resend).
    Entry {
        library_id: String,
        slot: String,
        entry: String,
        base: Option<String>,
        blob: Vec<u8>,
        device_id: String,
        at: i64,
    },
}

/// Wrong proofs after which a pairing is withdrawn.
pub const MAX_PAIRING_MISSES: i64 = 5;

impl Write {
    /// The game this write changes.
    pub fn game_id(&self) -> Option<&str> {
        match self {
            Write::Guard { game_id, .. }
            | Write::Seat { game_id, .. }
            | Write::Invite { game_id, .. }
            | Write::Action { game_id, .. }
            | Write::Bot { game_id, .. }
            | Write::Phrase { game_id, .. }
            | Write::Deadline { game_id, .. } => Some(game_id),
            Write::Game { id, .. } => Some(id),
            Write::UseInvite { .. }
            | Write::Library { .. }
            | Write::Device { .. }
            | Write::Unlink { .. }
            | Write::Pairing { .. }
            | Write::UsePairing { .. }
            | Write::MissPairing { .. }
            | Write::ForgetPairings { .. }
            | Write::Share { .. }
            | Write::Withdraw { .. }
            | Write::Reshare { .. }
            | Write::Entry { .. } => None,
        }
    }
}

/// One stored action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredAction {
    /// Who acted (`seat 0`, `chance`).
    pub actor: String,
    /// The action as recorded.
    pub action: String,
    /// The submitting client's id for it, if a seat submitted it.
    pub client_action_id: Option<String>,
    /// The action's text as the client sent it (none for rows older than schema 5).
    pub sent: Option<String>,
    /// A chance action's contributions, as a JSON array of strings.
    pub contributions: Option<String>,
    /// When it was stored, Unix ms.
    pub at: i64,
}

/// A game as stored.
#[derive(Debug)]
pub struct StoredGame {
    pub id: String,
    pub kind: String,
    pub options: String,
    pub setup: String,
    pub days_per_move: i64,
    pub created_at: i64,
    pub deadline: Option<i64>,
    /// The seed the game's chance is drawn from (hex), for games with chance since issue 42.
    pub chance_seed: Option<String>,
    /// Each taken seat: its number, its token's hash and its player's name.
    pub seats: Vec<(u8, Hash, String)>,
    /// Each seat's contribution to a deal made when the last seat joins (fair chance).
    pub contributions: Vec<(u8, String)>,
    /// Seats the server's computer plays, with their strength.
    pub bots: Vec<(u8, String)>,
    /// The actions from the ply asked for on, in order.
    pub actions: Vec<StoredAction>,
    /// How many actions the game has in all.
    pub action_count: usize,
    /// The phrases sent after those asked to skip, in order: seat, phrase, the sender's id for
    /// it, when.
    pub phrases: Vec<(u8, String, String, i64)>,
}

/// An invite as stored.
#[derive(Debug)]
pub struct StoredInvite {
    pub code_hash: Hash,
    pub game_id: String,
    pub seat: u8,
    pub used: bool,
}

/// A device of a library.
#[derive(Clone, Debug)]
pub struct StoredDevice {
    pub library_id: String,
    pub device_id: String,
    /// Its name, sealed with the library's key.
    pub name: Vec<u8>,
    pub linked_at: i64,
    pub unlinked_at: Option<i64>,
}

/// A pairing offered by a device of a library.
#[derive(Clone, Debug)]
pub struct StoredPairing {
    pub library_id: String,
    /// SHA-256 of the proof the joining device must send.
    pub verifier: Hash,
    /// The library's key, sealed with a key derived from the pairing code.
    pub envelope: Vec<u8>,
    pub expires_at: i64,
    pub misses: i64,
}

/// A link to a shared page.
#[derive(Clone, Debug)]
pub struct StoredShare {
    pub id: String,
    /// The correspondence game it shows, if it is one.
    pub game_id: Option<String>,
    /// What a device uploaded (JSON), while the link is not withdrawn.
    pub upload: Option<String>,
    /// The players' names an upload gave (JSON array of strings).
    pub names: String,
    /// SHA-256 of an upload's withdrawal key.
    pub key_hash: Option<Hash>,
    pub created_at: i64,
    pub withdrawn_at: Option<i64>,
}

/// A slot's newest entry.
#[derive(Clone, Debug)]
pub struct StoredEntry {
    pub slot: String,
    pub entry: String,
    pub seq: i64,
    pub blob: Vec<u8>,
}

/// A hash read from a byte column.
pub(crate) fn to_hash(bytes: &[u8]) -> Hash {
    let mut h = [0u8; 32];
    let n = bytes.len().min(32);
    h[..n].copy_from_slice(&bytes[..n]);
    h
}

/// Opens the store a `--db` value names: a `postgres://` or `postgresql://` URL for
/// PostgreSQL, anything else a SQLite file.
pub async fn open(db: &str) -> Result<std::sync::Arc<dyn Store>, String> {
    if db.starts_with("postgres://") || db.starts_with("postgresql://") {
        Ok(std::sync::Arc::new(postgres::PgStore::open(db).await?))
    } else {
        let path = std::path::PathBuf::from(db);
        let store = tokio::task::spawn_blocking(move || sqlite::SqliteStore::open(&path))
            .await
            .map_err(|e| e.to_string())??;
        Ok(std::sync::Arc::new(store))
    }
}
