//! Writes the `answers` target's seed corpus: real answers of the real server (its router,
//! in-process, on a throwaway SQLite store) as seat 0 of a game of each kind hears them while
//! both seats play their first legal actions, with a refusal (a stale version) among them.
//! Run from the repository root:
//! `cargo run -p qiguan-fuzz-app-checks --example seed_answers -- fuzz/corpus/answers`.

use axum::body::Body;
use axum::http::Request;
use http_body_util::BodyExt;
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use tower::ServiceExt;

async fn send(
    app: &axum::Router,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: Value,
) -> (u16, Vec<u8>) {
    let mut request = Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json");
    if let Some(t) = token {
        request = request.header("authorization", format!("Bearer {t}"));
    }
    let body = if body.is_null() {
        Body::empty()
    } else {
        Body::from(body.to_string())
    };
    let Ok(response) = app
        .clone()
        .oneshot(request.body(body).expect("a request"))
        .await;
    let status = response.status().as_u16();
    let bytes = response
        .into_body()
        .collect()
        .await
        .expect("the body")
        .to_bytes()
        .to_vec();
    (status, bytes)
}

fn json_of(bytes: &[u8]) -> Value {
    serde_json::from_slice(bytes).expect("a JSON answer")
}

async fn seeds(game: &str, options: Value, steps: usize, dir: &str, db: &std::path::Path) {
    let config = qiguan_server::Config {
        db: db.display().to_string(),
        ip_rate: 0.0,
        token_rate: 0.0,
        pair_rate: 0.0,
        ..qiguan_server::Config::default()
    };
    let clock = Arc::new(AtomicI64::new(1_800_000_000_000));
    let c = clock.clone();
    let state = qiguan_server::open(&config, Arc::new(move || c.load(Ordering::SeqCst)))
        .await
        .expect("a store");
    let app = qiguan_server::router(state);
    let (_, created) = send(
        &app,
        "POST",
        "/api/games",
        None,
        json!({"game": game, "options": options, "seat": 0, "days_per_move": 3,
               "name": "Me", "contribution": "c-0"}),
    )
    .await;
    let created = json_of(&created);
    let id = created["game_id"].as_str().expect("a game id").to_owned();
    let mut tokens = vec![created["token"].as_str().expect("a token").to_owned()];
    let invites: Vec<String> = match created["invites"].as_array() {
        Some(list) if !list.is_empty() => list
            .iter()
            .map(|i| i["code"].as_str().expect("a code").to_owned())
            .collect(),
        _ => vec![
            created["invite_code"]
                .as_str()
                .expect("an invite")
                .to_owned(),
        ],
    };
    let view_uri = format!("/api/games/{id}");
    let mut heard: Vec<Vec<u8>> = vec![
        send(&app, "GET", &view_uri, Some(&tokens[0]), Value::Null)
            .await
            .1,
    ];
    for (n, code) in invites.iter().enumerate() {
        let (_, joined) = send(
            &app,
            "POST",
            "/api/join",
            None,
            json!({"invite_code": code, "name": format!("P{}", n + 1),
                   "contribution": format!("c-{}", n + 1)}),
        )
        .await;
        tokens.push(
            json_of(&joined)["token"]
                .as_str()
                .expect("a token")
                .to_owned(),
        );
    }
    heard.push(
        send(&app, "GET", &view_uri, Some(&tokens[0]), Value::Null)
            .await
            .1,
    );
    let mut refused = false;
    for step in 0..steps {
        // The first seat with something to do does the first thing it may.
        let mut acted = false;
        for (seat, token) in tokens.iter().enumerate() {
            let view = json_of(
                &send(&app, "GET", &view_uri, Some(token), Value::Null)
                    .await
                    .1,
            );
            let Some(action) = view["legal_actions"]
                .as_array()
                .and_then(|l| l.first())
                .and_then(Value::as_str)
            else {
                continue;
            };
            let version = view["version"].as_u64().expect("a version");
            if seat == 0 && !refused && version > 0 {
                // A resend on the version before: refused with the game as it stands.
                refused = true;
                let (_, body) = send(
                    &app,
                    "POST",
                    &format!("{view_uri}/actions"),
                    Some(token),
                    json!({"expected_version": version - 1, "client_action_id": "stale",
                           "action": action, "contribution": "stale"}),
                )
                .await;
                let mut part = b"!".to_vec();
                part.extend(body);
                heard.push(part);
            }
            let (status, body) = send(
                &app,
                "POST",
                &format!("{view_uri}/actions"),
                Some(token),
                json!({"expected_version": version, "client_action_id": format!("a-{step}-{seat}"),
                       "action": action, "contribution": format!("a-{step}-{seat}")}),
            )
            .await;
            assert_eq!(
                status,
                200,
                "{game}: {action}: {}",
                String::from_utf8_lossy(&body)
            );
            if seat == 0 {
                // Made here first (queued), then acknowledged.
                heard.push([b">".as_slice(), action.as_bytes()].concat());
                heard.push(body);
            } else {
                heard.push(
                    send(&app, "GET", &view_uri, Some(&tokens[0]), Value::Null)
                        .await
                        .1,
                );
            }
            acted = true;
            break;
        }
        if !acted {
            break;
        }
    }
    // Seat 0 gives up: the game is over, and a game with secrets shows its whole record.
    let view = json_of(
        &send(&app, "GET", &view_uri, Some(&tokens[0]), Value::Null)
            .await
            .1,
    );
    let version = view["version"].as_u64().expect("a version");
    let (_, body) = send(
        &app,
        "POST",
        &format!("{view_uri}/actions"),
        Some(&tokens[0]),
        json!({"expected_version": version, "client_action_id": "resign",
               "action": "resign", "contribution": "resign"}),
    )
    .await;
    heard.push(body);
    let name = game.to_owned();
    // The whole game, and its first few answers alone.
    for (suffix, count) in [("all", heard.len()), ("start", 3.min(heard.len()))] {
        let joined = heard[..count].join(&0u8);
        std::fs::write(format!("{dir}/{name}-{suffix}"), joined).expect("written");
    }
}

fn main() {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "fuzz/corpus/answers".into());
    std::fs::create_dir_all(&dir).expect("the corpus folder");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("a runtime");
    let work = std::env::temp_dir().join(format!("qiguan-seed-answers-{}", std::process::id()));
    std::fs::create_dir_all(&work).expect("a folder");
    for (n, (game, options, steps)) in [
        ("xiangqi", Value::Null, 6),
        ("junqi", Value::Null, 4),
        ("sea-land-air", Value::Null, 4),
        ("aeroplane", Value::Null, 6),
    ]
    .into_iter()
    .enumerate()
    {
        runtime.block_on(seeds(
            game,
            options,
            steps,
            &dir,
            &work.join(format!("{n}.sqlite")),
        ));
    }
    let _ = std::fs::remove_dir_all(&work);
}
