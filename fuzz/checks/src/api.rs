//! The server's API as a whole: requests built from the input go through the axum router
//! in-process, on a fresh SQLite store, as a client anywhere on the internet could send them.
//! Every answer must be one of the statuses the OpenAPI document lists for its route, never a
//! 500, and an error's body must be the documented JSON error; and no seat's view of a game
//! in play names a piece hidden from it.
//!
//! The input is a sequence of requests separated by the byte 0xff (never in UTF-8 text). A request's first byte picks the
//! route, its second the token it carries (none, or one an earlier answer gave: the creator's,
//! the joiner's, a library's), the rest is its body. `{id}` is the game an earlier answer
//! created, and an invite code in a body is replaced by the last one given (`@invite`), so that
//! inputs reach games in play, not only refusals.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::Value;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use tower::ServiceExt;

/// The routes, as the OpenAPI document names them, with the method sent.
const ROUTES: &[(&str, &str)] = &[
    ("POST", "/api/games"),
    ("POST", "/api/join"),
    ("GET", "/api/games/{id}"),
    ("POST", "/api/games/{id}/actions"),
    ("POST", "/api/games/{id}/say"),
    ("GET", "/api/games/{id}/wait"),
    ("POST", "/api/my-games"),
    ("POST", "/api/libraries"),
    ("GET", "/api/library"),
    ("GET", "/api/library/entries"),
    ("POST", "/api/library/entries"),
    ("POST", "/api/library/pairings"),
    ("POST", "/api/pair"),
    ("DELETE", "/api/library/devices/{device_id}"),
    ("GET", "/health"),
];

/// The statuses the OpenAPI document lists for a route.
fn documented(method: &str, route: &str) -> Vec<u16> {
    static DOC: std::sync::OnceLock<Value> = std::sync::OnceLock::new();
    let doc = DOC.get_or_init(|| {
        serde_json::from_str(include_str!("../../../server/openapi.json"))
            .unwrap_or_else(|e| panic!("the server's OpenAPI document: {e}"))
    });
    doc["paths"][route][method.to_ascii_lowercase()]["responses"]
        .as_object()
        .map(|r| r.keys().filter_map(|k| k.parse().ok()).collect())
        .unwrap_or_default()
}

/// What earlier answers gave, for later requests to use.
#[derive(Default)]
struct Known {
    game: Option<String>,
    invite: Option<String>,
    tokens: Vec<String>,
    device: Option<String>,
}

impl Known {
    fn learn(&mut self, answer: &Value) {
        let text = |key: &str| answer.get(key).and_then(Value::as_str).map(str::to_owned);
        if let Some(id) = text("game_id").or_else(|| text("id")) {
            self.game = Some(id);
        }
        if let Some(code) = text("invite_code") {
            self.invite = Some(code);
        }
        if let Some(device) = text("device_id") {
            self.device = Some(device);
        }
        for key in ["token", "seat_token", "library_token", "device_token"] {
            if let Some(t) = text(key) {
                self.tokens.push(t);
            }
        }
    }
}

/// One store file per input (a fresh server each time, so that a crash replays alone).
fn store_path() -> std::path::PathBuf {
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let dir = std::path::Path::new("/dev/shm");
    let dir = if dir.is_dir() {
        dir.to_path_buf()
    } else {
        std::env::temp_dir()
    };
    dir.join(format!(
        "qiguan-fuzz-{}-{}.sqlite",
        std::process::id(),
        COUNT.fetch_add(1, Ordering::Relaxed)
    ))
}

/// Sends the input's requests; see the module's documentation.
pub fn api(data: &[u8]) {
    if data.len() > 64 * 1024 {
        return;
    }
    let path = store_path();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap_or_else(|e| panic!("a Tokio runtime: {e}"));
    runtime.block_on(requests(data, &path));
    drop(runtime);
    for suffix in ["", "-wal", "-shm", "-journal"] {
        let mut p = path.clone().into_os_string();
        p.push(suffix);
        let _ = std::fs::remove_file(p);
    }
}

async fn requests(data: &[u8], path: &std::path::Path) {
    let config = qiguan_server::Config {
        db: path.display().to_string(),
        ip_rate: 0.0,
        token_rate: 0.0,
        pair_rate: 0.0,
        ..qiguan_server::Config::default()
    };
    let clock = Arc::new(AtomicI64::new(1_800_000_000_000));
    let c = clock.clone();
    let state = qiguan_server::open(&config, Arc::new(move || c.load(Ordering::SeqCst)))
        .await
        .unwrap_or_else(|e| panic!("a fresh store: {e}"));
    let app = qiguan_server::router(state);
    let mut known = Known::default();
    for chunk in data.split(|&b| b == 0xff).take(24) {
        let [route, token, body @ ..] = chunk else {
            continue;
        };
        let (method, route) = ROUTES[*route as usize % ROUTES.len()];
        let game = known.game.clone().unwrap_or_else(|| "nothing".into());
        let device = known.device.clone().unwrap_or_else(|| "nothing".into());
        let mut uri = route.replace("{id}", &game).replace("{device_id}", &device);
        if route.ends_with("/wait") {
            // A long poll would wait 30 s for nothing: ask for an answer at once.
            uri.push_str(&format!("?timeout=0&after={}", token % 8));
        }
        let mut request = Request::builder().method(method).uri(&uri);
        let token = match *token as usize % (known.tokens.len() + 2) {
            0 => None,
            1 => Some("not-a-token".to_owned()),
            i => known.tokens.get(i - 2).cloned(),
        };
        if let Some(t) = &token {
            request = request.header("authorization", format!("Bearer {t}"));
        }
        let mut body = body.to_vec();
        if let Some(code) = &known.invite
            && let Ok(text) = std::str::from_utf8(&body)
        {
            body = text.replace("@invite", code).into_bytes();
        }
        let request = request
            .header("content-type", "application/json")
            .body(Body::from(body))
            .unwrap_or_else(|e| panic!("a request to {uri}: {e}"));
        let Ok(response) = app.clone().oneshot(request).await;
        let status = response.status();
        let bytes = response
            .into_body()
            .collect()
            .await
            .map(|b| b.to_bytes())
            .unwrap_or_default();
        let answer: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        assert_ne!(
            status,
            StatusCode::INTERNAL_SERVER_ERROR,
            "{method} {uri}: {answer}"
        );
        let allowed = documented(method, route);
        assert!(
            allowed.contains(&status.as_u16()),
            "{method} {uri} answered {status}, not among {allowed:?}: {answer}"
        );
        if status.is_client_error() {
            assert!(
                answer.get("error").is_some_and(Value::is_object)
                    || answer.get("error").is_some_and(Value::is_string),
                "{method} {uri} {status}: the error is not JSON: {:?}",
                String::from_utf8_lossy(&bytes)
            );
        }
        if status.is_success() {
            no_hidden_piece_named(&answer);
            known.learn(&answer);
            // Time passes between requests: a deadline can be claimed after enough of them.
            clock.fetch_add(3_600_000, Ordering::SeqCst);
        }
    }
}

/// A seat's view of a Junqi game in referee mode, or of a Sea-land-air game not played open,
/// names the kind of none of the other side's pieces while the game goes on.
fn no_hidden_piece_named(answer: &Value) {
    let (Some(game), Some(seat)) = (
        answer.get("game").and_then(Value::as_str),
        answer.get("seat").and_then(Value::as_u64),
    ) else {
        return;
    };
    if answer["to_act"]["kind"] == "over" {
        return;
    }
    let view = &answer["view"]["game"];
    let (hidden, mine, kind) = match game {
        "junqi" => (
            view["visibility"] == "referee",
            view["colours"][seat as usize].clone(),
            "rank",
        ),
        "sea-land-air" => (
            view["open"] == false,
            Value::from(if seat == 0 { "south" } else { "north" }),
            "kind",
        ),
        _ => return,
    };
    if !hidden {
        return;
    }
    for piece in view["pieces"].as_array().into_iter().flatten() {
        assert!(
            piece["side"] == mine || piece[kind].is_null(),
            "seat {seat} of a {game} game sees a hidden piece: {piece}"
        );
    }
}
