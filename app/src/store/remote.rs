//! Correspondence games in the store: the server link of a game, its outbox of actions
//! not yet acknowledged, and the seat view of a game with secrets.

use super::games::update_standing;
use super::*;
use qiguan_core::RecordEntry;
use qiguan_core::Strength;
use rusqlite::{OptionalExtension, params};

impl Store {
    /// Stores a new correspondence game with the actions the server already has.
    pub fn create_remote_game(
        &mut self,
        game: &NewGame,
        remote: &RemoteGame,
        actions: &[RecordEntry],
        standing: &Standing,
        now: i64,
    ) -> Result<GameId, StoreError> {
        self.create_remote_game_with_view(game, remote, actions, standing, None, now)
    }

    /// Stores a new correspondence game; a game with secrets comes with the server's view of
    /// it (see [`Store::seat_view`]) in place of actions.
    pub fn create_remote_game_with_view(
        &mut self,
        game: &NewGame,
        remote: &RemoteGame,
        actions: &[RecordEntry],
        standing: &Standing,
        seat_view: Option<&str>,
        now: i64,
    ) -> Result<GameId, StoreError> {
        self.in_transaction(|s| {
            let id = s.create_game_with(game, actions, standing, now)?;
            s.conn.execute(
                "INSERT INTO remote_games (game_id, server, remote_id, seat, token, invite_code,
                                           days_per_move, deadline, your_turn, seat_view)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                params![
                    id.0,
                    remote.server,
                    remote.remote_id,
                    remote.seat,
                    remote.token,
                    remote.invite_code,
                    remote.days_per_move,
                    remote.deadline,
                    remote.your_turn,
                    seat_view
                ],
            )?;
            Ok(id)
        })
    }

    /// Returns a game's server link, if it is a correspondence game.
    pub fn remote(&self, id: GameId) -> Result<Option<RemoteGame>, StoreError> {
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT {REMOTE_COLUMNS} FROM remote_games WHERE game_id = ?1"
        ))?;
        Ok(stmt.query_row([id.0], remote_from_row).optional()?)
    }

    /// Returns every correspondence game's link.
    pub fn remote_games(&self) -> Result<Vec<RemoteGame>, StoreError> {
        let mut stmt = self
            .conn
            .prepare_cached(&format!("SELECT {REMOTE_COLUMNS} FROM remote_games"))?;
        let rows = stmt
            .query_map([], remote_from_row)?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(rows)
    }

    /// Records what the server last said of a game's clock and turn.
    pub fn update_remote(
        &mut self,
        id: GameId,
        deadline: Option<i64>,
        your_turn: bool,
    ) -> Result<(), StoreError> {
        self.conn.execute(
            "UPDATE remote_games SET deadline = ?2, your_turn = ?3 WHERE game_id = ?1",
            params![id.0, deadline, your_turn],
        )?;
        Ok(())
    }

    /// Forgets the invite code once the opponent has joined.
    pub fn clear_invite(&mut self, id: GameId) -> Result<(), StoreError> {
        self.conn.execute(
            "UPDATE remote_games SET invite_code = NULL WHERE game_id = ?1",
            [id.0],
        )?;
        Ok(())
    }

    /// Appends an action made here and queues it for the server, in one transaction.
    pub fn queue_action(
        &mut self,
        id: GameId,
        ply: usize,
        entry: &RecordEntry,
        standing: &Standing,
        client_action_id: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        self.in_transaction(|s| {
            s.append_action(id, ply, entry, standing, now)?;
            s.conn.execute(
                "INSERT INTO outbox (game_id, expected_version, client_action_id, action, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![id.0, ply as i64, client_action_id, entry.action, now],
            )?;
            Ok(())
        })
    }

    /// Returns the queued actions, oldest first.
    pub fn outbox(&self) -> Result<Vec<OutboxEntry>, StoreError> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT id, game_id, expected_version, client_action_id, action FROM outbox ORDER BY id",
        )?;
        let rows = stmt
            .query_map([], |r| {
                Ok(OutboxEntry {
                    id: r.get(0)?,
                    game_id: GameId(r.get(1)?),
                    expected_version: r.get::<_, i64>(2)?.max(0) as usize,
                    client_action_id: r.get(3)?,
                    action: r.get(4)?,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(rows)
    }

    /// Removes an acknowledged (or abandoned) action from the outbox.
    pub fn unqueue(&mut self, outbox_id: i64) -> Result<(), StoreError> {
        self.conn
            .execute("DELETE FROM outbox WHERE id = ?1", [outbox_id])?;
        Ok(())
    }

    /// Replaces a game's actions from `from` on with `entries` and stores the standing, in one
    /// transaction: how a correspondence game takes the server's record.
    pub fn replace_actions(
        &mut self,
        id: GameId,
        from: usize,
        entries: &[RecordEntry],
        standing: &Standing,
        now: i64,
    ) -> Result<(), StoreError> {
        self.in_transaction(|s| {
            s.conn.execute(
                "DELETE FROM actions WHERE game_id = ?1 AND ply >= ?2",
                params![id.0, from as i64],
            )?;
            for (i, e) in entries.iter().enumerate() {
                s.conn.execute(
                    "INSERT INTO actions (game_id, ply, actor, action) VALUES (?1, ?2, ?3, ?4)",
                    params![id.0, (from + i) as i64, e.by.to_string(), e.action],
                )?;
            }
            update_standing(&s.conn, id, standing, now)
        })
    }
}

impl Store {
    /// Returns the view the server last sent of a correspondence game with secrets (none for
    /// a game whose record this device keeps).
    pub fn seat_view(&self, id: GameId) -> Result<Option<String>, StoreError> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT seat_view FROM remote_games WHERE game_id = ?1")?;
        Ok(stmt
            .query_row([id.0], |r| r.get::<_, Option<String>>(0))
            .optional()?
            .flatten())
    }

    /// Returns each seat's computer player (its strength), or `None` for a person; empty when
    /// the game keeps no such list.
    pub fn computers(&self, id: GameId) -> Result<Vec<Option<Strength>>, StoreError> {
        let text: Option<String> = self
            .conn
            .query_row("SELECT computers FROM games WHERE id = ?1", [id.0], |r| {
                r.get(0)
            })
            .optional()?
            .ok_or(StoreError::NoSuchGame(id))?;
        match text {
            None => Ok(Vec::new()),
            Some(text) => serde_json::from_str(&text).map_err(|e| StoreError::BadRecord {
                id,
                detail: format!("computer seats: {e}"),
            }),
        }
    }

    /// Records each seat's computer player (`None` for a person).
    pub fn set_computers(
        &mut self,
        id: GameId,
        computers: &[Option<Strength>],
    ) -> Result<(), StoreError> {
        let text = serde_json::to_string(computers).unwrap_or_else(|_| "[]".into());
        self.conn.execute(
            "UPDATE games SET computers = ?2 WHERE id = ?1",
            params![id.0, text],
        )?;
        Ok(())
    }

    /// Fills in the players' names a server reports where this device has none (an opponent
    /// who joined); names this device has are kept. Returns whether any changed.
    pub fn name_players(&mut self, id: GameId, names: &[String]) -> Result<bool, StoreError> {
        let text: String = self.conn.query_row(
            "SELECT players FROM games WHERE id = ?1",
            params![id.0],
            |r| r.get(0),
        )?;
        let mut players: Vec<String> = serde_json::from_str(&text).unwrap_or_default();
        let mut changed = false;
        for (seat, given) in names.iter().enumerate() {
            if given.is_empty() {
                continue;
            }
            if players.len() <= seat {
                players.resize(seat + 1, String::new());
            }
            if players[seat].is_empty() {
                players[seat].clone_from(given);
                changed = true;
            }
        }
        if changed {
            let text = serde_json::to_string(&players).unwrap_or_else(|_| "[]".into());
            self.conn.execute(
                "UPDATE games SET players = ?2 WHERE id = ?1",
                params![id.0, text],
            )?;
        }
        Ok(changed)
    }

    /// Keeps the server's latest view of a game with secrets, and its standing, in one
    /// transaction; `None` forgets the view (the game's record is now kept instead).
    pub fn set_seat_view(
        &mut self,
        id: GameId,
        view: Option<&str>,
        standing: &Standing,
        now: i64,
    ) -> Result<(), StoreError> {
        self.in_transaction(|s| {
            s.conn.execute(
                "UPDATE remote_games SET seat_view = ?2 WHERE game_id = ?1",
                params![id.0, view],
            )?;
            update_standing(&s.conn, id, standing, now)
        })
    }

    /// Queues an action for the server without recording it here: how a game with secrets
    /// takes a move (the server referees it and sends back the new view).
    pub fn queue_only(
        &mut self,
        id: GameId,
        expected_version: usize,
        action: &str,
        client_action_id: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        self.conn.execute(
            "INSERT INTO outbox (game_id, expected_version, client_action_id, action, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![id.0, expected_version as i64, client_action_id, action, now],
        )?;
        Ok(())
    }

    /// Moves a queued action to another expected version (a deployment resent after the other
    /// seat deployed first).
    pub fn requeue(&mut self, outbox_id: i64, expected_version: usize) -> Result<(), StoreError> {
        self.conn.execute(
            "UPDATE outbox SET expected_version = ?2 WHERE id = ?1",
            params![outbox_id, expected_version as i64],
        )?;
        Ok(())
    }
}

/// A correspondence game's link to its server.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RemoteGame {
    /// The local game.
    pub game_id: GameId,
    /// The server's base URL.
    pub server: String,
    /// The game's id on the server.
    pub remote_id: String,
    /// This device's seat.
    pub seat: u8,
    /// This seat's token (kept on the device; the server keeps only its hash).
    pub token: String,
    /// The invite for the opponent, while the creator may still need to pass it on.
    pub invite_code: Option<String>,
    /// Days per move.
    pub days_per_move: i64,
    /// When the seat to act must have acted (Unix ms), as last heard.
    pub deadline: Option<i64>,
    /// Whether it was this seat's turn, as last heard.
    pub your_turn: bool,
}

/// An action made on this device and not yet acknowledged by the server.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct OutboxEntry {
    /// Its row.
    pub id: i64,
    /// The local game.
    pub game_id: GameId,
    /// The version the action was made at.
    pub expected_version: usize,
    /// The id that makes a resend harmless.
    pub client_action_id: String,
    /// The action's text.
    pub action: String,
}

const REMOTE_COLUMNS: &str = "game_id, server, remote_id, seat, token, invite_code, days_per_move, \
                              deadline, your_turn";

fn remote_from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<RemoteGame> {
    Ok(RemoteGame {
        game_id: GameId(r.get(0)?),
        server: r.get(1)?,
        remote_id: r.get(2)?,
        seat: r.get(3)?,
        token: r.get(4)?,
        invite_code: r.get(5)?,
        days_per_move: r.get(6)?,
        deadline: r.get(7)?,
        your_turn: r.get(8)?,
    })
}
