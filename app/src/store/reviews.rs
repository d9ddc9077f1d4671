//! The engine's reviews of games, kept so that a game reopened in replay shows them at once.
//! The store keeps them as the replay hands them over; what they mean is the replay's.

use super::{GameId, Store, StoreError};
use rusqlite::{OptionalExtension, params};

/// A game's kept review.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeptReview {
    /// Which review it is (the engine and how hard it looked).
    pub engine: String,
    /// The moves it judged, as the replay writes them.
    pub moves: String,
    /// Each position's judgement, as the replay writes them.
    pub judged: String,
}

impl Store {
    /// Keeps a game's review in place of the one kept before.
    pub fn keep_review(&mut self, id: GameId, review: &KeptReview) -> Result<(), StoreError> {
        self.conn.execute(
            "INSERT INTO reviews (game_id, engine, moves, judged) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT (game_id) DO UPDATE
             SET engine = excluded.engine, moves = excluded.moves, judged = excluded.judged",
            params![id.0, review.engine, review.moves, review.judged],
        )?;
        Ok(())
    }

    /// Returns the review kept for a game, if there is one.
    pub fn kept_review(&self, id: GameId) -> Result<Option<KeptReview>, StoreError> {
        Ok(self
            .conn
            .query_row(
                "SELECT engine, moves, judged FROM reviews WHERE game_id = ?1",
                [id.0],
                |r| {
                    Ok(KeptReview {
                        engine: r.get(0)?,
                        moves: r.get(1)?,
                        judged: r.get(2)?,
                    })
                },
            )
            .optional()?)
    }
}
