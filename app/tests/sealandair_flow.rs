//! Sea-land-air through the app: the hand-over screen hides everything until the tap, a seat
//! never sees the other's hidden pieces, deployment swaps within land, sea and air, the flag
//! kept in the city, every action stored before it shows, a game against the computer to its
//! end, its review with every piece shown, and the game reopened from history.
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;

use common::{
    deployment, flag_misplaced, latest_game, news, point, sla_drive, sla_tap, start, stored_actions,
};
use qiguan_app::App;
use qiguan_app::settings::Language;
use qiguan_app::ui::{Battle, HomeAdapter, NewGameAdapter, SeaLandAirAdapter, SeaLandAirRules};
use qiguan_app::ui::{GamePhase, GameSession, ResultKind};
use qiguan_core::sealandair::Point;
use slint::{ComponentHandle, Model};
use std::path::Path;

fn all_points() -> Vec<String> {
    (0..99)
        .map(|i| Point::from_index(i).unwrap().to_string())
        .collect()
}

/// What each point's description names, for the points with a piece.
fn seen(app: &App) -> Vec<(String, String)> {
    all_points()
        .into_iter()
        .map(|p| {
            let d = point(app, &p);
            (p, d)
        })
        .filter(|(_, d)| d.starts_with("Red") || d.starts_with("Blue"))
        .collect()
}

fn count(app: &App, prefix: &str) -> usize {
    seen(app)
        .iter()
        .filter(|(_, d)| d.starts_with(prefix))
        .count()
}

fn new_game(app: &App, computer: bool) {
    let ui = app.window();
    ui.global::<HomeAdapter>()
        .invoke_new_game("sea-land-air".into());
    let ng = ui.global::<NewGameAdapter>();
    assert_eq!(ng.get_game_index(), 3);
    ng.set_opponent(i32::from(computer));
    ng.set_strength(0); // the first computer, which answers at once
    ng.set_human_seat(0);
    ng.invoke_start();
}

#[test]
fn pass_and_play_hides_each_seat_from_the_other() {
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path(), Language::English, (1280, 800));
    let gs = app.window().global::<GameSession>();
    new_game(&app, false);

    assert_eq!(gs.get_phase(), GamePhase::Handover);
    assert!(seen(&app).is_empty(), "{:?}", seen(&app));
    gs.invoke_handover_done();
    assert_eq!(gs.get_phase(), GamePhase::Deploy);
    assert_eq!(count(&app, "Red"), 37);
    assert_eq!(count(&app, "Blue"), 0);
    arrange_red(&app, dir.path());

    // Blue deploys behind its own hand-over, seeing nothing of Red.
    assert_eq!(gs.get_phase(), GamePhase::Handover);
    gs.invoke_handover_done();
    assert_eq!(count(&app, "Blue"), 37);
    assert_eq!(count(&app, "Red"), 0);
    deployment(&app).invoke_ready();
    assert_eq!(gs.get_phase(), GamePhase::Handover);
    gs.invoke_handover_done();
    each_seat_sees_only_its_own(&app, dir.path());
}

/// Red's deployment: swaps within a kind of place, a flag out of the city refused, then sent.
fn arrange_red(app: &App, dir: &Path) {
    // Land swaps with land.
    let before = (point(app, "c3"), point(app, "a1"));
    sla_tap(app, &["c3"]);
    assert!(point(app, "c3").contains("selected"));
    sla_tap(app, &["a1"]);
    assert_eq!((point(app, "c3"), point(app, "a1")), (before.1, before.0));
    // A land piece and a ship do not swap: the ship is picked up instead.
    let ship = point(app, "f2");
    sla_tap(app, &["c3", "f2"]);
    assert_eq!(point(app, "f2").replace(" · selected", ""), ship);
    assert!(point(app, "f2").contains("selected"));
    sla_tap(app, &["f2"]);
    // The flag out of the city is reported, and Ready waits.
    let flag = ["b0", "c0", "d0"]
        .into_iter()
        .find(|p| point(app, p).contains("军旗"))
        .unwrap();
    sla_tap(app, &[flag, "c4"]);
    assert_eq!(flag_misplaced(app), "c4");
    deployment(app).invoke_ready();
    assert!(stored_actions(dir).is_empty(), "a bad layout is not sent");
    sla_tap(app, &[flag, "c4"]);
    assert_eq!(flag_misplaced(app), "");
    deployment(app).invoke_ready();
    assert_eq!(stored_actions(dir).len(), 1, "stored before it shows");
}

/// Red to move sees every Blue piece as unknown; after its move and the hand-over, Blue sees
/// Red's the same way.
fn each_seat_sees_only_its_own(app: &App, dir: &Path) {
    let gs = app.window().global::<GameSession>();
    // Red to move: every Blue piece is unknown to Red.
    assert_eq!(gs.get_viewer(), 0);
    assert_eq!(count(app, "Red"), 37);
    let blue: Vec<String> = seen(app)
        .into_iter()
        .filter(|(_, d)| d.starts_with("Blue"))
        .map(|(_, d)| d)
        .collect();
    assert_eq!(blue.len(), 37);
    assert!(blue.iter().all(|d| d.contains("unknown piece")), "{blue:?}");
    // A piece picked up shows its moves; a move is stored before the board changes hands.
    sla_drive(app, dir, 1, |_| false);
    assert_eq!(stored_actions(dir).len(), 3);
    assert_eq!(gs.get_phase(), GamePhase::Handover);
    assert!(seen(app).is_empty(), "nothing shows behind the hand-over");
    gs.invoke_handover_done();
    assert_eq!(gs.get_viewer(), 1);
    let red: Vec<(String, String)> = seen(app)
        .into_iter()
        .filter(|(_, d)| d.starts_with("Red"))
        .collect();
    assert!(
        red.iter().all(|(_, d)| d.contains("unknown piece")),
        "{red:?}"
    );
}

#[test]
fn a_game_against_the_computer_to_the_end_then_review_and_history() {
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path(), Language::Chinese, (360, 780));
    let a = app.window().global::<SeaLandAirAdapter>();
    let gs = app.window().global::<GameSession>();
    new_game(&app, true);
    // No hand-over against the computer, which has deployed already.
    assert_eq!(gs.get_phase(), GamePhase::Deploy);
    assert_eq!(
        stored_actions(dir.path()).len(),
        1,
        "the computer's deployment"
    );
    deployment(&app).invoke_ready();
    assert_eq!(gs.get_phase(), GamePhase::Play);
    // Picking up a piece shows what it may do.
    let mine = (0..99).map(|i| Point::from_index(i).unwrap()).find(|p| {
        a.invoke_cell_clicked(p.index() as i32);
        let picked = a.get_sel_piece() != "";
        if picked {
            a.invoke_cell_clicked(p.index() as i32);
        }
        picked
    });
    assert!(mine.is_some(), "some piece can move");
    sla_drive(&app, dir.path(), 800, |_| false);
    assert_eq!(gs.get_phase(), GamePhase::Over, "the game ended");
    assert!(gs.get_show_end_dialog());
    assert!(gs.get_outcome().kind != ResultKind::Unfinished);
    // Everything shows at the end.
    let unknown = all_points()
        .into_iter()
        .filter(|p| point(&app, p).contains("未知") || point(&app, p).contains("unknown"))
        .count();
    assert_eq!(unknown, 0);
    the_review_shows_both_deployments(&app, stored_actions(dir.path()).len());

    // Reopened from the store: the same finished game.
    drop(app);
    let app = start(dir.path(), Language::English, (1280, 800));
    let (_, id) = latest_game(dir.path());
    app.window()
        .global::<qiguan_app::ui::HistoryAdapter>()
        .invoke_open(id.0 as i32);
    let gs = app.window().global::<GameSession>();
    assert_eq!(gs.get_phase(), GamePhase::Over);
}

/// The review of a finished game of `actions` actions: from the start, both deployments show.
fn the_review_shows_both_deployments(app: &App, actions: usize) {
    let gs = app.window().global::<GameSession>();
    gs.set_show_end_dialog(false);
    gs.invoke_review();
    assert_eq!(gs.get_review_plies() as usize, actions);
    gs.invoke_review_step(-(actions as i32));
    assert_eq!(gs.get_review_ply(), 0);
    gs.invoke_review_step(2);
    // Both deployments show in the review.
    assert_eq!(
        all_points()
            .into_iter()
            .filter(|p| !point(app, p).is_empty() && !point(app, p).contains("未知"))
            .filter(|p| point(app, p).starts_with("红") || point(app, p).starts_with("蓝"))
            .count(),
        74
    );
}

/// Plays against the computer until the news tells of a fight, and returns the options the
/// game was stored with and the news.
/// The game's stored options, the news of its first fight, and each side's fallen pieces as
/// the battle panel names them (the viewer's first).
fn first_fight(
    referee: bool,
) -> (
    serde_json::Value,
    Vec<qiguan_app::ui::BattleNews>,
    Vec<Vec<String>>,
) {
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path(), Language::English, (1280, 800));
    app.window()
        .global::<SeaLandAirRules>()
        .set_referee(referee);
    new_game(&app, true);
    deployment(&app).invoke_ready();
    let fought = |app: &App| {
        news(app)
            .iter()
            .any(|n| matches!(n.battle, Battle::Won | Battle::Lost | Battle::Both))
    };
    sla_drive(&app, dir.path(), 400, fought);
    assert!(fought(&app), "a fight within 400 moves");
    let (store, id) = latest_game(dir.path());
    let options = store.load(id).unwrap().record.options;
    let lost = app
        .window()
        .global::<qiguan_app::ui::BattleLedger>()
        .get_lines()
        .iter()
        .map(|line| line.lost.iter().map(|n| n.to_string()).collect())
        .collect();
    (options, news(&app), lost)
}

#[test]
fn a_battle_shows_both_pieces_unless_the_game_is_in_referee_mode() {
    let (options, told, lost) = first_fight(false);
    assert_eq!(options["referee"], false);
    // The battle panel names every fallen piece of both sides: each fell in a battle.
    assert_eq!(lost.len(), 2);
    assert!(lost.iter().any(|l| !l.is_empty()), "{lost:?}");
    assert!(lost.iter().flatten().all(|n| n != "?"), "{lost:?}");
    let fight = told
        .iter()
        .find(|n| !n.attacker.is_empty() && !n.defender.is_empty())
        .unwrap();
    assert!(
        fight.attacker != "?" && fight.defender != "?",
        "both pieces named: {fight:?}"
    );
    let (options, told, lost) = first_fight(true);
    // In referee mode only the viewer's own fallen are named.
    assert!(lost[0].iter().all(|n| n != "?"), "{lost:?}");
    assert!(lost[1].iter().all(|n| n == "?"), "{lost:?}");
    assert!(lost.iter().any(|l| !l.is_empty()), "{lost:?}");
    assert_eq!(
        options["referee"], true,
        "the choice is stored with the game"
    );
    let fights: Vec<_> = told.iter().filter(|n| !n.attacker.is_empty()).collect();
    assert!(
        fights
            .iter()
            .any(|n| n.attacker == "?" || n.defender == "?"),
        "the opponent's piece unnamed: {fights:?}"
    );
}

#[test]
fn a_refused_tap_says_why() {
    use qiguan_core::sealandair::Kind;
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path(), Language::English, (1280, 800));
    let gs = app.window().global::<GameSession>();
    new_game(&app, true);
    deployment(&app).invoke_ready();
    assert_eq!(gs.get_phase(), GamePhase::Play);
    let (store, id) = latest_game(dir.path());
    let record = store.load(id).unwrap().record;
    let game =
        qiguan_core::Match::<qiguan_core::sealandair::SeaLandAir>::from_record(&record).unwrap();
    let at = |kind: Kind| {
        let view = game
            .view(qiguan_core::Viewer::Seat(qiguan_core::Seat::FIRST))
            .game;
        view.pieces
            .iter()
            .find(|p| p.kind == Some(kind) && p.side == qiguan_core::junqi::Side::South)
            .map(|p| p.at.clone())
            .unwrap()
    };
    // The flag never moves; a plane never enters the enemy's airports.
    sla_tap(&app, &[&at(Kind::Flag)]);
    assert_eq!(gs.get_refusal(), "immobile");
    sla_tap(&app, &[&at(Kind::Fighter), "nw"]);
    assert_eq!(gs.get_refusal(), "enemy-airport");
    // The next tap clears it.
    sla_tap(&app, &[&at(Kind::Fighter)]);
    assert_eq!(gs.get_refusal(), "");

    // A move is made and the computer answers at once: the answer slides into place when it
    // moved a piece (not a shot from afar), from its start to its end point.
    sla_tap(&app, &[&at(Kind::Fighter)]);
    sla_drive(&app, dir.path(), 1, |_| false);
    let motion = app.window().global::<qiguan_app::ui::Motion>();
    let record = latest_game(dir.path()).0.load(id).unwrap().record;
    let reply: qiguan_core::sealandair::Move =
        record.actions.last().unwrap().action.parse().unwrap();
    if motion.get_active() {
        assert!(!reply.remote);
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
    assert!(!motion.get_active());
}

/// The legend is under the board on a desktop, and on a phone under the zoomed board; the
/// whole board needs the phone's every pixel, so there the legend comes over it when asked for
/// (the Legend button beside the battle news) and goes with Close.
#[test]
fn the_legend_shows_beside_the_board_it_explains() {
    for (size, zoomed, shown) in [
        ((1280, 800), false, true),
        ((360, 780), false, false),
        ((360, 780), true, true),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let app = start(dir.path(), Language::Chinese, size);
        new_game(&app, true);
        deployment(&app).invoke_ready();
        let a = app.window().global::<SeaLandAirAdapter>();
        a.set_zoomed(zoomed);
        let legend = || !common::all(&app, "棋盘图例").is_empty();
        assert_eq!(legend(), shown, "{size:?} zoomed {zoomed}");
        // The button is there only where the legend is not.
        assert_eq!(common::all(&app, "图例").is_empty(), shown);
        if !shown {
            common::press(&app, "图例");
            assert!(legend(), "asked for on the whole board");
            common::press(&app, "关闭");
            assert!(!legend());
        }
    }
}

/// A new player gets a walkthrough of deployment, then one of the board on their first turn;
/// each shows once, survives neither Skip nor Got it, never shows behind the hand-over
/// screen, and Settings brings them back.
#[test]
fn first_game_tips_walk_a_new_player_through_once() {
    use qiguan_app::ui::{Nav, SettingsAdapter, Walkthrough};
    let dir = tempfile::tempdir().unwrap();
    let app = common::start_new_player(dir.path(), Language::English, (360, 780));
    let ui = app.window();
    let w = ui.global::<Walkthrough>();
    let gs = ui.global::<GameSession>();
    new_game(&app, false);
    // Pass and play: the first thing is the hand-over cover, with no tip over it.
    if gs.get_phase() == GamePhase::Handover {
        assert_eq!(w.get_key(), "");
        gs.invoke_handover_done();
    }
    assert_eq!(gs.get_phase(), GamePhase::Deploy);
    assert_eq!(w.get_key(), "sea-land-air-deploy");
    assert!(common::one(&app, "Tip 1 of 3").is_valid());
    common::press(&app, "Next");
    assert!(common::one(&app, "Tip 2 of 3").is_valid());
    common::press(&app, "Next");
    common::press(&app, "Got it");
    assert_eq!(w.get_key(), "");
    // Both deploy; on Red's first turn, the board's walkthrough. Skip ends it.
    deployment(&app).invoke_ready();
    gs.invoke_handover_done();
    // Blue has not seen deployment's tips on this device either: they are the same player's
    // tips, seen once per device.
    assert_eq!(w.get_key(), "");
    deployment(&app).invoke_ready();
    gs.invoke_handover_done();
    assert_eq!(gs.get_phase(), GamePhase::Play);
    assert_eq!(w.get_key(), "sea-land-air-play");
    common::press(&app, "Skip tips");
    assert_eq!(w.get_key(), "");
    // Seen is seen, in a new game and after a restart.
    ui.global::<Nav>().invoke_back();
    new_game(&app, false);
    if gs.get_phase() == GamePhase::Handover {
        gs.invoke_handover_done();
    }
    assert_eq!(w.get_key(), "");
    drop(app);
    let app = common::start_new_player(dir.path(), Language::English, (360, 780));
    let ui = app.window();
    ui.global::<HomeAdapter>().invoke_settings();
    // Tips off and on again: every walkthrough shows once more. (The switch is at the foot
    // of the page: scrolled into view first.)
    common::scroll(&app, -600.0);
    common::press(&app, "First-game tips");
    assert!(!ui.global::<SettingsAdapter>().get_tips());
    common::press(&app, "First-game tips");
    assert!(ui.global::<SettingsAdapter>().get_tips());
    ui.global::<Nav>().invoke_back();
    new_game(&app, false);
    let gs = ui.global::<GameSession>();
    if gs.get_phase() == GamePhase::Handover {
        gs.invoke_handover_done();
    }
    assert_eq!(ui.global::<Walkthrough>().get_key(), "sea-land-air-deploy");
}

/// New game offers the computer's three strengths; the hard one deploys and answers from a
/// thread of its own (every move stored), its seat bar and the history name its strength.
#[test]
fn the_hard_computer_thinks_apart_and_the_history_names_it() {
    use std::time::Duration;
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path(), Language::English, (360, 780));
    let ui = app.window();
    let gs = ui.global::<GameSession>();
    ui.global::<HomeAdapter>()
        .invoke_new_game("sea-land-air".into());
    common::press(&app, "The computer");
    let ng = ui.global::<NewGameAdapter>();
    assert_eq!(ng.get_strength(), 1, "normal unless chosen");
    assert!(!common::all(&app, "COMPUTER STRENGTH").is_empty());
    common::press(&app, "Hard");
    assert_eq!(ng.get_strength(), 2);
    ng.set_human_seat(0);
    ng.invoke_start();
    common::until(&app, Duration::from_secs(30), || {
        app.thinking_in_flight() == 0
    });
    assert_eq!(gs.get_phase(), GamePhase::Deploy);
    assert!(!common::all(&app, "Blue · Computer (hard)").is_empty());
    deployment(&app).invoke_ready();
    assert_eq!(gs.get_phase(), GamePhase::Play);
    for _ in 0..3 {
        let before = stored_actions(dir.path()).len();
        sla_drive(&app, dir.path(), 1, |_| false);
        assert_eq!(
            stored_actions(dir.path()).len(),
            before + 1,
            "Red's move stored at once"
        );
        common::until(&app, Duration::from_secs(30), || {
            app.thinking_in_flight() == 0
        });
        if gs.get_phase() != GamePhase::Play {
            break;
        }
        assert_eq!(
            stored_actions(dir.path()).len(),
            before + 2,
            "the computer answered"
        );
    }
    ui.global::<qiguan_app::ui::Nav>().invoke_back();
    common::press(&app, "History");
    let h = ui.global::<qiguan_app::ui::HistoryAdapter>();
    let first = h.get_rows().row_data(0).expect("a row");
    assert_eq!(
        (first.mode.as_str(), first.strength.as_str()),
        ("computer", "hard")
    );
}

/// Zoomed on a phone (issue 36: the zoom hid the airports and panned only sideways): the
/// points are bigger, the board opens on the viewer's own half, and panning both ways brings
/// every airport, the viewer's and the opponent's, wholly into the window; a legal move's dot
/// is big enough to see.
#[test]
fn the_zoomed_board_pans_to_every_corner() {
    use i_slint_backend_testing::{AccessibleRole, ElementHandle};
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path(), Language::English, (360, 780));
    new_game(&app, true);
    deployment(&app).invoke_ready();
    let a = app.window().global::<SeaLandAirAdapter>();
    let board = || {
        common::all(&app, "Board")
            .into_iter()
            .find(|e| e.accessible_role() == Some(AccessibleRole::Groupbox))
            .expect("the board")
    };
    let point = |name: &str| common::one(&app, name);
    let whole = point("d1").size().width;
    a.set_zoomed(true);
    common::next_frame();
    assert!(
        common::all(&app, "d1")
            .iter()
            .all(|e| e.size().width > 1.4 * whole),
        "zoomed in"
    );
    // The board's window: between the opponent's line above it and the legend below it.
    let top = common::all(&app, "Blue · Computer (easy)")
        .iter()
        .map(|line| line.absolute_position().y + line.size().height)
        .fold(0.0, f32::max);
    let bottom = common::one(&app, "road").absolute_position().y;
    let inside = |e: &ElementHandle| {
        let (p, s) = (e.absolute_position(), e.size());
        s.width > 0.0
            && p.x >= -0.5
            && p.x + s.width <= 360.5
            && p.y >= top - 0.5
            && p.y + s.height <= bottom + 0.5
    };
    // It opens on the viewer's own end: the back row whole in view (the legend that comes
    // under the zoomed board used to cover it), the ends of the row near the window's sides.
    for column in ['a', 'b', 'c', 'd', 'e', 'f', 'g'] {
        let name = format!("{column}0");
        assert!(
            common::all(&app, &name).iter().any(inside),
            "{name} is out of view"
        );
    }
    // Zoomed, the points take a finger: 44 px.
    assert!(point("d1").size().width >= 44.0, "{:?}", point("d1").size());
    // Pans in steps toward a corner (out of the window a point is not found at all) until
    // its airport shows whole, at most across the whole board.
    let reach = |name: &str| {
        let dx = if name.ends_with('w') { 40.0 } else { -40.0 };
        let dy = if name.starts_with('n') { 40.0 } else { -40.0 };
        for _ in 0..40 {
            if common::all(&app, name).iter().any(inside) {
                return true;
            }
            board().scroll(dx, dy);
            common::next_frame();
        }
        false
    };
    if let Some(dir) = std::env::var_os("QIGUAN_ZOOM_PNG") {
        common::snapshot(&app, &Path::new(&dir).join("zoom-0.png"));
    }
    for (i, airport) in ["sw", "se", "nw", "ne"].into_iter().enumerate() {
        assert!(reach(airport), "{airport} cannot be brought into view");
        if let Some(dir) = std::env::var_os("QIGUAN_ZOOM_PNG") {
            common::snapshot(&app, &Path::new(&dir).join(format!("zoom-{}.png", i + 1)));
        }
    }
}
