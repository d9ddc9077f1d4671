//! Benchmark of a server over a large store (issue 20): memory bounded by what is played, not
//! by what is stored.
//!
//! ```sh
//! # 1. Fill a store with N Xiangqi games (most finished), written straight into the tables:
//! cargo run --release -p qiguan-server --example big_store -- fill --db FILE|postgres://… \
//!     [--games 1000000] [--finished 0.9]
//! # 2. Start the release server(s) on it and measure:
//! cargo build --release -p qiguan-server
//! cargo run --release -p qiguan-server --example big_store -- measure --db FILE|postgres://… \
//!     [--games 1000000] [--instances 1|2] [--reads 10000]
//! ```
//!
//! `measure` starts `target/release/qiguan-server` (one or two processes on the store), times
//! each from its start to its first answered game read, makes `--reads` reads of random
//! stored games (each with a seat's token, spread over the processes), and prints each
//! process's resident memory (VmRSS) after them. The processes are left running until Enter
//! is pressed on standard input, so that the load example can be pointed at them
//! (`--url http://…,http://…`); at end of input they are stopped at once.

use qiguan_core::{Actor, AnyMatch, GameKind};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Instant;

/// Distinct games generated; the stored games repeat them under their own ids and tokens.
const TEMPLATES: usize = 2000;
/// Rows per insert statement (PostgreSQL).
const BATCH: usize = 5000;

struct Args {
    command: String,
    db: String,
    games: usize,
    finished: f64,
    instances: usize,
    reads: usize,
}

fn args() -> Args {
    let mut it = std::env::args().skip(1);
    let mut a = Args {
        command: it.next().unwrap_or_default(),
        db: String::new(),
        games: 1_000_000,
        finished: 0.9,
        instances: 1,
        reads: 10_000,
    };
    while let Some(arg) = it.next() {
        let v = it.next().unwrap_or_default();
        match arg.as_str() {
            "--db" => a.db = v,
            "--games" => a.games = v.parse().expect("--games N"),
            "--finished" => a.finished = v.parse().expect("--finished 0..1"),
            "--instances" => a.instances = v.parse().expect("--instances N"),
            "--reads" => a.reads = v.parse().expect("--reads N"),
            other => panic!("unknown argument {other}"),
        }
    }
    assert!(!a.db.is_empty(), "--db FILE|URL is needed");
    a
}

/// A small, fixed pseudo-random sequence (the benchmark is the same every run).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// One stored game's shape: its actions (actor, text) and whether it is over.
struct Template {
    options: String,
    setup: String,
    actions: Vec<(String, String)>,
    over: bool,
}

/// Random legal Xiangqi games of 10 to 60 plies; the finished ones end with a resignation.
fn templates(finished: f64) -> Vec<Template> {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    (0..TEMPLATES)
        .map(|i| {
            let mut game = AnyMatch::new(
                GameKind::Xiangqi,
                &serde_json::Value::Null,
                &serde_json::Value::Null,
            )
            .expect("a game");
            let plies = 10 + rng.below(51);
            for _ in 0..plies {
                let qiguan_core::ToAct::Seat(seat) = game.to_act() else {
                    break;
                };
                let legal = game.legal_actions(Actor::Seat(seat));
                let moves: Vec<&String> = legal.iter().filter(|a| a.len() <= 5).collect();
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.below(moves.len())].clone();
                game.apply_text(Actor::Seat(seat), &m)
                    .expect("a legal move");
            }
            let over = (i as f64) < finished * TEMPLATES as f64;
            if over && let qiguan_core::ToAct::Seat(seat) = game.to_act() {
                game.apply_text(Actor::Seat(seat), "resign")
                    .expect("resign");
            }
            let record = game.record();
            Template {
                options: record.options.to_string(),
                setup: record.setup.to_string(),
                actions: record
                    .actions
                    .iter()
                    .map(|e| (e.by.to_string(), e.action.clone()))
                    .collect(),
                over: game.outcome().is_some(),
            }
        })
        .collect()
}

fn game_id(i: usize) -> String {
    format!("bench{i:08}")
}

fn token(i: usize, seat: u8) -> String {
    format!("bench-token-{i}-{seat}")
}

const NOW: i64 = 1_800_000_000_000;

fn fill(a: &Args) {
    let started = Instant::now();
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    // Creates and migrates the schema as the server would.
    runtime
        .block_on(qiguan_server::store::open(&a.db))
        .expect("the store opens");
    let templates = templates(a.finished);
    let template = |i: usize| &templates[i % TEMPLATES];
    if a.db.starts_with("postgres") {
        runtime.block_on(fill_postgres(a, &template));
    } else {
        fill_sqlite(a, &template);
    }
    println!(
        "filled {} games in {:.0} s",
        a.games,
        started.elapsed().as_secs_f64()
    );
}

fn fill_sqlite<'t>(a: &Args, template: &impl Fn(usize) -> &'t Template) {
    let mut conn = rusqlite::Connection::open(&a.db).expect("the file");
    conn.pragma_update(None, "synchronous", "OFF")
        .expect("pragma");
    let tx = conn.transaction().expect("a transaction");
    {
        let mut game = tx
            .prepare(
                "INSERT INTO games (id, kind, options, setup, days_per_move, created_at, deadline)
                 VALUES (?1, 'xiangqi', ?2, ?3, 3, ?4, ?5)",
            )
            .expect("insert");
        let mut seat = tx
            .prepare(
                "INSERT INTO seats (game_id, seat, token_hash, name, joined_at)
                 VALUES (?1, ?2, ?3, '', ?4)",
            )
            .expect("insert");
        let mut action = tx
            .prepare(
                "INSERT INTO actions (game_id, ply, actor, action, client_action_id, sent, at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?4, ?6)",
            )
            .expect("insert");
        for i in 0..a.games {
            let t = template(i);
            let id = game_id(i);
            let deadline = (!t.over).then_some(NOW + 3 * 86_400_000);
            game.execute(rusqlite::params![id, t.options, t.setup, NOW, deadline])
                .expect("a game");
            for s in 0..2u8 {
                seat.execute(rusqlite::params![
                    id,
                    s,
                    &qiguan_server::auth::hash(&token(i, s))[..],
                    NOW
                ])
                .expect("a seat");
            }
            for (ply, (actor, text)) in t.actions.iter().enumerate() {
                let client = actor.starts_with("seat").then(|| format!("c{ply}"));
                action
                    .execute(rusqlite::params![id, ply as i64, actor, text, client, NOW])
                    .expect("an action");
            }
            if i % 100_000 == 99_999 {
                eprintln!("{} games", i + 1);
            }
        }
    }
    tx.commit().expect("commit");
}

async fn fill_postgres<'t>(a: &Args, template: &impl Fn(usize) -> &'t Template) {
    let (client, connection) = tokio_postgres::connect(&a.db, tokio_postgres::NoTls)
        .await
        .expect("PostgreSQL");
    tokio::spawn(connection);
    let mut start = 0;
    while start < a.games {
        let end = (start + BATCH / 40).min(a.games);
        let (mut gid, mut opts, mut setups, mut deadlines) = (vec![], vec![], vec![], vec![]);
        let mut counts = vec![];
        let (mut sgid, mut sseat, mut shash) = (vec![], vec![], vec![]);
        let (mut agid, mut aply, mut aactor, mut atext, mut aclient) =
            (vec![], vec![], vec![], vec![], vec![]);
        for i in start..end {
            let t = template(i);
            let id = game_id(i);
            gid.push(id.clone());
            opts.push(t.options.clone());
            setups.push(t.setup.clone());
            deadlines.push((!t.over).then_some(NOW + 3 * 86_400_000));
            counts.push(t.actions.len() as i32);
            for s in 0..2u8 {
                sgid.push(id.clone());
                sseat.push(i16::from(s));
                shash.push(qiguan_server::auth::hash(&token(i, s)).to_vec());
            }
            for (ply, (actor, text)) in t.actions.iter().enumerate() {
                agid.push(id.clone());
                aply.push(ply as i32);
                aclient.push(actor.starts_with("seat").then(|| format!("c{ply}")));
                aactor.push(actor.clone());
                atext.push(text.clone());
            }
        }
        client
            .execute(
                // Each game's numbers of actions and seats as the server keeps them (migration
                // V4): its guard compares them.
                "INSERT INTO games (id, kind, options, setup, days_per_move, created_at, deadline,
                                    action_count, seat_count)
                 SELECT id, 'xiangqi', o, s, 3, $4, d, n, 2
                 FROM unnest($1::text[], $2::text[], $3::text[], $5::bigint[], $6::int[])
                     AS t(id, o, s, d, n)",
                &[&gid, &opts, &setups, &NOW, &deadlines, &counts],
            )
            .await
            .expect("games");
        client
            .execute(
                "INSERT INTO seats (game_id, seat, token_hash, name, joined_at)
                 SELECT g, s, h, '', $4 FROM unnest($1::text[], $2::smallint[], $3::bytea[])
                 AS t(g, s, h)",
                &[&sgid, &sseat, &shash, &NOW],
            )
            .await
            .expect("seats");
        client
            .execute(
                "INSERT INTO actions (game_id, ply, actor, action, client_action_id, sent, at)
                 SELECT g, p, a, x, c, x, $6 FROM unnest($1::text[], $2::int[], $3::text[],
                 $4::text[], $5::text[]) AS t(g, p, a, x, c)",
                &[&agid, &aply, &aactor, &atext, &aclient, &NOW],
            )
            .await
            .expect("actions");
        start = end;
        if start % 100_000 < BATCH / 40 {
            eprintln!("{start} games");
        }
    }
    client.batch_execute("ANALYZE").await.expect("analyze");
}

/// Starts the release server on the store; returns it, its URL and when it was started.
fn start(db: &str) -> (Child, String, Instant) {
    let exe = std::env::current_exe().expect("this example's path");
    let bin = exe
        .parent()
        .and_then(|d| d.parent())
        .map(|d| d.join("qiguan-server"))
        .expect("target/release");
    let started = Instant::now();
    let mut child = Command::new(&bin)
        .args(["--listen", "127.0.0.1:0", "--db", db])
        .args(["--ip-rate", "0", "--token-rate", "0"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            panic!(
                "{}: {e} (cargo build --release -p qiguan-server)",
                bin.display()
            )
        });
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("the listening line");
    let addr = line
        .trim()
        .strip_prefix("listening on ")
        .expect("listening on ADDR")
        .to_owned();
    (child, format!("http://{addr}"), started)
}

fn rss_mb(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

fn measure(a: &Args) {
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::Client::new();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut servers = Vec::new();
    for _ in 0..a.instances {
        let (child, url, started) = start(&a.db);
        let i = rng.below(a.games);
        let read = runtime.block_on(
            client
                .get(format!("{url}/api/games/{}", game_id(i)))
                .bearer_auth(token(i, 0))
                .send(),
        );
        let ok = read.is_ok_and(|r| r.status().is_success());
        println!(
            "server {}: first game read answered {:.0} ms after start ({})",
            servers.len() + 1,
            started.elapsed().as_secs_f64() * 1000.0,
            if ok { "ok" } else { "FAILED" }
        );
        servers.push((child, url));
    }
    let started = Instant::now();
    let mut failed = 0;
    runtime.block_on(async {
        for n in 0..a.reads {
            let i = rng.below(a.games);
            let seat = (n % 2) as u8;
            let url = &servers[n % servers.len()].1;
            let ok = client
                .get(format!("{url}/api/games/{}", game_id(i)))
                .bearer_auth(token(i, seat))
                .send()
                .await
                .is_ok_and(|r| r.status().is_success());
            if !ok {
                failed += 1;
            }
        }
    });
    let elapsed = started.elapsed();
    println!(
        "{} random game reads in {:.1} s ({:.0}/s, one at a time), {failed} failed",
        a.reads,
        elapsed.as_secs_f64(),
        a.reads as f64 / elapsed.as_secs_f64().max(1e-9)
    );
    for (n, (child, url)) in servers.iter().enumerate() {
        println!(
            "server {} ({url}): resident memory {:.1} MB",
            n + 1,
            rss_mb(child.id())
        );
    }
    if servers.len() >= 2 {
        let wakes = runtime.block_on(wake_times(&client, &servers[0].1, &servers[1].1));
        let ms = |d: &std::time::Duration| d.as_secs_f64() * 1000.0;
        println!(
            "a long poll on server 1, a move made on server 2: answered {:.1} ms (median) and \
             {:.1} ms (slowest of {}) after the mover's acknowledgement",
            ms(&wakes[wakes.len() / 2]),
            ms(&wakes[wakes.len() - 1]),
            wakes.len()
        );
    }
    let urls: Vec<&str> = servers.iter().map(|(_, u)| u.as_str()).collect();
    eprintln!(
        "servers running: load with --url {}; press Enter to stop them",
        urls.join(",")
    );
    let mut line = String::new();
    let _ = std::io::stdin().read_line(&mut line);
    for (mut child, _) in servers {
        let _ = child.kill();
        let _ = child.wait();
    }
}

/// Plays a game with Red's long poll on `one` and Black's moves (and Red's) made on `two`;
/// returns, sorted, how long after each move's acknowledgement the poll answered with it.
async fn wait_one(client: &reqwest::Client, one: &str, two: &str) -> Vec<std::time::Duration> {
    let post = |url: String, token: Option<String>, body: serde_json::Value| {
        let client = client.clone();
        async move {
            let mut req = client.post(url).json(&body);
            if let Some(t) = token {
                req = req.bearer_auth(t);
            }
            let resp = req.send().await.expect("an answer");
            resp.json::<serde_json::Value>().await.expect("json")
        }
    };
    let created = post(
        format!("{two}/api/games"),
        None,
        serde_json::json!({"game": "xiangqi", "days_per_move": 3}),
    )
    .await;
    let joined = post(
        format!("{two}/api/join"),
        None,
        serde_json::json!({"invite_code": created["invite_code"]}),
    )
    .await;
    let id = created["game_id"].as_str().expect("an id").to_owned();
    let tokens = [
        created["token"].as_str().expect("a token").to_owned(),
        joined["token"].as_str().expect("a token").to_owned(),
    ];
    let moves = [
        "h3e3", "h10g8", "h1g3", "i10h10", "i1h1", "b10c8", "b1c3", "a10b10", "a1b1", "g7g6",
    ];
    let mut wakes = Vec::new();
    for (version, m) in moves.iter().enumerate() {
        // The poll is asked from server 1 first and has been answered with nothing yet.
        let poll = {
            let client = client.clone();
            let url = format!("{one}/api/games/{id}/wait?after={version}&timeout=20");
            let token = tokens[0].clone();
            tokio::spawn(async move {
                // A poll also answers a change it had not heard of when it began (the join's
                // notification can arrive after the poll starts): it asks again, as a client
                // does, until it has the move.
                loop {
                    let r = client.get(&url).bearer_auth(&token).send().await;
                    let at = Instant::now();
                    let v: serde_json::Value = r.expect("an answer").json().await.expect("json");
                    if v["version"].as_u64() != Some(version as u64) {
                        return (at, v["version"].as_u64());
                    }
                }
            })
        };
        tokio::task::yield_now().await;
        let moved = post(
            format!("{two}/api/games/{id}/actions"),
            Some(tokens[version % 2].clone()),
            serde_json::json!({"expected_version": version, "client_action_id": format!("m{version}"), "action": m}),
        )
        .await;
        let acked = Instant::now();
        assert_eq!(moved["applied_version"].as_u64(), Some(version as u64 + 1));
        let (answered, seen) = poll.await.expect("the poll");
        assert_eq!(seen, Some(version as u64 + 1), "the poll saw the move");
        wakes.push(answered.saturating_duration_since(acked));
    }
    wakes
}

async fn wake_times(client: &reqwest::Client, one: &str, two: &str) -> Vec<std::time::Duration> {
    let mut all = Vec::new();
    for _ in 0..10 {
        all.extend(wait_one(client, one, two).await);
    }
    all.sort();
    all
}

fn main() {
    let a = args();
    match a.command.as_str() {
        "fill" => fill(&a),
        "measure" => measure(&a),
        _ => eprintln!("usage: big_store fill|measure --db FILE|URL [options]; see the source"),
    }
}
