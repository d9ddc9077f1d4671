//! Schema migrations. `PRAGMA user_version` holds the schema version; each step runs in its
//! own transaction, so a crash mid-migration leaves the previous version intact.

use super::{Standing, StoreError};
use qiguan_core::{AnyMatch, Record, RecordEntry};
use rusqlite::{Connection, params};

/// The schema version this build writes.
pub const SCHEMA_VERSION: i64 = 14;

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

/// Version 7: linked devices (issue 21). Every game gets a `uid` that names it on every
/// device; this device's membership of a library (its server, ids, token and the library's
/// key) and what it last saw in each slot; and `library_dirty`, what changed here since it was
/// last sent, kept by triggers in the same transaction as the change, so that no write path can
/// forget to mark it and a crash cannot lose the mark. Only settings that belong to the player
/// rather than to the device (notation, move confirmation, saved layouts, tips seen) are
/// shared.
const V7: &str = "
ALTER TABLE games ADD COLUMN uid TEXT;
UPDATE games SET uid = lower(hex(randomblob(16)));
CREATE UNIQUE INDEX games_by_uid ON games (uid);
CREATE TRIGGER games_get_uid AFTER INSERT ON games WHEN NEW.uid IS NULL
BEGIN
    UPDATE games SET uid = lower(hex(randomblob(16))) WHERE id = NEW.id;
END;

CREATE TABLE library (
    one        INTEGER PRIMARY KEY CHECK (one = 1),
    server     TEXT NOT NULL,
    library_id TEXT NOT NULL,
    device_id  TEXT NOT NULL,
    token      TEXT NOT NULL,
    key        BLOB NOT NULL,
    cursor     INTEGER NOT NULL DEFAULT 0,
    unlinked   INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE library_slots (
    slot  TEXT PRIMARY KEY,
    entry TEXT NOT NULL
);
CREATE TABLE library_dirty (
    item TEXT PRIMARY KEY NOT NULL,
    gen  INTEGER NOT NULL DEFAULT 1
);
INSERT INTO library_dirty (item) SELECT 'g:' || uid FROM games;

CREATE TRIGGER library_game_new AFTER INSERT ON games WHEN NEW.uid IS NOT NULL
BEGIN
    INSERT INTO library_dirty (item) VALUES ('g:' || NEW.uid)
    ON CONFLICT (item) DO UPDATE SET gen = gen + 1;
END;
CREATE TRIGGER library_game_changed AFTER UPDATE ON games WHEN NEW.uid IS NOT NULL
BEGIN
    INSERT INTO library_dirty (item) VALUES ('g:' || NEW.uid)
    ON CONFLICT (item) DO UPDATE SET gen = gen + 1;
END;
CREATE TRIGGER library_game_gone AFTER DELETE ON games WHEN OLD.uid IS NOT NULL
BEGIN
    INSERT INTO library_dirty (item) VALUES ('g:' || OLD.uid)
    ON CONFLICT (item) DO UPDATE SET gen = gen + 1;
END;
CREATE TRIGGER library_remote_new AFTER INSERT ON remote_games
BEGIN
    INSERT INTO library_dirty (item)
    SELECT 'g:' || uid FROM games WHERE id = NEW.game_id AND uid IS NOT NULL
    ON CONFLICT (item) DO UPDATE SET gen = gen + 1;
END;

CREATE VIEW shared_settings AS
    SELECT key, value FROM settings
    WHERE key IN ('notation', 'confirm-moves', 'auto-move', 'tips')
       OR substr(key, 1, 13) = 'junqi-layout:' OR substr(key, 1, 9) = 'tip-seen:';
CREATE TRIGGER library_setting_new AFTER INSERT ON settings
    WHEN NEW.key IN ('notation', 'confirm-moves', 'auto-move', 'tips')
      OR substr(NEW.key, 1, 13) = 'junqi-layout:' OR substr(NEW.key, 1, 9) = 'tip-seen:'
BEGIN
    INSERT INTO library_dirty (item) VALUES ('s:' || NEW.key)
    ON CONFLICT (item) DO UPDATE SET gen = gen + 1;
END;
CREATE TRIGGER library_setting_changed AFTER UPDATE ON settings
    WHEN (NEW.key IN ('notation', 'confirm-moves', 'auto-move', 'tips')
      OR substr(NEW.key, 1, 13) = 'junqi-layout:' OR substr(NEW.key, 1, 9) = 'tip-seen:')
      AND NEW.value IS NOT OLD.value
BEGIN
    INSERT INTO library_dirty (item) VALUES ('s:' || NEW.key)
    ON CONFLICT (item) DO UPDATE SET gen = gen + 1;
END;
CREATE TRIGGER library_setting_gone AFTER DELETE ON settings
    WHEN OLD.key IN ('notation', 'confirm-moves', 'auto-move', 'tips')
      OR substr(OLD.key, 1, 13) = 'junqi-layout:' OR substr(OLD.key, 1, 9) = 'tip-seen:'
BEGIN
    INSERT INTO library_dirty (item) VALUES ('s:' || OLD.key)
    ON CONFLICT (item) DO UPDATE SET gen = gen + 1;
END;
INSERT INTO library_dirty (item) SELECT 's:' || key FROM shared_settings;
";

/// Version 9: the engine's review of a game (issue 36), kept so that reopening the game shows
/// its graph and judgements without searching again: which review it was (`engine`, a
/// replay's review of another engine or depth is done again), the moves it judged (a game
/// that went on keeps the judgements of the moves it still has) and each position's
/// judgement, as JSON.
const V9: &str = "
CREATE TABLE reviews (
    game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    engine  TEXT NOT NULL,
    moves   TEXT NOT NULL,
    judged  TEXT NOT NULL
);
";

/// Version 10: provably fair chance (issue 42). `fair` is the public part of the scheme as
/// core writes it (JSON: the commitment, each draw's contributions, the seed once revealed);
/// `chance_seed` is the seed of a game this device is the authority of, kept secret until the
/// game is over. Games stored before have neither: their rolls are not verifiable.
const V10: &str = "
ALTER TABLE games ADD COLUMN fair TEXT;
ALTER TABLE games ADD COLUMN chance_seed TEXT;
";

/// Version 11: what a player studied of a Xiangqi game (issue 41): its variations and
/// comments, as PGN in coordinates (core's study writer), on the game's row so that the
/// library's triggers send a change to the player's other devices. The game's own moves stay
/// its actions; games stored before have no study (their moves are their one line).
const V11: &str = "
ALTER TABLE games ADD COLUMN study TEXT;
";

/// Version 12: each Xiangqi game's opening (issue 41), as core's table names it (its key:
/// code and Chinese name), and the named lines it passed through on the way, for the history's
/// rows, its filter by class and its search by name. It is derived
/// from the game's moves, so it lives in a table of its own, out of the library's triggers
/// (filling it in sends nothing to the player's other devices); games stored before are
/// named here.
const V12: &str = "
CREATE TABLE game_openings (
    game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    opening TEXT NOT NULL,
    -- Every named line the game passed through, one key a line, the opening last: the
    -- families a search by name finds it under (仙人指路 for any pawn opening).
    line    TEXT NOT NULL
);
CREATE INDEX game_openings_by_opening ON game_openings (opening);
";

/// Version 13: the links this device made to a game's page for anyone (issue 39): the server
/// that shows it, the link's id and, for a game this device uploaded, the key that withdraws
/// it (a correspondence game's link is withdrawn with the seat's token). Kept per device, out
/// of the library's triggers: a link is this device's to withdraw.
const V13: &str = "
CREATE TABLE shares (
    game_id   INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    server    TEXT NOT NULL,
    link      TEXT NOT NULL,
    key       TEXT,
    shared_at INTEGER NOT NULL
);
";

/// Version 14: how many of an uploaded game's actions its page has (the device sends the game
/// again after each change, `PUT /api/shares/{id}`); NULL for a correspondence game's link and
/// for an upload made before, which is sent again once.
const V14: &str = "
ALTER TABLE shares ADD COLUMN sent INTEGER;
";

/// Brings the schema from `from` up to [`SCHEMA_VERSION`].
pub(super) fn migrate(conn: &mut Connection, from: i64) -> Result<(), StoreError> {
    if from >= SCHEMA_VERSION {
        return Ok(());
    }
    // Every step in one transaction: a file that fails at any step (damaged, or not Qiguan's)
    // is left exactly as it was, never half brought up to date.
    let tx = conn.transaction()?;
    for version in from + 1..=SCHEMA_VERSION {
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
            7 => tx.execute_batch(V7)?,
            8 => computer_roles(&tx)?,
            9 => tx.execute_batch(V9)?,
            10 => tx.execute_batch(V10)?,
            11 => tx.execute_batch(V11)?,
            12 => {
                tx.execute_batch(V12)?;
                let ids: Vec<i64> = tx
                    .prepare("SELECT id FROM games WHERE kind = 'xiangqi'")?
                    .query_map([], |r| r.get(0))?
                    .collect::<Result<_, _>>()?;
                for id in ids {
                    super::note_opening(&tx, super::GameId(id))?;
                }
            }
            13 => tx.execute_batch(V13)?,
            14 => tx.execute_batch(V14)?,
            _ => unreachable!("no migration to version {version}"),
        }
        tx.pragma_update(None, "user_version", version)?;
    }
    tx.commit()?;
    Ok(())
}

/// The name games stored before version 8 gave the computer's seats.
const OLD_COMPUTER_NAME: &str = "电脑";

/// Version 8: the computer is a seat's role, named by the screens in their language, not a
/// name. Games stored before kept the name "电脑" on the computer's seats: it is cleared, and
/// a seat so named that neither the game's computers nor its mode mark (a correspondence game
/// whose server computer this device knew by that name only) is marked as the computer's, at
/// the strength games from before computers per seat are read with.
fn computer_roles(tx: &rusqlite::Transaction<'_>) -> Result<(), StoreError> {
    let games: Vec<(i64, String, String, Option<String>)> = tx
        .prepare("SELECT id, mode, players, computers FROM games WHERE instr(players, ?1) > 0")?
        .query_map([OLD_COMPUTER_NAME], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
        })?
        .collect::<Result<_, _>>()?;
    for (id, mode, players, computers) in games {
        let Ok(mut players) = serde_json::from_str::<Vec<String>>(&players) else {
            continue;
        };
        let mut list: Vec<Option<qiguan_core::Strength>> = computers
            .as_deref()
            .and_then(|c| serde_json::from_str(c).ok())
            .unwrap_or_default();
        let mut marked = false;
        for (seat, name) in players.iter_mut().enumerate() {
            if name != OLD_COMPUTER_NAME {
                continue;
            }
            name.clear();
            let known =
                list.get(seat).is_some_and(Option::is_some) || mode == format!("computer:{seat}");
            if !known {
                list.resize(list.len().max(seat + 1), None);
                list[seat] = Some(qiguan_core::Strength::Strong);
                marked = true;
            }
        }
        let players = serde_json::to_string(&players).unwrap_or_else(|_| "[]".into());
        if marked {
            let list = serde_json::to_string(&list).unwrap_or_else(|_| "[]".into());
            tx.execute(
                "UPDATE games SET players = ?2, computers = ?3 WHERE id = ?1",
                params![id, players, list],
            )?;
        } else {
            tx.execute(
                "UPDATE games SET players = ?2 WHERE id = ?1",
                params![id, players],
            )?;
        }
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
        fair: None,
    };
    AnyMatch::from_record(&record).ok()
}
