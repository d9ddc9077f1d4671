//! A Sea-land-air correspondence game through the real server, played to its end by the
//! computer from each seat's own view. Every raw HTTP answer to a seat is scanned: it may not
//! hold the opponent's deployment, may name an opposing piece only where that seat's recon has
//! revealed it, and its view must be exactly the seat's view of a local replica of the game.
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

use qiguan_core::junqi::Side;
use qiguan_core::sealandair::{Deployment, SeaLandAir, SeaLandAirOptions, bot};
use qiguan_core::{Actor, Match, Seat, Viewer};
use qiguan_tests::Server;
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
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("server.sqlite"), "127.0.0.1:0");
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
