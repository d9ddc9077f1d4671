//! Load benchmark: N concurrent Xiangqi games against a server, each move acknowledged only
//! once durable. Prints acknowledged moves per second and p50 / p99 latency.
//!
//! ```sh
//! cargo run --release -p qiguan-server --example load -- [--games N] [--seconds S]
//!     [--url URL[,URL…]] [--db FILE|postgres://…]
//! ```
//!
//! Without `--url` it starts the server in this process on 127.0.0.1 (rate limits off) over
//! `--db`, by default a fresh SQLite file in a temporary directory, so client and server share
//! the machine's cores. Several `--url`s spread the games over several servers (one database
//! behind them), each game's two players on different servers.

use qiguan_core::xiangqi::{Xiangqi, XiangqiOptions, seat_of};
use qiguan_core::{Action, Actor, Match};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

struct Args {
    games: usize,
    seconds: u64,
    url: Option<String>,
    db: Option<String>,
}

fn args() -> Args {
    let mut a = Args {
        games: 64,
        seconds: 10,
        url: None,
        db: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let v = it.next().unwrap_or_default();
        match arg.as_str() {
            "--games" => a.games = v.parse().unwrap_or(a.games),
            "--seconds" => a.seconds = v.parse().unwrap_or(a.seconds),
            "--url" => a.url = Some(v),
            "--db" => a.db = Some(v),
            other => eprintln!("ignoring {other}"),
        }
    }
    a
}

/// Creates a game on one server and joins it on the next.
async fn new_game(client: &reqwest::Client, bases: &[String; 2]) -> (String, [String; 2]) {
    let created: Value = client
        .post(format!("{}/api/games", bases[0]))
        .json(&json!({"game": "xiangqi", "days_per_move": 3}))
        .send()
        .await
        .expect("create")
        .json()
        .await
        .expect("created");
    let joined: Value = client
        .post(format!("{}/api/join", bases[1]))
        .json(&json!({"invite_code": created["invite_code"]}))
        .send()
        .await
        .expect("join")
        .json()
        .await
        .expect("joined");
    let s = |v: &Value| v.as_str().unwrap_or_default().to_owned();
    (
        s(&created["game_id"]),
        [s(&created["token"]), s(&joined["token"])],
    )
}

/// Plays random legal moves in fresh games until `until`; returns each move's latency.
/// Red's moves go to `bases[0]`, Black's to `bases[1]`.
async fn player(
    client: reqwest::Client,
    bases: [String; 2],
    seed: u64,
    until: Instant,
) -> Vec<Duration> {
    let mut latencies = Vec::new();
    let mut rng = seed | 1;
    'games: while Instant::now() < until {
        let (id, tokens) = new_game(&client, &bases).await;
        let mut game: Match<Xiangqi> = Match::new(&XiangqiOptions::default(), None).expect("start");
        while Instant::now() < until {
            let pos = game.game().position().clone();
            let legal = pos.legal_moves();
            if legal.is_empty() || game.outcome().is_some() || game.version() > 200 {
                continue 'games;
            }
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let m = legal[(rng % legal.len() as u64) as usize];
            let seat = seat_of(pos.side_to_move());
            let body = json!({
                "expected_version": game.version(),
                "client_action_id": format!("a{}", game.version()),
                "action": m.to_string(),
            });
            let sent = Instant::now();
            let resp = client
                .post(format!("{}/api/games/{id}/actions", bases[seat.index()]))
                .bearer_auth(&tokens[seat.index()])
                .json(&body)
                .send()
                .await;
            let ok = match resp {
                Ok(r) => r.status().is_success() && r.bytes().await.is_ok(),
                Err(_) => false,
            };
            if !ok {
                eprintln!("a move was refused; starting a new game");
                continue 'games;
            }
            latencies.push(sent.elapsed());
            let _ = game.apply(Actor::Seat(seat), &Action::Play(m));
        }
    }
    latencies
}

fn main() {
    let a = args();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    let _dir;
    let bases: Vec<String> = match &a.url {
        Some(urls) => urls
            .split(',')
            .map(|u| u.trim_end_matches('/').to_owned())
            .collect(),
        None => {
            let dir = tempfile::tempdir().expect("a temporary directory");
            let config = qiguan_server::Config {
                listen: "127.0.0.1:0".parse().expect("an address"),
                db: a
                    .db
                    .clone()
                    .unwrap_or_else(|| dir.path().join("load.sqlite").display().to_string()),
                ip_rate: 0.0,
                token_rate: 0.0,
                ..qiguan_server::Config::default()
            };
            _dir = dir;
            let state = runtime
                .block_on(qiguan_server::open(&config, qiguan_server::system_clock()))
                .expect("the server opens");
            let listener = runtime
                .block_on(tokio::net::TcpListener::bind(config.listen))
                .expect("a port");
            let addr = listener.local_addr().expect("an address");
            runtime.spawn(async move {
                let app = qiguan_server::router(state)
                    .into_make_service_with_connect_info::<std::net::SocketAddr>();
                let _ = axum::serve(listener, app).await;
            });
            vec![format!("http://{addr}")]
        }
    };
    // reqwest is built for the app's HTTPS with no crypto provider of its own.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(a.games)
        .build()
        .expect("a client");
    let started = Instant::now();
    let until = started + Duration::from_secs(a.seconds);
    let tasks: Vec<_> = (0..a.games)
        .map(|i| {
            let pair = [
                bases[i % bases.len()].clone(),
                bases[(i + 1) % bases.len()].clone(),
            ];
            runtime.spawn(player(
                client.clone(),
                pair,
                0x9e37_79b9 + i as u64 * 7919,
                until,
            ))
        })
        .collect();
    let mut latencies: Vec<Duration> = runtime.block_on(async {
        let mut all = Vec::new();
        for t in tasks {
            all.extend(t.await.unwrap_or_default());
        }
        all
    });
    let elapsed = started.elapsed().as_secs_f64();
    latencies.sort();
    let pct = |p: f64| {
        latencies
            .get(((latencies.len() as f64 * p) as usize).min(latencies.len().saturating_sub(1)))
            .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
    };
    println!(
        "{} games, {:.1} s: {} acknowledged moves, {:.0} moves/s, p50 {:.2} ms, p99 {:.2} ms",
        a.games,
        elapsed,
        latencies.len(),
        latencies.len() as f64 / elapsed,
        pct(0.50),
        pct(0.99)
    );
}
