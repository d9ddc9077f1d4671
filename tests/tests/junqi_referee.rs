//! A referee-mode Junqi game through the real server: every raw HTTP answer to each seat is
//! scanned for the opponent's identities, and none may be found.
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

use qiguan_core::junqi::{Deployment, Side};
use qiguan_tests::{Server, TestDb};
use serde_json::{Value, json};

/// Fails if `body`, sent to the seat playing `mine`, names an opposing piece or holds the
/// opponent's deployment text.
/// Once the game is over nothing is secret: the answer carries the whole record.
fn scan(body: &str, mine: &str, their_layout: &str) {
    let v: Value = serde_json::from_str(body).unwrap();
    let view = if v.get("current").is_some() {
        &v["current"]
    } else {
        &v
    };
    if view["to_act"]["kind"] == "over" {
        assert!(
            view["actions"]
                .as_array()
                .is_some_and(|a| a.iter().any(|e| e["action"]
                    .as_str()
                    .is_some_and(|t| t.contains(their_layout)))),
            "a finished game's answer carries the whole record: {body}"
        );
        return;
    }
    assert!(
        !body.contains(their_layout),
        "the opponent's deployment leaked: {body}"
    );
    let Some(pieces) = view["view"]["game"]["pieces"].as_array() else {
        return;
    };
    for p in pieces {
        if p["side"] != mine {
            let flag_shown = p["rank"] == "flag";
            assert!(
                p["rank"].is_null() || flag_shown,
                "an opposing {} at {} leaked",
                p["rank"],
                p["at"]
            );
        }
    }
    assert!(
        v.get("actions").is_none_or(Value::is_null),
        "the record stays with the server"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_answer_to_a_seat_names_an_opposing_piece() {
    let db = TestDb::new();
    let server = Server::start(&db.url, "127.0.0.1:0");
    // reqwest is built for the app's HTTPS with no crypto provider of its own.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::Client::new();
    let base = server.url.clone();
    let send = |req: reqwest::RequestBuilder| async move {
        let resp = req.send().await.unwrap();
        let status = resp.status().as_u16();
        (status, resp.text().await.unwrap())
    };

    let (status, body) = send(
        client
            .post(format!("{base}/api/games"))
            .json(&json!({"game": "junqi", "days_per_move": 3})),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    let created: Value = serde_json::from_str(&body).unwrap();
    let (_, body) = send(
        client
            .post(format!("{base}/api/join"))
            .json(&json!({"invite_code": created["invite_code"]})),
    )
    .await;
    let joined: Value = serde_json::from_str(&body).unwrap();
    let id = created["game_id"].as_str().unwrap().to_owned();
    let tokens = [
        created["token"].as_str().unwrap().to_owned(),
        joined["token"].as_str().unwrap().to_owned(),
    ];
    let get = |seat: usize| {
        send(
            client
                .get(format!("{base}/api/games/{id}"))
                .bearer_auth(&tokens[seat]),
        )
    };
    let act = |seat: usize, body: Value| {
        send(
            client
                .post(format!("{base}/api/games/{id}/actions"))
                .bearer_auth(&tokens[seat])
                .json(&body),
        )
    };
    let sides = ["south", "north"];
    let layouts = [
        Deployment::random(Side::South, 11).to_text(),
        Deployment::random(Side::North, 12).to_text(),
    ];
    assert_ne!(layouts[0], layouts[1]);

    // Both deploy (in either order), each checking what it is told.
    for seat in [1, 0] {
        let body_json = json!({"expected_version": 1 - seat, "client_action_id": format!("d{seat}"), "action": format!("deploy:{}", layouts[seat])});
        let (status, body) = act(seat, body_json).await;
        assert_eq!(status, 200, "{body}");
        scan(&body, sides[seat], &layouts[1 - seat]);
    }

    let mut battles_seen = 0;
    for ply in 0..80 {
        let seat = ply % 2;
        let (_, body) = get(seat).await;
        scan(&body, sides[seat], &layouts[1 - seat]);
        let other = get(1 - seat).await.1;
        scan(&other, sides[1 - seat], &layouts[seat]);
        let view: Value = serde_json::from_str(&body).unwrap();
        if view["to_act"]["kind"] == "over" {
            break;
        }
        let moves: Vec<&str> = view["legal_actions"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .filter(|a| {
                a.chars().next().is_some_and(|c| ('a'..='e').contains(&c)) && !a.contains('-')
            })
            .collect();
        // Prefer attacks, to see battles: a target point held by the opponent.
        let held: Vec<String> = view["view"]["game"]["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["side"] != sides[seat])
            .map(|p| p["at"].as_str().unwrap().to_owned())
            .collect();
        let attack = moves
            .iter()
            .find(|m| held.iter().any(|h| m.ends_with(h.as_str())));
        let mv = attack.or(moves.first()).unwrap().to_string();
        battles_seen += usize::from(attack.is_some());
        let version = view["version"].as_u64().unwrap();
        let body_json = json!({"expected_version": version, "client_action_id": format!("m{ply}"), "action": mv});
        let (status, body) = act(seat, body_json).await;
        assert_eq!(status, 200, "{mv}: {body}");
        scan(&body, sides[seat], &layouts[1 - seat]);
        // The long poll answer to the other seat is scanned too.
        let (_, waited) = send(
            client
                .get(format!(
                    "{base}/api/games/{id}/wait?after={version}&timeout=1"
                ))
                .bearer_auth(&tokens[1 - seat]),
        )
        .await;
        scan(&waited, sides[1 - seat], &layouts[seat]);
    }
    assert!(battles_seen > 0, "the game had battles to hide");

    // The game ends (by resignation if no flag fell): both seats then get the whole record.
    let (_, body) = get(0).await;
    let view: Value = serde_json::from_str(&body).unwrap();
    if view["to_act"]["kind"] != "over" {
        let body_json = json!({"expected_version": view["version"], "client_action_id": "r", "action": "resign"});
        let (status, body) = act(0, body_json).await;
        assert_eq!(status, 200, "{body}");
    }
    for seat in [0, 1] {
        let (_, body) = get(seat).await;
        let v: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(v["to_act"]["kind"], "over", "{body}");
        scan(&body, sides[seat], &layouts[1 - seat]);
        let actions = v["actions"].as_array().unwrap();
        assert_eq!(actions.len() as u64, v["version"].as_u64().unwrap());
    }
}

/// Against the server's hard computer: its deployment, made from its own seat's view, never
/// reaches the person until the game is over (it is read from the record then, and looked for
/// in every answer before), and no answer names one of its pieces.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_computer_seat_keeps_its_secrets_too() {
    let db = TestDb::new();
    let server = Server::start(&db.url, "127.0.0.1:0");
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::Client::new();
    let base = server.url.clone();
    let send = |req: reqwest::RequestBuilder| async move {
        let resp = req.send().await.unwrap();
        let status = resp.status().as_u16();
        (status, resp.text().await.unwrap())
    };
    let (status, body) = send(client.post(format!("{base}/api/games")).json(
        &json!({"game": "junqi", "days_per_move": 3, "bots": [{"seat": 1, "strength": "hard"}]}),
    ))
    .await;
    assert_eq!(status, 201, "{body}");
    let created: Value = serde_json::from_str(&body).unwrap();
    let id = created["game_id"].as_str().unwrap().to_owned();
    let token = created["token"].as_str().unwrap().to_owned();
    let mut bodies = vec![body];
    let mine = Deployment::random(Side::South, 21).to_text();
    let (status, body) = send(
        client
            .post(format!("{base}/api/games/{id}/actions"))
            .bearer_auth(&token)
            .json(&json!({"expected_version": 1, "client_action_id": "d", "action": format!("deploy:{mine}")})),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    bodies.push(body);
    for ply in 0..30 {
        let view: Value = serde_json::from_str(bodies.last().unwrap()).unwrap();
        if view["to_act"]["kind"] == "over" {
            break;
        }
        let mv = view["legal_actions"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .find(|a| a.chars().next().is_some_and(|c| ('a'..='e').contains(&c)))
            .unwrap()
            .to_owned();
        let body_json = json!({"expected_version": view["version"], "client_action_id": format!("m{ply}"), "action": mv});
        let (status, body) = send(
            client
                .post(format!("{base}/api/games/{id}/actions"))
                .bearer_auth(&token)
                .json(&body_json),
        )
        .await;
        assert_eq!(status, 200, "{mv}: {body}");
        bodies.push(body);
    }
    let view: Value = serde_json::from_str(bodies.last().unwrap()).unwrap();
    if view["to_act"]["kind"] != "over" {
        let body_json = json!({"expected_version": view["version"], "client_action_id": "r", "action": "resign"});
        let (status, body) = send(
            client
                .post(format!("{base}/api/games/{id}/actions"))
                .bearer_auth(&token)
                .json(&body_json),
        )
        .await;
        assert_eq!(status, 200, "{body}");
    }
    let (_, body) = send(
        client
            .get(format!("{base}/api/games/{id}"))
            .bearer_auth(&token),
    )
    .await;
    let over: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(over["to_act"]["kind"], "over", "{body}");
    let theirs = over["actions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["by"] == json!({"seat": 1}))
        .and_then(|a| a["action"].as_str())
        .and_then(|t| t.strip_prefix("deploy:"))
        .expect("the computer's deployment in the record")
        .to_owned();
    assert_ne!(theirs, mine);
    for body in &bodies {
        scan(body, "south", &theirs);
    }
}
