//! What the game screens need of storage, as a small trait ([`GameStorage`]): read a game with
//! all its screen shows, create one, record actions, queue them for the server, take one back.
//! The SQLite [`Store`] is the real implementation; the session's tests use one in memory.
//! Every method writes all it is given or nothing.

use super::{GameId, NewGame, RemoteGame, Standing, Store, StoreError, StoredGame};
use qiguan_core::fair::Fairness;
use qiguan_core::{RecordEntry, Strength};

/// A stored game with what its screen needs besides the record.
#[derive(Clone, Debug)]
pub(crate) struct GameRecord {
    pub stored: StoredGame,
    /// The server link of a correspondence game.
    pub remote: Option<RemoteGame>,
    /// A correspondence game with secrets: the server's last view, as kept (JSON).
    pub kept_view: Option<String>,
    /// This game's actions waiting for the server, oldest first.
    pub pending: Vec<String>,
    /// Each seat's computer player on this device, as stored (may be shorter than the seats).
    pub computers: Vec<Option<Strength>>,
}

/// What the game screens need of storage.
pub(crate) trait GameStorage {
    /// A stored game and what its screen needs to show it.
    fn game(&mut self, id: GameId) -> Result<GameRecord, StoreError>;
    /// Stores a new game with the actions it starts with (what was dealt) and its computer
    /// seats.
    fn create(
        &mut self,
        new: &NewGame,
        dealt: &[RecordEntry],
        standing: &Standing,
        computers: &[Option<Strength>],
        now: i64,
    ) -> Result<GameId, StoreError>;
    /// Appends actions from ply `from`, each with the game's standing after it.
    fn append(
        &mut self,
        id: GameId,
        from: usize,
        actions: &[(RecordEntry, Standing)],
        fair: Option<&Fairness>,
        now: i64,
    ) -> Result<(), StoreError>;
    /// Appends a correspondence game's action and queues it for the server, together.
    fn queue(
        &mut self,
        id: GameId,
        ply: usize,
        action: &(RecordEntry, Standing),
        client_id: &str,
        now: i64,
    ) -> Result<(), StoreError>;
    /// The actions of a correspondence game waiting for the server, oldest first.
    fn pending(&mut self, id: GameId) -> Result<Vec<String>, StoreError>;
    /// Queues an action of a correspondence game with secrets, made against the server's
    /// state `version` (the game's own record is the server's to keep; the caller checked
    /// the action against the server's last view).
    fn queue_only(
        &mut self,
        id: GameId,
        version: usize,
        action: &str,
        client_id: &str,
        now: i64,
    ) -> Result<(), StoreError>;
    /// Takes the game back to its first `len` actions.
    fn truncate(
        &mut self,
        id: GameId,
        len: usize,
        standing: &Standing,
        fair: Option<&Fairness>,
        now: i64,
    ) -> Result<(), StoreError>;
}

impl GameStorage for Store {
    fn game(&mut self, id: GameId) -> Result<GameRecord, StoreError> {
        // One transaction, so that the record, the server's view and the invite are read as
        // one moment's (the sync worker writes them meanwhile, also in one transaction).
        self.in_transaction(|store| {
            let stored = store.load(id)?;
            let pending = store
                .outbox()?
                .into_iter()
                .filter(|e| e.game_id == id)
                .map(|e| e.action)
                .collect();
            Ok(GameRecord {
                stored,
                remote: store.remote(id)?,
                kept_view: store.seat_view(id)?,
                pending,
                computers: store.computers(id)?,
            })
        })
    }

    fn create(
        &mut self,
        new: &NewGame,
        dealt: &[RecordEntry],
        standing: &Standing,
        computers: &[Option<Strength>],
        now: i64,
    ) -> Result<GameId, StoreError> {
        self.in_transaction(|store| {
            let id = store.create_game_with(new, dealt, standing, now)?;
            if computers.iter().any(Option::is_some) {
                store.set_computers(id, computers)?;
            }
            Ok(id)
        })
    }

    fn append(
        &mut self,
        id: GameId,
        from: usize,
        actions: &[(RecordEntry, Standing)],
        fair: Option<&Fairness>,
        now: i64,
    ) -> Result<(), StoreError> {
        self.in_transaction(|store| {
            for (i, (entry, standing)) in actions.iter().enumerate() {
                store.append_action(id, from + i, entry, standing, now)?;
            }
            if fair.is_some() {
                store.set_fair(id, fair)?;
            }
            Ok(())
        })
    }

    fn queue(
        &mut self,
        id: GameId,
        ply: usize,
        (entry, standing): &(RecordEntry, Standing),
        client_id: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        self.queue_action(id, ply, entry, standing, client_id, now)
    }

    fn pending(&mut self, id: GameId) -> Result<Vec<String>, StoreError> {
        Ok(self
            .outbox()?
            .into_iter()
            .filter(|e| e.game_id == id)
            .map(|e| e.action)
            .collect())
    }

    fn queue_only(
        &mut self,
        id: GameId,
        version: usize,
        action: &str,
        client_id: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        Store::queue_only(self, id, version, action, client_id, now)
    }

    fn truncate(
        &mut self,
        id: GameId,
        len: usize,
        standing: &Standing,
        fair: Option<&Fairness>,
        now: i64,
    ) -> Result<(), StoreError> {
        self.in_transaction(|store| {
            Store::truncate(store, id, len, standing, now)?;
            if fair.is_some() {
                store.set_fair(id, fair)?;
            }
            Ok(())
        })
    }
}

/// Storage in memory, for the session's tests: it keeps what it is given, and refuses every
/// write while `failing` (as a full disk would).
#[cfg(test)]
#[derive(Default)]
pub(crate) struct MemoryStorage {
    pub games: Vec<GameRecord>,
    pub failing: bool,
    /// Every write, in order, for tests to read (`append`, `queue`, …).
    pub writes: Vec<String>,
}

#[cfg(test)]
impl MemoryStorage {
    fn at(&mut self, id: GameId) -> Result<&mut GameRecord, StoreError> {
        if self.failing {
            return Err(StoreError::Io {
                path: "memory".into(),
                detail: "the disk is full".into(),
            });
        }
        self.games
            .iter_mut()
            .find(|g| g.stored.summary.id == id)
            .ok_or(StoreError::NoSuchGame(id))
    }
}

#[cfg(test)]
impl GameStorage for MemoryStorage {
    fn game(&mut self, id: GameId) -> Result<GameRecord, StoreError> {
        self.games
            .iter()
            .find(|g| g.stored.summary.id == id)
            .cloned()
            .ok_or(StoreError::NoSuchGame(id))
    }

    fn create(
        &mut self,
        new: &NewGame,
        dealt: &[RecordEntry],
        _: &Standing,
        computers: &[Option<Strength>],
        now: i64,
    ) -> Result<GameId, StoreError> {
        use crate::store::GameSummary;
        if self.failing {
            return Err(StoreError::NoSuchGame(GameId(0)));
        }
        let id = GameId(self.games.len() as i64 + 1);
        let record = qiguan_core::Record {
            format: qiguan_core::RECORD_FORMAT,
            game: new.kind,
            options: new.options.clone(),
            setup: new.setup.clone(),
            actions: dealt.to_vec(),
            fair: new.fair.clone(),
        };
        let summary = GameSummary {
            id,
            kind: new.kind,
            mode: new.mode,
            players: new.players.clone(),
            created_at: now,
            updated_at: now,
            plies: dealt.len(),
            moves: 0,
            result: None,
            reason: None,
            computers: computers.to_vec(),
            remote_seat: None,
            opening: None,
        };
        self.games.push(GameRecord {
            stored: StoredGame {
                summary,
                record,
                chance_seed: new.chance_seed.clone(),
            },
            remote: None,
            kept_view: None,
            pending: Vec::new(),
            computers: computers.to_vec(),
        });
        self.writes.push(format!("create {}", id.0));
        Ok(id)
    }

    fn append(
        &mut self,
        id: GameId,
        from: usize,
        actions: &[(RecordEntry, Standing)],
        fair: Option<&Fairness>,
        _: i64,
    ) -> Result<(), StoreError> {
        let game = self.at(id)?;
        if fair.is_some() {
            game.stored.record.fair = fair.cloned();
        }
        assert_eq!(
            game.stored.record.actions.len(),
            from,
            "appended at its end"
        );
        game.stored
            .record
            .actions
            .extend(actions.iter().map(|(e, _)| e.clone()));
        let texts: Vec<&str> = actions.iter().map(|(e, _)| e.action.as_str()).collect();
        self.writes.push(format!("append {}", texts.join(" ")));
        Ok(())
    }

    fn queue(
        &mut self,
        id: GameId,
        _: usize,
        (entry, _): &(RecordEntry, Standing),
        _: &str,
        _: i64,
    ) -> Result<(), StoreError> {
        let game = self.at(id)?;
        game.stored.record.actions.push(entry.clone());
        game.pending.push(entry.action.clone());
        self.writes.push(format!("queue {}", entry.action));
        Ok(())
    }

    fn pending(&mut self, id: GameId) -> Result<Vec<String>, StoreError> {
        Ok(self.at(id)?.pending.clone())
    }

    fn queue_only(
        &mut self,
        id: GameId,
        _: usize,
        action: &str,
        _: &str,
        _: i64,
    ) -> Result<(), StoreError> {
        self.at(id)?.pending.push(action.into());
        self.writes.push(format!("queue {action}"));
        Ok(())
    }

    fn truncate(
        &mut self,
        id: GameId,
        len: usize,
        _: &Standing,
        fair: Option<&Fairness>,
        _: i64,
    ) -> Result<(), StoreError> {
        let game = self.at(id)?;
        game.stored.record.actions.truncate(len);
        if fair.is_some() {
            game.stored.record.fair = fair.cloned();
        }
        self.writes.push(format!("truncate {len}"));
        Ok(())
    }
}
