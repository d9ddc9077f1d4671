//! The preset phrases of correspondence games: those heard from the server, numbered as the
//! server numbers them, and those said on this device and waiting to be sent.

use super::{GameId, Store, StoreError};
use rusqlite::{OptionalExtension, params};

/// A phrase as a game screen shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Phrase {
    /// The seat that said it.
    pub seat: u8,
    /// Its code (core's `phrase::PHRASES`).
    pub phrase: String,
    /// When it was said (the server's time once heard back), Unix ms.
    pub at: i64,
    /// Whether the server has it (a phrase said here may still wait to be sent).
    pub sent: bool,
}

/// A phrase said here and not yet acknowledged by the server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueuedPhrase {
    /// Its row.
    pub id: i64,
    pub game_id: GameId,
    pub phrase: String,
    /// The id that makes a resend harmless.
    pub client_id: String,
}

impl Store {
    /// Keeps a phrase this device's seat says, to be sent by the next flush.
    pub fn queue_phrase(
        &mut self,
        id: GameId,
        seat: u8,
        phrase: &str,
        client_id: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        self.conn.execute(
            "INSERT INTO phrases (game_id, seat, phrase, client_id, at) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![id.0, seat, phrase, client_id, now],
        )?;
        Ok(())
    }

    /// Returns the phrases waiting to be sent, oldest first.
    pub fn queued_phrases(&self) -> Result<Vec<QueuedPhrase>, StoreError> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT id, game_id, phrase, client_id FROM phrases
             WHERE seq IS NULL AND client_id IS NOT NULL ORDER BY id",
        )?;
        let rows = stmt
            .query_map([], |r| {
                Ok(QueuedPhrase {
                    id: r.get(0)?,
                    game_id: GameId(r.get(1)?),
                    phrase: r.get(2)?,
                    client_id: r.get(3)?,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(rows)
    }

    /// Marks a queued phrase as the server's number `seq`. If that number was already heard
    /// back (an answer lost, then the phrase seen in a view), the queued copy goes.
    pub fn phrase_sent(&mut self, row: i64, seq: usize) -> Result<(), StoreError> {
        self.in_transaction(|s| {
            let game: Option<i64> = s
                .conn
                .query_row("SELECT game_id FROM phrases WHERE id = ?1", [row], |r| {
                    r.get(0)
                })
                .optional()?;
            let Some(game) = game else { return Ok(()) };
            let heard: bool = s.conn.query_row(
                "SELECT count(*) > 0 FROM phrases WHERE game_id = ?1 AND seq = ?2",
                params![game, seq as i64],
                |r| r.get(0),
            )?;
            if heard {
                s.conn.execute("DELETE FROM phrases WHERE id = ?1", [row])?;
            } else {
                s.conn.execute(
                    "UPDATE phrases SET seq = ?2 WHERE id = ?1",
                    params![row, seq as i64],
                )?;
            }
            Ok(())
        })
    }

    /// Drops a queued phrase the server refused.
    pub fn drop_phrase(&mut self, row: i64) -> Result<(), StoreError> {
        self.conn
            .execute("DELETE FROM phrases WHERE id = ?1", [row])?;
        Ok(())
    }

    /// Keeps the phrases a server view carries (`(seq, seat, phrase, at)`); returns those
    /// not heard before, in order.
    pub fn hear_phrases(
        &mut self,
        id: GameId,
        said: &[(usize, u8, String, i64)],
    ) -> Result<Vec<Phrase>, StoreError> {
        self.in_transaction(|s| {
            let mut new = Vec::new();
            for (seq, seat, phrase, at) in said {
                let n = s.conn.execute(
                    "INSERT OR IGNORE INTO phrases (game_id, seq, seat, phrase, at)
                     VALUES (?1, ?2, ?3, ?4, ?5)",
                    params![id.0, *seq as i64, seat, phrase, at],
                )?;
                if n == 1 {
                    new.push(Phrase {
                        seat: *seat,
                        phrase: phrase.clone(),
                        at: *at,
                        sent: true,
                    });
                }
            }
            Ok(new)
        })
    }

    /// The number of the newest phrase heard from the server (0 when none): what a long poll
    /// waits past.
    pub fn said_count(&self, id: GameId) -> Result<usize, StoreError> {
        let n: Option<i64> = self.conn.query_row(
            "SELECT max(seq) FROM phrases WHERE game_id = ?1",
            [id.0],
            |r| r.get(0),
        )?;
        Ok(n.unwrap_or(0).max(0) as usize)
    }

    /// The newest `limit` phrases of a game, oldest first: heard ones in the server's order,
    /// then those still waiting to be sent.
    pub fn phrases(&self, id: GameId, limit: usize) -> Result<Vec<Phrase>, StoreError> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT seat, phrase, at, seq IS NOT NULL FROM phrases WHERE game_id = ?1
             ORDER BY seq IS NULL DESC, seq DESC, id DESC LIMIT ?2",
        )?;
        let mut rows = stmt
            .query_map(params![id.0, limit as i64], |r| {
                Ok(Phrase {
                    seat: r.get(0)?,
                    phrase: r.get(1)?,
                    at: r.get(2)?,
                    sent: r.get(3)?,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        rows.reverse();
        Ok(rows)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Mode, NewGame};
    use super::*;

    fn store_with_game() -> (tempfile::TempDir, Store, GameId) {
        let dir = tempfile::tempdir().expect("dir");
        let mut store = Store::open_dir(dir.path()).expect("store");
        let record = qiguan_core::AnyMatch::new(
            qiguan_core::GameKind::Xiangqi,
            &serde_json::Value::Null,
            &serde_json::Value::Null,
        )
        .expect("game")
        .record();
        let new = NewGame::from_record(&record, Mode::Correspondence, vec!["a".into(), "b".into()]);
        let id = store.create_game(&new, 0).expect("create");
        (dir, store, id)
    }

    #[test]
    fn phrases_heard_once_said_ones_wait_then_take_the_servers_number() {
        let (_dir, mut store, id) = store_with_game();
        store.queue_phrase(id, 0, "hello", "c1", 5).expect("queue");
        let heard = store
            .hear_phrases(id, &[(1, 1, "good-move".into(), 10)])
            .expect("hear");
        assert_eq!(heard.len(), 1);
        // The same view again brings nothing new.
        let again = store
            .hear_phrases(id, &[(1, 1, "good-move".into(), 10)])
            .expect("hear");
        assert!(again.is_empty());
        assert_eq!(store.said_count(id).expect("count"), 1);
        let shown = store.phrases(id, 10).expect("list");
        let codes: Vec<(&str, bool)> = shown.iter().map(|p| (p.phrase.as_str(), p.sent)).collect();
        assert_eq!(codes, [("good-move", true), ("hello", false)]);

        let queued = store.queued_phrases().expect("queued");
        assert_eq!(queued.len(), 1);
        store.phrase_sent(queued[0].id, 2).expect("sent");
        assert!(store.queued_phrases().expect("queued").is_empty());
        assert_eq!(store.said_count(id).expect("count"), 2);
        // Heard back in a view after the answer: kept once.
        let heard = store
            .hear_phrases(
                id,
                &[(1, 1, "good-move".into(), 10), (2, 0, "hello".into(), 12)],
            )
            .expect("hear");
        assert!(heard.is_empty());
        assert_eq!(store.phrases(id, 10).expect("list").len(), 2);
    }

    #[test]
    fn a_phrase_heard_back_before_its_answer_is_kept_once() {
        let (_dir, mut store, id) = store_with_game();
        store.queue_phrase(id, 0, "thanks", "c1", 5).expect("queue");
        // The answer was lost; a view already holds the phrase as number 1.
        store
            .hear_phrases(id, &[(1, 0, "thanks".into(), 9)])
            .expect("hear");
        let row = store.queued_phrases().expect("queued")[0].id;
        // The resend's answer names the same number: the queued copy goes.
        store.phrase_sent(row, 1).expect("sent");
        let shown = store.phrases(id, 10).expect("list");
        assert_eq!(shown.len(), 1);
        assert!(shown[0].sent);
        // The newest come last, and a limit keeps the newest.
        for seq in 2..=6 {
            store
                .hear_phrases(id, &[(seq, 1, format!("p{seq}"), seq as i64)])
                .expect("hear");
        }
        let last: Vec<String> = store
            .phrases(id, 3)
            .expect("list")
            .into_iter()
            .map(|p| p.phrase)
            .collect();
        assert_eq!(last, ["p4", "p5", "p6"]);
    }
}
