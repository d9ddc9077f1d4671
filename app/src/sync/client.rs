//! The HTTP client for qiguan-server: one method per request, and how an answer is read.

use super::{Created, Joined, ServerView, Shared, SyncError, new_action_id};
use qiguan_core::GameKind;
use qiguan_core::Strength;
use serde_json::{Value, json};
use std::time::Duration;

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
    /// with `names`: see [`crate::sync::share::upload_body`]).
    pub async fn upload_share(&self, server: &str, body: &Value) -> Result<Shared, SyncError> {
        self.send(self.http.post(format!("{server}/api/shares")).json(body))
            .await
    }

    /// Sends an uploaded game again as it stands now (`key`: what the upload returned).
    pub async fn update_share(
        &self,
        server: &str,
        link: &str,
        key: &str,
        body: &Value,
    ) -> Result<Shared, SyncError> {
        self.send(
            self.http
                .put(format!("{server}/api/shares/{link}"))
                .bearer_auth(key)
                .json(body),
        )
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
