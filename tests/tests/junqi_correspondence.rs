//! A referee-mode Junqi game between two devices (the app's sync layer, no UI) through the real
//! server binary: secret deployment at the same time, moves checked against the seat's view,
//! battles, a draw offer, and the whole record on both devices once the game is over. Neither
//! device ever holds what its seat may not know: each kept view and each database file is
//! scanned for the opponent's identities.
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

use qiguan_app::store::{GameId, Store};
use qiguan_app::sync::{Correspondence, ServerView, SyncError};
use qiguan_core::junqi::{Deployment, Junqi, JunqiOptions, Side};
use qiguan_core::{EndReason, GameKind, Match, ToAct};
use qiguan_tests::{Server, TestDb};
use std::path::Path;

struct Device {
    engine: Correspondence,
    dir: tempfile::TempDir,
    side: &'static str,
}

fn device(side: &'static str) -> Device {
    let dir = tempfile::tempdir().unwrap();
    Device {
        engine: Correspondence::open(dir.path()).unwrap(),
        dir,
        side,
    }
}

/// Fails if the kept view names an opposing piece this seat may not know.
fn assert_view_hides(view: &ServerView, mine: &str) {
    let game = &view.view["game"];
    let over = matches!(view.to_act, ToAct::Over(_));
    for p in game["pieces"].as_array().unwrap() {
        if p["side"] != mine && !over {
            assert!(
                p["rank"].is_null() || p["rank"] == "flag",
                "an opposing {} at {} is kept",
                p["rank"],
                p["at"]
            );
        }
    }
    for role in ["mover", "defender"] {
        let p = &game["last"][role];
        if !p.is_null() && p["side"] != mine && !over {
            assert!(p["rank"].is_null(), "the last battle names {p}");
        }
    }
}

/// Fails if any file of the device's database holds the opponent's deployment text.
fn assert_files_hide(dir: &Path, their_layout: &str) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        assert!(
            !text.contains(their_layout),
            "{} holds the opponent's deployment",
            path.display()
        );
    }
}

fn kept(d: &Device, id: GameId) -> ServerView {
    d.engine.seat_view(id).unwrap().expect("a kept view")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_devices_play_a_referee_game_and_neither_holds_the_others_secrets() {
    let db = TestDb::new();
    let server = Server::start(&db.url, "127.0.0.1:0");
    let url = server.url.clone();
    let (mut red, mut blue) = (device("south"), device("north"));
    let options = serde_json::to_value(JunqiOptions::default()).unwrap();
    let (a, code) = red
        .engine
        .create(&url, GameKind::Junqi, &options, 0, 3, "Ann")
        .await
        .unwrap();
    let b = blue.engine.join(&url, &code, "Bo").await.unwrap();
    red.engine.refresh(a).await.unwrap();
    // Nothing is recorded on the devices while the game goes on: the view stands in.
    assert!(red.engine.game(a).unwrap().record().actions.is_empty());
    assert!(
        kept(&red, a)
            .legal_actions
            .iter()
            .any(|x| x.starts_with("deploy:"))
    );

    let layouts = [
        Deployment::random(Side::South, 5).to_text(),
        Deployment::random(Side::North, 6).to_text(),
    ];
    // A broken layout is refused on the device, before anything is queued.
    let e = red
        .engine
        .play(a, &format!("deploy:{}", "F".repeat(25)))
        .unwrap_err();
    assert!(matches!(e, SyncError::Illegal(_)), "{e:?}");
    assert!(red.engine.outbox().unwrap().is_empty());

    // Both deploy at the same time: each queued against version 0. Red's goes first; Blue's is
    // then stale, and goes again at the new version, since deployments do not depend on each
    // other.
    red.engine
        .play(a, &format!("deploy:{}", layouts[0]))
        .unwrap();
    blue.engine
        .play(b, &format!("deploy:{}", layouts[1]))
        .unwrap();
    // While its deployment waits, the device takes nothing else.
    assert!(red.engine.play(a, "resign").is_err());
    let sent = red.engine.flush().await.unwrap();
    assert_eq!((sent.sent, sent.refused.len()), (1, 0));
    let sent = blue.engine.flush().await.unwrap();
    assert_eq!(
        (sent.sent, sent.refused.len()),
        (1, 0),
        "resent, not refused"
    );
    red.engine.refresh(a).await.unwrap();
    assert_eq!(kept(&red, a).version, 2);
    assert_eq!(kept(&blue, b).version, 2);
    for (d, id) in [(&red, a), (&blue, b)] {
        let view = kept(d, id);
        assert_eq!(view.view["game"]["pieces"].as_array().unwrap().len(), 50);
        assert_view_hides(&view, d.side);
    }

    // Play: each side attacks when it can, and both devices are scanned after every move.
    let mut battles = 0;
    let mut plies = 0;
    while plies < 60 {
        let (me, mine, them, theirs) = if plies % 2 == 0 {
            (&mut red, a, &mut blue, b)
        } else {
            (&mut blue, b, &mut red, a)
        };
        let view = kept(me, mine);
        if matches!(view.to_act, ToAct::Over(_)) {
            break;
        }
        // The other device is refused a move out of turn, on the device.
        let idle = kept(them, theirs);
        assert!(
            idle.legal_actions
                .iter()
                .all(|x| !x.contains(char::is_numeric))
        );
        let held: Vec<String> = view.view["game"]["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["side"] != me.side)
            .map(|p| p["at"].as_str().unwrap().to_owned())
            .collect();
        let moves: Vec<qiguan_core::junqi::Move> = view
            .legal_actions
            .iter()
            .filter_map(|x| x.parse().ok())
            .collect();
        let attack = moves.iter().find(|m| held.contains(&m.to.to_string()));
        let mv = attack.or(moves.first()).unwrap().to_string();
        battles += usize::from(attack.is_some());
        me.engine.play(mine, &mv).unwrap();
        let sent = me.engine.flush().await.unwrap();
        assert_eq!((sent.sent, sent.refused.len()), (1, 0), "{mv}");
        them.engine.refresh(theirs).await.unwrap();
        assert_view_hides(&kept(me, mine), me.side);
        assert_view_hides(&kept(them, theirs), them.side);
        plies += 1;
    }
    assert!(battles > 0, "the game had battles to hide");
    assert_files_hide(red.dir.path(), &layouts[1]);
    assert_files_hide(blue.dir.path(), &layouts[0]);

    // If no flag fell: Red offers a draw and moves on; Blue accepts.
    if !matches!(kept(&red, a).to_act, ToAct::Over(_)) {
        let (me, mine, them, theirs) = if plies % 2 == 0 {
            (&mut red, a, &mut blue, b)
        } else {
            (&mut blue, b, &mut red, a)
        };
        me.engine.play(mine, "offer-draw").unwrap();
        me.engine.flush().await.unwrap();
        them.engine.refresh(theirs).await.unwrap();
        let view = kept(them, theirs);
        assert!(!view.view["draw_offer"].is_null(), "the offer shows");
        assert!(view.legal_actions.contains(&"accept-draw".to_owned()));
        them.engine.play(theirs, "accept-draw").unwrap();
        them.engine.flush().await.unwrap();
        me.engine.refresh(mine).await.unwrap();
    }

    // Over: both devices now keep the whole record, with both deployments, and no view.
    for (d, id) in [(&red, a), (&blue, b)] {
        assert!(d.engine.seat_view(id).unwrap().is_none());
        let game = d.engine.game(id).unwrap();
        let outcome = game.outcome().expect("over");
        assert!(
            matches!(
                outcome.reason,
                EndReason::DrawAgreed | EndReason::FlagCaptured | EndReason::Stalemate
            ),
            "{outcome:?}"
        );
        let record = game.record();
        for layout in &layouts {
            assert!(
                record
                    .actions
                    .iter()
                    .any(|e| e.action.ends_with(layout.as_str()))
            );
        }
        let replayed: Match<Junqi> = Match::from_record(&record).unwrap();
        assert_eq!(replayed.version(), record.actions.len());
        let store = Store::open_dir(d.dir.path()).unwrap();
        let row = &store.summaries(&[id]).unwrap()[0];
        assert!(row.result.is_some(), "the history lists it as finished");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_queued_deployment_survives_a_restart_and_reaches_the_server() {
    let db = TestDb::new();
    let server = Server::start(&db.url, "127.0.0.1:0");
    let mut red = device("south");
    let options = serde_json::json!({"visibility": "open"});
    let (a, code) = red
        .engine
        .create(&server.url, GameKind::Junqi, &options, 0, 3, "")
        .await
        .unwrap();
    let mut blue = device("north");
    let b = blue.engine.join(&server.url, &code, "").await.unwrap();
    red.engine.refresh(a).await.unwrap();
    let layout = Deployment::random(Side::South, 9).to_text();
    red.engine.play(a, &format!("deploy:{layout}")).unwrap();
    // The device stops before sending; a new engine on the same files sends it.
    let path = red.dir.path().to_owned();
    drop(red.engine);
    let mut again = Correspondence::open(&path).unwrap();
    assert_eq!(again.outbox().unwrap().len(), 1);
    let sent = again.flush().await.unwrap();
    assert_eq!(sent.sent, 1);
    blue.engine.refresh(b).await.unwrap();
    let view = kept(&blue, b);
    assert_eq!(
        view.view["game"]["deployed"],
        serde_json::json!([true, false])
    );
    // Open mode: nothing shows of the other side's layout until both have deployed.
    assert!(view.view["game"]["pieces"].as_array().unwrap().is_empty());
}
