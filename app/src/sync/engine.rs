//! The correspondence engine: keeps the local games in step with the server (send the
//! outbox, mirror what the server says).

use super::mirror::{hear, mirror_game, replay};
use super::wire::{new_action_id, now};
use super::{Client, ServerView, SyncError, queue_hidden, read_answer, seat_view};
use crate::store::{GameId, Mode, NewGame, OutboxEntry, Phrase, RemoteGame, Standing, Store};
use qiguan_core::Strength;
use qiguan_core::{Actor, AnyMatch, GameKind, Seat};
use serde_json::Value;
use std::path::Path;
use std::time::Duration;

/// What a flush did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Flushed {
    /// Actions the server acknowledged (including repeats it had already applied).
    pub sent: usize,
    /// Actions the server refused; the game was reset to the server's record.
    pub refused: Vec<(GameId, String)>,
    /// Games whose local state the answers changed (a game with secrets always: its next view
    /// comes with the answer).
    pub changed: Vec<GameId>,
    /// Phrases the server refused (`too-many-phrases`), dropped here.
    pub unsaid: Vec<(GameId, String)>,
}

impl Flushed {
    /// Notes that a game changed (once).
    fn touch(&mut self, id: GameId) {
        if !self.changed.contains(&id) {
            self.changed.push(id);
        }
    }
}

/// The correspondence engine over the local store.
#[derive(Debug)]
pub struct Correspondence {
    store: Store,
    client: Client,
    /// Phrases the other seats sent, heard since [`Correspondence::take_heard`] last ran.
    heard: Vec<(GameId, Phrase)>,
}

impl Correspondence {
    /// Opens the engine on the app's data directory (its own connection to the same file).
    pub fn open(data_dir: &Path) -> Result<Correspondence, SyncError> {
        Ok(Correspondence {
            store: Store::open_dir(data_dir)?,
            client: Client::new(),
            heard: Vec::new(),
        })
    }

    /// The engine on a store and client of the caller's: for the fuzz targets (fuzz/app),
    /// which give it servers' answers without a network.
    #[doc(hidden)]
    pub fn with(store: Store, client: Client) -> Correspondence {
        Correspondence {
            store,
            client,
            heard: Vec::new(),
        }
    }

    /// Stores a new game from the body of a server's answer about it, as `create` and `join`
    /// do with the view they fetch: for the fuzz target `answers`.
    #[doc(hidden)]
    pub fn take_new_game(
        &mut self,
        remote: &RemoteGame,
        body: &[u8],
        my_name: &str,
    ) -> Result<GameId, SyncError> {
        let view: ServerView = read_answer(200, body)?;
        self.store_new(remote, &view, my_name)
    }

    /// Takes a server's answer about game `id` (its HTTP status and body) as a flush, a
    /// refresh or a long poll does: a game's view is mirrored, a refusal's game as it stands
    /// too. True if anything changed. For the fuzz target `answers`.
    #[doc(hidden)]
    pub fn take_answer(&mut self, id: GameId, status: u16, body: &[u8]) -> Result<bool, SyncError> {
        let remote = self.remote(id)?;
        let view = match read_answer::<ServerView>(status, body) {
            Ok(view) => view,
            Err(SyncError::Refused {
                current: Some(current),
                ..
            }) => {
                serde_json::from_value(current).map_err(|e| SyncError::Protocol(e.to_string()))?
            }
            Err(e) => return Err(e),
        };
        self.mirror(&remote, &view)
    }

    /// Returns the local store.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Returns the store, to write what is not a game's (a kept share link).
    pub(crate) fn store_mut(&mut self) -> &mut Store {
        &mut self.store
    }

    /// Returns the HTTP client.
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// Creates a game on `server` and stores it locally; returns it and the invite code.
    pub async fn create(
        &mut self,
        server: &str,
        game: GameKind,
        options: &Value,
        seat: u8,
        days_per_move: i64,
        my_name: &str,
    ) -> Result<(GameId, String), SyncError> {
        self.create_with_bots(server, game, options, seat, &[], days_per_move, my_name)
            .await
    }

    /// Creates a game with the server's computer in the seats `bots` names,
    /// and stores it locally; returns it and the invite code, or with several seats to invite
    /// every code in seat order joined by " / " (empty when every other seat is the
    /// computer's).
    #[allow(clippy::too_many_arguments)] // each is one field of the request
    pub async fn create_with_bots(
        &mut self,
        server: &str,
        game: GameKind,
        options: &Value,
        seat: u8,
        bots: &[(u8, Strength)],
        days_per_move: i64,
        my_name: &str,
    ) -> Result<(GameId, String), SyncError> {
        let server = server.trim_end_matches('/');
        let created = self
            .client
            .create(server, game, options, seat, bots, days_per_move, my_name)
            .await?;
        let view = self
            .client
            .view(server, &created.game_id, &created.token)
            .await?;
        // With more than one seat to invite, every code is kept, in seat order.
        let codes = if created.invites.len() > 1 {
            let list: Vec<&str> = created.invites.iter().map(|i| i.code.as_str()).collect();
            list.join(" / ")
        } else {
            created.invite_code.clone()
        };
        let remote = RemoteGame {
            game_id: GameId(0),
            server: server.to_owned(),
            remote_id: created.game_id,
            seat: created.seat,
            token: created.token,
            invite_code: (!codes.is_empty()).then(|| codes.clone()),
            days_per_move,
            deadline: view.deadline,
            your_turn: view.your_turn,
        };
        let id = self.store_new(&remote, &view, my_name)?;
        Ok((id, codes))
    }

    /// Joins a game with an invite code and stores it locally.
    pub async fn join(
        &mut self,
        server: &str,
        code: &str,
        my_name: &str,
    ) -> Result<GameId, SyncError> {
        let server = server.trim_end_matches('/');
        let joined = self.client.join(server, code, my_name).await?;
        let view = self
            .client
            .view(server, &joined.game_id, &joined.token)
            .await?;
        let remote = RemoteGame {
            game_id: GameId(0),
            server: server.to_owned(),
            remote_id: joined.game_id,
            seat: joined.seat,
            token: joined.token,
            invite_code: None,
            days_per_move: view.days_per_move,
            deadline: view.deadline,
            your_turn: view.your_turn,
        };
        self.store_new(&remote, &view, my_name)
    }

    fn store_new(
        &mut self,
        remote: &RemoteGame,
        view: &ServerView,
        my_name: &str,
    ) -> Result<GameId, SyncError> {
        // The server's computer seats keep no name: the computer is a role, kept in the
        // game's computers and named by the screens in their language.
        let mut players = vec![String::new(); view.seats_filled.len().max(2)];
        for (name, given) in players.iter_mut().zip(&view.names) {
            if !given.is_empty() {
                name.clone_from(given);
            }
        }
        if let Some(name) = players.get_mut(remote.seat as usize) {
            *name = my_name.to_owned();
        }
        // A game with secrets starts from its options and setup; the view stands in for the
        // record until the game is over.
        let actions = view.actions.clone().unwrap_or_default();
        let game = replay(view, &actions)?;
        let new = NewGame::from_match(&game, Mode::Correspondence, players);
        if view.actions.is_some() {
            let standing = Standing::of(&game);
            return Ok(self.store.in_transaction(|store| {
                let id = store.create_remote_game(&new, remote, &actions, &standing, now())?;
                // The server's computer seats, so that the game can say who plays them.
                if view.bots.iter().any(Option::is_some) {
                    store.set_computers(id, &view.bots)?;
                }
                Ok(id)
            })?);
        }
        let json = serde_json::to_string(view).map_err(|e| SyncError::Protocol(e.to_string()))?;
        Ok(self.store.in_transaction(|store| {
            let id = store.create_remote_game_with_view(
                &new,
                remote,
                &[],
                &view.standing(),
                Some(&json),
                now(),
            )?;
            if view.bots.iter().any(Option::is_some) {
                store.set_computers(id, &view.bots)?;
            }
            Ok(id)
        })?)
    }

    /// Returns the server's last view of a game with secrets (none for a game whose record is
    /// kept here).
    pub fn seat_view(&self, id: GameId) -> Result<Option<ServerView>, SyncError> {
        seat_view(&self.store, id)
    }

    /// Returns the local match of a game (with actions still queued for the server).
    pub fn game(&self, id: GameId) -> Result<AnyMatch, SyncError> {
        let stored = self.store.load(id)?;
        Ok(crate::store::replay(&stored)?)
    }

    fn remote(&self, id: GameId) -> Result<RemoteGame, SyncError> {
        self.store.remote(id)?.ok_or_else(|| {
            SyncError::Protocol(format!("game {} is not a correspondence game", id.0))
        })
    }

    /// Makes an action on this device: checked by core, stored and queued at once, sent by
    /// the next `flush`. Works with no network.
    pub fn play(&mut self, id: GameId, action: &str) -> Result<(), SyncError> {
        let remote = self.remote(id)?;
        if let Some(view) = self.seat_view(id)? {
            return queue_hidden(&mut self.store, id, &view, action);
        }
        let mut game = self.game(id)?;
        let seat = Seat::new(remote.seat).ok_or_else(|| SyncError::Protocol("bad seat".into()))?;
        game.apply_text(Actor::Seat(seat), action)
            .map_err(SyncError::Illegal)?;
        let record = game.record();
        let entry = record
            .actions
            .last()
            .cloned()
            .ok_or_else(|| SyncError::Protocol("no action".into()))?;
        let ply = record.actions.len() - 1;
        self.store.queue_action(
            id,
            ply,
            &entry,
            &Standing::of(&game),
            &new_action_id(),
            now(),
        )?;
        Ok(())
    }

    /// Returns the queued actions.
    pub fn outbox(&self) -> Result<Vec<OutboxEntry>, SyncError> {
        Ok(self.store.outbox()?)
    }

    /// Whether anything waits to be sent: actions or phrases.
    pub fn has_queued(&self) -> bool {
        let actions = self.store.outbox().map(|o| !o.is_empty());
        let phrases = self.store.queued_phrases().map(|p| !p.is_empty());
        actions.unwrap_or(false) || phrases.unwrap_or(false)
    }

    /// Says one of the preset phrases (core's `phrase::PHRASES`) to the other seats: kept and
    /// shown at once, sent by the next `flush`. Works with no network, at any point of the
    /// game.
    pub fn say(&mut self, id: GameId, phrase: &str) -> Result<(), SyncError> {
        if !qiguan_core::phrase::is_phrase(phrase) {
            return Err(SyncError::Protocol(format!(
                "{phrase:?} is not a preset phrase"
            )));
        }
        let remote = self.remote(id)?;
        self.store
            .queue_phrase(id, remote.seat, phrase, &new_action_id(), now())?;
        Ok(())
    }

    /// The phrases the other seats sent that were heard since the last call, oldest first.
    pub fn take_heard(&mut self) -> Vec<(GameId, Phrase)> {
        std::mem::take(&mut self.heard)
    }

    /// Sends the phrases said here, oldest first; a refused one is dropped.
    async fn flush_phrases(&mut self, done: &mut Flushed) -> Result<(), SyncError> {
        for queued in self.store.queued_phrases()? {
            let Some(remote) = self.store.remote(queued.game_id)? else {
                self.store.drop_phrase(queued.id)?;
                continue;
            };
            let answer = self
                .client
                .say(
                    &remote.server,
                    &remote.remote_id,
                    &remote.token,
                    &queued.client_id,
                    &queued.phrase,
                )
                .await;
            match answer {
                Ok(view) => {
                    let seq = view
                        .said_seq
                        .ok_or_else(|| SyncError::Protocol("no said_seq".into()))?;
                    self.store.phrase_sent(queued.id, seq)?;
                    self.mirror(&remote, &view)?;
                    done.touch(queued.game_id);
                }
                Err(SyncError::Refused { code, .. }) => {
                    self.store.drop_phrase(queued.id)?;
                    done.unsaid.push((queued.game_id, code));
                    done.touch(queued.game_id);
                }
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// The game as the server has it now: the view sent with a refusal, or a fresh one.
    async fn current_view(
        &self,
        remote: &RemoteGame,
        current: Option<Value>,
    ) -> Result<ServerView, SyncError> {
        match current.map(serde_json::from_value::<ServerView>) {
            Some(Ok(view)) => Ok(view),
            _ => {
                self.client
                    .view(&remote.server, &remote.remote_id, &remote.token)
                    .await
            }
        }
    }

    /// Sends the outbox, oldest first. Stops at the first server it cannot reach (the rest
    /// stays queued). A refused action is dropped and its game reset to the server's record.
    pub async fn flush(&mut self) -> Result<Flushed, SyncError> {
        let mut done = Flushed::default();
        let mut resent = Vec::new();
        let mut queue: std::collections::VecDeque<OutboxEntry> = self.store.outbox()?.into();
        while let Some(entry) = queue.pop_front() {
            let Some(remote) = self.store.remote(entry.game_id)? else {
                self.store.unqueue(entry.id)?;
                continue;
            };
            let answer = self
                .client
                .act(
                    &remote.server,
                    &remote.remote_id,
                    &remote.token,
                    entry.expected_version,
                    &entry.client_action_id,
                    &entry.action,
                )
                .await;
            match answer {
                Ok(view) => {
                    self.store.unqueue(entry.id)?;
                    let hidden = view.actions.is_none();
                    if self.mirror(&remote, &view)? || hidden {
                        done.touch(entry.game_id);
                    }
                    done.sent += 1;
                }
                Err(SyncError::Refused { code, current, .. }) => {
                    let view = self.current_view(&remote, current).await?;
                    // Both seats deploy at once: a deployment made before the other seat's
                    // arrived is still good, so it goes again at the new version (once).
                    if code == "stale-version"
                        && entry.action.starts_with("deploy:")
                        && !resent.contains(&entry.id)
                        && view.allows(&entry.action).is_ok()
                    {
                        self.store.requeue(entry.id, view.version)?;
                        resent.push(entry.id);
                        queue.push_front(OutboxEntry {
                            expected_version: view.version,
                            ..entry
                        });
                        continue;
                    }
                    self.store.unqueue(entry.id)?;
                    self.mirror(&remote, &view)?;
                    done.refused.push((entry.game_id, code));
                }
                Err(e) => return Err(e),
            }
        }
        self.flush_phrases(&mut done).await?;
        Ok(done)
    }

    /// Fetches a game from its server and mirrors it; true if anything changed.
    pub async fn refresh(&mut self, id: GameId) -> Result<bool, SyncError> {
        let remote = self.remote(id)?;
        let view = self
            .client
            .view(&remote.server, &remote.remote_id, &remote.token)
            .await?;
        self.mirror(&remote, &view)
    }

    /// Waits (long poll, at most 30 s) for the game to move past what is stored here, then
    /// mirrors it; true if anything changed.
    pub async fn wait(&mut self, id: GameId, timeout: Duration) -> Result<bool, SyncError> {
        let remote = self.remote(id)?;
        let known = (self.known_version(id)?, self.said_count(id)?, None);
        let view = self
            .client
            .wait(
                &remote.server,
                &remote.remote_id,
                &remote.token,
                known,
                timeout,
            )
            .await?;
        self.mirror(&remote, &view)
    }

    /// Refreshes every correspondence game; returns the ids that changed.
    pub async fn refresh_all(&mut self) -> Result<Vec<GameId>, SyncError> {
        let mut changed = Vec::new();
        for remote in self.store.remote_games()? {
            if self.refresh(remote.game_id).await? {
                changed.push(remote.game_id);
            }
        }
        Ok(changed)
    }

    /// The server's version of a game as last heard here: what a long poll waits past.
    pub fn known_version(&self, id: GameId) -> Result<usize, SyncError> {
        if let Some(view) = self.seat_view(id)? {
            return Ok(view.version);
        }
        self.confirmed_len(id)
    }

    /// The number of phrases heard from the server in a game: what a long poll waits past.
    pub fn said_count(&self, id: GameId) -> Result<usize, SyncError> {
        Ok(self.store.said_count(id)?)
    }

    /// Actions stored here that the server has acknowledged.
    fn confirmed_len(&self, id: GameId) -> Result<usize, SyncError> {
        let stored = self.store.load(id)?.record.actions.len();
        let pending = self
            .store
            .outbox()?
            .iter()
            .filter(|e| e.game_id == id)
            .count();
        Ok(stored.saturating_sub(pending))
    }

    /// Makes the local game hold the server's record (plus actions still queued, when they
    /// still fit on top of it). Returns true if the local record changed. All of it is one
    /// transaction: the screen, reading the store meanwhile, never sees half of a view (an
    /// invite cleared while the view from before the join is still kept, say).
    fn mirror(&mut self, remote: &RemoteGame, view: &ServerView) -> Result<bool, SyncError> {
        let id = remote.game_id;
        let (changed, heard) = self.store.atomically(|store| {
            // The opponent's name, once it has joined (news even with no new action).
            let named = store.name_players(id, &view.names)?;
            let (spoken, heard) = hear(store, remote, view)?;
            let moved = mirror_game(store, remote, view)?;
            Ok::<_, SyncError>((moved || named || spoken, heard))
        })?;
        self.heard.extend(heard);
        Ok(changed)
    }
}
