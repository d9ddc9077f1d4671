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
    /// For a game this device uploaded, the key that withdraws the link; none for a
    /// correspondence game's (the seat's token withdraws it).
    pub key: Option<String>,
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
                 shared_at = excluded.shared_at",
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

    /// Forgets a game's link (it was withdrawn).
    pub fn forget_share(&mut self, id: GameId) -> Result<(), StoreError> {
        self.conn
            .execute("DELETE FROM shares WHERE game_id = ?1", [id.0])?;
        Ok(())
    }
}
