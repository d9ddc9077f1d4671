//! What the statistics screen reads of the history: every finished game, with its kind, mode,
//! players, result and this device's seat.

use super::{Mode, Store, StoreError, parse_kind};
use qiguan_core::{GameKind, Strength};
use rusqlite::params;

/// A finished game as statistics need it.
#[derive(Clone, Debug, PartialEq)]
pub struct FinishedGame {
    pub kind: GameKind,
    pub mode: Mode,
    pub players: Vec<String>,
    /// `win:N` or `draw`.
    pub result: String,
    /// When it ended (its last action), Unix milliseconds.
    pub ended_at: i64,
    /// Each seat's computer player, `None` for a person; empty when not kept.
    pub computers: Vec<Option<Strength>>,
    /// This device's seat in a correspondence game.
    pub remote_seat: Option<u8>,
}

impl Store {
    /// Every finished game, with what statistics need to know of it.
    pub fn finished_games(&self) -> Result<Vec<FinishedGame>, StoreError> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT g.kind, g.mode, g.players, g.result, g.updated_at, g.computers, r.seat
             FROM games g LEFT JOIN remote_games r ON r.game_id = g.id
             WHERE g.status != 'ongoing' AND g.result IS NOT NULL
             ORDER BY g.updated_at",
        )?;
        let rows = stmt.query_map(params![], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, i64>(4)?,
                r.get::<_, Option<String>>(5)?,
                r.get::<_, Option<i64>>(6)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (kind, mode, players, result, ended_at, computers, seat) = row?;
            // A game of a kind this version does not know is left out, not an error.
            let Some(kind) = parse_kind(&kind) else {
                continue;
            };
            out.push(FinishedGame {
                kind,
                mode: Mode::parse(&mode),
                players: serde_json::from_str(&players).unwrap_or_default(),
                result,
                ended_at,
                computers: computers
                    .and_then(|c| serde_json::from_str(&c).ok())
                    .unwrap_or_default(),
                remote_seat: seat.and_then(|s| u8::try_from(s).ok()),
            });
        }
        Ok(out)
    }
}
