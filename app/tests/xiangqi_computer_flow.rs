//! Xiangqi against the computer, through the UI: New game with a side and a level, the
//! computer thinking on a thread of its own while the screen stays live, a game left and
//! resumed while it thinks, undo of the player's move with the computer's answer (and of the
//! draw talk after it), a hint on
//! the board, a whole game to its end, and the history's filter by the computer's side and
//! level.

mod common;

use common::{click, latest_game, one, play, press, start, stored_actions, until};
use qiguan_app::App;
use qiguan_app::settings::Language;
use qiguan_app::store::{ComputerFilter, HistoryFilter, Mode};
use qiguan_app::ui::{
    GamePhase, GameSession, HistoryAdapter, HomeAdapter, Nav, NewGameAdapter, Screen,
    XiangqiAdapter,
};
use qiguan_core::xiangqi::engine::{Engine, Limits, Style};
use qiguan_core::xiangqi::{Move, Xiangqi};
use qiguan_core::{Match, Strength};
use slint::ComponentHandle;
use std::path::Path;
use std::time::Duration;

/// Long enough for any search of the levels used here, in a debug build on a busy machine.
const WAIT: Duration = Duration::from_secs(120);

fn screen(app: &App) -> Screen {
    app.window().global::<Nav>().get_screen()
}

fn session(app: &App) -> GameSession<'_> {
    app.window().global::<GameSession>()
}

/// New game → Xiangqi → against the computer, the person in `seat` (0 Red), at `level`.
fn new_game_against_computer(app: &App, seat: i32, level: i32) {
    let ui = app.window();
    ui.global::<HomeAdapter>().invoke_new_game("xiangqi".into());
    assert_eq!(screen(app), Screen::NewGame);
    press(app, "The computer");
    let ng = ui.global::<NewGameAdapter>();
    assert_eq!(ng.get_opponent(), 1);
    ng.set_human_seat(seat);
    press(app, &format!("Level {level}"));
    assert_eq!(ng.get_level(), level);
    press(app, "Start game");
    assert_eq!(
        screen(app),
        Screen::Xiangqi,
        "{}",
        ui.global::<Nav>().get_error()
    );
}

/// Waits until every search started has answered (and its answer was handled).
fn settle(app: &App) {
    until(app, WAIT, || app.thinking_in_flight() == 0);
}

/// The stored game, replayed.
fn stored_game(dir: &Path) -> Match<Xiangqi> {
    let (store, id) = latest_game(dir);
    let record = store.load(id).expect("the game loads").record;
    Match::from_record(&record).expect("the record replays")
}

/// A move for the person, found by a shallow search of the stored game.
fn players_move(dir: &Path) -> Move {
    let game = stored_game(dir);
    let limits = Limits {
        depth: Some(2),
        ..Limits::default()
    };
    Engine::new(1)
        .search(game.game(), &limits, &Style::default(), |_| {})
        .best
        .expect("a move to play")
}

#[test]
fn a_whole_game_against_the_computer_is_played_stored_and_found_by_its_level() {
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path(), Language::English, (360, 780));
    // The person plays Black: the computer (Red) moves first, on its own thread.
    new_game_against_computer(&app, 1, 1);
    assert!(
        session(&app).get_thinking(),
        "the computer thinks as the game opens"
    );
    assert!(!common::all(&app, "Red · Computer (level 1) · to move").is_empty());
    settle(&app);
    assert_eq!(
        stored_actions(dir.path()).len(),
        1,
        "the computer's first move"
    );
    assert!(!session(&app).get_thinking());

    let mut moves = 0;
    while session(&app).get_phase() == GamePhase::Play {
        assert_eq!(session(&app).get_to_move(), 1, "the person's turn");
        let mv = players_move(dir.path()).to_string();
        play(&app, &[mv.as_str()]);
        moves += 1;
        assert!(moves < 150, "the game ends");
        let stored = stored_actions(dir.path());
        assert_eq!(stored.last(), Some(&mv), "stored first");
        settle(&app);
    }
    assert_eq!(session(&app).get_phase(), GamePhase::Over);
    assert!(session(&app).get_show_end_dialog());
    let game = stored_game(dir.path());
    assert!(game.outcome().is_some(), "the stored game is over too");

    let (store, id) = latest_game(dir.path());
    assert_eq!(store.summaries(&[id]).unwrap()[0].mode, Mode::Computer(0));
    assert_eq!(
        store.computers(id).unwrap(),
        vec![Some(Strength::Level(1)), None]
    );
    let found = |seat: Option<u8>, level: Option<u8>| {
        store
            .history_ids(&HistoryFilter {
                computer: Some(ComputerFilter { seat, level }),
                ..HistoryFilter::default()
            })
            .unwrap()
            .len()
    };
    assert_eq!(found(None, None), 1);
    assert_eq!(found(Some(0), Some(1)), 1);
    assert_eq!(found(Some(1), None), 0, "the computer played Red");
    assert_eq!(found(None, Some(2)), 0, "at level 1");

    // The history's filters narrow to it the same way, and its row names the level.
    session(&app).set_show_end_dialog(false);
    press(&app, "Back");
    press(&app, "History");
    let h = app.window().global::<HistoryAdapter>();
    let shown = |mode: i32, side: i32, level: i32| {
        h.set_mode_filter(mode);
        h.set_computer_side_filter(side);
        h.set_level_filter(level);
        h.invoke_filters_changed();
        h.get_total()
    };
    assert_eq!(shown(4, 0, 0), 1);
    assert_eq!(shown(4, 1, 1), 1);
    assert_eq!(shown(4, 2, 0), 0);
    assert_eq!(shown(4, 0, 3), 0);
    assert_eq!(shown(1, 0, 0), 0, "not pass and play");
    assert_eq!(shown(3, 0, 0), 0, "not by correspondence");
    assert_eq!(shown(0, 0, 0), 1);
    let row = one(&app, &format!("Game {}", id.0));
    assert!(row.is_valid());
    let listed = h.get_rows();
    use slint::Model;
    let first = listed.row_data(0).expect("a row");
    assert_eq!((first.mode.as_str(), first.level), ("computer", 1));
}

#[test]
fn leaving_while_it_thinks_keeps_its_move_and_undo_takes_back_both() {
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path(), Language::English, (1280, 800));
    new_game_against_computer(&app, 0, 2);
    assert!(
        !session(&app).get_thinking(),
        "Red, the person, moves first"
    );
    play(&app, &["h3e3"]);
    assert_eq!(stored_actions(dir.path()), vec!["h3e3"], "stored at once");
    assert!(session(&app).get_thinking(), "the computer thinks");
    assert!(
        one(&app, "Black · Computer (level 2) · to move").is_valid(),
        "its seat is the one to move"
    );
    // The screen stays live while it thinks: the board turns over.
    let flipped = app.window().global::<XiangqiAdapter>().get_flipped();
    press(&app, "Flip");
    assert_ne!(
        app.window().global::<XiangqiAdapter>().get_flipped(),
        flipped
    );
    press(&app, "Flip");

    // Left while it thinks: its answer is stored all the same, and shows on return.
    press(&app, "Back");
    assert_eq!(screen(&app), Screen::Home);
    settle(&app);
    assert_eq!(stored_actions(dir.path()).len(), 2, "the answer is stored");
    press(&app, "Continue game 1");
    assert_eq!(screen(&app), Screen::Xiangqi);
    assert_eq!(session(&app).get_to_move(), 0, "the person's turn again");
    assert!(!session(&app).get_thinking());

    // Undo takes back the person's move and the computer's answer.
    assert!(session(&app).get_can_undo());
    press(&app, "Undo");
    assert!(stored_actions(dir.path()).is_empty());
    assert_eq!(session(&app).get_to_move(), 0);

    // Undo while it thinks takes back the person's move; the search's late answer is
    // dropped, and the next move gets an answer of its own.
    play(&app, &["h3e3"]);
    assert!(session(&app).get_thinking());
    press(&app, "Undo");
    assert!(stored_actions(dir.path()).is_empty());
    assert!(!session(&app).get_thinking());
    play(&app, &["b3e3"]);
    settle(&app);
    let stored = stored_actions(dir.path());
    assert_eq!(stored.len(), 2, "{stored:?}");
    assert_eq!(stored[0], "b3e3");
    let game = stored_game(dir.path());
    assert_eq!(
        game.to_act(),
        qiguan_core::ToAct::Seat(qiguan_core::Seat::FIRST)
    );
}

#[test]
fn undo_after_a_declined_draw_offer_takes_back_the_move_with_the_talk() {
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path(), Language::English, (1280, 800));
    new_game_against_computer(&app, 0, 1);
    play(&app, &["h3e3"]);
    settle(&app);
    assert_eq!(stored_actions(dir.path()).len(), 2, "the computer answered");
    // The computer declines the offer at once; the person is to move again.
    press(&app, "Offer draw");
    let stored = stored_actions(dir.path());
    assert_eq!(stored.len(), 4, "{stored:?}");
    assert_eq!(session(&app).get_to_move(), 0);
    // One Undo: the offer, its answer, the computer's move and the person's move are gone,
    // and the board is back at the start.
    press(&app, "Undo");
    assert!(
        stored_actions(dir.path()).is_empty(),
        "{:?}",
        stored_actions(dir.path())
    );
    assert_eq!(session(&app).get_to_move(), 0);
    assert!(session(&app).get_can_offer_draw());
}

#[test]
fn a_hint_points_at_a_legal_move_and_goes_once_a_move_is_made() {
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path(), Language::English, (360, 780));
    new_game_against_computer(&app, 0, 1);
    let x = app.window().global::<XiangqiAdapter>();
    assert!(session(&app).get_can_hint());
    assert_eq!(x.get_hint_from(), -1);
    click(&app, "Hint");
    assert!(session(&app).get_hinting(), "the hint is being worked out");
    assert!(!session(&app).get_can_hint());
    settle(&app);
    let (from, to) = (x.get_hint_from(), x.get_hint_to());
    assert!(from >= 0 && to >= 0, "a move is pointed at");
    let name = |i: i32| format!("{}{}", (b'a' + (i % 9) as u8) as char, i / 9 + 1);
    let hint: Move = format!("{}{}", name(from), name(to)).parse().unwrap();
    let game = stored_game(dir.path());
    assert!(game.game().position().is_legal(hint), "{hint}");
    let label = format!("Hint: {}", x.get_hint_move());
    let shown: Vec<_> = common::all(&app, &label)
        .into_iter()
        .filter(|e| e.size().width > 0.0)
        .collect();
    assert_eq!(
        shown.len(),
        2,
        "the arrow on the board and the line under it"
    );
    assert!(!session(&app).get_can_hint(), "one hint per position");

    // The hinted move is played like any other; the arrow goes.
    play(&app, &[hint.to_string().as_str()]);
    assert_eq!(x.get_hint_from(), -1);
    settle(&app);
    assert_eq!(stored_actions(dir.path()).len(), 2);
    assert!(session(&app).get_can_hint(), "a hint for the new position");
}

#[test]
fn the_review_marks_the_blunder_names_the_better_move_and_stops_when_asked() {
    use qiguan_app::ui::ReplayAdapter;
    use slint::Model;
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path(), Language::English, (360, 780));
    // The central cannon takes a guarded pawn and is lost for it (move 3).
    press(&app, "History");
    let h = app.window().global::<HistoryAdapter>();
    h.set_import_text("1. C2=5 H8+7 2. C5+4 H7+5".into());
    h.invoke_import();
    assert_eq!(screen(&app), Screen::Replay);
    let r = app.window().global::<ReplayAdapter>();
    assert!(!r.get_analysing());
    assert_eq!(r.get_graph(), "", "no graph before a review");

    press(&app, "Analyse");
    assert!(r.get_analysing() && r.get_reviewing());
    until(&app, WAIT, || !r.get_reviewing());
    assert_eq!(r.get_reviewed(), 5, "every position of the game");
    assert!(r.get_graph().starts_with("M 0 1"), "{}", r.get_graph());
    let marks: Vec<(i32, i32)> = r.get_marks().iter().map(|m| (m.ply, m.kind)).collect();
    assert!(marks.contains(&(3, 3)), "move 3 is a blunder: {marks:?}");
    let rows: Vec<_> = r.get_moves().iter().collect();
    assert!(rows[1].first.ends_with("??"), "{}", rows[1].first);

    // At the blunder: the note says so and names the engine's move; the live line deepens
    // on the position shown, with its move on the board.
    press(&app, "Next move");
    press(&app, "Next move");
    press(&app, "Next move");
    assert_eq!(r.get_ply(), 3);
    let note = r.get_note();
    assert_eq!(note.kind, 3, "{note:?}");
    assert!(note.loss >= 350);
    assert!(!note.better.is_empty() && note.better != note.played);
    let shown = format!("{}: a blunder · better: {}", note.played, note.better);
    assert!(!common::all(&app, &shown).is_empty(), "{shown}");
    until(&app, WAIT, || r.get_note().depth >= 2);
    assert!(r.get_best_from() >= 0 && r.get_best_to() >= 0);
    assert!(!r.get_note().pv.is_empty());
    // Its second and third choices too, from the same depth: scored lines in the note, and
    // thinner arrows of moves other than the best.
    until(&app, WAIT, || !r.get_note().third.is_empty());
    let note = r.get_note();
    assert!(
        !note.second.is_empty() && note.lines_short.matches(" · ").count() == 2,
        "{note:?}"
    );
    let arrows: Vec<(i32, i32)> = r
        .get_other_arrows()
        .iter()
        .map(|a| (a.from, a.to))
        .collect();
    assert!(!arrows.is_empty(), "{note:?}");
    assert!(
        !arrows.contains(&(r.get_best_from(), r.get_best_to())),
        "{arrows:?}"
    );

    // Stopped: both searches end; what the review found stays, the live line goes.
    press(&app, "Stop analysis");
    assert!(!r.get_analysing());
    until(&app, WAIT, || app.thinking_in_flight() == 0);
    assert_eq!(r.get_best_from(), -1);
    assert_eq!(
        r.get_other_arrows().row_count(),
        0,
        "analysis off: no arrows"
    );
    assert!(!r.get_graph().is_empty(), "the graph stays");
    let rows: Vec<_> = r.get_moves().iter().collect();
    assert!(rows[1].first.ends_with("??"));
    let graph = r.get_graph();

    // The review is kept with the game (issue 36: reopening ran it again): after a restart
    // the game opens with its graph, marks and judgements, and nothing searches.
    let id = r.get_game_id();
    drop(app);
    let app = start(dir.path(), Language::English, (360, 780));
    app.window().global::<HistoryAdapter>().invoke_open(id);
    assert_eq!(screen(&app), Screen::Replay);
    let r = app.window().global::<ReplayAdapter>();
    assert!(!r.get_analysing() && !r.get_reviewing());
    assert_eq!(app.thinking_in_flight(), 0, "nothing searches");
    assert_eq!(r.get_graph(), graph);
    let marks: Vec<(i32, i32)> = r.get_marks().iter().map(|m| (m.ply, m.kind)).collect();
    assert!(marks.contains(&(3, 3)), "{marks:?}");
    let rows: Vec<_> = r.get_moves().iter().collect();
    assert!(rows[1].first.ends_with("??"), "{}", rows[1].first);
    // Analysis on again: only the live line searches; the review has every position.
    press(&app, "Analyse");
    assert!(r.get_analysing() && !r.get_reviewing());
    assert_eq!(r.get_reviewed(), 5);
}
