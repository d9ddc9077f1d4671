//! What the app's fuzz targets check of one input, shared by the targets (`fuzz/app/fuzz_targets`,
//! built with cargo-fuzz on nightly) and by the stable test that replays every saved input
//! (`tests/saved_inputs.rs`: the seed corpus and every crash found, so CI keeps each fix).
//!
//! Each target gives the app what it does not control: a server's answers about a
//! correspondence game (`answers`), the sealed entries another linked device wrote to the
//! library (`library`; that device holds the key, so its entries open and may say anything),
//! and a database file that may be damaged (`database`). None may panic, and each keeps its
//! promises: an answer refused changes nothing, an answer taken leaves the game holding what
//! the server said, the history stays readable whatever arrives, a page of entries taken twice
//! changes nothing the second time, and a damaged database is refused untouched and set aside
//! whole so that a new one can start.

use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use qiguan_app::library::crypto::{Key, Keys};
use qiguan_app::library::items::Item;
use qiguan_app::library::{Library, Link};
use qiguan_app::store::{
    GameId, HistoryFilter, Mode, NewGame, RemoteGame, Standing, Store, StoreError, set_aside,
};
use qiguan_app::sync::{Client, Correspondence, ServerView, seat_view};
use qiguan_core::{Actor, AnyMatch, GameKind, Seat};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// A target's check of one input.
pub type Check = fn(&[u8]);

/// The targets, by the name of their corpus and regression folders.
pub const TARGETS: &[(&str, Check)] = &[
    ("answers", answers),
    ("library", library),
    ("database", database),
];

/// The most bytes a check reads of a server's answers or library entries.
const MAX_LEN: usize = 64 * 1024;
/// The most bytes of a database file.
const MAX_DB: usize = 512 * 1024;
/// The library the fuzzed device is linked to, and its key (the other device's too).
const LIBRARY_ID: &str = "lib-fuzz";
const KEY: Key = [7; 32];

/// A folder of this process's own for the database files, on a RAM disk where there is one
/// (the store syncs every commit to the disk).
fn workdir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let shm = Path::new("/dev/shm");
        let base = if shm.is_dir() {
            shm.to_owned()
        } else {
            std::env::temp_dir()
        };
        let dir = base.join(format!("qiguan-fuzz-app-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a work folder");
        dir
    })
}

/// A fresh database file holding `bytes` (nothing else left from the input before).
fn fresh(bytes: &[u8]) -> PathBuf {
    let dir = workdir();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let _ = std::fs::remove_file(e.path());
        }
    }
    let path = dir.join("qiguan.sqlite");
    std::fs::write(&path, bytes).expect("the database file written");
    path
}

/// The HTTP client, made once (it is never used to send: the answers are given).
fn client() -> Client {
    static CLIENT: OnceLock<Client> = OnceLock::new();
    CLIENT.get_or_init(Client::new).clone()
}

/// A database file's bytes once `fill` has been done to a new store and then the SQL `after`
/// (closed, so the file holds everything).
fn made(fill: impl FnOnce(&mut Store), after: &str) -> Vec<u8> {
    let dir = std::env::temp_dir().join(format!(
        "qiguan-fuzz-template-{}-{}",
        std::process::id(),
        std::thread::current()
            .name()
            .unwrap_or("main")
            .replace("::", "-")
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a template folder");
    let path = dir.join("qiguan.sqlite");
    {
        let mut store = Store::open(&path).expect("a new store");
        fill(&mut store);
    }
    if !after.is_empty() {
        let conn = rusqlite::Connection::open(&path).expect("the template opens");
        conn.execute_batch(after).expect("the template's SQL");
    }
    let bytes = std::fs::read(&path).expect("the template's bytes");
    let _ = std::fs::remove_dir_all(&dir);
    bytes
}

/// A game of `kind` after the `moves` its seats make in turn, stored as a pass-and-play game.
fn store_game(store: &mut Store, kind: GameKind, moves: &[&str]) -> GameId {
    let mut game = AnyMatch::new(kind, &Value::Null, &Value::Null).expect("a new game");
    for (n, mv) in moves.iter().enumerate() {
        let seat = Seat::new((n % 2) as u8).expect("a seat");
        game.apply_text(Actor::Seat(seat), mv)
            .expect("a legal move");
    }
    let new = NewGame::from_match(&game, Mode::PassAndPlay, vec!["红".into(), "Black".into()]);
    store
        .create_game_with(&new, &game.record().actions, &Standing::of(&game), 1)
        .expect("the game stored")
}

/// A store with no games.
pub fn empty_store() -> &'static [u8] {
    static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
    BYTES.get_or_init(|| made(|_| {}, ""))
}

/// A store with games of its own (two Xiangqi games and an Aeroplane game, whose uids are
/// `00…01` to `00…03`, so that saved entries can name them), linked to the library the fuzzed
/// entries come from.
pub fn linked_store() -> &'static [u8] {
    static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
    BYTES.get_or_init(|| {
        made(
            |store| {
                store_game(store, GameKind::Xiangqi, &["h3e3", "h10g8", "h1g3"]);
                store_game(store, GameKind::Xiangqi, &[]);
                store_game(store, GameKind::Aeroplane, &[]);
                store
                    .set_setting("notation", "wxf")
                    .expect("a shared setting");
            },
            "UPDATE games SET uid = printf('%032x', id);",
        )
    })
}

/// Opens the linked store's copy, entering the library.
fn linked_library(path: &Path) -> Library {
    let store = Store::open(path).expect("the template opens");
    let mut library = Library::with(store, client());
    if library.link().ok().flatten().is_none() {
        library.enter_offline(&link()).expect("the library entered");
    }
    library
}

fn link() -> Link {
    Link {
        server: "http://127.0.0.1:9".into(),
        library_id: LIBRARY_ID.into(),
        device_id: "this-device".into(),
        token: "token".into(),
        key: KEY,
        cursor: 0,
        unlinked: false,
    }
}

/// Everything the store holds that a player would miss, as text: to compare before and after.
fn dump(path: &Path) -> String {
    let conn = rusqlite::Connection::open_with_flags(
        path,
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .expect("the store opens to read");
    let mut out = String::new();
    for table in [
        "games",
        "actions",
        "remote_games",
        "outbox",
        "settings",
        "library",
        "library_slots",
    ] {
        let mut stmt = conn
            .prepare(&format!("SELECT * FROM {table} ORDER BY 1, 2"))
            .expect("a table of the schema");
        let columns = stmt.column_count();
        let rows = stmt
            .query_map([], |r| {
                let mut row = Vec::new();
                for c in 0..columns {
                    row.push(format!("{:?}", r.get_ref(c)?));
                }
                Ok(row.join("|"))
            })
            .expect("the table reads")
            .collect::<Result<Vec<_>, _>>()
            .expect("every row reads");
        out.push_str(table);
        out.push('\n');
        for row in rows {
            out.push_str(&row);
            out.push('\n');
        }
    }
    out
}

/// The history as the app lists it: every row and every game in it reads.
fn history_reads(store: &Store, what: &str) {
    let ids = store
        .history_ids(&HistoryFilter::default())
        .unwrap_or_else(|e| panic!("{what}: the history no longer reads: {e}"));
    store
        .summaries(&ids)
        .unwrap_or_else(|e| panic!("{what}: the history's rows no longer read: {e}"));
    store
        .unfinished(20)
        .unwrap_or_else(|e| panic!("{what}: the unfinished games no longer read: {e}"));
    for id in ids {
        store
            .load(id)
            .unwrap_or_else(|e| panic!("{what}: game {} no longer loads: {e}", id.0));
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// What a server's answers about a correspondence game do on this device.
///
/// The input is answers separated by NUL bytes. The first is the game's view as `create` or
/// `join` reads it, which stores the game; each next one is a 200 answer's body, or, starting
/// with `!`, a refusal's body (status 409, the game as it stands under `current`), or, starting
/// with `>`, an action the player makes here (queued for the server). Checked after each:
/// - an answer that is refused (an error) changes nothing stored;
/// - an answer taken leaves the game holding what the server said: its record begins with the
///   server's actions, or, for a game with secrets, the kept view is at least as new;
/// - the history and every game in it still read.
pub fn answers(data: &[u8]) {
    if data.len() > MAX_LEN {
        return;
    }
    let path = fresh(empty_store());
    let mut engine = Correspondence::with(Store::open(&path).expect("a store"), client());
    let mut parts = data.split(|b| *b == 0);
    let first = parts.next().unwrap_or_default();
    let seat = serde_json::from_slice::<Value>(first)
        .ok()
        .and_then(|v| v["seat"].as_u64())
        .map_or(0, |s| s.min(255) as u8);
    let remote = RemoteGame {
        game_id: GameId(0),
        server: "http://127.0.0.1:9".into(),
        remote_id: "g-fuzz".into(),
        seat,
        token: "token".into(),
        invite_code: Some("ABCD-EFGH".into()),
        days_per_move: 3,
        deadline: None,
        your_turn: true,
    };
    let before = dump(&path);
    let id = match engine.take_new_game(&remote, first, "Me") {
        Ok(id) => id,
        Err(e) => {
            assert_eq!(dump(&path), before, "a view refused ({e}) stored something");
            return;
        }
    };
    history_reads(engine.store(), "after the first view");
    let _ = engine.game(id);
    for part in parts.take(24) {
        match part.split_first() {
            Some((b'>', action)) => {
                let _ = engine.play(id, &text(action));
            }
            Some((b'!', body)) => answer(&mut engine, &path, id, 409, body),
            _ => answer(&mut engine, &path, id, 200, part),
        }
        history_reads(engine.store(), "after an answer");
        let _ = engine.game(id);
    }
}

fn answer(engine: &mut Correspondence, path: &Path, id: GameId, status: u16, body: &[u8]) {
    let before = dump(path);
    match engine.take_answer(id, status, body) {
        Err(e) => assert_eq!(
            dump(path),
            before,
            "an answer refused ({e}) changed the store"
        ),
        Ok(_) => {
            let sent: Value = serde_json::from_slice(body).expect("a taken answer is JSON");
            let view = if status == 200 {
                sent
            } else {
                sent["current"].clone()
            };
            let view: ServerView = serde_json::from_value(view).expect("a taken answer is a view");
            match &view.actions {
                Some(server) => {
                    let stored = engine
                        .store()
                        .load(id)
                        .expect("a game whose view was taken loads")
                        .record
                        .actions;
                    assert!(
                        stored.starts_with(server),
                        "the stored record {stored:?} does not begin with the server's {server:?}"
                    );
                }
                None => {
                    let kept = seat_view(engine.store(), id)
                        .expect("the kept view reads")
                        .expect("a view of a game with secrets is kept");
                    assert!(
                        kept.version >= view.version,
                        "the kept view (version {}) is older than the one taken ({})",
                        kept.version,
                        view.version
                    );
                }
            }
        }
    }
}

/// A page of library entries made from the input: each part (split at NUL bytes) is an
/// entry's plain text, sealed with the library's key by the other device, in the slot its item
/// belongs in. A part starting with `~` is sent unsealed (its bytes as the blob), with `^`
/// sealed into another item's slot, with `=` under the entry id of the first entry.
fn page_of(data: &[u8]) -> (Vec<u8>, bool) {
    let keys = Keys::new(&KEY);
    let mut entries = Vec::new();
    let mut slots = std::collections::HashSet::new();
    let mut distinct = true;
    for (n, part) in data.split(|b| *b == 0).take(32).enumerate() {
        let (how, plain) = match part.split_first() {
            Some((b @ (b'~' | b'^' | b'='), rest)) => (*b, rest),
            _ => (b' ', part),
        };
        let name = serde_json::from_slice::<Item>(plain)
            .map(|item| item.name())
            .unwrap_or_else(|_| "s:notation".into());
        let slot = if how == b'^' {
            keys.slot("g:another")
        } else {
            keys.slot(&name)
        };
        let entry = if how == b'=' {
            "e0".to_owned()
        } else {
            format!("e{n}")
        };
        let blob = if how == b'~' {
            B64.encode(plain)
        } else {
            B64.encode(
                keys.seal_entry(LIBRARY_ID, &slot, &entry, plain)
                    .expect("sealed"),
            )
        };
        distinct &= slots.insert(slot.clone());
        entries.push(json!({"slot": slot, "entry": entry, "seq": n + 1, "blob": blob}));
    }
    let page = json!({"entries": entries, "more": false});
    (page.to_string().into_bytes(), distinct)
}

/// What another linked device's entries do here. The input is a page of entries (see
/// `page_of`), or, after a `#`, the server's page itself. Checked:
/// - a page refused (an error) changes nothing stored;
/// - a page taken leaves the history and every game in it readable;
/// - the same page again takes nothing more (where its entries are in distinct slots).
pub fn library(data: &[u8]) {
    if data.len() > MAX_LEN {
        return;
    }
    let path = fresh(linked_store());
    let mut library = linked_library(&path);
    let (page, distinct) = match data.split_first() {
        Some((b'#', page)) => (page.to_vec(), false),
        _ => page_of(data),
    };
    let before = dump(&path);
    match library.take_page(&page) {
        Err(e) => assert_eq!(
            dump(&path),
            before,
            "a page refused ({e}) changed the store"
        ),
        Ok(_) => {
            history_reads(library.store(), "after a page of entries");
            let again = library
                .take_page(&page)
                .expect("a page taken is taken again");
            if distinct {
                assert_eq!(
                    (again.taken, again.forked),
                    (0, 0),
                    "the same page taken again changed games"
                );
            }
        }
    }
}

/// What the app does with a database file of any bytes: it opens it and everything reads
/// (errors, never a panic), and a game can be played and kept; or it refuses it, untouched,
/// as damaged or from a newer version; a damaged one is set aside whole and a new one starts.
pub fn database(data: &[u8]) {
    if data.len() > MAX_DB {
        return;
    }
    let path = fresh(data);
    match Store::open(&path) {
        Ok(store) => {
            if let Ok(ids) = store.history_ids(&HistoryFilter::default()) {
                let _ = store.summaries(&ids);
                for id in ids.into_iter().take(50) {
                    if let Ok(game) = store.load(id) {
                        let _ = qiguan_app::store::replay(&game);
                    }
                    let _ = seat_view(&store, id);
                }
            }
            let _ = store.unfinished(20);
            let _ = store.settings_with_prefix("");
            let mut library = Library::with(store, client());
            let _ = library.link();
            let _ = library.has_changes();
            // A new game made and kept, if the file lets anything be written.
            let store = library.store_mut();
            let game =
                AnyMatch::new(GameKind::Xiangqi, &Value::Null, &Value::Null).expect("a new game");
            let new = NewGame::from_match(&game, Mode::PassAndPlay, vec!["A".into(), "B".into()]);
            if let Ok(id) = store.create_game(&new, 1) {
                let _ = store.load(id);
            }
        }
        Err(e @ (StoreError::Corrupt { .. } | StoreError::TooNew { .. })) => {
            let now = std::fs::read(&path).expect("the refused file is still there");
            assert!(now == data, "the file refused ({e}) was changed");
            if matches!(e, StoreError::Corrupt { .. }) {
                let kept = set_aside(&path, 1).expect("the damaged file set aside");
                let aside = std::fs::read(&kept).expect("the file set aside reads");
                assert!(aside == data, "the file set aside is not the damaged file");
                Store::open(&path).expect("a new store starts where the damaged one was");
            }
        }
        Err(_) => {}
    }
}
