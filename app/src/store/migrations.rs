//! Schema migrations. `PRAGMA user_version` holds the schema version; each step runs in its
//! own transaction, so a crash mid-migration leaves the previous version intact.

use super::{Standing, StoreError};
use qiguan_core::{AnyMatch, Record, RecordEntry};
use rusqlite::{Connection, params};

/// The schema version this build writes.
pub const SCHEMA_VERSION: i64 = 6;

/// Version 1: games, their actions, settings.
const V1: &str = "
CREATE TABLE games (
    id         INTEGER PRIMARY KEY,
    kind       TEXT NOT NULL,
    mode       TEXT NOT NULL,
    options    TEXT NOT NULL,
    setup      TEXT NOT NULL,
    players    TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE TABLE actions (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply     INTEGER NOT NULL,
    actor   TEXT NOT NULL,
    action  TEXT NOT NULL,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
";

/// Version 2: each game's standing (status, result, reason, plies, moves) kept beside it, so that
/// history filters and sorts tens of thousands of games without replaying any.
const V2: &str = "
ALTER TABLE games ADD COLUMN status TEXT NOT NULL DEFAULT 'ongoing';
ALTER TABLE games ADD COLUMN result TEXT;
ALTER TABLE games ADD COLUMN reason TEXT;
ALTER TABLE games ADD COLUMN plies INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN moves INTEGER NOT NULL DEFAULT 0;
CREATE INDEX games_by_updated ON games (updated_at DESC, id DESC);
CREATE INDEX games_by_status ON games (status, updated_at DESC);
";

/// Version 3: correspondence games. Each has its server, its id there, this device's seat and
/// token; actions made here wait in the outbox until the server has acknowledged them.
const V3: &str = "
CREATE TABLE remote_games (
    game_id       INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    server        TEXT NOT NULL,
    remote_id     TEXT NOT NULL,
    seat          INTEGER NOT NULL,
    token         TEXT NOT NULL,
    invite_code   TEXT,
    days_per_move INTEGER NOT NULL,
    deadline      INTEGER,
    your_turn     INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE outbox (
    id               INTEGER PRIMARY KEY,
    game_id          INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    expected_version INTEGER NOT NULL,
    client_action_id TEXT NOT NULL UNIQUE,
    action           TEXT NOT NULL,
    created_at       INTEGER NOT NULL
);
";

/// Version 4: correspondence games with secrets. The server keeps their record until
/// the game is over and sends each seat only its view, so the device keeps that view (JSON)
/// in place of actions; queued actions wait in the outbox as before.
const V4: &str = "
ALTER TABLE remote_games ADD COLUMN seat_view TEXT;
";

/// Version 5: games with several computer players of their own strengths:
/// for each seat, the computer's strength (`easy`, `strong`) or null for a person, as JSON.
/// Null for games from before, and for games with at most one computer seat (their mode says).
const V5: &str = "
ALTER TABLE games ADD COLUMN computers TEXT;
";

/// Version 6: the preset phrases of correspondence games, as heard from the server (`seq`, its
/// number in the game) or said here and not yet acknowledged (`seq` null; `client_id` makes a
/// resend harmless).
const V6: &str = "
CREATE TABLE phrases (
    id        INTEGER PRIMARY KEY,
    game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq       INTEGER,
    seat      INTEGER NOT NULL,
    phrase    TEXT NOT NULL,
    client_id TEXT UNIQUE,
    at        INTEGER NOT NULL
);
CREATE UNIQUE INDEX phrases_by_seq ON phrases (game_id, seq) WHERE seq IS NOT NULL;
";

/// Brings the schema from `from` up to [`SCHEMA_VERSION`].
pub(super) fn migrate(conn: &mut Connection, from: i64) -> Result<(), StoreError> {
    for version in from + 1..=SCHEMA_VERSION {
        let tx = conn.transaction()?;
        match version {
            1 => tx.execute_batch(V1)?,
            2 => {
                tx.execute_batch(V2)?;
                backfill_standings(&tx)?;
            }
            3 => tx.execute_batch(V3)?,
            4 => tx.execute_batch(V4)?,
            5 => tx.execute_batch(V5)?,
            6 => tx.execute_batch(V6)?,
            _ => unreachable!("no migration to version {version}"),
        }
        tx.pragma_update(None, "user_version", version)?;
        tx.commit()?;
    }
    Ok(())
}

/// Replays every game stored under version 1 to fill in its standing. A game that no longer
/// replays keeps the defaults (ongoing) rather than blocking the upgrade.
fn backfill_standings(tx: &rusqlite::Transaction<'_>) -> Result<(), StoreError> {
    let games: Vec<(i64, String, String, String)> = tx
        .prepare("SELECT id, kind, options, setup FROM games")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
        .collect::<Result<_, _>>()?;
    let mut actions =
        tx.prepare("SELECT actor, action FROM actions WHERE game_id = ?1 ORDER BY ply")?;
    let mut update = tx.prepare(
        "UPDATE games SET status = ?2, result = ?3, reason = ?4, plies = ?5, moves = ?6
         WHERE id = ?1",
    )?;
    for (id, kind, options, setup) in games {
        let rows: Vec<(String, String)> = actions
            .query_map([id], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<_, _>>()?;
        let standing = match replay_v1(&kind, &options, &setup, rows) {
            Some(game) => Standing::of(&game),
            None => continue,
        };
        update.execute(params![
            id,
            standing.status(),
            standing.result(),
            standing.outcome.as_ref().map(|o| o.reason.as_str()),
            standing.plies as i64,
            standing.moves as i64,
        ])?;
    }
    Ok(())
}

fn replay_v1(
    kind: &str,
    options: &str,
    setup: &str,
    rows: Vec<(String, String)>,
) -> Option<AnyMatch> {
    let actions = rows
        .into_iter()
        .map(|(actor, action)| {
            Some(RecordEntry {
                by: actor.parse().ok()?,
                action,
            })
        })
        .collect::<Option<Vec<_>>>()?;
    let record = Record {
        format: qiguan_core::RECORD_FORMAT,
        game: super::parse_kind(kind)?,
        options: serde_json::from_str(options).ok()?,
        setup: serde_json::from_str(setup).ok()?,
        actions,
    };
    AnyMatch::from_record(&record).ok()
}
