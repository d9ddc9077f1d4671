//! The local game history: one SQLite file in WAL mode, a versioned schema, and every action
//! written in its own transaction before the UI shows it as made.

mod games;
mod history;
pub mod library;
mod migrations;
mod phrases;
mod records;
mod remote;
mod reviews;
mod settings;
mod shares;
mod stats;
pub(crate) mod storage;
mod studies;
pub use reviews::KeptReview;
pub use shares::{ChangedUpload, KeptShare};
pub use stats::FinishedGame;

pub use phrases::{Phrase, QueuedPhrase};

use rusqlite::{Connection, OpenFlags};
use std::fmt;
use std::path::{Path, PathBuf};

pub(crate) use games::note_opening;
pub use games::{parse_kind, replay};
pub use migrations::SCHEMA_VERSION;
pub use records::{
    ComputerFilter, GameSummary, HistoryFilter, Mode, NewGame, ResultFilter, Standing, StoredGame,
};
pub use remote::{OutboxEntry, RemoteGame};

/// The name of the database file inside the data directory.
pub const DB_FILE: &str = "qiguan.sqlite";

/// A stored game's id.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct GameId(pub i64);

/// Why the store cannot be used. The file is never written after one of these.
#[derive(Debug)]
pub enum StoreError {
    /// The file exists but is not a Qiguan database, or is damaged.
    Corrupt {
        /// The file.
        path: PathBuf,
        /// SQLite's words.
        detail: String,
    },
    /// The file was written by a newer Qiguan with a schema this build does not know.
    TooNew {
        /// The file.
        path: PathBuf,
        /// The schema version found.
        found: i64,
    },
    /// The directory or file cannot be opened or written.
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's or SQLite's words.
        detail: String,
    },
    /// A stored record no longer replays (a bug, or a hand-edited file).
    BadRecord {
        /// The game.
        id: GameId,
        /// Why.
        detail: String,
    },
    /// The game asked for is not in the store.
    NoSuchGame(GameId),
    /// A write did not match the stored game (a stale or duplicated action).
    Conflict(String),
    /// Any other SQLite failure.
    Sqlite(rusqlite::Error),
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Corrupt { path, detail } => write!(
                f,
                "{} is damaged or not a Qiguan database ({detail}); it was left untouched",
                path.display()
            ),
            StoreError::TooNew { path, found } => write!(
                f,
                "{} was written by a newer Qiguan (schema {found}, this version knows up to \
                 {SCHEMA_VERSION}); update the app. The file was left untouched",
                path.display()
            ),
            StoreError::Io { path, detail } => {
                write!(f, "cannot open {}: {detail}", path.display())
            }
            StoreError::BadRecord { id, detail } => {
                write!(f, "game {} does not replay: {detail}", id.0)
            }
            StoreError::NoSuchGame(id) => write!(f, "no game {} in the history", id.0),
            StoreError::Conflict(what) => write!(f, "not saved: {what}"),
            StoreError::Sqlite(e) => write!(f, "database error: {e}"),
        }
    }
}

impl std::error::Error for StoreError {}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        StoreError::Sqlite(e)
    }
}

/// The local store.
#[derive(Debug)]
pub struct Store {
    pub(crate) conn: Connection,
    path: PathBuf,
}

impl Store {
    /// Opens (creating if needed) the database in this directory.
    pub fn open_dir(dir: &Path) -> Result<Store, StoreError> {
        std::fs::create_dir_all(dir).map_err(|e| StoreError::Io {
            path: dir.to_owned(),
            detail: e.to_string(),
        })?;
        Store::open(&dir.join(DB_FILE))
    }

    /// Opens (creating if needed) the database file and brings its schema up to date.
    ///
    /// A damaged file or one from a newer version is refused before anything is written.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let io = |e: rusqlite::Error| StoreError::Io {
            path: path.to_owned(),
            detail: e.to_string(),
        };
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags).map_err(io)?;
        let corrupt = |e: rusqlite::Error| StoreError::Corrupt {
            path: path.to_owned(),
            detail: e.to_string(),
        };
        // Reading the schema touches the header: a file that is not SQLite fails here,
        // before any pragma could write to it.
        let version: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(corrupt)?;
        conn.query_row("SELECT count(*) FROM sqlite_master", [], |r| {
            r.get::<_, i64>(0)
        })
        .map_err(corrupt)?;
        if version > SCHEMA_VERSION {
            return Err(StoreError::TooNew {
                path: path.to_owned(),
                found: version,
            });
        }
        // FULL: a move the UI showed as made survives power loss, not only a crash.
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(2))?;
        let mut store = Store {
            conn,
            path: path.to_owned(),
        };
        // The schema brought up to date in one transaction, before the switch to WAL (which
        // writes the file's header): a file that fails on the way is left as it was.
        migrations::migrate(&mut store.conn, version).map_err(|e| match e {
            StoreError::Sqlite(e) => corrupt(e),
            other => other,
        })?;
        store
            .conn
            .pragma_update(None, "journal_mode", "WAL")
            .map_err(corrupt)?;
        Ok(store)
    }

    /// Returns the database file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Runs `f` inside one transaction (bulk loads, the benchmark's fixture); inside another,
    /// as a savepoint of it.
    pub fn in_transaction<T>(
        &mut self,
        f: impl FnOnce(&mut Store) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        self.atomically(f)
    }

    /// As [`Store::in_transaction`], for work whose errors are the caller's own (any error a
    /// store error converts into): all of its writes are seen together or not at all.
    pub fn atomically<T, E: From<StoreError>>(
        &mut self,
        f: impl FnOnce(&mut Store) -> Result<T, E>,
    ) -> Result<T, E> {
        if !self.conn.is_autocommit() {
            // Inside another transaction: a savepoint, so that this part alone can fail.
            self.conn
                .execute_batch("SAVEPOINT nested")
                .map_err(StoreError::from)?;
            return match f(self) {
                Ok(v) => {
                    self.conn
                        .execute_batch("RELEASE nested")
                        .map_err(StoreError::from)?;
                    Ok(v)
                }
                Err(e) => {
                    let _ = self
                        .conn
                        .execute_batch("ROLLBACK TO nested; RELEASE nested");
                    Err(e)
                }
            };
        }
        self.conn
            .execute_batch("BEGIN IMMEDIATE")
            .map_err(StoreError::from)?;
        match f(self) {
            Ok(v) => {
                self.conn
                    .execute_batch("COMMIT")
                    .map_err(StoreError::from)?;
                Ok(v)
            }
            Err(e) => {
                let _ = self.conn.execute_batch("ROLLBACK");
                Err(e)
            }
        }
    }
}

/// Whether a new file can be made in the folder `dir` (one is made and removed at once): what
/// tells a data folder that cannot be written to from a failing disk, which SQLite reports
/// alike ("disk I/O error").
pub fn takes_files(dir: &Path) -> bool {
    let probe = dir.join(".qiguan-write-probe");
    let made = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .open(&probe)
        .is_ok();
    let _ = std::fs::remove_file(&probe);
    made
}

/// Renames a damaged database (and its WAL files) aside, keeping it, so a new one can start.
pub fn set_aside(db: &Path, now: i64) -> std::io::Result<PathBuf> {
    let kept = db.with_extension(format!("sqlite.damaged-{now}"));
    std::fs::rename(db, &kept)?;
    for suffix in ["-wal", "-shm"] {
        let mut side = db.as_os_str().to_owned();
        side.push(suffix);
        let side = PathBuf::from(side);
        if side.exists() {
            let mut to = kept.as_os_str().to_owned();
            to.push(suffix);
            std::fs::rename(&side, PathBuf::from(to))?;
        }
    }
    Ok(kept)
}

/// What the store's tests name (they were written beside the store's code).
#[cfg(test)]
use qiguan_core::{Actor, AnyMatch, RecordEntry, Strength};

#[cfg(test)]
mod tests;
