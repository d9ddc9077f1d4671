//! How big the shared game page is and how soon it answers: `cargo run --release -p
//! qiguan-server --example share_page_bench`. The server runs in-process on a free port over a
//! fresh SQLite file; one game of each kind, played by the core's computer, is uploaded; each
//! page is then asked for 200 times over HTTP, one request at a time, and the time to the
//! response's first byte (its status line and headers) is measured, as is the preview picture
//! drawn the first time and from the cache. Prints a Markdown table (README, "Shared game
//! pages").
#![allow(clippy::unwrap_used, clippy::print_stdout)] // a benchmark: a failure is a crash

use qiguan_core::share::Sheet;
use qiguan_core::{Actor, AnyMatch, GameKind, Strength, ToAct};
use qiguan_server::{Config, system_clock};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// A game of `kind` played by the core's computer for at most `plies` actions.
fn played(kind: GameKind, options: Value, plies: usize) -> AnyMatch {
    let mut game = AnyMatch::new(kind, &options, &Value::Null).unwrap();
    let mut pick = qiguan_core::matches::seeded_pick(11);
    for n in 0..plies {
        let seat = match game.to_act() {
            ToAct::Seat(seat) => seat,
            ToAct::Seats(seats) => seats[0],
            ToAct::Chance => {
                game.resolve_chance(&mut pick).unwrap();
                continue;
            }
            ToAct::Over(_) => break,
        };
        let action = game
            .computer_action(seat, Strength::Easy, n as u64)
            .unwrap();
        game.apply_text(Actor::Seat(seat), &action).unwrap();
    }
    game
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i].as_secs_f64() * 1000.0
}

#[tokio::main]
async fn main() {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let dir = tempfile::tempdir().unwrap();
    let config = Config {
        db: dir.path().join("bench.sqlite").display().to_string(),
        ip_rate: 0.0,
        token_rate: 0.0,
        pair_rate: 0.0,
        ..Config::default()
    };
    let state = qiguan_server::open(&config, system_clock()).await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let app =
        qiguan_server::router(state).into_make_service_with_connect_info::<std::net::SocketAddr>();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let client = reqwest::Client::new();

    let games = [
        (
            "Xiangqi",
            played(GameKind::Xiangqi, Value::Null, 120),
            false,
        ),
        (
            "Junqi (open), to its end",
            played(GameKind::Junqi, json!({"visibility": "open"}), 150),
            false,
        ),
        (
            "Sea-land-air in progress (spectator's sheet)",
            played(GameKind::SeaLandAir, Value::Null, 100),
            true,
        ),
        (
            "Aeroplane chess for 4",
            played(GameKind::Aeroplane, json!({"seats": 4}), 400),
            false,
        ),
    ];
    println!(
        "| Game | Steps | Page | gzipped | First byte, median | 95th percentile | PNG, first | PNG, cached |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for (name, game, as_sheet) in games {
        let sheet = Sheet::of(&game.record()).unwrap();
        let body = if as_sheet {
            json!({"sheet": sheet})
        } else {
            json!({"record": game.record()})
        };
        let shared: Value = client
            .post(format!("{base}/api/shares"))
            .json(&body)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let page = format!("{base}/g/{}", shared["id"].as_str().unwrap());
        let plain = client
            .get(&page)
            .send()
            .await
            .unwrap()
            .bytes()
            .await
            .unwrap();
        let gzipped = client
            .get(&page)
            .header("accept-encoding", "gzip")
            .send()
            .await
            .unwrap();
        assert_eq!(gzipped.headers()["content-encoding"], "gzip");
        let gzipped = gzipped.bytes().await.unwrap();
        let mut times = Vec::new();
        for _ in 0..200 {
            let start = Instant::now();
            let resp = client
                .get(&page)
                .header("accept-encoding", "gzip")
                .send()
                .await
                .unwrap();
            times.push(start.elapsed());
            resp.bytes().await.unwrap();
        }
        times.sort();
        let picture = |page: String| {
            let client = client.clone();
            async move {
                let start = Instant::now();
                let png = client.get(format!("{page}.png")).send().await.unwrap();
                assert_eq!(png.status(), 200);
                png.bytes().await.unwrap();
                start.elapsed().as_secs_f64() * 1000.0
            }
        };
        let first = picture(page.clone()).await;
        let cached = picture(page.clone()).await;
        println!(
            "| {name} | {} | {:.1} KB | {:.1} KB | {:.2} ms | {:.2} ms | {first:.0} ms | {cached:.2} ms |",
            sheet.steps.len(),
            plain.len() as f64 / 1000.0,
            gzipped.len() as f64 / 1000.0,
            percentile(&times, 0.5),
            percentile(&times, 0.95),
        );
    }
}
