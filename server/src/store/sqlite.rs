//! The SQLite store: one file (WAL, `synchronous=FULL`), one writer thread, a few readers.
//!
//! Group commit: request handlers send their writes to the writer and wait; the writer takes
//! every write that is queued, runs them in one transaction (each in its own savepoint, so one
//! failing write does not sink the others), commits once, and only then answers them all. A
//! move is acknowledged only after the commit that holds it is on disk. Readers are separate
//! connections (WAL lets them read while the writer writes), opened as needed and kept.

use super::{
    Change, MAX_PAIRING_MISSES, Store, StoreError, StoredAction, StoredDevice, StoredEntry,
    StoredGame, StoredInvite, StoredPairing, StoredShare, Write, to_hash,
};
use crate::auth::Hash;
use async_trait::async_trait;
use rusqlite::{Connection, ErrorCode, OptionalExtension, params};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use tokio::sync::{mpsc, oneshot};

mod embedded {
    refinery::embed_migrations!("migrations/sqlite");
}

/// The schema version this build writes: its newest migration.
pub fn schema_version() -> i64 {
    embedded::migrations::runner()
        .get_migrations()
        .iter()
        .map(|m| i64::from(m.version()))
        .max()
        .unwrap_or(0)
}

struct Job {
    writes: Vec<Write>,
    done: oneshot::Sender<Result<(), StoreError>>,
}

/// The SQLite store.
pub struct SqliteStore {
    path: PathBuf,
    jobs: mpsc::Sender<Job>,
    readers: Arc<Mutex<Vec<Connection>>>,
    /// The writer thread, joined when the store is dropped.
    writer: Option<std::thread::JoinHandle<()>>,
}

impl Drop for SqliteStore {
    /// Closes the writer's queue and waits for it to finish what it holds and close the file:
    /// a store dropped is closed (a process that opens stores one after another, as the
    /// fuzzer does, keeps no writer thread and connection behind).
    fn drop(&mut self) {
        let (closed, _) = mpsc::channel(1);
        drop(std::mem::replace(&mut self.jobs, closed));
        if let Some(writer) = self.writer.take() {
            let _ = writer.join();
        }
    }
}

impl std::fmt::Debug for SqliteStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SqliteStore({})", self.path.display())
    }
}

impl SqliteStore {
    /// Opens (creating, or upgrading) the database file and starts its writer thread.
    pub fn open(path: &Path) -> Result<SqliteStore, String> {
        let conn = migrate(path)?;
        let (jobs, rx) = mpsc::channel::<Job>(4096);
        let writer = std::thread::Builder::new()
            .name("qiguan-writer".into())
            .spawn(move || writer_loop(conn, rx))
            .map_err(|e| format!("cannot start the writer thread: {e}"))?;
        Ok(SqliteStore {
            path: path.to_owned(),
            jobs,
            readers: Arc::default(),
            writer: Some(writer),
        })
    }

    /// Runs `read` on a reader connection, on a thread for blocking work.
    async fn read<T: Send + 'static>(
        &self,
        read: impl FnOnce(&Connection) -> rusqlite::Result<T> + Send + 'static,
    ) -> Result<T, StoreError> {
        let readers = self.readers.clone();
        let path = self.path.clone();
        tokio::task::spawn_blocking(move || {
            let conn = readers.lock().ok().and_then(|mut r| r.pop());
            let conn = match conn {
                Some(c) => c,
                None => reader(&path).map_err(StoreError::Failed)?,
            };
            let result = read(&conn).map_err(|e| StoreError::Failed(e.to_string()));
            if let Ok(mut r) = readers.lock() {
                r.push(conn);
            }
            result
        })
        .await
        .map_err(|e| StoreError::Failed(e.to_string()))?
    }
}

fn reader(path: &Path) -> Result<Connection, String> {
    let conn = Connection::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    conn.busy_timeout(std::time::Duration::from_secs(10))
        .map_err(|e| e.to_string())?;
    Ok(conn)
}

#[async_trait]
impl Store for SqliteStore {
    async fn game_from(
        &self,
        id: &str,
        actions: usize,
        phrases: usize,
    ) -> Result<Option<StoredGame>, StoreError> {
        let id = id.to_owned();
        self.read(move |conn| {
            // One snapshot for the game's reads, so that its numbers agree with its rows even
            // when the writer commits meanwhile.
            let snapshot = conn.unchecked_transaction()?;
            load_game(&snapshot, &id, actions, phrases)
        })
        .await
    }

    async fn seat_of(&self, token_hash: Hash) -> Result<Option<(String, u8)>, StoreError> {
        self.read(move |conn| {
            conn.query_row(
                "SELECT game_id, seat FROM seats WHERE token_hash = ?1",
                [&token_hash[..]],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
        })
        .await
    }

    async fn invite(&self, code_hash: Hash) -> Result<Option<StoredInvite>, StoreError> {
        self.read(move |conn| {
            conn.query_row(
                "SELECT game_id, seat, used_at FROM invites WHERE code_hash = ?1",
                [&code_hash[..]],
                |r| {
                    Ok(StoredInvite {
                        code_hash,
                        game_id: r.get(0)?,
                        seat: r.get(1)?,
                        used: r.get::<_, Option<i64>>(2)?.is_some(),
                    })
                },
            )
            .optional()
        })
        .await
    }

    async fn commit(&self, writes: Vec<Write>) -> Result<(), StoreError> {
        let stopped = || StoreError::Failed("the writer has stopped".to_owned());
        let (done, wait) = oneshot::channel();
        self.jobs
            .send(Job { writes, done })
            .await
            .map_err(|_| stopped())?;
        wait.await.map_err(|_| stopped())?
    }

    async fn device(&self, token_hash: Hash) -> Result<Option<StoredDevice>, StoreError> {
        self.read(move |conn| {
            conn.prepare_cached(&format!(
                "SELECT {DEVICE_COLUMNS} FROM devices WHERE token_hash = ?1"
            ))?
            .query_row([&token_hash[..]], device_row)
            .optional()
        })
        .await
    }

    async fn devices(&self, library_id: &str) -> Result<Vec<StoredDevice>, StoreError> {
        let library_id = library_id.to_owned();
        self.read(move |conn| {
            conn.prepare_cached(&format!(
                "SELECT {DEVICE_COLUMNS} FROM devices WHERE library_id = ?1
                 ORDER BY linked_at, id"
            ))?
            .query_map([library_id], device_row)?
            .collect()
        })
        .await
    }

    async fn share(&self, id: &str) -> Result<Option<StoredShare>, StoreError> {
        let id = id.to_owned();
        self.read(move |conn| {
            conn.query_row(
                "SELECT id, game_id, upload, names, key_hash, created_at, withdrawn_at
                 FROM shares WHERE id = ?1",
                [id],
                |r| {
                    Ok(StoredShare {
                        id: r.get(0)?,
                        game_id: r.get(1)?,
                        upload: r.get(2)?,
                        names: r.get(3)?,
                        key_hash: r.get::<_, Option<Vec<u8>>>(4)?.map(|h| to_hash(&h)),
                        created_at: r.get(5)?,
                        withdrawn_at: r.get(6)?,
                    })
                },
            )
            .optional()
        })
        .await
    }

    async fn share_of_game(&self, game_id: &str) -> Result<Option<String>, StoreError> {
        let game_id = game_id.to_owned();
        self.read(move |conn| {
            conn.query_row(
                "SELECT id FROM shares WHERE game_id = ?1 AND withdrawn_at IS NULL
                 ORDER BY created_at LIMIT 1",
                [game_id],
                |r| r.get(0),
            )
            .optional()
        })
        .await
    }

    async fn pairing(&self, id: &str) -> Result<Option<StoredPairing>, StoreError> {
        let id = id.to_owned();
        self.read(move |conn| {
            conn.query_row(
                "SELECT library_id, verifier, envelope, expires_at, misses
                 FROM pairings WHERE id = ?1",
                [id],
                |r| {
                    Ok(StoredPairing {
                        library_id: r.get(0)?,
                        verifier: to_hash(&r.get::<_, Vec<u8>>(1)?),
                        envelope: r.get(2)?,
                        expires_at: r.get(3)?,
                        misses: r.get(4)?,
                    })
                },
            )
            .optional()
        })
        .await
    }

    async fn entries(
        &self,
        library_id: &str,
        after: i64,
        limit: usize,
    ) -> Result<(Vec<StoredEntry>, i64), StoreError> {
        let library_id = library_id.to_owned();
        self.read(move |conn| {
            // One read transaction: the entries and the newest number agree.
            conn.execute_batch("BEGIN")?;
            let result = (|| {
                let newest: i64 = conn
                    .query_row(
                        "SELECT seq FROM libraries WHERE id = ?1",
                        [&library_id],
                        |r| r.get(0),
                    )
                    .optional()?
                    .unwrap_or(0);
                let entries = conn
                    .prepare_cached(
                        "SELECT slot, entry, seq, blob FROM entries
                         WHERE library_id = ?1 AND seq > ?2 ORDER BY seq LIMIT ?3",
                    )?
                    .query_map(params![library_id, after, limit as i64], |r| {
                        Ok(StoredEntry {
                            slot: r.get(0)?,
                            entry: r.get(1)?,
                            seq: r.get(2)?,
                            blob: r.get(3)?,
                        })
                    })?
                    .collect::<Result<Vec<_>, _>>()?;
                Ok((entries, newest))
            })();
            conn.execute_batch("COMMIT")?;
            result
        })
        .await
    }

    fn shared(&self) -> bool {
        false
    }

    fn changes(&self) -> Option<mpsc::UnboundedReceiver<Change>> {
        None
    }
}

/// Opens the file and brings its schema to this build's version.
///
/// Versions 1 to 4 were kept in `PRAGMA user_version` before the migrations moved to refinery:
/// such a file's versions are recorded as applied (not run again) before the rest run. The
/// pragma still follows the newest version, so that an older server refuses a newer file.
pub fn migrate(path: &Path) -> Result<Connection, String> {
    let mut conn = Connection::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let unusable = |e: rusqlite::Error| format!("{} is not a usable database: {e}", path.display());
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .map_err(unusable)?;
    let latest = schema_version();
    if version > latest {
        return Err(format!(
            "{} was written by a newer qiguan-server (schema {version}); refusing to touch it",
            path.display()
        ));
    }
    conn.pragma_update(None, "journal_mode", "WAL")
        .map_err(|e| e.to_string())?;
    // FULL: a commit reaches the disk before a move is acknowledged, so a power cut keeps it.
    conn.pragma_update(None, "synchronous", "FULL")
        .map_err(|e| e.to_string())?;
    conn.pragma_update(None, "foreign_keys", "ON")
        .map_err(|e| e.to_string())?;
    let has_history: bool = conn
        .query_row(
            "SELECT count(*) FROM sqlite_master WHERE name = 'refinery_schema_history'",
            [],
            |r| r.get::<_, i64>(0),
        )
        .map_err(unusable)?
        > 0;
    let upgrading = |e: refinery::Error| format!("{}: upgrading the schema: {e}", path.display());
    if !has_history && version > 0 {
        let version = i32::try_from(version).map_err(|e| e.to_string())?;
        embedded::migrations::runner()
            .set_target(refinery::Target::FakeVersion(version))
            .run(&mut conn)
            .map_err(upgrading)?;
    }
    embedded::migrations::runner()
        .run(&mut conn)
        .map_err(upgrading)?;
    conn.pragma_update(None, "user_version", latest)
        .map_err(|e| e.to_string())?;
    Ok(conn)
}

/// The most writes gathered into one commit.
const MAX_BATCH: usize = 1024;

fn writer_loop(mut conn: Connection, mut rx: mpsc::Receiver<Job>) {
    while let Some(first) = rx.blocking_recv() {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        let results = commit_batch(&mut conn, &batch);
        for (job, result) in batch.into_iter().zip(results) {
            let _ = job.done.send(result);
        }
    }
}

/// Runs every job in one transaction, each in a savepoint; returns each job's result. If the
/// commit itself fails, every job fails (nothing was acknowledged).
fn commit_batch(conn: &mut Connection, batch: &[Job]) -> Vec<Result<(), StoreError>> {
    let failed = |e: &rusqlite::Error| StoreError::Failed(e.to_string());
    let mut tx = match conn.transaction() {
        Ok(tx) => tx,
        Err(e) => return batch.iter().map(|_| Err(failed(&e))).collect(),
    };
    let mut results = Vec::with_capacity(batch.len());
    for job in batch {
        let result = (|| {
            let sp = tx.savepoint().map_err(|e| failed(&e))?;
            for write in &job.writes {
                apply(&sp, write)?;
            }
            sp.commit().map_err(|e| failed(&e))
        })();
        results.push(result);
    }
    match tx.commit() {
        Ok(()) => results,
        Err(e) => batch.iter().map(|_| Err(failed(&e))).collect(),
    }
}

/// A failed statement: a broken unique or once-only rule is a conflict.
fn classify(e: rusqlite::Error) -> StoreError {
    match e.sqlite_error_code() {
        Some(ErrorCode::ConstraintViolation) => StoreError::Conflict(e.to_string()),
        _ => StoreError::Failed(e.to_string()),
    }
}

fn apply(conn: &Connection, write: &Write) -> Result<(), StoreError> {
    match write {
        Write::Guard {
            game_id,
            actions,
            seats,
        } => {
            let (a, s): (i64, i64) = conn
                .query_row(
                    "SELECT (SELECT count(*) FROM actions WHERE game_id = ?1),
                            (SELECT count(*) FROM seats WHERE game_id = ?1)",
                    [game_id],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .map_err(classify)?;
            if a != *actions as i64 || s != *seats as i64 {
                return Err(StoreError::Conflict(format!(
                    "game {game_id} has {a} actions and {s} seats, not {actions} and {seats}"
                )));
            }
            Ok(0)
        }
        Write::Game {
            id,
            kind,
            options,
            setup,
            days_per_move,
            created_at,
            chance_seed,
        } => conn
            .execute(
                "INSERT INTO games (id, kind, options, setup, days_per_move, created_at,
                                    chance_seed)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![
                    id,
                    kind,
                    options,
                    setup,
                    days_per_move,
                    created_at,
                    chance_seed
                ],
            )
            .map_err(classify),
        Write::Seat {
            game_id,
            seat,
            token_hash,
            name,
            contribution,
            at,
        } => conn
            .execute(
                "INSERT INTO seats (game_id, seat, token_hash, name, joined_at, contribution)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![game_id, seat, &token_hash[..], name, at, contribution],
            )
            .map_err(classify),
        Write::Invite {
            code_hash,
            game_id,
            seat,
        } => conn
            .execute(
                "INSERT INTO invites (code_hash, game_id, seat) VALUES (?1, ?2, ?3)",
                params![&code_hash[..], game_id, seat],
            )
            .map_err(classify),
        Write::UseInvite { code_hash, at } => {
            let n = conn
                .execute(
                    "UPDATE invites SET used_at = ?2 WHERE code_hash = ?1 AND used_at IS NULL",
                    params![&code_hash[..], at],
                )
                .map_err(classify)?;
            if n == 1 {
                Ok(1)
            } else {
                Err(StoreError::Conflict("the invite is used".into()))
            }
        }
        Write::Action {
            game_id,
            ply,
            actor,
            action,
            client_action_id,
            sent,
            contributions,
            at,
        } => conn
            .execute(
                "INSERT INTO actions (game_id, ply, actor, action, client_action_id, sent, at,
                                      contributions)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                params![
                    game_id,
                    *ply as i64,
                    actor,
                    action,
                    client_action_id,
                    sent,
                    at,
                    contributions
                ],
            )
            .map_err(classify),
        Write::Bot {
            game_id,
            seat,
            strength,
        } => conn
            .execute(
                "INSERT INTO bots (game_id, seat, strength) VALUES (?1, ?2, ?3)",
                params![game_id, seat, strength],
            )
            .map_err(classify),
        Write::Phrase {
            game_id,
            seq,
            seat,
            phrase,
            client_phrase_id,
            at,
        } => conn
            .execute(
                "INSERT INTO phrases (game_id, seq, seat, phrase, client_phrase_id, at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![game_id, *seq as i64, seat, phrase, client_phrase_id, at],
            )
            .map_err(classify),
        Write::Deadline { game_id, deadline } => conn
            .execute(
                "UPDATE games SET deadline = ?2 WHERE id = ?1",
                params![game_id, deadline],
            )
            .map_err(classify),
        Write::Library { id, at } => conn
            .execute(
                "INSERT INTO libraries (id, created_at) VALUES (?1, ?2)",
                params![id, at],
            )
            .map_err(classify),
        Write::Device {
            library_id,
            device_id,
            token_hash,
            name,
            at,
        } => conn
            .execute(
                "INSERT INTO devices (library_id, id, token_hash, name, linked_at)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![library_id, device_id, &token_hash[..], name, at],
            )
            .map_err(classify),
        Write::Unlink {
            library_id,
            device_id,
            at,
        } => match conn.execute(
            "UPDATE devices SET unlinked_at = ?3
             WHERE library_id = ?1 AND id = ?2 AND unlinked_at IS NULL",
            params![library_id, device_id, at],
        ) {
            Ok(1) => Ok(1),
            Ok(_) => Err(StoreError::Conflict(format!(
                "device {device_id} is not linked"
            ))),
            Err(e) => Err(classify(e)),
        },
        Write::Pairing {
            id,
            library_id,
            verifier,
            envelope,
            expires_at,
        } => conn
            .execute(
                "INSERT INTO pairings (id, library_id, verifier, envelope, expires_at)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![id, library_id, &verifier[..], envelope, expires_at],
            )
            .map_err(classify),
        Write::UsePairing { id, at } => match conn.execute(
            "DELETE FROM pairings WHERE id = ?1 AND expires_at > ?2",
            params![id, at],
        ) {
            Ok(1) => Ok(1),
            Ok(_) => Err(StoreError::Conflict(format!(
                "pairing {id} is used or expired"
            ))),
            Err(e) => Err(classify(e)),
        },
        Write::Share {
            id,
            game_id,
            upload,
            names,
            key_hash,
            at,
        } => conn
            .execute(
                "INSERT INTO shares (id, game_id, upload, names, key_hash, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![id, game_id, upload, names, key_hash.map(|h| h.to_vec()), at],
            )
            .map_err(classify),
        Write::Withdraw { id, at } => conn
            .execute(
                "UPDATE shares SET withdrawn_at = ?2, upload = NULL
                 WHERE id = ?1 AND withdrawn_at IS NULL",
                params![id, at],
            )
            .map_err(classify),
        Write::Reshare { id, upload, names } => conn
            .execute(
                "UPDATE shares SET upload = ?2, names = ?3
                 WHERE id = ?1 AND withdrawn_at IS NULL AND game_id IS NULL",
                params![id, upload, names],
            )
            .map_err(classify),
        Write::MissPairing { id } => conn
            .execute(
                "UPDATE pairings SET misses = misses + 1 WHERE id = ?1",
                [id],
            )
            .map_err(classify),
        Write::ForgetPairings { at } => conn
            .execute(
                "DELETE FROM pairings WHERE expires_at <= ?1 OR misses >= ?2",
                params![at, MAX_PAIRING_MISSES],
            )
            .map_err(classify),
        Write::Entry {
            library_id,
            slot,
            entry,
            base,
            blob,
            device_id,
            at,
        } => put_entry(
            conn,
            library_id,
            slot,
            entry,
            base.as_deref(),
            blob,
            device_id,
            *at,
        ),
    }
    .map(|_| ())
}

const DEVICE_COLUMNS: &str = "library_id, id, name, linked_at, unlinked_at";

fn device_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<StoredDevice> {
    Ok(StoredDevice {
        library_id: r.get(0)?,
        device_id: r.get(1)?,
        name: r.get(2)?,
        linked_at: r.get(3)?,
        unlinked_at: r.get(4)?,
    })
}

/// Writes a slot's entry as [`Write::Entry`] says.
#[allow(clippy::too_many_arguments)]
fn put_entry(
    conn: &Connection,
    library_id: &str,
    slot: &str,
    entry: &str,
    base: Option<&str>,
    blob: &[u8],
    device_id: &str,
    at: i64,
) -> Result<usize, StoreError> {
    let current: Option<String> = conn
        .prepare_cached("SELECT entry FROM entries WHERE library_id = ?1 AND slot = ?2")
        .and_then(|mut s| s.query_row([library_id, slot], |r| r.get(0)).optional())
        .map_err(classify)?;
    if current.as_deref() == Some(entry) {
        return Ok(0);
    }
    if current.as_deref() != base {
        return Err(StoreError::Conflict(format!(
            "slot {slot} holds a newer entry"
        )));
    }
    let seq: i64 = conn
        .query_row(
            "UPDATE libraries SET seq = seq + 1 WHERE id = ?1 RETURNING seq",
            [library_id],
            |r| r.get(0),
        )
        .optional()
        .map_err(classify)?
        .ok_or_else(|| StoreError::Conflict(format!("no library {library_id}")))?;
    conn.prepare_cached(
        "INSERT INTO entries (library_id, slot, entry, seq, blob, device_id, at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
         ON CONFLICT (library_id, slot) DO UPDATE
             SET entry = excluded.entry, seq = excluded.seq, blob = excluded.blob,
                 device_id = excluded.device_id, at = excluded.at",
    )
    .and_then(|mut s| s.execute(params![library_id, slot, entry, seq, blob, device_id, at]))
    .map_err(classify)
}

/// Reads one game and everything in it.
/// A game with its actions from ply `from_action` on and its phrases after the first
/// `from_phrase` (see [`Store::game_from`]).
fn load_game(
    conn: &Connection,
    id: &str,
    from_action: usize,
    from_phrase: usize,
) -> rusqlite::Result<Option<StoredGame>> {
    let game = conn
        .prepare_cached(
            "SELECT id, kind, options, setup, days_per_move, created_at, deadline,
                    (SELECT count(*) FROM actions WHERE game_id = ?1), chance_seed
             FROM games WHERE id = ?1",
        )?
        .query_row([id], |r| {
            Ok(StoredGame {
                id: r.get(0)?,
                kind: r.get(1)?,
                options: r.get(2)?,
                setup: r.get(3)?,
                days_per_move: r.get(4)?,
                created_at: r.get(5)?,
                deadline: r.get(6)?,
                chance_seed: r.get(8)?,
                seats: Vec::new(),
                contributions: Vec::new(),
                bots: Vec::new(),
                actions: Vec::new(),
                action_count: usize::try_from(r.get::<_, i64>(7)?).unwrap_or(0),
                phrases: Vec::new(),
            })
        })
        .optional()?;
    let Some(mut g) = game else {
        return Ok(None);
    };
    let seats: Vec<(u8, Hash, String, Option<String>)> = conn
        .prepare_cached(
            "SELECT seat, token_hash, name, contribution FROM seats WHERE game_id = ?1",
        )?
        .query_map([id], |r| {
            Ok((
                r.get::<_, u8>(0)?,
                to_hash(&r.get::<_, Vec<u8>>(1)?),
                r.get(2)?,
                r.get(3)?,
            ))
        })?
        .collect::<Result<_, _>>()?;
    for (seat, hash, name, contribution) in seats {
        g.seats.push((seat, hash, name));
        if let Some(c) = contribution {
            g.contributions.push((seat, c));
        }
    }
    g.bots = conn
        .prepare_cached("SELECT seat, strength FROM bots WHERE game_id = ?1")?
        .query_map([id], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    g.actions = conn
        .prepare_cached(
            "SELECT actor, action, client_action_id, sent, at, contributions FROM actions
             WHERE game_id = ?1 AND ply >= ?2 ORDER BY ply",
        )?
        .query_map(params![id, from_action as i64], |r| {
            Ok(StoredAction {
                actor: r.get(0)?,
                action: r.get(1)?,
                client_action_id: r.get(2)?,
                sent: r.get(3)?,
                at: r.get(4)?,
                contributions: r.get(5)?,
            })
        })?
        .collect::<Result<_, _>>()?;
    g.phrases = conn
        .prepare_cached(
            "SELECT seat, phrase, client_phrase_id, at FROM phrases
             WHERE game_id = ?1 AND seq > ?2 ORDER BY seq",
        )?
        .query_map(params![id, from_phrase as i64], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
        })?
        .collect::<Result<_, _>>()?;
    Ok(Some(g))
}

#[cfg(test)]
mod tests {
    use super::*;

    const V1: &str = include_str!("../../migrations/sqlite/V1__games.sql");

    #[test]
    fn a_database_from_before_the_migration_crate_keeps_its_games_and_gains_the_rest() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("v1.sqlite");
        {
            // As the server of schema 1 left it: the tables and PRAGMA user_version = 1.
            let conn = Connection::open(&path).expect("open");
            conn.execute_batch(&format!("{V1} PRAGMA user_version = 1;"))
                .expect("v1");
            conn.execute(
                "INSERT INTO games (id, kind, options, setup, days_per_move, created_at)
                 VALUES ('g', 'xiangqi', 'null', 'null', 3, 0)",
                [],
            )
            .expect("game");
        }
        let conn = migrate(&path).expect("upgrade");
        let version: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .expect("version");
        assert_eq!(version, schema_version());
        let applied: i64 = conn
            .query_row("SELECT count(*) FROM refinery_schema_history", [], |r| {
                r.get(0)
            })
            .expect("history");
        assert_eq!(applied, schema_version());
        apply(
            &conn,
            &Write::Bot {
                game_id: "g".into(),
                seat: 1,
                strength: "easy".into(),
            },
        )
        .expect("a bot row");
        let game = load_game(&conn, "g", 0, 0)
            .expect("load")
            .expect("the game");
        assert_eq!(game.bots, [(1, "easy".to_owned())]);
        drop(conn);
        // Opening it again runs nothing twice.
        migrate(&path).expect("again");
    }

    #[test]
    fn a_schema_4_database_keeps_its_games_and_its_client_ids_become_per_seat() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("v4.sqlite");
        {
            // As the last server before the migration crate left a file: schema 4.
            let conn = Connection::open(&path).expect("open");
            let v = |name: &str| {
                std::fs::read_to_string(format!(
                    "{}/migrations/sqlite/{name}",
                    env!("CARGO_MANIFEST_DIR")
                ))
                .expect("a migration")
            };
            for name in [
                "V1__games.sql",
                "V2__bots.sql",
                "V3__names.sql",
                "V4__phrases.sql",
            ] {
                conn.execute_batch(&v(name)).expect(name);
            }
            conn.execute_batch(
                "PRAGMA user_version = 4;
                 INSERT INTO games (id, kind, options, setup, days_per_move, created_at)
                 VALUES ('g', 'xiangqi', 'null', 'null', 3, 0);
                 INSERT INTO actions (game_id, ply, actor, action, client_action_id, at)
                 VALUES ('g', 0, 'seat 0', 'h3e3', 'same', 0);",
            )
            .expect("a game");
        }
        let conn = migrate(&path).expect("upgrade");
        let game = load_game(&conn, "g", 0, 0)
            .expect("load")
            .expect("the game");
        assert_eq!(game.actions.len(), 1);
        assert_eq!(game.actions[0].client_action_id.as_deref(), Some("same"));
        assert_eq!(
            game.actions[0].sent, None,
            "rows from before keep no sent text"
        );
        // The other seat may now use the same id.
        apply(
            &conn,
            &Write::Action {
                contributions: None,
                game_id: "g".into(),
                ply: 1,
                actor: "seat 1".into(),
                action: "h10g8".into(),
                client_action_id: Some("same".into()),
                sent: Some("h10g8".into()),
                at: 0,
            },
        )
        .expect("the same id from another seat");
        let again = apply(
            &conn,
            &Write::Action {
                contributions: None,
                game_id: "g".into(),
                ply: 2,
                actor: "seat 1".into(),
                action: "h1g3".into(),
                client_action_id: Some("same".into()),
                sent: None,
                at: 0,
            },
        );
        assert!(matches!(again, Err(StoreError::Conflict(_))), "{again:?}");
    }

    #[test]
    fn a_newer_database_is_refused_untouched() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("new.sqlite");
        {
            let conn = Connection::open(&path).expect("open");
            conn.pragma_update(None, "user_version", schema_version() + 1)
                .expect("pragma");
        }
        let err = migrate(&path).expect_err("refused");
        assert!(err.contains("newer qiguan-server"), "{err}");
    }
}
