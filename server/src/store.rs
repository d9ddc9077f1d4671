//! The server's SQLite file (WAL, `synchronous=FULL`) and its one writer thread.
//!
//! Group commit: request handlers send their writes to the writer and wait; the writer takes
//! every write that is queued, runs them in one transaction (each in its own savepoint, so one
//! failing write does not sink the others), commits once, and only then answers them all. A
//! move is acknowledged only after the commit that holds it is on disk.

use crate::auth::Hash;
use rusqlite::{Connection, OptionalExtension, params};
use std::path::Path;
use tokio::sync::{mpsc, oneshot};

/// The schema version this build writes.
pub const SCHEMA_VERSION: i64 = 4;

const SCHEMA: &str = "
CREATE TABLE games (
    id            TEXT PRIMARY KEY,
    kind          TEXT NOT NULL,
    options       TEXT NOT NULL,
    setup         TEXT NOT NULL,
    days_per_move INTEGER NOT NULL,
    created_at    INTEGER NOT NULL,
    deadline      INTEGER
);
CREATE TABLE seats (
    game_id    TEXT NOT NULL REFERENCES games (id),
    seat       INTEGER NOT NULL,
    token_hash BLOB NOT NULL UNIQUE,
    joined_at  INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE invites (
    code_hash BLOB PRIMARY KEY,
    game_id   TEXT NOT NULL REFERENCES games (id),
    seat      INTEGER NOT NULL,
    used_at   INTEGER
);
CREATE TABLE actions (
    game_id          TEXT NOT NULL REFERENCES games (id),
    ply              INTEGER NOT NULL,
    actor            TEXT NOT NULL,
    action           TEXT NOT NULL,
    client_action_id TEXT,
    at               INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
CREATE UNIQUE INDEX actions_by_client_id ON actions (game_id, client_action_id)
    WHERE client_action_id IS NOT NULL;
";

/// Version 2: seats the server's computer players fill (Aeroplane chess), with their strength.
const V2: &str = "
CREATE TABLE bots (
    game_id  TEXT NOT NULL REFERENCES games (id),
    seat     INTEGER NOT NULL,
    strength TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
);
";

/// Version 3: each seat's player's name, as the player gave it (shown to the other seats).
const V3: &str = "ALTER TABLE seats ADD COLUMN name TEXT NOT NULL DEFAULT '';";

/// Version 4: the preset phrases the seats have sent each other, numbered per game from 1.
/// `client_phrase_id` makes a resend idempotent for the seat that sent it.
const V4: &str = "
CREATE TABLE phrases (
    game_id          TEXT NOT NULL REFERENCES games (id),
    seq              INTEGER NOT NULL,
    seat             INTEGER NOT NULL,
    phrase           TEXT NOT NULL,
    client_phrase_id TEXT NOT NULL,
    at               INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq),
    UNIQUE (game_id, seat, client_phrase_id)
) WITHOUT ROWID;
";

/// One write. A request's writes go to the writer together and commit together.
#[derive(Clone, Debug)]
pub enum Write {
    /// A new game.
    Game {
        id: String,
        kind: String,
        options: String,
        setup: String,
        days_per_move: i64,
        created_at: i64,
    },
    /// A seat taken, with its token's hash.
    Seat {
        game_id: String,
        seat: u8,
        token_hash: Hash,
        name: String,
        at: i64,
    },
    /// An invite for a seat.
    Invite {
        code_hash: Hash,
        game_id: String,
        seat: u8,
    },
    /// An invite used up.
    UseInvite { code_hash: Hash, at: i64 },
    /// An action at `ply`.
    Action {
        game_id: String,
        ply: usize,
        actor: String,
        action: String,
        client_action_id: Option<String>,
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
}

struct Job {
    writes: Vec<Write>,
    done: oneshot::Sender<Result<(), String>>,
}

/// A handle to the writer thread.
#[derive(Clone, Debug)]
pub struct Writer {
    jobs: mpsc::Sender<Job>,
}

impl Writer {
    /// Writes these durably, in one transaction; returns once committed.
    pub async fn write(&self, writes: Vec<Write>) -> Result<(), String> {
        let (done, wait) = oneshot::channel();
        self.jobs
            .send(Job { writes, done })
            .await
            .map_err(|_| "the writer has stopped".to_owned())?;
        wait.await
            .map_err(|_| "the writer has stopped".to_owned())?
    }
}

/// Opens (creating) the database and checks its schema.
pub fn open(path: &Path) -> Result<Connection, String> {
    let conn = Connection::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .map_err(|e| format!("{} is not a usable database: {e}", path.display()))?;
    if version > SCHEMA_VERSION {
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
    // Each step runs in its own transaction with the version it reaches, so an interrupted
    // upgrade resumes where it stopped.
    for (from, step) in [(0, SCHEMA), (1, V2), (2, V3), (3, V4)] {
        if version <= from {
            conn.execute_batch(&format!(
                "BEGIN; {step} PRAGMA user_version = {}; COMMIT;",
                from + 1
            ))
            .map_err(|e| format!("{}: upgrading the schema: {e}", path.display()))?;
        }
    }
    Ok(conn)
}

/// Starts the writer thread on this connection.
pub fn start_writer(conn: Connection) -> Writer {
    let (jobs, rx) = mpsc::channel::<Job>(4096);
    std::thread::Builder::new()
        .name("qiguan-writer".into())
        .spawn(move || writer_loop(conn, rx))
        .expect("the writer thread starts");
    Writer { jobs }
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
fn commit_batch(conn: &mut Connection, batch: &[Job]) -> Vec<Result<(), String>> {
    let mut tx = match conn.transaction() {
        Ok(tx) => tx,
        Err(e) => return batch.iter().map(|_| Err(e.to_string())).collect(),
    };
    let mut results = Vec::with_capacity(batch.len());
    for job in batch {
        let result = (|| {
            let sp = tx.savepoint()?;
            for write in &job.writes {
                apply(&sp, write)?;
            }
            sp.commit()
        })();
        results.push(result.map_err(|e| e.to_string()));
    }
    match tx.commit() {
        Ok(()) => results,
        Err(e) => batch.iter().map(|_| Err(e.to_string())).collect(),
    }
}

fn apply(conn: &Connection, write: &Write) -> rusqlite::Result<()> {
    match write {
        Write::Game {
            id,
            kind,
            options,
            setup,
            days_per_move,
            created_at,
        } => conn.execute(
            "INSERT INTO games (id, kind, options, setup, days_per_move, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![id, kind, options, setup, days_per_move, created_at],
        ),
        Write::Seat {
            game_id,
            seat,
            token_hash,
            name,
            at,
        } => conn.execute(
            "INSERT INTO seats (game_id, seat, token_hash, name, joined_at)
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![game_id, seat, &token_hash[..], name, at],
        ),
        Write::Invite {
            code_hash,
            game_id,
            seat,
        } => conn.execute(
            "INSERT INTO invites (code_hash, game_id, seat) VALUES (?1, ?2, ?3)",
            params![&code_hash[..], game_id, seat],
        ),
        Write::UseInvite { code_hash, at } => {
            let n = conn.execute(
                "UPDATE invites SET used_at = ?2 WHERE code_hash = ?1 AND used_at IS NULL",
                params![&code_hash[..], at],
            )?;
            if n == 1 {
                Ok(1)
            } else {
                Err(rusqlite::Error::QueryReturnedNoRows)
            }
        }
        Write::Action {
            game_id,
            ply,
            actor,
            action,
            client_action_id,
            at,
        } => conn.execute(
            "INSERT INTO actions (game_id, ply, actor, action, client_action_id, at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![game_id, *ply as i64, actor, action, client_action_id, at],
        ),
        Write::Bot {
            game_id,
            seat,
            strength,
        } => conn.execute(
            "INSERT INTO bots (game_id, seat, strength) VALUES (?1, ?2, ?3)",
            params![game_id, seat, strength],
        ),
        Write::Phrase {
            game_id,
            seq,
            seat,
            phrase,
            client_phrase_id,
            at,
        } => conn.execute(
            "INSERT INTO phrases (game_id, seq, seat, phrase, client_phrase_id, at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![game_id, *seq as i64, seat, phrase, client_phrase_id, at],
        ),
        Write::Deadline { game_id, deadline } => conn.execute(
            "UPDATE games SET deadline = ?2 WHERE id = ?1",
            params![game_id, deadline],
        ),
    }
    .map(|_| ())
}

/// A game as stored, for loading at start-up.
#[derive(Debug)]
pub struct StoredGame {
    pub id: String,
    pub kind: String,
    pub options: String,
    pub setup: String,
    pub days_per_move: i64,
    pub created_at: i64,
    pub deadline: Option<i64>,
    /// Each taken seat: its number, its token's hash and its player's name.
    pub seats: Vec<(u8, Hash, String)>,
    /// Seats the server's computer plays, with their strength.
    pub bots: Vec<(u8, String)>,
    pub actions: Vec<(String, String, Option<String>, i64)>,
    /// The phrases sent, in order: seat, phrase, the sender's id for it, when.
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

fn to_hash(bytes: Vec<u8>) -> Hash {
    let mut h = [0u8; 32];
    let n = bytes.len().min(32);
    h[..n].copy_from_slice(&bytes[..n]);
    h
}

/// Reads every game and invite.
pub fn load(conn: &Connection) -> rusqlite::Result<(Vec<StoredGame>, Vec<StoredInvite>)> {
    let mut games: Vec<StoredGame> = conn
        .prepare("SELECT id, kind, options, setup, days_per_move, created_at, deadline FROM games")?
        .query_map([], |r| {
            Ok(StoredGame {
                id: r.get(0)?,
                kind: r.get(1)?,
                options: r.get(2)?,
                setup: r.get(3)?,
                days_per_move: r.get(4)?,
                created_at: r.get(5)?,
                deadline: r.get(6)?,
                seats: Vec::new(),
                bots: Vec::new(),
                actions: Vec::new(),
                phrases: Vec::new(),
            })
        })?
        .collect::<Result<_, _>>()?;
    let mut seats = conn.prepare("SELECT seat, token_hash, name FROM seats WHERE game_id = ?1")?;
    let mut bots = conn.prepare("SELECT seat, strength FROM bots WHERE game_id = ?1")?;
    let mut actions = conn.prepare(
        "SELECT actor, action, client_action_id, at FROM actions WHERE game_id = ?1 ORDER BY ply",
    )?;
    let mut phrases = conn.prepare(
        "SELECT seat, phrase, client_phrase_id, at FROM phrases WHERE game_id = ?1 ORDER BY seq",
    )?;
    for g in &mut games {
        g.seats = seats
            .query_map([&g.id], |r| {
                Ok((r.get::<_, u8>(0)?, to_hash(r.get(1)?), r.get(2)?))
            })?
            .collect::<Result<_, _>>()?;
        g.bots = bots
            .query_map([&g.id], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<_, _>>()?;
        g.actions = actions
            .query_map([&g.id], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
            })?
            .collect::<Result<_, _>>()?;
        g.phrases = phrases
            .query_map([&g.id], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
            })?
            .collect::<Result<_, _>>()?;
    }
    let invites = conn
        .prepare("SELECT code_hash, game_id, seat, used_at FROM invites")?
        .query_map([], |r| {
            Ok(StoredInvite {
                code_hash: to_hash(r.get(0)?),
                game_id: r.get(1)?,
                seat: r.get(2)?,
                used: r.get::<_, Option<i64>>(3)?.is_some(),
            })
        })?
        .collect::<Result<_, _>>()?;
    Ok((games, invites))
}

/// Counts stored actions (for tests and the start-up log).
pub fn count_actions(conn: &Connection) -> rusqlite::Result<i64> {
    conn.query_row("SELECT count(*) FROM actions", [], |r| r.get(0))
        .optional()
        .map(|n| n.unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_version_1_database_gains_the_bots_table_and_keeps_its_games() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("v1.sqlite");
        {
            let conn = Connection::open(&path).expect("open");
            conn.execute_batch(&format!("{SCHEMA} PRAGMA user_version = 1;"))
                .expect("v1");
            conn.execute(
                "INSERT INTO games (id, kind, options, setup, days_per_move, created_at)
                 VALUES ('g', 'xiangqi', 'null', 'null', 3, 0)",
                [],
            )
            .expect("game");
        }
        let conn = open(&path).expect("upgrade");
        let version: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .expect("version");
        assert_eq!(version, SCHEMA_VERSION);
        apply(
            &conn,
            &Write::Bot {
                game_id: "g".into(),
                seat: 1,
                strength: "easy".into(),
            },
        )
        .expect("a bot row");
        let (games, _) = load(&conn).expect("load");
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].bots, [(1, "easy".to_owned())]);
    }
}
