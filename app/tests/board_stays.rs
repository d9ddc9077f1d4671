//! The board stays where it is: across a turn, a hint, a battle's news and the review's
//! analysis its place and size do not change, at phone and desktop size (issue 36: a tap meant
//! for a piece landed elsewhere as the opponent's move arrived).

mod common;

use common::{deployment, jq_tap, play, start, until};
use qiguan_app::App;
use qiguan_app::settings::Language;
use qiguan_app::ui::{
    GameSession, HistoryAdapter, HomeAdapter, Nav, NewGameAdapter, OnlineAdapter, ReplayAdapter,
    XiangqiAdapter,
};
use slint::{ComponentHandle, Model};
use std::time::Duration;

const SIZES: [(u32, u32); 2] = [(360, 780), (1280, 800)];

/// A place and size on screen: x, y, width, height.
type Place = (i32, i32, i32, i32);

/// The board's place and size on screen (its drawn area is placed within it by its size).
fn board(app: &App) -> Place {
    let boards: Vec<_> = common::all(app, "Board")
        .into_iter()
        .filter(|e| e.size().width > 0.0)
        .collect();
    assert_eq!(boards.len(), 1, "one board on screen");
    let (p, s) = (boards[0].absolute_position(), boards[0].size());
    (
        p.x.round() as i32,
        p.y.round() as i32,
        s.width.round() as i32,
        s.height.round() as i32,
    )
}

/// Checks that every moment saw the board where the first did.
fn same(what: &str, size: (u32, u32), seen: &[(&str, Place)]) {
    let first = seen[0].1;
    let moved: Vec<_> = seen.iter().filter(|(_, b)| *b != first).collect();
    assert!(
        moved.is_empty(),
        "{what} at {size:?}: the board was at {first:?} {}, then {moved:?}",
        seen[0].0
    );
}

#[test]
fn xiangqi_against_the_computer_a_turn_and_a_hint() {
    for size in SIZES {
        let dir = tempfile::tempdir().unwrap();
        let app = start(dir.path(), Language::English, size);
        let ui = app.window();
        ui.global::<HomeAdapter>().invoke_new_game("xiangqi".into());
        let ng = ui.global::<NewGameAdapter>();
        ng.set_opponent(1);
        ng.set_human_seat(0);
        ng.set_level(1);
        ng.invoke_start();
        let mut buttons = Vec::new();
        let mut place = |what: &'static str| {
            let mut at = std::collections::BTreeMap::new();
            for label in ["Offer draw", "Resign"] {
                let e = common::one(&app, label);
                let p = e.absolute_position();
                at.insert(label, (p.x.round() as i32, p.y.round() as i32));
            }
            buttons.push((what, at));
        };
        place("start");
        let mut seen = vec![("start", board(&app))];
        play(&app, &["h3e3"]);
        seen.push(("my move", board(&app)));
        until(&app, Duration::from_secs(60), || {
            app.thinking_in_flight() == 0 && ui.global::<GameSession>().get_to_move() == 0
        });
        seen.push(("its answer", board(&app)));
        place("its answer");
        let session = ui.global::<GameSession>();
        session.invoke_hint();
        seen.push(("asking for a hint", board(&app)));
        until(&app, Duration::from_secs(60), || {
            ui.global::<XiangqiAdapter>().get_hint_from() >= 0
        });
        seen.push(("the hint", board(&app)));
        place("the hint");
        same("Xiangqi", size, &seen);
        // And the buttons under the finger: Offer draw and Resign stayed where they were
        // (Hint used to vanish once used, Undo to appear after the first move).
        for label in ["Offer draw", "Resign"] {
            let at: Vec<_> = buttons.iter().map(|(_, b)| b[label]).collect();
            assert!(
                at.windows(2).all(|w| w[0] == w[1]),
                "{label} moved at {size:?}: {buttons:?}"
            );
        }
    }
}

#[test]
fn junqi_a_battle_and_the_next_turn() {
    for size in SIZES {
        let dir = tempfile::tempdir().unwrap();
        let app = start(dir.path(), Language::English, size);
        let ui = app.window();
        ui.global::<HomeAdapter>().invoke_new_game("junqi".into());
        ui.global::<qiguan_app::ui::JunqiRules>().set_mode(0);
        let ng = ui.global::<NewGameAdapter>();
        ng.set_opponent(0);
        ng.invoke_start();
        let gs = ui.global::<GameSession>();
        gs.invoke_handover_done();
        deployment(&app).invoke_ready();
        gs.invoke_handover_done();
        deployment(&app).invoke_ready();
        gs.invoke_handover_done();
        let mut seen = vec![("first move", board(&app))];
        // Red's major takes Blue's captain: a battle.
        jq_tap(&app, &["e5", "e6"]);
        gs.invoke_handover_done();
        seen.push(("after the battle", board(&app)));
        jq_tap(&app, &["d6", "d5"]);
        gs.invoke_handover_done();
        seen.push(("the next turn", board(&app)));
        same("Junqi", size, &seen);
    }
}

#[test]
fn xiangqi_by_correspondence_my_turn_and_theirs() {
    for size in SIZES {
        let dir = tempfile::tempdir().unwrap();
        let url = common::server(dir.path());
        let app = start(&dir.path().join("red"), Language::English, size);
        let ui = app.window();
        common::use_server(&app, &url);
        ui.global::<HomeAdapter>().invoke_online();
        let online = ui.global::<OnlineAdapter>();
        online.invoke_create();
        until(&app, Duration::from_secs(10), || {
            !online.get_invite().is_empty()
        });
        let code = online.get_invite().to_string();
        let id = online.get_games().row_data(0).expect("listed").id;
        let rt = tokio::runtime::Runtime::new().unwrap();
        let opp = tempfile::tempdir().unwrap();
        let mut black = qiguan_app::sync::Correspondence::open(opp.path()).unwrap();
        let theirs = rt.block_on(black.join(&url, &code, "Bo")).unwrap();
        online.invoke_open(id);
        until(&app, Duration::from_secs(10), || {
            ui.global::<GameSession>().get_names().row_data(1) == Some("Bo".into())
        });
        let mut seen = vec![("my turn", board(&app))];
        play(&app, &["h3e3"]);
        until(&app, Duration::from_secs(10), || {
            ui.global::<GameSession>().get_waiting() == qiguan_app::ui::Waiting::Turn
        });
        seen.push(("waiting for Bo", board(&app)));
        rt.block_on(black.refresh(theirs)).unwrap();
        black.play(theirs, "h10g8").unwrap();
        rt.block_on(black.flush()).unwrap();
        until(&app, Duration::from_secs(10), || {
            ui.global::<GameSession>().get_to_move() == 0
        });
        seen.push(("my turn again", board(&app)));
        // Bo offers a draw: its Accept / Decline come beside the board, not over its place.
        black.play(theirs, "offer-draw").unwrap();
        rt.block_on(black.flush()).unwrap();
        until(&app, Duration::from_secs(10), || {
            ui.global::<GameSession>().get_draw_offered_by() == 1
        });
        seen.push(("Bo offers a draw", board(&app)));
        ui.global::<GameSession>().invoke_answer_draw(false);
        seen.push(("declined", board(&app)));
        same("Xiangqi by correspondence", size, &seen);
    }
}

#[test]
fn the_reviews_analysis_leaves_the_board_in_place() {
    for size in SIZES {
        let dir = tempfile::tempdir().unwrap();
        let app = start(dir.path(), Language::English, size);
        let ui = app.window();
        ui.global::<HomeAdapter>().invoke_new_game("xiangqi".into());
        ui.global::<NewGameAdapter>().invoke_start();
        // A finished game (mate) opens in the replay.
        play(&app, &["b3b5", "a7a6", "b5c5", "f10e9", "c5c10"]);
        ui.global::<GameSession>().set_show_end_dialog(false);
        ui.global::<Nav>().invoke_back();
        ui.global::<HomeAdapter>().invoke_history();
        let id = ui
            .global::<HistoryAdapter>()
            .get_rows()
            .row_data(0)
            .expect("listed")
            .id;
        ui.global::<HistoryAdapter>().invoke_open(id);
        assert_eq!(
            ui.global::<Nav>().get_screen(),
            qiguan_app::ui::Screen::Replay
        );
        let r = ui.global::<ReplayAdapter>();
        r.invoke_go_to(2);
        let mut seen = vec![("the replay", board(&app))];
        r.invoke_analyse(true);
        until(&app, Duration::from_secs(120), || r.get_note().depth >= 1);
        seen.push(("the analysis", board(&app)));
        r.invoke_go_to(3);
        seen.push(("the next move analysed", board(&app)));
        r.invoke_analyse(false);
        until(&app, Duration::from_secs(60), || {
            app.thinking_in_flight() == 0
        });
        seen.push(("analysis stopped", board(&app)));
        same("The review", size, &seen);
    }
}

/// Two people on one device: a draw offered, then declined. The board keeps its place and
/// size, and the offer's words fit where they are said (the play-through found them cut off
/// in a squeezed box beside the buttons).
#[test]
fn xiangqi_pass_and_play_a_draw_offered_and_declined() {
    for size in SIZES {
        let dir = tempfile::tempdir().unwrap();
        let app = start(dir.path(), Language::English, size);
        let ui = app.window();
        ui.global::<HomeAdapter>().invoke_new_game("xiangqi".into());
        ui.global::<NewGameAdapter>().invoke_start();
        play(&app, &["h3e3"]);
        let cut = || common::texts_not_fitting(&app);
        let gs = ui.global::<GameSession>();
        let mut seen = vec![("Black to move", board(&app))];
        // Black, to move, offers; Red answers no; Black hears of it until it moves.
        common::press(&app, "Offer draw");
        assert!(common::one(&app, "Black offers a draw.").is_valid());
        assert_eq!(cut(), Vec::<String>::new(), "{size:?}");
        seen.push(("Black offers a draw", board(&app)));
        gs.invoke_answer_draw(false);
        assert!(common::one(&app, "Red declined your draw offer.").is_valid());
        assert_eq!(cut(), Vec::<String>::new(), "{size:?}");
        seen.push(("Red declined", board(&app)));
        play(&app, &["h10g8"]);
        assert!(common::all(&app, "Red declined your draw offer.").is_empty());
        seen.push(("Black moved on", board(&app)));
        same("Xiangqi pass and play", size, &seen);
    }
}
