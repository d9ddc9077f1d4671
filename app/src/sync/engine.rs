//! Correspondence play: the HTTP client for qiguan-server and the engine that keeps local
//! games in step with it. No UI here: the app runs it on a worker thread, the end-to-end tests
//! drive it directly.
//!
//! An action made on this device is checked by core, then written with an outbox entry in one
//! transaction, so it is shown at once and survives a crash even with no network. `flush`
//! sends the outbox oldest first; each entry carries a `client_action_id`, so a resend after a
//! lost answer (or a crash between sending and forgetting) is applied once. The server's record
//! is the truth: `refresh` and `wait` mirror it into the local history.
//!
//! A game with secrets is refereed by the server, which sends each seat only its view
//! while the game goes on. The device keeps that view in place of the record, checks an action
//! against the view's legal actions, and queues it without recording it: the server's answer
//! is the next view. When the game ends the server sends the whole record, which replaces the
//! view, so that the history replays the game with every piece shown.

use crate::store::{
    GameId, Mode, NewGame, OutboxEntry, Phrase, RemoteGame, Standing, Store, StoreError,
};
use qiguan_core::Strength;
use qiguan_core::{Actor, AnyMatch, GameKind, Record, RecordEntry, Seat, ToAct};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::fmt;
use std::path::Path;
use std::time::Duration;

/// Why a sync step failed.
#[derive(Debug)]
pub enum SyncError {
    /// The server could not be reached (the action stays queued).
    Offline(String),
    /// The server answered with an error.
    Refused {
        /// HTTP status.
        status: u16,
        /// The server's stable code.
        code: String,
        /// Its message.
        message: String,
        /// With `stale-version`: the game as it now is.
        current: Option<Value>,
    },
    /// Core refused the action before anything was queued.
    Illegal(qiguan_core::ActionError),
    /// The local store failed.
    Store(StoreError),
    /// The server said something this client does not understand.
    Protocol(String),
}

impl SyncError {
    /// Why, in a word the screens translate: the server's own code when it refused
    /// (`unknown-invite`, `invite-used`, `rate-limited`, …), else `offline`, `illegal`,
    /// `storage` or `protocol`.
    pub fn code(&self) -> String {
        match self {
            SyncError::Offline(_) => "offline".into(),
            SyncError::Refused { code, .. } => code.clone(),
            SyncError::Illegal(_) => "illegal".into(),
            SyncError::Store(_) => "storage".into(),
            SyncError::Protocol(_) => "protocol".into(),
        }
    }
}

impl fmt::Display for SyncError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SyncError::Offline(e) => write!(f, "the server cannot be reached: {e}"),
            SyncError::Refused { code, message, .. } => write!(f, "{message} ({code})"),
            SyncError::Illegal(e) => write!(f, "{e}"),
            SyncError::Store(e) => write!(f, "{e}"),
            SyncError::Protocol(e) => write!(f, "unexpected answer from the server: {e}"),
        }
    }
}

impl std::error::Error for SyncError {}

impl From<StoreError> for SyncError {
    fn from(e: StoreError) -> Self {
        SyncError::Store(e)
    }
}

/// A game as the server shows it to one seat.
#[derive(Clone, Debug, Deserialize, Serialize)]
pub struct ServerView {
    pub game_id: String,
    pub game: GameKind,
    pub seat: u8,
    pub seats_filled: Vec<bool>,
    /// Each seat's player's name as given to the server ("" when not given or not joined).
    #[serde(default)]
    pub names: Vec<String>,
    /// For each seat, the strength of the server's computer player in it.
    #[serde(default)]
    pub bots: Vec<Option<Strength>>,
    pub version: usize,
    pub your_turn: bool,
    pub to_act: ToAct,
    pub legal_actions: Vec<String>,
    /// Core's match view for this seat.
    #[serde(default)]
    pub view: Value,
    pub actions: Option<Vec<RecordEntry>>,
    #[serde(default)]
    pub options: Value,
    #[serde(default)]
    pub setup: Value,
    pub deadline: Option<i64>,
    pub days_per_move: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub applied_version: Option<usize>,
    /// The newest preset phrases the seats have sent, oldest first.
    #[serde(default)]
    pub said: Vec<Said>,
    /// How many phrases have been sent in the game.
    #[serde(default)]
    pub said_count: usize,
    /// For a phrase this device sent: its number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub said_seq: Option<usize>,
    /// Provably fair chance: the server's commitment, the draws, the seed once it is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fair: Option<qiguan_core::fair::Fairness>,
}

/// A preset phrase as the server forwards it.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
pub struct Said {
    pub seq: usize,
    pub seat: u8,
    pub phrase: String,
    pub at: i64,
}

impl ServerView {
    /// The standing of a game whose record the server keeps: from the view alone.
    fn standing(&self) -> Standing {
        Standing {
            plies: self.version,
            moves: self.view["moves"].as_u64().unwrap_or(0) as usize,
            outcome: match &self.to_act {
                ToAct::Over(outcome) => Some(outcome.clone()),
                _ => None,
            },
        }
    }

    /// Checks an action against this view before it is queued: listed among the legal
    /// actions, or (a deployment, where only a few layouts are listed) a valid layout for this
    /// seat's side, as core judges it from the view.
    fn allows(&self, action: &str) -> Result<(), SyncError> {
        let text = action.trim();
        if self.legal_actions.iter().any(|a| a == text) {
            return Ok(());
        }
        let refused = |why: String| {
            SyncError::Illegal(qiguan_core::ActionError::Illegal(
                qiguan_core::IllegalMove::Other(why),
            ))
        };
        // A deployment, where only a few layouts are listed: core checks the layout against
        // this seat's view.
        if text.starts_with("deploy:")
            && self.legal_actions.iter().any(|a| a.starts_with("deploy:"))
        {
            let seat = Seat::new(self.seat)
                .ok_or_else(|| SyncError::Protocol(format!("no seat {}", self.seat)))?;
            return qiguan_core::deploy::check_layout_json(self.game, &self.view, seat, text)
                .map_err(|problems| refused(problems.join("; ")));
        }
        if self.legal_actions.is_empty() {
            return Err(SyncError::Illegal(qiguan_core::ActionError::NotYourTurn));
        }
        Err(refused(format!("{text} is not possible now")))
    }
}

/// The server's answer to a created game.
#[derive(Clone, Debug, Deserialize)]
pub struct Created {
    pub game_id: String,
    pub seat: u8,
    pub token: String,
    pub invite_code: String,
    /// Every open seat's invite, in seat order (games for more than two).
    #[serde(default)]
    pub invites: Vec<SeatInvite>,
}

/// One open seat's invite code.
#[derive(Clone, Debug, Deserialize)]
pub struct SeatInvite {
    pub seat: u8,
    pub code: String,
}

/// The server's answer to a join.
#[derive(Clone, Debug, Deserialize)]
pub struct Joined {
    pub game_id: String,
    pub seat: u8,
    pub token: String,
}

/// A link to a game's page, as the server made it.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct Shared {
    /// The link's id: the page is `/g/{id}`.
    pub id: String,
    /// For an upload, the key that withdraws the link.
    #[serde(default)]
    pub key: Option<String>,
}

/// The HTTP client.
#[derive(Clone, Debug)]
pub struct Client {
    http: reqwest::Client,
}

impl Default for Client {
    fn default() -> Self {
        Client::new()
    }
}

impl Client {
    /// Creates a client; requests time out after 40 s (long polls last up to 30 s).
    pub fn new() -> Client {
        Client::with_roots(Vec::new())
    }

    /// Creates a client that also trusts these certificates (DER): a self-hosted server's own
    /// certificate authority, or a test's. HTTPS servers are checked against the Mozilla roots
    /// bundled in the app (webpki-root-certs) plus these, the same on every platform; plain
    /// HTTP (a server on the local network) works as before.
    pub fn with_roots(extra: Vec<Vec<u8>>) -> Client {
        // ring is the one cryptography provider built in; installing it as the process default
        // can only fail if it already is.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let roots = webpki_root_certs::TLS_SERVER_ROOT_CERTS
            .iter()
            .map(|c| c.as_ref().to_vec())
            .chain(extra)
            .filter_map(|der| reqwest::Certificate::from_der(&der).ok());
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(5))
            .timeout(Duration::from_secs(40))
            .tls_certs_only(roots)
            .build()
            .unwrap_or_default();
        Client { http }
    }

    /// The underlying HTTP client.
    pub(crate) fn http(&self) -> &reqwest::Client {
        &self.http
    }

    /// Sends a request; a 2xx answer's JSON (`null` for an empty body) as `T`, any other as
    /// [`SyncError::Refused`] with the server's code.
    pub(crate) async fn send<T: serde::de::DeserializeOwned>(
        &self,
        req: reqwest::RequestBuilder,
    ) -> Result<T, SyncError> {
        let resp = req
            .send()
            .await
            .map_err(|e| SyncError::Offline(e.to_string()))?;
        let status = resp.status().as_u16();
        let bytes = resp
            .bytes()
            .await
            .map_err(|e| SyncError::Offline(e.to_string()))?;
        read_answer(status, &bytes)
    }

    /// Asks `server` whether it is a Qiguan server (its `/health`): `Ok` when it answers as one,
    /// [`SyncError::Offline`] when nothing answers there, [`SyncError::Protocol`] when
    /// something else does (a web page, another program). Gives up after a few seconds.
    pub async fn health(&self, server: &str) -> Result<(), SyncError> {
        let req = self
            .http
            .get(format!("{}/health", server.trim_end_matches('/')))
            .timeout(Duration::from_secs(6));
        let answer: Value = self.send(req).await.map_err(|e| match e {
            SyncError::Refused { status, .. } => {
                SyncError::Protocol(format!("answered {status} where a Qiguan server answers"))
            }
            e => e,
        })?;
        if answer["ok"] == Value::Bool(true) {
            Ok(())
        } else {
            Err(SyncError::Protocol("not a Qiguan server's answer".into()))
        }
    }

    /// Creates a game on `server` with this device in `seat` under the player's `name`, and
    /// the server's computer in the seats `bots` names.
    #[allow(clippy::too_many_arguments)] // each is one field of the request
    pub async fn create(
        &self,
        server: &str,
        game: GameKind,
        options: &Value,
        seat: u8,
        bots: &[(u8, Strength)],
        days_per_move: i64,
        name: &str,
    ) -> Result<Created, SyncError> {
        let bots: Vec<Value> = bots
            .iter()
            .map(|(seat, strength)| json!({"seat": seat, "strength": strength}))
            .collect();
        // A fresh random contribution to a deal the game may start with (flip mode).
        let body = json!({"game": game, "options": options, "seat": seat, "bots": bots,
                          "days_per_move": days_per_move, "name": name,
                          "contribution": new_action_id()});
        self.send(self.http.post(format!("{server}/api/games")).json(&body))
            .await
    }

    /// Takes the seat an invite code is for, under the player's `name`.
    pub async fn join(&self, server: &str, code: &str, name: &str) -> Result<Joined, SyncError> {
        self.send(
            self.http
                .post(format!("{server}/api/join"))
                .json(&json!({"invite_code": code, "name": name,
                               "contribution": new_action_id()})),
        )
        .await
    }

    /// Reads a game as the token's seat sees it.
    pub async fn view(&self, server: &str, id: &str, token: &str) -> Result<ServerView, SyncError> {
        self.send(
            self.http
                .get(format!("{server}/api/games/{id}"))
                .bearer_auth(token),
        )
        .await
    }

    /// Makes (or finds) the link to a correspondence game's page for anyone, as its seat.
    pub async fn share_game(
        &self,
        server: &str,
        id: &str,
        token: &str,
    ) -> Result<Shared, SyncError> {
        self.send(
            self.http
                .post(format!("{server}/api/games/{id}/share"))
                .bearer_auth(token),
        )
        .await
    }

    /// Uploads a game kept on this device to be shown to anyone (`{record}` or `{sheet}`,
    /// with `names`: see [`crate::share::upload_body`]).
    pub async fn upload_share(&self, server: &str, body: &Value) -> Result<Shared, SyncError> {
        self.send(self.http.post(format!("{server}/api/shares")).json(body))
            .await
    }

    /// Withdraws a link: `token` is the game's seat token, or the key its upload returned.
    pub async fn withdraw_share(
        &self,
        server: &str,
        link: &str,
        token: &str,
    ) -> Result<(), SyncError> {
        self.send::<Value>(
            self.http
                .delete(format!("{server}/api/shares/{link}"))
                .bearer_auth(token),
        )
        .await
        .map(drop)
    }

    /// Submits an action.
    pub async fn act(
        &self,
        server: &str,
        id: &str,
        token: &str,
        expected_version: usize,
        client_action_id: &str,
        action: &str,
    ) -> Result<ServerView, SyncError> {
        // The action's id is random and never reused: it is also this seat's contribution to
        // the chance the action brings about (a roll), so that a resend carries the same one.
        let body = json!({"expected_version": expected_version, "client_action_id": client_action_id,
                          "action": action, "contribution": client_action_id});
        self.send(
            self.http
                .post(format!("{server}/api/games/{id}/actions"))
                .bearer_auth(token)
                .json(&body),
        )
        .await
    }

    /// Sends a preset phrase.
    pub async fn say(
        &self,
        server: &str,
        id: &str,
        token: &str,
        client_phrase_id: &str,
        phrase: &str,
    ) -> Result<ServerView, SyncError> {
        let body = json!({"client_phrase_id": client_phrase_id, "phrase": phrase});
        self.send(
            self.http
                .post(format!("{server}/api/games/{id}/say"))
                .bearer_auth(token)
                .json(&body),
        )
        .await
    }

    /// Long-polls until the version passes `after`, more than `said` phrases have been sent,
    /// more than `joined` seats are filled (when given: a join moves no version), or `timeout`
    /// (at most 30 s) passes.
    pub async fn wait(
        &self,
        server: &str,
        id: &str,
        token: &str,
        (after, said, joined): (usize, usize, Option<usize>),
        timeout: Duration,
    ) -> Result<ServerView, SyncError> {
        let joined = joined.map_or(String::new(), |n| format!("&joined={n}"));
        let url = format!(
            "{server}/api/games/{id}/wait?after={after}&said={said}{joined}&timeout={}",
            timeout.as_secs().clamp(1, 30)
        );
        self.send(self.http.get(url).bearer_auth(token)).await
    }
}

/// Reads a server's answer: a 2xx answer's JSON (`null` for an empty body) as `T`, any other
/// as [`SyncError::Refused`] with the server's code and, where it sent one, the game as it
/// stands. Whatever the bytes, an error and never a panic (fuzz target `answers`).
pub(crate) fn read_answer<T: serde::de::DeserializeOwned>(
    status: u16,
    bytes: &[u8],
) -> Result<T, SyncError> {
    let body: Value = if bytes.is_empty() {
        Value::Null
    } else {
        serde_json::from_slice(bytes).map_err(|e| SyncError::Protocol(e.to_string()))?
    };
    if (200..300).contains(&status) {
        return serde_json::from_value(body).map_err(|e| SyncError::Protocol(e.to_string()));
    }
    let text = |k: &str| body["error"][k].as_str().unwrap_or("").to_owned();
    Err(SyncError::Refused {
        status,
        code: text("code"),
        message: text("message"),
        current: body.get("current").cloned(),
    })
}

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

pub(crate) fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// Returns a fresh client action id: 128 random bits in hex.
pub fn new_action_id() -> String {
    let mut bytes = [0u8; 16];
    if getrandom::fill(&mut bytes).is_err() {
        // Without the OS's randomness, time and a counter still never repeat on this device.
        static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        bytes[..8].copy_from_slice(&(now() as u64).to_le_bytes());
        bytes[8..].copy_from_slice(&n.to_le_bytes());
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
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

/// Keeps the phrases a view carries; true if any was new, with those the other seats sent
/// (news for the screen, see [`Correspondence::take_heard`]).
fn hear(
    store: &mut Store,
    remote: &RemoteGame,
    view: &ServerView,
) -> Result<(bool, Vec<(GameId, Phrase)>), SyncError> {
    if view.said.is_empty() {
        return Ok((false, Vec::new()));
    }
    let said: Vec<(usize, u8, String, i64)> = view
        .said
        .iter()
        .map(|s| (s.seq, s.seat, s.phrase.clone(), s.at))
        .collect();
    let new = store.hear_phrases(remote.game_id, &said)?;
    let any = !new.is_empty();
    let heard = new
        .into_iter()
        .filter(|p| p.seat != remote.seat)
        .map(|p| (remote.game_id, p))
        .collect();
    Ok((any, heard))
}

fn mirror_game(
    store: &mut Store,
    remote: &RemoteGame,
    view: &ServerView,
) -> Result<bool, SyncError> {
    let id = remote.game_id;
    let held = seat_view(store, id)?;
    let Some(server) = view.actions.clone() else {
        return mirror_view(store, remote, held, view);
    };
    if held.is_some() {
        // The game with secrets is over and its record has come: it replaces the view.
        let game = replay(view, &server)?;
        for entry in store.outbox()?.iter().filter(|e| e.game_id == id) {
            store.unqueue(entry.id)?;
        }
        store.update_remote(id, view.deadline, view.your_turn)?;
        let standing = Standing::of(&game);
        store.replace_actions(id, 0, &server, &standing, now())?;
        store.set_seat_view(id, None, &standing, now())?;
        store.set_fair(id, view.fair.as_ref())?;
        return Ok(true);
    }
    let local = store.load(id)?.record.actions;
    let pending: Vec<OutboxEntry> = store
        .outbox()?
        .into_iter()
        .filter(|e| e.game_id == id)
        .collect();
    let confirmed = local.len().saturating_sub(pending.len());
    store.update_remote(id, view.deadline, view.your_turn)?;
    // The last seat taken starts the game: that is news even with no new action.
    let started = view.seats_filled.iter().all(|f| *f) && remote.invite_code.is_some();
    if started {
        store.clear_invite(id)?;
    }
    // The server's commitment, its draws and, once over, its seed (see qiguan_core::fair).
    if view.fair.is_some() {
        store.set_fair(id, view.fair.as_ref())?;
    }
    let agrees = server.len() >= confirmed && server[..confirmed] == local[..confirmed];
    if agrees && server.len() == confirmed {
        return Ok(started);
    }
    // The server has moved on: its record wins, and queued actions made on the older
    // position are dropped (the server would refuse them as stale).
    for entry in &pending {
        store.unqueue(entry.id)?;
    }
    let game = replay(view, &server)?;
    let from = if agrees { confirmed } else { 0 };
    store.replace_actions(id, from, &server[from..], &Standing::of(&game), now())?;
    Ok(true)
}

/// Keeps the server's newer view of a game with secrets. Queued actions stay queued: the
/// next flush sends them, and the server refuses any the view has overtaken.
fn mirror_view(
    store: &mut Store,
    remote: &RemoteGame,
    held: Option<ServerView>,
    view: &ServerView,
) -> Result<bool, SyncError> {
    let id = remote.game_id;
    store.update_remote(id, view.deadline, view.your_turn)?;
    let joined = view.seats_filled.iter().all(|f| *f);
    if joined && remote.invite_code.is_some() {
        store.clear_invite(id)?;
    }
    let same = held.as_ref().is_some_and(|h| {
        h.version == view.version
            && h.seats_filled == view.seats_filled
            && h.legal_actions == view.legal_actions
    });
    if same {
        return Ok(false);
    }
    if held.as_ref().is_some_and(|h| h.version > view.version) {
        // An older answer (a long poll that crossed an action): keep the newer view.
        return Ok(false);
    }
    let mut kept = view.clone();
    kept.applied_version = None;
    // Phrases are kept in their own table.
    kept.said.clear();
    kept.said_seq = None;
    let json = serde_json::to_string(&kept).map_err(|e| SyncError::Protocol(e.to_string()))?;
    store.set_seat_view(id, Some(&json), &view.standing(), now())?;
    Ok(true)
}

/// Reads the kept view of a game with secrets.
pub fn seat_view(store: &Store, id: GameId) -> Result<Option<ServerView>, SyncError> {
    match store.seat_view(id)? {
        None => Ok(None),
        Some(json) => serde_json::from_str(&json)
            .map(Some)
            .map_err(|e| SyncError::Protocol(format!("the kept view of game {}: {e}", id.0))),
    }
}

/// Checks an action on a game with secrets against the kept view and queues it for the
/// server. While a move, deployment or resignation waits, nothing more may be queued (the view
/// no longer says what is legal); a draw offer or answer may be followed by a move.
pub fn queue_hidden(
    store: &mut Store,
    id: GameId,
    view: &ServerView,
    action: &str,
) -> Result<(), SyncError> {
    let pending: Vec<OutboxEntry> = store
        .outbox()?
        .into_iter()
        .filter(|e| e.game_id == id)
        .collect();
    let shared = |a: &str| matches!(a, "offer-draw" | "accept-draw" | "decline-draw");
    if pending.iter().any(|e| !shared(&e.action)) {
        return Err(SyncError::Illegal(qiguan_core::ActionError::NotYourTurn));
    }
    if pending.iter().any(|e| e.action == action.trim()) {
        return Err(SyncError::Illegal(
            qiguan_core::ActionError::DrawAlreadyOffered,
        ));
    }
    view.allows(action)?;
    store.queue_only(
        id,
        view.version + pending.len(),
        action.trim(),
        &new_action_id(),
        now(),
    )?;
    Ok(())
}

fn replay(view: &ServerView, actions: &[RecordEntry]) -> Result<AnyMatch, SyncError> {
    let record = Record {
        format: qiguan_core::RECORD_FORMAT,
        game: view.game,
        options: view.options.clone(),
        setup: view.setup.clone(),
        actions: actions.to_vec(),
        fair: view.fair.clone(),
    };
    AnyMatch::from_record(&record).map_err(|e| SyncError::Protocol(e.to_string()))
}
