//! The real server binary on 127.0.0.1, port 0: every move it acknowledged survives a SIGKILL.
#![allow(clippy::unwrap_used)] // test helpers: a failed unwrap is a failed test

use serde_json::{Value, json};
use std::io::{BufRead, BufReader};

#[path = "support/small_disk.rs"]
mod small_disk;
#[path = "support/testdb.rs"]
mod testdb;
use small_disk::{SmallDisk, fill_disk};
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

/// Creates a Xiangqi game and joins it: its id and the two seats' tokens.
async fn new_game(client: &reqwest::Client, base: &str) -> (String, [String; 2]) {
    let (status, created) = post(
        client,
        format!("{base}/api/games"),
        None,
        json!({"game": "xiangqi", "days_per_move": 3}),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let (status, joined) = post(
        client,
        format!("{base}/api/join"),
        None,
        json!({"invite_code": created["invite_code"]}),
    )
    .await;
    assert_eq!(status, 200, "{joined}");
    (
        created["game_id"].as_str().unwrap().to_owned(),
        [
            created["token"].as_str().unwrap().to_owned(),
            joined["token"].as_str().unwrap().to_owned(),
        ],
    )
}

/// Plays a game's move `ply` (of [`OPENING`]): the answer's status and body.
async fn play(
    client: &reqwest::Client,
    base: &str,
    (id, tokens): &(String, [String; 2]),
    ply: usize,
) -> (u16, Value) {
    let body = json!({"expected_version": ply, "client_action_id": format!("m{ply}"), "action": OPENING[ply]});
    post(
        client,
        format!("{base}/api/games/{id}/actions"),
        Some(&tokens[ply % 2]),
        body,
    )
    .await
}

/// A game's moves as the server has them.
async fn moves_of(
    client: &reqwest::Client,
    base: &str,
    (id, tokens): &(String, [String; 2]),
) -> Vec<String> {
    let resp = client
        .get(format!("{base}/api/games/{id}"))
        .bearer_auth(&tokens[0])
        .send()
        .await
        .unwrap();
    let view: Value = resp.json().await.unwrap();
    view["view"]["game"]["moves"]
        .as_array()
        .unwrap_or_else(|| panic!("{view}"))
        .iter()
        .map(|m| m.as_str().unwrap().to_owned())
        .collect()
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
        games.push(new_game(&client, &base).await);
    }
    let mut tasks = Vec::new();
    for (n, game) in games.iter().cloned().enumerate() {
        let (client, base) = (client.clone(), base.clone());
        tasks.push(tokio::spawn(async move {
            let plies = 3 + n % 6;
            for ply in 0..plies {
                let (status, view) = play(&client, &base, &game, ply).await;
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
    for (game, &plies) in games.iter().zip(&acknowledged) {
        assert_eq!(moves_of(&client, &base, game).await, OPENING[..plies]);
        // The idempotency ids survived too: repeating the last action does not move again.
        let (status, view) = play(&client, &base, game, plies - 1).await;
        assert_eq!((status, view["version"].clone()), (200, json!(plies)));
    }
    server.kill().unwrap();
    server.wait().unwrap();
}

/// SIGKILL while moves of many games are being committed, not after them: every acknowledged
/// move is there after a restart, nothing half-written (each game's moves are exactly the
/// first moves sent, the one in flight there or not), five times over.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killed_while_it_commits_the_server_loses_no_acknowledged_move() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let db = testdb::TestDb::new();
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::Client::new();
    for round in 0..5 {
        let (mut server, base) = start(&db.url);
        let mut games = Vec::new();
        for _ in 0..16 {
            games.push(new_game(&client, &base).await);
        }
        // Each game's moves go one after another; the games all at once. The kill comes when
        // a third of all moves have been acknowledged, with the others in flight.
        let acknowledged = Arc::new(AtomicUsize::new(0));
        let third = Arc::new(tokio::sync::Notify::new());
        let total = games.len() * OPENING.len();
        let mut tasks = Vec::new();
        for game in games.iter().cloned() {
            let (client, base) = (client.clone(), base.clone());
            let (acknowledged, third) = (acknowledged.clone(), third.clone());
            tasks.push(tokio::spawn(async move {
                let mut done = 0;
                for (ply, action) in OPENING.iter().enumerate() {
                    let body = json!({"expected_version": ply, "client_action_id": format!("m{ply}"), "action": action});
                    let sent = client
                        .post(format!("{base}/api/games/{}/actions", game.0))
                        .bearer_auth(&game.1[ply % 2])
                        .json(&body)
                        .send()
                        .await;
                    match sent {
                        Ok(resp) if resp.status().as_u16() == 200 => done = ply + 1,
                        // The server went away: this move may or may not have been kept.
                        _ => break,
                    }
                    if acknowledged.fetch_add(1, Ordering::SeqCst) + 1 == total / 3 {
                        third.notify_one();
                    }
                }
                done
            }));
        }
        third.notified().await;
        server.kill().unwrap();
        server.wait().unwrap();
        let mut acked = Vec::new();
        for t in tasks {
            acked.push(t.await.unwrap());
        }
        assert!(
            acked.iter().sum::<usize>() < total,
            "round {round}: every move was through before the kill"
        );

        let (mut server, base) = start(&db.url);
        for (game, &done) in games.iter().zip(&acked) {
            let moves = moves_of(&client, &base, game).await;
            assert!(
                moves.len() == done || moves.len() == done + 1,
                "round {round}, game {}: {} moves kept, {done} acknowledged",
                game.0,
                moves.len()
            );
            assert_eq!(moves, OPENING[..moves.len()], "game {}", game.0);
        }
        server.kill().unwrap();
        server.wait().unwrap();
    }
}

/// A SQLite store whose disk fills up (a tmpfs of its own, filled by a file): a move that
/// cannot be written is refused with a clear, retryable error (503 `storage`, "the server's
/// disk is full"), nothing of it is kept, every game stays as acknowledged; once there is room
/// again the same move goes through, and everything survives a restart.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_disk_refuses_moves_clearly_and_the_server_recovers_when_room_returns() {
    let Some(disk) = SmallDisk::new() else {
        eprintln!("a_full_disk_…: not run: cannot mount a tmpfs (needs root)");
        return;
    };
    let db = disk.path().join("server.sqlite").display().to_string();
    let filler = disk.path().join("filler");
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::Client::new();
    let (mut server, base) = start(&db);
    let mut games = Vec::new();
    for _ in 0..4 {
        games.push(new_game(&client, &base).await);
    }
    fill_disk(&filler);

    // Moves until one cannot be written: the first, as a rule (each grows the log).
    let mut played = vec![0usize; games.len()];
    let mut refused = None;
    'fill: for _ in 0..OPENING.len() {
        for (g, game) in games.iter().enumerate() {
            let (status, body) = play(&client, &base, game, played[g]).await;
            match status {
                200 => played[g] += 1,
                _ => {
                    refused = Some((g, status, body));
                    break 'fill;
                }
            }
        }
    }
    let (g, status, body) = refused.expect("a move was refused once the disk was full");
    assert_eq!(status, 503, "{body}");
    assert_eq!(body["error"]["code"], "storage", "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("disk is full")),
        "{body}"
    );
    // Nothing half-written: every game is as acknowledged.
    for (game, &n) in games.iter().zip(&played) {
        assert_eq!(moves_of(&client, &base, game).await, OPENING[..n]);
    }

    // Room again: the same move (the same idempotency id) goes through, and the rest.
    std::fs::remove_file(&filler).unwrap();
    let (status, body) = play(&client, &base, &games[g], played[g]).await;
    assert_eq!(status, 200, "{body}");
    played[g] += 1;
    for (g, game) in games.iter().enumerate() {
        while played[g] < OPENING.len() {
            let (status, body) = play(&client, &base, game, played[g]).await;
            assert_eq!(status, 200, "{body}");
            played[g] += 1;
        }
    }
    server.kill().unwrap();
    server.wait().unwrap();
    let (mut server, base) = start(&db);
    for game in &games {
        assert_eq!(moves_of(&client, &base, game).await, OPENING);
    }
    server.kill().unwrap();
    server.wait().unwrap();
}

/// A PostgreSQL server of the test's own (initdb into a temporary directory, on a free port),
/// which the test stops and starts as an operator restarts the service; stopped when dropped.
/// Run as the `postgres` user where the test runs as root (PostgreSQL refuses root).
struct OwnPostgres {
    dir: tempfile::TempDir,
    bin: std::path::PathBuf,
    port: u16,
    as_postgres: bool,
}

impl OwnPostgres {
    fn new() -> OwnPostgres {
        let bin = std::fs::read_dir("/usr/lib/postgresql")
            .expect("PostgreSQL's programs (scripts/install-deps --postgres)")
            .filter_map(|e| e.ok().map(|e| e.path().join("bin")))
            .filter(|p| p.join("initdb").exists())
            .max()
            .expect("initdb");
        let uid = Command::new("id").arg("-u").output().unwrap().stdout;
        let as_postgres = String::from_utf8_lossy(&uid).trim() == "0";
        let dir = tempfile::tempdir().unwrap();
        if as_postgres {
            let owned = Command::new("chown")
                .arg("postgres:postgres")
                .arg(dir.path())
                .status()
                .unwrap();
            assert!(owned.success());
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let pg = OwnPostgres {
            dir,
            bin,
            port,
            as_postgres,
        };
        let data = pg.dir.path().join("data");
        pg.run(
            "initdb",
            &[
                "-D",
                &data.display().to_string(),
                "-U",
                "postgres",
                "--auth=trust",
                "--no-sync",
                "-E",
                "UTF8",
                "--locale=C",
            ],
        );
        pg.start();
        pg
    }

    /// One of PostgreSQL's programs, run as its user where the test is root.
    fn command(&self, program: &str) -> Command {
        let path = self.bin.join(program);
        if self.as_postgres {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(path);
            c
        } else {
            Command::new(path)
        }
    }

    /// Runs one of PostgreSQL's programs; it must succeed.
    fn run(&self, program: &str, args: &[&str]) {
        let status = self
            .command(program)
            .args(args)
            .stdout(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success(), "{program} {args:?}");
    }

    fn pg_ctl(&self, args: &[&str]) {
        let data = self.dir.path().join("data").display().to_string();
        let mut all = vec!["-D", &data, "-w"];
        all.extend_from_slice(args);
        self.run("pg_ctl", &all);
    }

    fn start(&self) {
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off",
            self.port,
            self.dir.path().display()
        );
        let log = self.dir.path().join("log").display().to_string();
        self.pg_ctl(&["-l", &log, "-o", &options, "start"]);
    }

    fn stop(&self) {
        self.pg_ctl(&["-m", "fast", "stop"]);
    }

    fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }
}

impl Drop for OwnPostgres {
    fn drop(&mut self) {
        let data = self.dir.path().join("data").display().to_string();
        let _ = self
            .command("pg_ctl")
            .args(["-D", &data, "-m", "immediate", "stop"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
}

/// PostgreSQL restarted as a service while games are being played on the real server: while
/// it is down, every request is answered at once with the retryable 503 `storage` (no hang);
/// once it is back the server reconnects by itself, the refused moves go through when sent
/// again, and no acknowledged move is lost (a fresh server reads them all).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_restarted_under_load_loses_no_acknowledged_move() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    if !testdb::postgres_wanted() {
        // A PostgreSQL fault: the run on PostgreSQL (QIGUAN_TEST_DB=postgres) takes it.
        return;
    }
    let pg = OwnPostgres::new();
    let _ = rustls::crypto::ring::default_provider().install_default();
    // No request may hang: each answers within this or the test fails.
    let client = reqwest::Client::builder()
        .timeout(std::time::Duration::from_secs(20))
        .build()
        .unwrap();
    let (mut server, base) = start(&pg.url());
    let mut games = Vec::new();
    for _ in 0..8 {
        games.push(new_game(&client, &base).await);
    }
    let acknowledged = Arc::new(AtomicUsize::new(0));
    let refused = Arc::new(AtomicUsize::new(0));
    let quarter = Arc::new(tokio::sync::Notify::new());
    let (restarted, back) = tokio::sync::watch::channel(false);
    let total = games.len() * OPENING.len();
    let mut tasks = Vec::new();
    for game in games.clone() {
        let (client, base) = (client.clone(), base.clone());
        let (acknowledged, refused, quarter) =
            (acknowledged.clone(), refused.clone(), quarter.clone());
        let mut back = back.clone();
        tasks.push(tokio::spawn(async move {
            for ply in 0..OPENING.len() {
                // A refused move is sent again, as the app's outbox does: the same id.
                loop {
                    let (status, body) = play(&client, &base, &game, ply).await;
                    match status {
                        200 => break,
                        503 => {
                            assert_eq!(body["error"]["code"], "storage", "{body}");
                            refused.fetch_add(1, Ordering::SeqCst);
                            // Sent again once the database is back (at once after that: a
                            // connection the restart broke may refuse one more).
                            let _ = back.wait_for(|up| *up).await;
                        }
                        _ => panic!("{status}: {body}"),
                    }
                }
                if acknowledged.fetch_add(1, Ordering::SeqCst) + 1 == total / 4 {
                    quarter.notify_one();
                }
            }
        }));
    }
    quarter.notified().await;
    pg.stop();
    // Down: a read is answered at once, with the retryable error.
    let down = client
        .get(format!("{base}/api/games/{}", games[0].0))
        .bearer_auth(&games[0].1[0])
        .send()
        .await
        .expect("an answer while the database is down");
    assert_eq!(down.status().as_u16(), 503);
    pg.start();
    restarted.send_replace(true);
    for t in tasks {
        t.await.unwrap();
    }
    assert_eq!(acknowledged.load(Ordering::SeqCst), total);
    assert!(
        refused.load(Ordering::SeqCst) > 0,
        "no move was in flight while the database was down"
    );
    server.kill().unwrap();
    server.wait().unwrap();
    let (mut server, base) = start(&pg.url());
    for game in &games {
        assert_eq!(moves_of(&client, &base, game).await, OPENING);
    }
    server.kill().unwrap();
    server.wait().unwrap();
}
