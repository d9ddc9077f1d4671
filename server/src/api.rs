//! The HTTP API: routes, extractors that turn bad input into JSON errors, the body-size
//! limit and the rate limits.

use crate::error::ApiError;
use crate::games::{CreateGame, Games, SubmitAction, SubmitPhrase};
use axum::extract::rejection::JsonRejection;
use axum::extract::{ConnectInfo, DefaultBodyLimit, FromRequest, Path, Query, Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::json;
use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The largest request body accepted, in bytes.
pub const BODY_LIMIT: usize = 16 * 1024;
/// The largest body of a write of library entries, in bytes.
pub const ENTRIES_BODY_LIMIT: usize = 1024 * 1024;

/// Shared state behind every handler.
#[derive(Clone, Debug)]
pub struct AppState {
    pub games: Arc<Games>,
    pub libraries: Arc<crate::library::Libraries>,
    pub shares: Arc<crate::shares::Shares>,
    pub limits: Arc<Limits>,
}

/// Builds the router. Tests drive it with `oneshot`; the binary serves it.
pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/api/games", post(create))
        .route("/api/join", post(join))
        .route("/api/games/{id}", get(read))
        .route("/api/games/{id}/actions", post(act))
        .route("/api/games/{id}/say", post(say))
        .route("/api/games/{id}/wait", get(wait))
        .route("/api/my-games", post(mine))
        .route("/api/libraries", post(library_create))
        .route("/api/library", get(library_describe))
        .route(
            "/api/library/entries",
            get(library_read)
                .post(library_write)
                .layer(DefaultBodyLimit::max(ENTRIES_BODY_LIMIT)),
        )
        .route("/api/library/pairings", post(library_offer))
        .route("/api/library/devices/{device_id}", delete(library_unlink))
        .route("/api/pair", post(library_pair))
        .route("/api/games/{id}/share", post(share_game))
        .route(
            "/api/shares",
            post(share_upload).layer(DefaultBodyLimit::max(crate::shares::UPLOAD_LIMIT)),
        )
        .route(
            "/api/shares/{id}",
            delete(share_withdraw)
                .put(share_reshare)
                .layer(DefaultBodyLimit::max(crate::shares::UPLOAD_LIMIT)),
        )
        .merge(
            Router::new()
                .route("/g/{file}", get(shared_page))
                .route("/g/{id}/wait", get(shared_wait))
                .layer(tower_http::compression::CompressionLayer::new()),
        )
        .route("/openapi.json", get(openapi))
        .route("/health", get(health))
        .fallback(|| async { ApiError::not_found("no-route", "no such endpoint") })
        .layer(middleware::from_fn_with_state(state.clone(), rate_limit))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .with_state(state)
}

/// JSON bodies whose errors are JSON too.
#[derive(Debug)]
pub struct Body<T>(pub T);

impl<S: Send + Sync, T: serde::de::DeserializeOwned> FromRequest<S> for Body<T> {
    type Rejection = ApiError;
    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(v)) => Ok(Body(v)),
            Err(rejection) => Err(json_error(&rejection)),
        }
    }
}

fn json_error(rejection: &JsonRejection) -> ApiError {
    if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
        ApiError {
            status: StatusCode::PAYLOAD_TOO_LARGE,
            ..ApiError::bad_request("too-large", "the request body is too large")
        }
    } else {
        ApiError::bad_request("bad-json", &rejection.body_text())
    }
}

fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)?
        .to_str()
        .ok()?
        .strip_prefix("Bearer ")
        .map(str::trim)
}

async fn create(
    State(s): State<AppState>,
    Body(req): Body<CreateGame>,
) -> Result<Response, ApiError> {
    let created = s.games.create(req).await?;
    Ok((StatusCode::CREATED, Json(created)).into_response())
}

#[derive(Deserialize)]
struct JoinRequest {
    invite_code: String,
    /// The joining player's name, shown to the other seats.
    #[serde(default)]
    name: String,
    /// The joiner's random contribution to a deal made when the game starts (flip mode).
    #[serde(default, deserialize_with = "crate::games::present")]
    contribution: Option<String>,
}

async fn join(
    State(s): State<AppState>,
    Body(req): Body<JoinRequest>,
) -> Result<Response, ApiError> {
    if req.invite_code.len() > 64 {
        return Err(ApiError::not_found("unknown-invite", "no such invite code"));
    }
    Ok(Json(
        s.games
            .join(&req.invite_code, &req.name, req.contribution.as_deref())
            .await?,
    )
    .into_response())
}

async fn read(
    State(s): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let (gid, seat) = s.games.authorize(bearer(&headers), Some(&id)).await?;
    Ok(Json(s.games.view(&gid, seat).await?).into_response())
}

async fn act(
    State(s): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Body(req): Body<SubmitAction>,
) -> Result<Response, ApiError> {
    let (gid, seat) = s.games.authorize(bearer(&headers), Some(&id)).await?;
    Ok(Json(s.games.act(&gid, seat, req).await?).into_response())
}

async fn say(
    State(s): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Body(req): Body<SubmitPhrase>,
) -> Result<Response, ApiError> {
    let (gid, seat) = s.games.authorize(bearer(&headers), Some(&id)).await?;
    Ok(Json(s.games.say(&gid, seat, req).await?).into_response())
}

#[derive(Deserialize)]
struct WaitQuery {
    after: usize,
    /// Also answer once more phrases than this have been sent.
    said: Option<usize>,
    /// Also answer once more seats than this are filled (a join moves no version).
    joined: Option<usize>,
    /// Seconds, at most 30 (the default).
    timeout: Option<u64>,
}

async fn wait(
    State(s): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    query: Result<Query<WaitQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(q) = query.map_err(|e| ApiError::bad_request("bad-query", &e.body_text()))?;
    let (gid, seat) = s.games.authorize(bearer(&headers), Some(&id)).await?;
    let timeout = Duration::from_secs(q.timeout.unwrap_or(30).min(30));
    Ok(Json(
        s.games
            .wait(&gid, seat, (q.after, q.said, q.joined), timeout)
            .await?,
    )
    .into_response())
}

#[derive(Deserialize)]
struct MineRequest {
    tokens: Vec<String>,
}

async fn mine(
    State(s): State<AppState>,
    Body(req): Body<MineRequest>,
) -> Result<Response, ApiError> {
    if req.tokens.len() > 200 {
        return Err(ApiError::invalid(
            "too-many-tokens",
            "send at most 200 tokens",
        ));
    }
    let games = s.games.mine(&req.tokens).await?;
    Ok(Json(json!({ "games": games })).into_response())
}

async fn library_create(
    State(s): State<AppState>,
    Body(req): Body<crate::library::NewLibrary>,
) -> Result<Response, ApiError> {
    let entered = s.libraries.create(req).await?;
    Ok((StatusCode::CREATED, Json(entered)).into_response())
}

async fn library_describe(
    State(s): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let caller = s.libraries.authorize(bearer(&headers)).await?;
    Ok(Json(s.libraries.describe(&caller).await?).into_response())
}

#[derive(Deserialize)]
struct EntriesQuery {
    #[serde(default)]
    after: i64,
    limit: Option<u32>,
}

async fn library_read(
    State(s): State<AppState>,
    headers: HeaderMap,
    query: Result<Query<EntriesQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(q) = query.map_err(|e| ApiError::bad_request("bad-query", &e.body_text()))?;
    let caller = s.libraries.authorize(bearer(&headers)).await?;
    Ok(Json(s.libraries.read(&caller, q.after, q.limit).await?).into_response())
}

async fn library_write(
    State(s): State<AppState>,
    headers: HeaderMap,
    Body(req): Body<crate::library::WriteEntries>,
) -> Result<Response, ApiError> {
    let caller = s.libraries.authorize(bearer(&headers)).await?;
    let written = s.libraries.write(&caller, req).await?;
    Ok(Json(json!({ "written": written })).into_response())
}

async fn library_offer(
    State(s): State<AppState>,
    headers: HeaderMap,
    Body(req): Body<crate::library::Offer>,
) -> Result<Response, ApiError> {
    let caller = s.libraries.authorize(bearer(&headers)).await?;
    let expires_at = s.libraries.offer(&caller, req).await?;
    Ok((
        StatusCode::CREATED,
        Json(json!({ "expires_at": expires_at })),
    )
        .into_response())
}

async fn library_pair(
    State(s): State<AppState>,
    Body(req): Body<crate::library::Pair>,
) -> Result<Response, ApiError> {
    Ok(Json(s.libraries.pair(req).await?).into_response())
}

async fn library_unlink(
    State(s): State<AppState>,
    Path(device_id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let caller = s.libraries.authorize(bearer(&headers)).await?;
    s.libraries.unlink(&caller, &device_id).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

async fn share_game(
    State(s): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let (gid, _) = s.games.authorize(bearer(&headers), Some(&id)).await?;
    let (shared, new) = s.shares.share_game(&gid).await?;
    let status = if new {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok((status, Json(shared)).into_response())
}

async fn share_upload(
    State(s): State<AppState>,
    Body(req): Body<crate::shares::Upload>,
) -> Result<Response, ApiError> {
    let shared = s.shares.upload(req).await?;
    Ok((StatusCode::CREATED, Json(shared)).into_response())
}

async fn share_reshare(
    State(s): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Body(req): Body<crate::shares::Upload>,
) -> Result<Response, ApiError> {
    let shared = s.shares.reshare(&id, bearer(&headers), req).await?;
    Ok(Json(shared).into_response())
}

async fn share_withdraw(
    State(s): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    s.shares.withdraw(&id, bearer(&headers)).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

#[derive(Deserialize)]
struct PageQuery {
    lang: Option<String>,
    n: Option<String>,
    ply: Option<usize>,
}

/// `/g/{id}` (the page), `/g/{id}.png`, `/g/{id}.pgn`, `/g/{id}.json`, and `/g/font.otf`.
async fn shared_page(
    State(s): State<AppState>,
    Path(file): Path<String>,
    headers: HeaderMap,
    query: Result<Query<PageQuery>, axum::extract::rejection::QueryRejection>,
) -> Response {
    use crate::page::{Lang, Notation, Page};
    let q = match query {
        Ok(Query(q)) => q,
        Err(e) => return ApiError::bad_request("bad-query", &e.body_text()).into_response(),
    };
    let accept = headers
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok());
    let lang = Lang::pick(q.lang.as_deref(), accept);
    if file == "font.otf" {
        return (
            [
                (header::CONTENT_TYPE, "font/otf"),
                (header::CACHE_CONTROL, "public, max-age=604800"),
            ],
            crate::shares::FONT,
        )
            .into_response();
    }
    let (id, ext) = file.split_once('.').unwrap_or((&file, ""));
    let html = |status: StatusCode, body: String| {
        (
            status,
            [
                (header::CONTENT_TYPE, "text/html; charset=utf-8"),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            body,
        )
            .into_response()
    };
    let refused = |e: ApiError| match (ext, e.status) {
        ("", StatusCode::GONE) => html(StatusCode::GONE, crate::page::gone(lang, true)),
        ("", StatusCode::NOT_FOUND) => html(StatusCode::NOT_FOUND, crate::page::gone(lang, false)),
        _ => e.into_response(),
    };
    if ext == "png" {
        return match s.shares.picture(id).await {
            Ok(png) => (
                [
                    (header::CONTENT_TYPE, "image/png"),
                    (header::CACHE_CONTROL, "public, max-age=60"),
                ],
                png.as_ref().clone(),
            )
                .into_response(),
            Err(e) => refused(e),
        };
    }
    let shown = match s.shares.shown(id).await {
        Ok(shown) => shown,
        Err(e) => return refused(e),
    };
    let download = |kind: &str, body: String| {
        (
            [
                (header::CONTENT_TYPE, kind.to_owned()),
                (
                    header::CONTENT_DISPOSITION,
                    format!("attachment; filename=\"qiguan-{id}.{ext}\""),
                ),
            ],
            body,
        )
            .into_response()
    };
    match (ext, &shown.record) {
        ("", _) => {}
        ("json", Some(record)) => return download("application/json", record.to_json()),
        ("pgn", Some(record)) if record.game == qiguan_core::GameKind::Xiangqi => {
            return match crate::page::pgn(record, &shown.names) {
                Some(pgn) => download("application/x-chess-pgn; charset=utf-8", pgn),
                None => ApiError::internal().into_response(),
            };
        }
        ("json" | "pgn", None) => {
            return ApiError::forbidden(
                "secret",
                "the record of a game with hidden pieces shows once the game is over",
            )
            .into_response();
        }
        _ => return ApiError::not_found("no-route", "no such endpoint").into_response(),
    }
    let origin = origin(&headers);
    let page = Page {
        id,
        sheet: &shown.sheet,
        names: &shown.names,
        computer: &shown.computer,
        downloads: shown.record.is_some(),
        live: shown.live,
        lang,
        notation: Notation::pick(q.n.as_deref(), lang),
        ply: q.ply,
        origin: &origin,
    };
    html(StatusCode::OK, crate::page::render(&page))
}

/// Where this server is reached from outside: the scheme a proxy in front says (else http)
/// and the host the browser asked for.
fn origin(headers: &HeaderMap) -> String {
    let get = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    let host = get("x-forwarded-host")
        .or_else(|| get("host"))
        .filter(|h| {
            h.chars()
                .all(|c| c.is_ascii_alphanumeric() || ".-:[]".contains(c))
        })
        .unwrap_or("localhost");
    let scheme = match get("x-forwarded-proto") {
        Some("https") => "https",
        _ => "http",
    };
    format!("{scheme}://{host}")
}

#[derive(Deserialize)]
struct SharedWaitQuery {
    after: usize,
}

async fn shared_wait(
    State(s): State<AppState>,
    Path(id): Path<String>,
    query: Result<Query<SharedWaitQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(q) = query.map_err(|e| ApiError::bad_request("bad-query", &e.body_text()))?;
    let version = s.shares.wait(&id, q.after, crate::games::MAX_WAIT).await?;
    Ok((
        [(header::CACHE_CONTROL, "no-store")],
        Json(json!({ "version": version })),
    )
        .into_response())
}

async fn openapi() -> Response {
    (
        [(header::CONTENT_TYPE, "application/json")],
        include_str!("../openapi.json"),
    )
        .into_response()
}

async fn health() -> Response {
    Json(json!({ "ok": true, "version": env!("CARGO_PKG_VERSION") })).into_response()
}

/// Token buckets per client address and per seat or device token, and one per address for
/// pairing attempts (which guess at a secret, so they are held much lower).
#[derive(Debug)]
pub struct Limits {
    per_ip: Bucket,
    per_token: Bucket,
    pairing: Bucket,
    uploads: Bucket,
}

impl Limits {
    /// `ip_rate` and `token_rate` are sustained requests per second; bursts of 4 seconds' worth
    /// are allowed. A rate of 0 switches that limit off.
    pub fn new(ip_rate: f64, token_rate: f64) -> Limits {
        Limits {
            per_ip: Bucket::new(ip_rate),
            per_token: Bucket::new(token_rate),
            pairing: Bucket::new(0.0),
            uploads: Bucket::new(0.0),
        }
    }

    /// Allows `per_minute` pairing attempts per minute per address, in bursts of as many, and
    /// as many uploads of games to share (0: no limit).
    pub fn with_pairing(mut self, per_minute: f64) -> Limits {
        let bucket = || Bucket {
            rate: per_minute / 60.0,
            burst: per_minute.max(1.0),
            seen: Mutex::default(),
        };
        self.pairing = bucket();
        self.uploads = bucket();
        self
    }
}

#[derive(Debug)]
struct Bucket {
    rate: f64,
    burst: f64,
    seen: Mutex<HashMap<Vec<u8>, (f64, Instant)>>,
}

impl Bucket {
    fn new(rate: f64) -> Self {
        Bucket {
            rate,
            burst: (rate * 4.0).max(1.0),
            seen: Mutex::default(),
        }
    }

    /// Takes one request from `key`'s bucket; false when it is empty.
    fn take(&self, key: &[u8]) -> bool {
        if self.rate <= 0.0 {
            return true;
        }
        let now = Instant::now();
        let Ok(mut seen) = self.seen.lock() else {
            return true;
        };
        if seen.len() > 100_000 {
            // Forget clients that have been quiet long enough to have a full bucket again.
            let full_after = Duration::from_secs_f64(self.burst / self.rate);
            seen.retain(|_, (_, t)| now.duration_since(*t) < full_after);
        }
        let (tokens, last) = seen.entry(key.to_vec()).or_insert((self.burst, now));
        *tokens = (*tokens + now.duration_since(*last).as_secs_f64() * self.rate).min(self.burst);
        *last = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

async fn rate_limit(State(s): State<AppState>, req: Request, next: Next) -> Response {
    let ip = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map_or(IpAddr::V4(Ipv4Addr::LOCALHOST), |c| c.0.ip());
    let ip_key = ip.to_string().into_bytes();
    if !s.limits.per_ip.take(&ip_key) {
        return ApiError::too_many().into_response();
    }
    if req.uri().path() == "/api/pair" && !s.limits.pairing.take(&ip_key) {
        return ApiError::too_many().into_response();
    }
    if req.uri().path() == "/api/shares"
        && req.method() == axum::http::Method::POST
        && !s.limits.uploads.take(&ip_key)
    {
        return ApiError::too_many().into_response();
    }
    if let Some(token) = bearer(req.headers()) {
        let key = crate::auth::hash(token);
        if !s.limits.per_token.take(&key) {
            return ApiError::too_many().into_response();
        }
    }
    next.run(req).await
}
