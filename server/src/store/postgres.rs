//! The PostgreSQL store: one database that several server processes share.
//!
//! Each commit is one transaction on a pooled connection, at PostgreSQL's default isolation
//! (read committed), sent as one pipeline (one round trip). Correctness between processes
//! comes from row locks, not from serializable transactions: a [`Write::Guard`] calls
//! `qiguan_guard` (migration V2), which takes the game's row `FOR UPDATE` and then, in a
//! statement of its own (so that it sees whatever committed while it waited for the lock),
//! counts the game's actions and seats; two processes acting on one game at once queue on that
//! row, and the second finds the game changed and raises (the server then reloads and judges
//! again). Serializable transactions would also be correct, but they fail whole transactions on
//! false conflicts between unrelated games under load; the lock is only ever on the one game
//! being changed. Unique keys back the guard up, and an invite is used by `qiguan_use_invite`,
//! which raises when the invite was used already.
//!
//! Every commit is followed (in the same pipeline, in a transaction of its own: see
//! [`commit_on`]) by `NOTIFY qiguan_games` with the process's id and the game's id; every
//! process listens on its own connection and drops the game from its cache. If that connection drops, the listener
//! reconnects and reports [`Change::Lost`] (anything cached may be stale).
//!
//! Durability: a commit returns after PostgreSQL's commit (synchronous_commit as the database
//! sets it, `on` by default); concurrent commits share their WAL flushes (PostgreSQL's own
//! group commit).

use super::{
    Change, MAX_PAIRING_MISSES, Store, StoreError, StoredAction, StoredDevice, StoredEntry,
    StoredGame, StoredInvite, StoredPairing, Write, to_hash,
};
use crate::auth::Hash;
use async_trait::async_trait;
use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
use std::sync::Mutex;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio_postgres::error::SqlState;
use tokio_postgres::types::ToSql;
use tokio_postgres::{AsyncMessage, NoTls};

mod embedded {
    refinery::embed_migrations!("migrations/postgres");
}

/// The channel commits notify on.
const CHANNEL: &str = "qiguan_games";
/// The most connections one process opens (besides its listener).
const POOL_SIZE: usize = 16;
/// A lock number no other program is expected to take: held while migrating, so that two
/// processes starting at once do not migrate together.
const MIGRATION_LOCK: i64 = 0x7169_6775_616e; // "qiguan"

/// The PostgreSQL store.
pub struct PgStore {
    pool: Pool,
    /// This process's id in notifications, so that it skips its own.
    instance: String,
    changes: Mutex<Option<mpsc::UnboundedReceiver<Change>>>,
}

impl std::fmt::Debug for PgStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PgStore({})", self.instance)
    }
}

impl PgStore {
    /// Connects, migrates the schema and starts listening for other processes' commits.
    pub async fn open(url: &str) -> Result<PgStore, String> {
        let config: tokio_postgres::Config = url.parse().map_err(|e| format!("--db {url}: {e}"))?;
        migrate(&config).await?;
        let manager = Manager::from_config(
            config.clone(),
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(POOL_SIZE)
            .build()
            .map_err(|e| e.to_string())?;
        let instance = crate::auth::new_token();
        let (tx, rx) = mpsc::unbounded_channel();
        // The first connection is made here, so that a bad URL fails at start-up.
        let first = listen(&config).await?;
        tokio::spawn(listener(config, instance.clone(), tx, first));
        Ok(PgStore {
            pool,
            instance,
            changes: Mutex::new(Some(rx)),
        })
    }

    async fn client(&self) -> Result<deadpool_postgres::Object, StoreError> {
        self.pool
            .get()
            .await
            .map_err(|e| StoreError::Failed(format!("PostgreSQL: {e}")))
    }
}

/// Brings the schema to this build's version, one process at a time.
async fn migrate(config: &tokio_postgres::Config) -> Result<(), String> {
    let (mut client, connection) = config
        .connect(NoTls)
        .await
        .map_err(|e| format!("cannot reach PostgreSQL: {e}"))?;
    let driver = tokio::spawn(connection);
    let result = async {
        client
            .execute("SELECT pg_advisory_lock($1)", &[&MIGRATION_LOCK])
            .await
            .map_err(|e| e.to_string())?;
        let newest: Option<i32> = match client
            .query_one("SELECT max(version) FROM refinery_schema_history", &[])
            .await
        {
            Ok(row) => row.get(0),
            Err(_) => None,
        };
        let latest = embedded::migrations::runner()
            .get_migrations()
            .iter()
            .map(|m| m.version())
            .max()
            .unwrap_or(0);
        if let Some(v) = newest
            && v > latest
        {
            return Err(format!(
                "the database was written by a newer qiguan-server (schema {v}); refusing to touch it"
            ));
        }
        embedded::migrations::runner()
            .run_async(&mut client)
            .await
            .map_err(|e| format!("upgrading the schema: {e}"))?;
        client
            .execute("SELECT pg_advisory_unlock($1)", &[&MIGRATION_LOCK])
            .await
            .map_err(|e| e.to_string())?;
        Ok(())
    }
    .await;
    drop(client);
    let _ = driver.await;
    result
}

type Listening = (
    tokio_postgres::Client,
    mpsc::UnboundedReceiver<tokio_postgres::Notification>,
);

/// Opens a connection that listens on [`CHANNEL`]; its notifications come out of the receiver
/// until the connection ends.
async fn listen(config: &tokio_postgres::Config) -> Result<Listening, String> {
    let (client, mut connection) = config
        .connect(NoTls)
        .await
        .map_err(|e| format!("cannot reach PostgreSQL: {e}"))?;
    let (tx, rx) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Some(Ok(message)) = std::future::poll_fn(|cx| connection.poll_message(cx)).await {
            if let AsyncMessage::Notification(n) = message
                && tx.send(n).is_err()
            {
                break;
            }
        }
    });
    client
        .batch_execute(&format!("LISTEN {CHANNEL}"))
        .await
        .map_err(|e| e.to_string())?;
    Ok((client, rx))
}

/// Forwards other processes' commits as changes, reconnecting when the connection drops.
async fn listener(
    config: tokio_postgres::Config,
    instance: String,
    changes: mpsc::UnboundedSender<Change>,
    first: Listening,
) {
    let mut current = Some(first);
    loop {
        if let Some((_client, mut notes)) = current.take() {
            while let Some(note) = notes.recv().await {
                let Some((from, game)) = note.payload().split_once(' ') else {
                    continue;
                };
                if from != instance && changes.send(Change::Game(game.to_owned())).is_err() {
                    return;
                }
            }
        }
        // The connection ended: whatever was committed meanwhile went unheard.
        if changes.send(Change::Lost).is_err() {
            return;
        }
        // Not a race being arranged: a pause between reconnection attempts.
        tokio::time::sleep(Duration::from_secs(1)).await;
        current = listen(&config).await.ok();
    }
}

fn failed(e: &tokio_postgres::Error) -> StoreError {
    match e.code() {
        Some(code) if *code == SqlState::UNIQUE_VIOLATION => StoreError::Conflict(e.to_string()),
        _ => StoreError::Failed(format!("PostgreSQL: {e}")),
    }
}

fn small(n: u8) -> i16 {
    i16::from(n)
}

fn seat_of_row(n: i16) -> u8 {
    u8::try_from(n).unwrap_or(u8::MAX)
}

#[async_trait]
impl Store for PgStore {
    async fn game(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        let client = self.client().await?;
        let prepare = |sql: &'static str| client.prepare_cached(sql);
        let (game, seats, bots, actions, phrases) = futures_util::try_join!(
            prepare(
                "SELECT id, kind, options, setup, days_per_move, created_at, deadline
                 FROM games WHERE id = $1"
            ),
            prepare("SELECT seat, token_hash, name FROM seats WHERE game_id = $1"),
            prepare("SELECT seat, strength FROM bots WHERE game_id = $1"),
            prepare(
                "SELECT actor, action, client_action_id, sent, at FROM actions
                 WHERE game_id = $1 ORDER BY ply"
            ),
            prepare(
                "SELECT seat, phrase, client_phrase_id, at FROM phrases
                 WHERE game_id = $1 ORDER BY seq"
            ),
        )
        .map_err(|e| failed(&e))?;
        // The five reads go out together (pipelined): one round trip. Each statement is a
        // snapshot of its own; a commit landing between them is caught by the guard of the
        // first write judged on this copy.
        let param: &[&(dyn ToSql + Sync)] = &[&id];
        let (game, seats, bots, actions, phrases) = futures_util::try_join!(
            client.query_opt(&game, param),
            client.query(&seats, param),
            client.query(&bots, param),
            client.query(&actions, param),
            client.query(&phrases, param),
        )
        .map_err(|e| failed(&e))?;
        let Some(row) = game else {
            return Ok(None);
        };
        Ok(Some(StoredGame {
            id: row.get(0),
            kind: row.get(1),
            options: row.get(2),
            setup: row.get(3),
            days_per_move: row.get(4),
            created_at: row.get(5),
            deadline: row.get(6),
            seats: seats
                .iter()
                .map(|r| {
                    (
                        seat_of_row(r.get(0)),
                        to_hash(r.get::<_, &[u8]>(1)),
                        r.get(2),
                    )
                })
                .collect(),
            bots: bots
                .iter()
                .map(|r| (seat_of_row(r.get(0)), r.get(1)))
                .collect(),
            actions: actions
                .iter()
                .map(|r| StoredAction {
                    actor: r.get(0),
                    action: r.get(1),
                    client_action_id: r.get(2),
                    sent: r.get(3),
                    at: r.get(4),
                })
                .collect(),
            phrases: phrases
                .iter()
                .map(|r| (seat_of_row(r.get(0)), r.get(1), r.get(2), r.get(3)))
                .collect(),
        }))
    }

    async fn seat_of(&self, token_hash: Hash) -> Result<Option<(String, u8)>, StoreError> {
        let client = self.client().await?;
        let query = client
            .prepare_cached("SELECT game_id, seat FROM seats WHERE token_hash = $1")
            .await
            .map_err(|e| failed(&e))?;
        let row = client
            .query_opt(&query, &[&&token_hash[..]])
            .await
            .map_err(|e| failed(&e))?;
        Ok(row.map(|r| (r.get(0), seat_of_row(r.get(1)))))
    }

    async fn invite(&self, code_hash: Hash) -> Result<Option<StoredInvite>, StoreError> {
        let client = self.client().await?;
        let query = client
            .prepare_cached("SELECT game_id, seat, used_at FROM invites WHERE code_hash = $1")
            .await
            .map_err(|e| failed(&e))?;
        let row = client
            .query_opt(&query, &[&&code_hash[..]])
            .await
            .map_err(|e| failed(&e))?;
        Ok(row.map(|r| StoredInvite {
            code_hash,
            game_id: r.get(0),
            seat: seat_of_row(r.get(1)),
            used: r.get::<_, Option<i64>>(2).is_some(),
        }))
    }

    async fn commit(&self, writes: Vec<Write>) -> Result<(), StoreError> {
        // Its own task: a request whose client goes away must not stop a transaction halfway
        // through being sent.
        let pool = self.pool.clone();
        let instance = self.instance.clone();
        tokio::spawn(async move { commit_on(&pool, &instance, &writes).await })
            .await
            .map_err(|e| StoreError::Failed(e.to_string()))?
    }

    async fn device(&self, token_hash: Hash) -> Result<Option<StoredDevice>, StoreError> {
        let client = self.client().await?;
        let query = client
            .prepare_cached(&format!(
                "SELECT {DEVICE_COLUMNS} FROM devices WHERE token_hash = $1"
            ))
            .await
            .map_err(|e| failed(&e))?;
        let row = client
            .query_opt(&query, &[&&token_hash[..]])
            .await
            .map_err(|e| failed(&e))?;
        Ok(row.as_ref().map(device_row))
    }

    async fn devices(&self, library_id: &str) -> Result<Vec<StoredDevice>, StoreError> {
        let client = self.client().await?;
        let query = client
            .prepare_cached(&format!(
                "SELECT {DEVICE_COLUMNS} FROM devices WHERE library_id = $1
                 ORDER BY linked_at, id"
            ))
            .await
            .map_err(|e| failed(&e))?;
        let rows = client
            .query(&query, &[&library_id])
            .await
            .map_err(|e| failed(&e))?;
        Ok(rows.iter().map(device_row).collect())
    }

    async fn pairing(&self, id: &str) -> Result<Option<StoredPairing>, StoreError> {
        let client = self.client().await?;
        let query = client
            .prepare_cached(
                "SELECT library_id, verifier, envelope, expires_at, misses
                 FROM pairings WHERE id = $1",
            )
            .await
            .map_err(|e| failed(&e))?;
        let row = client
            .query_opt(&query, &[&id])
            .await
            .map_err(|e| failed(&e))?;
        Ok(row.map(|r| StoredPairing {
            library_id: r.get(0),
            verifier: to_hash(r.get::<_, &[u8]>(1)),
            envelope: r.get(2),
            expires_at: r.get(3),
            misses: i64::from(r.get::<_, i32>(4)),
        }))
    }

    async fn entries(
        &self,
        library_id: &str,
        after: i64,
        limit: usize,
    ) -> Result<(Vec<StoredEntry>, i64), StoreError> {
        let mut client = self.client().await?;
        let limit = number::<i64>(limit)?;
        // One snapshot (repeatable read): the entries and the newest number agree.
        let tx = client
            .build_transaction()
            .isolation_level(tokio_postgres::IsolationLevel::RepeatableRead)
            .read_only(true)
            .start()
            .await
            .map_err(|e| failed(&e))?;
        let newest = tx
            .query_opt("SELECT seq FROM libraries WHERE id = $1", &[&library_id])
            .await
            .map_err(|e| failed(&e))?
            .map_or(0, |r| r.get::<_, i64>(0));
        let rows = tx
            .query(
                "SELECT slot, entry, seq, blob FROM entries
                 WHERE library_id = $1 AND seq > $2 ORDER BY seq LIMIT $3",
                &[&library_id, &after, &limit],
            )
            .await
            .map_err(|e| failed(&e))?;
        tx.commit().await.map_err(|e| failed(&e))?;
        Ok((
            rows.iter()
                .map(|r| StoredEntry {
                    slot: r.get(0),
                    entry: r.get(1),
                    seq: r.get(2),
                    blob: r.get(3),
                })
                .collect(),
            newest,
        ))
    }

    fn shared(&self) -> bool {
        true
    }

    fn changes(&self) -> Option<mpsc::UnboundedReceiver<Change>> {
        self.changes.lock().ok()?.take()
    }
}

const DEVICE_COLUMNS: &str = "library_id, id, name, linked_at, unlinked_at";

fn device_row(r: &tokio_postgres::Row) -> StoredDevice {
    StoredDevice {
        library_id: r.get(0),
        device_id: r.get(1),
        name: r.get(2),
        linked_at: r.get(3),
        unlinked_at: r.get(4),
    }
}

/// One statement of a commit, with its parameters.
struct Statement {
    sql: &'static str,
    params: Vec<Box<dyn ToSql + Sync + Send>>,
}

/// The error code the guards raise (migration V2): the game is not as the server judged it.
const GUARD_FAILED: &str = "QG001";

/// Commits `writes` in one transaction, sent as one pipeline: `BEGIN`, the guard, every write,
/// `COMMIT`; then, in a transaction of its own, a notification per game. A statement that fails
/// aborts the transaction (the rest fail too and `COMMIT` rolls back), so the checks are
/// statements that raise: the guard and the invite's use (migration V2), unique keys.
///
/// Why the notifications come after: PostgreSQL serialises the commits of transactions that
/// notify (a database-wide lock, held until the commit record is flushed), so notifying inside
/// the game's transaction made every move wait for the flushes of all the moves before it, one
/// at a time, and no two moves shared a flush. The game's transaction now commits (and
/// group-commits) like any other; the notification follows at once as a statement of its own
/// (its own transaction) that writes nothing durable (`synchronous_commit` off: it holds the
/// lock only for the commit itself). It is still delivered only after the game's commit, as listeners need. A
/// notification lost to a crash of the database costs nothing: every listener's connection
/// drops with it and forgets its cached games ([`Change::Lost`]).
async fn commit_on(pool: &Pool, instance: &str, writes: &[Write]) -> Result<(), StoreError> {
    let client = pool
        .get()
        .await
        .map_err(|e| StoreError::Failed(format!("PostgreSQL: {e}")))?;
    let mut statements = Vec::with_capacity(writes.len() + 6);
    statements.push(Statement {
        sql: "BEGIN",
        params: Vec::new(),
    });
    for write in writes {
        statements.push(statement(write)?);
    }
    statements.push(Statement {
        sql: "COMMIT",
        params: Vec::new(),
    });
    // The game's transaction ends here; what follows only tells the other servers.
    let committed = statements.len();
    let mut games: Vec<&str> = writes.iter().filter_map(Write::game_id).collect();
    games.sort_unstable();
    games.dedup();
    for game in games {
        // One statement, its own transaction: `set_config(…, true)` holds until its commit.
        statements.push(Statement {
            sql: "SELECT set_config('synchronous_commit', 'off', true), pg_notify($1, $2)",
            params: vec![Box::new(CHANNEL), Box::new(format!("{instance} {game}"))],
        });
    }
    let mut prepared = Vec::with_capacity(statements.len());
    for s in &statements {
        prepared.push(client.prepare_cached(s.sql).await.map_err(|e| failed(&e))?);
    }
    // Every statement is sent before the first answer is read (tokio-postgres pipelines
    // requests polled together, in order): one round trip for the commit and its notification.
    let client_ref = &client;
    let mut results =
        futures_util::future::join_all(statements.iter().zip(&prepared).map(|(s, prepared)| {
            let params: Vec<&(dyn ToSql + Sync)> = s
                .params
                .iter()
                .map(|p| p.as_ref() as &(dyn ToSql + Sync))
                .collect();
            async move { client_ref.execute(prepared, &params).await }
        }))
        .await;
    let told = results.split_off(committed);
    // The first failure says why; the ones after it only say the transaction was aborted.
    if let Some(e) = results.into_iter().find_map(Result::err) {
        let conflict = e
            .code()
            .is_some_and(|c| *c == SqlState::UNIQUE_VIOLATION || c.code() == GUARD_FAILED);
        return Err(if conflict {
            StoreError::Conflict(e.to_string())
        } else {
            StoreError::Failed(format!("PostgreSQL: {e}"))
        });
    }
    if let Some(e) = told.into_iter().find_map(Result::err) {
        // Committed, not told: other servers may serve a stale copy until their next change
        // or reconnection. Worth a line in the log, not a failed move.
        eprintln!("qiguan-server: a notification was not sent: {e}");
    }
    Ok(())
}

fn number<T: TryFrom<usize>>(n: usize) -> Result<T, StoreError> {
    T::try_from(n).map_err(|_| StoreError::Failed(format!("{n} is out of range")))
}

/// The statement that carries out one write.
fn statement(write: &Write) -> Result<Statement, StoreError> {
    let (sql, params): (&'static str, Vec<Box<dyn ToSql + Sync + Send>>) = match write.clone() {
        Write::Guard {
            game_id,
            actions,
            seats,
        } => (
            "SELECT qiguan_guard($1, $2, $3)",
            vec![
                Box::new(game_id),
                Box::new(number::<i64>(actions)?),
                Box::new(number::<i64>(seats)?),
            ],
        ),
        Write::Game {
            id,
            kind,
            options,
            setup,
            days_per_move,
            created_at,
        } => (
            "INSERT INTO games (id, kind, options, setup, days_per_move, created_at)
             VALUES ($1, $2, $3, $4, $5, $6)",
            vec![
                Box::new(id),
                Box::new(kind),
                Box::new(options),
                Box::new(setup),
                Box::new(days_per_move),
                Box::new(created_at),
            ],
        ),
        Write::Seat {
            game_id,
            seat,
            token_hash,
            name,
            at,
        } => (
            "INSERT INTO seats (game_id, seat, token_hash, name, joined_at)
             VALUES ($1, $2, $3, $4, $5)",
            vec![
                Box::new(game_id),
                Box::new(small(seat)),
                Box::new(token_hash.to_vec()),
                Box::new(name),
                Box::new(at),
            ],
        ),
        Write::Invite {
            code_hash,
            game_id,
            seat,
        } => (
            "INSERT INTO invites (code_hash, game_id, seat) VALUES ($1, $2, $3)",
            vec![
                Box::new(code_hash.to_vec()),
                Box::new(game_id),
                Box::new(small(seat)),
            ],
        ),
        Write::UseInvite { code_hash, at } => (
            "SELECT qiguan_use_invite($1, $2)",
            vec![Box::new(code_hash.to_vec()), Box::new(at)],
        ),
        Write::Action {
            game_id,
            ply,
            actor,
            action,
            client_action_id,
            sent,
            at,
        } => (
            "INSERT INTO actions (game_id, ply, actor, action, client_action_id, sent, at)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
            vec![
                Box::new(game_id),
                Box::new(number::<i32>(ply)?),
                Box::new(actor),
                Box::new(action),
                Box::new(client_action_id),
                Box::new(sent),
                Box::new(at),
            ],
        ),
        Write::Bot {
            game_id,
            seat,
            strength,
        } => (
            "INSERT INTO bots (game_id, seat, strength) VALUES ($1, $2, $3)",
            vec![Box::new(game_id), Box::new(small(seat)), Box::new(strength)],
        ),
        Write::Phrase {
            game_id,
            seq,
            seat,
            phrase,
            client_phrase_id,
            at,
        } => (
            "INSERT INTO phrases (game_id, seq, seat, phrase, client_phrase_id, at)
             VALUES ($1, $2, $3, $4, $5, $6)",
            vec![
                Box::new(game_id),
                Box::new(number::<i32>(seq)?),
                Box::new(small(seat)),
                Box::new(phrase),
                Box::new(client_phrase_id),
                Box::new(at),
            ],
        ),
        Write::Deadline { game_id, deadline } => (
            "UPDATE games SET deadline = $2 WHERE id = $1",
            vec![Box::new(game_id), Box::new(deadline)],
        ),
        Write::Library { id, at } => (
            "INSERT INTO libraries (id, created_at) VALUES ($1, $2)",
            vec![Box::new(id), Box::new(at)],
        ),
        Write::Device {
            library_id,
            device_id,
            token_hash,
            name,
            at,
        } => (
            "INSERT INTO devices (library_id, id, token_hash, name, linked_at)
             VALUES ($1, $2, $3, $4, $5)",
            vec![
                Box::new(library_id),
                Box::new(device_id),
                Box::new(token_hash.to_vec()),
                Box::new(name),
                Box::new(at),
            ],
        ),
        Write::Unlink {
            library_id,
            device_id,
            at,
        } => (
            "SELECT qiguan_unlink($1, $2, $3)",
            vec![Box::new(library_id), Box::new(device_id), Box::new(at)],
        ),
        Write::Pairing {
            id,
            library_id,
            verifier,
            envelope,
            expires_at,
        } => (
            "INSERT INTO pairings (id, library_id, verifier, envelope, expires_at)
             VALUES ($1, $2, $3, $4, $5)",
            vec![
                Box::new(id),
                Box::new(library_id),
                Box::new(verifier.to_vec()),
                Box::new(envelope),
                Box::new(expires_at),
            ],
        ),
        Write::UsePairing { id, at } => (
            "SELECT qiguan_use_pairing($1, $2)",
            vec![Box::new(id), Box::new(at)],
        ),
        Write::MissPairing { id } => (
            "UPDATE pairings SET misses = misses + 1 WHERE id = $1",
            vec![Box::new(id)],
        ),
        Write::ForgetPairings { at } => (
            "DELETE FROM pairings WHERE expires_at <= $1 OR misses >= $2",
            vec![Box::new(at), Box::new(MAX_PAIRING_MISSES as i32)],
        ),
        Write::Entry {
            library_id,
            slot,
            entry,
            base,
            blob,
            device_id,
            at,
        } => (
            "SELECT qiguan_put_entry($1, $2, $3, $4, $5, $6, $7)",
            vec![
                Box::new(library_id),
                Box::new(slot),
                Box::new(entry),
                Box::new(base),
                Box::new(blob),
                Box::new(device_id),
                Box::new(at),
            ],
        ),
    };
    Ok(Statement { sql, params })
}
