//! Junqi through the app: the hand-over screen hides everything until the tap, a seat never
//! sees the other's hidden pieces, deployment swaps and saved layouts, battles, the computer
//! opponent in flip mode, every action stored before it shows, and the review of a finished
//! game with every piece shown.
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;

use common::{
    all, deployment, jq_tap, news, one, point, press, result_code, start, stored_actions,
};
use qiguan_app::App;
use qiguan_app::settings::Language;
use qiguan_app::store::Store;
use qiguan_app::ui::{Battle, BattleLedger, GamePhase, GameSession};
use qiguan_app::ui::{HomeAdapter, JunqiAdapter, JunqiMode, NewGameAdapter};
use slint::{ComponentHandle, Model};
use std::path::Path;

const PIECES: [&str; 12] = [
    "司令", "军长", "师长", "旅长", "团长", "营长", "连长", "排长", "工兵", "炸弹", "地雷", "军旗",
];

fn all_points() -> Vec<String> {
    (0..12)
        .flat_map(|row| (0..5).map(move |c| format!("{}{row}", (b'a' + c) as char)))
        .collect()
}

/// What each point's description names: piece names by colour.
fn seen(app: &App) -> Vec<(String, String)> {
    all_points()
        .into_iter()
        .map(|p| {
            let d = point(app, &p);
            (p, d)
        })
        .filter(|(_, d)| !d.is_empty())
        .collect()
}

fn names_of(app: &App, colour: &str) -> Vec<String> {
    seen(app)
        .into_iter()
        .filter(|(_, d)| d.starts_with(colour))
        .map(|(_, d)| d)
        .collect()
}

fn new_junqi(app: &App, mode: i32, computer: bool) {
    let ui = app.window();
    ui.global::<HomeAdapter>().invoke_new_game("junqi".into());
    let ng = ui.global::<NewGameAdapter>();
    assert_eq!(ng.get_game_index(), 1);
    app.window()
        .global::<qiguan_app::ui::JunqiRules>()
        .set_mode(mode);
    ng.set_opponent(i32::from(computer));
    ng.set_human_seat(0);
    // The first computer, which answers at once (the others think on a thread: see
    // `the_hard_computer_thinks_apart_and_the_history_names_it`).
    ng.set_strength(0);
    ng.invoke_start();
}

#[test]
fn referee_pass_and_play_hides_each_seat_from_the_other() {
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path(), Language::English, (1280, 800));
    new_junqi(&app, 0, false);
    arrange_red(&app, dir.path());
    both_deploy_behind_the_hand_over(&app, dir.path());
    red_attacks_and_blue_learns_only_what_it_may(&app, dir.path());
    blue_resigns_and_the_review_shows_everything(&app);

    // Reopened from the history, the game shows the same result.
    drop(app);
    let app = start(dir.path(), Language::English, (360, 780));
    let store = Store::open_dir(dir.path()).unwrap();
    let rows = store.history_ids(&Default::default()).unwrap();
    assert_eq!(rows.len(), 1);
    app.window()
        .global::<qiguan_app::ui::HistoryAdapter>()
        .invoke_open(rows[0].0 as i32);
    let gs = app.window().global::<GameSession>();
    assert_eq!(gs.get_phase(), GamePhase::Over);
    assert_eq!(
        names_of(&app, "Blue").len(),
        24,
        "Blue lost its captain on e6"
    );
}

/// Red's deployment: swaps, a layout that breaks a rule, saved layouts.
fn arrange_red(app: &App, dir: &Path) {
    let j = app.window().global::<JunqiAdapter>();
    let gs = app.window().global::<GameSession>();

    // The hand-over screen first: nothing of the board shows.
    assert_eq!(gs.get_phase(), GamePhase::Handover);
    assert!(seen(app).is_empty(), "{:?}", seen(app));
    gs.invoke_handover_done();
    assert_eq!(gs.get_phase(), GamePhase::Deploy);
    assert_eq!(names_of(app, "Red").len(), 25);
    assert!(names_of(app, "Blue").is_empty());

    // Tap two pieces to swap them: the engineer on c5 and the major on e5 (steady defence).
    let before = (point(app, "c5"), point(app, "e5"));
    jq_tap(app, &["c5"]);
    assert!(point(app, "c5").contains("selected"));
    jq_tap(app, &["e5"]);
    assert_eq!(point(app, "c5"), before.1);
    assert_eq!(point(app, "e5"), before.0);
    jq_tap(app, &["c5", "e5"]); // and back
    // A swap that breaks a rule is reported, and Ready waits.
    jq_tap(app, &["b0", "b5"]); // the flag to the front row
    assert!(
        deployment(app)
            .get_issues()
            .iter()
            .any(|i| i.code == "flag" && i.at == "b5")
    );
    // The words name no square: the piece is marked on the board instead.
    assert!(one(app, "The flag must stand in a headquarters").is_valid());
    assert!(point(app, "b5").ends_with("marked"), "{}", point(app, "b5"));
    deployment(app).invoke_ready();
    assert!(stored_actions(dir).is_empty(), "a bad layout is not sent");
    jq_tap(app, &["b0", "b5"]);
    assert_eq!(deployment(app).get_issues().row_count(), 0);
    assert!(!point(app, "b5").contains("marked"));

    // A layout can be saved under a name and loaded again.
    j.set_layout_name("My wall".into());
    j.invoke_save_layout();
    assert_eq!(
        j.get_saved_layouts().iter().collect::<Vec<_>>(),
        vec![slint::SharedString::from("My wall")]
    );
    let saved = point(app, "a5");
    deployment(app).invoke_random();
    j.invoke_load_layout(0);
    assert_eq!(point(app, "a5"), saved);
    j.set_layout_name("Spare".into());
    j.invoke_save_layout();
    assert_eq!(j.get_saved_layouts().row_count(), 2);
    j.invoke_delete_layout(1); // "Spare" sorts after "My wall"
    assert_eq!(
        j.get_saved_layouts().iter().collect::<Vec<_>>(),
        vec![slint::SharedString::from("My wall")]
    );
}

fn both_deploy_behind_the_hand_over(app: &App, dir: &Path) {
    let gs = app.window().global::<GameSession>();

    deployment(app).invoke_ready();
    assert_eq!(stored_actions(dir).len(), 1, "stored before it shows");
    assert_eq!(gs.get_phase(), GamePhase::Handover);
    assert!(seen(app).is_empty());
    assert_eq!(gs.get_viewer(), 1);
    gs.invoke_handover_done();
    assert_eq!(gs.get_phase(), GamePhase::Deploy);
    assert!(
        names_of(app, "Red").is_empty(),
        "Blue never sees Red's layout"
    );
    deployment(app).invoke_ready();
    assert_eq!(gs.get_phase(), GamePhase::Handover);
    gs.invoke_handover_done();
}

fn red_attacks_and_blue_learns_only_what_it_may(app: &App, dir: &Path) {
    let gs = app.window().global::<GameSession>();
    // Red plays: its major on e5 takes Blue's captain on e6.
    assert_eq!(gs.get_phase(), GamePhase::Play);
    assert_eq!(gs.get_to_move(), 0);
    for d in names_of(app, "Blue") {
        assert!(d.contains("unknown piece"), "Red sees {d}");
    }
    jq_tap(app, &["e5"]);
    assert!(point(app, "e6").contains("legal move"));
    jq_tap(app, &["e6"]);
    let actions = stored_actions(dir);
    assert_eq!(actions.len(), 3);
    assert_eq!(actions[2], "e5e6");
    assert_eq!(gs.get_phase(), GamePhase::Handover);
    assert!(seen(app).is_empty());
    // Red learns how its attack ended before it passes the device; the card names no piece.
    assert!(one(app, "The attacker won").is_valid());
    assert!(all(app, "营长").is_empty() && all(app, "连长").is_empty());
    gs.invoke_handover_done();
    assert_eq!(gs.get_viewer(), 1);
    let banner = news(app).pop().expect("news of the battle");
    assert_eq!(banner.battle, Battle::Won);
    assert_eq!(banner.at, "e6");
    assert_eq!(banner.attacker, "?", "Blue does not learn what attacked");
    assert_eq!(banner.defender, "连长");
    assert!(one(app, "The attacker won").is_valid(), "beside the board");
    // The battle panel beside the board: Blue lost its captain and knows what it has left;
    // of Red it knows only that nothing of Red's fell.
    let lines: Vec<_> = app
        .window()
        .global::<BattleLedger>()
        .get_lines()
        .iter()
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!((lines[0].seat, lines[0].colour), (1, 1), "the viewer first");
    let lost: Vec<String> = lines[0].lost.iter().map(|n| n.to_string()).collect();
    assert_eq!(lost, ["连长"]);
    let left: Vec<String> = lines[0].left.iter().map(|n| n.to_string()).collect();
    assert!(left.contains(&"连长×2".to_string()), "{left:?}");
    assert!(left.contains(&"司令".to_string()), "{left:?}");
    assert_eq!(lines[0].left_count, 24);
    assert_eq!(
        (
            lines[1].lost.row_count(),
            lines[1].left.row_count(),
            lines[1].left_count
        ),
        (0, 0, 25)
    );
    assert!(one(app, "Blue · Lost 1 · 24 left").is_valid());
    let red = names_of(app, "Red");
    assert_eq!(red.len(), 25);
    assert!(red.iter().all(|d| d.contains("unknown piece")), "{red:?}");
    assert!(point(app, "e6").starts_with("Red unknown piece"));
    for piece in PIECES {
        assert!(
            !red.iter().any(|d| d.contains(piece)),
            "Blue's view names a red {piece}"
        );
    }
}

fn blue_resigns_and_the_review_shows_everything(app: &App) {
    let gs = app.window().global::<GameSession>();
    // Blue resigns: the game is over and its review shows everything.
    gs.invoke_resign();
    assert!(gs.get_show_end_dialog());
    assert_eq!(result_code(&gs.get_outcome()), "win:0");
    assert_eq!(gs.get_phase(), GamePhase::Over);
    gs.invoke_review();
    assert_eq!(gs.get_phase(), GamePhase::Review);
    assert_eq!(gs.get_review_ply(), 4);
    let red = names_of(app, "Red");
    assert_eq!(red.len(), 25);
    assert!(red.iter().all(|d| !d.contains("unknown")), "{red:?}");
    gs.invoke_review_step(-1);
    gs.invoke_review_step(-1);
    assert_eq!(gs.get_review_ply(), 2);
    assert!(point(app, "e6").contains("连长"), "before the battle");
    gs.invoke_review_step(-1);
    assert_eq!(
        names_of(app, "Red").len(),
        25,
        "Red's deployment, made first"
    );
    assert!(names_of(app, "Blue").is_empty());
}

#[test]
fn flip_mode_against_the_computer_needs_no_hand_over() {
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path(), Language::English, (360, 780));
    let j = app.window().global::<JunqiAdapter>();
    let gs = app.window().global::<GameSession>();
    new_junqi(&app, 2, true);
    assert_eq!(gs.get_phase(), GamePhase::Play);
    assert_eq!(j.get_mode(), JunqiMode::Flip);
    let actions = stored_actions(dir.path());
    assert_eq!(actions.len(), 1);
    assert!(actions[0].starts_with("deal:"), "this device dealt");
    let face_down = seen(&app)
        .iter()
        .filter(|(_, d)| d.starts_with("face down"))
        .count();
    assert_eq!(face_down, 50);
    assert_eq!(
        gs.get_seat_colours().iter().collect::<Vec<_>>(),
        vec![-1, -1]
    );

    jq_tap(&app, &["c5"]);
    let actions = stored_actions(dir.path());
    assert_eq!(actions.len(), 3, "{actions:?}");
    assert_eq!(actions[1], "flip:c5");
    assert_eq!(
        gs.get_phase(),
        GamePhase::Play,
        "no hand-over against the computer"
    );
    assert_eq!(gs.get_to_move(), 0);
    let colours: Vec<i32> = gs.get_seat_colours().iter().collect();
    assert!(
        colours[0] >= 0 && colours[1] == 1 - colours[0],
        "{colours:?}"
    );
    assert!(!point(&app, "c5").starts_with("face down"));
    // Keep turning pieces up; the computer answers each time.
    for p in ["a0", "a2", "a3", "a5", "a6", "a8", "a9", "a11"] {
        if point(&app, p).starts_with("face down") && gs.get_to_move() == 0 {
            jq_tap(&app, &[p]);
        }
    }
    let n = stored_actions(dir.path()).len();
    assert!(n >= 9, "{n} actions");
    assert_eq!(gs.get_to_move(), 0);
}

#[test]
fn a_draw_offer_passes_with_the_device_and_the_computer_answers_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path(), Language::English, (360, 780));
    let gs = app.window().global::<GameSession>();

    // Pass and play: Red offers and moves on; after the hand-over Blue may accept.
    new_junqi(&app, 1, false);
    gs.invoke_handover_done();
    deployment(&app).invoke_ready();
    gs.invoke_handover_done();
    deployment(&app).invoke_ready();
    assert_eq!(
        gs.get_phase(),
        GamePhase::Play,
        "open mode: no hand-over once deployed"
    );
    assert!(gs.get_can_offer_draw());
    gs.invoke_offer_draw();
    assert_eq!(gs.get_draw_offered_by(), 0);
    assert!(!gs.get_can_offer_draw(), "one offer at a time");
    assert!(!gs.get_can_answer_draw(), "not one's own");
    jq_tap(&app, &["e5", "e6"]);
    assert_eq!(gs.get_viewer(), 1);
    assert_eq!(
        gs.get_draw_offered_by(),
        0,
        "the offer stands after the offerer moves"
    );
    assert!(gs.get_can_answer_draw());
    gs.invoke_answer_draw(true);
    assert_eq!(gs.get_phase(), GamePhase::Over);
    assert_eq!(result_code(&gs.get_outcome()), "draw");
    assert_eq!(gs.get_outcome().reason, "draw-agreed");
    let actions = stored_actions(dir.path());
    assert_eq!(&actions[2..], ["offer-draw", "e5e6", "accept-draw"]);
    gs.set_show_end_dialog(false);
    app.window().global::<qiguan_app::ui::Nav>().invoke_back();

    // Against the computer, level on material: it declines at once, and the offer may be
    // made again only after another move.
    new_junqi(&app, 0, true);
    deployment(&app).invoke_ready();
    assert_eq!(gs.get_phase(), GamePhase::Play);
    gs.invoke_offer_draw();
    assert_eq!(gs.get_draw_offered_by(), -1);
    assert!(!gs.get_can_offer_draw());
    let actions = stored_actions(dir.path());
    assert_eq!(actions.last().map(String::as_str), Some("decline-draw"));
    assert_eq!(gs.get_phase(), GamePhase::Play);
}

#[test]
fn an_attack_on_the_computer_is_told_even_after_its_reply() {
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path(), Language::English, (360, 780));
    let gs = app.window().global::<GameSession>();
    new_junqi(&app, 0, true);
    assert_eq!(gs.get_phase(), GamePhase::Deploy);
    deployment(&app).invoke_ready();
    assert_eq!(gs.get_phase(), GamePhase::Play);
    assert_eq!(gs.get_to_move(), 0);
    // A refused move says why, beside the board, until the next tap.
    jq_tap(&app, &["e5", "e7"]);
    assert!(one(&app, "A piece stands in the way on the railway.").is_valid());
    assert_eq!(gs.get_refusal(), "rail-blocked");
    // Red's major on e5 attacks whatever the computer put on e6 (every post but the camps
    // holds a piece); the computer answers at once.
    jq_tap(&app, &["e5", "e6"]);
    assert_eq!(gs.get_refusal(), "");
    let actions = stored_actions(dir.path());
    assert_eq!(actions[2], "e5e6");
    assert_eq!(actions.len(), 4, "the computer answered: {actions:?}");
    // The computer's reply slides into place when it was a move or an attack it won.
    let motion = app.window().global::<qiguan_app::ui::Motion>();
    let reply: qiguan_core::junqi::Move = actions[3].parse().unwrap();
    if motion.get_active() {
        assert_eq!(
            (motion.get_from(), motion.get_to()),
            (reply.from.index() as i32, reply.to.index() as i32)
        );
        assert!(motion.get_progress() < 1.0);
        // Past its length the slide is done; the board's clock then ends it at its next tick.
        i_slint_backend_testing::mock_elapsed_time(std::time::Duration::from_millis(300));
        assert_eq!(motion.get_progress(), 1.0);
        i_slint_backend_testing::mock_elapsed_time(std::time::Duration::from_millis(20));
    }
    assert!(!motion.get_active() && motion.get_progress() == 1.0);
    let news = news(&app);
    assert!(!news.is_empty() && news.len() <= 2, "{news:?}");
    assert_eq!(news[0].at, "e6", "Red's own attack comes first: {news:?}");
    assert_eq!(news[0].attacker, "营长", "Red knows its own piece");
    assert_ne!(news[0].battle, Battle::NothingToShow);
    // Shown beside the board while Red plays on.
    assert_eq!(gs.get_phase(), GamePhase::Play);
    let said = match news[0].battle {
        Battle::Won => "The attacker won",
        Battle::Lost => "The attacker was removed",
        Battle::Both => "Both pieces removed",
        Battle::Flag => "The flag is taken!",
        other => panic!("{other:?}"),
    };
    assert!(!all(&app, said).is_empty(), "{said} is on screen");
    // Beside the board, never over it: on a phone, under it.
    let board = one(&app, "Board");
    let bottom = board.absolute_position().y + board.size().height;
    for text in all(&app, said) {
        assert!(
            text.absolute_position().y >= bottom - 0.5,
            "the news covers the board"
        );
    }

    // The battle panel, on a phone behind the Losses button: Red's own losses by name and
    // what it has left, the computer's losses only as "?" (referee mode) and its count.
    let ledger = app.window().global::<BattleLedger>();
    let lines: Vec<_> = ledger.get_lines().iter().collect();
    assert_eq!(lines.len(), 2);
    let (red, blue) = (&lines[0], &lines[1]);
    assert_eq!(
        (red.seat, red.colour, blue.seat),
        (0, 0, 1),
        "the viewer's side first"
    );
    let red_lost: Vec<String> = red.lost.iter().map(|n| n.to_string()).collect();
    let blue_lost: Vec<String> = blue.lost.iter().map(|n| n.to_string()).collect();
    let removed = |attacker: bool| match news[0].battle {
        Battle::Both => true,
        Battle::Won | Battle::Flag => !attacker,
        _ => attacker,
    };
    if removed(true) {
        assert!(red_lost.contains(&"营长".to_string()), "{red_lost:?}");
    }
    assert!(
        red_lost.iter().all(|n| n != "?"),
        "Red knows its own: {red_lost:?}"
    );
    assert!(
        blue_lost.iter().all(|n| n == "?"),
        "referee mode: {blue_lost:?}"
    );
    if removed(false) {
        assert!(
            !blue_lost.is_empty(),
            "Red's attack removed a piece of the computer's"
        );
    }
    assert_eq!(red.left_count as usize, 25 - red_lost.len());
    assert_eq!(blue.left_count as usize, 25 - blue_lost.len());
    assert!(red.left.row_count() > 0, "Red's own pieces left are known");
    assert_eq!(blue.left.row_count(), 0, "the computer's are not");
    assert!(!ledger.get_show());
    press(&app, "Losses");
    assert!(ledger.get_show());
    assert!(
        one(
            &app,
            &format!("Red · Lost {} · {} left", red_lost.len(), red.left_count)
        )
        .is_valid()
    );
    press(&app, "Close");
    assert!(!ledger.get_show());

    // Home's Continue card says whose move it is to the player (Red, the player's seat, is
    // to move): "Your move", not "Red to move" nor "first player".
    app.window().global::<qiguan_app::ui::Nav>().invoke_back();
    assert!(!all(&app, "Your move").is_empty());
    assert!(all(&app, "Red to move").is_empty());
    assert!(all(&app, "First player to move").is_empty());
}

#[test]
fn the_hard_computer_thinks_apart_and_the_history_names_it() {
    use common::until;
    use std::time::Duration;
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path(), Language::English, (360, 780));
    let ui = app.window();
    let gs = ui.global::<GameSession>();
    ui.global::<HomeAdapter>().invoke_new_game("junqi".into());
    press(&app, "The computer");
    let ng = ui.global::<NewGameAdapter>();
    assert_eq!(ng.get_strength(), 1, "normal unless chosen");
    assert!(!all(&app, "COMPUTER STRENGTH").is_empty());
    press(&app, "Hard");
    assert_eq!(ng.get_strength(), 2);
    ng.set_human_seat(0);
    // (The start button lies below the fold at phone size, past the house rules.)
    ng.invoke_start();
    // Blue deploys on its thread while Red arranges.
    until(&app, Duration::from_secs(30), || {
        app.thinking_in_flight() == 0
    });
    assert_eq!(gs.get_phase(), GamePhase::Deploy);
    assert!(!all(&app, "Blue · Computer (hard)").is_empty());
    deployment(&app).invoke_ready();
    assert_eq!(gs.get_phase(), GamePhase::Play);
    for _ in 0..3 {
        if gs.get_phase() != GamePhase::Play {
            break;
        }
        let before = stored_actions(dir.path()).len();
        let legal = red_move(&app);
        jq_tap(&app, &[&legal.0, &legal.1]);
        assert_eq!(
            stored_actions(dir.path()).len(),
            before + 1,
            "Red's move stored at once"
        );
        until(&app, Duration::from_secs(30), || {
            app.thinking_in_flight() == 0
        });
        let after = stored_actions(dir.path());
        if gs.get_phase() == GamePhase::Play {
            assert_eq!(after.len(), before + 2, "the computer answered: {after:?}");
        }
    }
    // The history names the computer's strength.
    ui.global::<qiguan_app::ui::Nav>().invoke_back();
    press(&app, "History");
    let h = ui.global::<qiguan_app::ui::HistoryAdapter>();
    let first = h.get_rows().row_data(0).expect("a row");
    assert_eq!(
        (first.mode.as_str(), first.strength.as_str()),
        ("computer", "hard")
    );
}

/// A legal move for Red from what Red sees: a piece of its own next to an empty point.
fn red_move(app: &App) -> (String, String) {
    let seen = seen(app);
    let occupied = |p: &str| seen.iter().any(|(q, _)| q == p);
    for (from, d) in &seen {
        if !d.starts_with("Red") || ["地雷", "军旗"].iter().any(|r| d.contains(r)) {
            continue;
        }
        let p: qiguan_core::junqi::Point = from.parse().unwrap();
        if p.is_headquarters() {
            continue;
        }
        for link in qiguan_core::junqi::graph().links(p.index()) {
            let to = qiguan_core::junqi::Point::from_index(link.to).unwrap();
            if !occupied(&to.to_string()) {
                return (from.clone(), to.to_string());
            }
        }
    }
    panic!("Red has no quiet move: {seen:?}");
}
