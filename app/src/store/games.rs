//! Games in the store: created, an action appended (before the UI shows it), taken back,
//! loaded, listed, found by their shared id, deleted; and the columns a list row reads.

use super::*;
use qiguan_core::fair::{Dealer, Fairness};
use qiguan_core::{AnyMatch, GameKind, Record, RecordEntry};
use rusqlite::{Connection, OptionalExtension, params};

impl Store {
    /// Creates a game and returns its id.
    pub fn create_game(&mut self, game: &NewGame, now: i64) -> Result<GameId, StoreError> {
        self.create_game_with(game, &[], &Standing::new(&[], None), now)
    }

    /// Creates a game with its actions already played (an import, or "continue from here"),
    /// in one transaction.
    pub fn create_game_with(
        &mut self,
        game: &NewGame,
        actions: &[RecordEntry],
        standing: &Standing,
        now: i64,
    ) -> Result<GameId, StoreError> {
        // A savepoint, so that bulk loads may wrap many of these in one transaction.
        let tx = self.conn.savepoint()?;
        let players = serde_json::to_string(&game.players).unwrap_or_else(|_| "[]".into());
        tx.execute(
            "INSERT INTO games (kind, mode, options, setup, players, created_at, updated_at,
                                status, result, reason, plies, moves, fair, chance_seed, study)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
            params![
                game.kind.as_str(),
                game.mode.as_str(),
                game.options.to_string(),
                game.setup.to_string(),
                players,
                now,
                standing.status(),
                standing.result(),
                standing.outcome.as_ref().map(|o| o.reason.as_str()),
                standing.plies as i64,
                standing.moves as i64,
                fair_json(game.fair.as_ref()),
                game.chance_seed,
                game.study,
            ],
        )?;
        let id = tx.last_insert_rowid();
        {
            let mut insert = tx.prepare(
                "INSERT INTO actions (game_id, ply, actor, action) VALUES (?1, ?2, ?3, ?4)",
            )?;
            for (ply, entry) in actions.iter().enumerate() {
                insert.execute(params![id, ply as i64, entry.by.to_string(), entry.action])?;
            }
        }
        note_opening(&tx, GameId(id))?;
        tx.commit()?;
        Ok(GameId(id))
    }

    /// Appends one action at `ply` (its index) and the standing after it, in one transaction.
    ///
    /// Refuses a ply that is not the next one: a stale or duplicated write changes nothing.
    pub fn append_action(
        &mut self,
        id: GameId,
        ply: usize,
        entry: &RecordEntry,
        standing: &Standing,
        now: i64,
    ) -> Result<(), StoreError> {
        let tx = self.conn.savepoint()?;
        let stored: Option<i64> = tx
            .query_row("SELECT plies FROM games WHERE id = ?1", [id.0], |r| {
                r.get(0)
            })
            .optional()?;
        match stored {
            None => return Err(StoreError::NoSuchGame(id)),
            Some(n) if n != ply as i64 => {
                return Err(StoreError::Conflict(format!(
                    "game {} has {n} actions stored, cannot add action {ply}",
                    id.0
                )));
            }
            Some(_) => {}
        }
        tx.execute(
            "INSERT INTO actions (game_id, ply, actor, action) VALUES (?1, ?2, ?3, ?4)",
            params![id.0, ply as i64, entry.by.to_string(), entry.action],
        )?;
        update_standing(&tx, id, standing, now)?;
        tx.commit()?;
        Ok(())
    }

    /// Stores the public part of a game's fair chance (its draws so far; the seed once over).
    pub fn set_fair(&mut self, id: GameId, fair: Option<&Fairness>) -> Result<(), StoreError> {
        self.conn.execute(
            // Only a change: an update marks the game for the library to send again.
            "UPDATE games SET fair = ?2 WHERE id = ?1 AND fair IS NOT ?2",
            params![id.0, fair_json(fair)],
        )?;
        Ok(())
    }

    /// Removes the actions from `ply` on (an undo) and stores the standing after that.
    pub fn truncate(
        &mut self,
        id: GameId,
        ply: usize,
        standing: &Standing,
        now: i64,
    ) -> Result<(), StoreError> {
        let tx = self.conn.savepoint()?;
        tx.execute(
            "DELETE FROM actions WHERE game_id = ?1 AND ply >= ?2",
            params![id.0, ply as i64],
        )?;
        update_standing(&tx, id, standing, now)?;
        tx.commit()?;
        Ok(())
    }

    /// Loads a game's record and list row.
    pub fn load(&self, id: GameId) -> Result<StoredGame, StoreError> {
        let (summary, options, setup, fair, chance_seed) = self
            .conn
            .query_row(
                &format!(
                    "SELECT options, setup, fair, chance_seed, {SUMMARY_COLUMNS}
                     FROM games WHERE id = ?1"
                ),
                [id.0],
                |r| {
                    Ok((
                        summary_from_row(r, 4)?,
                        r.get::<_, String>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, Option<String>>(2)?,
                        r.get::<_, Option<String>>(3)?,
                    ))
                },
            )
            .optional()?
            .ok_or(StoreError::NoSuchGame(id))?;
        let summary = summary.map_err(|detail| StoreError::BadRecord { id, detail })?;
        let bad = |detail: String| StoreError::BadRecord { id, detail };
        let mut stmt = self
            .conn
            .prepare_cached("SELECT actor, action FROM actions WHERE game_id = ?1 ORDER BY ply")?;
        let actions = stmt
            .query_map([id.0], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
            })?
            .map(|row| {
                let (actor, action) = row?;
                let by = actor.parse().map_err(bad)?;
                Ok(RecordEntry { by, action })
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        let record = Record {
            format: qiguan_core::RECORD_FORMAT,
            game: summary.kind,
            options: serde_json::from_str(&options).map_err(|e| bad(e.to_string()))?,
            setup: serde_json::from_str(&setup).map_err(|e| bad(e.to_string()))?,
            actions,
            fair: match fair {
                Some(text) => Some(serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?),
                None => None,
            },
        };
        Ok(StoredGame {
            summary,
            record,
            chance_seed,
        })
    }

    /// Returns unfinished games, most recently played first.
    pub fn unfinished(&self, limit: usize) -> Result<Vec<GameSummary>, StoreError> {
        let filter = HistoryFilter {
            result: Some(ResultFilter::Unfinished),
            ..HistoryFilter::default()
        };
        let ids = self.history_ids(&filter)?;
        let ids: Vec<GameId> = ids.into_iter().take(limit).collect();
        self.summaries(&ids)
    }

    /// Returns the list rows of these games, in the order asked (missing ids are skipped).
    pub fn summaries(&self, ids: &[GameId]) -> Result<Vec<GameSummary>, StoreError> {
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT {SUMMARY_COLUMNS} FROM games WHERE id = ?1"
        ))?;
        let mut out = Vec::with_capacity(ids.len());
        for &id in ids {
            if let Some(row) = stmt
                .query_row([id.0], |r| summary_from_row(r, 0))
                .optional()?
            {
                out.push(row.map_err(|detail| StoreError::BadRecord { id, detail })?);
            }
        }
        Ok(out)
    }

    /// The game's uid: its name on every device of a library (schema 7).
    pub fn uid(&self, id: GameId) -> Result<String, StoreError> {
        self.conn
            .query_row("SELECT uid FROM games WHERE id = ?1", [id.0], |r| r.get(0))
            .optional()?
            .ok_or(StoreError::NoSuchGame(id))
    }

    /// The game a uid names on this device, if it has it.
    pub fn by_uid(&self, uid: &str) -> Result<Option<GameId>, StoreError> {
        Ok(self
            .conn
            .query_row("SELECT id FROM games WHERE uid = ?1", [uid], |r| {
                r.get(0).map(GameId)
            })
            .optional()?)
    }

    /// Deletes a game and its actions.
    pub fn delete(&mut self, id: GameId) -> Result<(), StoreError> {
        let n = self
            .conn
            .execute("DELETE FROM games WHERE id = ?1", [id.0])?;
        if n == 0 {
            return Err(StoreError::NoSuchGame(id));
        }
        Ok(())
    }
}

const SUMMARY_COLUMNS: &str = "id, kind, mode, players, created_at, updated_at, plies, result,
    reason, moves, computers, (SELECT seat FROM remote_games WHERE game_id = games.id),
    (SELECT opening FROM game_openings WHERE game_id = games.id)";

type SummaryResult = Result<GameSummary, String>;

/// Reads a list row from [`SUMMARY_COLUMNS`], which start at column `at`.
fn summary_from_row(r: &rusqlite::Row<'_>, at: usize) -> rusqlite::Result<SummaryResult> {
    let kind: String = r.get(at + 1)?;
    let players: String = r.get(at + 3)?;
    let Some(kind) = parse_kind(&kind) else {
        return Ok(Err(format!("unknown game {kind:?}")));
    };
    Ok(Ok(GameSummary {
        id: GameId(r.get(at)?),
        kind,
        mode: Mode::parse(&r.get::<_, String>(at + 2)?),
        players: serde_json::from_str(&players).unwrap_or_default(),
        created_at: r.get(at + 4)?,
        updated_at: r.get(at + 5)?,
        plies: r.get::<_, i64>(at + 6)?.max(0) as usize,
        result: r.get(at + 7)?,
        reason: r.get(at + 8)?,
        moves: r.get::<_, i64>(at + 9)?.max(0) as usize,
        computers: r
            .get::<_, Option<String>>(at + 10)?
            .and_then(|text| serde_json::from_str(&text).ok())
            .unwrap_or_default(),
        remote_seat: r
            .get::<_, Option<i64>>(at + 11)?
            .and_then(|seat| u8::try_from(seat).ok()),
        opening: r.get(at + 12)?,
    }))
}

/// The most actions read to name a game's opening: the table's longest line, with room for
/// draw offers among its moves.
const OPENING_ACTIONS: usize = 64;

/// A game's first actions, as many as an opening can take.
fn opening_actions(conn: &Connection, id: GameId) -> Result<Vec<RecordEntry>, StoreError> {
    let mut stmt = conn.prepare_cached(
        "SELECT actor, action FROM actions WHERE game_id = ?1 ORDER BY ply LIMIT ?2",
    )?;
    let actions = stmt
        .query_map(params![id.0, OPENING_ACTIONS as i64], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
        })?
        .filter_map(|row| {
            let (actor, action) = row.ok()?;
            Some(RecordEntry {
                by: actor.parse().ok()?,
                action,
            })
        })
        .collect();
    Ok(actions)
}

/// Names a Xiangqi game's opening from its first moves as stored, keeping it in
/// `game_openings` (nothing for another game, or for a game no named line begins).
pub(crate) fn note_opening(conn: &Connection, id: GameId) -> Result<(), StoreError> {
    let row: Option<(String, String, String)> = conn
        .query_row(
            "SELECT kind, options, setup FROM games WHERE id = ?1",
            [id.0],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .optional()?;
    let Some((kind, options, setup)) = row else {
        return Ok(());
    };
    if parse_kind(&kind) != Some(GameKind::Xiangqi) {
        return Ok(());
    }
    let actions = opening_actions(conn, id)?;
    let record = (|| {
        Some(Record {
            format: qiguan_core::RECORD_FORMAT,
            game: GameKind::Xiangqi,
            options: serde_json::from_str(&options).ok()?,
            setup: serde_json::from_str(&setup).ok()?,
            actions,
            fair: None,
        })
    })();
    let line: Vec<String> = match record.map(|r| AnyMatch::from_record(&r)) {
        Some(Ok(AnyMatch::Xiangqi(game))) => {
            let state = game.game();
            qiguan_core::xiangqi::opening::opening_line(state.start_position(), state.moves())
                .iter()
                .map(|o| o.key())
                .collect()
        }
        _ => Vec::new(),
    };
    match line.last() {
        Some(key) => conn.execute(
            "INSERT INTO game_openings (game_id, opening, line) VALUES (?1, ?2, ?3)
             ON CONFLICT (game_id) DO UPDATE SET opening = excluded.opening,
                                                 line = excluded.line
             WHERE line IS NOT excluded.line",
            // Each key on a line of its own, so that a whole key is found (`\nKEY\n`).
            params![id.0, key, format!("\n{}\n", line.join("\n"))],
        )?,
        None => conn.execute("DELETE FROM game_openings WHERE game_id = ?1", [id.0])?,
    };
    Ok(())
}

pub(super) fn update_standing(
    tx: &Connection,
    id: GameId,
    standing: &Standing,
    now: i64,
) -> Result<(), StoreError> {
    let n = tx.execute(
        "UPDATE games SET plies = ?2, status = ?3, result = ?4, reason = ?5, updated_at = ?6,
                          moves = ?7
         WHERE id = ?1",
        params![
            id.0,
            standing.plies as i64,
            standing.status(),
            standing.result(),
            standing.outcome.as_ref().map(|o| o.reason.as_str()),
            now,
            standing.moves as i64,
        ],
    )?;
    if n == 0 {
        return Err(StoreError::NoSuchGame(id));
    }
    note_opening(tx, id)
}

/// Returns the game kind for its stored name.
pub fn parse_kind(text: &str) -> Option<GameKind> {
    serde_json::from_value(serde_json::Value::String(text.to_owned())).ok()
}

/// Replays a stored game, for resuming it: the authority's own match again where this device
/// deals and rolls for it.
pub fn replay(game: &StoredGame) -> Result<AnyMatch, StoreError> {
    let bad = |detail: String| StoreError::BadRecord {
        id: game.summary.id,
        detail,
    };
    let mut replayed = AnyMatch::from_record(&game.record).map_err(|e| bad(e.to_string()))?;
    if let Some(seed) = &game.chance_seed {
        replayed
            .deal_with(Dealer::from_hex(seed).map_err(bad)?)
            .map_err(bad)?;
    }
    Ok(replayed)
}

/// A game's fair chance as stored: core's JSON.
fn fair_json(fair: Option<&Fairness>) -> Option<String> {
    fair.and_then(|f| serde_json::to_string(f).ok())
}
