//! The PostgreSQL store: one database that several server processes share.
//!
//! Each commit is one transaction on a pooled connection, at PostgreSQL's default isolation
//! (read committed), sent as one pipeline (one round trip, [`commit_on`]); moves, and game
//! reads, of several games go together as one statement ([`mover`], [`reader`]). Correctness between processes comes from row locks, not from serializable
//! transactions: a [`Write::Guard`] updates the game's row, whose numbers of actions and of
//! seats people took (migration V4) must be the ones the server judged on, to the numbers the
//! commit makes them. Two processes acting on one game at once queue on that row; the second's
//! update, once the first commits, sees the new numbers, matches nothing, and the commit fails
//! as a conflict (the server then reloads and judges again). Serializable transactions would
//! also be correct, but they fail whole transactions on false conflicts between unrelated games
//! under load; the lock is only ever on the one game being changed. Unique keys back the guard
//! up (one row per ply), and an invite is used by `qiguan_use_invite`, which raises when the
//! invite was used already.
//!
//! After each commit, `NOTIFY qiguan_games` carries the process's id and the game's id (sent in
//! batches by [`notifier`]); every process listens on its own connection and drops the game from
//! its cache. If that connection drops, the listener reconnects and reports [`Change::Lost`]
//! (anything cached may be stale).
//!
//! Durability: a commit returns after PostgreSQL's commit (synchronous_commit as the database
//! sets it, `on` by default); concurrent commits share their WAL flushes (PostgreSQL's own
//! group commit).

use super::{
    Change, MAX_PAIRING_MISSES, Store, StoreError, StoredAction, StoredDevice, StoredEntry,
    StoredGame, StoredInvite, StoredPairing, StoredShare, Write, to_hash,
};
use crate::auth::Hash;
use async_trait::async_trait;
use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
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
    /// The games this process committed changes to, for [`notifier`] to tell the others.
    changed: mpsc::UnboundedSender<String>,
    /// Moves to commit, for [`mover`].
    moves: mpsc::UnboundedSender<Pending>,
    /// Games to read, for [`reader`].
    reads: mpsc::UnboundedSender<Reading>,
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
        wait_for(&config).await;
        migrate(&config).await?;
        // The pool's statements are all prepared once and run many times with other values:
        // one generic plan each. Left to choose, PostgreSQL planned the batched statements
        // (arrays of unknown length) afresh on every run, and planning cost more than running.
        let mut pooled = config.clone();
        let options = match config.get_options() {
            Some(theirs) => format!("{theirs} -c plan_cache_mode=force_generic_plan"),
            None => "-c plan_cache_mode=force_generic_plan".to_owned(),
        };
        pooled.options(&options);
        let manager = Manager::from_config(
            pooled,
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
        tokio::spawn(listener(config.clone(), instance.clone(), tx, first));
        let (changed, games) = mpsc::unbounded_channel();
        tokio::spawn(notifier(config, instance.clone(), games));
        let (moves, queue) = mpsc::unbounded_channel();
        tokio::spawn(mover(pool.clone(), queue));
        let (reads, queue) = mpsc::unbounded_channel();
        tokio::spawn(reader(pool.clone(), queue));
        Ok(PgStore {
            pool,
            instance,
            changes: Mutex::new(Some(rx)),
            changed,
            moves,
            reads,
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
/// Waits until PostgreSQL takes a connection: a server may start before its database (a
/// machine booting, a database restarted or not yet created). Each failed try says why on
/// standard error, and the next comes after a pause that doubles up to 10 s.
async fn wait_for(config: &tokio_postgres::Config) {
    let mut pause = Duration::from_millis(500);
    loop {
        match config.connect(NoTls).await {
            Ok((client, connection)) => {
                drop(client);
                let _ = connection.await;
                return;
            }
            Err(e) => {
                let source =
                    std::error::Error::source(&e).map_or(String::new(), |s| format!(": {s}"));
                eprintln!(
                    "qiguan-server: cannot reach PostgreSQL ({e}{source}); trying again in {:.1} s",
                    pause.as_secs_f32()
                );
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(Duration::from_secs(10));
            }
        }
    }
}

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

/// Tells the other processes which games this one changed: `NOTIFY` on [`CHANNEL`] with the
/// process's id and the game's, after the game's commit.
///
/// The notifications go out on a connection of their own, in batches: whatever commits finished
/// while the last batch was on its way go out together, as one statement (one transaction).
/// Why not in the game's transaction: PostgreSQL serialises the commits of transactions that
/// notify (a database-wide lock, held until the commit record is flushed), so a move that
/// notified waited for the flushes of every move before it, one at a time, and no two moves
/// shared a flush. The game's commit now group-commits like any other, and the notifying
/// transactions write nothing durable (`synchronous_commit` off for this connection: they
/// hold the lock only for the commit itself). A notification is still delivered only after the
/// game's commit, as listeners need. A batch that fails is sent again on a new connection; a
/// notification lost to a crash of the database costs nothing: every listener's connection
/// drops with it and forgets its cached games ([`Change::Lost`]).
async fn notifier(
    config: tokio_postgres::Config,
    instance: String,
    mut games: mpsc::UnboundedReceiver<String>,
) {
    let mut connection: Option<(tokio_postgres::Client, tokio_postgres::Statement)> = None;
    let mut pending: Vec<String> = Vec::new();
    loop {
        if pending.is_empty() {
            match games.recv().await {
                Some(game) => pending.push(game),
                None => return,
            }
        }
        while let Ok(game) = games.try_recv() {
            pending.push(game);
        }
        pending.sort_unstable();
        pending.dedup();
        if connection.is_none() {
            match notifying(&config).await {
                Ok(c) => connection = Some(c),
                Err(e) => eprintln!("qiguan-server: cannot notify the other servers: {e}"),
            }
        }
        if let Some((client, statement)) = &connection {
            match client
                .execute(statement, &[&CHANNEL, &instance, &pending])
                .await
            {
                Ok(_) => {
                    pending.clear();
                    continue;
                }
                Err(e) => eprintln!("qiguan-server: cannot notify the other servers: {e}"),
            }
        }
        connection = None;
        if games.is_closed() {
            return;
        }
        // Not a race being arranged: a pause between reconnection attempts.
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

/// A connection for [`notifier`] and its one statement.
async fn notifying(
    config: &tokio_postgres::Config,
) -> Result<(tokio_postgres::Client, tokio_postgres::Statement), tokio_postgres::Error> {
    let (client, connection) = config.connect(NoTls).await?;
    tokio::spawn(connection);
    client
        .batch_execute("SET synchronous_commit TO off")
        .await?;
    let statement = client
        .prepare("SELECT pg_notify($1, $2 || ' ' || g) FROM unnest($3::TEXT[]) AS g")
        .await?;
    Ok((client, statement))
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
    async fn game_from(
        &self,
        id: &str,
        from_action: usize,
        from_phrase: usize,
    ) -> Result<Option<StoredGame>, StoreError> {
        let (done, read) = oneshot::channel();
        self.reads
            .send(Reading {
                id: id.to_owned(),
                from_action: number(from_action)?,
                from_phrase: number(from_phrase)?,
                done,
            })
            .map_err(|_| StoreError::Failed("the store is closing".into()))?;
        read.await
            .map_err(|_| StoreError::Failed("the store is closing".into()))?
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
        let changed = self.changed.clone();
        let moves = self.moves.clone();
        tokio::spawn(async move {
            match Move::of(&writes)? {
                Some(m) => {
                    let (done, outcome) = oneshot::channel();
                    moves
                        .send(Pending { m, done })
                        .map_err(|_| StoreError::Failed("the store is closing".into()))?;
                    outcome
                        .await
                        .map_err(|_| StoreError::Failed("the store is closing".into()))??;
                }
                None => commit_on(&pool, &writes).await?,
            }
            let mut games: Vec<&str> = writes.iter().filter_map(Write::game_id).collect();
            games.sort_unstable();
            games.dedup();
            for game in games {
                // The notifier ends only with this store.
                let _ = changed.send(game.to_owned());
            }
            Ok(())
        })
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

    async fn share(&self, id: &str) -> Result<Option<StoredShare>, StoreError> {
        let client = self.client().await?;
        let query = client
            .prepare_cached(
                "SELECT id, game_id, upload, names, key_hash, created_at, withdrawn_at
                 FROM shares WHERE id = $1",
            )
            .await
            .map_err(|e| failed(&e))?;
        let row = client
            .query_opt(&query, &[&id])
            .await
            .map_err(|e| failed(&e))?;
        Ok(row.map(|r| StoredShare {
            id: r.get(0),
            game_id: r.get(1),
            upload: r.get(2),
            names: r.get(3),
            key_hash: r.get::<_, Option<&[u8]>>(4).map(to_hash),
            created_at: r.get(5),
            withdrawn_at: r.get(6),
        }))
    }

    async fn share_of_game(&self, game_id: &str) -> Result<Option<String>, StoreError> {
        let client = self.client().await?;
        let query = client
            .prepare_cached(
                "SELECT id FROM shares WHERE game_id = $1 AND withdrawn_at IS NULL
                 ORDER BY created_at LIMIT 1",
            )
            .await
            .map_err(|e| failed(&e))?;
        let row = client
            .query_opt(&query, &[&game_id])
            .await
            .map_err(|e| failed(&e))?;
        Ok(row.map(|r| r.get(0)))
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

impl Statement {
    fn params(&self) -> Vec<&(dyn ToSql + Sync)> {
        self.params
            .iter()
            .map(|p| p.as_ref() as &(dyn ToSql + Sync))
            .collect()
    }
}

/// The error code the guards raise (migration V2): the game is not as the server judged it.
const GUARD_FAILED: &str = "QG001";

/// What a commit adds to each game it touches: (actions, seats people took).
type Added<'a> = HashMap<&'a str, (usize, usize)>;

fn added(writes: &[Write]) -> Added<'_> {
    let mut added: Added = HashMap::new();
    for write in writes {
        match write {
            Write::Action { game_id, .. } => added.entry(game_id).or_default().0 += 1,
            Write::Seat { game_id, .. } => added.entry(game_id).or_default().1 += 1,
            _ => {}
        }
    }
    added
}

/// Commits `writes` that are not a move (moves go to [`mover`]), durably, and returns once
/// PostgreSQL has committed them: one transaction sent as one pipeline, `BEGIN`, every write,
/// `COMMIT`. A statement that fails
/// aborts the transaction (the rest fail too and `COMMIT` rolls back), so the checks are
/// statements that raise: the guard and the invite's use (migrations V2, V4), unique keys.
async fn commit_on(pool: &Pool, writes: &[Write]) -> Result<(), StoreError> {
    let client = pool
        .get()
        .await
        .map_err(|e| StoreError::Failed(format!("PostgreSQL: {e}")))?;
    let added = added(writes);
    let mut statements = Vec::with_capacity(writes.len() + 2);
    statements.push(Statement {
        sql: "BEGIN",
        params: Vec::new(),
    });
    for write in writes {
        statements.push(statement(write, &added)?);
    }
    // Actions or seats added to a game with neither its guard nor its creation in the commit
    // (no request does that today) still move its numbers on.
    for (&game, &(actions, seats)) in &added {
        let kept = writes.iter().any(|w| {
            matches!(w, Write::Guard { game_id, .. } if game_id == game)
                || matches!(w, Write::Game { id, .. } if id == game)
        });
        if !kept {
            statements.push(Statement {
                sql: "UPDATE games SET action_count = action_count + $2,
                                       seat_count = seat_count + $3
                      WHERE id = $1",
                params: vec![
                    Box::new(game.to_owned()),
                    Box::new(number::<i32>(actions)?),
                    Box::new(number::<i32>(seats)?),
                ],
            });
        }
    }
    statements.push(Statement {
        sql: "COMMIT",
        params: Vec::new(),
    });
    let mut prepared = Vec::with_capacity(statements.len());
    for s in &statements {
        prepared.push(client.prepare_cached(s.sql).await.map_err(|e| failed(&e))?);
    }
    // Every statement is sent before the first answer is read (tokio-postgres pipelines
    // requests polled together, in order): one round trip for the whole transaction.
    let client_ref = &client;
    let results = futures_util::future::join_all(
        statements
            .iter()
            .zip(&prepared)
            .map(|(s, prepared)| async move { client_ref.execute(prepared, &s.params()).await }),
    )
    .await;
    // The first failure says why; the ones after it only say the transaction was aborted.
    match results.into_iter().find_map(Result::err) {
        Some(e) => Err(classify(&e)),
        None => Ok(()),
    }
}

/// A failed commit: a guard or a unique key is a conflict; anything else a failure.
fn classify(e: &tokio_postgres::Error) -> StoreError {
    let conflict = e
        .code()
        .is_some_and(|c| *c == SqlState::UNIQUE_VIOLATION || c.code() == GUARD_FAILED);
    if conflict {
        StoreError::Conflict(e.to_string())
    } else {
        StoreError::Failed(format!("PostgreSQL: {e}"))
    }
}

/// A move's commit: one game's guard, its new actions (at least one) and at most its deadline.
#[derive(Debug)]
struct Move {
    game_id: String,
    /// The numbers of actions and of seats people took the server judged the move on.
    actions: i32,
    seats: i32,
    /// The deadline to set, if the commit sets one.
    deadline: Option<Option<i64>>,
    plies: Vec<i32>,
    actors: Vec<String>,
    texts: Vec<String>,
    client_ids: Vec<Option<String>>,
    sents: Vec<Option<String>>,
    contributions: Vec<Option<String>>,
    ats: Vec<i64>,
}

impl Move {
    /// `writes` as a move, or `None` for any other commit.
    fn of(writes: &[Write]) -> Result<Option<Move>, StoreError> {
        let Some(Write::Guard {
            game_id,
            actions,
            seats,
        }) = writes.first()
        else {
            return Ok(None);
        };
        let mut m = Move {
            game_id: game_id.clone(),
            actions: number(*actions)?,
            seats: number(*seats)?,
            deadline: None,
            plies: Vec::new(),
            actors: Vec::new(),
            texts: Vec::new(),
            client_ids: Vec::new(),
            sents: Vec::new(),
            contributions: Vec::new(),
            ats: Vec::new(),
        };
        for write in &writes[1..] {
            match write {
                Write::Action {
                    game_id: g,
                    ply,
                    actor,
                    action,
                    client_action_id,
                    sent,
                    contributions,
                    at,
                } if g == game_id => {
                    m.plies.push(number(*ply)?);
                    m.actors.push(actor.clone());
                    m.texts.push(action.clone());
                    m.client_ids.push(client_action_id.clone());
                    m.sents.push(sent.clone());
                    m.contributions.push(contributions.clone());
                    m.ats.push(*at);
                }
                Write::Deadline {
                    game_id: g,
                    deadline,
                } if g == game_id && m.deadline.is_none() => m.deadline = Some(*deadline),
                _ => return Ok(None),
            }
        }
        Ok((!m.plies.is_empty()).then_some(m))
    }
}

/// A move waiting for [`mover`], and where its outcome goes.
struct Pending {
    m: Move,
    done: oneshot::Sender<Result<(), StoreError>>,
}

/// The most moves committed, or games read, by one statement.
const PER_BATCH: usize = 64;
/// The most batches of moves being committed at once (and of games being read).
const BATCHES_AT_ONCE: usize = 2;

/// A game to read for [`reader`], and where it goes.
struct Reading {
    id: String,
    from_action: i32,
    from_phrase: i32,
    done: oneshot::Sender<Result<Option<StoredGame>, StoreError>>,
}

/// Commits the moves of every game this process serves, in batches (see [`batches`], each
/// committed by [`commit_moves`]): one statement, one transaction, one WAL flush and one
/// wake-up of one database connection for a batch. Two moves of one game never share a batch
/// (nor overlap: the server commits a game's next move only after its last one).
async fn mover(pool: Pool, moves: mpsc::UnboundedReceiver<Pending>) {
    batches(
        moves,
        |batch: &[Pending], p: &Pending| batch.iter().all(|b| b.m.game_id != p.m.game_id),
        move |batch| {
            let pool = pool.clone();
            async move { commit_moves(&pool, batch).await }
        },
    )
    .await;
}

/// Reads games for [`Store::game_from`] in batches (see [`batches`]): one statement for
/// whatever reads arrived together, as [`read_games`] makes it.
async fn reader(pool: Pool, reads: mpsc::UnboundedReceiver<Reading>) {
    batches(
        reads,
        |_: &[Reading], _: &Reading| true,
        move |batch: Vec<Reading>| {
            let pool = pool.clone();
            async move {
                let wanted: Vec<&Reading> = batch.iter().collect();
                match read_games(&pool, &wanted).await {
                    Ok(mut games) => {
                        for (r, game) in batch.into_iter().zip(games.drain(..)) {
                            let _ = r.done.send(Ok(game));
                        }
                    }
                    Err(e) => {
                        let why = e.to_string();
                        for r in batch {
                            let _ = r.done.send(Err(StoreError::Failed(why.clone())));
                        }
                    }
                }
            }
        },
    )
    .await;
}

/// Runs the requests that come down `queue` in batches: whatever arrived while the batches
/// before were under way goes together (at most [`PER_BATCH`], each passing `fits` with those
/// taken before it), at most [`BATCHES_AT_ONCE`] batches at a time. A request that arrives with
/// a batch free goes at once, alone: batching adds no wait.
async fn batches<T, F>(
    mut queue: mpsc::UnboundedReceiver<T>,
    fits: impl Fn(&[T], &T) -> bool,
    run: impl Fn(Vec<T>) -> F,
) where
    T: Send + 'static,
    F: Future<Output = ()> + Send + 'static,
{
    let slots = Arc::new(tokio::sync::Semaphore::new(BATCHES_AT_ONCE));
    let mut next: Option<T> = None;
    loop {
        let first = match next.take() {
            Some(p) => p,
            None => match queue.recv().await {
                Some(p) => p,
                None => return,
            },
        };
        let Ok(slot) = slots.clone().acquire_owned().await else {
            return;
        };
        let mut batch = vec![first];
        while batch.len() < PER_BATCH {
            match queue.try_recv() {
                Ok(p) if !fits(&batch, &p) => {
                    next = Some(p);
                    break;
                }
                Ok(p) => batch.push(p),
                Err(_) => break,
            }
        }
        let work = run(batch);
        tokio::spawn(async move {
            work.await;
            drop(slot);
        });
    }
}

/// Commits a batch of moves and tells each its outcome. If the statement fails (a unique key,
/// a deadlock with another server's batch), nothing of it was written and each move is tried
/// again alone, so that one move's failure is not the others'.
async fn commit_moves(pool: &Pool, batch: Vec<Pending>) {
    let moves: Vec<&Move> = batch.iter().map(|p| &p.m).collect();
    let result = moves_once(pool, &moves).await;
    match result {
        Ok(landed) => {
            for p in batch {
                let outcome = moved(&landed, &p.m);
                let _ = p.done.send(outcome);
            }
        }
        Err(e) if batch.len() == 1 => {
            if let Some(p) = batch.into_iter().next() {
                let _ = p.done.send(Err(e));
            }
        }
        Err(_) => {
            let alone = moves
                .iter()
                .map(|m| moves_once(pool, std::slice::from_ref(m)));
            let results = futures_util::future::join_all(alone).await;
            for (p, result) in batch.into_iter().zip(results) {
                let outcome = result.and_then(|landed| moved(&landed, &p.m));
                let _ = p.done.send(outcome);
            }
        }
    }
}

/// A move's outcome from the games whose moves landed.
fn moved(landed: &[String], m: &Move) -> Result<(), StoreError> {
    if landed.contains(&m.game_id) {
        Ok(())
    } else {
        Err(StoreError::Conflict(format!(
            "game {} changed since it was read",
            m.game_id
        )))
    }
}

/// Commits moves as one statement and returns the games whose moves landed. The statement
/// updates each game's row where its numbers are the ones its move was judged on (the guard:
/// under read committed, an update that waited for another transaction's lock on the row
/// sees that transaction's numbers) and, feeding on the rows it updated, inserts their
/// actions. A game whose guard fails is not updated and gets no actions; the others land.
async fn moves_once(pool: &Pool, moves: &[&Move]) -> Result<Vec<String>, StoreError> {
    let client = pool
        .get()
        .await
        .map_err(|e| StoreError::Failed(format!("PostgreSQL: {e}")))?;
    let statement = client
        .prepare_cached(
            "WITH w AS (
                 SELECT * FROM unnest($1::TEXT[], $2::INTEGER[], $3::INTEGER[], $4::INTEGER[],
                                      $5::BOOLEAN[], $6::BIGINT[])
                     AS w (id, actions, seats, new_actions, set_deadline, deadline)),
             g AS (
                 UPDATE games SET action_count = w.new_actions,
                     deadline = CASE WHEN w.set_deadline THEN w.deadline ELSE games.deadline END
                 FROM w
                 WHERE games.id = w.id AND games.action_count = w.actions
                     AND games.seat_count = w.seats
                 RETURNING games.id)
             INSERT INTO actions (game_id, ply, actor, action, client_action_id, sent, at,
                                  contributions)
             SELECT a.game_id, a.ply, a.actor, a.action, a.client_action_id, a.sent, a.at,
                    a.contributions
             FROM unnest($7::TEXT[], $8::INTEGER[], $9::TEXT[], $10::TEXT[], $11::TEXT[],
                         $12::TEXT[], $13::BIGINT[], $14::TEXT[])
                 AS a (game_id, ply, actor, action, client_action_id, sent, at, contributions)
             WHERE a.game_id IN (SELECT id FROM g)
             RETURNING game_id",
        )
        .await
        .map_err(|e| failed(&e))?;
    let ids: Vec<&str> = moves.iter().map(|m| m.game_id.as_str()).collect();
    let actions: Vec<i32> = moves.iter().map(|m| m.actions).collect();
    let seats: Vec<i32> = moves.iter().map(|m| m.seats).collect();
    let mut new_actions = Vec::with_capacity(moves.len());
    for m in moves {
        new_actions.push(number::<i32>(m.actions as usize + m.plies.len())?);
    }
    let set_deadline: Vec<bool> = moves.iter().map(|m| m.deadline.is_some()).collect();
    let deadline: Vec<Option<i64>> = moves.iter().map(|m| m.deadline.flatten()).collect();
    let game_ids: Vec<&str> = moves
        .iter()
        .flat_map(|m| std::iter::repeat_n(m.game_id.as_str(), m.plies.len()))
        .collect();
    let plies: Vec<i32> = moves.iter().flat_map(|m| m.plies.iter().copied()).collect();
    let actors: Vec<&str> = moves
        .iter()
        .flat_map(|m| m.actors.iter().map(String::as_str))
        .collect();
    let texts: Vec<&str> = moves
        .iter()
        .flat_map(|m| m.texts.iter().map(String::as_str))
        .collect();
    let client_ids: Vec<Option<&str>> = moves
        .iter()
        .flat_map(|m| m.client_ids.iter().map(Option::as_deref))
        .collect();
    let sents: Vec<Option<&str>> = moves
        .iter()
        .flat_map(|m| m.sents.iter().map(Option::as_deref))
        .collect();
    let ats: Vec<i64> = moves.iter().flat_map(|m| m.ats.iter().copied()).collect();
    let contributions: Vec<Option<&str>> = moves
        .iter()
        .flat_map(|m| m.contributions.iter().map(Option::as_deref))
        .collect();
    let rows = client
        .query(
            &statement,
            &[
                &ids,
                &actions,
                &seats,
                &new_actions,
                &set_deadline,
                &deadline,
                &game_ids,
                &plies,
                &actors,
                &texts,
                &client_ids,
                &sents,
                &ats,
                &contributions,
            ],
        )
        .await
        .map_err(|e| classify(&e))?;
    let mut landed: Vec<String> = rows.iter().map(|r| r.get(0)).collect();
    landed.sort_unstable();
    landed.dedup();
    Ok(landed)
}

/// Reads games, each from its own ply and phrase on (see [`Store::game_from`]), with one
/// statement: one snapshot, so each game's row and numbers agree with its actions, seats and
/// phrases even when a commit lands meanwhile, and one statement's work for the database
/// however many games. Each game's parts come as arrays (no rows: NULL). `None` for a game
/// that is not there.
async fn read_games(
    pool: &Pool,
    wanted: &[&Reading],
) -> Result<Vec<Option<StoredGame>>, StoreError> {
    let client = pool
        .get()
        .await
        .map_err(|e| StoreError::Failed(format!("PostgreSQL: {e}")))?;
    let read = client
        .prepare_cached(
            "SELECT q.n, g.id, g.kind, g.options, g.setup, g.days_per_move, g.created_at,
                    g.deadline, g.action_count,
                    s.seats, s.hashes, s.names, b.seats, b.strengths,
                    a.actors, a.actions, a.client_ids, a.sents, a.ats,
                    p.seats, p.phrases, p.client_ids, p.ats,
                    g.chance_seed, s.contributions, a.contributions
             FROM unnest($1::TEXT[], $2::INTEGER[], $3::INTEGER[]) WITH ORDINALITY
                 AS q (id, from_action, from_phrase, n)
             JOIN games g ON g.id = q.id
             CROSS JOIN LATERAL (
                 SELECT array_agg(seat ORDER BY seat) AS seats,
                        array_agg(token_hash ORDER BY seat) AS hashes,
                        array_agg(name ORDER BY seat) AS names,
                        array_agg(contribution ORDER BY seat) AS contributions
                 FROM seats WHERE game_id = g.id) s
             CROSS JOIN LATERAL (
                 SELECT array_agg(seat ORDER BY seat) AS seats,
                        array_agg(strength ORDER BY seat) AS strengths
                 FROM bots WHERE game_id = g.id) b
             CROSS JOIN LATERAL (
                 SELECT array_agg(actor ORDER BY ply) AS actors,
                        array_agg(action ORDER BY ply) AS actions,
                        array_agg(client_action_id ORDER BY ply) AS client_ids,
                        array_agg(sent ORDER BY ply) AS sents,
                        array_agg(at ORDER BY ply) AS ats,
                        array_agg(contributions ORDER BY ply) AS contributions
                 FROM actions WHERE game_id = g.id AND ply >= q.from_action) a
             CROSS JOIN LATERAL (
                 SELECT array_agg(seat ORDER BY seq) AS seats,
                        array_agg(phrase ORDER BY seq) AS phrases,
                        array_agg(client_phrase_id ORDER BY seq) AS client_ids,
                        array_agg(at ORDER BY seq) AS ats
                 FROM phrases WHERE game_id = g.id AND seq > q.from_phrase) p",
        )
        .await
        .map_err(|e| failed(&e))?;
    let ids: Vec<&str> = wanted.iter().map(|r| r.id.as_str()).collect();
    let from_actions: Vec<i32> = wanted.iter().map(|r| r.from_action).collect();
    let from_phrases: Vec<i32> = wanted.iter().map(|r| r.from_phrase).collect();
    let rows = client
        .query(&read, &[&ids, &from_actions, &from_phrases])
        .await
        .map_err(|e| failed(&e))?;
    let mut games: Vec<Option<StoredGame>> = wanted.iter().map(|_| None).collect();
    for row in &rows {
        let n: i64 = row.get(0);
        if let Some(game) = usize::try_from(n - 1).ok().and_then(|i| games.get_mut(i)) {
            *game = Some(stored_game(row));
        }
    }
    Ok(games)
}

/// A game as [`read_games`] reads it, from its row.
fn stored_game(row: &tokio_postgres::Row) -> StoredGame {
    fn list<'a, T: tokio_postgres::types::FromSql<'a>>(
        row: &'a tokio_postgres::Row,
        i: usize,
    ) -> Vec<T> {
        row.get::<_, Option<Vec<T>>>(i).unwrap_or_default()
    }
    let seats: Vec<(u8, Hash, String)> = list::<i16>(row, 9)
        .into_iter()
        .zip(list::<&[u8]>(row, 10))
        .zip(list::<String>(row, 11))
        .map(|((seat, hash), name)| (seat_of_row(seat), to_hash(hash), name))
        .collect();
    let contributions = seats
        .iter()
        .zip(list::<Option<String>>(row, 24))
        .filter_map(|((seat, _, _), c)| Some((*seat, c?)))
        .collect();
    let mut chance = list::<Option<String>>(row, 25).into_iter();
    let bots = list::<i16>(row, 12)
        .into_iter()
        .zip(list::<String>(row, 13))
        .map(|(seat, strength)| (seat_of_row(seat), strength))
        .collect();
    let mut texts = list::<String>(row, 15).into_iter();
    let mut client_ids = list::<Option<String>>(row, 16).into_iter();
    let mut sents = list::<Option<String>>(row, 17).into_iter();
    let mut ats = list::<i64>(row, 18).into_iter();
    let actions = list::<String>(row, 14)
        .into_iter()
        .map(|actor| StoredAction {
            actor,
            action: texts.next().unwrap_or_default(),
            client_action_id: client_ids.next().flatten(),
            sent: sents.next().flatten(),
            at: ats.next().unwrap_or_default(),
            contributions: chance.next().flatten(),
        })
        .collect();
    let phrases = list::<i16>(row, 19)
        .into_iter()
        .zip(list::<String>(row, 20))
        .zip(list::<String>(row, 21))
        .zip(list::<i64>(row, 22))
        .map(|(((seat, phrase), client_id), at)| (seat_of_row(seat), phrase, client_id, at))
        .collect();
    StoredGame {
        id: row.get(1),
        kind: row.get(2),
        options: row.get(3),
        setup: row.get(4),
        days_per_move: row.get(5),
        created_at: row.get(6),
        deadline: row.get(7),
        chance_seed: row.get(23),
        contributions,
        action_count: usize::try_from(row.get::<_, i32>(8)).unwrap_or(0),
        seats,
        bots,
        actions,
        phrases,
    }
}

fn number<T: TryFrom<usize>>(n: usize) -> Result<T, StoreError> {
    T::try_from(n).map_err(|_| StoreError::Failed(format!("{n} is out of range")))
}

/// The statement that carries out one write.
fn statement(write: &Write, added: &Added) -> Result<Statement, StoreError> {
    let adds = |game: &str| added.get(game).copied().unwrap_or_default();
    let (sql, params): (&'static str, Vec<Box<dyn ToSql + Sync + Send>>) = match write.clone() {
        Write::Guard {
            game_id,
            actions,
            seats,
        } => {
            let (more_actions, more_seats) = adds(&game_id);
            (
                "SELECT qiguan_guard($1, $2, $3, $4, $5)",
                vec![
                    Box::new(game_id),
                    Box::new(number::<i32>(actions)?),
                    Box::new(number::<i32>(seats)?),
                    Box::new(number::<i32>(actions + more_actions)?),
                    Box::new(number::<i32>(seats + more_seats)?),
                ],
            )
        }
        Write::Game {
            id,
            kind,
            options,
            setup,
            days_per_move,
            created_at,
            chance_seed,
        } => {
            let (actions, seats) = adds(&id);
            (
                "INSERT INTO games (id, kind, options, setup, days_per_move, created_at,
                                    action_count, seat_count, chance_seed)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                vec![
                    Box::new(id),
                    Box::new(kind),
                    Box::new(options),
                    Box::new(setup),
                    Box::new(days_per_move),
                    Box::new(created_at),
                    Box::new(number::<i32>(actions)?),
                    Box::new(number::<i32>(seats)?),
                    Box::new(chance_seed),
                ],
            )
        }
        Write::Seat {
            game_id,
            seat,
            token_hash,
            name,
            contribution,
            at,
        } => (
            "INSERT INTO seats (game_id, seat, token_hash, name, joined_at, contribution)
             VALUES ($1, $2, $3, $4, $5, $6)",
            vec![
                Box::new(game_id),
                Box::new(small(seat)),
                Box::new(token_hash.to_vec()),
                Box::new(name),
                Box::new(at),
                Box::new(contribution),
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
            contributions,
            at,
        } => (
            "INSERT INTO actions (game_id, ply, actor, action, client_action_id, sent, at,
                                  contributions)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            vec![
                Box::new(game_id),
                Box::new(number::<i32>(ply)?),
                Box::new(actor),
                Box::new(action),
                Box::new(client_action_id),
                Box::new(sent),
                Box::new(at),
                Box::new(contributions),
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
        Write::Share {
            id,
            game_id,
            upload,
            names,
            key_hash,
            at,
        } => (
            "INSERT INTO shares (id, game_id, upload, names, key_hash, created_at)
             VALUES ($1, $2, $3, $4, $5, $6)",
            vec![
                Box::new(id),
                Box::new(game_id),
                Box::new(upload),
                Box::new(names),
                Box::new(key_hash.map(|h| h.to_vec())),
                Box::new(at),
            ],
        ),
        Write::Withdraw { id, at } => (
            "UPDATE shares SET withdrawn_at = $2, upload = NULL
             WHERE id = $1 AND withdrawn_at IS NULL",
            vec![Box::new(id), Box::new(at)],
        ),
        Write::Reshare { id, upload, names } => (
            "UPDATE shares SET upload = $2, names = $3
             WHERE id = $1 AND withdrawn_at IS NULL AND game_id IS NULL",
            vec![Box::new(id), Box::new(upload), Box::new(names)],
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

#[cfg(test)]
#[path = "../../tests/support/testdb.rs"]
mod testdb;

#[cfg(test)]
mod tests {
    use super::*;

    fn action(game: &str, ply: usize, id: &str) -> Write {
        Write::Action {
            contributions: None,
            game_id: game.into(),
            ply,
            actor: format!("{}", ply % 2),
            action: format!("move {ply}"),
            client_action_id: Some(id.into()),
            sent: Some(format!("move {ply}")),
            at: 1,
        }
    }

    fn seat(game: &str, seat: u8) -> Write {
        Write::Seat {
            contribution: None,
            game_id: game.into(),
            seat,
            token_hash: crate::auth::hash(&format!("{game} {seat}")),
            name: String::new(),
            at: 1,
        }
    }

    fn guard(game: &str, actions: usize, seats: usize) -> Write {
        Write::Guard {
            game_id: game.into(),
            actions,
            seats,
        }
    }

    /// Each game's numbers as kept in its row and as counted.
    async fn numbers(client: &tokio_postgres::Client) -> Vec<(String, i32, i32, i64, i64)> {
        client
            .query(
                "SELECT id, action_count, seat_count,
                        (SELECT count(*) FROM actions WHERE game_id = id),
                        (SELECT count(*) FROM seats WHERE game_id = id)
                 FROM games ORDER BY id",
                &[],
            )
            .await
            .expect("numbers")
            .iter()
            .map(|r| (r.get(0), r.get(1), r.get(2), r.get(3), r.get(4)))
            .collect()
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_kept_numbers_start_from_the_stored_games_and_guard_every_commit() {
        let db = testdb::TestDb::postgres();
        let config: tokio_postgres::Config = db.url.parse().expect("a URL");
        let (mut client, connection) = config.connect(NoTls).await.expect("PostgreSQL");
        tokio::spawn(connection);
        // A database as the server of schema 3 left it, with a game of three moves.
        embedded::migrations::runner()
            .set_target(refinery::Target::Version(3))
            .run_async(&mut client)
            .await
            .expect("schema 3");
        client
            .batch_execute(
                "INSERT INTO games (id, kind, options, setup, days_per_move, created_at)
                     VALUES ('old', 'xiangqi', '{}', '{}', 3, 1);
                 INSERT INTO seats (game_id, seat, token_hash, joined_at)
                     VALUES ('old', 0, '\\x00', 1), ('old', 1, '\\x01', 1);
                 INSERT INTO actions (game_id, ply, actor, action, at)
                     VALUES ('old', 0, 'seat 0', 'a', 1), ('old', 1, 'seat 1', 'b', 1),
                            ('old', 2, 'seat 0', 'c', 1);",
            )
            .await
            .expect("an old game");
        let store = PgStore::open(&db.url).await.expect("upgraded");
        assert_eq!(numbers(&client).await, [("old".into(), 3, 2, 3, 2)]);

        // A move: one statement. Judged on the right numbers it lands, with its deadline.
        let one_move = |ply, id: &str, actions| {
            vec![
                guard("old", actions, 2),
                action("old", ply, id),
                Write::Deadline {
                    game_id: "old".into(),
                    deadline: Some(99),
                },
            ]
        };
        store.commit(one_move(3, "x", 3)).await.expect("a move");
        // Judged on a stale copy it is a conflict, and writes nothing.
        let stale = store.commit(one_move(3, "y", 3)).await;
        assert!(matches!(stale, Err(StoreError::Conflict(_))), "{stale:?}");
        let stale = store.commit(one_move(4, "y", 3)).await;
        assert!(matches!(stale, Err(StoreError::Conflict(_))), "{stale:?}");
        // A move and the computer's answer together.
        let mut two = one_move(4, "z", 4);
        two.insert(2, action("old", 5, "bot"));
        store.commit(two).await.expect("two actions");
        let deadline: Option<i64> = client
            .query_one("SELECT deadline FROM games WHERE id = 'old'", &[])
            .await
            .expect("deadline")
            .get(0);
        assert_eq!(deadline, Some(99));

        // A new game with a move and a seat in it, then a join: a whole transaction.
        store
            .commit(vec![
                Write::Game {
                    chance_seed: None,
                    id: "new".into(),
                    kind: "xiangqi".into(),
                    options: "{}".into(),
                    setup: "{}".into(),
                    days_per_move: 3,
                    created_at: 1,
                },
                action("new", 0, "n0"),
                seat("new", 0),
            ])
            .await
            .expect("a new game");
        store
            .commit(vec![guard("new", 1, 1), seat("new", 1)])
            .await
            .expect("a join");
        let late = store.commit(vec![guard("new", 1, 1), seat("new", 2)]).await;
        assert!(matches!(late, Err(StoreError::Conflict(_))), "{late:?}");
        // Actions added with neither the game's guard nor its creation still count.
        store
            .commit(vec![action("new", 1, "unguarded")])
            .await
            .expect("an unguarded action");
        // A guard on a game that is not there.
        let none = store.commit(vec![guard("none", 0, 0)]).await;
        assert!(matches!(none, Err(StoreError::Conflict(_))), "{none:?}");
        let none = store
            .commit(vec![guard("none", 0, 0), action("none", 0, "q")])
            .await;
        assert!(matches!(none, Err(StoreError::Conflict(_))), "{none:?}");

        assert_eq!(
            numbers(&client).await,
            [("new".into(), 2, 2, 2, 2), ("old".into(), 6, 2, 6, 2)]
        );
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn moves_committed_together_land_or_fail_each_on_its_own() {
        let db = testdb::TestDb::postgres();
        let store = Arc::new(PgStore::open(&db.url).await.expect("a store"));
        let games: Vec<String> = (0..24).map(|i| format!("g{i:02}")).collect();
        for game in &games {
            store
                .commit(vec![
                    Write::Game {
                        chance_seed: None,
                        id: game.clone(),
                        kind: "xiangqi".into(),
                        options: "{}".into(),
                        setup: "{}".into(),
                        days_per_move: 3,
                        created_at: 1,
                    },
                    seat(game, 0),
                    seat(game, 1),
                ])
                .await
                .expect("a game");
            store
                .commit(vec![guard(game, 0, 2), action(game, 0, "first")])
                .await
                .expect("a first move");
        }
        // Many moves at once, so that most go in batches: every fourth judged on a stale
        // copy, every fourth after that reusing a client id (a unique key breaks the whole
        // statement, and the batch's moves are tried again one by one).
        let outcomes = futures_util::future::join_all(games.iter().enumerate().map(|(i, game)| {
            let store = store.clone();
            let writes = match i % 4 {
                1 => vec![guard(game, 0, 2), action(game, 0, "stale")],
                2 => vec![
                    guard(game, 1, 2),
                    action(game, 1, "x"),
                    action(game, 2, "first"),
                ],
                _ => vec![
                    guard(game, 1, 2),
                    action(game, 1, "x"),
                    action(game, 2, "y"),
                ],
            };
            async move { store.commit(writes).await }
        }))
        .await;
        for (i, outcome) in outcomes.iter().enumerate() {
            match i % 4 {
                1 | 2 => assert!(
                    matches!(outcome, Err(StoreError::Conflict(_))),
                    "game {i}: {outcome:?}"
                ),
                _ => assert!(outcome.is_ok(), "game {i}: {outcome:?}"),
            }
        }
        let (client, connection) = tokio_postgres::connect(&db.url, NoTls)
            .await
            .expect("PostgreSQL");
        tokio::spawn(connection);
        for (i, (game, kept, seats, counted, seated)) in
            numbers(&client).await.into_iter().enumerate()
        {
            let want = if matches!(i % 4, 1 | 2) { 1 } else { 3 };
            assert_eq!(
                (kept, counted, seats, seated),
                (want, want.into(), 2, 2),
                "{game}"
            );
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn games_read_together_are_each_the_game_asked_for() {
        let db = testdb::TestDb::postgres();
        let store = Arc::new(PgStore::open(&db.url).await.expect("a store"));
        for g in 0..12 {
            let game = format!("r{g:02}");
            let mut writes = vec![
                Write::Game {
                    chance_seed: None,
                    id: game.clone(),
                    kind: "xiangqi".into(),
                    options: "{}".into(),
                    setup: "{}".into(),
                    days_per_move: 3,
                    created_at: 1,
                },
                seat(&game, 0),
            ];
            // Game g has g actions and, when odd, a second seat and a phrase.
            writes.extend((0..g).map(|ply| action(&game, ply, &format!("c{ply}"))));
            if g % 2 == 1 {
                writes.push(seat(&game, 1));
                writes.push(Write::Phrase {
                    game_id: game.clone(),
                    seq: 1,
                    seat: 1,
                    phrase: "hello".into(),
                    client_phrase_id: "p1".into(),
                    at: 2,
                });
            }
            store.commit(writes).await.expect("a game");
        }
        // Many reads at once (most go in batches), from various points, one of a game that
        // is not there; each must be what a read of its own gives.
        let asks: Vec<(String, usize, usize)> = (0..40)
            .map(|i| {
                let g = i % 13;
                (format!("r{g:02}"), i % 5, i % 2)
            })
            .collect();
        let together = futures_util::future::join_all(asks.iter().map(|(id, a, p)| {
            let store = store.clone();
            async move { store.game_from(id, *a, *p).await.expect("a read") }
        }))
        .await;
        for ((id, a, p), got) in asks.iter().zip(together) {
            let alone = store.game_from(id, *a, *p).await.expect("a read");
            match (got, alone) {
                (None, None) => assert_eq!(id, "r12", "only the missing game reads as none"),
                (Some(got), Some(alone)) => {
                    assert_eq!(got.id, *id);
                    let g: usize = id[1..].parse().unwrap();
                    assert_eq!(got.action_count, g);
                    assert_eq!(got.actions.len(), g.saturating_sub(*a));
                    assert_eq!(got.actions, alone.actions);
                    assert_eq!(got.seats, alone.seats);
                    assert_eq!(got.seats.len(), 1 + g % 2);
                    assert_eq!(got.phrases, alone.phrases);
                    assert_eq!(got.phrases.len(), usize::from(g % 2 == 1 && *p == 0));
                }
                (got, alone) => panic!("{id}: {got:?} read together, {alone:?} alone"),
            }
        }
    }
}
