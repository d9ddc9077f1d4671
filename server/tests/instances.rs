//! Two server processes' worth of state (two `open`s, two caches) over one PostgreSQL
//! database, as behind a load balancer: requests for one game reach both at the same moment.
//! Always PostgreSQL (the store that several servers share); `QIGUAN_TEST_POSTGRES` names the
//! server (scripts/install-deps sets one up).
#![allow(clippy::unwrap_used)] // test helpers: a failed unwrap is a failed test

use axum::http::StatusCode;
use qiguan_server::{Config, router, system_clock};
use serde_json::{Value, json};

#[path = "support/call.rs"]
mod call;
#[path = "support/testdb.rs"]
mod testdb;

#[derive(Clone)]
struct Instance(axum::Router);

async fn instance(db: &testdb::TestDb) -> Instance {
    let config = Config {
        db: db.url.clone(),
        ip_rate: 0.0,
        token_rate: 0.0,
        ..Config::default()
    };
    Instance(router(
        qiguan_server::open(&config, system_clock()).await.unwrap(),
    ))
}

impl Instance {
    /// The actions this server reads as the game's record (a game without hidden pieces).
    async fn recorded(&self, id: &str, token: &str) -> Vec<String> {
        let (status, view) = self
            .call("GET", &format!("/api/games/{id}"), Some(token), None)
            .await;
        assert_eq!(status, StatusCode::OK, "{view}");
        view["actions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["action"].as_str().unwrap().to_owned())
            .collect()
    }

    /// Sends a move as a client does while the database drops its connections: again with the
    /// same id after each retryable `503 storage`, until it is acknowledged; returns the answer.
    async fn act_until_answered(&self, id: &str, token: &str, version: u64, action: &str) -> Value {
        for _ in 0..200 {
            let (status, answer) = self
                .act(id, token, version, action, &format!("m{version}"))
                .await;
            if status == StatusCode::OK {
                return answer;
            }
            assert_eq!(
                (status, code(&answer)),
                (StatusCode::SERVICE_UNAVAILABLE, "storage"),
                "a dropped connection is a retryable storage error: {answer}"
            );
        }
        panic!("the servers never got their connections back");
    }

    async fn call(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        call::call(&self.0, method, path, token, body).await
    }

    async fn act(
        &self,
        id: &str,
        token: &str,
        version: u64,
        action: &str,
        client: &str,
    ) -> (StatusCode, Value) {
        // The client's id is fresh for each action: it is also the roll's contribution.
        let body = json!({"expected_version": version, "client_action_id": client,
                          "action": action, "contribution": client});
        self.call(
            "POST",
            &format!("/api/games/{id}/actions"),
            Some(token),
            Some(body),
        )
        .await
    }
}

/// A Xiangqi game created on `a` and joined on `b`: (id, red token, black token).
async fn game(a: &Instance, b: &Instance) -> (String, String, String) {
    let (status, created) = a
        .call(
            "POST",
            "/api/games",
            None,
            Some(json!({"game": "xiangqi", "days_per_move": 3})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let (status, joined) = b
        .call(
            "POST",
            "/api/join",
            None,
            Some(json!({"invite_code": created["invite_code"]})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{joined}");
    let s = |v: &Value| v.as_str().unwrap().to_owned();
    (
        s(&created["game_id"]),
        s(&created["token"]),
        s(&joined["token"]),
    )
}

fn code(v: &Value) -> &str {
    v["error"]["code"].as_str().unwrap_or("")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_servers_racing_on_one_game_apply_exactly_one_move() {
    let db = testdb::TestDb::postgres();
    let (a, b) = (instance(&db).await, instance(&db).await);
    for round in 0..12 {
        let (id, red, black) = game(&a, &b).await;
        // Both servers know the game at version 0 (cached), then both get a Red move for it.
        assert_eq!(
            a.call("GET", &format!("/api/games/{id}"), Some(&red), None)
                .await
                .0,
            StatusCode::OK
        );
        assert_eq!(
            b.call("GET", &format!("/api/games/{id}"), Some(&black), None)
                .await
                .0,
            StatusCode::OK
        );
        let ((sa, va), (sb, vb)) = tokio::join!(
            a.act(&id, &red, 0, "h3e3", "from-a"),
            b.act(&id, &red, 0, "b3e3", "from-b"),
        );
        let mut statuses = [sa, sb];
        statuses.sort();
        assert_eq!(
            statuses,
            [StatusCode::OK, StatusCode::CONFLICT],
            "round {round}: {va} {vb}"
        );
        let loser = if sa == StatusCode::OK { &vb } else { &va };
        assert_eq!(code(loser), "stale-version", "{loser}");
        let won = if sa == StatusCode::OK { "h3e3" } else { "b3e3" };
        // Both servers now agree: one move, the winner's, and Black may answer on either.
        for (inst, token) in [(&a, &red), (&b, &black)] {
            let (_, view) = inst
                .call("GET", &format!("/api/games/{id}"), Some(token), None)
                .await;
            assert_eq!(view["version"], 1, "{view}");
            assert_eq!(view["actions"][0]["action"], won);
        }
        let (status, answer) = a.act(&id, &black, 1, "h10g8", "black-1").await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        // Red's retry of its winning request on the other server is the same move, not a second.
        let (winner, id_used) = if sa == StatusCode::OK {
            (&b, "from-a")
        } else {
            (&a, "from-b")
        };
        let (status, repeat) = winner.act(&id, &red, 0, won, id_used).await;
        assert_eq!(status, StatusCode::OK, "{repeat}");
        assert_eq!(repeat["applied_version"], 1);
        // That server hears of Black's answer within its notification's time: a poll past
        // version 1 returns it (a copy that missed it would wait out the 20 s and answer 1).
        let (_, seen) = winner
            .call(
                "GET",
                &format!("/api/games/{id}/wait?after=1&timeout=20"),
                Some(&red),
                None,
            )
            .await;
        assert_eq!(seen["version"], 2, "{seen}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_invite_used_on_two_servers_at_once_seats_one_player() {
    let db = testdb::TestDb::postgres();
    let (a, b) = (instance(&db).await, instance(&db).await);
    for _ in 0..12 {
        let (_, created) = a
            .call(
                "POST",
                "/api/games",
                None,
                Some(json!({"game": "xiangqi", "days_per_move": 3})),
            )
            .await;
        let join = json!({"invite_code": created["invite_code"]});
        let ((sa, va), (sb, vb)) = tokio::join!(
            a.call("POST", "/api/join", None, Some(join.clone())),
            b.call("POST", "/api/join", None, Some(join.clone())),
        );
        let mut statuses = [sa, sb];
        statuses.sort();
        assert_eq!(statuses, [StatusCode::OK, StatusCode::GONE], "{va} {vb}");
        let loser = if sa == StatusCode::OK { &vb } else { &va };
        assert_eq!(code(loser), "invite-used");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_long_poll_on_one_server_wakes_for_a_move_made_on_the_other() {
    let db = testdb::TestDb::postgres();
    let (a, b) = (instance(&db).await, instance(&db).await);
    let (id, red, black) = game(&a, &b).await;
    for version in 0..6u64 {
        let (mover, waiter_token, mover_token, action) = match version % 2 {
            0 => (
                &b,
                &black,
                &red,
                ["h3e3", "h1g3", "i1h1"][version as usize / 2],
            ),
            _ => (
                &b,
                &red,
                &black,
                ["h10g8", "i10h10", "b10c8"][version as usize / 2],
            ),
        };
        // The poll on `a` is waiting (it has answered nothing yet) when `b` takes the move. A
        // poll also answers other changes (the join before the first move may be heard only
        // now), so it polls again, as a client does, until it sees the move: with no
        // notification each poll would wait out its 20 s and the third would fail the test.
        let poll = {
            let a = a.clone();
            let path = format!("/api/games/{id}/wait?after={version}&timeout=20");
            let token = waiter_token.clone();
            tokio::spawn(async move {
                for _ in 0..3 {
                    let (status, view) = a.call("GET", &path, Some(&token), None).await;
                    assert_eq!(status, StatusCode::OK, "{view}");
                    if view["version"].as_u64() > Some(version) {
                        return view;
                    }
                }
                panic!("three polls and no move");
            })
        };
        let (status, moved) = mover
            .act(&id, mover_token, version, action, &format!("m{version}"))
            .await;
        assert_eq!(status, StatusCode::OK, "{moved}");
        let woke = poll.await.unwrap();
        assert_eq!(woke["version"], version + 1, "{woke}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn moves_acknowledged_before_the_database_drops_every_connection_are_kept() {
    let db = testdb::TestDb::postgres();
    let (a, b) = (instance(&db).await, instance(&db).await);
    let (id, red, black) = game(&a, &b).await;
    let moves = ["h3e3", "h10g8", "h1g3", "i10h10", "i1h1", "b10c8"];
    let mut acknowledged = Vec::new();
    for (round, pair) in moves.chunks(2).enumerate() {
        for (i, action) in pair.iter().enumerate() {
            let version = (round * 2 + i) as u64;
            let token = if version.is_multiple_of(2) {
                &red
            } else {
                &black
            };
            let server = if version.is_multiple_of(2) { &a } else { &b };
            let view = server.act_until_answered(&id, token, version, action).await;
            assert_eq!(view["applied_version"], version + 1, "{view}");
            acknowledged.push(*action);
        }
        // Every connection to the database ends at once (as when it restarts).
        testdb::admin(&format!(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{}'",
            db.database_name().unwrap()
        ));
    }
    // A server that starts now reads exactly the acknowledged moves.
    let fresh = instance(&db).await;
    assert_eq!(fresh.recorded(&id, &red).await, acknowledged);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_computer_seat_answers_once_when_two_servers_race_on_its_game() {
    let db = testdb::TestDb::postgres();
    let (a, b) = (instance(&db).await, instance(&db).await);
    // Aeroplane chess for two: the creator and the server's computer, which plays (and whose
    // die is rolled) inside the request that hands it the turn.
    let (status, created) = a
        .call(
            "POST",
            "/api/games",
            None,
            Some(
                json!({"game": "aeroplane", "days_per_move": 2, "options": {"seats": 2},
                        "bots": [{"seat": 1, "strength": "easy"}]}),
            ),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["game_id"].as_str().unwrap().to_owned();
    let token = created["token"].as_str().unwrap().to_owned();
    let path = format!("/api/games/{id}");
    let (_, mut view) = a.call("GET", &path, Some(&token), None).await;
    for round in 0..15 {
        let version = view["version"].as_u64().unwrap();
        let action = view["legal_actions"][0].as_str().unwrap().to_owned();
        let (ida, idb) = (format!("a{round}"), format!("b{round}"));
        let ((sa, va), (sb, vb)) = tokio::join!(
            a.act(&id, &token, version, &action, &ida),
            b.act(&id, &token, version, &action, &idb),
        );
        let mut statuses = [sa, sb];
        statuses.sort();
        assert_eq!(
            statuses,
            [StatusCode::OK, StatusCode::CONFLICT],
            "round {round}: {va} {vb}"
        );
        let (won, lost) = if sa == StatusCode::OK {
            (va, vb)
        } else {
            (vb, va)
        };
        assert_eq!(code(&lost), "stale-version", "{lost}");
        // The winner's answer holds the person's action, then the computer's whole turn; both
        // servers end up with that record, once.
        let after = won["version"].as_u64().unwrap();
        for inst in [&a, &b] {
            let (_, seen) = inst
                .call(
                    "GET",
                    &format!("{path}/wait?after={}&timeout=20", after - 1),
                    Some(&token),
                    None,
                )
                .await;
            assert_eq!(seen["version"], after, "{seen}");
            assert_eq!(seen["actions"], won["actions"]);
        }
        assert_eq!(won["actions"][version as usize]["action"], action.as_str());
        view = won;
        if view["to_act"].get("outcome").is_some() {
            break;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_last_of_several_joins_at_once_starts_the_game() {
    let db = testdb::TestDb::postgres();
    let (a, b) = (instance(&db).await, instance(&db).await);
    for round in 0..10 {
        // Aeroplane chess for four: three people join at once, on two servers. Whichever join
        // commits last must see the others' seats and start the clock.
        let (status, created) = a
            .call(
                "POST",
                "/api/games",
                None,
                Some(json!({"game": "aeroplane", "days_per_move": 2, "options": {"seats": 4}})),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{created}");
        let codes: Vec<Value> = created["invites"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| json!({"invite_code": i["code"]}))
            .collect();
        assert_eq!(codes.len(), 3);
        let (one, two, three) = tokio::join!(
            a.call("POST", "/api/join", None, Some(codes[0].clone())),
            b.call("POST", "/api/join", None, Some(codes[1].clone())),
            b.call("POST", "/api/join", None, Some(codes[2].clone())),
        );
        for (status, joined) in [&one, &two, &three] {
            assert_eq!(*status, StatusCode::OK, "round {round}: {joined}");
        }
        let token = created["token"].as_str().unwrap();
        let path = format!("/api/games/{}", created["game_id"].as_str().unwrap());
        let fresh = instance(&db).await;
        let (_, view) = fresh.call("GET", &path, Some(token), None).await;
        assert_eq!(view["seats_filled"], json!([true, true, true, true]));
        assert!(
            view["deadline"].is_i64(),
            "round {round}: the game started: {view}"
        );
    }
}

/// Reads a seat's view of a game on `server` once it has seen both seats taken, `version`
/// actions and `said` phrases (the other server's commits reach this one by notification; a
/// long poll waits for the next change).
async fn seen(server: &Instance, id: &str, token: &str, version: u64, said: u64) -> Value {
    for _ in 0..10 {
        let (status, view) = server
            .call("GET", &format!("/api/games/{id}"), Some(token), None)
            .await;
        assert_eq!(status, StatusCode::OK, "{view}");
        let full = view["seats_filled"] == json!([true, true]);
        if full && view["version"] == version && view["said_count"] == said {
            return view;
        }
        let path = format!(
            "/api/games/{id}/wait?after={}&said={}&timeout=5",
            view["version"], view["said_count"]
        );
        let (status, view) = server.call("GET", &path, Some(token), None).await;
        assert_eq!(status, StatusCode::OK, "{view}");
    }
    panic!("{id} did not reach version {version} with {said} phrases");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_game_played_on_both_servers_reads_the_same_on_each_as_read_whole() {
    // Each server catches its copy up with what the other committed (only the missing actions
    // and phrases are read); every view must equal the one a server reading the whole game
    // gives.
    let db = testdb::TestDb::postgres();
    let (a, b) = (instance(&db).await, instance(&db).await);
    let (id, red, black) = game(&a, &b).await;
    let tokens = [red.as_str(), black.as_str()];
    let mut said = 0u64;
    for version in 0..16u64 {
        let (mover, other) = if version % 2 == 0 { (&a, &b) } else { (&b, &a) };
        let token = tokens[(version % 2) as usize];
        // The mover may not have heard of the last move yet: a stale copy is caught up.
        let view = seen(mover, &id, token, version, said).await;
        // Board moves only (not "offer-draw", "resign").
        let legal: Vec<&str> = view["legal_actions"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .filter(|a| !a.contains('-'))
            .collect();
        assert!(!legal.is_empty(), "{view}");
        let action = legal[(version as usize * 7) % legal.len()];
        let (status, moved) = mover
            .act(&id, token, version, action, &format!("m{version}"))
            .await;
        assert_eq!(status, StatusCode::OK, "{moved}");
        if version % 3 == 0 {
            // A phrase from the seat that just moved, sent to the other server.
            let (status, sent) = other
                .call(
                    "POST",
                    &format!("/api/games/{id}/say"),
                    Some(token),
                    Some(json!({"phrase": "good-move", "client_phrase_id": format!("p{version}")})),
                )
                .await;
            assert_eq!(status, StatusCode::OK, "{sent}");
            said += 1;
        }
        // Both seats' views, on both servers and on a server that reads the game whole.
        let whole = instance(&db).await;
        for token in tokens {
            let on_a = seen(&a, &id, token, version + 1, said).await;
            let on_b = seen(&b, &id, token, version + 1, said).await;
            let fresh = seen(&whole, &id, token, version + 1, said).await;
            assert_eq!(on_a, fresh, "server a, after move {version}");
            assert_eq!(on_b, fresh, "server b, after move {version}");
        }
    }
    // A resent move (same client id) is still known as applied on the server that caught up.
    let (status, again) = a.act(&id, &black, 1, "x", "m1").await;
    assert_eq!(status, StatusCode::CONFLICT, "{again}");
    assert_eq!(code(&again), "action-id-reused", "{again}");
}

/// The connection a server listens on for the others' commits is cut (the database restarted
/// it, a proxy dropped it): while it is gone, nothing tells that server of the other's moves,
/// and its cached copy must still not be answered as current (issue 40).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn with_its_listening_connection_cut_a_server_still_answers_every_acknowledged_move() {
    let db = testdb::TestDb::postgres();
    let (a, b) = (instance(&db).await, instance(&db).await);
    let (id, red, black) = game(&a, &b).await;
    // Both copies are in the caches.
    for (server, token) in [(&a, &red), (&b, &black)] {
        let (status, _) = server
            .call("GET", &format!("/api/games/{id}"), Some(token), None)
            .await;
        assert_eq!(status, StatusCode::OK);
    }
    let moves = ["h3e3", "h10g8", "h1g3", "i10h10", "i1h1", "b10c8"];
    for (version, action) in moves.iter().enumerate() {
        testdb::admin(&format!(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{}' \
             AND query LIKE 'LISTEN%'",
            db.database_name().unwrap()
        ));
        let (mover, reader, token, other) = if version % 2 == 0 {
            (&a, &b, &red, &black)
        } else {
            (&b, &a, &black, &red)
        };
        let (status, view) = mover
            .act(&id, token, version as u64, action, &format!("m{version}"))
            .await;
        assert_eq!(status, StatusCode::OK, "{view}");
        let (status, view) = reader
            .call("GET", &format!("/api/games/{id}"), Some(other), None)
            .await;
        assert_eq!(status, StatusCode::OK, "{view}");
        assert_eq!(
            view["version"],
            version + 1,
            "{action} acknowledged by one server, not in the other's answer"
        );
    }
}

/// PostgreSQL drops every connection again and again while eight games are played at once
/// on two servers (as when the database restarts under load): each request is answered — a
/// move, or a retryable `503 storage` — and never hangs, and the database ends with exactly
/// the moves that were acknowledged (issue 40).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn under_load_a_database_dropping_every_connection_loses_no_acknowledged_move() {
    let db = testdb::TestDb::postgres();
    let (a, b) = (instance(&db).await, instance(&db).await);
    let name = db.database_name().unwrap().to_owned();
    let acknowledged_total = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    // The games first (their creation is not what this test is about), then the play.
    let mut games = Vec::new();
    for _ in 0..8 {
        games.push(game(&a, &b).await);
    }
    let mut players = Vec::new();
    for (g, (id, red, black)) in games.into_iter().enumerate() {
        let servers = [a.clone(), b.clone()];
        let total = acknowledged_total.clone();
        let name = name.clone();
        players.push(tokio::spawn(async move {
            let tokens = [red, black];
            let mut acknowledged: Vec<String> = Vec::new();
            let mut refusals = 0;
            while acknowledged.len() < 12 {
                let seat = acknowledged.len() % 2;
                let server = &servers[(g + acknowledged.len()) % 2];
                // The seat's legal moves, as the server says (a read may fail too).
                let (status, view) = server
                    .call(
                        "GET",
                        &format!("/api/games/{id}"),
                        Some(&tokens[seat]),
                        None,
                    )
                    .await;
                if status != StatusCode::OK {
                    assert_eq!(
                        (status, code(&view)),
                        (StatusCode::SERVICE_UNAVAILABLE, "storage"),
                        "{view}"
                    );
                    refusals += 1;
                    assert!(
                        refusals < 200,
                        "the servers never got their connections back"
                    );
                    continue;
                }
                if view["to_act"]["kind"] == "over" {
                    break;
                }
                let version = view["version"].as_u64().unwrap();
                assert_eq!(version as usize, acknowledged.len(), "{view}");
                let action = view["legal_actions"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter_map(Value::as_str)
                    .find(|a| !a.contains("resign") && !a.contains("draw"))
                    .unwrap()
                    .to_owned();
                server
                    .act_until_answered(&id, &tokens[seat], version, &action)
                    .await;
                acknowledged.push(action);
                // Every fifth move acknowledged anywhere, every connection ends at once.
                if total.fetch_add(1, std::sync::atomic::Ordering::SeqCst) % 5 == 4 {
                    testdb::admin(&format!(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
                         WHERE datname = '{name}'"
                    ));
                }
            }
            (id, tokens, acknowledged)
        }));
    }
    let mut played = Vec::new();
    for player in players {
        played.push(player.await.unwrap());
    }
    // A server started afterwards reads exactly the acknowledged moves of every game.
    let fresh = instance(&db).await;
    for (id, tokens, acknowledged) in played {
        assert_eq!(
            fresh.recorded(&id, &tokens[0]).await,
            acknowledged,
            "game {id}"
        );
    }
}
