//! Two devices (the app's sync layer, no UI) play through the real server binary.
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

use qiguan_app::store::{GameId, HistoryFilter, Mode};
use qiguan_app::sync::{Correspondence, SyncError};
use qiguan_core::{EndReason, GameKind, ToAct};
use qiguan_tests::{Server, TestDb};
use serde_json::Value;
use std::time::Duration;

struct Device {
    engine: Correspondence,
    dir: tempfile::TempDir,
}

fn device() -> Device {
    let dir = tempfile::tempdir().unwrap();
    Device {
        engine: Correspondence::open(dir.path()).unwrap(),
        dir,
    }
}

/// Red creates on `server`, Black joins with the code; returns both local game ids.
async fn pair(server: &str, red: &mut Device, black: &mut Device) -> (GameId, GameId) {
    let (a, code) = red
        .engine
        .create(server, GameKind::Xiangqi, &Value::Null, 0, 3, "Ann")
        .await
        .unwrap();
    assert_eq!(code.len(), 11, "{code}");
    let b = black
        .engine
        .join(server, &code.to_lowercase(), "Bo")
        .await
        .unwrap();
    (a, b)
}

fn refused_code(e: &SyncError) -> (u16, &str) {
    match e {
        SyncError::Refused { status, code, .. } => (*status, code.as_str()),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_devices_play_to_checkmate_and_both_keep_the_game() {
    let db = TestDb::new();
    let server = Server::start(&db.url, "127.0.0.1:0");
    let (mut red, mut black) = (device(), device());
    let (a, b) = pair(&server.url, &mut red, &mut black).await;
    red.engine.refresh(a).await.unwrap();

    let moves = ["b3b5", "a7a6", "b5c5", "f10e9", "c5c10"];
    for (i, mv) in moves.iter().enumerate() {
        let (me, mine, them, theirs) = if i % 2 == 0 {
            (&mut red, a, &mut black, b)
        } else {
            (&mut black, b, &mut red, a)
        };
        me.engine.play(mine, mv).unwrap();
        let flushed = me.engine.flush().await.unwrap();
        assert_eq!((flushed.sent, flushed.refused.len()), (1, 0));
        // The opponent's long poll sees it without waiting out its timeout.
        let started = std::time::Instant::now();
        assert!(
            them.engine
                .wait(theirs, Duration::from_secs(10))
                .await
                .unwrap()
        );
        assert!(started.elapsed() < Duration::from_secs(2));
    }
    for (device, id) in [(&red, a), (&black, b)] {
        let players = device.engine.store().summaries(&[id]).unwrap()[0]
            .players
            .clone();
        assert_eq!(players, ["Ann", "Bo"], "each device knows both names");
        let game = device.engine.game(id).unwrap();
        let ToAct::Over(outcome) = game.to_act() else {
            panic!("over")
        };
        assert_eq!(outcome.reason, EndReason::Checkmate);
        let store = device.engine.store();
        let row = &store.summaries(&[id]).unwrap()[0];
        assert_eq!(
            (row.mode, row.result.as_deref(), row.moves),
            (Mode::Correspondence, Some("win:0"), 5)
        );
        let history = store.history_ids(&HistoryFilter {
            mode: Some(Mode::Correspondence),
            ..HistoryFilter::default()
        });
        assert_eq!(history.unwrap(), [id], "kept in the same local history");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_offline_move_is_queued_and_delivered_exactly_once_after_a_restart() {
    let db = TestDb::new();
    let server = Server::start(&db.url, "127.0.0.1:0");
    let addr = server.addr.to_string();
    let url = server.url.clone();
    let (mut red, mut black) = (device(), device());
    let (a, b) = pair(&url, &mut red, &mut black).await;

    // The server goes away; Red moves anyway: the move is shown and queued.
    server.kill();
    red.engine.play(a, "h3e3").unwrap();
    assert_eq!(red.engine.game(a).unwrap().version(), 1);
    assert!(matches!(
        red.engine.flush().await,
        Err(SyncError::Offline(_))
    ));
    assert_eq!(red.engine.outbox().unwrap().len(), 1);

    // The app restarts (a fresh engine on the same files), the server comes back.
    let dir = red.dir;
    drop(red.engine);
    let mut red = Device {
        engine: Correspondence::open(dir.path()).unwrap(),
        dir,
    };
    assert_eq!(
        red.engine.outbox().unwrap().len(),
        1,
        "the outbox survived the restart"
    );
    let _server = Server::start(&db.url, &addr);
    assert_eq!(red.engine.flush().await.unwrap().sent, 1);
    assert!(red.engine.outbox().unwrap().is_empty());
    assert_eq!(
        red.engine.flush().await.unwrap().sent,
        0,
        "nothing is sent twice"
    );
    black.engine.refresh(b).await.unwrap();
    assert_eq!(
        black.engine.game(b).unwrap().version(),
        1,
        "Black sees exactly one move"
    );
    assert_eq!(red.engine.game(a).unwrap().version(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resent_action_id_moves_once_and_a_stale_version_gets_409() {
    let db = TestDb::new();
    let server = Server::start(&db.url, "127.0.0.1:0");
    let (mut red, mut black) = (device(), device());
    let (a, b) = pair(&server.url, &mut red, &mut black).await;
    let remote = red.engine.store().remote(a).unwrap().unwrap();

    // The move reaches the server but its answer is lost: the outbox still holds it.
    red.engine.play(a, "h3e3").unwrap();
    let queued = red.engine.outbox().unwrap().remove(0);
    let client = red.engine.client().clone();
    client
        .act(
            &server.url,
            &remote.remote_id,
            &remote.token,
            0,
            &queued.client_action_id,
            "h3e3",
        )
        .await
        .unwrap();
    let flushed = red.engine.flush().await.unwrap();
    assert_eq!((flushed.sent, flushed.refused.len()), (1, 0));
    let view = client
        .view(&server.url, &remote.remote_id, &remote.token)
        .await
        .unwrap();
    assert_eq!(view.version, 1, "one move, not two");

    let err = client
        .act(
            &server.url,
            &remote.remote_id,
            &remote.token,
            0,
            "another-id",
            "h1g3",
        )
        .await
        .unwrap_err();
    assert_eq!(refused_code(&err), (409, "stale-version"));
    let SyncError::Refused { current, .. } = err else {
        unreachable!()
    };
    assert_eq!(current.unwrap()["version"], 1);
    black.engine.refresh(b).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tokens_are_checked_and_one_seat_cannot_move_the_others_pieces() {
    let db = TestDb::new();
    let server = Server::start(&db.url, "127.0.0.1:0");
    let (mut red, mut black) = (device(), device());
    let (a, b) = pair(&server.url, &mut red, &mut black).await;
    let mut third = (device(), device());
    let (c, _) = pair(&server.url, &mut third.0, &mut third.1).await;
    let r = red.engine.store().remote(a).unwrap().unwrap();
    let k = black.engine.store().remote(b).unwrap().unwrap();
    let other = third.0.engine.store().remote(c).unwrap().unwrap();
    let client = red.engine.client().clone();

    let err = client
        .view(&server.url, &r.remote_id, "wrong-token")
        .await
        .unwrap_err();
    assert_eq!(refused_code(&err), (401, "unknown-token"));
    let err = client
        .view(&server.url, &r.remote_id, &other.token)
        .await
        .unwrap_err();
    assert_eq!(refused_code(&err), (403, "wrong-game"));

    // Black's token cannot play Red's move, on Red's turn or on its own.
    let err = client
        .act(&server.url, &r.remote_id, &k.token, 0, "x1", "h3e3")
        .await
        .unwrap_err();
    assert_eq!(refused_code(&err), (409, "not-your-turn"));
    client
        .act(&server.url, &r.remote_id, &r.token, 0, "x2", "h3e3")
        .await
        .unwrap();
    let err = client
        .act(&server.url, &r.remote_id, &k.token, 1, "x3", "e3e7")
        .await
        .unwrap_err();
    assert_eq!(refused_code(&err), (422, "not-your-piece"));
    // And core refuses it on the device before anything is queued.
    black.engine.refresh(b).await.unwrap();
    assert!(matches!(
        black.engine.play(b, "e3e7"),
        Err(SyncError::Illegal(_))
    ));
    assert!(black.engine.outbox().unwrap().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_queued_move_made_on_an_old_position_gives_way_to_the_server() {
    let db = TestDb::new();
    let server = Server::start(&db.url, "127.0.0.1:0");
    let addr = server.addr.to_string();
    let url = server.url.clone();
    let (mut red, mut black) = (device(), device());
    let (a, b) = pair(&url, &mut red, &mut black).await;
    red.engine.refresh(a).await.unwrap();

    // Black resigns while Red, offline, queues a move.
    black.engine.play(b, "resign").unwrap();
    black.engine.flush().await.unwrap();
    server.kill();
    red.engine.play(a, "h3e3").unwrap();
    let _server = Server::start(&db.url, &addr);
    let flushed = red.engine.flush().await.unwrap();
    assert_eq!(flushed.refused, [(a, "stale-version".to_owned())]);
    let game = red.engine.game(a).unwrap();
    assert_eq!(
        game.version(),
        1,
        "the server's record: Black's resignation only"
    );
    let ToAct::Over(outcome) = game.to_act() else {
        panic!("over")
    };
    assert_eq!(outcome.reason, EndReason::Resignation);
}

/// Back in the foreground (Android resumes the app), the worker re-reads every game: a move
/// made meanwhile arrives though nothing was being followed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_worker_re_reads_every_game_when_the_app_resumes() {
    use qiguan_app::sync::{Command, Event, Worker};
    let db = TestDb::new();
    let server = Server::start(&db.url, "127.0.0.1:0");
    let (mut red, mut black) = (device(), device());
    let (a, b) = pair(&server.url, &mut red, &mut black).await;
    red.engine.play(a, "b3b5").unwrap();
    red.engine.flush().await.unwrap();
    black.engine.refresh(b).await.unwrap();
    black.engine.play(b, "a7a6").unwrap();
    black.engine.flush().await.unwrap();
    // Red's device has not heard of Black's move; its worker starts with nothing to follow.
    assert_eq!(red.engine.game(a).unwrap().version(), 1);
    // The worker takes over Red's data directory (kept: dropping the device would delete it).
    let Device {
        engine,
        dir: red_dir,
    } = red;
    drop(engine);
    let dir = red_dir.path().to_owned();
    let (worker, events) = Worker::start(dir, || {});
    worker.send(Command::Resumed);
    let changed = tokio::task::spawn_blocking(move || {
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while std::time::Instant::now() < deadline {
            if let Ok(Event::Changed(ids)) = events.recv_timeout(Duration::from_millis(200)) {
                return ids;
            }
        }
        Vec::new()
    })
    .await
    .unwrap();
    assert_eq!(changed, [a]);
}

/// Issue 36: a device waiting for its opponent's move says it is offline while the server is
/// down, and that it is back once it answers again (it showed nothing through an outage).
/// The app's sync worker long-polls the game; the server binary is killed and started again
/// on the same address and store.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_waiting_device_tells_an_outage_and_the_return() {
    use qiguan_app::sync::{Command, Event, Worker};
    let db = TestDb::new();
    let server = Server::start(&db.url, "127.0.0.1:0");
    let addr = server.addr;
    let (mut red, mut black) = (device(), device());
    let (a, _b) = pair(&server.url, &mut red, &mut black).await;
    red.engine.play(a, "h3e3").unwrap();
    red.engine.flush().await.unwrap();
    let data = red.dir.path().to_owned();
    drop(red.engine);

    let (worker, events) = Worker::start(data, || {});
    worker.send(Command::Watch(Some(a)));
    // Whether the worker reported being offline (or back) within `limit`.
    let status = |online: bool, limit: Duration| {
        let until = std::time::Instant::now() + limit;
        while let Some(left) = until.checked_duration_since(std::time::Instant::now()) {
            match events.recv_timeout(left) {
                Ok(Event::Status { online: o, .. }) if o == online => return true,
                Ok(_) => {}
                Err(_) => return false,
            }
        }
        false
    };
    server.kill();
    let told = status(false, Duration::from_secs(30));
    assert!(told, "the outage was told");
    let again = Server::start(&db.url, &addr.to_string());
    let back = status(true, Duration::from_secs(30));
    assert!(back, "the return was told");
    drop(again);
}
