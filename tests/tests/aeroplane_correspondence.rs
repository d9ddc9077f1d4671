//! An Aeroplane chess correspondence game for three seats through the real server binary: two
//! people on two devices (the app's sync layer, no UI) and the server's computer in the third
//! seat. Each device asks for its rolls, the server rolls them and plays the computer's turns,
//! and both devices end with the same full record and finishing order.
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

use qiguan_app::store::{HistoryFilter, Mode};
use qiguan_app::sync::Correspondence;
use qiguan_core::aeroplane::AeroplaneOptions;
use qiguan_core::aeroplane::bot::{self, Strength};
use qiguan_core::{Actor, AnyMatch, EndReason, GameKind, GameResult, Seat, ToAct, Viewer};
use qiguan_tests::{Server, TestDb};
use std::time::Duration;

struct Device {
    engine: Correspondence,
    _dir: tempfile::TempDir,
}

fn device() -> Device {
    let dir = tempfile::tempdir().unwrap();
    Device {
        engine: Correspondence::open(dir.path()).unwrap(),
        _dir: dir,
    }
}

/// How many rolls a record holds (every authority action in Aeroplane chess is one).
fn rolls_seen_by_all(record: &qiguan_core::Record) -> usize {
    record
        .actions
        .iter()
        .filter(|e| e.by == Actor::Authority)
        .count()
}

fn aeroplane(game: &AnyMatch) -> &qiguan_core::Match<qiguan_core::aeroplane::Aeroplane> {
    match game {
        AnyMatch::Aeroplane(m) => m,
        other => panic!("not an aeroplane game: {:?}", other.kind()),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_people_and_the_servers_computer_play_to_a_full_finishing_order() {
    let db = TestDb::new();
    let server = Server::start(&db.url, "127.0.0.1:0");
    let (mut ann, mut bo) = (device(), device());
    let options = serde_json::to_value(AeroplaneOptions {
        seats: 3,
        ..AeroplaneOptions::default()
    })
    .unwrap();
    // Ann in seat 0 (red), the computer in seat 1 (yellow), Bo joins seat 2 (blue).
    let (a, code) = ann
        .engine
        .create_with_bots(
            &server.url,
            GameKind::Aeroplane,
            &options,
            0,
            &[(1, Strength::Strong)],
            3,
            "Ann",
        )
        .await
        .unwrap();
    let b = bo.engine.join(&server.url, &code, "Bo").await.unwrap();
    ann.engine.refresh(a).await.unwrap();
    let summary = ann.engine.store().load(a).unwrap().summary;
    assert_eq!(
        summary.players,
        ["Ann", "", "Bo"],
        "Bo's name comes from the server; the computer's seat has none"
    );
    assert!(
        summary.computers.get(1).is_some_and(Option::is_some),
        "the computer is kept as the seat's role: {:?}",
        summary.computers
    );

    let mut rolls_seen = 0;
    for round in 0..4000 {
        let game = ann.engine.game(a).unwrap();
        if let ToAct::Over(_) = game.to_act() {
            break;
        }
        let ToAct::Seat(seat) = game.to_act() else {
            panic!("the server left {:?} waiting", game.to_act());
        };
        // The computer's turns are played by the server within the person's request.
        assert_ne!(seat, Seat::SECOND, "the computer's turn was left waiting");
        let (me, id) = if seat == Seat::FIRST {
            (&mut ann, a)
        } else {
            (&mut bo, b)
        };
        me.engine.refresh(id).await.unwrap();
        let local = me.engine.game(id).unwrap();
        assert_eq!(local.to_act(), ToAct::Seat(seat), "both devices agree");
        // Each person plays as a strong computer would, from the device's own copy.
        let view = aeroplane(&local).view(Viewer::Seat(seat)).game;
        let action = bot::choose(&view, seat, Strength::Strong, round).unwrap();
        me.engine.play(id, &action.to_string()).unwrap();
        // Played on the device, the roll waits for the server: nobody knows it yet.
        if action.to_string() == "roll" {
            assert_eq!(me.engine.game(id).unwrap().to_act(), ToAct::Chance);
        }
        let flushed = me.engine.flush().await.unwrap();
        assert_eq!((flushed.sent, flushed.refused.len()), (1, 0));
        if action.to_string() == "roll" {
            let record = me.engine.game(id).unwrap().record();
            let die = &record.actions[local.version() + 1];
            assert_eq!(die.by, Actor::Authority);
            rolls_seen += 1;
        }
        // The other person's device hears of it by a long poll.
        let (other, other_id) = if seat == Seat::FIRST {
            (&mut bo, b)
        } else {
            (&mut ann, a)
        };
        other
            .engine
            .wait(other_id, Duration::from_secs(10))
            .await
            .unwrap();
    }
    assert!(rolls_seen > 50, "{rolls_seen} rolls");

    // Both devices hold the same finished record, and it replays.
    bo.engine.refresh(b).await.unwrap();
    let (ga, gb) = (ann.engine.game(a).unwrap(), bo.engine.game(b).unwrap());
    assert_eq!(ga.record(), gb.record());
    let outcome = ga.outcome().expect("over");
    assert_eq!(outcome.reason, EndReason::AllHome);
    let GameResult::Ranking { order } = &outcome.result else {
        panic!("{outcome:?}")
    };
    assert_eq!(order.len(), 3);
    let replayed = AnyMatch::from_record(&ga.record()).unwrap();
    assert_eq!(replayed.outcome(), ga.outcome());
    // Each device checks every roll against the server's seed, revealed now, from what it
    // stored (its own database, read again).
    for (device, id) in [(&ann, a), (&bo, b)] {
        let stored = device.engine.store().load(id).unwrap().record;
        assert_eq!(
            qiguan_core::fair::verify(&stored),
            qiguan_core::fair::Verdict::Checked {
                draws: rolls_seen_by_all(&stored)
            }
        );
    }
    // The computer played its own turns, and every roll is the server's.
    let record = ga.record();
    assert!(
        record
            .actions
            .iter()
            .any(|e| e.by == Actor::Seat(Seat::SECOND) && e.action.starts_with('p'))
    );
    for e in &record.actions {
        assert_eq!(e.action.starts_with('d'), e.by == Actor::Authority, "{e:?}");
    }
    // Both histories list it as a finished correspondence game.
    for (d, id) in [(&ann, a), (&bo, b)] {
        let store = d.engine.store();
        assert!(
            store
                .history_ids(&HistoryFilter::default())
                .unwrap()
                .contains(&id)
        );
        let row = &store.summaries(&[id]).unwrap()[0];
        assert_eq!(row.mode, Mode::Correspondence);
        assert_eq!(row.kind, GameKind::Aeroplane);
        let ranks: Vec<String> = order.iter().map(|s| s.index().to_string()).collect();
        assert_eq!(
            row.result.as_deref(),
            Some(format!("rank:{}", ranks.join(",")).as_str())
        );
    }
}

/// With several seats to invite, the device keeps every code, in seat order, until all are in.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_invite_code_is_kept_until_every_seat_is_taken() {
    let db = TestDb::new();
    let server = Server::start(&db.url, "127.0.0.1:0");
    let (mut ann, mut bo, mut cy) = (device(), device(), device());
    let options = serde_json::to_value(AeroplaneOptions::default()).unwrap();
    // Four seats: Ann, the computer in seat 2, and two invited people.
    let (a, codes) = ann
        .engine
        .create_with_bots(
            &server.url,
            GameKind::Aeroplane,
            &options,
            0,
            &[(2, Strength::Easy)],
            3,
            "Ann",
        )
        .await
        .unwrap();
    let list: Vec<&str> = codes.split(" / ").collect();
    assert_eq!(list.len(), 2, "{codes}");
    let kept = ann.engine.store().remote(a).unwrap().unwrap();
    assert_eq!(kept.invite_code.as_deref(), Some(codes.as_str()));
    let b = bo.engine.join(&server.url, list[0], "Bo").await.unwrap();
    let c = cy.engine.join(&server.url, list[1], "Cy").await.unwrap();
    assert_eq!(bo.engine.store().remote(b).unwrap().unwrap().seat, 1);
    assert_eq!(cy.engine.store().remote(c).unwrap().unwrap().seat, 3);
    // Everyone is in: the codes are forgotten, and that is news for the screen.
    assert!(ann.engine.refresh(a).await.unwrap());
    assert_eq!(
        ann.engine.store().remote(a).unwrap().unwrap().invite_code,
        None
    );
}
