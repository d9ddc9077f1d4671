//! Store tests on real SQLite files in temporary directories.

use super::*;
use qiguan_core::{EndReason, GameKind, Seat, ToAct};

fn new_game(players: [&str; 2]) -> NewGame {
    let players = players.iter().map(|s| s.to_string()).collect();
    NewGame::from_match(&start(), Mode::PassAndPlay, players)
}

/// Plays `moves` through the store the way the app does: apply, then write.
fn play(store: &mut Store, id: GameId, game: &mut AnyMatch, moves: &[&str], now: i64) {
    for text in moves {
        let seat = match game.to_act() {
            ToAct::Seat(s) => s,
            other => panic!("no seat to act: {other:?}"),
        };
        game.apply_text(Actor::Seat(seat), text).unwrap();
        let entry = game.record().actions.last().unwrap().clone();
        store
            .append_action(id, game.version() - 1, &entry, &Standing::of(game), now)
            .unwrap();
    }
}

fn start() -> AnyMatch {
    AnyMatch::new(
        GameKind::Xiangqi,
        &serde_json::Value::Null,
        &serde_json::Value::Null,
    )
    .unwrap()
}

#[test]
fn a_game_survives_closing_and_reopening() {
    let dir = tempfile::tempdir().unwrap();
    let id;
    let mut game = start();
    {
        let mut store = Store::open_dir(dir.path()).unwrap();
        id = store.create_game(&new_game(["红", "黑"]), 1000).unwrap();
        play(&mut store, id, &mut game, &["h3e3", "h10g8", "h1g3"], 2000);
    }
    let store = Store::open_dir(dir.path()).unwrap();
    let stored = store.load(id).unwrap();
    assert_eq!(stored.record, game.record());
    assert_eq!(stored.summary.plies, 3);
    assert_eq!(stored.summary.players, ["红", "黑"]);
    assert_eq!(stored.summary.updated_at, 2000);
    let resumed = replay(&stored).unwrap();
    assert_eq!(resumed.to_act(), ToAct::Seat(Seat::SECOND));
}

#[test]
fn the_database_is_in_wal_mode_with_the_current_schema() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_dir(dir.path()).unwrap();
    let mode: String = store
        .conn
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
    let version: i64 = store
        .conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, SCHEMA_VERSION);
}

#[test]
fn stale_or_duplicated_actions_are_refused_and_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open_dir(dir.path()).unwrap();
    let id = store.create_game(&new_game(["", ""]), 0).unwrap();
    let mut game = start();
    play(&mut store, id, &mut game, &["h3e3"], 1);
    let entry = game.record().actions[0].clone();
    let again = store.append_action(id, 0, &entry, &Standing::of(&game), 2);
    assert!(matches!(again, Err(StoreError::Conflict(_))), "{again:?}");
    let skip = store.append_action(id, 5, &entry, &Standing::of(&game), 2);
    assert!(matches!(skip, Err(StoreError::Conflict(_))), "{skip:?}");
    let stored = store.load(id).unwrap();
    assert_eq!(stored.record.actions.len(), 1);
    assert_eq!(stored.summary.updated_at, 1);
    let missing = store.append_action(GameId(99), 0, &entry, &Standing::of(&game), 2);
    assert!(matches!(missing, Err(StoreError::NoSuchGame(GameId(99)))));
}

#[test]
fn a_finished_game_records_its_result_and_undo_reopens_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open_dir(dir.path()).unwrap();
    let id = store.create_game(&new_game(["", ""]), 0).unwrap();
    let mut game = start();
    play(
        &mut store,
        id,
        &mut game,
        &["b3b5", "a7a6", "b5c5", "f10e9", "c5c10"],
        5,
    );
    let row = &store.summaries(&[id]).unwrap()[0];
    assert_eq!(row.result.as_deref(), Some("win:0"));
    assert_eq!(row.reason.as_deref(), Some("checkmate"));
    assert!(store.unfinished(10).unwrap().is_empty());

    // Undo the mating move: the game is unfinished again, with four actions.
    let mut record = game.record();
    record.actions.pop();
    let undone = AnyMatch::from_record(&record).unwrap();
    store.truncate(id, 4, &Standing::of(&undone), 6).unwrap();
    let row = &store.summaries(&[id]).unwrap()[0];
    assert_eq!(
        (row.plies, row.result.clone(), row.reason.clone()),
        (4, None, None)
    );
    assert_eq!(store.unfinished(10).unwrap()[0].id, id);
    assert_eq!(store.load(id).unwrap().record, record);
}

/// Three games: one unfinished, one Black lost by resigning (played at 250), one imported.
fn three_games(store: &mut Store) -> [GameId; 3] {
    let a = store
        .create_game(&new_game(["Zhang San", "Li Si"]), 100)
        .unwrap();
    let b = store
        .create_game(&new_game(["王五", "Li Si"]), 200)
        .unwrap();
    let mut imported = new_game(["", ""]);
    imported.mode = Mode::Imported;
    let c = store.create_game(&imported, 300).unwrap();
    let mut game = start();
    play(store, b, &mut game, &["h3e3"], 250);
    game.apply_text(Actor::Seat(Seat::SECOND), "resign")
        .unwrap();
    let standing = Standing::of(&game);
    let entry = game.record().actions[1].clone();
    store.append_action(b, 1, &entry, &standing, 260).unwrap();
    [a, b, c]
}

#[test]
fn history_filters_by_game_result_mode_date_and_search() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open_dir(dir.path()).unwrap();
    let [a, b, c] = three_games(&mut store);
    let ids = |f: HistoryFilter| store.history_ids(&f).unwrap();
    assert_eq!(ids(HistoryFilter::default()), [c, b, a], "newest first");
    let only = |result| HistoryFilter {
        result: Some(result),
        ..HistoryFilter::default()
    };
    assert_eq!(ids(only(ResultFilter::WonBy(0))), [b]);
    assert_eq!(ids(only(ResultFilter::WonBy(1))), []);
    assert_eq!(ids(only(ResultFilter::Unfinished)), [c, a]);
    assert_eq!(ids(only(ResultFilter::Draw)), []);
    let mode = HistoryFilter {
        mode: Some(Mode::Imported),
        ..HistoryFilter::default()
    };
    assert_eq!(ids(mode), [c]);
    let since = HistoryFilter {
        since: Some(250),
        ..HistoryFilter::default()
    };
    assert_eq!(ids(since), [c, b]);
    let search = |s: &str| HistoryFilter {
        search: s.into(),
        ..HistoryFilter::default()
    };
    assert_eq!(ids(search("li si")), [b, a], "case-insensitive");
    assert_eq!(ids(search("王")), [b]);
    assert_eq!(ids(search(&format!("#{}", a.0))), [a]);
    let kind = HistoryFilter {
        kind: Some(GameKind::Xiangqi),
        ..HistoryFilter::default()
    };
    assert_eq!(ids(kind).len(), 3);

    store.delete(b).unwrap();
    assert_eq!(
        store.history_ids(&HistoryFilter::default()).unwrap(),
        [c, a]
    );
    assert!(matches!(store.delete(b), Err(StoreError::NoSuchGame(_))));
    assert!(matches!(store.load(b), Err(StoreError::NoSuchGame(_))));
}

/// A Xiangqi game's opening (issue 41) is named as its moves are written, follows an undo,
/// and the history finds games by its class, by its name in either language and by its code.
#[test]
fn openings_are_named_as_moves_are_stored_and_found_by_the_history() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open_dir(dir.path()).unwrap();
    let a = store.create_game(&new_game(["A", "B"]), 100).unwrap();
    let b = store.create_game(&new_game(["C", "D"]), 200).unwrap();
    let opening = |store: &Store, id| store.summaries(&[id]).unwrap()[0].opening.clone();
    assert_eq!(opening(&store, a), None);
    let mut game = start();
    // Coordinates as stored (ranks from 1): 炮二平五 马8进7 马二进三 马2进3.
    play(&mut store, a, &mut game, &["h3e3", "h10g8"], 110);
    assert_eq!(opening(&store, a).as_deref(), Some("B00 中炮对进左马"));
    play(&mut store, a, &mut game, &["h1g3", "b10c8"], 120);
    assert_eq!(opening(&store, a).as_deref(), Some("C00 中炮对屏风马"));
    // Undone to the first move: named again from what is left.
    let AnyMatch::Xiangqi(m) = &game else {
        unreachable!()
    };
    let undone = AnyMatch::Xiangqi(m.rewound(1).unwrap());
    store.truncate(a, 1, &Standing::of(&undone), 130).unwrap();
    assert_eq!(opening(&store, a).as_deref(), Some("B00 中炮局"));
    let mut other = start();
    play(&mut store, b, &mut other, &["c4c5", "g7g6"], 210);
    assert_eq!(opening(&store, b).as_deref(), Some("E00 仙人指路对进7卒"));

    let ids = |f: HistoryFilter| store.history_ids(&f).unwrap();
    let class = |c| HistoryFilter {
        opening_class: Some(c),
        ..HistoryFilter::default()
    };
    assert_eq!(ids(class('B')), [a]);
    assert_eq!(ids(class('E')), [b]);
    assert_eq!(ids(class('C')), []);
    let search = |s: &str| HistoryFilter {
        search: s.into(),
        ..HistoryFilter::default()
    };
    assert_eq!(ids(search("中炮")), [a]);
    assert_eq!(ids(search("pawn opening")), [b], "English, any case");
    assert_eq!(ids(search("e00")), [b], "by code");
    assert_eq!(ids(search("屏风马")), []);
    // A family the game grew from: 仙人指路 (E00) for any pawn opening, in either language.
    let mut third = start();
    let c = store.create_game(&new_game(["E", "F"]), 300).unwrap();
    play(&mut store, c, &mut third, &["c4c5", "b10c8", "g4g5"], 310);
    assert_eq!(opening(&store, c).as_deref(), Some("E08 两头蛇对进右马"));
    let ids = |f: HistoryFilter| store.history_ids(&f).unwrap();
    assert_eq!(ids(search("仙人指路")), [c, b]);
    assert_eq!(ids(search("Pawn Opening")), [c, b]);
    assert_eq!(ids(search("两头蛇")), [c]);
}

#[test]
fn settings_are_stored_and_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open_dir(dir.path()).unwrap();
    assert_eq!(store.setting("notation").unwrap(), None);
    store.set_setting("notation", "wxf").unwrap();
    store.set_setting("notation", "chinese").unwrap();
    assert_eq!(
        store.setting("notation").unwrap().as_deref(),
        Some("chinese")
    );
}

#[test]
fn a_version_1_history_is_migrated_with_its_standings_filled_in() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(DB_FILE);
    {
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(include_str!("fixtures/schema-v1.sql"))
            .unwrap();
    }
    let store = Store::open(&path).unwrap();
    let rows = store.summaries(&[GameId(1), GameId(2), GameId(3)]).unwrap();
    let standings: Vec<_> = rows
        .iter()
        .map(|r| (r.plies, r.result.as_deref(), r.reason.as_deref()))
        .collect();
    assert_eq!(
        standings,
        [
            (5, Some("win:0"), Some(EndReason::Checkmate.as_str())),
            (2, None, None),
            (2, Some("win:0"), Some("resignation")),
        ]
    );
    assert_eq!(
        rows.iter().map(|r| r.moves).collect::<Vec<_>>(),
        [5, 2, 1],
        "the resignation is not a move"
    );
    assert_eq!(rows[0].players, ["张三", "李四"]);
    assert_eq!(rows[2].mode, Mode::Imported);
    // Options written under version 1 still apply to the resumed game.
    let second = store.load(GameId(2)).unwrap();
    assert_eq!(second.record.options["move_limit"], 120);
    assert!(replay(&second).is_ok());
    assert_eq!(store.setting("notation").unwrap().as_deref(), Some("wxf"));
    assert_eq!(
        store.history_ids(&HistoryFilter::default()).unwrap(),
        [GameId(3), GameId(2), GameId(1)]
    );
}

#[test]
fn a_file_that_is_not_a_database_is_refused_and_left_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(DB_FILE);
    let garbage: Vec<u8> = (0..8192u32).map(|i| (i * 7919 % 251) as u8).collect();
    std::fs::write(&path, &garbage).unwrap();
    let err = Store::open(&path).unwrap_err();
    assert!(matches!(err, StoreError::Corrupt { .. }), "{err:?}");
    assert!(err.to_string().contains("left untouched"), "{err}");
    assert_eq!(std::fs::read(&path).unwrap(), garbage);
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        leftovers.len(),
        1,
        "no -wal or -shm beside it: {leftovers:?}"
    );
}

#[test]
fn a_damaged_database_is_refused_and_left_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(DB_FILE);
    {
        let mut store = Store::open(&path).unwrap();
        store.create_game(&new_game(["a", "b"]), 0).unwrap();
        store
            .conn
            .pragma_update(None, "journal_mode", "DELETE")
            .unwrap();
    }
    // Keep the header, scramble the schema page: what a torn copy or a bad card leaves.
    let mut bytes = std::fs::read(&path).unwrap();
    for b in &mut bytes[100..4096] {
        *b = 0xA5;
    }
    std::fs::write(&path, &bytes).unwrap();
    let err = Store::open(&path).unwrap_err();
    assert!(matches!(err, StoreError::Corrupt { .. }), "{err:?}");
    assert_eq!(std::fs::read(&path).unwrap(), bytes);
}

#[test]
fn a_database_from_a_newer_version_is_refused_and_left_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(DB_FILE);
    {
        let store = Store::open(&path).unwrap();
        store
            .conn
            .pragma_update(None, "user_version", SCHEMA_VERSION + 1)
            .unwrap();
        store
            .conn
            .pragma_update(None, "journal_mode", "DELETE")
            .unwrap();
    }
    let before = std::fs::read(&path).unwrap();
    let err = Store::open(&path).unwrap_err();
    match &err {
        StoreError::TooNew { found, .. } => assert_eq!(*found, SCHEMA_VERSION + 1),
        other => panic!("expected TooNew, got {other:?}"),
    }
    assert!(err.to_string().contains("newer Qiguan"), "{err}");
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

#[test]
fn a_directory_that_cannot_be_created_gives_an_io_error() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("plain-file");
    std::fs::write(&file, b"x").unwrap();
    let err = Store::open_dir(&file.join("sub")).unwrap_err();
    assert!(matches!(err, StoreError::Io { .. }), "{err:?}");
}

#[test]
fn a_bulk_load_stores_all_its_games_or_none() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open_dir(dir.path()).unwrap();
    let mut game = start();
    game.apply_text(Actor::Seat(Seat::FIRST), "h3e3").unwrap();
    let new = new_game(["a", "b"]);
    let actions = game.record().actions;
    let standing = Standing::of(&game);
    store
        .in_transaction(|s| {
            for i in 0..3 {
                s.create_game_with(&new, &actions, &standing, i)?;
            }
            Ok(())
        })
        .unwrap();
    assert_eq!(
        store.history_ids(&HistoryFilter::default()).unwrap().len(),
        3
    );
    assert_eq!(store.load(GameId(3)).unwrap().record.actions, actions);

    let failed = store.in_transaction(|s| {
        s.create_game_with(&new, &actions, &standing, 10)?;
        Err::<(), _>(StoreError::Conflict("stop".into()))
    });
    assert!(failed.is_err());
    assert_eq!(
        store.history_ids(&HistoryFilter::default()).unwrap().len(),
        3,
        "rolled back"
    );
}

#[test]
fn a_version_3_correspondence_game_survives_the_move_to_version_4() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(DB_FILE);
    let remote = RemoteGame {
        game_id: GameId(0),
        server: "http://127.0.0.1:9".into(),
        remote_id: "abc".into(),
        seat: 1,
        token: "t".into(),
        invite_code: None,
        days_per_move: 3,
        deadline: Some(5),
        your_turn: false,
    };
    let id = {
        let mut store = Store::open(&path).unwrap();
        let game = start();
        let new = NewGame::from_match(&game, Mode::Correspondence, vec!["".into(), "Me".into()]);
        let id = store
            .create_remote_game(&new, &remote, &[], &Standing::of(&game), 1)
            .unwrap();
        store.queue_only(id, 0, "h3e3", "cid", 2).unwrap();
        id
    };
    // Back to version 3, as an older build left it.
    {
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(&format!(
            "{UNDO_V7} DROP TABLE phrases; ALTER TABLE games DROP COLUMN computers;
                 ALTER TABLE remote_games DROP COLUMN seat_view; PRAGMA user_version = 3;"
        ))
        .unwrap();
    }
    let mut store = Store::open(&path).unwrap();
    let kept = store.remote(id).unwrap().unwrap();
    assert_eq!((kept.remote_id.as_str(), kept.seat), ("abc", 1));
    assert_eq!(store.seat_view(id).unwrap(), None);
    assert_eq!(
        store.outbox().unwrap().len(),
        1,
        "the queued action survives"
    );
    // The new column works.
    let standing = Standing::new(&[], None);
    store.set_seat_view(id, Some("{}"), &standing, 3).unwrap();
    assert_eq!(store.seat_view(id).unwrap().as_deref(), Some("{}"));
}

#[test]
fn a_failed_step_inside_a_transaction_undoes_only_itself() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open_dir(dir.path()).unwrap();
    let result: Result<(), StoreError> = store.in_transaction(|s| {
        s.set_setting("outer", "kept")?;
        let inner: Result<(), StoreError> = s.in_transaction(|s| {
            s.set_setting("inner", "dropped")?;
            Err(StoreError::NoSuchGame(GameId(9)))
        });
        assert!(inner.is_err());
        Ok(())
    });
    result.unwrap();
    assert_eq!(store.setting("outer").unwrap().as_deref(), Some("kept"));
    assert_eq!(store.setting("inner").unwrap(), None);
}

/// What the sync worker relies on to mirror a view: another connection (the screen's) sees
/// all of the writes or none, and the caller's own error undoes them.
#[test]
fn atomic_work_is_seen_whole_by_other_connections_and_undone_by_its_own_errors() {
    #[derive(Debug)]
    enum Mine {
        Store,
        Refused,
    }
    impl From<StoreError> for Mine {
        fn from(_: StoreError) -> Self {
            Mine::Store
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let mut writer = Store::open_dir(dir.path()).unwrap();
    let reader = Store::open_dir(dir.path()).unwrap();
    let done: Result<(), Mine> = writer.atomically(|s| {
        s.set_setting("invite", "cleared")?;
        assert_eq!(
            reader.setting("invite").unwrap(),
            None,
            "half of it is not seen"
        );
        s.set_setting("view", "joined")?;
        Ok(())
    });
    done.unwrap();
    assert_eq!(
        reader.setting("invite").unwrap().as_deref(),
        Some("cleared")
    );
    assert_eq!(reader.setting("view").unwrap().as_deref(), Some("joined"));
    let failed: Result<(), Mine> = writer.atomically(|s| {
        s.set_setting("view", "older")?;
        Err(Mine::Refused)
    });
    assert!(matches!(failed, Err(Mine::Refused)));
    assert_eq!(reader.setting("view").unwrap().as_deref(), Some("joined"));
}

#[test]
fn a_version_4_game_gains_computer_seats_on_the_move_to_version_5() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v4.sqlite");
    let id = {
        let mut store = Store::open(&path).unwrap();
        let game = start();
        let new = NewGame::from_match(&game, Mode::PassAndPlay, vec!["A".into(), "B".into()]);
        store.create_game(&new, 1).unwrap()
    };
    {
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(&format!(
            "{UNDO_V7} DROP TABLE phrases; ALTER TABLE games DROP COLUMN computers;
                 PRAGMA user_version = 4;"
        ))
        .unwrap();
    }
    let mut store = Store::open(&path).unwrap();
    assert_eq!(store.load(id).unwrap().summary.players, ["A", "B"]);
    assert!(store.computers(id).unwrap().is_empty(), "none kept before");
    use qiguan_core::Strength;
    let seats = [None, Some(Strength::Easy), None, Some(Strength::Strong)];
    store.set_computers(id, &seats).unwrap();
    assert_eq!(store.computers(id).unwrap(), seats);
    assert!(matches!(
        store.computers(GameId(id.0 + 99)),
        Err(StoreError::NoSuchGame(_))
    ));
}

#[test]
fn a_version_5_correspondence_game_gains_phrases_on_the_move_to_version_6() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v5.sqlite");
    let id = {
        let mut store = Store::open(&path).unwrap();
        let game = start();
        let new = NewGame::from_match(&game, Mode::Correspondence, vec!["A".into(), "B".into()]);
        store.create_game(&new, 1).unwrap()
    };
    {
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(&format!(
            "{UNDO_V7} DROP TABLE phrases; PRAGMA user_version = 5;"
        ))
        .unwrap();
    }
    let mut store = Store::open(&path).unwrap();
    assert_eq!(store.load(id).unwrap().summary.players, ["A", "B"]);
    assert!(store.phrases(id, 10).unwrap().is_empty());
    store.queue_phrase(id, 0, "hello", "c1", 2).unwrap();
    assert_eq!(store.queued_phrases().unwrap().len(), 1);
    let version: i64 = store
        .conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, SCHEMA_VERSION);
}

/// Takes a database back from version 7 to 6.
/// Undoes version 9 (the kept reviews), for the tests that start from an older version.
const UNDO_V12: &str = "DROP TABLE shares; DROP TABLE game_openings;";
const UNDO_V11: &str =
    "DROP TABLE shares; DROP TABLE game_openings; ALTER TABLE games DROP COLUMN study;";
const UNDO_V10: &str =
    "DROP TABLE shares; DROP TABLE game_openings; ALTER TABLE games DROP COLUMN study;
    ALTER TABLE games DROP COLUMN fair; ALTER TABLE games DROP COLUMN chance_seed;";
const UNDO_V9: &str =
    "DROP TABLE shares; DROP TABLE game_openings; ALTER TABLE games DROP COLUMN study;
    ALTER TABLE games DROP COLUMN fair; ALTER TABLE games DROP COLUMN chance_seed;
    DROP TABLE reviews;";

const UNDO_V7: &str = "DROP TABLE shares;
    DROP TABLE game_openings; ALTER TABLE games DROP COLUMN study;
    ALTER TABLE games DROP COLUMN fair; ALTER TABLE games DROP COLUMN chance_seed;
    DROP TABLE reviews;
    DROP TRIGGER games_get_uid; DROP TRIGGER library_game_new; DROP TRIGGER library_game_changed;
    DROP TRIGGER library_game_gone; DROP TRIGGER library_remote_new;
    DROP TRIGGER library_setting_new; DROP TRIGGER library_setting_changed;
    DROP TRIGGER library_setting_gone; DROP VIEW shared_settings;
    DROP TABLE library; DROP TABLE library_slots; DROP TABLE library_dirty;
    DROP INDEX games_by_uid; ALTER TABLE games DROP COLUMN uid;";

#[test]
fn a_version_6_history_gains_game_uids_and_marks_everything_to_share_on_the_move_to_7() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v6.sqlite");
    let ids = {
        let mut store = Store::open(&path).unwrap();
        let game = start();
        let new = NewGame::from_match(&game, Mode::PassAndPlay, vec!["A".into(), "B".into()]);
        store.set_setting("junqi-layout:mine", "layout").unwrap();
        store.set_setting("orientation", "flip").unwrap();
        [
            store.create_game(&new, 1).unwrap(),
            store.create_game(&new, 2).unwrap(),
        ]
    };
    {
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(&format!("{UNDO_V7} PRAGMA user_version = 6;"))
            .unwrap();
    }
    let mut store = Store::open(&path).unwrap();
    let uids: Vec<String> = ids
        .iter()
        .map(|id| {
            store
                .conn
                .query_row("SELECT uid FROM games WHERE id = ?1", [id.0], |r| r.get(0))
                .unwrap()
        })
        .collect();
    assert_eq!(uids[0].len(), 32);
    assert_ne!(uids[0], uids[1]);
    let dirty = |store: &Store| -> Vec<(String, i64)> {
        store
            .conn
            .prepare("SELECT item, gen FROM library_dirty ORDER BY item")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    };
    let mut want = vec![
        (format!("g:{}", uids[0]), 1),
        (format!("g:{}", uids[1]), 1),
        ("s:junqi-layout:mine".to_owned(), 1),
    ];
    want.sort();
    assert_eq!(
        dirty(&store),
        want,
        "every game and shared setting, not the orientation"
    );

    // From now on every change marks its item, in its own transaction.
    store.conn.execute("DELETE FROM library_dirty", []).unwrap();
    let game = start();
    let new = NewGame::from_match(&game, Mode::PassAndPlay, vec!["C".into(), "D".into()]);
    let third = store.create_game(&new, 3).unwrap();
    let entry = RecordEntry {
        by: Actor::Seat(Seat::new(0).unwrap()),
        action: "h3e3".into(),
    };
    store
        .append_action(
            ids[0],
            0,
            &entry,
            &Standing::new(std::slice::from_ref(&entry), None),
            4,
        )
        .unwrap();
    store.delete(ids[1]).unwrap();
    store.set_setting("notation", "iccs").unwrap();
    store.set_setting("orientation", "fixed").unwrap();
    let third_uid: String = store
        .conn
        .query_row("SELECT uid FROM games WHERE id = ?1", [third.0], |r| {
            r.get(0)
        })
        .unwrap();
    let items: Vec<String> = dirty(&store).into_iter().map(|(i, _)| i).collect();
    let mut want = vec![
        format!("g:{}", uids[0]),
        format!("g:{}", uids[1]),
        format!("g:{third_uid}"),
        "s:notation".to_owned(),
    ];
    want.sort();
    assert_eq!(items, want);
}

/// Version 8: "电脑", the name games stored before gave the computer's seats, becomes the
/// seat's role: the name is cleared, and a seat known only by that name is marked as the
/// computer's. A person's own name is kept.
#[test]
fn the_computers_old_name_becomes_its_role() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(DB_FILE);
    let (by_mode, by_name, person);
    {
        let mut store = Store::open(&path).unwrap();
        let game = |mode: Mode, players: &[&str]| {
            NewGame::from_match(
                &start(),
                mode,
                players.iter().map(|p| p.to_string()).collect(),
            )
        };
        by_mode = store
            .create_game(&game(Mode::Computer(1), &["Ann", "电脑"]), 1000)
            .unwrap();
        by_name = store
            .create_game(&game(Mode::Correspondence, &["电脑", "Bo"]), 1000)
            .unwrap();
        person = store
            .create_game(&game(Mode::PassAndPlay, &["Ann", "电脑迷"]), 1000)
            .unwrap();
        store
            .conn
            .execute_batch(&format!("{UNDO_V9} PRAGMA user_version = 7;"))
            .unwrap();
    }
    let store = Store::open(&path).unwrap();
    let version: i64 = store
        .conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, SCHEMA_VERSION);
    let summary = |id| store.summaries(&[id]).unwrap().remove(0);
    let s = summary(by_mode);
    assert_eq!(s.players, ["Ann", ""]);
    assert!(s.computers.iter().all(Option::is_none), "the mode says it");
    let s = summary(by_name);
    assert_eq!(s.players, ["", "Bo"]);
    assert_eq!(s.computers, [Some(Strength::Strong)]);
    assert_eq!(summary(person).players, ["Ann", "电脑迷"]);
}

/// The computer is a role, not a name: searching the history for it, in either language,
/// finds the games it played (issue 36: "computer" found nothing).
#[test]
fn a_search_for_the_computer_finds_its_games() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open_dir(dir.path()).unwrap();
    let game = |mode: Mode, players: &[&str]| {
        NewGame::from_match(
            &start(),
            mode,
            players.iter().map(|p| p.to_string()).collect(),
        )
    };
    let against = store
        .create_game(&game(Mode::Computer(1), &["Ann", ""]), 1000)
        .unwrap();
    let served = store
        .create_game(&game(Mode::Correspondence, &["Ann", ""]), 2000)
        .unwrap();
    store
        .set_computers(served, &[None, Some(Strength::Level(3))])
        .unwrap();
    let people = store
        .create_game(&game(Mode::PassAndPlay, &["Ann", "Bo"]), 3000)
        .unwrap();
    let ids = |s: &str| {
        store
            .history_ids(&HistoryFilter {
                search: s.into(),
                ..HistoryFilter::default()
            })
            .unwrap()
    };
    assert_eq!(ids("computer"), [served, against]);
    assert_eq!(ids("Computer"), [served, against]);
    assert_eq!(ids("电脑"), [served, against]);
    assert_eq!(ids("ann"), [people, served, against]);
    assert_eq!(ids("bo"), [people]);
}

/// Version 9: the engine's review of a game is kept (issue 36: reopening a game ran the
/// review again), replaced by a newer one, and goes with its game.
#[test]
fn a_games_review_is_kept_until_the_game_goes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(DB_FILE);
    let id = {
        let mut store = Store::open(&path).unwrap();
        let id = store.create_game(&new_game(["Ann", "Bo"]), 1000).unwrap();
        assert_eq!(store.kept_review(id).unwrap(), None);
        let first = KeptReview {
            engine: "e1".into(),
            moves: "h3e3".into(),
            judged: "[1]".into(),
        };
        store.keep_review(id, &first).unwrap();
        let second = KeptReview {
            judged: "[1,2]".into(),
            ..first
        };
        store.keep_review(id, &second).unwrap();
        id
    };
    let mut store = Store::open(&path).unwrap();
    let kept = store
        .kept_review(id)
        .unwrap()
        .expect("kept across a restart");
    assert_eq!(kept.judged, "[1,2]");
    store.delete(id).unwrap();
    let left: i64 = store
        .conn
        .query_row("SELECT count(*) FROM reviews", [], |r| r.get(0))
        .unwrap();
    assert_eq!(left, 0, "the review went with its game");
}

/// The result filter speaks of you (issue 36: it knew only Red and Black won): your wins and
/// losses where this device has a player (the one person against computers, a
/// correspondence game's own seat), none where two people share it; and Aeroplane chess's
/// winners by colour, whichever seat had it.
#[test]
fn history_filters_your_wins_and_losses_and_aeroplane_colours() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open_dir(dir.path()).unwrap();
    let mut game = |mode: Mode, set: &str| {
        let id = store
            .create_game(
                &NewGame::from_match(&start(), mode, vec!["Ann".into(), "Bo".into()]),
                1,
            )
            .unwrap();
        store
            .conn
            .execute_batch(&format!(
                "UPDATE games SET status = 'finished', {set} WHERE id = {}",
                id.0
            ))
            .unwrap();
        id
    };
    // Against the computer: you played Red and won; you played Black and Red won.
    let won = game(Mode::Computer(1), "result = 'win:0'");
    let lost = game(Mode::Computer(0), "result = 'win:0'");
    // Two people on this device: nobody's win or loss is yours.
    let shared = game(Mode::PassAndPlay, "result = 'win:1'");
    // Aeroplane chess, you and two computers: blue (the third seat) came first.
    let three = game(
        Mode::PassAndPlay,
        "kind = 'aeroplane', players = '[\"Ann\",\"\",\"\"]',
         computers = '[null,\"strong\",\"easy\"]', result = 'rank:2,0,1'",
    );
    // Aeroplane chess, two seats (red and blue), you came first on blue.
    let two = game(
        Mode::PassAndPlay,
        "kind = 'aeroplane', players = '[\"\",\"Bo\"]', computers = '[\"strong\",null]',
         result = 'rank:1,0'",
    );
    // By correspondence, this device's seat is Black's, and Black won.
    let remote = game(Mode::Correspondence, "result = 'win:1'");
    store
        .conn
        .execute(
            "INSERT INTO remote_games (game_id, server, remote_id, seat, token, days_per_move)
             VALUES (?1, 'https://example.org', 'r', 1, 't', 3)",
            [remote.0],
        )
        .unwrap();
    let ids = |result| {
        let mut ids = store
            .history_ids(&HistoryFilter {
                result: Some(result),
                ..HistoryFilter::default()
            })
            .unwrap();
        ids.sort();
        ids
    };
    assert_eq!(ids(ResultFilter::YouWon), [won, two, remote]);
    assert_eq!(ids(ResultFilter::YouLost), [lost, three]);
    // By side: seat 0 of the two-seat games; Aeroplane chess's colours.
    assert_eq!(ids(ResultFilter::WonBy(0)), [won, lost]);
    assert_eq!(ids(ResultFilter::WonBy(1)), [shared, remote]);
    assert_eq!(ids(ResultFilter::WonBy(2)), [three, two], "blue came first");
    assert_eq!(ids(ResultFilter::WonBy(3)), []);
}

#[test]
fn a_version_9_aeroplane_game_opens_with_its_rolls_not_verifiable() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v9.sqlite");
    let options = serde_json::json!({"seats": 2});
    let mut game = AnyMatch::new(GameKind::Aeroplane, &options, &serde_json::Value::Null).unwrap();
    game.apply_text(Actor::Seat(Seat::FIRST), "roll").unwrap();
    game.apply_text(Actor::Authority, "d3").unwrap();
    let id = {
        let mut store = Store::open(&path).unwrap();
        let new = NewGame::from_match(&game, Mode::PassAndPlay, vec!["A".into(), "B".into()]);
        let id = store
            .create_game_with(
                &new,
                game.record().actions.as_slice(),
                &Standing::of(&game),
                1,
            )
            .unwrap();
        store
            .conn
            .execute_batch(&format!("{UNDO_V10} PRAGMA user_version = 9;"))
            .unwrap();
        id
    };
    let store = Store::open(&path).unwrap();
    let stored = store.load(id).unwrap();
    assert_eq!(
        (stored.record.fair.as_ref(), stored.chance_seed.as_ref()),
        (None, None)
    );
    assert_eq!(stored.record.actions.len(), 2);
    assert_eq!(
        qiguan_core::fair::verify(&stored.record),
        qiguan_core::fair::Verdict::Unverifiable
    );
}

/// Schema 12 names each Xiangqi game's opening: games stored before are named on the move to
/// it, in a table of its own, so that nothing is sent to the player's other devices for it.
#[test]
fn a_version_11_history_names_its_xiangqi_openings_without_marking_them_to_share() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.sqlite3");
    let (named, bare) = {
        let mut store = Store::open(&path).unwrap();
        let named = store.create_game(&new_game(["Ann", "Bo"]), 1).unwrap();
        let mut game = start();
        play(&mut store, named, &mut game, &["h3e3", "h8e8"], 2);
        let bare = store.create_game(&new_game(["Cy", "Di"]), 3).unwrap();
        store
            .conn
            .execute_batch(&format!(
                "{UNDO_V12} DELETE FROM library_dirty; PRAGMA user_version = 11;"
            ))
            .unwrap();
        (named, bare)
    };
    let store = Store::open(&path).unwrap();
    let rows = store.summaries(&[named, bare]).unwrap();
    assert_eq!(rows[0].opening.as_deref(), Some("D00 顺炮局"));
    assert_eq!(rows[1].opening, None);
    let dirty: i64 = store
        .conn
        .query_row("SELECT count(*) FROM library_dirty", [], |r| r.get(0))
        .unwrap();
    assert_eq!(dirty, 0);
}

/// Schema 11 keeps a game's study on its row: a version 10 game opens with none, takes one,
/// and the change is marked for the player's other devices (only a change).
#[test]
fn a_version_10_game_gains_a_study_that_is_marked_to_share() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.sqlite3");
    let id = {
        let mut store = Store::open(&path).unwrap();
        let id = store.create_game(&new_game(["Ann", "Bo"]), 1).unwrap();
        store
            .conn
            .execute_batch(&format!("{UNDO_V11} PRAGMA user_version = 10;"))
            .unwrap();
        id
    };
    let mut store = Store::open(&path).unwrap();
    assert_eq!(store.study(id).unwrap(), None);
    store.conn.execute("DELETE FROM library_dirty", []).unwrap();
    let dirty = |store: &Store| -> i64 {
        store
            .conn
            .query_row("SELECT count(*) FROM library_dirty", [], |r| r.get(0))
            .unwrap()
    };
    store.set_study(id, Some("1. h3e3 (1. c4c5) *")).unwrap();
    assert_eq!(
        store.study(id).unwrap().as_deref(),
        Some("1. h3e3 (1. c4c5) *")
    );
    assert_eq!(dirty(&store), 1);
    store.conn.execute("DELETE FROM library_dirty", []).unwrap();
    store.set_study(id, Some("1. h3e3 (1. c4c5) *")).unwrap();
    assert_eq!(dirty(&store), 0, "the same study again is no change");
    store.set_study(id, None).unwrap();
    assert_eq!(store.study(id).unwrap(), None);
    let missing = GameId(id.0 + 100);
    assert!(matches!(
        store.set_study(missing, None),
        Err(StoreError::NoSuchGame(g)) if g == missing
    ));
    assert!(matches!(
        store.study(missing),
        Err(StoreError::NoSuchGame(_))
    ));
}

/// Schema 13 keeps this device's share links: a version 12 history opens with none, keeps a
/// game's link in place of an older one, forgets it, and loses it with the game.
#[test]
fn a_version_12_history_gains_share_links_kept_per_game() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.sqlite3");
    let id = {
        let mut store = Store::open(&path).unwrap();
        let id = store.create_game(&new_game(["Ann", "Bo"]), 1).unwrap();
        store
            .conn
            .execute_batch("DROP TABLE shares; PRAGMA user_version = 12;")
            .unwrap();
        id
    };
    let mut store = Store::open(&path).unwrap();
    assert_eq!(store.kept_share(id).unwrap(), None);
    let first = KeptShare {
        server: "http://example.org/".into(),
        link: "abc".into(),
        key: Some("key".into()),
    };
    store.keep_share(id, &first, 2).unwrap();
    assert_eq!(store.kept_share(id).unwrap(), Some(first.clone()));
    assert_eq!(first.url(), "http://example.org/g/abc");
    let second = KeptShare {
        link: "def".into(),
        key: None,
        ..first
    };
    store.keep_share(id, &second, 3).unwrap();
    assert_eq!(store.kept_share(id).unwrap(), Some(second.clone()));
    store.forget_share(id).unwrap();
    assert_eq!(store.kept_share(id).unwrap(), None);
    store.keep_share(id, &second, 4).unwrap();
    store.delete(id).unwrap();
    let left: i64 = store
        .conn
        .query_row("SELECT count(*) FROM shares", [], |r| r.get(0))
        .unwrap();
    assert_eq!(left, 0, "a deleted game's link goes with it");
}

/// Schema 14 counts what an uploaded game's page has: a version 13 history's upload is sent
/// again once (not counted yet), then only after its game changes; a correspondence game's
/// link (no key) is never sent.
#[test]
fn a_version_13_history_sends_its_uploads_again_once_then_on_each_change() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.sqlite3");
    let (uploaded, linked) = {
        let mut store = Store::open(&path).unwrap();
        let uploaded = store.create_game(&new_game(["Ann", "Bo"]), 1).unwrap();
        let linked = store.create_game(&new_game(["Cy", "Di"]), 1).unwrap();
        let share = |link: &str, key: Option<&str>| KeptShare {
            server: "http://example.org".into(),
            link: link.into(),
            key: key.map(Into::into),
        };
        store
            .keep_share(uploaded, &share("up", Some("key")), 2)
            .unwrap();
        store.keep_share(linked, &share("seat", None), 2).unwrap();
        store
            .conn
            .execute_batch("ALTER TABLE shares DROP COLUMN sent; PRAGMA user_version = 13;")
            .unwrap();
        (uploaded, linked)
    };
    let mut store = Store::open(&path).unwrap();
    let changed = store.changed_uploads().unwrap();
    assert_eq!(changed.len(), 1, "{changed:?}");
    assert_eq!((changed[0].id, changed[0].actions), (uploaded, 0));
    assert_eq!(changed[0].share.key.as_deref(), Some("key"));
    store.note_sent(uploaded, 0).unwrap();
    assert!(store.changed_uploads().unwrap().is_empty());
    let entry = RecordEntry {
        by: Actor::Seat(Seat::new(0).unwrap()),
        action: "h2e2".into(),
    };
    let standing = Standing::new(std::slice::from_ref(&entry), None);
    store
        .append_action(uploaded, 0, &entry, &standing, 3)
        .unwrap();
    assert_eq!(store.action_count(uploaded).unwrap(), 1);
    let changed = store.changed_uploads().unwrap();
    assert_eq!((changed[0].id, changed[0].actions), (uploaded, 1));
    store.note_sent(uploaded, 1).unwrap();
    assert!(store.changed_uploads().unwrap().is_empty());
    assert_eq!(store.kept_share(linked).unwrap().unwrap().link, "seat");
}
