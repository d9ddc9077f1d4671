//! Applying a library entry from another device to the store: a game as that device last wrote
//! it, merged with what this device holds (its actions kept where they go further, its studies
//! joined), inserted or replaced in one transaction.

use super::StoreError;
use super::*;
use rusqlite::{OptionalExtension, Transaction, params};

/// What applying an item did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Applied {
    /// This device now holds it as read.
    Taken,
    /// This device's own change since its last write stays (and will be written over it).
    KeptOurs,
    /// Both sides played the game from the same point: this device's line became a copy.
    Forked,
    /// A game that does not read as one here (damaged, written by a hostile device, or of a
    /// newer version): nothing of it was taken.
    Refused,
}

/// Applies an item read from the library, inside the caller's transaction.
pub fn apply(tx: &Transaction<'_>, item: &Item) -> Result<Applied, StoreError> {
    let name = item.name();
    let ours = mark(tx, &name)?.is_some();
    let applied = match item {
        Item::Deleted { uid } => {
            tx.execute("DELETE FROM games WHERE uid = ?1", [uid])?;
            Applied::Taken
        }
        Item::Setting { key, value } => {
            if !shared_setting(key) {
                return Ok(Applied::KeptOurs);
            }
            if ours {
                Applied::KeptOurs
            } else {
                match value {
                    Some(v) => tx.execute(
                        "INSERT INTO settings (key, value) VALUES (?1, ?2)
                         ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                        params![key, v],
                    )?,
                    None => tx.execute("DELETE FROM settings WHERE key = ?1", [key])?,
                };
                Applied::Taken
            }
        }
        Item::Game(theirs) => {
            if readable(theirs).is_err() {
                return Ok(Applied::Refused);
            }
            apply_game(tx, theirs, ours)?
        }
    };
    if applied != Applied::KeptOurs {
        // What this device holds is now what the library holds: nothing of it to send.
        unmark(tx, &name)?;
    }
    Ok(applied)
}

/// Whether a game from another device reads as a game here, as the history and the game
/// screens will read it: a game this version knows, its options, setup and fair chance as
/// JSON, actors it can read, a record that replays (with its dealer's seed, where it has
/// one), and a correspondence game's kept view. Else why not.
pub fn readable(g: &GameSnapshot) -> Result<(), String> {
    let kind = crate::store::parse_kind(&g.kind).ok_or_else(|| format!("no game {:?}", g.kind))?;
    let json = |what: &str, text: &str| {
        serde_json::from_str::<serde_json::Value>(text).map_err(|e| format!("its {what}: {e}"))
    };
    let actions = g
        .actions
        .iter()
        .map(|(actor, action)| {
            Ok(qiguan_core::RecordEntry {
                by: actor.parse()?,
                action: action.clone(),
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    let record = qiguan_core::Record {
        format: qiguan_core::RECORD_FORMAT,
        game: kind,
        options: json("options", &g.options)?,
        setup: json("setup", &g.setup)?,
        actions,
        fair: match &g.fair {
            Some(text) => {
                Some(serde_json::from_str(text).map_err(|e| format!("its fairness: {e}"))?)
            }
            None => None,
        },
    };
    let mut game = qiguan_core::AnyMatch::from_record(&record).map_err(|e| e.to_string())?;
    if let Some(seed) = &g.chance_seed {
        game.deal_with(qiguan_core::fair::Dealer::from_hex(seed)?)
            .map_err(|e| e.to_string())?;
    }
    if let Some(view) = g.remote.as_ref().and_then(|r| r.seat_view.as_deref()) {
        serde_json::from_str::<crate::sync::ServerView>(view)
            .map_err(|e| format!("its kept view: {e}"))?;
    }
    Ok(())
}

fn local_game(tx: &Transaction<'_>, uid: &str) -> Result<Option<(i64, bool)>, StoreError> {
    Ok(tx
        .query_row(
            "SELECT id, EXISTS (SELECT 1 FROM remote_games WHERE game_id = games.id)
             FROM games WHERE uid = ?1",
            [uid],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?)
}

fn local_actions(tx: &Transaction<'_>, id: i64) -> Result<Vec<(String, String)>, StoreError> {
    Ok(tx
        .prepare_cached("SELECT actor, action FROM actions WHERE game_id = ?1 ORDER BY ply")?
        .query_map([id], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?)
}

fn apply_game(
    tx: &Transaction<'_>,
    theirs: &GameSnapshot,
    ours_changed: bool,
) -> Result<Applied, StoreError> {
    let Some((id, remote)) = local_game(tx, &theirs.uid)? else {
        insert_game(tx, theirs)?;
        return Ok(Applied::Taken);
    };
    let our_study: Option<String> =
        tx.query_row("SELECT study FROM games WHERE id = ?1", [id], |r| r.get(0))?;
    let applied = apply_record(tx, id, remote, theirs, ours_changed)?;
    if !ours_changed || applied == Applied::Forked || our_study == theirs.study {
        return Ok(applied);
    }
    // Both sides studied the same game: each keeps every line and comment of the other.
    let merged = merge_studies(our_study.as_deref(), theirs.study.as_deref());
    tx.execute(
        "UPDATE games SET study = ?2 WHERE id = ?1 AND study IS NOT ?2",
        params![id, merged],
    )?;
    // What this device holds now is not what the library holds: it is to be sent.
    Ok(if merged == theirs.study {
        applied
    } else {
        Applied::KeptOurs
    })
}

/// Two studies of one game, merged (see [`qiguan_core::xiangqi::study::Study::merge`]):
/// theirs first, then the lines and comments only ours has. One that cannot be read gives
/// way to the other.
pub fn merge_studies(ours: Option<&str>, theirs: Option<&str>) -> Option<String> {
    use qiguan_core::xiangqi::pgn::MoveFormat;
    use qiguan_core::xiangqi::pgn_study::{read_study_pgn, write_study_pgn};
    let read = |text: Option<&str>| text.and_then(|t| read_study_pgn(t).ok());
    match (read(ours), read(theirs)) {
        (Some(ours), Some(mut merged)) => {
            merged.merge(&ours);
            Some(write_study_pgn(&merged, MoveFormat::Coordinates))
        }
        (Some(_), None) => ours.map(str::to_owned),
        (None, _) => theirs.map(str::to_owned),
    }
}

/// Applies the record of a game this device holds too (see the module's rules).
fn apply_record(
    tx: &Transaction<'_>,
    id: i64,
    remote: bool,
    theirs: &GameSnapshot,
    ours_changed: bool,
) -> Result<Applied, StoreError> {
    let mine = local_actions(tx, id)?;
    if remote {
        // The game server holds the record: take the longer one unless moves wait here.
        let queued: i64 = tx.query_row(
            "SELECT count(*) FROM outbox WHERE game_id = ?1",
            [id],
            |r| r.get(0),
        )?;
        if queued == 0 && theirs.actions.len() > mine.len() {
            replace_game(tx, id, theirs)?;
            return Ok(Applied::Taken);
        }
        return Ok(if ours_changed {
            Applied::KeptOurs
        } else {
            Applied::Taken
        });
    }
    if !ours_changed || mine == theirs.actions {
        replace_game(tx, id, theirs)?;
        return Ok(Applied::Taken);
    }
    if mine.starts_with(&theirs.actions) {
        return Ok(Applied::KeptOurs);
    }
    if theirs.actions.starts_with(&mine) {
        replace_game(tx, id, theirs)?;
        return Ok(Applied::Taken);
    }
    // Played from the same point on two devices: ours moves to a new uid (the trigger marks it
    // to be sent), theirs takes the game's place.
    tx.execute(
        "UPDATE games SET uid = lower(hex(randomblob(16))) WHERE id = ?1",
        [id],
    )?;
    insert_game(tx, theirs)?;
    Ok(Applied::Forked)
}

fn insert_game(tx: &Transaction<'_>, g: &GameSnapshot) -> Result<(), StoreError> {
    tx.execute(
        "INSERT INTO games (uid, kind, mode, options, setup, players, created_at, updated_at,
                            status, result, reason, plies, moves, computers, fair, chance_seed,
                            study)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)",
        params![
            g.uid,
            g.kind,
            g.mode,
            g.options,
            g.setup,
            g.players,
            g.created_at,
            g.updated_at,
            g.status,
            g.result,
            g.reason,
            g.plies,
            g.moves,
            g.computers,
            g.fair,
            g.chance_seed,
            g.study
        ],
    )?;
    let id = tx.last_insert_rowid();
    insert_actions(tx, id, &g.actions)?;
    if let Some(r) = &g.remote {
        tx.execute(
            "INSERT INTO remote_games (game_id, server, remote_id, seat, token, invite_code,
                                       days_per_move, deadline, your_turn, seat_view)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            params![
                id,
                r.server,
                r.remote_id,
                r.seat,
                r.token,
                r.invite_code,
                r.days_per_move,
                r.deadline,
                r.your_turn,
                r.seat_view
            ],
        )?;
    }
    Ok(())
}

fn insert_actions(
    tx: &Transaction<'_>,
    id: i64,
    actions: &[(String, String)],
) -> Result<(), StoreError> {
    let mut insert = tx.prepare_cached(
        "INSERT INTO actions (game_id, ply, actor, action) VALUES (?1, ?2, ?3, ?4)",
    )?;
    for (ply, (actor, action)) in actions.iter().enumerate() {
        insert.execute(params![id, ply as i64, actor, action])?;
    }
    crate::store::note_opening(tx, crate::store::GameId(id))
}

fn replace_game(tx: &Transaction<'_>, id: i64, g: &GameSnapshot) -> Result<(), StoreError> {
    tx.execute(
        "UPDATE games SET kind = ?2, mode = ?3, options = ?4, setup = ?5, players = ?6,
                          created_at = ?7, updated_at = ?8, status = ?9, result = ?10,
                          reason = ?11, plies = ?12, moves = ?13, computers = ?14,
                          fair = ?15, chance_seed = ?16, study = ?17
         WHERE id = ?1",
        params![
            id,
            g.kind,
            g.mode,
            g.options,
            g.setup,
            g.players,
            g.created_at,
            g.updated_at,
            g.status,
            g.result,
            g.reason,
            g.plies,
            g.moves,
            g.computers,
            g.fair,
            g.chance_seed,
            g.study
        ],
    )?;
    tx.execute("DELETE FROM actions WHERE game_id = ?1", [id])?;
    insert_actions(tx, id, &g.actions)?;
    if let Some(r) = &g.remote {
        // The binding never changes; what was last heard of the game may.
        tx.execute(
            "UPDATE remote_games SET deadline = ?2, your_turn = ?3,
                    seat_view = coalesce(?4, seat_view)
             WHERE game_id = ?1",
            params![id, r.deadline, r.your_turn, r.seat_view],
        )?;
    }
    Ok(())
}
