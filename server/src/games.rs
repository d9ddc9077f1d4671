//! The games the server referees. The store holds them; this process keeps the ones being
//! played in a bounded cache (least recently used out first), loading a game from the store
//! when a request needs it. Every change is committed to the store before it is visible or
//! acknowledged, guarded so that a copy that has fallen behind (another server process moved
//! first) is reloaded and the request judged again. Every rule question goes to core.

use crate::auth::{self, Hash};
use crate::error::ApiError;
use crate::store::{Change, Store, StoreError, StoredGame, Write};
use lru::LruCache;
use qiguan_core::Strength;
use qiguan_core::fair::{self, Dealer, Fairness};
use qiguan_core::{Actor, AnyMatch, GameKind, Record, RecordEntry, Seat, ToAct, Viewer};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::watch;

/// Milliseconds in a day.
pub const DAY_MS: i64 = 24 * 60 * 60 * 1000;
/// The longest a long poll waits.
pub const MAX_WAIT: Duration = Duration::from_secs(30);

/// The time now, Unix milliseconds; replaceable in tests.
pub type Clock = Arc<dyn Fn() -> i64 + Send + Sync>;

/// Returns the system clock.
pub fn system_clock() -> Clock {
    Arc::new(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64)
    })
}

#[derive(Clone)]
struct GameState {
    id: String,
    game: AnyMatch,
    options: serde_json::Value,
    setup: serde_json::Value,
    seats: Vec<Option<Hash>>,
    /// Each seat's player's name ("" while open, for the computer, or when not given).
    names: Vec<String>,
    /// Seats the server's computer plays.
    bots: Vec<Option<Strength>>,
    days_per_move: i64,
    deadline: Option<i64>,
    /// The actions seats submitted, by seat and the client's id: the ply and the text sent.
    client_ids: HashMap<(u8, String), (usize, String)>,
    /// The phrases the seats have sent, in order (`seq` is the index plus one).
    said: Vec<Said>,
    /// Each sent phrase's `seq` by its seat and the sender's id for it.
    said_ids: HashMap<(u8, String), usize>,
    /// Each seat's contribution to a deal made once every seat is taken (fair chance).
    contributions: Vec<Option<String>>,
}

/// A preset phrase one seat sent the others.
#[derive(Clone, Debug, Serialize)]
pub struct Said {
    /// Its number in the game, from 1.
    pub seq: usize,
    /// The seat that sent it.
    pub seat: u8,
    /// Its code (one of core's `phrase::PHRASES`).
    pub phrase: String,
    /// When the server stored it, Unix ms.
    pub at: i64,
}

/// The phrases a view carries: the newest this many.
pub const SAID_IN_VIEW: usize = 20;
/// The most phrases one seat may send in one game.
pub const SAID_PER_SEAT: usize = 100;

/// A cached game. Its lock serializes this process's requests on the game.
struct Slot {
    state: Arc<tokio::sync::Mutex<GameState>>,
    /// Another process changed the game since this copy was read (or may have): the copy reads
    /// what it lacks before it is used.
    behind: AtomicBool,
}

/// How many games and tokens a process keeps in memory.
#[derive(Clone, Copy, Debug)]
pub struct CacheSize {
    /// Games (each holds its whole record and current position).
    pub games: usize,
    /// Seat tokens' games and seats.
    pub tokens: usize,
}

impl Default for CacheSize {
    fn default() -> Self {
        CacheSize {
            games: 4096,
            tokens: 65_536,
        }
    }
}

/// The games, through a bounded cache over the store.
pub struct Games {
    store: Arc<dyn Store>,
    games: Mutex<LruCache<String, Arc<Slot>>>,
    tokens: Mutex<LruCache<Hash, (String, u8)>>,
    /// Long polls waiting on a game, by game: told of every change, ours or another process's.
    watchers: Mutex<HashMap<String, watch::Sender<()>>>,
    /// Counts other processes' changes: a game read from the store while one arrived is used
    /// but not cached (it may predate the change).
    heard: AtomicU64,
    clock: Clock,
}

impl std::fmt::Debug for Games {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.games.lock().map_or(0, |g| g.len());
        write!(f, "Games({n} cached, {:?})", self.store)
    }
}

/// How often a request is judged again after its game changed under it.
const ATTEMPTS: usize = 4;

fn busy() -> ApiError {
    ApiError::conflict("busy", "the game is changing too fast; try again", None)
}

/// What an attempt at a request came to.
enum Attempt<T> {
    Done(Result<T, ApiError>),
    /// The game changed since this copy was read: read it again.
    Again,
}

fn commit_result(r: Result<(), StoreError>) -> Result<(), Option<ApiError>> {
    match r {
        Ok(()) => Ok(()),
        Err(StoreError::Conflict(_)) => Err(None),
        Err(StoreError::Failed(e)) => Err(Some(ApiError::storage(e))),
    }
}

/// A request to create a game.
#[derive(Debug, Deserialize)]
pub struct CreateGame {
    /// The game (`xiangqi`).
    pub game: GameKind,
    /// House rules, as the game defines them (`null` for the defaults).
    #[serde(default)]
    pub options: serde_json::Value,
    /// The creator's seat (0 is Red in Xiangqi).
    #[serde(default, deserialize_with = "whole")]
    pub seat: u8,
    /// Days each move may take, 1 to 14.
    #[serde(deserialize_with = "whole")]
    pub days_per_move: i64,
    /// Seats the server's computer plays (games that have computer players: Aeroplane chess).
    #[serde(default)]
    pub bots: Vec<BotSeat>,
    /// The creator's name, shown to the other seats (at most 40 characters; may be empty).
    #[serde(default)]
    pub name: String,
    /// The creator's random contribution to a deal made when the game starts (Junqi's flip
    /// mode; see docs/protocol.md, "Provably fair chance").
    #[serde(default, deserialize_with = "present")]
    pub contribution: Option<String>,
}

/// Reads an integer field as JSON Schema counts integers: any number without a fractional
/// part (`3` or `3.0`), in the field's range.
pub(crate) fn whole<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: TryFrom<i128>,
{
    use serde::de::Error;
    let n = serde_json::Number::deserialize(d)?;
    let value = if let Some(i) = n.as_i64() {
        i128::from(i)
    } else if let Some(u) = n.as_u64() {
        i128::from(u)
    } else {
        match n.as_f64() {
            Some(f) if f.fract() == 0.0 && f.abs() < 1e30 => f as i128,
            _ => return Err(D::Error::custom(format!("{n} is not a whole number"))),
        }
    };
    T::try_from(value).map_err(|_| D::Error::custom(format!("{n} is out of range")))
}

/// Reads an optional string field that, when present, must be a string (`null` is refused,
/// as the OpenAPI document says).
pub(crate) fn present<'de, D>(d: D) -> Result<Option<String>, D::Error>
where
    D: serde::Deserializer<'de>,
{
    String::deserialize(d).map(Some)
}

/// A seat for the server's computer player.
#[derive(Debug, Deserialize)]
pub struct BotSeat {
    /// Which seat.
    #[serde(deserialize_with = "whole")]
    pub seat: u8,
    /// How well it plays (default strong).
    #[serde(default)]
    pub strength: Strength,
}

/// The answer to a created game.
#[derive(Debug, Serialize)]
pub struct Created {
    pub game_id: String,
    pub seat: u8,
    pub token: String,
    /// The invite for the (first) other seat: give it to the opponent.
    pub invite_code: String,
    /// Every open seat's invite (more than one in games for more than two).
    pub invites: Vec<SeatInvite>,
}

/// One seat's invite code.
#[derive(Debug, Serialize)]
pub struct SeatInvite {
    pub seat: u8,
    pub code: String,
}

/// The answer to a join.
#[derive(Debug, Serialize)]
pub struct Joined {
    pub game_id: String,
    pub seat: u8,
    pub token: String,
}

/// An action submitted by a seat.
#[derive(Debug, Deserialize)]
pub struct SubmitAction {
    /// The version the client saw; a different current version is refused as stale.
    #[serde(deserialize_with = "whole")]
    pub expected_version: usize,
    /// The client's id for this action: sending it again returns the first result.
    pub client_action_id: String,
    /// The action's text: a move in the game's notation, or resign, offer-draw, …
    pub action: String,
    /// The seat's random contribution to the chance this action brings about (a roll).
    #[serde(default, deserialize_with = "present")]
    pub contribution: Option<String>,
}

/// A preset phrase submitted by a seat.
#[derive(Debug, Deserialize)]
pub struct SubmitPhrase {
    /// The client's id for this phrase: sending it again returns the first result.
    pub client_phrase_id: String,
    /// The phrase's code.
    pub phrase: String,
}

/// A game as one seat sees it.
#[derive(Debug, Serialize)]
pub struct SeatView {
    pub game_id: String,
    pub game: GameKind,
    pub seat: u8,
    /// Which seats have a player (a person who joined, or the server's computer).
    pub seats_filled: Vec<bool>,
    /// Each seat's player's name, as the player gave it ("" when not given or not yet joined).
    pub names: Vec<String>,
    /// For each seat, the strength of the server's computer player in it, if it has one.
    pub bots: Vec<Option<Strength>>,
    /// Actions so far.
    pub version: usize,
    /// Whether this seat must act now.
    pub your_turn: bool,
    /// Who must act, or the outcome.
    pub to_act: ToAct,
    /// The seat's view of the match (never the full state).
    pub view: serde_json::Value,
    /// The actions this seat may take now.
    pub legal_actions: Vec<String>,
    /// The house rules and the starting setup, as core records them.
    pub options: serde_json::Value,
    pub setup: serde_json::Value,
    /// Every action so far, in a game without hidden information (none otherwise), so that a
    /// client can keep the exact record.
    pub actions: Option<Vec<RecordEntry>>,
    /// When the seat to act must have acted, Unix ms; none while waiting or over.
    pub deadline: Option<i64>,
    pub days_per_move: i64,
    /// For a submitted action: the version it produced (also when it was a repeat).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub applied_version: Option<usize>,
    /// The newest phrases the seats have sent (at most [`SAID_IN_VIEW`]), oldest first.
    pub said: Vec<Said>,
    /// How many phrases have been sent in this game (the newest one's `seq`).
    pub said_count: usize,
    /// For a submitted phrase: its `seq` (also when it was a repeat).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub said_seq: Option<usize>,
    /// Provably fair chance, in games with chance: the commitment from the start, every draw's
    /// contributions, and the seed once the game is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fair: Option<Fairness>,
}

impl GameState {
    fn full(&self) -> bool {
        filled(&self.seats, &self.bots)
    }

    /// The guard for a write judged on this copy: its actions and the seats people took.
    fn guard(&self) -> Write {
        Write::Guard {
            game_id: self.id.clone(),
            actions: self.game.version(),
            seats: self.seats.iter().flatten().count(),
        }
    }

    fn seat_view(&self, seat: u8) -> SeatView {
        let viewer = Seat::new(seat).map_or(Viewer::Spectator, Viewer::Seat);
        let to_act = self.game.to_act();
        let actor = Seat::new(seat).map(Actor::Seat);
        SeatView {
            game_id: self.id.clone(),
            game: self.game.kind(),
            seat,
            seats_filled: self
                .seats
                .iter()
                .zip(&self.bots)
                .map(|(t, b)| t.is_some() || b.is_some())
                .collect(),
            names: self.names.clone(),
            bots: self.bots.clone(),
            version: self.game.version(),
            your_turn: self.full() && actor.is_some_and(|a| to_act.includes(a)),
            to_act,
            view: self.game.view_json(viewer),
            legal_actions: match actor {
                Some(a) if self.full() => self.game.legal_actions(a),
                _ => Vec::new(),
            },
            options: self.options.clone(),
            setup: self.setup.clone(),
            actions: self.game.actions_seen_by(viewer),
            deadline: self.deadline,
            days_per_move: self.days_per_move,
            applied_version: None,
            said: self.said[self.said.len().saturating_sub(SAID_IN_VIEW)..].to_vec(),
            said_count: self.said.len(),
            said_seq: None,
            fair: self.game.fairness(),
        }
    }
}

/// Rebuilds a game's state from what the store holds.
fn rebuild(g: StoredGame) -> Result<GameState, String> {
    let kind: GameKind = serde_json::from_value(serde_json::Value::String(g.kind.clone()))
        .map_err(|_| format!("game {}: unknown game {:?}", g.id, g.kind))?;
    let start = Record {
        format: qiguan_core::RECORD_FORMAT,
        game: kind,
        options: serde_json::from_str(&g.options).map_err(|e| e.to_string())?,
        setup: serde_json::from_str(&g.setup).map_err(|e| e.to_string())?,
        actions: Vec::new(),
        fair: None,
    };
    let mut game = AnyMatch::from_record(&start).map_err(|e| format!("game {}: {e}", g.id))?;
    if let Some(seed) = &g.chance_seed {
        let dealer = Dealer::from_hex(seed).map_err(|e| format!("game {}: {e}", g.id))?;
        game.deal_with(dealer)
            .map_err(|e| format!("game {}: {e}", g.id))?;
    }
    let start = game.record();
    let seats = game.seat_count();
    let mut state = GameState {
        id: g.id.clone(),
        game,
        options: start.options,
        setup: start.setup,
        seats: vec![None; seats],
        names: vec![String::new(); seats],
        bots: vec![None; seats],
        days_per_move: g.days_per_move,
        deadline: None,
        client_ids: HashMap::new(),
        said: Vec::new(),
        said_ids: HashMap::new(),
        contributions: vec![None; seats],
    };
    absorb(&mut state, g)?;
    Ok(state)
}

/// Brings a copy of a game up to what the store holds: `g` was read from the copy's numbers of
/// actions and phrases on ([`Store::game_from`]); its actions and phrases are added, its seats,
/// names, computer seats and deadline replace the copy's. An error leaves the copy half
/// changed: the caller drops it.
fn absorb(state: &mut GameState, g: StoredGame) -> Result<(), String> {
    let from = state.game.version();
    if g.action_count != from + g.actions.len() {
        return Err(format!(
            "game {}: {} actions stored, the copy has {from} and read {} more",
            g.id,
            g.action_count,
            g.actions.len()
        ));
    }
    for (i, a) in g.actions.into_iter().enumerate() {
        let ply = from + i;
        let by: Actor = a.actor.parse().map_err(|e| format!("game {}: {e}", g.id))?;
        let applied = match (&a.contributions, by) {
            (Some(json), Actor::Authority) => {
                let contributions: Vec<String> = serde_json::from_str(json)
                    .map_err(|e| format!("game {}: action {ply}'s contributions: {e}", g.id))?;
                state.game.apply_drawn(&a.action, contributions)
            }
            _ => state.game.apply_text(by, &a.action),
        };
        applied.map_err(|e| format!("game {}: action {ply} {:?}: {e}", g.id, a.action))?;
        if let (Some(id), Actor::Seat(seat)) = (a.client_action_id, by) {
            let sent = a.sent.unwrap_or(a.action);
            state
                .client_ids
                .insert((seat.index() as u8, id), (ply, sent));
        }
    }
    state.seats.fill(None);
    state.names.fill(String::new());
    for (seat, hash, name) in g.seats {
        if let Some(slot) = state.seats.get_mut(seat as usize) {
            *slot = Some(hash);
            state.names[seat as usize] = name;
        }
    }
    state.contributions.fill(None);
    for (seat, contribution) in g.contributions {
        if let Some(slot) = state.contributions.get_mut(seat as usize) {
            *slot = Some(contribution);
        }
    }
    state.bots.fill(None);
    for (seat, strength) in g.bots {
        let strength = serde_json::from_value(serde_json::Value::String(strength))
            .map_err(|e| format!("game {}: bot in seat {seat}: {e}", g.id))?;
        if let Some(slot) = state.bots.get_mut(seat as usize) {
            *slot = Some(strength);
        }
    }
    state.deadline = g.deadline;
    for (seat, phrase, client_id, at) in g.phrases {
        let seq = state.said.len() + 1;
        state.said_ids.insert((seat, client_id), seq);
        state.said.push(Said {
            seq,
            seat,
            phrase,
            at,
        });
    }
    Ok(())
}

impl Games {
    /// The games in `store`, with a cache of `size`. When other processes share the store, a
    /// task on the current runtime hears their changes.
    pub fn new(store: Arc<dyn Store>, size: CacheSize, clock: Clock) -> Arc<Games> {
        let one = NonZeroUsize::MIN;
        let changes = store.changes();
        let games = Arc::new(Games {
            games: Mutex::new(LruCache::new(NonZeroUsize::new(size.games).unwrap_or(one))),
            tokens: Mutex::new(LruCache::new(NonZeroUsize::new(size.tokens).unwrap_or(one))),
            watchers: Mutex::default(),
            heard: AtomicU64::new(0),
            store,
            clock,
        });
        if let Some(mut changes) = changes {
            let weak = Arc::downgrade(&games);
            tokio::spawn(async move {
                while let Some(change) = changes.recv().await {
                    let Some(games) = weak.upgrade() else {
                        return;
                    };
                    games.heard(change);
                }
            });
        }
        games
    }

    /// Another process changed a game (or changes went unheard): mark its copy behind (or
    /// forget every copy) and wake its polls.
    fn heard(&self, change: Change) {
        self.heard.fetch_add(1, Ordering::SeqCst);
        match change {
            Change::Game(id) => {
                if let Ok(cache) = self.games.lock()
                    && let Some(slot) = cache.peek(&id)
                {
                    slot.behind.store(true, Ordering::SeqCst);
                }
                self.wake(&id);
            }
            Change::Lost => {
                if let Ok(mut cache) = self.games.lock() {
                    cache.clear();
                }
                if let Ok(watchers) = self.watchers.lock() {
                    for tx in watchers.values() {
                        tx.send_replace(());
                    }
                }
            }
        }
    }

    /// Wakes the long polls on a game.
    fn wake(&self, id: &str) {
        if let Ok(watchers) = self.watchers.lock()
            && let Some(tx) = watchers.get(id)
        {
            tx.send_replace(());
        }
    }

    fn now(&self) -> i64 {
        (self.clock)()
    }

    /// How many games are cached now.
    pub fn cached(&self) -> usize {
        self.games.lock().map_or(0, |g| g.len())
    }

    /// The game, from the cache or else the store.
    async fn slot(&self, id: &str) -> Result<Arc<Slot>, ApiError> {
        if let Some(slot) = self.games.lock().map_err(|_| ApiError::internal())?.get(id) {
            return Ok(slot.clone());
        }
        let heard = self.heard.load(Ordering::SeqCst);
        let stored = self
            .store
            .game(id)
            .await
            .map_err(|e| ApiError::storage(e.to_string()))?
            .ok_or_else(|| ApiError::not_found("unknown-game", "no such game"))?;
        let state = rebuild(stored).map_err(ApiError::storage)?;
        let slot = Arc::new(Slot {
            state: Arc::new(tokio::sync::Mutex::new(state)),
            // A change heard while reading may be one the read missed.
            behind: AtomicBool::new(self.heard.load(Ordering::SeqCst) != heard),
        });
        let mut cache = self.games.lock().map_err(|_| ApiError::internal())?;
        if let Some(other) = cache.get(id) {
            // Another request loaded it meanwhile: one copy.
            return Ok(other.clone());
        }
        cache.put(id.to_owned(), slot.clone());
        Ok(slot)
    }

    /// The game's copy, locked, and first brought up to the store if another process changed
    /// the game: only what the copy lacks is read and applied. A copy that cannot be brought up
    /// (the store disagrees with it) is dropped and the whole game read again.
    ///
    /// On a store that other servers share, the copy is always brought up first (one read of
    /// what it lacks, usually nothing): another server's commit is acknowledged to its client
    /// before this server hears of it, and an answer from the copy alone could then be older
    /// than what that client was told (a move gone, a join not yet there).
    async fn current(
        &self,
        id: &str,
    ) -> Result<(Arc<Slot>, tokio::sync::OwnedMutexGuard<GameState>), ApiError> {
        for _ in 0..ATTEMPTS {
            let slot = self.slot(id).await?;
            let mut state = slot.state.clone().lock_owned().await;
            let behind = slot.behind.swap(false, Ordering::SeqCst);
            if !behind && !self.store.shared() {
                return Ok((slot, state));
            }
            let read = self
                .store
                .game_from(id, state.game.version(), state.said.len())
                .await;
            let stored = match read {
                Ok(Some(stored)) => stored,
                Ok(None) => {
                    drop(state);
                    self.forget(id, &slot);
                    return Err(ApiError::not_found("unknown-game", "no such game"));
                }
                Err(e) => {
                    slot.behind.store(true, Ordering::SeqCst);
                    return Err(ApiError::storage(e.to_string()));
                }
            };
            let mut next = state.clone();
            match absorb(&mut next, stored) {
                Ok(()) => {
                    *state = next;
                    return Ok((slot, state));
                }
                Err(e) => {
                    eprintln!("qiguan-server: reading {id} again: {e}");
                    // Anyone waiting on this copy reads it again too.
                    slot.behind.store(true, Ordering::SeqCst);
                    drop(state);
                    self.forget(id, &slot);
                }
            }
        }
        Err(busy())
    }

    /// Drops a game's cached copy (it fell behind the store).
    fn forget(&self, id: &str, slot: &Arc<Slot>) {
        if let Ok(mut cache) = self.games.lock()
            && cache.peek(id).is_some_and(|s| Arc::ptr_eq(s, slot))
        {
            cache.pop(id);
        }
    }

    /// Locks the game's current copy for attempt `n` at a request; says whether a refusal on
    /// the copy's word stands (a shared store's copy may lag behind another process's commit
    /// by the time its notification takes, so a first refusal is checked on a fresh read).
    async fn lock(
        &self,
        game_id: &str,
        n: usize,
    ) -> Result<(Arc<Slot>, tokio::sync::OwnedMutexGuard<GameState>, bool), ApiError> {
        let (slot, state) = self.current(game_id).await?;
        Ok((slot, state, !self.store.shared() || n > 0))
    }

    /// Ends an attempt: a result to return, or `None` to try again on a fresh copy.
    fn settle<T>(
        &self,
        game_id: &str,
        slot: &Arc<Slot>,
        attempt: Attempt<T>,
    ) -> Option<Result<T, ApiError>> {
        match attempt {
            Attempt::Done(result) => {
                if result.is_ok() {
                    self.wake(game_id);
                }
                Some(result)
            }
            Attempt::Again => {
                // The copy is behind the store: the next attempt reads what it lacks.
                slot.behind.store(true, Ordering::SeqCst);
                None
            }
        }
    }

    /// Creates a game with the creator in `seat` and invites for the other seats.
    pub async fn create(&self, req: CreateGame) -> Result<Created, ApiError> {
        let name = player_name(&req.name)?;
        if !(1..=14).contains(&req.days_per_move) {
            return Err(ApiError::invalid(
                "bad-days",
                "days_per_move must be 1 to 14",
            ));
        }
        well_formed(req.contribution.as_deref())?;
        let mut game = AnyMatch::new(req.game, &req.options, &serde_json::Value::Null)
            .map_err(|e| ApiError::invalid("bad-options", &e.to_string()))?;
        let count = game.seat_count();
        if req.seat as usize >= count {
            return Err(ApiError::invalid("bad-seat", "no such seat in this game"));
        }
        let bots = bot_seats(&req, count)?;
        // The server is the dealer and rolls the dice: it commits to its seed now, before any
        // seat has sent anything (see docs/protocol.md, "Provably fair chance").
        let dealer = game.has_chance().then(|| Dealer::new(auth::random_seed()));
        if let Some(dealer) = &dealer {
            game.deal_with(dealer.clone())
                .map_err(|_| ApiError::internal())?;
        }
        // A deal (flip mode) is drawn once every seat is taken, from every seat's contribution.
        let mut contributions = vec![None; count];
        if game.to_act() == ToAct::Chance {
            contributions[req.seat as usize] = Some(contribution(req.contribution.as_deref())?);
        }
        let id = auth::new_game_id();
        let token = auth::new_token();
        let token_hash = auth::hash(&token);
        let now = self.now();
        let mut seats = vec![None; count];
        seats[req.seat as usize] = Some(token_hash);
        // With every other seat the computer's, the game starts at once.
        let full = filled(&seats, &bots);
        if full {
            deal(&mut game, &contributions)?;
            game = play_bots(game, &bots).await?;
        }
        let deadline = (full && game.outcome().is_none()).then(|| now + req.days_per_move * DAY_MS);
        let record = game.record();
        let mut writes = vec![Write::Game {
            id: id.clone(),
            kind: req.game.as_str().into(),
            options: record.options.to_string(),
            setup: record.setup.to_string(),
            days_per_move: req.days_per_move,
            created_at: now,
            chance_seed: dealer.as_ref().map(Dealer::seed_hex),
        }];
        writes.extend(action_writes(&id, &game, 0, None, now));
        writes.push(Write::Seat {
            game_id: id.clone(),
            seat: req.seat,
            token_hash,
            name: name.clone(),
            contribution: contributions[req.seat as usize].clone(),
            at: now,
        });
        for (seat, strength) in bots.iter().enumerate() {
            if let Some(strength) = strength {
                writes.push(Write::Bot {
                    game_id: id.clone(),
                    seat: seat as u8,
                    strength: strength_name(*strength),
                });
            }
        }
        if full {
            writes.push(Write::Deadline {
                game_id: id.clone(),
                deadline,
            });
        }
        let mut invites = Vec::new();
        for seat in (0..count as u8).filter(|&s| s != req.seat && bots[s as usize].is_none()) {
            let code = auth::new_invite_code();
            writes.push(Write::Invite {
                code_hash: auth::hash(&auth::normalize_code(&code)),
                game_id: id.clone(),
                seat,
            });
            invites.push(SeatInvite { seat, code });
        }
        self.store
            .commit(writes)
            .await
            .map_err(|e| ApiError::storage(e.to_string()))?;
        let state = GameState {
            id: id.clone(),
            game,
            options: record.options.clone(),
            setup: record.setup.clone(),
            names: {
                let mut names = vec![String::new(); seats.len()];
                names[req.seat as usize] = name;
                names
            },
            seats,
            bots,
            days_per_move: req.days_per_move,
            deadline,
            client_ids: HashMap::new(),
            said: Vec::new(),
            said_ids: HashMap::new(),
            contributions,
        };
        let slot = Arc::new(Slot {
            state: Arc::new(tokio::sync::Mutex::new(state)),
            behind: AtomicBool::new(false),
        });
        if let Ok(mut cache) = self.games.lock() {
            cache.put(id.clone(), slot);
        }
        if let Ok(mut tokens) = self.tokens.lock() {
            tokens.put(token_hash, (id.clone(), req.seat));
        }
        Ok(Created {
            game_id: id,
            seat: req.seat,
            token,
            invite_code: invites.first().map(|i| i.code.clone()).unwrap_or_default(),
            invites,
        })
    }

    /// Takes the seat an invite code is for, once: of two joins with one code, on one process
    /// or two, the store lets one through.
    pub async fn join(
        &self,
        code: &str,
        name: &str,
        contribution: Option<&str>,
    ) -> Result<Joined, ApiError> {
        let name = player_name(name)?;
        well_formed(contribution)?;
        let code_hash = auth::hash(&auth::normalize_code(code));
        let invite = self
            .store
            .invite(code_hash)
            .await
            .map_err(|e| ApiError::storage(e.to_string()))?
            .ok_or_else(|| ApiError::not_found("unknown-invite", "no such invite code"))?;
        let seat = invite.seat;
        let used = || ApiError::gone("invite-used", "this invite has been used");
        let mut joined = Err(used());
        for n in 0..ATTEMPTS {
            let (slot, mut state, _) = self.lock(&invite.game_id, n).await?;
            let attempt = self
                .join_once(
                    &mut state,
                    seat,
                    invite.used,
                    code_hash,
                    &name,
                    contribution,
                )
                .await;
            drop(state);
            if let Some(result) = self.settle(&invite.game_id, &slot, attempt) {
                joined = result;
                break;
            }
        }
        // Every attempt finding the game moving leaves the invite to decide: taken.
        let (token_hash, joined) = joined?;
        if let Ok(mut tokens) = self.tokens.lock() {
            tokens.put(token_hash, (joined.game_id.clone(), seat));
        }
        Ok(joined)
    }

    /// Returns the game and seat a token holds, checking it is for `game_id` if given.
    pub async fn authorize(
        &self,
        token: Option<&str>,
        game_id: Option<&str>,
    ) -> Result<(String, u8), ApiError> {
        let token = token.ok_or_else(|| {
            ApiError::unauthorized("missing-token", "send Authorization: Bearer <token>")
        })?;
        let unknown = || ApiError::unauthorized("unknown-token", "this token is not valid");
        let hash = auth::hash(token);
        let cached = self
            .tokens
            .lock()
            .map_err(|_| ApiError::internal())?
            .get(&hash)
            .cloned();
        let (gid, seat) = match cached {
            Some(found) => found,
            None => {
                let found = self
                    .store
                    .seat_of(hash)
                    .await
                    .map_err(|e| ApiError::storage(e.to_string()))?
                    .ok_or_else(unknown)?;
                if let Ok(mut tokens) = self.tokens.lock() {
                    tokens.put(hash, found.clone());
                }
                found
            }
        };
        if let Some(id) = game_id
            && id != gid
        {
            return Err(ApiError::forbidden(
                "wrong-game",
                "this token is for another game",
            ));
        }
        Ok((gid, seat))
    }

    /// Returns the game as `seat` sees it.
    pub async fn view(&self, game_id: &str, seat: u8) -> Result<SeatView, ApiError> {
        let (_, state) = self.current(game_id).await?;
        Ok(state.seat_view(seat))
    }

    /// Applies a seat's action: durable before it is visible, idempotent per seat and client
    /// id; the same id with another action is refused.
    pub async fn act(
        &self,
        game_id: &str,
        seat: u8,
        req: SubmitAction,
    ) -> Result<SeatView, ApiError> {
        client_id(
            &req.client_action_id,
            "bad-client-action-id",
            "client_action_id must be 1 to 64 characters",
        )?;
        well_formed(req.contribution.as_deref())?;
        let key = (seat, req.client_action_id.clone());
        let sent = req.action.trim().to_owned();
        for n in 0..ATTEMPTS {
            let (slot, mut state, fresh) = self.lock(game_id, n).await?;
            let attempt = self
                .act_once(&mut state, fresh, seat, &req, &key, &sent)
                .await;
            drop(state);
            if let Some(result) = self.settle(game_id, &slot, attempt) {
                return result;
            }
        }
        Err(busy())
    }

    /// Stores a seat's preset phrase and forwards it: durable before any seat sees it,
    /// idempotent per seat and client id. Allowed at any time, the game's end included
    /// ("再来一局").
    pub async fn say(
        &self,
        game_id: &str,
        seat: u8,
        req: SubmitPhrase,
    ) -> Result<SeatView, ApiError> {
        client_id(
            &req.client_phrase_id,
            "bad-client-phrase-id",
            "client_phrase_id must be 1 to 64 characters",
        )?;
        if !qiguan_core::phrase::is_phrase(&req.phrase) {
            return Err(ApiError::invalid(
                "unknown-phrase",
                "send one of the preset phrases",
            ));
        }
        let key = (seat, req.client_phrase_id.clone());
        for n in 0..ATTEMPTS {
            let (slot, mut state, _) = self.lock(game_id, n).await?;
            let attempt = self.say_once(&mut state, seat, &req, &key).await;
            drop(state);
            if let Some(result) = self.settle(game_id, &slot, attempt) {
                return result;
            }
        }
        Err(busy())
    }

    /// One attempt at taking `seat` with an invite, on this copy of its game.
    async fn join_once(
        &self,
        state: &mut GameState,
        seat: u8,
        invite_used: bool,
        code_hash: Hash,
        name: &str,
        sent: Option<&str>,
    ) -> Attempt<(Hash, Joined)> {
        let used = || ApiError::gone("invite-used", "this invite has been used");
        if seat as usize >= state.seats.len() {
            return Attempt::Done(Err(ApiError::storage(format!(
                "game {}: an invite for seat {seat}, which the game does not have",
                state.id
            ))));
        }
        if invite_used || state.seats.get(seat as usize).is_some_and(Option::is_some) {
            return Attempt::Done(Err(used()));
        }
        // A deal to come takes every seat's contribution, each different.
        let mut contributions = state.contributions.clone();
        if state.game.to_act() == ToAct::Chance {
            let mine = match contribution(sent) {
                Ok(c) => c,
                Err(e) => return Attempt::Done(Err(e)),
            };
            if contributions.iter().flatten().any(|c| *c == mine) {
                return Attempt::Done(Err(reused()));
            }
            contributions[seat as usize] = Some(mine);
        }
        let token = auth::new_token();
        let token_hash = auth::hash(&token);
        let now = self.now();
        let mut seats = state.seats.clone();
        seats[seat as usize] = Some(token_hash);
        let full = filled(&seats, &state.bots);
        // The last person in starts the game: the deal is drawn, and a computer player due
        // first moves now.
        let mut game = state.game.clone();
        let before = game.version();
        if full {
            if let Err(e) = deal(&mut game, &contributions) {
                return Attempt::Done(Err(e));
            }
            game = match play_bots(game, &state.bots).await {
                Ok(g) => g,
                Err(e) => return Attempt::Done(Err(e)),
            };
        }
        let deadline =
            (full && game.outcome().is_none()).then(|| now + state.days_per_move * DAY_MS);
        let mut writes = vec![
            state.guard(),
            Write::UseInvite { code_hash, at: now },
            Write::Seat {
                game_id: state.id.clone(),
                seat,
                token_hash,
                name: name.to_owned(),
                contribution: contributions[seat as usize].clone(),
                at: now,
            },
        ];
        writes.extend(action_writes(&state.id, &game, before, None, now));
        if full {
            writes.push(Write::Deadline {
                game_id: state.id.clone(),
                deadline,
            });
        }
        match commit_result(self.store.commit(writes).await) {
            Ok(()) => {}
            // Used meanwhile, or the game moved: judged again on a fresh read.
            Err(None) => return Attempt::Again,
            Err(Some(e)) => return Attempt::Done(Err(e)),
        }
        state.seats = seats;
        state.contributions = contributions;
        state.names[seat as usize] = name.to_owned();
        state.game = game;
        state.deadline = deadline;
        Attempt::Done(Ok((
            token_hash,
            Joined {
                game_id: state.id.clone(),
                seat,
                token,
            },
        )))
    }

    /// One attempt at a seat's action, on this copy of its game.
    async fn act_once(
        &self,
        state: &mut GameState,
        fresh: bool,
        seat: u8,
        req: &SubmitAction,
        key: &(u8, String),
        sent: &str,
    ) -> Attempt<SeatView> {
        let game_id = state.id.clone();
        let game_id = game_id.as_str();
        if let Some((ply, first)) = state.client_ids.get(key) {
            // A roll sent again must carry the contribution it was drawn from: another one
            // would be a second try at the same roll.
            let drawn = state.game.fairness().and_then(|f| {
                let draw = f.draws.into_iter().find(|d| d.ply == ply + 1)?;
                draw.contributions.into_iter().next()
            });
            let other_contribution = drawn.is_some_and(|c| req.contribution.as_ref() != Some(&c));
            if *first != sent || req.expected_version != *ply || other_contribution {
                return Attempt::Done(Err(ApiError::conflict(
                    "action-id-reused",
                    "this client_action_id was used for another action",
                    None,
                )));
            }
            let mut view = state.seat_view(seat);
            view.applied_version = Some(ply + 1);
            return Attempt::Done(Ok(view));
        }
        if !state.full() {
            if !fresh {
                return Attempt::Again;
            }
            return Attempt::Done(Err(ApiError::conflict(
                "waiting-for-opponent",
                "the other seat has not joined yet",
                None,
            )));
        }
        if req.expected_version != state.game.version() {
            if !fresh {
                return Attempt::Again;
            }
            let current = serde_json::to_value(state.seat_view(seat)).ok();
            return Attempt::Done(Err(ApiError::conflict(
                "stale-version",
                "the game has moved on",
                current,
            )));
        }
        let now = self.now();
        if sent == "claim-timeout" && state.deadline.is_none_or(|d| now <= d) {
            return Attempt::Done(Err(ApiError::conflict(
                "deadline-not-passed",
                "the opponent still has time",
                None,
            )));
        }
        let mut next = state.game.clone();
        let Some(actor) = Seat::new(seat).map(Actor::Seat) else {
            return Attempt::Done(Err(ApiError::internal()));
        };
        if let Err(e) = next.apply_text(actor, &req.action) {
            return Attempt::Done(Err(ApiError::action(e)));
        }
        let ply = next.version() - 1;
        // Whatever chance the action brings about (a die to roll) is resolved and stored
        // with it, and so are the moves of computer players whose turn comes next.
        if let Err(e) = roll(&mut next, req.contribution.as_deref()) {
            return Attempt::Done(Err(e));
        }
        let next = match play_bots(next, &state.bots).await {
            Ok(next) => next,
            Err(e) => return Attempt::Done(Err(e)),
        };
        let deadline = next
            .outcome()
            .is_none()
            .then(|| now + state.days_per_move * DAY_MS);
        let mut writes = vec![state.guard()];
        writes.extend(action_writes(
            game_id,
            &next,
            ply,
            Some((req.client_action_id.clone(), sent.to_owned())),
            now,
        ));
        writes.push(Write::Deadline {
            game_id: game_id.into(),
            deadline,
        });
        match commit_result(self.store.commit(writes).await) {
            Ok(()) => {}
            Err(None) => return Attempt::Again,
            Err(Some(e)) => return Attempt::Done(Err(e)),
        }
        state.game = next;
        state.deadline = deadline;
        state.client_ids.insert(key.clone(), (ply, sent.to_owned()));
        let mut view = state.seat_view(seat);
        view.applied_version = Some(ply + 1);
        Attempt::Done(Ok(view))
    }

    /// One attempt at storing a seat's phrase, on this copy of its game.
    async fn say_once(
        &self,
        state: &mut GameState,
        seat: u8,
        req: &SubmitPhrase,
        key: &(u8, String),
    ) -> Attempt<SeatView> {
        let game_id = state.id.clone();
        let game_id = game_id.as_str();
        if let Some(&seq) = state.said_ids.get(key) {
            let mut view = state.seat_view(seat);
            view.said_seq = Some(seq);
            return Attempt::Done(Ok(view));
        }
        if state.said.iter().filter(|s| s.seat == seat).count() >= SAID_PER_SEAT {
            return Attempt::Done(Err(ApiError::conflict(
                "too-many-phrases",
                "this seat has sent as many phrases as a game allows",
                None,
            )));
        }
        let said = Said {
            seq: state.said.len() + 1,
            seat,
            phrase: req.phrase.clone(),
            at: self.now(),
        };
        let write = Write::Phrase {
            game_id: game_id.into(),
            seq: said.seq,
            seat,
            phrase: said.phrase.clone(),
            client_phrase_id: key.1.clone(),
            at: said.at,
        };
        // One row per number and per sender's id: a phrase stored meanwhile by another
        // process makes this a conflict, judged again on a fresh read.
        match commit_result(self.store.commit(vec![write]).await) {
            Ok(()) => {}
            Err(None) => return Attempt::Again,
            Err(Some(e)) => return Attempt::Done(Err(e)),
        }
        let seq = said.seq;
        state.said.push(said);
        state.said_ids.insert(key.clone(), seq);
        let mut view = state.seat_view(seat);
        view.said_seq = Some(seq);
        Attempt::Done(Ok(view))
    }

    /// Waits until the game's version passes `after`, or (when `said` is given) more than
    /// `said` phrases have been sent, or something else changes (a join), at most `timeout`;
    /// then returns the seat's view.
    pub async fn wait(
        &self,
        game_id: &str,
        seat: u8,
        (after, said, joined): (usize, Option<usize>, Option<usize>),
        timeout: Duration,
    ) -> Result<SeatView, ApiError> {
        // Listening starts before the first look, so that no change falls between the two.
        let mut rx = {
            let mut watchers = self.watchers.lock().map_err(|_| ApiError::internal())?;
            watchers
                .entry(game_id.to_owned())
                .or_insert_with(|| watch::channel(()).0)
                .subscribe()
        };
        let result = async {
            let view = self.view(game_id, seat).await?;
            let filled = view.seats_filled.iter().filter(|f| **f).count();
            if view.version > after
                || said.is_some_and(|n| view.said_count > n)
                || joined.is_some_and(|n| filled > n)
            {
                return Ok(view);
            }
            let _ = tokio::time::timeout(timeout.min(MAX_WAIT), rx.changed()).await;
            self.view(game_id, seat).await
        }
        .await;
        drop(rx);
        if let Ok(mut watchers) = self.watchers.lock()
            && watchers
                .get(game_id)
                .is_some_and(|tx| tx.receiver_count() == 0)
        {
            watchers.remove(game_id);
        }
        result
    }

    /// The game's whole record, its players' names and which seats the server's computer
    /// plays: for the authority's own use (a shared page draws it through core's spectator
    /// views; the record itself leaves only when nothing in it is secret).
    pub async fn record_of(
        &self,
        game_id: &str,
    ) -> Result<(Record, Vec<String>, Vec<bool>), ApiError> {
        let (_, state) = self.current(game_id).await?;
        Ok((
            state.game.record(),
            state.names.clone(),
            state.bots.iter().map(Option::is_some).collect(),
        ))
    }

    /// Waits until the game has more than `after` actions (or something else changes), at
    /// most `timeout`; returns its number of actions.
    pub async fn wait_version(
        &self,
        game_id: &str,
        after: usize,
        timeout: Duration,
    ) -> Result<usize, ApiError> {
        // No seat: the view is a spectator's, and only its version is used.
        let view = self
            .wait(game_id, u8::MAX, (after, None, None), timeout)
            .await?;
        Ok(view.version)
    }

    /// The time now, Unix milliseconds (the server's clock, replaceable in tests).
    pub fn time(&self) -> i64 {
        self.now()
    }

    /// The store behind the games.
    pub fn store(&self) -> &Arc<dyn Store> {
        &self.store
    }

    /// Returns the games these tokens hold: the seat's turn first, then the nearest deadline.
    pub async fn mine(&self, tokens: &[String]) -> Result<Vec<SeatView>, ApiError> {
        let mut out = Vec::new();
        for token in tokens {
            if let Ok((gid, seat)) = self.authorize(Some(token), None).await {
                out.push(self.view(&gid, seat).await?);
            }
        }
        out.sort_by_key(|v| {
            (
                !v.your_turn,
                v.deadline.unwrap_or(i64::MAX),
                v.game_id.clone(),
            )
        });
        Ok(out)
    }
}

/// Whether every seat has a person or the server's computer.
/// The most characters a player's name may have.
const NAME_MAX: usize = 40;

/// A player's name as given, trimmed; refused when too long or holding control characters.
fn player_name(name: &str) -> Result<String, ApiError> {
    let name = name.trim();
    if name.chars().count() > NAME_MAX || name.chars().any(char::is_control) {
        return Err(ApiError::invalid(
            "bad-name",
            "a name has at most 40 characters and no control characters",
        ));
    }
    Ok(name.to_owned())
}

fn filled(seats: &[Option<Hash>], bots: &[Option<Strength>]) -> bool {
    seats
        .iter()
        .zip(bots)
        .all(|(token, bot)| token.is_some() || bot.is_some())
}

/// Checks a client's id for an action or a phrase: 1 to 64 characters.
fn client_id(id: &str, code: &'static str, message: &'static str) -> Result<(), ApiError> {
    if id.is_empty() || id.chars().count() > 64 {
        return Err(ApiError::invalid(code, message));
    }
    Ok(())
}

/// Reads and checks the computer seats a create request asks for.
fn bot_seats(req: &CreateGame, count: usize) -> Result<Vec<Option<Strength>>, ApiError> {
    let mut bots = vec![None; count];
    if req.bots.is_empty() {
        return Ok(bots);
    }
    if !AnyMatch::has_computer_players(req.game) {
        return Err(ApiError::invalid(
            "bots-unsupported",
            "the server has no computer player for this game",
        ));
    }
    for bot in &req.bots {
        let seat = bot.seat as usize;
        if seat >= count || bot.seat == req.seat || bots[seat].is_some() {
            return Err(ApiError::invalid(
                "bad-bot-seat",
                "a computer seat must be a seat of the game, not yours, named once",
            ));
        }
        if !AnyMatch::computer_plays_at(req.game, bot.strength) {
            return Err(ApiError::invalid(
                "bad-strength",
                "this game's computer does not play at that strength (Aeroplane chess: easy or strong; Xiangqi: level-1 to level-10; Junqi and Sea-land-air: easy, normal or hard)",
            ));
        }
        bots[seat] = Some(bot.strength);
    }
    Ok(bots)
}

/// The stored name of a strength (`strong`).
fn strength_name(strength: Strength) -> String {
    match serde_json::to_value(strength) {
        Ok(serde_json::Value::String(name)) => name,
        _ => "strong".into(),
    }
}

/// Plays the server's computer players while one of them must act (see [`play_bots_now`]),
/// on a thread for blocking work: a Xiangqi engine searches for up to a couple of seconds,
/// which must not hold up the runtime's threads that serve every other request.
async fn play_bots(game: AnyMatch, bots: &[Option<Strength>]) -> Result<AnyMatch, ApiError> {
    let bot = |seat: &Seat| bots.get(seat.index()).copied().flatten().is_some();
    let due = |game: &AnyMatch| match game.to_act() {
        ToAct::Seat(seat) => bot(&seat),
        ToAct::Seats(seats) => seats.iter().any(bot),
        _ => false,
    };
    if !due(&game) {
        return Ok(game);
    }
    let bots = bots.to_vec();
    tokio::task::spawn_blocking(move || {
        let mut game = game;
        play_bots_now(&mut game, &bots).map(|()| game)
    })
    .await
    .map_err(|_| ApiError::internal())?
}

/// Plays the server's computer players while one of them must act, resolving the chance each
/// action brings about (a roll). The new actions are the game's record past its old version.
fn play_bots_now(game: &mut AnyMatch, bots: &[Option<Strength>]) -> Result<(), ApiError> {
    // Far more actions than any game holds: a guard, not a limit anyone meets.
    for _ in 0..100_000 {
        // One seat to act, or several at once (secret deployments).
        let seats = match game.to_act() {
            ToAct::Seat(seat) => vec![seat],
            ToAct::Seats(seats) => seats,
            _ => return Ok(()),
        };
        let mut acted = false;
        for seat in seats {
            let Some(strength) = bots.get(seat.index()).copied().flatten() else {
                continue;
            };
            let Some(action) = game.computer_action(seat, strength, auth::seed()) else {
                continue;
            };
            game.apply_text(Actor::Seat(seat), &action)
                .map_err(|_| ApiError::internal())?;
            // The computer's seat contributes nothing: its rolls come from the committed seed.
            if game.fairness().is_some() {
                game.resolve_chance_fairly(&[String::new()])
            } else {
                game.resolve_chance(&mut auth::pick)
            }
            .map_err(|_| ApiError::internal())?;
            acted = true;
        }
        if !acted {
            return Ok(());
        }
    }
    Err(ApiError::internal())
}

/// Reads a seat's contribution to a chance: required, and well formed.
fn contribution(sent: Option<&str>) -> Result<String, ApiError> {
    let text = sent.unwrap_or_default();
    match fair::contribution_problem(text) {
        None => Ok(text.to_owned()),
        Some(_) if sent.is_none() => Err(ApiError::invalid(
            "contribution-missing",
            "this action needs your contribution to the chance it brings about: send `contribution`, your own random value (see docs/protocol.md)",
        )),
        Some(problem) => Err(ApiError::invalid("bad-contribution", problem)),
    }
}

/// Refuses a malformed contribution, also where none is needed.
fn well_formed(sent: Option<&str>) -> Result<(), ApiError> {
    match sent {
        Some(_) => contribution(sent).map(|_| ()),
        None => Ok(()),
    }
}

fn reused() -> ApiError {
    ApiError::invalid(
        "contribution-reused",
        "this contribution was used before in this game: send a fresh random value",
    )
}

/// Draws a deal due now (flip mode) from the seats' contributions, in seat order (a seat the
/// computer plays contributes the empty string).
fn deal(game: &mut AnyMatch, contributions: &[Option<String>]) -> Result<(), ApiError> {
    if game.to_act() != ToAct::Chance {
        return Ok(());
    }
    let contributions: Vec<String> = contributions
        .iter()
        .map(|c| c.clone().unwrap_or_default())
        .collect();
    if game.fairness().is_some() {
        game.resolve_chance_fairly(&contributions)
    } else {
        game.resolve_chance(&mut auth::pick)
    }
    .map(|_| ())
    .map_err(|_| ApiError::internal())
}

/// Draws the chance a seat's action brought about (a roll) from the seat's contribution: one
/// is required, and one never used before in the game. A game created before fair chance
/// rolls as it did then.
fn roll(game: &mut AnyMatch, sent: Option<&str>) -> Result<(), ApiError> {
    if game.to_act() != ToAct::Chance {
        return Ok(());
    }
    let Some(fair) = game.fairness() else {
        return game
            .resolve_chance(&mut auth::pick)
            .map(|_| ())
            .map_err(|_| ApiError::internal());
    };
    let mine = contribution(sent)?;
    if fair.used(&mine) {
        return Err(reused());
    }
    game.resolve_chance_fairly(&[mine])
        .map(|_| ())
        .map_err(|_| ApiError::internal())
}

/// The writes for the game's actions from ply `from` on; the first carries the client's id
/// and the text it sent; chance actions carry their contributions.
fn action_writes(
    game_id: &str,
    game: &AnyMatch,
    from: usize,
    submitted: Option<(String, String)>,
    at: i64,
) -> Vec<Write> {
    let record = game.record();
    let draws: HashMap<usize, String> = record
        .fair
        .iter()
        .flat_map(|f| &f.draws)
        .filter(|d| d.ply >= from)
        .map(|d| {
            (
                d.ply,
                serde_json::to_string(&d.contributions).unwrap_or_default(),
            )
        })
        .collect();
    let mut submitted = submitted;
    record.actions[from.min(record.actions.len())..]
        .iter()
        .enumerate()
        .map(|(i, entry)| Write::Action {
            game_id: game_id.into(),
            ply: from + i,
            actor: entry.by.to_string(),
            action: entry.action.clone(),
            sent: submitted.as_ref().map(|(_, sent)| sent.clone()),
            client_action_id: submitted.take().map(|(id, _)| id),
            contributions: draws.get(&(from + i)).cloned(),
            at,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::StoredAction;

    fn stored(actions: &[(&str, &str)], action_count: usize) -> StoredGame {
        StoredGame {
            chance_seed: None,
            contributions: Vec::new(),
            id: "g".into(),
            kind: "xiangqi".into(),
            options: "null".into(),
            setup: "null".into(),
            days_per_move: 3,
            created_at: 1,
            deadline: Some(7),
            seats: vec![(0, [1; 32], "红".into()), (1, [2; 32], "黑".into())],
            bots: Vec::new(),
            actions: actions
                .iter()
                .map(|(actor, action)| StoredAction {
                    contributions: None,
                    actor: (*actor).into(),
                    action: (*action).into(),
                    client_action_id: Some(format!("c-{action}")),
                    sent: None,
                    at: 1,
                })
                .collect(),
            action_count,
            phrases: vec![(0, "hello".into(), "p1".into(), 1)],
        }
    }

    #[test]
    fn a_copy_caught_up_equals_the_game_read_whole() {
        let moves = [("0", "h3e3"), ("1", "h10g8"), ("0", "h1g3")];
        let whole = rebuild(stored(&moves, 3)).expect("the whole game");
        let mut copy = rebuild(stored(&moves[..1], 1)).expect("the first move");
        let mut tail = stored(&moves[1..], 3);
        tail.phrases = vec![(1, "good-move".into(), "p2".into(), 2)];
        absorb(&mut copy, tail).expect("caught up");
        assert_eq!(copy.game.record(), whole.game.record());
        assert_eq!(copy.client_ids, whole.client_ids);
        assert_eq!(copy.said.len(), 2);
        assert_eq!(copy.said_ids.get(&(1, "p2".into())), Some(&2));
        assert_eq!((copy.deadline, &copy.names), (Some(7), &whole.names));
    }

    #[test]
    fn a_copy_the_store_disagrees_with_is_not_caught_up() {
        let mut copy = rebuild(stored(&[("0", "h3e3")], 1)).expect("one move");
        // The store says three actions, but only one follows the copy's: something is missing.
        let gap = absorb(&mut copy, stored(&[("1", "h10g8")], 3));
        assert!(gap.is_err(), "{gap:?}");
        // An action the copy's game refuses.
        let mut copy = rebuild(stored(&[("0", "h3e3")], 1)).expect("one move");
        let refused = absorb(&mut copy, stored(&[("1", "h3e3")], 2));
        assert!(refused.is_err(), "{refused:?}");
    }
}
