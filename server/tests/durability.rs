//! The real server binary on 127.0.0.1, port 0: every move it acknowledged survives a SIGKILL.
#![allow(clippy::unwrap_used)] // test helpers: a failed unwrap is a failed test

use serde_json::{Value, json};
use std::io::{BufRead, BufReader};

#[path = "support/testdb.rs"]
mod testdb;
use std::process::{Child, Command, Stdio};

/// Starts the server on a free port with this database; returns it and its base URL.
fn start(db: &str) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_qiguan-server"))
        .args(["--listen", "127.0.0.1:0", "--db"])
        .arg(db)
        .args(["--ip-rate", "0", "--token-rate", "0"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("the server starts");
    let stdout = child.stdout.take().expect("piped stdout");
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .expect("the server says where it listens");
    let addr = line
        .trim()
        .strip_prefix("listening on ")
        .expect("a listening line")
        .to_owned();
    (child, format!("http://{addr}"))
}

async fn post(
    client: &reqwest::Client,
    url: String,
    token: Option<&str>,
    body: Value,
) -> (u16, Value) {
    let mut req = client.post(url).json(&body);
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    let resp = req.send().await.expect("the server answers");
    let status = resp.status().as_u16();
    (status, resp.json().await.unwrap_or(Value::Null))
}

const OPENING: [&str; 8] = [
    "h3e3", "h10g8", "h1g3", "i10h10", "i1h1", "b10c8", "b1c3", "a10b10",
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn acknowledged_moves_survive_a_sigkill() {
    let db = testdb::TestDb::new();
    let (mut server, base) = start(&db.url);
    // reqwest is built for the app's HTTPS with no crypto provider of its own.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::Client::new();

    // Eight games played concurrently, each move acknowledged before the next.
    let mut games = Vec::new();
    for _ in 0..8 {
        let (status, created) = post(
            &client,
            format!("{base}/api/games"),
            None,
            json!({"game": "xiangqi", "days_per_move": 3}),
        )
        .await;
        assert_eq!(status, 201, "{created}");
        let (_, joined) = post(
            &client,
            format!("{base}/api/join"),
            None,
            json!({"invite_code": created["invite_code"]}),
        )
        .await;
        games.push((
            created["game_id"].as_str().unwrap().to_owned(),
            [
                created["token"].as_str().unwrap().to_owned(),
                joined["token"].as_str().unwrap().to_owned(),
            ],
        ));
    }
    let mut tasks = Vec::new();
    for (n, (id, tokens)) in games.iter().cloned().enumerate() {
        let (client, base) = (client.clone(), base.clone());
        tasks.push(tokio::spawn(async move {
            let plies = 3 + n % 6;
            for (ply, mv) in OPENING.iter().take(plies).enumerate() {
                let body = json!({"expected_version": ply, "client_action_id": format!("m{ply}"), "action": mv});
                let (status, view) = post(&client, format!("{base}/api/games/{id}/actions"), Some(&tokens[ply % 2]), body).await;
                assert_eq!(status, 200, "{view}");
                assert_eq!(view["applied_version"], ply + 1);
            }
            plies
        }));
    }
    let mut acknowledged = Vec::new();
    for t in tasks {
        acknowledged.push(t.await.unwrap());
    }

    // No shutdown, no flush: SIGKILL straight after the last acknowledgement.
    server.kill().unwrap();
    server.wait().unwrap();

    let (mut server, base) = start(&db.url);
    for ((id, tokens), plies) in games.iter().zip(&acknowledged) {
        let resp = client
            .get(format!("{base}/api/games/{id}"))
            .bearer_auth(&tokens[0])
            .send()
            .await
            .unwrap();
        let view: Value = resp.json().await.unwrap();
        assert_eq!(view["version"], *plies, "game {id}: {view}");
        let moves = view["view"]["game"]["moves"].as_array().unwrap();
        assert_eq!(moves.len(), *plies);
        assert_eq!(moves[0], "h3e3");
        // The idempotency ids survived too: repeating the last action does not move again.
        let last = plies - 1;
        let body = json!({"expected_version": last, "client_action_id": format!("m{last}"), "action": OPENING[last]});
        let (status, view) = post(
            &client,
            format!("{base}/api/games/{id}/actions"),
            Some(&tokens[last % 2]),
            body,
        )
        .await;
        assert_eq!((status, view["version"].clone()), (200, json!(plies)));
    }
    server.kill().unwrap();
    server.wait().unwrap();
}
