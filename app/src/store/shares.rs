//! The links this device made to games' pages for anyone (`/g/{link}` on a server): kept so
//! that sharing a game again shows the same link, and so that the player can withdraw it.

use super::{GameId, Store, StoreError};
use rusqlite::{OptionalExtension, params};

/// A game's page link, as this device made it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeptShare {
    /// The server's base URL.
    pub server: String,
    /// The link's id: the page is `{server}/g/{link}`.
    pub link: String,
    /// For a game this device uploaded, the key that withdraws the link and sends the game
    /// again; none for a correspondence game's (the seat's token withdraws it).
    pub key: Option<String>,
}

/// A game this device uploaded that changed since its page last had it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChangedUpload {
    pub id: GameId,
    pub share: KeptShare,
    /// How many actions the game has now (note them sent once its page has them).
    pub actions: usize,
}

impl KeptShare {
    /// The page's address.
    pub fn url(&self) -> String {
        format!("{}/g/{}", self.server.trim_end_matches('/'), self.link)
    }
}

impl Store {
    /// Keeps a game's link in place of any kept before.
    pub fn keep_share(
        &mut self,
        id: GameId,
        share: &KeptShare,
        now: i64,
    ) -> Result<(), StoreError> {
        self.conn.execute(
            "INSERT INTO shares (game_id, server, link, key, shared_at) VALUES (?1, ?2, ?3, ?4, ?5)
             ON CONFLICT (game_id) DO UPDATE
             SET server = excluded.server, link = excluded.link, key = excluded.key,
                 shared_at = excluded.shared_at, sent = NULL",
            params![id.0, share.server, share.link, share.key, now],
        )?;
        Ok(())
    }

    /// The link kept for a game, if there is one.
    pub fn kept_share(&self, id: GameId) -> Result<Option<KeptShare>, StoreError> {
        Ok(self
            .conn
            .query_row(
                "SELECT server, link, key FROM shares WHERE game_id = ?1",
                [id.0],
                |r| {
                    Ok(KeptShare {
                        server: r.get(0)?,
                        link: r.get(1)?,
                        key: r.get(2)?,
                    })
                },
            )
            .optional()?)
    }

    /// The games this device uploaded whose pages lack their newest actions (or may: an
    /// upload made before the app counted them).
    pub fn changed_uploads(&self) -> Result<Vec<ChangedUpload>, StoreError> {
        let mut stmt = self.conn.prepare(
            "SELECT game_id, server, link, key, n FROM (
                 SELECT s.game_id, s.server, s.link, s.key, s.sent,
                        (SELECT COUNT(*) FROM actions a WHERE a.game_id = s.game_id) AS n
                 FROM shares s WHERE s.key IS NOT NULL)
             WHERE sent IS NULL OR sent <> n
             ORDER BY game_id",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok(ChangedUpload {
                id: GameId(r.get(0)?),
                share: KeptShare {
                    server: r.get(1)?,
                    link: r.get(2)?,
                    key: r.get(3)?,
                },
                actions: r.get::<_, i64>(4)? as usize,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// How many actions a game has (what [`Store::note_sent`] counts).
    pub fn action_count(&self, id: GameId) -> Result<usize, StoreError> {
        let n: i64 = self.conn.query_row(
            "SELECT COUNT(*) FROM actions WHERE game_id = ?1",
            [id.0],
            |r| r.get(0),
        )?;
        Ok(n as usize)
    }

    /// Notes that an uploaded game's page has its first `actions` actions.
    pub fn note_sent(&mut self, id: GameId, actions: usize) -> Result<(), StoreError> {
        self.conn.execute(
            "UPDATE shares SET sent = ?2 WHERE game_id = ?1",
            params![id.0, actions as i64],
        )?;
        Ok(())
    }

    /// Forgets a game's link (it was withdrawn).
    pub fn forget_share(&mut self, id: GameId) -> Result<(), StoreError> {
        self.conn
            .execute("DELETE FROM shares WHERE game_id = ?1", [id.0])?;
        Ok(())
    }
}
