//! Linked devices (the app's library engine, no UI) through the real server binary: linking,
//! playing offline on several devices, merging, unlinking, pairing codes refused, a
//! correspondence game carried to another device, what the server may see, and a sync killed
//! with SIGKILL halfway.
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

use qiguan_app::library::items::{self, GameSnapshot};
use qiguan_app::library::{Library, Synced};
use qiguan_app::store::{GameId, Mode, NewGame, Standing, Store};
use qiguan_app::sync::{Correspondence, SyncError};
use qiguan_core::xiangqi::Position;
use qiguan_core::xiangqi::pgn::MoveFormat;
use qiguan_core::xiangqi::pgn_study::{read_study_pgn, write_study_pgn};
use qiguan_core::xiangqi::study::Study;
use qiguan_core::{Actor, AnyMatch, GameKind, Seat};
use qiguan_tests::{Server, TestDb};
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};

struct Device {
    lib: Library,
    dir: tempfile::TempDir,
}

fn device() -> Device {
    let dir = tempfile::tempdir().unwrap();
    Device {
        lib: Library::open(dir.path()).unwrap(),
        dir,
    }
}

impl Device {
    fn store(&mut self) -> &mut Store {
        self.lib.store_mut()
    }

    /// A pass-and-play Xiangqi game with these players and moves.
    fn game(&mut self, players: [&str; 2], moves: &[&str]) -> GameId {
        let mut game = AnyMatch::new(GameKind::Xiangqi, &Value::Null, &Value::Null).unwrap();
        for (i, mv) in moves.iter().enumerate() {
            let seat = Seat::new((i % 2) as u8).unwrap();
            game.apply_text(Actor::Seat(seat), mv).unwrap();
        }
        let new = NewGame::from_match(
            &game,
            Mode::PassAndPlay,
            players.iter().map(|p| (*p).to_owned()).collect(),
        );
        let record = game.record();
        self.store()
            .create_game_with(&new, &record.actions, &Standing::of(&game), 1)
            .unwrap()
    }

    /// Plays one more move in a stored game, as the game screen does.
    fn play(&mut self, id: GameId, mv: &str) {
        let stored = self.store().load(id).unwrap();
        let mut game = AnyMatch::from_record(&stored.record).unwrap();
        let ply = stored.record.actions.len();
        let seat = Seat::new((ply % 2) as u8).unwrap();
        game.apply_text(Actor::Seat(seat), mv).unwrap();
        let entry = game.record().actions[ply].clone();
        self.store()
            .append_action(id, ply, &entry, &Standing::of(&game), 2)
            .unwrap();
    }

    fn id_of(&mut self, uid: &str) -> GameId {
        self.lib.store().by_uid(uid).unwrap().unwrap()
    }

    fn uid(&mut self, id: GameId) -> String {
        self.lib.store().uid(id).unwrap()
    }

    fn games(&self) -> Vec<GameSnapshot> {
        items::games(self.lib.store()).unwrap()
    }

    fn shared_settings(&self) -> Vec<(String, String)> {
        self.lib
            .store()
            .settings_with_prefix("junqi-layout:")
            .unwrap()
    }

    async fn sync(&mut self) -> Synced {
        self.lib.sync().await.unwrap()
    }
}

fn refused(e: &SyncError) -> &str {
    match e {
        SyncError::Refused { code, .. } => code,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// `first` starts a library on `server`; each of `others` joins it with a code of its own.
async fn link(server: &str, first: &mut Device, others: &mut [&mut Device]) {
    first.lib.create(server, "Desk 书房").await.unwrap();
    for (i, other) in others.iter_mut().enumerate() {
        let offer = first.lib.offer().await.unwrap();
        assert_eq!(offer.code.len(), 14, "{}", offer.code);
        other
            .lib
            .join(server, &offer.code.to_lowercase(), &format!("Phone {i}"))
            .await
            .unwrap();
    }
}

/// Syncs every device until none has anything left to send or read.
async fn settle(devices: &mut [&mut Device]) {
    for _ in 0..3 {
        for d in devices.iter_mut() {
            d.sync().await;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_devices_link_play_offline_and_end_with_the_same_library() {
    let db = TestDb::new();
    let server = Server::start(&db.url, "127.0.0.1:0");
    let (mut desk, mut phone) = (device(), device());
    let kept = desk.game(["Ann", "Bo"], &["h3e3", "h10g8"]);
    let doomed = desk.game(["Ann", "Cy"], &["b3e3"]);
    desk.store()
        .set_setting("junqi-layout:mine", "[1,2,3]")
        .unwrap();
    desk.store().set_setting("orientation", "flip").unwrap();
    let phone_game = phone.game(["Di", "Ed"], &["c4c5"]);

    link(&server.url, &mut desk, &mut [&mut phone]).await;
    settle(&mut [&mut desk, &mut phone]).await;
    assert_eq!(desk.games().len(), 3);
    assert_eq!(desk.games(), phone.games(), "the same library on both");
    assert_eq!(
        phone.shared_settings(),
        [("mine".to_owned(), "[1,2,3]".to_owned())]
    );
    assert_eq!(
        phone.lib.store().setting("orientation").unwrap(),
        None,
        "a device's own settings stay on it"
    );

    // Both play with the server gone.
    let addr = server.addr.to_string();
    server.kill();
    let kept_uid = desk.uid(kept);
    let on_phone = phone.id_of(&kept_uid);
    desk.play(kept, "b1c3");
    desk.store().delete(doomed).unwrap();
    phone.play(phone_game, "c7c6");
    let fresh = phone.game(["Fa", "Gu"], &[]);
    let offline = desk.lib.sync().await.unwrap_err();
    assert!(matches!(offline, SyncError::Offline(_)), "{offline:?}");
    // The same game from the same point on both: a fork, nothing lost.
    phone.play(on_phone, "a1a2");

    let _server = Server::start(&db.url, &addr);
    settle(&mut [&mut desk, &mut phone]).await;
    let games = desk.games();
    assert_eq!(games, phone.games(), "the same library again");
    assert_eq!(
        games.len(),
        4,
        "kept (two lines of it), the phone's two; not the deleted one"
    );
    let lines: Vec<Vec<String>> = games
        .iter()
        .filter(|g| g.players.contains("Ann"))
        .map(|g| g.actions.iter().map(|a| a.1.clone()).collect())
        .collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines.contains(&vec!["h3e3".into(), "h10g8".into(), "b1c3".into()]));
    assert!(lines.contains(&vec!["h3e3".into(), "h10g8".into(), "a1a2".into()]));
    assert!(
        !games.iter().any(|g| g.players.contains("Cy")),
        "deleted everywhere"
    );
    let fresh_uid = phone.uid(fresh);
    assert!(games.iter().any(|g| g.uid == fresh_uid));
    // The phone's game went on on the phone and reached the desk.
    let di = games.iter().find(|g| g.players.contains("Di")).unwrap();
    assert_eq!(di.actions.len(), 2);

    // Both study the same game apart: each ends with the other's variations and comments.
    let on_desk = desk.id_of(&fresh_uid);
    desk.store()
        .set_study(on_desk, Some(&study_of(&[("h3e3", "中炮")])))
        .unwrap();
    phone
        .store()
        .set_study(fresh, Some(&study_of(&[("c4c5", ""), ("b1c3", "")])))
        .unwrap();
    settle(&mut [&mut desk, &mut phone]).await;
    let merged = desk.lib.store().study(on_desk).unwrap().unwrap();
    assert_eq!(
        Some(&merged),
        phone.lib.store().study(fresh).unwrap().as_ref()
    );
    let study = read_study_pgn(&merged).unwrap();
    let firsts: Vec<String> = study.moves.iter().map(|n| n.mv.to_string()).collect();
    assert_eq!(firsts.len(), 3, "{merged}");
    for mv in ["h3e3", "c4c5", "b1c3"] {
        assert!(firsts.contains(&mv.to_owned()), "{mv} in {merged}");
    }
    let commented = study.moves.iter().find(|n| n.mv.to_string() == "h3e3");
    assert_eq!(commented.and_then(|n| n.comment.as_deref()), Some("中炮"));
}

/// A study of a game with no moves: each first move tried, with its comment.
fn study_of(firsts: &[(&str, &str)]) -> String {
    let mut study = Study::from_line(Position::start(), &[], Vec::new()).unwrap();
    for (mv, comment) in firsts {
        let at = study.play(&[], mv.parse().unwrap()).unwrap();
        study.set_comment(&at, comment).unwrap();
    }
    write_study_pgn(&study, MoveFormat::Coordinates)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_devices_share_one_library_and_any_of_them_unlinks_another() {
    let db = TestDb::new();
    let server = Server::start(&db.url, "127.0.0.1:0");
    let (mut a, mut b, mut c) = (device(), device(), device());
    link(&server.url, &mut a, &mut [&mut b, &mut c]).await;
    a.game(["A1", "A2"], &["h3e3"]);
    b.game(["B1", "B2"], &["h3e3", "h10g8"]);
    let from_c = c.game(["C1", "C2"], &["b3e3"]);
    settle(&mut [&mut a, &mut b, &mut c]).await;
    assert_eq!(a.games().len(), 3);
    assert_eq!(a.games(), b.games());
    assert_eq!(b.games(), c.games());

    let devices = a.lib.devices().await.unwrap();
    let mut names: Vec<&str> = devices.iter().map(|d| d.name.as_str()).collect();
    names.sort_unstable();
    assert_eq!(names, ["Desk 书房", "Phone 0", "Phone 1"]);
    assert_eq!(devices.iter().filter(|d| d.this).count(), 1);

    // B unlinks C; C is refused from then on and keeps what it had.
    let c_id = c.lib.link().unwrap().unwrap().device_id;
    b.lib.unlink(&c_id).await.unwrap();
    c.play(from_c, "b10c8");
    let e = c.lib.sync().await.unwrap_err();
    assert_eq!(refused(&e), "device-unlinked");
    assert!(c.lib.link().unwrap().unwrap().unlinked);
    assert_eq!(c.games().len(), 3);
    let devices = a.lib.devices().await.unwrap();
    let gone = devices.iter().find(|d| d.device_id == c_id).unwrap();
    assert!(gone.unlinked_at.is_some());
    // Nothing of C's later move reaches the others.
    settle(&mut [&mut a, &mut b]).await;
    let on_a = a.games();
    let c_game = on_a.iter().find(|g| g.players.contains("C1")).unwrap();
    assert_eq!(c_game.actions.len(), 1);

    // C may join again with a new code, bringing its move.
    let offer = a.lib.offer().await.unwrap();
    c.lib
        .join(&server.url, &offer.code, "Phone 1 again")
        .await
        .unwrap();
    settle(&mut [&mut c, &mut a, &mut b]).await;
    assert_eq!(a.games(), c.games());
    let c_game = a
        .games()
        .into_iter()
        .find(|g| g.players.contains("C1"))
        .unwrap();
    assert_eq!(c_game.actions.len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wrong_codes_are_refused_and_guessing_is_rate_limited() {
    let db = TestDb::new();
    // The server as the README starts it, with its pairing limit (10 a minute per address).
    let server = Server::start(&db.url, "127.0.0.1:0");
    let (mut a, mut b) = (device(), device());
    a.lib.create(&server.url, "A").await.unwrap();
    let offer = a.lib.offer().await.unwrap();
    let typo = format!(
        "{}{}",
        &offer.code[..13],
        if offer.code.ends_with('0') { '1' } else { '0' }
    );
    let e = b.lib.join(&server.url, &typo, "B").await.unwrap_err();
    assert_eq!(refused(&e), "unknown-pairing");
    let e = b.lib.join(&server.url, "ABCD-EFGH", "B").await.unwrap_err();
    assert_eq!(refused(&e), "bad-pairing-code", "too short: refused here");
    assert!(b.lib.link().unwrap().is_none(), "nothing joined");
    let mut codes = Vec::new();
    for i in 0..12 {
        let e = b
            .lib
            .join(&server.url, &format!("ZZZZ-ZZZZ-ZZ{:02}", i), "B")
            .await
            .unwrap_err();
        codes.push(refused(&e).to_owned());
    }
    assert!(codes.contains(&"rate-limited".to_owned()), "{codes:?}");
    assert!(
        codes
            .iter()
            .all(|c| c == "unknown-pairing" || c == "rate-limited")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_expired_code_is_refused_and_a_used_one_works_only_once() {
    let db = TestDb::new();
    let server = Server::start(&db.url, "127.0.0.1:0");
    let (mut a, mut b, mut c) = (device(), device(), device());
    a.lib.create(&server.url, "A").await.unwrap();
    // A code that lives one second, tried after the time the server gave for its end.
    let short = a.lib.offer_for(1).await.unwrap();
    let left = u64::try_from(short.expires_at - qiguan_app::library::now_ms()).unwrap_or(0);
    std::thread::sleep(std::time::Duration::from_millis(left + 50));
    let e = b.lib.join(&server.url, &short.code, "B").await.unwrap_err();
    assert_eq!(refused(&e), "pairing-expired");
    assert!(b.lib.link().unwrap().is_none());

    let offer = a.lib.offer().await.unwrap();
    b.lib.join(&server.url, &offer.code, "B").await.unwrap();
    let e = c.lib.join(&server.url, &offer.code, "C").await.unwrap_err();
    assert_eq!(refused(&e), "unknown-pairing", "used once already");
    // A device in a library joins no other until it leaves.
    let other = a.lib.offer().await.unwrap();
    let e = b.lib.join(&server.url, &other.code, "B").await.unwrap_err();
    assert_eq!(refused(&e), "already-linked");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_correspondence_game_started_on_one_device_goes_on_on_another() {
    let db = TestDb::new();
    let server = Server::start(&db.url, "127.0.0.1:0");
    let (mut phone, mut desk) = (device(), device());
    let friend_dir = tempfile::tempdir().unwrap();
    let mut friend = Correspondence::open(friend_dir.path()).unwrap();
    let mut on_phone = Correspondence::open(phone.dir.path()).unwrap();
    let (_, code) = on_phone
        .create(&server.url, GameKind::Xiangqi, &Value::Null, 0, 3, "Me")
        .await
        .unwrap();
    let theirs = friend.join(&server.url, &code, "Friend").await.unwrap();
    let mine = on_phone.refresh_all().await.unwrap();
    assert!(!mine.is_empty());

    link(&server.url, &mut phone, &mut [&mut desk]).await;
    settle(&mut [&mut phone, &mut desk]).await;
    let mut on_desk = Correspondence::open(desk.dir.path()).unwrap();
    let remote = on_desk.store().remote_games().unwrap();
    assert_eq!(remote.len(), 1, "the seat came along");
    let id = remote[0].game_id;
    on_desk.refresh(id).await.unwrap();
    on_desk.play(id, "h3e3").unwrap();
    let flushed = on_desk.flush().await.unwrap();
    assert_eq!((flushed.sent, flushed.refused.len()), (1, 0));
    friend.refresh(theirs).await.unwrap();
    assert_eq!(friend.game(theirs).unwrap().record().actions.len(), 1);
    // And the phone hears of it both ways: from the game server and from the library.
    settle(&mut [&mut desk, &mut phone]).await;
    let on_phone_id = on_phone.store().remote_games().unwrap()[0].game_id;
    on_phone.refresh(on_phone_id).await.unwrap();
    assert_eq!(
        on_phone.game(on_phone_id).unwrap().record().actions.len(),
        1
    );
}

/// A TCP relay that keeps every byte in both directions.
async fn relay(to: std::net::SocketAddr, seen: Arc<Mutex<Vec<u8>>>) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        while let Ok((mut client, _)) = listener.accept().await {
            let seen = seen.clone();
            tokio::spawn(async move {
                use tokio::io::{AsyncReadExt, AsyncWriteExt};
                let Ok(mut server) = tokio::net::TcpStream::connect(to).await else {
                    return;
                };
                let (mut cr, mut cw) = client.split();
                let (mut sr, mut sw) = server.split();
                let up = async {
                    let mut buf = vec![0u8; 16384];
                    while let Ok(n) = cr.read(&mut buf).await {
                        if n == 0 || sw.write_all(&buf[..n]).await.is_err() {
                            break;
                        }
                        seen.lock().unwrap().extend_from_slice(&buf[..n]);
                    }
                    let _ = sw.shutdown().await;
                };
                let down = async {
                    let mut buf = vec![0u8; 16384];
                    while let Ok(n) = sr.read(&mut buf).await {
                        if n == 0 || cw.write_all(&buf[..n]).await.is_err() {
                            break;
                        }
                        seen.lock().unwrap().extend_from_slice(&buf[..n]);
                    }
                    let _ = cw.shutdown().await;
                };
                tokio::join!(up, down);
            });
        }
    });
    url
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_library_server_never_stores_or_sends_a_move_a_name_or_a_token() {
    // Correspondence games on one server, the library on another, whose every stored and
    // relayed byte is scanned.
    let games_db = TestDb::sqlite();
    let games = Server::start(&games_db.url, "127.0.0.1:0");
    let library_db = TestDb::sqlite();
    let library = Server::start(&library_db.url, "127.0.0.1:0");
    let seen = Arc::new(Mutex::new(Vec::new()));
    let url = relay(library.addr, seen.clone()).await;

    let (mut a, mut b) = (device(), device());
    let moves = ["h3e3", "h10g8", "b1c3", "i10i9"];
    a.game(["Xiaoming-Zhang", "Lihua-Wang"], &moves);
    b.game(["Qiang-Liu", "Fang-Chen"], &["c4c5"]);
    let mut corr = Correspondence::open(a.dir.path()).unwrap();
    let friend_dir = tempfile::tempdir().unwrap();
    let mut friend = Correspondence::open(friend_dir.path()).unwrap();
    let (_, code) = corr
        .create(
            &games.url,
            GameKind::Xiangqi,
            &Value::Null,
            0,
            3,
            "Corr-Player-One",
        )
        .await
        .unwrap();
    friend
        .join(&games.url, &code, "Corr-Friend-Two")
        .await
        .unwrap();
    corr.refresh_all().await.unwrap();
    let token = corr.store().remote_games().unwrap()[0].token.clone();

    link(&url, &mut a, &mut [&mut b]).await;
    settle(&mut [&mut a, &mut b]).await;
    assert_eq!(a.games(), b.games());
    assert_eq!(b.games().len(), 3, "everything crossed, sealed");
    drop(library); // SIGKILL: the files are as the server left them

    let mut stored = Vec::new();
    for entry in std::fs::read_dir(std::path::Path::new(&library_db.url).parent().unwrap()).unwrap()
    {
        let mut f = std::fs::File::open(entry.unwrap().path()).unwrap();
        f.read_to_end(&mut stored).unwrap();
    }
    let relayed = seen.lock().unwrap().clone();
    assert!(relayed.len() > 10_000, "{} bytes relayed", relayed.len());
    let secrets: Vec<&str> = moves
        .iter()
        .copied()
        .chain([
            "c4c5",
            "Xiaoming-Zhang",
            "Lihua-Wang",
            "Qiang-Liu",
            "Fang-Chen",
            "Corr-Player-One",
            "Corr-Friend-Two",
            token.as_str(),
            &games.url,
            "Desk 书房",
            "Phone 0",
        ])
        .collect();
    for secret in secrets {
        for (what, bytes) in [("stored", &stored), ("relayed", &relayed)] {
            assert!(
                !bytes.windows(secret.len()).any(|w| w == secret.as_bytes()),
                "{secret:?} is in what the library's server {what}"
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sync_killed_halfway_loses_nothing_and_repeats_nothing() {
    let db = TestDb::new();
    let server = Server::start(&db.url, "127.0.0.1:0");
    let (mut a, mut b) = (device(), device());
    link(&server.url, &mut a, &mut [&mut b]).await;
    // Enough games for several writes of 64.
    for i in 0..300 {
        a.game([&format!("P{i}"), "Q"], &["h3e3", "h10g8"]);
    }
    let dir = a.dir.path().to_owned();
    drop(a.lib);
    let exe = env!("CARGO_BIN_EXE_library-sync");
    let mut child = Command::new(exe)
        .arg(&dir)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    // Killed as soon as it reports its first committed write, with the rest under way.
    loop {
        line.clear();
        assert!(
            out.read_line(&mut line).unwrap() > 0,
            "it stopped on its own"
        );
        if line.starts_with("sent ") && !line.starts_with("sent 0 ") {
            break;
        }
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(line.starts_with("sent 64 "), "{line}");

    // Again, to the end.
    let status = Command::new(exe).arg(&dir).status().unwrap();
    assert!(status.success());
    let a = Library::open(&dir).unwrap();
    b.sync().await;
    let on_a = items::games(a.store()).unwrap();
    assert_eq!(on_a.len(), 300);
    assert_eq!(on_a, b.games(), "everything arrived, once");
    let _ = std::io::stdout().flush();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_item_too_large_for_the_server_stays_here_and_is_not_sent_again_until_it_changes() {
    let db = TestDb::new();
    let server = Server::start(&db.url, "127.0.0.1:0");
    let (mut desk, mut phone) = (device(), device());
    link(&server.url, &mut desk, &mut [&mut phone]).await;
    settle(&mut [&mut desk, &mut phone]).await;
    // A saved layout far larger than the server takes (256 KiB sealed).
    let huge = format!("[{}]", vec!["1"; 200_000].join(","));
    desk.store()
        .set_setting("junqi-layout:huge", &huge)
        .unwrap();
    let first = desk.sync().await;
    assert_eq!((first.too_large, first.sent), (1, 0), "{first:?}");
    // Not sealed and refused again on every sync.
    let again = desk.sync().await;
    assert_eq!((again.too_large, again.sent), (0, 0), "{again:?}");
    phone.sync().await;
    assert!(phone.shared_settings().is_empty());
    // Once it changes to something the server takes, it goes.
    desk.store()
        .set_setting("junqi-layout:huge", "[4,5,6]")
        .unwrap();
    let changed = desk.sync().await;
    assert_eq!((changed.too_large, changed.sent), (0, 1), "{changed:?}");
    phone.sync().await;
    assert_eq!(
        phone.shared_settings(),
        [("huge".to_owned(), "[4,5,6]".to_owned())]
    );
}
