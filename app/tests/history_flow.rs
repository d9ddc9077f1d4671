//! History through the UI: import, filters, search, delete, export; and the screen shown when
//! the database cannot be opened.

mod common;

use common::{all, click, one, point, press, result_code, start, targets};
use qiguan_app::App;
use qiguan_app::settings::Language;
use qiguan_app::ui::{HistoryAdapter, Nav, ReplayAdapter, Screen};
use slint::{ComponentHandle, Model};

const CHINESE_PGN: &str = "[Red \"胡荣华\"]\n[Black \"杨官璘\"]\n[Result \"0-1\"]\n\
    1. 炮二平五 马８进７ 2. 马二进三 车９平８ 0-1";

fn import(app: &App, text: &str) {
    let h = app.window().global::<HistoryAdapter>();
    h.set_show_import(true);
    h.set_import_text(text.into());
    let buttons = all(app, "Import");
    // The title bar's button opens the dialog; the dialog's own button is the last one.
    buttons
        .last()
        .expect("the dialog's button")
        .invoke_accessible_default_action();
}

#[test]
fn imported_games_are_filtered_searched_exported_and_deleted() {
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path(), Language::English, (1280, 800));
    press(&app, "History");
    assert!(one(&app, "Games: 0").is_valid());
    assert!(one(&app, "No games here yet.").is_valid());

    // A bad paste says why and keeps the dialog open with the text.
    import(&app, "1. C2=5 H8+7 2. C5+9");
    let h = app.window().global::<HistoryAdapter>();
    assert!(h.get_show_import());
    let problem = h.get_import_error();
    assert_eq!(
        (problem.code.as_str(), problem.ply, problem.text.as_str()),
        ("move", 3, "C5+9")
    );
    assert!(one(&app, "Move 3 (C5+9) cannot be played where it stands.").is_valid());
    assert_eq!(h.get_import_text(), "1. C2=5 H8+7 2. C5+9");

    import_and_export(&app);

    import(&app, "4k4/9/9/9/9/9/9/9/4A4/3AK3R w - - 0 1");
    press(&app, "Back");
    assert!(one(&app, "Games: 2").is_valid());
    filter_and_search(&app);

    // Delete asks first.
    press(&app, "Delete game 1");
    assert!(one(&app, "Delete game 1?").is_valid());
    press(&app, "Cancel");
    assert!(one(&app, "Games: 2").is_valid());
    press(&app, "Delete game 1");
    press(&app, "Delete");
    assert!(one(&app, "Games: 1").is_valid());
    assert!(all(&app, "Game 1").is_empty());
}

/// Imports a PGN in Chinese notation; it opens in replay and exports as PGN and FEN.
fn import_and_export(app: &App) {
    import(app, CHINESE_PGN);
    assert_eq!(app.window().global::<Nav>().get_screen(), Screen::Replay);
    let replay = app.window().global::<ReplayAdapter>();
    assert_eq!(
        (replay.get_ply(), replay.get_total()),
        (0, 4),
        "an import opens at the start"
    );
    assert_eq!(result_code(&replay.get_outcome()), "win:1");
    press(app, "End");
    assert!(point(app, "h10").contains("black 车"));

    // Export: PGN in WXF carries the players and result.
    press(app, "Export");
    press(app, "PGN · WXF");
    let text = replay.get_export_text().to_string();
    assert!(
        text.contains("[White \"胡荣华\"]") && text.contains("[Result \"0-1\"]"),
        "{text}"
    );
    assert!(text.contains("1. C2=5 H8+7 2. H2+3 R9=8"), "{text}");
    press(app, "FEN");
    assert_eq!(
        replay.get_export_text(),
        "rnbakabr1/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 4 3"
    );
    press(app, "Close");
    press(app, "Back");
}

/// The history's filters and search over the two imported games.
fn filter_and_search(app: &App) {
    let h = app.window().global::<HistoryAdapter>();
    // The filters keep their widths whatever they show (they changed with each choice).
    let widths = || -> Vec<i32> {
        ["Game", "Result", "Mode", "Date"]
            .map(|l| one(app, l).size().width.round() as i32)
            .to_vec()
    };
    let before = widths();
    h.set_game_filter(4);
    h.set_result_filter(4);
    h.set_date_filter(3);
    common::next_frame();
    assert_eq!(widths(), before, "the filters changed width");
    assert!(before.windows(2).all(|w| w[0] == w[1]), "{before:?}");
    h.set_game_filter(0);
    h.set_result_filter(0);
    h.set_date_filter(0);
    // Filters and search.
    // A side's win is offered for the game chosen: Xiangqi's are Red's and Black's.
    h.set_game_filter(1);
    h.set_result_filter(6);
    h.invoke_filters_changed();
    assert!(one(app, "Games: 1").is_valid(), "one Black win");
    assert!(one(app, "Game 1").is_valid());
    assert!(one(app, "Black won").is_valid(), "the filter names it");
    // Imported games are no one's on this device: neither won nor lost by you.
    h.set_result_filter(2);
    h.invoke_filters_changed();
    assert!(one(app, "Games: 0").is_valid(), "no win of yours");
    h.set_result_filter(3);
    h.invoke_filters_changed();
    assert!(one(app, "Games: 0").is_valid(), "no loss of yours");
    // All games have no one side: the side's filter goes back to any result.
    h.set_result_filter(6);
    h.set_game_filter(0);
    h.invoke_filters_changed();
    assert_eq!(h.get_result_filter(), 0);
    assert!(one(app, "Games: 2").is_valid());
    h.set_result_filter(1);
    h.invoke_filters_changed();
    assert!(
        one(app, "Game 2").is_valid(),
        "the FEN import is unfinished"
    );
    h.set_result_filter(0);
    h.set_mode_filter(1);
    h.invoke_filters_changed();
    assert!(one(app, "Games: 0").is_valid(), "no pass-and-play games");
    h.set_mode_filter(0);
    h.set_date_filter(1);
    h.set_search("杨官".into());
    h.invoke_filters_changed();
    assert!(one(app, "Games: 1").is_valid(), "played today, by 杨官璘");
    h.set_search("nobody".into());
    h.invoke_filters_changed();
    assert!(one(app, "Games: 0").is_valid());
    h.set_search("".into());
    h.set_date_filter(0);
    h.invoke_filters_changed();
}

#[test]
fn a_damaged_database_shows_why_and_a_new_history_keeps_the_old_file() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("qiguan.sqlite");
    let garbage = vec![0x42u8; 8192];
    std::fs::write(&db, &garbage).unwrap();
    let app = start(dir.path(), Language::English, (360, 780));
    assert_eq!(app.window().global::<Nav>().get_screen(), Screen::Failure);
    assert!(one(&app, "The game history cannot be opened").is_valid());
    assert_eq!(std::fs::read(&db).unwrap(), garbage, "nothing written yet");

    press(&app, "Start a new history");
    assert_eq!(app.window().global::<Nav>().get_screen(), Screen::Home);
    let kept: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("qiguan.sqlite.damaged-"))
        .collect();
    assert_eq!(kept.len(), 1, "the damaged file is kept aside");
    assert_eq!(std::fs::read(dir.path().join(&kept[0])).unwrap(), garbage);
    press(&app, "New Xiangqi game");
    press(&app, "Start game");
    assert_eq!(app.window().global::<Nav>().get_screen(), Screen::Xiangqi);
}

#[test]
fn a_database_from_a_newer_version_offers_no_fresh_start() {
    let dir = tempfile::tempdir().unwrap();
    {
        let store = qiguan_app::store::Store::open_dir(dir.path()).unwrap();
        drop(store);
        let conn = rusqlite::Connection::open(dir.path().join("qiguan.sqlite")).unwrap();
        conn.pragma_update(None, "user_version", 99).unwrap();
    }
    let app = start(dir.path(), Language::English, (360, 780));
    assert_eq!(app.window().global::<Nav>().get_screen(), Screen::Failure);
    assert!(all(&app, "Start a new history").is_empty());
    assert!(one(&app, "Quit").is_valid());
}

/// A game as Chinese forums paste it (DhtmlXQ): its game line imports and replays; a damaged
/// one says so.
#[test]
fn a_dhtmlxq_paste_imports_its_main_line() {
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path(), Language::English, (360, 780));
    press(&app, "History");
    let h = app.window().global::<HistoryAdapter>();
    import(
        &app,
        "[DhtmlXQ][DhtmlXQ_red]柳大华[/DhtmlXQ_red][DhtmlXQ_black]吕钦[/DhtmlXQ_black]
         [DhtmlXQ_movelist]2625[/DhtmlXQ_movelist][/DhtmlXQ]",
    );
    let problem = h.get_import_error();
    assert_eq!(problem.code, "", "{problem:?}");
    // The tag with no closing word: damaged.
    press(&app, "Back");
    import(&app, "[DhtmlXQ_movelist]7062");
    assert_eq!(h.get_import_error().code, "dhtmlxq");
    assert!(
        one(
            &app,
            "This DhtmlXQ game is damaged: its tags or moves cannot be read."
        )
        .is_valid()
    );
    h.set_show_import(false);
    import(
        &app,
        "[DhtmlXQ_red]柳大华[/DhtmlXQ_red][DhtmlXQ_result]黑胜[/DhtmlXQ_result]
         [DhtmlXQ_movelist]2625706266651222[/DhtmlXQ_movelist]
         [DhtmlXQ_move_0_2_1]7242[/DhtmlXQ_move_0_2_1]",
    );
    assert_eq!(app.window().global::<Nav>().get_screen(), Screen::Replay);
    let replay = app.window().global::<ReplayAdapter>();
    assert_eq!(replay.get_total(), 4, "the game's line, not the variation");
    assert_eq!(result_code(&replay.get_outcome()), "win:1");
    // The paste gave a result, not how it came: no reason is made up for it, in replay or in
    // the history's row.
    assert_eq!(replay.get_outcome().reason, "");
    press(&app, "End");
    assert!(point(&app, "c8").contains("black 炮"), "炮2平3 was played");
    press(&app, "Back");
    let rows = model(&h.get_rows());
    assert_eq!(result_code(&rows[0].outcome), "win:1");
    assert_eq!(rows[0].outcome.reason, "");
}

/// The study of a game in replay (issue 41): a move other than the game's at move 10 makes a
/// variation, a comment goes on it, it is made the main line, and the export, imported again,
/// is the same tree.
#[test]
fn a_variation_is_commented_promoted_exported_and_imported_whole() {
    use qiguan_core::xiangqi::pgn_study::read_study_pgn;
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path(), Language::English, (360, 780));
    press(&app, "History");
    import(&app, common::PGN);
    let replay = app.window().global::<ReplayAdapter>();
    assert_eq!(replay.get_total(), 12);

    // Move 10 (Black's fifth) other than the game's: 卒1进1 for 炮8平9.
    replay.invoke_go_to(9);
    click(&app, "a7");
    assert!(
        targets(&app).contains(&"a6".to_owned()),
        "{:?}",
        targets(&app)
    );
    click(&app, "a6");
    assert_eq!((replay.get_ply(), replay.get_total()), (10, 10));
    let fifth = rows(&replay)[4].clone();
    assert!(fifth.second_study && !fifth.first_study, "{fifth:?}");
    assert!(fifth.second_more, "other moves were tried at move 10");
    assert!(replay.get_in_variation() && replay.get_can_delete());
    // Back one: both moves tried from there, the variation's shown.
    replay.invoke_go_to(9);
    let tried: Vec<(String, bool, bool)> = model(&replay.get_tried())
        .into_iter()
        .map(|m| (m.text.to_string(), m.shown, m.played))
        .collect();
    assert_eq!(
        tried,
        [
            ("C8=9".to_owned(), false, true),
            ("P1+1".to_owned(), true, false)
        ]
    );
    replay.invoke_go_to(10);

    // A comment, written in the study's dialog.
    press(&app, "Study: comment, main line, delete");
    assert!(one(&app, "Study · P1+1").is_valid());
    one(&app, "Comment").set_accessible_value("边卒 {先挺}");
    press(&app, "Save comment");
    assert_eq!(replay.get_comment(), "边卒 (先挺)");
    assert!(!replay.get_show_study());

    // Made the main line: the game's move is now the variation, and cannot be deleted.
    press(&app, "Study: comment, main line, delete");
    press(&app, "Make main line");
    assert!(!replay.get_in_variation());
    replay.invoke_go_to_game(10);
    assert_eq!(replay.get_total(), 12, "the game's own line");
    assert!(replay.get_in_variation() && !replay.get_can_delete());

    // Moves after the game's last are the player's too: kept, and deleted again.
    replay.invoke_go_to_game(12);
    click(&app, "a1");
    click(&app, "a2");
    assert_eq!((replay.get_ply(), replay.get_total()), (13, 13));
    assert!(replay.get_can_delete());
    assert!(rows(&replay)[6].first_study);
    press(&app, "Study: comment, main line, delete");
    press(&app, "Delete these moves");
    assert_eq!((replay.get_ply(), replay.get_total()), (12, 12));
    assert!(!replay.get_can_delete());

    // Exported with its variation and comment, imported again: the same tree.
    press(&app, "Export");
    press(&app, "PGN · coordinates");
    let exported = replay.get_export_text().to_string();
    assert!(exported.contains("{边卒 (先挺)}"), "{exported}");
    let before = read_study_pgn(&exported).unwrap();
    assert_eq!(before.node_count(), 13);
    // Through the clipboard: copied from the export, pasted into the import.
    press(&app, "Copy");
    press(&app, "Close");
    press(&app, "Back");
    let h = app.window().global::<HistoryAdapter>();
    h.set_show_import(true);
    h.set_import_text("something typed before".into());
    press(&app, "Paste a game or a FEN");
    assert_eq!(h.get_import_text(), exported.as_str());
    all(&app, "Import")
        .last()
        .expect("the dialog's button")
        .invoke_accessible_default_action();
    assert_eq!(app.window().global::<Nav>().get_screen(), Screen::Replay);
    assert_eq!(replay.get_total(), 10, "the main line is the one made main");
    press(&app, "Export");
    press(&app, "PGN · coordinates");
    let again = read_study_pgn(&replay.get_export_text()).unwrap();
    assert_eq!(
        (&again.start, &again.comment, &again.moves),
        (&before.start, &before.comment, &before.moves)
    );
}

/// Game files (issue 41): Import → Open a file lists a folder's folders and game files; an
/// XQF file (encrypted, as XQStudio writes them) imports and opens in replay, its opening
/// named there and in the history, which filters and searches by opening; a damaged file says
/// why, under its name; a file given on the command line ("Open with Qiguan") opens the same way.
#[test]
fn game_files_open_from_the_file_list_and_the_command_line() {
    use qiguan_core::xiangqi::pgn_study::read_study_pgn;
    use qiguan_core::xiangqi::xqf::{XqfKeys, write_xqf};
    let dir = tempfile::tempdir().unwrap();
    let files = dir.path().join("files");
    std::fs::create_dir_all(files.join("Endgames")).unwrap();
    let study = read_study_pgn(
        "[Red \"许银川\"]\n[Black \"吕钦\"]\n\n1. 炮二平五 马8进7 2. 马二进三 车9平8 \
         3. 车一平二 马2进3 4. 兵七进一 卒7进1 5. 马八进七 象3进5 6. 马七进六 *",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let keys = XqfKeys::SAMPLE;
    let xqf = write_xqf(&study, keys);
    std::fs::write(files.join("许银川-吕钦.XQF"), &xqf).unwrap();
    std::fs::write(files.join("cut.xqf"), &xqf[..1030]).unwrap();
    std::fs::write(files.join("notes.md"), "not a game file").unwrap();
    std::fs::write(files.join(".hidden.pgn"), "1. h2e2").unwrap();

    let data = dir.path().join("data");
    let app = start(&data, Language::English, (360, 780));
    press(&app, "History");
    let h = app.window().global::<HistoryAdapter>();
    h.set_show_import(true);
    // The list opens on the folder it showed last.
    h.set_files_folder(files.display().to_string().into());
    press(&app, "Open a file…");
    assert!(h.get_show_files());
    let listed: Vec<(String, bool)> = model(&h.get_files())
        .into_iter()
        .map(|e| (e.name.to_string(), e.folder))
        .collect();
    assert_eq!(
        listed,
        [
            ("Endgames".to_owned(), true),
            ("cut.xqf".to_owned(), false),
            ("许银川-吕钦.XQF".to_owned(), false),
        ],
        "folders first, then game files; no hidden files, no other files"
    );
    press(&app, "Folder Endgames");
    assert!(h.get_files_folder().ends_with("Endgames"));
    assert!(
        one(
            &app,
            "No folders or game files here (XQF, PGN, TXT, UBB, FEN)."
        )
        .is_valid()
    );
    press(&app, "The folder above");
    assert_eq!(h.get_files_folder().as_str(), files.display().to_string());

    press(&app, "cut.xqf");
    assert_eq!(h.get_files_problem().code, "xqf-short");
    assert!(
        one(
            &app,
            "cut.xqf: This XQF file is cut short: it ends before its game does."
        )
        .is_valid()
    );
    assert_eq!(app.window().global::<Nav>().get_screen(), Screen::History);

    press(&app, "许银川-吕钦.XQF");
    assert_eq!(app.window().global::<Nav>().get_screen(), Screen::Replay);
    assert!(!h.get_show_files() && !h.get_show_import());
    let replay = app.window().global::<ReplayAdapter>();
    assert_eq!(replay.get_total(), 11);
    assert_eq!(replay.get_names().row_data(0).unwrap_or_default(), "许银川");
    // The opening follows the move shown.
    assert_eq!(replay.get_opening().code, "");
    for _ in 0..6 {
        press(&app, "Next move");
    }
    assert_eq!(replay.get_opening().zh, "中炮直车对屏风马");
    press(&app, "End");
    let opening = replay.get_opening();
    assert_eq!(
        (opening.code.as_str(), opening.zh.as_str()),
        ("C02", "中炮七路马对屏风马 红左马盘河")
    );
    assert!(
        one(
            &app,
            "C02 Central Cannon, Seventh-File Horse vs Screen Horses: Red Left Horse to the River"
        )
        .is_valid()
    );

    // An export tags it as Chinese Xiangqi programs do.
    replay.set_export_format(1);
    replay.set_show_export(true);
    replay.invoke_export_changed();
    let pgn = replay.get_export_text();
    assert!(pgn.contains("[ECCO \"C02\"]"), "{pgn}");
    assert!(
        pgn.contains("[Opening \"中炮七路马对屏风马 红左马盘河\"]"),
        "{pgn}"
    );
    replay.set_show_export(false);

    // The history names it, and finds it by class, name or code.
    press(&app, "Back");
    let rows = model(&h.get_rows());
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].opening.code, "C02");
    let count = |search: &str, class: i32| {
        h.set_search(search.into());
        h.set_opening_filter(class);
        h.invoke_filters_changed();
        h.get_total()
    };
    assert_eq!(count("", 3), 1, "class C");
    assert_eq!(count("", 1), 0, "class A");
    assert_eq!(count("Seventh-File Horse", 0), 1);
    assert_eq!(count("七路马", 0), 1);
    assert_eq!(count("c02", 0), 1);
    assert_eq!(count("仙人指路", 0), 0);
    assert_eq!(count("", 0), 1);
    drop(app);

    // Opened with Qiguan: the file is filed and opens in replay; a damaged one given with it
    // shows in the file list of its folder, with its reason.
    let app = common::start_opening(
        &data,
        (360, 780),
        vec![files.join("许银川-吕钦.XQF"), files.join("cut.xqf")],
    );
    let h = app.window().global::<HistoryAdapter>();
    assert_eq!(app.window().global::<Nav>().get_screen(), Screen::History);
    assert!(h.get_show_files());
    assert_eq!(h.get_files_problem_file().as_str(), "cut.xqf");
    assert_eq!(h.get_files_problem().code, "xqf-short");
    h.set_show_files(false);
    h.set_show_import(false);
    press(&app, "Back");
    assert_eq!(app.window().global::<Nav>().get_screen(), Screen::Replay);
    assert_eq!(app.window().global::<ReplayAdapter>().get_total(), 11);
    let (store, _) = common::latest_game(&data);
    assert_eq!(store.history_ids(&Default::default()).unwrap().len(), 2);
}

fn model<T: Clone + 'static>(m: &slint::ModelRc<T>) -> Vec<T> {
    use slint::Model;
    m.iter().collect()
}

fn rows(replay: &ReplayAdapter<'_>) -> Vec<qiguan_app::ui::MoveRow> {
    model(&replay.get_moves())
}
