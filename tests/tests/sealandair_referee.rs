//! A Sea-land-air correspondence game through the real server, played to its end by the
//! computer from each seat's own view. Every raw HTTP answer to a seat is scanned: it may not
//! hold the opponent's deployment, may name an opposing piece only where that seat's recon has
//! revealed it, and its view must be exactly the seat's view of a local replica of the game.
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

use qiguan_core::junqi::Side;
use qiguan_core::sealandair::{Deployment, SeaLandAir, SeaLandAirOptions, bot};
use qiguan_core::{Actor, Match, Seat, Viewer};
use qiguan_tests::{Server, TestDb};
use serde_json::{Value, json};

/// Checks one answer to `seat`. Before the end: no opposing deployment, no record, and a view
/// equal to the replica's view for that seat (whose leaks the core's property tests rule out).
/// After the end: the whole record.
fn scan(body: &str, seat: usize, layouts: &[String; 2], replica: &Match<SeaLandAir>) {
    let v: Value = serde_json::from_str(body).unwrap();
    let current = if v.get("current").is_some() {
        &v["current"]
    } else {
        &v
    };
    if current["to_act"]["kind"] == "over" {
        let actions = current["actions"].as_array().expect("the record");
        assert!(
            actions.iter().any(|e| e["action"]
                .as_str()
                .is_some_and(|t| t.contains(&layouts[1 - seat]))),
            "a finished game's answer carries the whole record"
        );
        return;
    }
    assert!(
        !body.contains(&layouts[1 - seat]),
        "the opponent's deployment leaked: {body}"
    );
    assert!(
        current.get("actions").is_none_or(Value::is_null),
        "the record stays with the server"
    );
    let Some(game) = current["view"].get("game") else {
        return;
    };
    let version = current["version"].as_u64().unwrap() as usize;
    if version != replica.version() {
        return; // an answer from before the replica's latest action
    }
    let mine = serde_json::to_value(
        replica
            .view(Viewer::Seat(Seat::new(seat as u8).unwrap()))
            .game,
    )
    .unwrap();
    assert_eq!(
        game, &mine,
        "the server's view for seat {seat} differs from the rules'"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_to_the_end_where_no_answer_leaks() {
    play_to_the_end(SeaLandAirOptions::default()).await;
}

/// Referee mode (battles reveal nothing), chosen at create, is kept by the server.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_referee_mode_game_to_the_end_where_no_answer_leaks() {
    play_to_the_end(SeaLandAirOptions {
        referee: true,
        ..SeaLandAirOptions::default()
    })
    .await;
}

/// Plays a whole game through the server, the computer moving for each seat from the view the
/// server sent, and scans every answer. In a game whose battles reveal, checks that the
/// server's views do show the pieces that fought; in referee mode, that they never do.
async fn play_to_the_end(options: SeaLandAirOptions) {
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

    let (status, body) = send(
        client
            .post(format!("{base}/api/games"))
            .json(&json!({"game": "sea-land-air", "days_per_move": 3, "options": options})),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    let created: Value = serde_json::from_str(&body).unwrap();
    let (status, body) = send(
        client
            .post(format!("{base}/api/join"))
            .json(&json!({"invite_code": created["invite_code"]})),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let joined: Value = serde_json::from_str(&body).unwrap();
    let id = created["game_id"].as_str().unwrap().to_owned();
    let tokens = [
        created["token"].as_str().unwrap().to_owned(),
        joined["token"].as_str().unwrap().to_owned(),
    ];
    let act = |seat: usize, body: Value| {
        send(
            client
                .post(format!("{base}/api/games/{id}/actions"))
                .bearer_auth(&tokens[seat])
                .json(&body),
        )
    };
    let get = |seat: usize| {
        send(
            client
                .get(format!("{base}/api/games/{id}"))
                .bearer_auth(&tokens[seat]),
        )
    };
    let layouts = [
        Deployment::sensible(Side::South, 21).to_text(),
        Deployment::sensible(Side::North, 22).to_text(),
    ];
    let mut replica: Match<SeaLandAir> = Match::new(&options, None).unwrap();

    // A bad deployment is refused with the reason, and changes nothing.
    let (status, body) = act(
        1,
        json!({"expected_version": 0, "client_action_id": "bad", "action": "deploy:FFF"}),
    )
    .await;
    assert_eq!(status, 422, "{body}");
    assert!(body.contains("37"), "{body}");

    for seat in [1, 0] {
        let action = format!("deploy:{}", layouts[seat]);
        let (status, body) = act(
            seat,
            json!({"expected_version": replica.version(), "client_action_id": format!("d{seat}"), "action": action}),
        )
        .await;
        assert_eq!(status, 200, "{body}");
        replica
            .apply_text(Actor::Seat(Seat::new(seat as u8).unwrap()), &action)
            .unwrap();
        scan(&body, seat, &layouts, &replica);
    }

    let mut spotted = 0;
    let mut battles = 0;
    let mut shown_by_battle = 0;
    for ply in 0..600 {
        if replica.outcome().is_some() {
            break;
        }
        let seat = ply % 2;
        let (_, body) = get(seat).await;
        scan(&body, seat, &layouts, &replica);
        let (_, other) = get(1 - seat).await;
        scan(&other, 1 - seat, &layouts, &replica);
        let view: Value = serde_json::from_str(&body).unwrap();
        let game: qiguan_core::sealandair::SeaLandAirView =
            serde_json::from_value(view["view"]["game"].clone()).unwrap();
        let me = Seat::new(seat as u8).unwrap();
        // The opponent's last move, as the server showed it to this seat.
        if let Some(play) = &game.last
            && let qiguan_core::sealandair::SeaLandAirEvent::Battle {
                attacker, defender, ..
            } = &play.event
        {
            assert_eq!(
                (attacker.is_some(), defender.is_some()),
                (!options.referee, !options.referee),
                "{play:?}"
            );
            shown_by_battle += usize::from(play.mover.as_ref().is_some_and(|m| m.kind.is_some()));
        }
        let mv = bot::choose(&game, me, ply as u64).unwrap().to_string();
        let (status, body) = act(
            seat,
            json!({"expected_version": replica.version(), "client_action_id": format!("m{ply}"), "action": mv}),
        )
        .await;
        assert_eq!(status, 200, "{mv}: {body}");
        replica.apply_text(Actor::Seat(me), &mv).unwrap();
        scan(&body, seat, &layouts, &replica);
        let last = &replica.view(Viewer::Seat(me)).game;
        if let Some(play) = &last.last
            && matches!(
                play.event,
                qiguan_core::sealandair::SeaLandAirEvent::Battle { .. }
            )
        {
            battles += 1;
        }
        spotted = spotted.max(
            last.pieces
                .iter()
                .filter(|p| {
                    p.side != if seat == 0 { Side::South } else { Side::North } && p.kind.is_some()
                })
                .count(),
        );
    }
    assert!(battles > 0, "the game had battles to hide");
    // The opponent's attacks each seat saw: shown in a game whose battles reveal; in referee
    // mode only where the recon had shown the attacker before.
    println!("{shown_by_battle} opposing attackers known to the seat they attacked");
    if !options.referee {
        assert!(shown_by_battle > 0, "a battle showed the attacker");
    }
    let outcome = replica.outcome().expect("the computer plays to the end");
    println!(
        "over after {} actions: {outcome:?}; a seat knew up to {spotted} opposing pieces",
        replica.version()
    );
    for seat in [0, 1] {
        let (_, body) = get(seat).await;
        let v: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(v["to_act"]["kind"], "over", "{body}");
        scan(&body, seat, &layouts, &replica);
        assert_eq!(
            v["actions"].as_array().unwrap().len(),
            replica.version(),
            "the whole record"
        );
    }
}

/// Against the server's hard computer, in referee mode, to the end (or 120 moves and a
/// resignation): the computer's deployment, made from its own seat's view, is in no answer
/// before the game is over; and once the record is public, every answer the person had is
/// checked against a replay of it: each view was exactly the person's view of the game then,
/// never more (the rules' views are leak-tested in core).
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
    let options = SeaLandAirOptions {
        referee: true,
        ..SeaLandAirOptions::default()
    };
    let (status, body) = send(client.post(format!("{base}/api/games")).json(&json!({
        "game": "sea-land-air", "days_per_move": 3, "options": options,
        "bots": [{"seat": 1, "strength": "hard"}]
    })))
    .await;
    assert_eq!(status, 201, "{body}");
    let created: Value = serde_json::from_str(&body).unwrap();
    let id = created["game_id"].as_str().unwrap().to_owned();
    let token = created["token"].as_str().unwrap().to_owned();
    let act = |body: Value| {
        send(
            client
                .post(format!("{base}/api/games/{id}/actions"))
                .bearer_auth(&token)
                .json(&body),
        )
    };
    let mine = Deployment::sensible(Side::South, 31).to_text();
    let (status, body) = act(json!({"expected_version": 1, "client_action_id": "d",
                                     "action": format!("deploy:{mine}")}))
    .await;
    assert_eq!(status, 200, "{body}");
    let mut bodies = vec![body];
    for ply in 0..120u64 {
        let view: Value = serde_json::from_str(bodies.last().unwrap()).unwrap();
        if view["to_act"]["kind"] == "over" {
            break;
        }
        let game: qiguan_core::sealandair::SeaLandAirView =
            serde_json::from_value(view["view"]["game"].clone()).unwrap();
        let mv = bot::choose(&game, Seat::FIRST, ply).unwrap().to_string();
        let (status, body) = act(json!({"expected_version": view["version"],
                                         "client_action_id": format!("m{ply}"), "action": mv}))
        .await;
        assert_eq!(status, 200, "{mv}: {body}");
        bodies.push(body);
    }
    let view: Value = serde_json::from_str(bodies.last().unwrap()).unwrap();
    if view["to_act"]["kind"] != "over" {
        let (status, body) = act(json!({"expected_version": view["version"],
                                         "client_action_id": "r", "action": "resign"}))
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
    let actions = over["actions"].as_array().unwrap();
    let theirs = actions
        .iter()
        .find(|a| a["by"] == json!({"seat": 1}))
        .and_then(|a| a["action"].as_str())
        .and_then(|t| t.strip_prefix("deploy:"))
        .expect("the computer's deployment in the record")
        .to_owned();
    assert_ne!(theirs, mine);
    // The person's view after each number of actions, from a replay of the record.
    let mut replica: Match<SeaLandAir> = Match::new(&options, None).unwrap();
    let mut views =
        vec![serde_json::to_value(replica.view(Viewer::Seat(Seat::FIRST)).game).unwrap()];
    for a in actions {
        let actor = match a["by"]["seat"].as_u64() {
            Some(s) => Actor::Seat(Seat::new(s as u8).unwrap()),
            None => Actor::Authority,
        };
        replica
            .apply_text(actor, a["action"].as_str().unwrap())
            .unwrap();
        views.push(serde_json::to_value(replica.view(Viewer::Seat(Seat::FIRST)).game).unwrap());
    }
    let mut checked = 0;
    for body in &bodies {
        let v: Value = serde_json::from_str(body).unwrap();
        if v["to_act"]["kind"] == "over" {
            continue;
        }
        assert!(
            !body.contains(&theirs),
            "the computer's deployment leaked: {body}"
        );
        assert!(
            v.get("actions").is_none_or(Value::is_null),
            "the record stays with the server"
        );
        let version = v["version"].as_u64().unwrap() as usize;
        assert_eq!(
            v["view"]["game"], views[version],
            "the answer at version {version}"
        );
        checked += 1;
    }
    assert!(checked > 10, "{checked} answers checked");
}
