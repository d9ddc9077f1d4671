//! What a player studied of a game: its variations and comments, kept as the replay hands
//! them over (core's study PGN); what they mean is the replay's.

use super::{GameId, Store, StoreError};
use rusqlite::params;

impl Store {
    /// Keeps a game's study in place of the one kept before (`None` forgets it). Only a
    /// change is written: a write marks the game for the library to send again.
    pub fn set_study(&mut self, id: GameId, study: Option<&str>) -> Result<(), StoreError> {
        let changed = self.conn.execute(
            "UPDATE games SET study = ?2 WHERE id = ?1 AND study IS NOT ?2",
            params![id.0, study],
        )?;
        if changed == 0 && !self.exists(id)? {
            return Err(StoreError::NoSuchGame(id));
        }
        Ok(())
    }

    /// Returns the study kept for a game, if there is one.
    pub fn study(&self, id: GameId) -> Result<Option<String>, StoreError> {
        self.conn
            .query_row("SELECT study FROM games WHERE id = ?1", [id.0], |r| {
                r.get(0)
            })
            .map_err(|e| match e {
                rusqlite::Error::QueryReturnedNoRows => StoreError::NoSuchGame(id),
                e => e.into(),
            })
    }

    fn exists(&self, id: GameId) -> Result<bool, StoreError> {
        Ok(self.conn.query_row(
            "SELECT EXISTS (SELECT 1 FROM games WHERE id = ?1)",
            [id.0],
            |r| r.get(0),
        )?)
    }
}
