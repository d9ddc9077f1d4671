//! What a library holds, as this device's SQLite file has it: items (a game, a deleted game,
//! a shared setting), read out as snapshots and merged back in.
//!
//! Merging is deterministic. The server keeps one newest entry per slot and accepts a write
//! only on top of the entry the device last saw, so every slot's history is one line that every
//! device reads in the same order. A device applies what it reads unless it changed the same
//! item itself since it last wrote it:
//! - a game whose record one side extends (records only grow, bar an undo): the longer wins;
//! - a game played on both sides from the same point (pass-and-play on two devices offline):
//!   the one that reached the server first keeps the game's uid, this device's line becomes a
//!   copy under a new uid, so no move is lost and both devices end with both games;
//! - a correspondence game: the game server decides, as today; the library only carries it to
//!   other devices, and their own sync with the game server brings it up to date;
//! - a deleted game stays deleted (a tombstone in its slot);
//! - a setting: the last one written wins.

mod merge;

pub use merge::Applied;
use merge::apply;
#[cfg(test)]
use merge::readable;

use super::{Store, StoreError};
use rusqlite::{OptionalExtension, Transaction, params};
use serde::{Deserialize, Serialize};

/// One item of a library, as sealed into an entry.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "item", rename_all = "kebab-case")]
pub enum Item {
    /// A game with everything to show and resume it.
    Game(Box<GameSnapshot>),
    /// A game deleted on some device: deleted everywhere.
    Deleted {
        /// The game's uid.
        uid: String,
    },
    /// A shared setting; `None` once it was removed.
    Setting {
        /// Its key.
        key: String,
        /// Its value.
        value: Option<String>,
    },
}

impl Item {
    /// The name this item goes by on every device (its slot is derived from it).
    pub fn name(&self) -> String {
        match self {
            Item::Game(g) => format!("g:{}", g.uid),
            Item::Deleted { uid } => format!("g:{uid}"),
            Item::Setting { key, .. } => format!("s:{key}"),
        }
    }
}

/// A game as its stored rows say, without the device's own ids.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameSnapshot {
    pub uid: String,
    pub kind: String,
    pub mode: String,
    pub options: String,
    pub setup: String,
    pub players: String,
    pub created_at: i64,
    pub updated_at: i64,
    pub status: String,
    pub result: Option<String>,
    pub reason: Option<String>,
    pub plies: i64,
    pub moves: i64,
    pub computers: Option<String>,
    /// Actor and action of each recorded action.
    pub actions: Vec<(String, String)>,
    /// For a correspondence game: where it is played and this player's seat there.
    pub remote: Option<RemoteSnapshot>,
    /// Provably fair chance, its public part (core's JSON); none before schema 10.
    #[serde(default)]
    pub fair: Option<String>,
    /// The seed of a game the player's devices deal and roll for (the player's own devices
    /// are its authority; the library is sealed end to end).
    #[serde(default)]
    pub chance_seed: Option<String>,
    /// What the player studied of the game (variations and comments, core's study PGN);
    /// none before schema 11.
    #[serde(default)]
    pub study: Option<String>,
}

/// A correspondence game's binding to its server.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RemoteSnapshot {
    pub server: String,
    pub remote_id: String,
    pub seat: i64,
    pub token: String,
    pub invite_code: Option<String>,
    pub days_per_move: i64,
    pub deadline: Option<i64>,
    pub your_turn: bool,
    pub seat_view: Option<String>,
}

/// Whether a setting is the player's (shared) rather than this device's; the same rule as
/// the triggers of schema 7.
pub fn shared_setting(key: &str) -> bool {
    matches!(key, "notation" | "confirm-moves" | "auto-move" | "tips")
        || key.starts_with("junqi-layout:")
        || key.starts_with("tip-seen:")
}

/// The item `name` names as this device has it now: `None` when it is nothing to send (a
/// setting this device never had).
pub fn snapshot(store: &Store, name: &str) -> Result<Option<Item>, StoreError> {
    if let Some(uid) = name.strip_prefix("g:") {
        return Ok(Some(match game(store, uid)? {
            Some(g) => Item::Game(Box::new(g)),
            None => Item::Deleted {
                uid: uid.to_owned(),
            },
        }));
    }
    if let Some(key) = name.strip_prefix("s:") {
        if !shared_setting(key) {
            return Ok(None);
        }
        return Ok(Some(Item::Setting {
            key: key.to_owned(),
            value: store.setting(key)?,
        }));
    }
    Ok(None)
}

/// Every game this device holds, by uid: what two linked devices must agree on.
pub fn games(store: &Store) -> Result<Vec<GameSnapshot>, StoreError> {
    let uids: Vec<String> = store
        .conn
        .prepare("SELECT uid FROM games ORDER BY uid")?
        .query_map([], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    let mut out = Vec::with_capacity(uids.len());
    for uid in uids {
        if let Some(g) = game(store, &uid)? {
            out.push(g);
        }
    }
    Ok(out)
}

/// A stored game as the library sends it: its record, less the actions still queued for a
/// server, and its server link.
fn game(store: &Store, uid: &str) -> Result<Option<GameSnapshot>, StoreError> {
    let conn = &store.conn;
    let row = conn
        .query_row(
            "SELECT id, kind, mode, options, setup, players, created_at, updated_at, status,
                    result, reason, plies, moves, computers, fair, chance_seed, study
             FROM games WHERE uid = ?1",
            [uid],
            |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    GameSnapshot {
                        uid: uid.to_owned(),
                        kind: r.get(1)?,
                        mode: r.get(2)?,
                        options: r.get(3)?,
                        setup: r.get(4)?,
                        players: r.get(5)?,
                        created_at: r.get(6)?,
                        updated_at: r.get(7)?,
                        status: r.get(8)?,
                        result: r.get(9)?,
                        reason: r.get(10)?,
                        plies: r.get(11)?,
                        moves: r.get(12)?,
                        computers: r.get(13)?,
                        actions: Vec::new(),
                        remote: None,
                        fair: r.get(14)?,
                        chance_seed: r.get(15)?,
                        study: r.get(16)?,
                    },
                ))
            },
        )
        .optional()?;
    let Some((id, mut g)) = row else {
        return Ok(None);
    };
    g.actions = conn
        .prepare_cached("SELECT actor, action FROM actions WHERE game_id = ?1 ORDER BY ply")?
        .query_map([id], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    g.remote = remote_snapshot(conn, id)?;
    if g.remote.is_some() {
        // Actions still queued here are not the game's yet: the game server decides on them.
        let queued: i64 = conn.query_row(
            "SELECT count(*) FROM outbox WHERE game_id = ?1",
            [id],
            |r| r.get(0),
        )?;
        let keep = g.actions.len().saturating_sub(queued as usize);
        g.actions.truncate(keep);
    }
    Ok(Some(g))
}

/// The server link of a stored game, if it is a correspondence game.
fn remote_snapshot(
    conn: &rusqlite::Connection,
    id: i64,
) -> Result<Option<RemoteSnapshot>, StoreError> {
    let remote = conn
        .query_row(
            "SELECT server, remote_id, seat, token, invite_code, days_per_move, deadline,
                    your_turn, seat_view
             FROM remote_games WHERE game_id = ?1",
            [id],
            |r| {
                Ok(RemoteSnapshot {
                    server: r.get(0)?,
                    remote_id: r.get(1)?,
                    seat: r.get(2)?,
                    token: r.get(3)?,
                    invite_code: r.get(4)?,
                    days_per_move: r.get(5)?,
                    deadline: r.get(6)?,
                    your_turn: r.get(7)?,
                    seat_view: r.get(8)?,
                })
            },
        )
        .optional()?;
    Ok(remote)
}

/// The change mark of `name`, if any: (generation).
pub fn mark(tx: &Transaction<'_>, name: &str) -> Result<Option<i64>, StoreError> {
    Ok(tx
        .query_row(
            "SELECT gen FROM library_dirty WHERE item = ?1",
            [name],
            |r| r.get(0),
        )
        .optional()?)
}

/// The entry `slot` holds on the server as this device last saw it.
fn slot_entry(conn: &rusqlite::Connection, slot: &str) -> Result<Option<String>, StoreError> {
    Ok(conn
        .query_row(
            "SELECT entry FROM library_slots WHERE slot = ?1",
            [slot],
            |r| r.get(0),
        )
        .optional()?)
}

/// Records that `slot` now holds `entry` on the server (what this device's next write of it is
/// based on).
pub fn remember_entry(
    conn: &rusqlite::Connection,
    slot: &str,
    entry: &str,
) -> Result<(), StoreError> {
    conn.execute(
        "INSERT INTO library_slots (slot, entry) VALUES (?1, ?2)
         ON CONFLICT (slot) DO UPDATE SET entry = excluded.entry",
        params![slot, entry],
    )?;
    Ok(())
}

/// Clears `name`'s change mark if it is still generation `generation` (a change made since
/// keeps it).
pub fn clear_mark(
    conn: &rusqlite::Connection,
    name: &str,
    generation: i64,
) -> Result<(), StoreError> {
    conn.execute(
        "DELETE FROM library_dirty WHERE item = ?1 AND gen = ?2",
        params![name, generation],
    )?;
    Ok(())
}

fn unmark(tx: &Transaction<'_>, name: &str) -> Result<(), StoreError> {
    tx.execute("DELETE FROM library_dirty WHERE item = ?1", [name])?;
    Ok(())
}

/// This device's place in a library.
#[derive(Clone, PartialEq, Eq)]
pub struct Link {
    /// The companion server's base URL.
    pub server: String,
    /// The library's id there.
    pub library_id: String,
    /// This device's id in it.
    pub device_id: String,
    /// This device's token (the server keeps only its hash).
    pub token: String,
    /// The library's key: never leaves the library's devices except sealed in a pairing.
    pub key: [u8; 32],
    /// The library's change number up to which this device has read.
    pub cursor: i64,
    /// Whether another device (or this one) unlinked this device.
    pub unlinked: bool,
}

impl std::fmt::Debug for Link {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Link")
            .field("server", &self.server)
            .field("library_id", &self.library_id)
            .field("device_id", &self.device_id)
            .field("cursor", &self.cursor)
            .field("unlinked", &self.unlinked)
            .finish_non_exhaustive()
    }
}

impl Store {
    /// This device's place in a library, if it has one.
    pub fn library_link(&self) -> Result<Option<Link>, StoreError> {
        Ok(self
            .conn
            .query_row(
                "SELECT server, library_id, device_id, token, key, cursor, unlinked
                 FROM library WHERE one = 1",
                [],
                |r| {
                    let key: Vec<u8> = r.get(4)?;
                    Ok(Link {
                        server: r.get(0)?,
                        library_id: r.get(1)?,
                        device_id: r.get(2)?,
                        token: r.get(3)?,
                        // A damaged key is an error, never a weaker key.
                        key: key.try_into().map_err(|_| {
                            rusqlite::Error::FromSqlConversionFailure(
                                4,
                                rusqlite::types::Type::Blob,
                                "the library key is not 32 bytes".into(),
                            )
                        })?,
                        cursor: r.get(5)?,
                        unlinked: r.get(6)?,
                    })
                },
            )
            .optional()?)
    }

    /// Stores this device's new place in a library: everything it holds is to be sent there.
    pub fn enter_library(&mut self, link: &Link) -> Result<(), StoreError> {
        let tx = self.conn.transaction()?;
        tx.execute_batch(
            "DELETE FROM library; DELETE FROM library_slots;
             INSERT INTO library_dirty (item) SELECT 'g:' || uid FROM games WHERE true
             ON CONFLICT (item) DO UPDATE SET gen = gen + 1;
             INSERT INTO library_dirty (item) SELECT 's:' || key FROM shared_settings WHERE true
             ON CONFLICT (item) DO UPDATE SET gen = gen + 1;",
        )?;
        tx.execute(
            "INSERT INTO library (one, server, library_id, device_id, token, key, cursor)
             VALUES (1, ?1, ?2, ?3, ?4, ?5, 0)",
            params![
                link.server,
                link.library_id,
                link.device_id,
                link.token,
                &link.key[..]
            ],
        )?;
        tx.commit()?;
        Ok(())
    }

    /// Notes that this device was unlinked from its library.
    pub fn set_unlinked(&self) -> Result<(), StoreError> {
        self.conn.execute("UPDATE library SET unlinked = 1", [])?;
        Ok(())
    }

    /// The entry `slot` holds on the server as this device last saw it.
    pub fn slot_entry(&self, slot: &str) -> Result<Option<String>, StoreError> {
        slot_entry(&self.conn, slot)
    }

    /// Records that `slot` now holds `entry` on the server.
    pub fn remember_slot_entry(&self, slot: &str, entry: &str) -> Result<(), StoreError> {
        remember_entry(&self.conn, slot, entry)
    }

    /// Whether any item is marked as changed since it was last sent.
    pub fn has_marked_items(&self) -> Result<bool, StoreError> {
        Ok(self
            .conn
            .query_row("SELECT EXISTS (SELECT 1 FROM library_dirty)", [], |r| {
                r.get(0)
            })?)
    }

    /// The items marked as changed, each with its mark's generation, by name.
    pub fn marked_items(&self) -> Result<Vec<(String, i64)>, StoreError> {
        let mut stmt = self
            .conn
            .prepare("SELECT item, gen FROM library_dirty ORDER BY item")?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Clears an item's mark if it is still generation `generation`.
    pub fn clear_item_mark(&self, name: &str, generation: i64) -> Result<(), StoreError> {
        clear_mark(&self.conn, name, generation)
    }

    /// Records a write the server took, in one transaction: each (item, its mark's generation,
    /// slot, entry) now holds there, and its mark goes unless it changed since.
    pub fn written(&mut self, batch: &[(&str, i64, &str, &str)]) -> Result<(), StoreError> {
        let tx = self.conn.transaction()?;
        for (name, generation, slot, entry) in batch {
            remember_entry(&tx, slot, entry)?;
            clear_mark(&tx, name, *generation)?;
        }
        tx.commit()?;
        Ok(())
    }

    /// Starts taking a page of entries other devices wrote, in one transaction.
    pub fn applying(&mut self) -> Result<Applying<'_>, StoreError> {
        Ok(Applying {
            tx: self.conn.transaction()?,
        })
    }
}

/// A page of entries being taken into the store: all of it or none ([`Applying::commit`]).
pub struct Applying<'a> {
    tx: Transaction<'a>,
}

impl std::fmt::Debug for Applying<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Applying")
    }
}

impl Applying<'_> {
    /// The entry `slot` holds as this device last saw it.
    pub fn known_entry(&self, slot: &str) -> Result<Option<String>, StoreError> {
        slot_entry(&self.tx, slot)
    }

    /// Applies an item another device wrote ([`apply`]).
    pub fn apply(&self, item: &Item) -> Result<Applied, StoreError> {
        apply(&self.tx, item)
    }

    /// Records that `slot` now holds `entry`.
    pub fn remember_entry(&self, slot: &str, entry: &str) -> Result<(), StoreError> {
        remember_entry(&self.tx, slot, entry)
    }

    /// The local id of the game with this uid, if it is here.
    pub fn game_id(&self, uid: &str) -> Result<Option<super::GameId>, StoreError> {
        Ok(self
            .tx
            .query_row("SELECT id FROM games WHERE uid = ?1", [uid], |r| r.get(0))
            .optional()?
            .map(super::GameId))
    }

    /// Keeps a setting (a linked device's name).
    pub fn set_setting(&self, key: &str, value: &str) -> Result<(), StoreError> {
        self.tx.execute(
            "INSERT INTO settings (key, value) VALUES (?1, ?2)
             ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            params![key, value],
        )?;
        Ok(())
    }

    /// Notes how far this device has read the library's changes, and commits the page.
    pub fn commit(self, cursor: i64) -> Result<(), StoreError> {
        self.tx
            .execute("UPDATE library SET cursor = ?1", [cursor])?;
        self.tx.commit()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{Mode, NewGame, Standing};
    use qiguan_core::{Actor, AnyMatch, GameKind, Seat};

    /// A Xiangqi game that arrives from another device is named after its opening here too
    /// (schema 12 keeps openings out of the library: each device names its own).
    #[test]
    fn a_game_from_another_device_is_named_after_its_opening() {
        let dir = tempfile::tempdir().expect("a directory");
        let mut desk = Store::open(&dir.path().join("desk.sqlite3")).expect("a store");
        let mut game = AnyMatch::new(
            GameKind::Xiangqi,
            &serde_json::Value::Null,
            &serde_json::Value::Null,
        )
        .expect("a game");
        for (seat, mv) in [(Seat::FIRST, "h3e3"), (Seat::SECOND, "h8e8")] {
            game.apply_text(Actor::Seat(seat), mv).expect("legal");
        }
        let new = NewGame::from_match(&game, Mode::PassAndPlay, vec!["A".into(), "B".into()]);
        let id = desk
            .create_game_with(&new, &game.record().actions, &Standing::of(&game), 1)
            .expect("stored");
        let uid = desk.uid(id).expect("its uid");
        let item = snapshot(&desk, &format!("g:{uid}"))
            .expect("read")
            .expect("a game to send");

        let mut phone = Store::open(&dir.path().join("phone.sqlite3")).expect("a store");
        let tx = phone.conn.transaction().expect("a transaction");
        apply(&tx, &item).expect("applied");
        tx.commit().expect("committed");
        let there = phone
            .by_uid(&uid)
            .expect("read")
            .expect("the game is there");
        let rows = phone.summaries(&[there]).expect("its row");
        assert_eq!(rows[0].opening.as_deref(), Some("D00 顺炮局"));
    }

    /// Every kind of game this app keeps reads as a game when it arrives (so that
    /// [`readable`] refuses only what is damaged, hostile or newer): games with chance dealt
    /// from a committed seed as this device deals them (Aeroplane, flip Junqi), with moves.
    #[test]
    fn every_kind_of_game_this_app_keeps_is_readable() {
        use qiguan_core::fair::Dealer;
        let dir = tempfile::tempdir().expect("a directory");
        let mut store = Store::open(&dir.path().join("q.sqlite3")).expect("a store");
        for (kind, options) in [
            (GameKind::Xiangqi, serde_json::Value::Null),
            (GameKind::Junqi, serde_json::Value::Null),
            (GameKind::Junqi, serde_json::json!({"visibility": "flip"})),
            (GameKind::SeaLandAir, serde_json::Value::Null),
            (GameKind::Aeroplane, serde_json::Value::Null),
        ] {
            let mut game = AnyMatch::new(kind, &options, &serde_json::Value::Null).expect("a game");
            let dealer = game.has_chance().then(|| Dealer::new([5; 32]));
            if let Some(dealer) = &dealer {
                game.deal_with(dealer.clone()).expect("dealt");
            }
            let seats: Vec<String> = (0..game.seat_count()).map(|s| format!("c{s}")).collect();
            for _ in 0..40 {
                if dealer.is_some() {
                    game.resolve_chance_fairly(&seats).expect("chance");
                }
                let Some((seat, action)) = (0..game.seat_count()).find_map(|s| {
                    let seat = Seat::new(s as u8).expect("a seat");
                    game.legal_actions(Actor::Seat(seat))
                        .into_iter()
                        .find(|a| !a.contains("resign") && !a.contains("draw"))
                        .map(|a| (seat, a))
                }) else {
                    break;
                };
                game.apply_text(Actor::Seat(seat), &action).expect("legal");
            }
            let record = game.record();
            assert!(record.actions.len() > 2, "{kind:?}: played");
            let mut new = NewGame::from_record(&record, Mode::PassAndPlay, vec![]);
            new.chance_seed = dealer.as_ref().map(Dealer::seed_hex);
            let id = store
                .create_game_with(&new, &record.actions, &Standing::of(&game), 1)
                .expect("stored");
            let uid = store.uid(id).expect("its uid");
            let Some(Item::Game(g)) = snapshot(&store, &format!("g:{uid}")).expect("read") else {
                panic!("{kind:?}: no game to send");
            };
            assert_eq!(readable(&g), Ok(()), "{kind:?} {options}");
            let mut broken = (*g).clone();
            broken
                .actions
                .push((broken.actions[0].0.clone(), "nowhere".into()));
            assert!(
                readable(&broken).is_err(),
                "{kind:?}: a move that is not one"
            );
        }
    }
}
