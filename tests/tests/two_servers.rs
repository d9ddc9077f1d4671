//! Two server binaries over one PostgreSQL database, as behind a proxy that spreads requests:
//! whatever one server acknowledged, the very next read through the other returns (issue 40).
//! Each server keeps a cache of games; before this, the other server answered from its copy
//! until the database's notification reached it (a move acknowledged by A read as the
//! previous version through B, 2–5 ms; a join through B showed on A about 12 ms later).
//! Always PostgreSQL: the store several servers share.
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

use qiguan_tests::{Server, TestDb};
use serde_json::{Value, json};

async fn call(
    client: &reqwest::Client,
    method: reqwest::Method,
    url: String,
    token: Option<&str>,
    body: Option<Value>,
) -> Value {
    let mut request = client.request(method, &url);
    if let Some(t) = token {
        request = request.bearer_auth(t);
    }
    if let Some(b) = body {
        request = request.json(&b);
    }
    let response = request.send().await.unwrap();
    let status = response.status();
    let answer: Value = response.json().await.unwrap_or(Value::Null);
    assert!(status.is_success(), "{url}: {status} {answer}");
    answer
}

/// The first of a seat's legal actions that goes on with the game (no resigning, no draw).
fn a_move(view: &Value) -> Option<String> {
    view["legal_actions"]
        .as_array()?
        .iter()
        .filter_map(Value::as_str)
        .find(|a| !a.contains("resign") && !a.contains("draw") && !a.contains("claim"))
        .map(str::to_owned)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_one_server_acknowledged_the_other_answers_at_once() {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let db = TestDb::postgres();
    let servers = [
        Server::start(&db.url, "127.0.0.1:0"),
        Server::start(&db.url, "127.0.0.1:0"),
    ];
    let client = reqwest::Client::new();
    let (get, post) = (reqwest::Method::GET, reqwest::Method::POST);
    let mut moves = 0;
    let mut games = 0;
    while moves < 300 {
        games += 1;
        // Created through one server, joined through the other: the creator's next read, on
        // the first, already shows the opponent.
        let (a, b) = (&servers[games % 2].url, &servers[(games + 1) % 2].url);
        let created = call(
            &client,
            post.clone(),
            format!("{a}/api/games"),
            None,
            Some(json!({"game": "xiangqi", "days_per_move": 3, "name": "Ann"})),
        )
        .await;
        let id = created["game_id"].as_str().unwrap().to_owned();
        let code = created["invite_code"].as_str().unwrap();
        let joined = call(
            &client,
            post.clone(),
            format!("{b}/api/join"),
            None,
            Some(json!({"invite_code": code, "name": "Bo"})),
        )
        .await;
        let tokens = [
            created["token"].as_str().unwrap().to_owned(),
            joined["token"].as_str().unwrap().to_owned(),
        ];
        let seen = call(
            &client,
            get.clone(),
            format!("{a}/api/games/{id}"),
            Some(&tokens[0]),
            None,
        )
        .await;
        assert_eq!(
            seen["seats_filled"],
            json!([true, true]),
            "game {games}: the join through one server is not in the next read through the other"
        );
        assert_eq!(seen["names"], json!(["Ann", "Bo"]));
        // Each move through one server, read at once through the other, alternately.
        let mut view = seen;
        loop {
            if view["to_act"]["kind"] == "over" || moves >= 300 {
                break;
            }
            let seat = view["to_act"]["who"].as_u64().unwrap() as usize;
            let mover = &servers[moves % 2].url;
            let reader = &servers[(moves + 1) % 2].url;
            let mine = if seat == view["seat"].as_u64().unwrap() as usize {
                view.clone()
            } else {
                call(
                    &client,
                    get.clone(),
                    format!("{mover}/api/games/{id}"),
                    Some(&tokens[seat]),
                    None,
                )
                .await
            };
            let Some(action) = a_move(&mine) else { break };
            let version = mine["version"].as_u64().unwrap();
            let acknowledged = call(
                &client,
                post.clone(),
                format!("{mover}/api/games/{id}/actions"),
                Some(&tokens[seat]),
                Some(json!({
                    "expected_version": version,
                    "client_action_id": format!("m{moves}"),
                    "action": action,
                })),
            )
            .await;
            let done = acknowledged["version"].as_u64().unwrap();
            assert_eq!(done, version + 1);
            moves += 1;
            // The other seat reads through the other server, straight after the answer.
            let other = 1 - seat;
            view = call(
                &client,
                get.clone(),
                format!("{reader}/api/games/{id}"),
                Some(&tokens[other]),
                None,
            )
            .await;
            assert_eq!(
                view["version"].as_u64(),
                Some(done),
                "move {moves} ({action}) acknowledged as version {done} by one server; the \
                 other answered {}",
                view["version"]
            );
        }
    }
    assert!(moves >= 300, "{moves} moves over {games} games");
}

/// A server started before its PostgreSQL database exists says so and keeps trying; once the
/// database is there it starts and answers (issue 40: PostgreSQL unreachable at start).
#[test]
fn a_server_started_before_its_database_waits_for_it() {
    use std::io::{BufRead, BufReader};
    let db = TestDb::postgres();
    let name = db.database_name().unwrap().to_owned();
    qiguan_tests::admin(&format!("DROP DATABASE {name} WITH (FORCE)"));
    let mut child = std::process::Command::new(qiguan_tests::server_binary())
        .args(["--listen", "127.0.0.1:0", "--db", &db.url])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut errors = BufReader::new(child.stderr.take().unwrap()).lines();
    // The first failed try is said (no sleep: the line is the event waited for).
    let said = errors.next().unwrap().unwrap();
    assert!(
        said.contains("cannot reach PostgreSQL") && said.contains("trying again"),
        "{said}"
    );
    assert!(said.contains(&name), "it says which database: {said}");
    qiguan_tests::admin(&format!("CREATE DATABASE {name}"));
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert!(line.starts_with("listening on "), "{line:?}");
    let addr = line.trim().trim_start_matches("listening on ").to_owned();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let health = rt.block_on(async {
        let _ = rustls::crypto::ring::default_provider().install_default();
        reqwest::get(format!("http://{addr}/health"))
            .await
            .unwrap()
            .status()
    });
    assert!(health.is_success());
    let _ = child.kill();
    let _ = child.wait();
}
