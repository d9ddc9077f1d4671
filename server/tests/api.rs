//! The API through the router (no sockets), with a clock the tests move.
#![allow(clippy::unwrap_used)] // test helpers: a failed unwrap is a failed test

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use qiguan_server::{Config, router};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use tower::ServiceExt;

#[path = "support/call.rs"]
mod call;
#[path = "support/testdb.rs"]
mod testdb;

struct Server {
    app: axum::Router,
    clock: Arc<AtomicI64>,
    db: testdb::TestDb,
}

async fn server_with(ip_rate: f64, token_rate: f64) -> Server {
    let db = testdb::TestDb::new();
    let clock = Arc::new(AtomicI64::new(1_800_000_000_000));
    let c = clock.clone();
    let config = Config {
        db: db.url.clone(),
        ip_rate,
        token_rate,
        ..Config::default()
    };
    let state = qiguan_server::open(&config, Arc::new(move || c.load(Ordering::SeqCst)))
        .await
        .unwrap();
    Server {
        app: router(state),
        clock,
        db,
    }
}

async fn server() -> Server {
    server_with(0.0, 0.0).await
}

impl Server {
    async fn call(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        call::call(&self.app, method, path, token, body).await
    }

    /// Creates a game (creator Red) and joins it; returns (id, red token, black token).
    async fn game(&self) -> (String, String, String) {
        let (status, created) = self
            .call(
                "POST",
                "/api/games",
                None,
                Some(json!({"game": "xiangqi", "seat": 0, "days_per_move": 3})),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{created}");
        let (status, joined) = self
            .call(
                "POST",
                "/api/join",
                None,
                Some(json!({"invite_code": created["invite_code"]})),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{joined}");
        assert_eq!(joined["seat"], 1);
        (
            created["game_id"].as_str().unwrap().into(),
            created["token"].as_str().unwrap().into(),
            joined["token"].as_str().unwrap().into(),
        )
    }

    /// A second server on this one's database (its own empty cache), as after a restart.
    async fn reopened(&self) -> Server {
        let config = Config {
            db: self.db.url.clone(),
            ..Config::default()
        };
        let clock = self.clock.clone();
        let c = clock.clone();
        let state = qiguan_server::open(&config, Arc::new(move || c.load(Ordering::SeqCst)))
            .await
            .unwrap();
        Server {
            app: router(state),
            clock,
            db: testdb::TestDb::borrowed(&self.db.url),
        }
    }

    /// Reads `path` with `token` from a second server opened on this one's database, as
    /// after a restart.
    async fn read_after_restart(&self, path: &str, token: &str) -> Value {
        let config = Config {
            db: self.db.url.clone(),
            ..Config::default()
        };
        let again = qiguan_server::open(&config, Arc::new(|| 1_800_000_000_000))
            .await
            .unwrap();
        let resp = router(again)
            .oneshot(
                Request::builder()
                    .uri(path)
                    .header("authorization", format!("Bearer {token}"))
                    .body(Body::empty())
                    .unwrap(),
            )
            .await
            .unwrap();
        let bytes = resp.into_body().collect().await.unwrap().to_bytes();
        serde_json::from_slice(&bytes).unwrap()
    }

    async fn act(
        &self,
        id: &str,
        token: &str,
        version: usize,
        action: &str,
    ) -> (StatusCode, Value) {
        // A fresh contribution for each roll (the server ignores it on other actions).
        let body = json!({"expected_version": version, "client_action_id": format!("{token}-{version}-{action}"),
                          "action": action, "contribution": format!("{token}-{version}")});
        self.call(
            "POST",
            &format!("/api/games/{id}/actions"),
            Some(token),
            Some(body),
        )
        .await
    }
}

fn code(v: &Value) -> &str {
    v["error"]["code"].as_str().unwrap_or("")
}

#[tokio::test]
async fn two_seats_play_to_checkmate_each_seeing_its_own_view() {
    let s = server().await;
    let (id, red, black) = s.game().await;
    let (status, view) = s
        .call("GET", &format!("/api/games/{id}"), Some(&red), None)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        (view["seat"].clone(), view["your_turn"].clone()),
        (json!(0), json!(true))
    );
    assert_eq!(
        view["legal_actions"].as_array().unwrap().len(),
        44 + 2,
        "44 moves, resign, offer-draw"
    );
    assert!(view["deadline"].as_i64().unwrap() > s.clock.load(Ordering::SeqCst));
    let (_, black_view) = s
        .call("GET", &format!("/api/games/{id}"), Some(&black), None)
        .await;
    assert_eq!(black_view["your_turn"], false);

    for (i, mv) in ["b3b5", "a7a6", "b5c5", "f10e9", "c5c10"]
        .iter()
        .enumerate()
    {
        let token = if i % 2 == 0 { &red } else { &black };
        let (status, view) = s.act(&id, token, i, mv).await;
        assert_eq!(status, StatusCode::OK, "{mv}: {view}");
        assert_eq!(view["applied_version"], i + 1);
    }
    let (_, view) = s
        .call("GET", &format!("/api/games/{id}"), Some(&black), None)
        .await;
    assert_eq!(view["to_act"]["kind"], "over", "{view}");
    assert_eq!(view["to_act"]["who"]["reason"], "checkmate");
    assert!(view["deadline"].is_null());
    let (status, err) = s.act(&id, &black, 5, "resign").await;
    assert_eq!((status, code(&err)), (StatusCode::CONFLICT, "game-over"));
}

#[tokio::test]
async fn a_repeated_client_action_id_moves_once_and_a_stale_version_gets_409() {
    let s = server().await;
    let (id, red, black) = s.game().await;
    let body = json!({"expected_version": 0, "client_action_id": "c-1", "action": "h3e3"});
    let path = format!("/api/games/{id}/actions");
    let (first, a) = s.call("POST", &path, Some(&red), Some(body.clone())).await;
    let (again, b) = s.call("POST", &path, Some(&red), Some(body)).await;
    assert_eq!((first, again), (StatusCode::OK, StatusCode::OK));
    assert_eq!(a["applied_version"], 1);
    assert_eq!(b["applied_version"], 1);
    assert_eq!(b["version"], 1, "still one move");

    s.act(&id, &black, 1, "h10g8").await;
    let (status, err) = s.act(&id, &red, 1, "h1g3").await;
    assert_eq!(
        (status, code(&err)),
        (StatusCode::CONFLICT, "stale-version")
    );
    assert_eq!(
        err["current"]["version"], 2,
        "the 409 carries the current view"
    );
}

#[tokio::test]
async fn a_client_action_id_belongs_to_its_seat_and_is_not_reused_for_another_move() {
    let s = server().await;
    let (id, red, black) = s.game().await;
    let path = format!("/api/games/{id}/actions");
    let post = |token: &str, version: usize, action: &str| {
        let body =
            json!({"expected_version": version, "client_action_id": "same", "action": action});
        let token = token.to_owned();
        let path = path.clone();
        let s = &s;
        async move { s.call("POST", &path, Some(&token), Some(body)).await }
    };
    let (status, first) = post(&red, 0, "h3e3").await;
    assert_eq!(status, StatusCode::OK, "{first}");

    // The same id with another move: refused, and nothing moves.
    let (status, err) = post(&red, 0, "b3e3").await;
    assert_eq!(
        (status, code(&err)),
        (StatusCode::CONFLICT, "action-id-reused")
    );
    // The same id and move at another version is another request too.
    let (status, err) = post(&red, 1, "h3e3").await;
    assert_eq!(
        (status, code(&err)),
        (StatusCode::CONFLICT, "action-id-reused")
    );

    // Black's id is Black's own: the same string moves Black's piece, not a replay of Red's.
    let (status, black_move) = post(&black, 1, "h10g8").await;
    assert_eq!(status, StatusCode::OK, "{black_move}");
    assert_eq!(black_move["applied_version"], 2);
    assert_eq!(black_move["version"], 2);

    // A true repeat still answers the first result, also after a restart; a reuse is still
    // refused there.
    let (status, repeat) = post(&red, 0, " h3e3 ").await;
    assert_eq!(status, StatusCode::OK, "{repeat}");
    assert_eq!(repeat["applied_version"], 1);
    assert_eq!(repeat["version"], 2);
    let again = s.reopened().await;
    let body =
        |action: &str| json!({"expected_version": 0, "client_action_id": "same", "action": action});
    let (status, repeat) = again
        .call("POST", &path, Some(&red), Some(body("h3e3")))
        .await;
    assert_eq!(
        (status, &repeat["applied_version"]),
        (StatusCode::OK, &json!(1))
    );
    let (status, err) = again
        .call("POST", &path, Some(&red), Some(body("b3e3")))
        .await;
    assert_eq!(
        (status, code(&err)),
        (StatusCode::CONFLICT, "action-id-reused")
    );
}

#[tokio::test]
async fn tokens_are_checked_and_a_seat_cannot_move_the_other_sides_pieces() {
    let s = server().await;
    let (id, red, black) = s.game().await;
    let (other, other_red, _) = s.game().await;
    let path = format!("/api/games/{id}");
    let (status, err) = s.call("GET", &path, None, None).await;
    assert_eq!(
        (status, code(&err)),
        (StatusCode::UNAUTHORIZED, "missing-token")
    );
    let (status, err) = s.call("GET", &path, Some("not-a-token"), None).await;
    assert_eq!(
        (status, code(&err)),
        (StatusCode::UNAUTHORIZED, "unknown-token")
    );
    let (status, err) = s.call("GET", &path, Some(&other_red), None).await;
    assert_eq!((status, code(&err)), (StatusCode::FORBIDDEN, "wrong-game"));
    let (status, _) = s
        .call(
            "GET",
            &format!("/api/games/{other}"),
            Some(&other_red),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK);

    // Black's token on Red's turn, then on Black's turn with a red piece.
    let (status, err) = s.act(&id, &black, 0, "h3e3").await;
    assert_eq!(
        (status, code(&err)),
        (StatusCode::CONFLICT, "not-your-turn")
    );
    s.act(&id, &red, 0, "h3e3").await;
    let (status, err) = s.act(&id, &black, 1, "h1g3").await;
    assert_eq!(
        (status, code(&err)),
        (StatusCode::UNPROCESSABLE_ENTITY, "not-your-piece")
    );
    let (status, err) = s.act(&id, &black, 1, "h10h1").await;
    assert_eq!(
        (status, code(&err)),
        (StatusCode::UNPROCESSABLE_ENTITY, "cannot-reach")
    );
    let (status, err) = s.act(&id, &black, 1, "xyzzy").await;
    assert_eq!(
        (status, code(&err)),
        (StatusCode::UNPROCESSABLE_ENTITY, "unreadable-action")
    );
}

#[tokio::test]
async fn invites_are_single_use_and_moves_wait_for_the_opponent() {
    let s = server().await;
    let (status, created) = s
        .call(
            "POST",
            "/api/games",
            None,
            Some(json!({"game": "xiangqi", "seat": 1, "days_per_move": 1})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let id = created["game_id"].as_str().unwrap();
    let black = created["token"].as_str().unwrap();
    let code_text = created["invite_code"].as_str().unwrap();
    assert_eq!(created["invites"][0]["seat"], 0);
    let (status, view) = s
        .call("GET", &format!("/api/games/{id}"), Some(black), None)
        .await;
    assert_eq!(
        (status, view["seats_filled"].clone()),
        (StatusCode::OK, json!([false, true]))
    );
    assert!(
        view["deadline"].is_null(),
        "no clock before both have joined"
    );

    // Typed in lower case with spaces, the code still works; then it is used up.
    let typed = code_text.to_lowercase().replace('-', " ");
    let (status, _) = s
        .call(
            "POST",
            "/api/join",
            None,
            Some(json!({"invite_code": typed})),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let (status, err) = s
        .call(
            "POST",
            "/api/join",
            None,
            Some(json!({"invite_code": code_text})),
        )
        .await;
    assert_eq!((status, code(&err)), (StatusCode::GONE, "invite-used"));
    let (status, err) = s
        .call(
            "POST",
            "/api/join",
            None,
            Some(json!({"invite_code": "ZZZZZ-ZZZZZ"})),
        )
        .await;
    assert_eq!(
        (status, code(&err)),
        (StatusCode::NOT_FOUND, "unknown-invite")
    );

    let (_, lonely) = s
        .call(
            "POST",
            "/api/games",
            None,
            Some(json!({"game": "xiangqi", "days_per_move": 2})),
        )
        .await;
    let (status, err) = s
        .act(
            lonely["game_id"].as_str().unwrap(),
            lonely["token"].as_str().unwrap(),
            0,
            "h3e3",
        )
        .await;
    assert_eq!(
        (status, code(&err)),
        (StatusCode::CONFLICT, "waiting-for-opponent")
    );

    for bad in [
        json!({"game": "xiangqi", "days_per_move": 0}),
        json!({"game": "xiangqi", "days_per_move": 15}),
        json!({"game": "xiangqi", "seat": 2, "days_per_move": 3}),
    ] {
        let (status, _) = s.call("POST", "/api/games", None, Some(bad)).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    }
}

#[tokio::test]
async fn a_timeout_is_claimed_only_after_the_deadline() {
    let s = server().await;
    let (id, red, black) = s.game().await;
    s.act(&id, &red, 0, "h3e3").await;
    let (status, err) = s.act(&id, &red, 1, "claim-timeout").await;
    assert_eq!(
        (status, code(&err)),
        (StatusCode::CONFLICT, "deadline-not-passed")
    );
    s.clock
        .fetch_add(3 * 24 * 3600 * 1000 + 1, Ordering::SeqCst);
    let (status, err) = s.act(&id, &black, 1, "claim-timeout").await;
    assert_eq!(
        (status, code(&err)),
        (StatusCode::UNPROCESSABLE_ENTITY, "nothing-to-claim"),
        "{err}"
    );
    let (status, view) = s.act(&id, &red, 1, "claim-timeout").await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(view["to_act"]["who"]["reason"], "timeout");
}

#[tokio::test]
async fn a_long_poll_returns_when_the_opponent_moves() {
    let s = Arc::new(server().await);
    let (id, red, black) = s.game().await;
    let waiter = {
        let (s, id, black) = (s.clone(), id.clone(), black.clone());
        tokio::spawn(async move {
            let started = std::time::Instant::now();
            let (status, view) = s
                .call(
                    "GET",
                    &format!("/api/games/{id}/wait?after=0&timeout=10"),
                    Some(&black),
                    None,
                )
                .await;
            (status, view, started.elapsed())
        })
    };
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    s.act(&id, &red, 0, "h3e3").await;
    let (status, view, waited) = waiter.await.unwrap();
    assert_eq!(status, StatusCode::OK);
    assert_eq!(view["version"], 1);
    assert_eq!(view["your_turn"], true);
    assert!(waited < std::time::Duration::from_secs(5), "{waited:?}");
    // Nothing new: the poll gives up after its timeout with the same version.
    let (_, view) = s
        .call(
            "GET",
            &format!("/api/games/{id}/wait?after=1&timeout=1"),
            Some(&black),
            None,
        )
        .await;
    assert_eq!(view["version"], 1);
    let (status, err) = s
        .call("GET", &format!("/api/games/{id}/wait"), Some(&black), None)
        .await;
    assert_eq!((status, code(&err)), (StatusCode::BAD_REQUEST, "bad-query"));
}

/// A join moves no version: a creator's long poll that began after the join (the join came
/// first) still answers at once when it says how many seats it knew filled (issue 40; it
/// waited out its 30 s, and the creator's screen went on saying it waited for an opponent).
#[tokio::test]
async fn a_long_poll_begun_after_the_join_answers_it_at_once() {
    let s = server().await;
    let (id, red, _black) = s.game().await;
    let (status, view) = tokio::time::timeout(
        std::time::Duration::from_secs(10),
        s.call(
            "GET",
            &format!("/api/games/{id}/wait?after=0&said=0&joined=1&timeout=30"),
            Some(&red),
            None,
        ),
    )
    .await
    .expect("the long poll answers the join it missed");
    assert_eq!(status, StatusCode::OK);
    assert_eq!(view["seats_filled"], json!([true, true]));
    assert_eq!(view["version"], 0, "no version moved");
}

#[tokio::test]
async fn my_games_lists_my_turn_first_then_the_nearest_deadline() {
    let s = server().await;
    let (a, a_red, _) = s.game().await;
    let (b, b_red, _) = s.game().await;
    s.act(&a, &a_red, 0, "h3e3").await; // now Black's turn in a
    let (status, list) = s
        .call(
            "POST",
            "/api/my-games",
            None,
            Some(json!({"tokens": [a_red, b_red, "junk"]})),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let ids: Vec<&str> = list["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["game_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [b.as_str(), a.as_str()]);
}

#[tokio::test]
async fn bad_bodies_get_json_errors_and_the_api_is_documented() {
    let s = server().await;
    let (status, err) = s
        .call("POST", "/api/games", None, Some(json!({"game": "go"})))
        .await;
    assert_eq!((status, code(&err)), (StatusCode::BAD_REQUEST, "bad-json"));
    let huge = json!({"invite_code": "x".repeat(20_000)});
    let (status, err) = s.call("POST", "/api/join", None, Some(huge)).await;
    assert_eq!(
        (status, code(&err)),
        (StatusCode::PAYLOAD_TOO_LARGE, "too-large")
    );
    let (status, err) = s.call("GET", "/nope", None, None).await;
    assert_eq!((status, code(&err)), (StatusCode::NOT_FOUND, "no-route"));

    let (status, doc) = s.call("GET", "/openapi.json", None, None).await;
    assert_eq!(status, StatusCode::OK);
    for path in [
        "/api/games",
        "/api/join",
        "/api/games/{id}",
        "/api/games/{id}/actions",
        "/api/games/{id}/say",
        "/api/games/{id}/wait",
        "/api/my-games",
    ] {
        assert!(doc["paths"][path].is_object(), "{path} is documented");
    }
}

#[tokio::test]
async fn clients_that_send_too_much_are_slowed_down() {
    let s = server_with(2.0, 0.0).await;
    let mut statuses = Vec::new();
    for _ in 0..12 {
        statuses.push(s.call("GET", "/health", None, None).await.0);
    }
    assert!(
        statuses[..8].iter().all(|s| *s == StatusCode::OK),
        "a burst of 8 is allowed"
    );
    assert!(statuses.contains(&StatusCode::TOO_MANY_REQUESTS));
}

#[tokio::test]
async fn the_server_deals_a_flip_game_and_the_deal_survives_a_restart() {
    let s = server().await;
    let (status, created) = s
        .call(
            "POST",
            "/api/games",
            None,
            Some(json!({"game": "junqi", "seat": 0, "days_per_move": 3, "options": {"visibility": "flip"},
                        "contribution": "first-seat"})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["game_id"].as_str().unwrap().to_owned();
    let first = created["token"].as_str().unwrap().to_owned();
    let (_, joined) = s
        .call(
            "POST",
            "/api/join",
            None,
            Some(json!({"invite_code": created["invite_code"], "contribution": "second-seat"})),
        )
        .await;
    let second = joined["token"].as_str().unwrap().to_owned();
    let path = format!("/api/games/{id}");
    let (_, view) = s.call("GET", &path, Some(&first), None).await;
    // The deal is the first action, made by the server; nobody is told what it was.
    assert_eq!(view["version"], 1, "{view}");
    assert_eq!(view["your_turn"], true);
    assert_eq!(
        view["view"]["game"]["face_down"].as_array().unwrap().len(),
        50
    );
    assert!(
        view["view"]["game"]["pieces"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    assert!(!view.to_string().contains("deal:"), "{view}");
    let (status, after) = s.act(&id, &first, 1, "flip:c6").await;
    assert_eq!(status, StatusCode::OK, "{after}");
    let turned = after["view"]["game"]["pieces"][0].clone();
    assert_eq!(turned["at"], "c6");
    let (_, theirs) = s.call("GET", &path, Some(&second), None).await;
    assert_eq!(
        theirs["view"]["game"]["pieces"][0], turned,
        "both seats see the same"
    );
    assert_eq!(theirs["your_turn"], true);

    // A second server on the same database replays the stored deal to the same board.
    let reloaded = s.read_after_restart(&path, &second).await;
    assert_eq!(reloaded["view"]["game"], theirs["view"]["game"]);
}

/// Plays the first legal action that is not resign or a draw action.
fn first_move(view: &Value) -> String {
    view["legal_actions"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .find(|a| !a.contains("draw") && *a != "resign")
        .unwrap()
        .to_owned()
}

#[tokio::test]
async fn aeroplane_computer_seats_play_at_once_and_every_roll_is_the_servers() {
    let s = server().await;
    // Refused: a strength the game's computer lacks, in the creator's seat, outside the game,
    // twice.
    for (body, expected) in [
        (
            json!({"game": "sea-land-air", "days_per_move": 2, "bots": [{"seat": 1, "strength": "level-5"}]}),
            "bad-strength",
        ),
        (
            json!({"game": "junqi", "days_per_move": 2, "bots": [{"seat": 1, "strength": "level-3"}]}),
            "bad-strength",
        ),
        (
            json!({"game": "aeroplane", "days_per_move": 2, "bots": [{"seat": 2, "strength": "level-3"}]}),
            "bad-strength",
        ),
        (
            json!({"game": "xiangqi", "days_per_move": 2, "bots": [{"seat": 1, "strength": "level-11"}]}),
            "bad-json",
        ),
        (
            json!({"game": "aeroplane", "days_per_move": 2, "bots": [{"seat": 0}]}),
            "bad-bot-seat",
        ),
        (
            json!({"game": "aeroplane", "days_per_move": 2, "options": {"seats": 3}, "bots": [{"seat": 3}]}),
            "bad-bot-seat",
        ),
        (
            json!({"game": "aeroplane", "days_per_move": 2, "bots": [{"seat": 2}, {"seat": 2}]}),
            "bad-bot-seat",
        ),
        (
            json!({"game": "aeroplane", "days_per_move": 2, "bots": [{"seat": 2, "strength": "genius"}]}),
            "bad-json",
        ),
    ] {
        let (status, answer) = s.call("POST", "/api/games", None, Some(body)).await;
        assert!(status.is_client_error(), "{answer}");
        assert_eq!(code(&answer), expected, "{answer}");
    }

    // Three seats: the creator, a person invited, and the computer in seat 2.
    let (status, created) = s
        .call(
            "POST",
            "/api/games",
            None,
            Some(
                json!({"game": "aeroplane", "days_per_move": 2, "options": {"seats": 3},
                        "bots": [{"seat": 2, "strength": "easy"}]}),
            ),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    assert_eq!(
        created["invites"].as_array().unwrap().len(),
        1,
        "no invite for the computer"
    );
    let id = created["game_id"].as_str().unwrap().to_owned();
    let (_, joined) = s
        .call(
            "POST",
            "/api/join",
            None,
            Some(json!({"invite_code": created["invite_code"]})),
        )
        .await;
    let tokens = [
        created["token"].as_str().unwrap().to_owned(),
        joined["token"].as_str().unwrap().to_owned(),
    ];
    let path = format!("/api/games/{id}");
    let (_, view) = s.call("GET", &path, Some(&tokens[0]), None).await;
    assert_eq!(view["seats_filled"], json!([true, true, true]));
    assert_eq!(view["bots"], json!([null, null, "easy"]));
    assert_eq!(view["legal_actions"][0], "roll");

    // The two people play their first legal action each time; the computer answers within the
    // same request, so a person is always the one to act.
    let mut view = view;
    let mut restarted = false;
    for _ in 0..3000 {
        if view["to_act"]["kind"] == "over" {
            break;
        }
        assert_eq!(view["to_act"]["kind"], "seat", "{}", view["to_act"]);
        let seat = view["to_act"]["who"].as_u64().unwrap() as usize;
        assert!(seat < 2, "the computer's turn was left waiting");
        let token = &tokens[seat];
        let (_, mine) = s.call("GET", &path, Some(token), None).await;
        let action = first_move(&mine);
        let version = mine["version"].as_u64().unwrap() as usize;
        let (status, after) = s.act(&id, token, version, &action).await;
        assert_eq!(status, StatusCode::OK, "{after}");
        if action == "roll" {
            // The answer holds the server's roll, made after the seat asked.
            let actions = after["actions"].as_array().unwrap();
            let die = &actions[version + 1];
            assert_eq!(die["by"], "authority", "{die}");
            assert!(die["action"].as_str().unwrap().starts_with('d'));
        }
        view = after;
        // Halfway, a restart: the computer's seat and strength come back from the database.
        if !restarted && view["version"].as_u64().unwrap() > 200 {
            restarted = true;
            let config = Config {
                db: s.db.url.clone(),
                ..Config::default()
            };
            let again = qiguan_server::open(&config, Arc::new(|| 1_800_000_000_000))
                .await
                .unwrap();
            let resp = router(again)
                .oneshot(
                    Request::builder()
                        .uri(&path)
                        .header("authorization", format!("Bearer {}", tokens[0]))
                        .body(Body::empty())
                        .unwrap(),
                )
                .await
                .unwrap();
            let bytes = resp.into_body().collect().await.unwrap().to_bytes();
            let reloaded: Value = serde_json::from_slice(&bytes).unwrap();
            assert_eq!(reloaded["bots"], json!([null, null, "easy"]));
            assert_eq!(reloaded["view"], view["view"]);
        }
    }
    assert!(restarted);
    assert_eq!(view["to_act"]["kind"], "over", "the game ended");
    let order = view["to_act"]["who"]["result"]["order"].as_array().unwrap();
    assert_eq!(order.len(), 3);
    // The computer moved its own planes: some action by seat 2 is a plane move.
    let actions = view["actions"].as_array().unwrap();
    assert!(
        actions.iter().any(
            |a| a["by"] == json!({"seat": 2}) && a["action"].as_str().unwrap().starts_with('p')
        )
    );
    // Every roll is the authority's.
    for a in actions {
        let text = a["action"].as_str().unwrap();
        assert_eq!(text.starts_with('d'), a["by"] == "authority", "{a}");
    }
}

#[tokio::test]
async fn a_xiangqi_engine_seat_answers_each_move_at_its_level() {
    let s = server().await;
    // The creator plays Black; Red is the server's engine at level 2, and moves at once.
    let (status, created) = s
        .call(
            "POST",
            "/api/games",
            None,
            Some(json!({"game": "xiangqi", "days_per_move": 2, "seat": 1,
                        "bots": [{"seat": 0, "strength": "level-2"}]})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    assert_eq!(created["invites"], json!([]), "nobody to invite: {created}");
    let id = created["game_id"].as_str().unwrap().to_owned();
    let token = created["token"].as_str().unwrap().to_owned();
    let path = format!("/api/games/{id}");
    let (_, mut view) = s.call("GET", &path, Some(&token), None).await;
    assert_eq!(view["bots"], json!(["level-2", null]));
    assert_eq!(view["version"], 1, "the engine's first move: {view}");
    assert_eq!(view["actions"][0]["by"], json!({"seat": 0}));
    for _ in 0..6 {
        if view["to_act"]["kind"] == "over" {
            break;
        }
        assert_eq!(view["to_act"]["who"], 1, "the person's turn");
        let version = view["version"].as_u64().unwrap() as usize;
        let (status, after) = s.act(&id, &token, version, &first_move(&view)).await;
        assert_eq!(status, StatusCode::OK, "{after}");
        let actions = after["actions"].as_array().unwrap();
        if after["to_act"]["kind"] != "over" {
            assert_eq!(actions.len(), version + 2, "answered in the same request");
            assert_eq!(actions[version + 1]["by"], json!({"seat": 0}));
        }
        view = after;
    }
    // After a restart the seat and its level come back from the database.
    let reloaded = s.read_after_restart(&path, &token).await;
    assert_eq!(reloaded["bots"], json!(["level-2", null]));
    assert_eq!(reloaded["view"], view["view"]);
}

#[tokio::test]
async fn a_junqi_computer_seat_deploys_in_secret_and_answers_from_its_own_view() {
    let s = server().await;
    let (status, created) = s
        .call(
            "POST",
            "/api/games",
            None,
            Some(json!({"game": "junqi", "days_per_move": 2,
                        "bots": [{"seat": 1, "strength": "hard"}]})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["game_id"].as_str().unwrap().to_owned();
    let token = created["token"].as_str().unwrap().to_owned();
    let path = format!("/api/games/{id}");
    let (_, view) = s.call("GET", &path, Some(&token), None).await;
    assert_eq!(view["bots"], json!([null, "hard"]));
    assert_eq!(view["version"], 1, "the computer deployed at once: {view}");
    assert_eq!(view["view"]["game"]["deployed"], json!([false, true]));
    // The person deploys; South moves first, then the computer answers in the same request.
    let layout = qiguan_core::junqi::Deployment::considered(qiguan_core::junqi::Side::South, 1);
    let (status, mut view) = s
        .act(&id, &token, 1, &format!("deploy:{}", layout.to_text()))
        .await;
    assert_eq!(status, StatusCode::OK, "{view}");
    for _ in 0..4 {
        if view["to_act"]["kind"] == "over" {
            break;
        }
        assert_eq!(view["to_act"]["who"], 0, "the person's turn: {view}");
        let version = view["version"].as_u64().unwrap() as usize;
        let (status, after) = s.act(&id, &token, version, &first_move(&view)).await;
        assert_eq!(status, StatusCode::OK, "{after}");
        if after["to_act"]["kind"] != "over" {
            assert_eq!(after["version"], version + 2, "answered at once: {after}");
        }
        // Nothing of the computer's pieces but what the seat may know: its flag shows once
        // its Field Marshal has fallen, as the rules say; nothing else until the game is over.
        assert!(after.get("actions").is_none_or(Value::is_null), "{after}");
        let flag_shown = after["view"]["game"]["flag_shown"][1] == true;
        for p in after["view"]["game"]["pieces"].as_array().unwrap() {
            if p["side"] == "north" && after["to_act"]["kind"] != "over" {
                let shown_flag = flag_shown && p["rank"] == "flag";
                assert!(p["rank"].is_null() || shown_flag, "{p}");
            }
        }
        view = after;
    }
    let reloaded = s.read_after_restart(&path, &token).await;
    assert_eq!(reloaded["bots"], json!([null, "hard"]));
    assert_eq!(reloaded["view"], view["view"]);
}

#[tokio::test]
async fn a_sea_land_air_computer_seat_deploys_in_secret_and_answers_from_its_own_view() {
    let s = server().await;
    let (status, created) = s
        .call(
            "POST",
            "/api/games",
            None,
            Some(
                json!({"game": "sea-land-air", "days_per_move": 2, "options": {"referee": true},
                        "bots": [{"seat": 1, "strength": "hard"}]}),
            ),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["game_id"].as_str().unwrap().to_owned();
    let token = created["token"].as_str().unwrap().to_owned();
    let path = format!("/api/games/{id}");
    let (_, view) = s.call("GET", &path, Some(&token), None).await;
    assert_eq!(view["bots"], json!([null, "hard"]));
    assert_eq!(view["version"], 1, "the computer deployed at once: {view}");
    let layout = qiguan_core::sealandair::Deployment::sensible(qiguan_core::junqi::Side::South, 1);
    let body = json!({"expected_version": 1, "client_action_id": "deploy",
                      "action": format!("deploy:{}", layout.to_text())});
    let (status, mut view) = s
        .call("POST", &format!("{path}/actions"), Some(&token), Some(body))
        .await;
    assert_eq!(status, StatusCode::OK, "{view}");
    let mut answers = vec![view.to_string()];
    for _ in 0..6 {
        if view["to_act"]["kind"] == "over" {
            break;
        }
        assert_eq!(view["to_act"]["who"], 0, "the person's turn: {view}");
        let version = view["version"].as_u64().unwrap() as usize;
        let (status, after) = s.act(&id, &token, version, &first_move(&view)).await;
        assert_eq!(status, StatusCode::OK, "{after}");
        if after["to_act"]["kind"] != "over" {
            assert_eq!(after["version"], version + 2, "answered at once: {after}");
        }
        assert!(after.get("actions").is_none_or(Value::is_null), "{after}");
        // Referee mode: every opposing piece is unknown, with the kinds it can still be.
        for p in after["view"]["game"]["pieces"].as_array().unwrap() {
            if p["side"] == "north" && after["to_act"]["kind"] != "over" {
                assert!(p["kind"].is_null(), "{p}");
                assert!(!p["could_be"].as_array().unwrap().is_empty(), "{p}");
            } else {
                assert!(p.get("could_be").is_none(), "{p}");
            }
        }
        answers.push(after.to_string());
        view = after;
    }
    let reloaded = s.read_after_restart(&path, &token).await;
    assert_eq!(reloaded["bots"], json!([null, "hard"]));
    assert_eq!(reloaded["view"], view["view"]);
    // Once over, the record shows the computer's deployment, which no answer held before.
    let version = view["version"].as_u64().unwrap() as usize;
    s.act(&id, &token, version, "resign").await;
    let (_, over) = s.call("GET", &path, Some(&token), None).await;
    let theirs = over["actions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["by"] == json!({"seat": 1}))
        .and_then(|a| a["action"].as_str())
        .and_then(|t| t.strip_prefix("deploy:"))
        .expect("the computer's deployment in the record")
        .to_owned();
    for answer in &answers {
        assert!(!answer.contains(&theirs), "{answer}");
    }
}

#[tokio::test]
async fn a_computer_due_first_plays_when_the_last_person_joins() {
    let s = server().await;
    // The creator sits in seat 1; seat 0, which rolls first, is the computer; seat 2 is invited.
    let (status, created) = s
        .call(
            "POST",
            "/api/games",
            None,
            Some(
                json!({"game": "aeroplane", "days_per_move": 2, "seat": 1, "options": {"seats": 3},
                        "bots": [{"seat": 0}]}),
            ),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let path = format!("/api/games/{}", created["game_id"].as_str().unwrap());
    let token = created["token"].as_str().unwrap().to_owned();
    let (_, before) = s.call("GET", &path, Some(&token), None).await;
    assert_eq!(before["version"], 0, "nobody plays before everyone is in");
    s.call(
        "POST",
        "/api/join",
        None,
        Some(json!({"invite_code": created["invite_code"]})),
    )
    .await;
    let (_, after) = s.call("GET", &path, Some(&token), None).await;
    let actions = after["actions"].as_array().unwrap();
    assert!(actions.len() >= 2, "{after}");
    assert_eq!(actions[0]["by"], json!({"seat": 0}));
    assert_eq!(actions[0]["action"], "roll");
    assert_eq!(actions[1]["by"], "authority");
    assert_ne!(after["to_act"]["who"], 0, "the computer's turn is over");
    assert!(
        after["deadline"].is_i64(),
        "the person to act has a deadline"
    );
}

#[tokio::test]
async fn each_seat_sees_the_names_the_players_gave_even_after_a_restart() {
    let s = server().await;
    let (status, created) = s
        .call(
            "POST",
            "/api/games",
            None,
            Some(json!({"game": "xiangqi", "seat": 1, "days_per_move": 3, "name": " 张三 "})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["game_id"].as_str().unwrap().to_owned();
    let path = format!("/api/games/{id}");
    let black = created["token"].as_str().unwrap().to_owned();
    let (_, view) = s.call("GET", &path, Some(&black), None).await;
    assert_eq!(
        view["names"],
        json!(["", "张三"]),
        "trimmed; Red not joined"
    );

    // A name too long or with control characters is refused, and the invite stays usable.
    for bad in ["x".repeat(41), "a\nb".to_owned()] {
        let (status, body) = s
            .call(
                "POST",
                "/api/join",
                None,
                Some(json!({"invite_code": created["invite_code"], "name": bad})),
            )
            .await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert_eq!(code(&body), "bad-name");
    }
    let (status, joined) = s
        .call(
            "POST",
            "/api/join",
            None,
            Some(json!({"invite_code": created["invite_code"], "name": "Bo"})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{joined}");
    let red = joined["token"].as_str().unwrap().to_owned();
    for token in [&red, &black] {
        let (_, view) = s.call("GET", &path, Some(token), None).await;
        assert_eq!(view["names"], json!(["Bo", "张三"]));
    }

    // Stored: a second server on the same database says the same.
    let reloaded = s.read_after_restart(&path, &red).await;
    assert_eq!(reloaded["names"], json!(["Bo", "张三"]));
}

#[tokio::test]
async fn preset_phrases_are_stored_forwarded_and_limited() {
    let s = Arc::new(server().await);
    let (id, red, black) = s.game().await;
    let say = |token: String, client_id: &str, phrase: &str| {
        let (s, id) = (s.clone(), id.clone());
        let body = json!({"client_phrase_id": client_id, "phrase": phrase});
        async move {
            s.call(
                "POST",
                &format!("/api/games/{id}/say"),
                Some(&token),
                Some(body),
            )
            .await
        }
    };
    let (status, view) = say(red.clone(), "p1", "good-move").await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(view["said_seq"], 1);
    assert_eq!(view["said_count"], 1);
    assert_eq!(view["said"][0]["seat"], 0);
    assert_eq!(view["said"][0]["phrase"], "good-move");
    assert_eq!(view["version"], 0, "a phrase is not an action");
    // A resend is answered with the first result; the same id from another seat is its own.
    let (_, again) = say(red.clone(), "p1", "good-move").await;
    assert_eq!(
        (again["said_seq"].clone(), again["said_count"].clone()),
        (json!(1), json!(1))
    );
    let (_, theirs) = say(black.clone(), "p1", "thanks").await;
    assert_eq!(theirs["said_seq"], 2);
    assert_eq!(theirs["said"][1]["seat"], 1);

    // No free text, no empty id, no stranger.
    let (status, err) = say(red.clone(), "p2", "you play badly").await;
    assert_eq!(
        (status, code(&err)),
        (StatusCode::UNPROCESSABLE_ENTITY, "unknown-phrase")
    );
    let (status, err) = say(red.clone(), "", "hello").await;
    assert_eq!(
        (status, code(&err)),
        (StatusCode::UNPROCESSABLE_ENTITY, "bad-client-phrase-id")
    );
    let (status, err) = s
        .call(
            "POST",
            &format!("/api/games/{id}/say"),
            None,
            Some(json!({"client_phrase_id": "x", "phrase": "hello"})),
        )
        .await;
    assert_eq!(
        (status, code(&err)),
        (StatusCode::UNAUTHORIZED, "missing-token")
    );

    // A long poll that knows two phrases answers once a third is sent, with no new action.
    let waiter = {
        let (s, id, black) = (s.clone(), id.clone(), black.clone());
        tokio::spawn(async move {
            s.call(
                "GET",
                &format!("/api/games/{id}/wait?after=0&said=2&timeout=20"),
                Some(&black),
                None,
            )
            .await
        })
    };
    say(red.clone(), "p3", "hurry").await;
    let (status, heard) = waiter.await.unwrap();
    assert_eq!(status, StatusCode::OK);
    assert_eq!(heard["said_count"], 3);
    assert_eq!(heard["said"][2]["phrase"], "hurry");
    assert_eq!(heard["version"], 0);

    // After the game: "another game?" still goes through, and every phrase survives a restart.
    s.act(&id, &red, 0, "resign").await;
    let (status, view) = say(black.clone(), "p4", "rematch").await;
    assert_eq!(status, StatusCode::OK, "{view}");
    let kept = s
        .read_after_restart(&format!("/api/games/{id}"), &red)
        .await;
    let phrases: Vec<&str> = kept["said"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["phrase"].as_str().unwrap())
        .collect();
    assert_eq!(phrases, ["good-move", "thanks", "hurry", "rematch"]);

    // A seat may send 100 phrases in a game; a view carries the newest 20.
    for n in 3..=100 {
        let (status, _) = say(red.clone(), &format!("r{n}"), "hello").await;
        assert_eq!(status, StatusCode::OK, "phrase {n}");
    }
    let (status, err) = say(red.clone(), "r101", "hello").await;
    assert_eq!(
        (status, code(&err)),
        (StatusCode::CONFLICT, "too-many-phrases")
    );
    let (_, view) = say(black.clone(), "p5", "bye").await;
    assert_eq!(view["said_count"], 103);
    assert_eq!(view["said"].as_array().unwrap().len(), 20);
    assert_eq!(view["said"][19]["seq"], 103);
}

#[tokio::test]
async fn integers_are_read_as_json_schema_counts_them() {
    let s = server().await;
    // 3.0 is an integer to JSON Schema (and so to the OpenAPI document): accepted.
    let (status, created) = s
        .call(
            "POST",
            "/api/games",
            None,
            Some(json!({"game": "xiangqi", "seat": 1.0, "days_per_move": 3.0})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    assert_eq!(created["seat"], 1);
    // A fraction, a seat beyond a byte and a negative version are not.
    for body in [
        json!({"game": "xiangqi", "days_per_move": 2.5}),
        json!({"game": "xiangqi", "seat": 256, "days_per_move": 3}),
    ] {
        let (status, err) = s.call("POST", "/api/games", None, Some(body)).await;
        assert_eq!((status, code(&err)), (StatusCode::BAD_REQUEST, "bad-json"));
    }
    let (id, red, _) = s.game().await;
    let (status, err) = s
        .call(
            "POST",
            &format!("/api/games/{id}/actions"),
            Some(&red),
            Some(json!({"expected_version": -1, "client_action_id": "x", "action": "h3e3"})),
        )
        .await;
    assert_eq!((status, code(&err)), (StatusCode::BAD_REQUEST, "bad-json"));
    let (status, moved) = s
        .call(
            "POST",
            &format!("/api/games/{id}/actions"),
            Some(&red),
            Some(json!({"expected_version": 0.0, "client_action_id": "x", "action": "h3e3"})),
        )
        .await;
    assert_eq!((status, &moved["version"]), (StatusCode::OK, &json!(1)));
}

#[tokio::test]
async fn memory_holds_only_as_many_games_as_the_cache_allows_and_the_rest_come_from_the_store() {
    let db = testdb::TestDb::new();
    let config = Config {
        db: db.url.clone(),
        ip_rate: 0.0,
        token_rate: 0.0,
        cache: qiguan_server::CacheSize {
            games: 3,
            tokens: 2,
        },
        ..Config::default()
    };
    let state = qiguan_server::open(&config, Arc::new(|| 1_800_000_000_000))
        .await
        .unwrap();
    let games = state.games.clone();
    let app = router(state);
    let mut made = Vec::new();
    for _ in 0..8 {
        let (status, created) = call::call(
            &app,
            "POST",
            "/api/games",
            None,
            Some(json!({"game": "xiangqi", "days_per_move": 3})),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED, "{created}");
        made.push(created);
        assert!(games.cached() <= 3, "{} games in memory", games.cached());
    }
    // Every game, evicted or not, is still there to read and to play.
    for created in &made {
        let token = created["token"].as_str().unwrap();
        let path = format!("/api/games/{}", created["game_id"].as_str().unwrap());
        let (status, view) = call::call(&app, "GET", &path, Some(token), None).await;
        assert_eq!(
            (status, &view["version"]),
            (StatusCode::OK, &json!(0)),
            "{view}"
        );
        assert!(games.cached() <= 3);
    }
}

/// Sends `action` with a chosen client id and contribution (none when `None`).
async fn act_with(
    s: &Server,
    id: &str,
    token: &str,
    version: usize,
    client_id: &str,
    contribution: Option<&str>,
) -> (StatusCode, Value) {
    let mut body =
        json!({"expected_version": version, "client_action_id": client_id, "action": "roll"});
    if let Some(c) = contribution {
        body["contribution"] = json!(c);
    }
    s.call(
        "POST",
        &format!("/api/games/{id}/actions"),
        Some(token),
        Some(body),
    )
    .await
}

#[tokio::test]
async fn a_roll_needs_a_fresh_contribution_and_cannot_be_rolled_again() {
    let s = server().await;
    let (status, created) = s
        .call(
            "POST",
            "/api/games",
            None,
            Some(json!({"game": "aeroplane", "seat": 0, "days_per_move": 3,
                        "options": {"seats": 2}, "bots": [{"seat": 1, "strength": "easy"}]})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["game_id"].as_str().unwrap().to_owned();
    let token = created["token"].as_str().unwrap().to_owned();
    let (_, view) = s
        .call("GET", &format!("/api/games/{id}"), Some(&token), None)
        .await;
    // The commitment is there from the first answer; the seed is not.
    let commitment = view["fair"]["commitment"].as_str().unwrap().to_owned();
    assert_eq!(commitment.len(), 64, "{view}");
    assert_eq!(view["fair"]["scheme"], "qiguan-fair-1");
    assert!(view["fair"].get("seed").is_none(), "{view}");

    let (status, answer) = act_with(&s, &id, &token, 0, "r1", None).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{answer}");
    assert_eq!(code(&answer), "contribution-missing");
    // `null` is not a contribution (the document says a string), nor is it none.
    let (status, answer) = s
        .call(
            "POST",
            &format!("/api/games/{id}/actions"),
            Some(&token),
            Some(
                json!({"expected_version": 0, "client_action_id": "r0", "action": "roll",
                        "contribution": null}),
            ),
        )
        .await;
    assert!(status.is_client_error(), "{status} {answer}");
    let (status, answer) = s
        .call(
            "POST",
            "/api/games",
            None,
            Some(json!({"game": "xiangqi", "days_per_move": 3, "contribution": null})),
        )
        .await;
    assert!(status.is_client_error(), "{status} {answer}");
    let (status, answer) = act_with(&s, &id, &token, 0, "r1", Some("not ok!")).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{answer}");
    assert_eq!(code(&answer), "bad-contribution");

    let (status, rolled) = act_with(&s, &id, &token, 0, "r1", Some("mine-1")).await;
    assert_eq!(status, StatusCode::OK, "{rolled}");
    let die = rolled["actions"][1]["action"].clone();
    assert_eq!(
        rolled["fair"]["draws"][0],
        json!({"ply": 1, "contributions": ["mine-1"]})
    );
    // The same request again is the same roll; the same id with another contribution is a
    // second try at that roll, refused; so is a new request on the version before the roll.
    let (status, again) = act_with(&s, &id, &token, 0, "r1", Some("mine-1")).await;
    assert_eq!(status, StatusCode::OK, "{again}");
    assert_eq!(again["actions"][1]["action"], die);
    let (status, answer) = act_with(&s, &id, &token, 0, "r1", Some("mine-2")).await;
    assert_eq!(status, StatusCode::CONFLICT, "{answer}");
    assert_eq!(code(&answer), "action-id-reused");
    let (status, answer) = act_with(&s, &id, &token, 0, "r2", Some("mine-2")).await;
    assert_eq!(status, StatusCode::CONFLICT, "{answer}");
    assert_eq!(code(&answer), "stale-version");
    let (_, now) = s
        .call("GET", &format!("/api/games/{id}"), Some(&token), None)
        .await;
    assert_eq!(now["actions"][1]["action"], die, "the roll stands");

    // Play on to the next roll of this seat: the same contribution twice is refused.
    let mut view = now;
    for _ in 0..200 {
        let legal = view["legal_actions"].as_array().unwrap().clone();
        let version = view["version"].as_u64().unwrap() as usize;
        if legal.first() == Some(&json!("roll")) {
            let (status, answer) = act_with(&s, &id, &token, version, "r3", Some("mine-1")).await;
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{answer}");
            assert_eq!(code(&answer), "contribution-reused");
            return;
        }
        let (status, after) = s.act(&id, &token, version, &first_move(&view)).await;
        assert_eq!(status, StatusCode::OK, "{after}");
        view = after;
    }
    panic!("no second roll came: {view}");
}

#[tokio::test]
async fn a_flip_deal_waits_for_both_contributions_and_is_revealed_at_the_end() {
    let s = server().await;
    let create = |contribution: Option<&str>| {
        let mut body = json!({"game": "junqi", "seat": 0, "days_per_move": 3,
                              "options": {"visibility": "flip"}});
        if let Some(c) = contribution {
            body["contribution"] = json!(c);
        }
        s.call("POST", "/api/games", None, Some(body))
    };
    let (status, answer) = create(None).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{answer}");
    assert_eq!(code(&answer), "contribution-missing");
    let (status, created) = create(Some("south-seat")).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["game_id"].as_str().unwrap().to_owned();
    let first = created["token"].as_str().unwrap().to_owned();
    let path = format!("/api/games/{id}");
    let (_, waiting) = s.call("GET", &path, Some(&first), None).await;
    assert_eq!(
        waiting["version"], 0,
        "no deal before the second seat joins"
    );
    assert!(waiting["fair"]["commitment"].is_string(), "{waiting}");

    let join = |body: Value| s.call("POST", "/api/join", None, Some(body));
    let code_ = created["invite_code"].clone();
    let (status, answer) = join(json!({"invite_code": code_})).await;
    assert_eq!(code(&answer), "contribution-missing", "{status} {answer}");
    let (_, answer) = join(json!({"invite_code": code_, "contribution": "south-seat"})).await;
    assert_eq!(code(&answer), "contribution-reused", "{answer}");
    let (status, joined) = join(json!({"invite_code": code_, "contribution": "north-seat"})).await;
    assert_eq!(status, StatusCode::OK, "{joined}");
    let second = joined["token"].as_str().unwrap().to_owned();

    let (_, dealt) = s.call("GET", &path, Some(&second), None).await;
    assert_eq!(dealt["version"], 1, "{dealt}");
    assert_eq!(
        dealt["fair"]["draws"],
        json!([{"ply": 0, "contributions": ["south-seat", "north-seat"]}])
    );
    assert!(dealt["fair"].get("seed").is_none());
    // The seed survives a restart; it is shown once the game is over, with the whole record.
    let (status, over) = s.act(&id, &second, 1, "resign").await;
    assert_eq!(status, StatusCode::OK, "{over}");
    let reloaded = s.read_after_restart(&path, &first).await;
    let seed = reloaded["fair"]["seed"].as_str().unwrap();
    assert_eq!(seed.len(), 64);
    let record: qiguan_core::Record = serde_json::from_value(json!({
        "format": 1, "game": "junqi", "options": reloaded["options"], "setup": reloaded["setup"],
        "actions": reloaded["actions"], "fair": reloaded["fair"]}))
    .unwrap();
    assert_eq!(
        qiguan_core::fair::verify(&record),
        qiguan_core::fair::Verdict::Checked { draws: 1 }
    );
}
