//! Writes the `library` and `database` targets' seed corpora.
//!
//! `library`: pages of entries another device of the library could write about the games the
//! fuzzed device holds (`qiguan_fuzz_app_checks::linked_store`): a game played on, a game
//! played differently from the same point (a fork), a game new here, a correspondence game, a
//! deletion, shared and device settings, a device's name, and entries that do not open or sit
//! in another item's slot. `database`: the stores the checks start from.
//! Run from the repository root:
//! `cargo run -p qiguan-fuzz-app-checks --example seed_library -- fuzz/corpus`.

use qiguan_app::library::items::{self, Item, RemoteSnapshot};
use qiguan_app::store::Store;

fn main() {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "fuzz/corpus".into());
    let library = format!("{dir}/library");
    let database = format!("{dir}/database");
    for d in [&library, &database] {
        std::fs::create_dir_all(d).expect("a corpus folder");
    }
    // The stores the checks start from, in pages of 512 bytes (the smallest SQLite has), so
    // that the fuzzer's changes fall on fewer bytes that mean nothing.
    for (name, bytes) in [
        ("linked", qiguan_fuzz_app_checks::linked_store()),
        ("empty", qiguan_fuzz_app_checks::empty_store()),
    ] {
        let path = format!("{database}/{name}");
        std::fs::write(&path, bytes).expect("written");
        let conn = rusqlite::Connection::open(&path).expect("a store");
        conn.execute_batch("PRAGMA journal_mode = DELETE; PRAGMA page_size = 512; VACUUM;")
            .expect("made smaller");
    }

    let work = std::env::temp_dir().join(format!("qiguan-seed-library-{}", std::process::id()));
    std::fs::create_dir_all(&work).expect("a folder");
    let path = work.join("qiguan.sqlite");
    std::fs::write(&path, qiguan_fuzz_app_checks::linked_store()).expect("written");
    let store = Store::open(&path).expect("the template opens");
    let uid = |n: u32| format!("{n:032x}");
    let game = |n: u32| match items::snapshot(&store, &format!("g:{}", uid(n))) {
        Ok(Some(Item::Game(g))) => *g,
        other => panic!("game {n} of the template: {other:?}"),
    };
    let json = |item: &Item| serde_json::to_vec(item).expect("an item's JSON");

    // Game 1 played one move further on the other device.
    let mut further = game(1);
    let black = further.actions[1].0.clone();
    further.actions.push((black.clone(), "b10c8".into()));
    further.plies += 1;
    // Game 1 played differently from its second move.
    let mut fork = game(1);
    fork.actions.truncate(2);
    fork.actions
        .push((fork.actions[0].0.clone(), "b1c3".into()));
    // A game this device has never seen.
    let mut new = game(1);
    new.uid = uid(0xff);
    // A correspondence game.
    let mut remote = game(2);
    remote.uid = uid(0xfe);
    remote.mode = "correspondence".into();
    remote.remote = Some(RemoteSnapshot {
        server: "https://qiguan.example".into(),
        remote_id: "g-remote".into(),
        seat: 1,
        token: "seat-token".into(),
        invite_code: None,
        days_per_move: 3,
        deadline: Some(1_800_000_000_000),
        your_turn: false,
        seat_view: None,
    });
    // Games that do not read as games: of a kind this version does not know, with a move that
    // is not legal, with options that are not JSON, with a kept view that is not a view.
    let mut unknown = game(2);
    unknown.uid = uid(0xfd);
    unknown.kind = "checkers".into();
    let mut illegal = further.clone();
    illegal.uid = uid(0xfc);
    illegal.actions.push((black, "a10a1".into()));
    let mut garbled = game(2);
    garbled.uid = uid(0xfb);
    garbled.options = "{not json".into();
    let mut blind = remote.clone();
    blind.uid = uid(0xfa);
    if let Some(r) = blind.remote.as_mut() {
        r.seat_view = Some(r#"{"seat": "north"}"#.into());
    }
    let pages: Vec<(&str, Vec<Vec<u8>>)> = vec![
        (
            "not-games",
            vec![
                json(&Item::Game(Box::new(unknown))),
                json(&Item::Game(Box::new(illegal))),
                json(&Item::Game(Box::new(garbled))),
                json(&Item::Game(Box::new(blind))),
            ],
        ),
        (
            "played-on",
            vec![json(&Item::Game(Box::new(further.clone())))],
        ),
        ("forked", vec![json(&Item::Game(Box::new(fork)))]),
        (
            "new-and-remote",
            vec![
                json(&Item::Game(Box::new(new))),
                json(&Item::Game(Box::new(remote))),
            ],
        ),
        (
            "deleted-and-settings",
            vec![
                json(&Item::Deleted { uid: uid(3) }),
                json(&Item::Setting {
                    key: "notation".into(),
                    value: Some("chinese".into()),
                }),
                json(&Item::Setting {
                    key: "confirm-moves".into(),
                    value: None,
                }),
                json(&Item::Setting {
                    key: "server-url".into(),
                    value: Some("http://elsewhere".into()),
                }),
                br#"{"item":"device-name","name":"Phone"}"#.to_vec(),
            ],
        ),
        (
            "unreadable",
            vec![
                [
                    b"~".as_slice(),
                    &json(&Item::Game(Box::new(further.clone()))),
                ]
                .concat(),
                [b"^".as_slice(), &json(&Item::Deleted { uid: uid(1) })].concat(),
                [b"=".as_slice(), &json(&Item::Deleted { uid: uid(2) })].concat(),
                br#"{"item":"a-newer-item","what":1}"#.to_vec(),
            ],
        ),
    ];
    for (name, parts) in pages {
        std::fs::write(format!("{library}/{name}"), parts.join(&0u8)).expect("written");
    }
    drop(store);
    let _ = std::fs::remove_dir_all(&work);
}
