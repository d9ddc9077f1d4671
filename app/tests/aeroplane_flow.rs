//! Aeroplane chess through the app: seats of people and computer players chosen on the new-game
//! screen, the die tapped and its roll stored before it shows, planes chosen on the board, the
//! computer seats playing on their own (only as time passes), the finishing order at the end,
//! the review, and the game back from the history after a restart.
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;

use common::{aeroplane_drive, all, latest_game, press, result_code, start, stored_actions};
use qiguan_app::App;
use qiguan_app::settings::Language;
use qiguan_app::store::GameId;
use qiguan_app::store::Mode;
use qiguan_app::ui::{AeroplaneAdapter, GamePhase, GameSession, HistoryAdapter, HomeAdapter, Nav};
use qiguan_app::ui::{NewGameAdapter, Screen};
use qiguan_core::GameKind;
use qiguan_core::Strength;
use slint::{ComponentHandle, Model};
use std::path::Path;
use std::time::Duration;

#[test]
fn people_and_computers_play_to_a_finishing_order() {
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path(), Language::English, (360, 780));
    let id = three_seats(&app, dir.path());
    roll_then_tap_a_plane(&app, dir.path());
    the_computer_plays_after_its_pause_and_only_on_screen(&app, dir.path(), id);
    let order = to_the_end_and_review(&app, dir.path());
    drop(app);
    back_from_the_history_after_a_restart(dir.path(), &order);
}

/// Starts a game of three seats from New game and checks what was stored.
fn three_seats(app: &App, dir: &Path) -> GameId {
    let ui = app.window();
    let a = ui.global::<AeroplaneAdapter>();
    let ng = ui.global::<NewGameAdapter>();

    // Three seats: Ann (red), the strong computer (yellow), Bo (blue).
    ui.global::<HomeAdapter>()
        .invoke_new_game("aeroplane".into());
    assert_eq!(ng.get_game_index(), 2);
    app.window()
        .global::<qiguan_app::ui::AeroplaneRules>()
        .set_seats(1);
    app.window()
        .global::<qiguan_app::ui::AeroplaneRules>()
        .set_p0(0);
    app.window()
        .global::<qiguan_app::ui::AeroplaneRules>()
        .set_n0("Ann".into());
    app.window()
        .global::<qiguan_app::ui::AeroplaneRules>()
        .set_p1(2);
    app.window()
        .global::<qiguan_app::ui::AeroplaneRules>()
        .set_p2(0);
    app.window()
        .global::<qiguan_app::ui::AeroplaneRules>()
        .set_n2("Bo".into());
    // (The button is below the phone's fold; the Flickable hides it from a label search.)
    ng.invoke_start();
    assert_eq!(ui.global::<Nav>().get_screen(), Screen::Aeroplane);
    let (store, id) = latest_game(dir);
    assert_eq!(
        store.computers(id).unwrap(),
        [None, Some(Strength::Strong), None]
    );
    assert_eq!(store.summaries(&[id]).unwrap()[0].mode, Mode::PassAndPlay);
    assert_eq!(store.summaries(&[id]).unwrap()[0].kind, GameKind::Aeroplane);
    drop(store);
    // The computer is its seat's role, not a name (named on screen in the language shown).
    let labels: Vec<String> = a.get_seats().iter().map(|s| s.name.to_string()).collect();
    assert_eq!(labels, ["Ann", "", "Bo"]);
    let roles: Vec<String> = a
        .get_seats()
        .iter()
        .map(|s| s.computer.to_string())
        .collect();
    assert_eq!(roles, ["", "strong", ""]);
    id
}

/// Red rolls, then the game goes on until a person chooses a plane by tapping it.
fn roll_then_tap_a_plane(app: &App, dir: &Path) {
    let a = app.window().global::<AeroplaneAdapter>();

    // Red rolls by tapping the die: the ask and the roll are stored before the die shows it.
    assert!(a.get_can_roll());
    press(app, "Roll the die");
    let actions = stored_actions(dir);
    assert_eq!(actions.len(), 2, "{actions:?}");
    assert_eq!(actions[0], "roll");
    assert_eq!(actions[1], format!("d{}", a.get_die()));
    assert!(a.get_rolling(), "the die tumbles first");

    // Play on until a person must choose a plane, then choose it by tapping it on the board.
    aeroplane_drive(app, 2000, |app| {
        app.window()
            .global::<AeroplaneAdapter>()
            .get_choices()
            .row_count()
            > 0
    });
    // The prompt knows whether the choice is a take-off, a move, or either.
    let choices: Vec<_> = a.get_choices().iter().collect();
    assert_eq!(a.get_launch_choice(), choices.iter().any(|c| c.from < 0));
    assert_eq!(a.get_move_choice(), choices.iter().any(|c| c.from >= 0));
    app.window().window().take_snapshot().unwrap();
    i_slint_backend_testing::mock_elapsed_time(Duration::from_millis(700));
    assert!(!a.get_rolling(), "the die has landed");
    let before = stored_actions(dir).len();
    let movable: Vec<_> = a.get_planes().iter().filter(|p| p.movable).collect();
    assert!(!movable.is_empty());
    let plane = &movable[0];
    let colour = ["Red", "Yellow", "Blue", "Green"][plane.colour as usize];
    let label = format!("{colour} Plane {}", plane.plane + 1);
    let label = all(app, &label)
        .into_iter()
        .chain(all(app, &format!("{label} ×{}", plane.count)))
        .find(|e| e.accessible_description().is_some_and(|d| d == "can move"))
        .expect("the movable plane on the board");
    // Its box is a finger's 44 px though a square is 24 px on this phone, and a tap 17 px off
    // the square's centre, beyond the plane's own circle, still reaches it.
    let size = label.size();
    assert!(size.width >= 44.0 && size.height >= 44.0, "{size:?}");
    let board = all(app, "Board")
        .into_iter()
        .find(|b| b.size().width > 300.0)
        .expect("the board");
    let square = board.size().width.min(board.size().height) / 15.0;
    assert!(square >= 23.0, "a square is {square} px on a 360 px phone");
    let (b, bs) = (board.absolute_position(), board.size());
    let centre_x = b.x + (bs.width - 15.0 * square) / 2.0 + square * (plane.x + 0.5);
    let centre_y = b.y + (bs.height - 15.0 * square) / 2.0 + square * (plane.y + 0.5);
    // Nearer this plane than any other plane that can move: the tap goes to the nearest.
    let others: Vec<_> = movable[1..]
        .iter()
        .map(|p| (p.x - plane.x, p.y - plane.y))
        .collect();
    let (dx, dy) = [(0.0f32, 17.0f32), (0.0, -17.0), (17.0, 0.0), (-17.0, 0.0)]
        .into_iter()
        .find(|(dx, dy)| {
            let (ux, uy) = (dx / square, dy / square);
            others
                .iter()
                .all(|(ox, oy)| (ox - ux).powi(2) + (oy - uy).powi(2) > ux * ux + uy * uy)
        })
        .unwrap();
    let at = slint::LogicalPosition::new(centre_x + dx, centre_y + dy);
    let window = app.window().window();
    window.dispatch_event(slint::platform::WindowEvent::PointerPressed {
        position: at,
        button: slint::platform::PointerEventButton::Left,
    });
    window.dispatch_event(slint::platform::WindowEvent::PointerReleased {
        position: at,
        button: slint::platform::PointerEventButton::Left,
    });
    assert!(
        stored_actions(dir).len() > before,
        "a finger's tap beside the plane moved it"
    );
}

fn the_computer_plays_after_its_pause_and_only_on_screen(app: &App, dir: &Path, id: GameId) {
    let ui = app.window();
    let a = ui.global::<AeroplaneAdapter>();
    // The computer plays only as time passes: when its turn comes it is "thinking" and the
    // turn stays with it until its pause is over.
    aeroplane_drive(app, 4000, |app| {
        app.window().global::<AeroplaneAdapter>().get_thinking()
    });
    let turn = a.get_turn();
    assert_eq!(turn, 1, "yellow is the computer");
    let held = stored_actions(dir).len();
    app.window().window().take_snapshot().unwrap();
    i_slint_backend_testing::mock_elapsed_time(Duration::from_millis(300));
    assert_eq!(stored_actions(dir).len(), held, "not before its pause");
    i_slint_backend_testing::mock_elapsed_time(Duration::from_millis(1000));
    assert!(
        stored_actions(dir).len() > held,
        "the computer acted after its pause"
    );

    // Away from the screen the computer waits; back on it, it plays on.
    aeroplane_drive(app, 4000, |app| {
        app.window().global::<AeroplaneAdapter>().get_thinking()
    });
    let waiting = stored_actions(dir).len();
    ui.global::<Nav>().invoke_back();
    i_slint_backend_testing::mock_elapsed_time(Duration::from_millis(3000));
    assert_eq!(
        stored_actions(dir).len(),
        waiting,
        "nothing played off screen"
    );
    ui.global::<HomeAdapter>().invoke_continue_game(id.0 as i32);
    assert_eq!(ui.global::<Nav>().get_screen(), Screen::Aeroplane);
    i_slint_backend_testing::mock_elapsed_time(Duration::from_millis(1000));
    assert!(stored_actions(dir).len() > waiting, "the computer goes on");
}

/// Plays to the end; checks the finishing order and the review. Returns the order.
fn to_the_end_and_review(app: &App, dir: &Path) -> Vec<i32> {
    let a = app.window().global::<AeroplaneAdapter>();
    // To the end: every seat placed, the end dialog, the finishing order.
    aeroplane_drive(app, 40_000, |_| false);
    let gs = app.window().global::<GameSession>();
    assert_eq!(gs.get_phase(), GamePhase::Over);
    assert!(gs.get_show_end_dialog());
    let order: Vec<i32> = a.get_order().iter().collect();
    let mut sorted = order.clone();
    sorted.sort();
    assert_eq!(sorted, [0, 1, 2]);
    assert_eq!(gs.get_outcome().reason, "all-home");
    let places: Vec<i32> = a.get_seats().iter().map(|s| s.place).collect();
    for (place, seat) in order.iter().enumerate() {
        assert_eq!(places[*seat as usize], place as i32 + 1);
    }
    // Every roll came from the seed this device committed to at the start, checked against it
    // now that it is revealed.
    let rolls = stored_actions(dir)
        .iter()
        .filter(|a| a.starts_with('d'))
        .count();
    let fair = gs.get_fair();
    assert_eq!((fair.state, fair.draws as usize), (1, rolls), "{fair:?}");
    press(app, "See the board");

    // The review steps through every action from the start.
    let plies = gs.get_review_plies();
    assert_eq!(plies as usize, stored_actions(dir).len());
    press(app, "Review the game");
    assert_eq!(gs.get_phase(), GamePhase::Review);
    gs.invoke_review_step(-(plies + 5));
    assert_eq!(gs.get_review_ply(), 0);
    assert!(a.get_planes().iter().all(|p| p.count == 1 && !p.finished));
    press(app, "Forward");
    press(app, "Forward");
    assert_eq!(gs.get_review_ply(), 2);
    assert!(a.get_die() > 0, "the first roll shows");
    order
}

fn back_from_the_history_after_a_restart(dir: &Path, order: &[i32]) {
    // After a restart the history opens it on this screen, finished, with the same order.
    let app = start(dir, Language::English, (1280, 800));
    let ui = app.window();
    let (_, id) = latest_game(dir);
    ui.global::<HomeAdapter>().invoke_history();
    // The game filter finds it under Aeroplane chess only; its row names the first place.
    let h = ui.global::<HistoryAdapter>();
    for (filter, found) in [(3, 1), (1, 0)] {
        h.set_game_filter(filter);
        h.invoke_filters_changed();
        assert_eq!(h.get_total(), found, "filter {filter}");
    }
    h.set_game_filter(3);
    h.invoke_filters_changed();
    let row = h.get_rows().row_data(0).unwrap();
    // In three seats, seat i flies colour i (red, yellow, blue).
    assert_eq!(result_code(&row.outcome), format!("win:{}", order[0]));
    h.invoke_open(id.0 as i32);
    assert_eq!(ui.global::<Nav>().get_screen(), Screen::Aeroplane);
    let a = ui.global::<AeroplaneAdapter>();
    assert_eq!(ui.global::<GameSession>().get_phase(), GamePhase::Over);
    assert_eq!(a.get_order().iter().collect::<Vec<i32>>(), order);
    assert_eq!(
        ui.global::<GameSession>().get_fair().state,
        1,
        "still checked"
    );
    drop(app);

    // One roll changed in the database (the first from the third on whose change still
    // replays to the end, so that the game opens finished): that roll is named, loudly.
    let (store, _) = latest_game(dir);
    let record = store.load(id).unwrap().record;
    drop(store);
    let rolls: Vec<usize> = (0..record.actions.len())
        .filter(|&i| record.actions[i].by == qiguan_core::Actor::Authority)
        .collect();
    let (number, ply, roll, other) = rolls
        .iter()
        .enumerate()
        .skip(2)
        .flat_map(|(n, &ply)| (1..=6).map(move |v| (n + 1, ply, format!("d{v}"))))
        .find_map(|(n, ply, other)| {
            let mut changed = record.clone();
            let roll = std::mem::replace(&mut changed.actions[ply].action, other.clone());
            // Still a finished game: the check is told at a game's end.
            let replays =
                qiguan_core::AnyMatch::from_record(&changed).is_ok_and(|m| m.outcome().is_some());
            (roll != other && replays).then_some((n, ply as i64, roll, other))
        })
        .unwrap();
    let conn = rusqlite::Connection::open(dir.join("qiguan.sqlite")).unwrap();
    conn.execute(
        "UPDATE actions SET action = ?3 WHERE game_id = ?1 AND ply = ?2",
        rusqlite::params![id.0, ply, other],
    )
    .unwrap();
    let fair = reopened(dir, id);
    assert_eq!(
        (fair.state, fair.failed_draw as usize),
        (3, number),
        "{fair:?}"
    );

    // A game stored before the scheme: nothing to check against.
    conn.execute(
        "UPDATE actions SET action = ?3 WHERE game_id = ?1 AND ply = ?2",
        rusqlite::params![id.0, ply, roll],
    )
    .unwrap();
    conn.execute(
        "UPDATE games SET fair = NULL, chance_seed = NULL WHERE id = ?1",
        [id.0],
    )
    .unwrap();
    assert_eq!(reopened(dir, id).state, 2);
}

/// The fair-chance check the game shows when opened from the history after a restart.
fn reopened(dir: &Path, id: GameId) -> qiguan_app::ui::FairCheck {
    let app = start(dir, Language::English, (1280, 800));
    let ui = app.window();
    ui.global::<HomeAdapter>().invoke_history();
    ui.global::<HistoryAdapter>().invoke_open(id.0 as i32);
    ui.global::<GameSession>().get_fair()
}

#[test]
fn the_only_possible_move_is_played_for_the_player() {
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path(), Language::Chinese, (1280, 800));
    let ui = app.window();
    let a = ui.global::<AeroplaneAdapter>();
    let ng = ui.global::<NewGameAdapter>();
    ui.global::<HomeAdapter>()
        .invoke_new_game("aeroplane".into());
    app.window()
        .global::<qiguan_app::ui::AeroplaneRules>()
        .set_seats(0);
    app.window()
        .global::<qiguan_app::ui::AeroplaneRules>()
        .set_p0(0);
    app.window()
        .global::<qiguan_app::ui::AeroplaneRules>()
        .set_p1(0);
    ng.invoke_start();
    // Two people: roll until a roll leaves exactly one distinct move, then let time pass.
    let mut seen_auto = false;
    for _ in 0..400 {
        app.window().window().take_snapshot().unwrap();
        if a.get_can_roll() {
            a.invoke_roll();
            continue;
        }
        let choices = a.get_choices().row_count();
        if choices == 1 {
            let before = stored_actions(dir.path()).len();
            i_slint_backend_testing::mock_elapsed_time(Duration::from_millis(1000));
            assert_eq!(
                stored_actions(dir.path()).len(),
                before + 1,
                "the one move was played"
            );
            seen_auto = true;
            break;
        }
        if choices > 1 {
            a.invoke_choose(0);
        }
    }
    assert!(seen_auto, "no roll left a single move");
}

/// A move's planes fly along the track square by square to where they are already stored;
/// the flight never holds up the next roll.
#[test]
fn planes_fly_square_by_square_and_land_where_they_are_stored() {
    use qiguan_app::ui::AeroMotion;
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path(), Language::English, (360, 780));
    let ui = app.window();
    ui.global::<HomeAdapter>()
        .invoke_new_game("aeroplane".into());
    ui.global::<NewGameAdapter>().invoke_start();
    let motion = ui.global::<AeroMotion>();
    let a = ui.global::<AeroplaneAdapter>();
    // Roll and move until a plane walks more than one square (a launch is one hop).
    aeroplane_drive(&app, 400, |app| {
        let m = app.window().global::<AeroMotion>();
        m.get_active() && m.get_path().row_count() > 2
    });
    assert!(motion.get_active());
    let path: Vec<_> = motion.get_path().iter().collect();
    let seat = motion.get_seat();
    // It ends where the moved plane is drawn once it lands.
    let landed: Vec<_> = a
        .get_planes()
        .iter()
        .filter(|p| p.last && p.seat == seat)
        .collect();
    assert!(!landed.is_empty());
    let end = path.last().unwrap();
    assert!(
        // (A plane sharing its square with another seat's is drawn 0.3 beside it.)
        landed
            .iter()
            .any(|p| (p.x - end.x).abs() <= 0.31 && (p.y - end.y).abs() <= 0.31),
        "{path:?} ends at a moved plane: {landed:?}"
    );
    // Neighbouring points are one square apart, but for the jumps and flights (4 squares on
    // the track, 12 for the flight): a walk passes every square.
    let hops: Vec<f32> = path
        .windows(2)
        .map(|w| (w[1].x - w[0].x).abs().max((w[1].y - w[0].y).abs()))
        .collect();
    assert!(hops.iter().any(|&h| h <= 1.01), "{hops:?}");
    // Meanwhile the game goes on: the next action is ready at once.
    assert!(a.get_can_roll() || a.get_choices().row_count() > 0 || a.get_thinking());
    // The flight ends after its squares' time (the clock ends it at its next tick).
    i_slint_backend_testing::mock_elapsed_time(Duration::from_millis(2100));
    i_slint_backend_testing::mock_elapsed_time(Duration::from_millis(20));
    assert!(!motion.get_active());
    assert_eq!(motion.get_progress(), 1.0);
}

/// Issue 36: what happened since a seat last moved is all told (a capture of its plane was
/// replaced by the next seat's launch), with plural words; and Resign keeps its place while
/// the prompt, the news and the planes to choose come and go, at phone and desktop size.
#[test]
fn the_news_keeps_every_event_since_my_move_and_resign_stays_put() {
    for size in [(360, 780), (1280, 800)] {
        let dir = tempfile::tempdir().unwrap();
        let app = start(dir.path(), Language::English, size);
        let ui = app.window();
        let mut places = std::collections::BTreeSet::new();
        let mut longest = 0;
        let mut lost_capture_told = false;
        // The dice are the device's own: a game in which no plane of Ann's is taken while
        // others still have news to tell is possible, so games are played until one has it
        // (in 5 of 6 games measured, the first one had it; a CI run
        // once met a game without).
        for _game in 0..8 {
            if lost_capture_told {
                break;
            }
            ui.global::<HomeAdapter>()
                .invoke_new_game("aeroplane".into());
            let rules = ui.global::<qiguan_app::ui::AeroplaneRules>();
            // Four seats: Ann, and three strong computers.
            rules.set_seats(2);
            rules.set_p0(0);
            rules.set_p1(2);
            rules.set_p2(2);
            rules.set_p3(2);
            ui.global::<NewGameAdapter>().invoke_start();
            let a = ui.global::<AeroplaneAdapter>();
            aeroplane_drive(&app, 40_000, |app| {
                let gs = app.window().global::<GameSession>();
                if gs.get_phase() != GamePhase::Play {
                    return true;
                }
                for e in all(app, "Resign") {
                    let p = e.absolute_position();
                    places.insert((p.x.round() as i32, p.y.round() as i32));
                }
                let news: Vec<_> = a.get_news().iter().collect();
                longest = longest.max(news.len());
                // A capture of Ann's planes, told among later news, when she is to act again.
                if a.get_can_roll()
                    && news.len() > 1
                    && news[..news.len() - 1]
                        .iter()
                        .any(|n| n.victim == 0 && n.event == qiguan_app::ui::AeroEvent::Capture)
                {
                    lost_capture_told = true;
                }
                false
            });
        }
        assert_eq!(places.len(), 1, "{size:?}: Resign moved: {places:?}");
        assert!(
            longest > 1,
            "{size:?}: the news held more than the last event"
        );
        assert!(
            lost_capture_told,
            "{size:?}: a capture of Ann's plane was told behind later news"
        );
        let texts = ui.global::<qiguan_app::ui::AeroTexts>();
        let one = texts.invoke_news_text(qiguan_app::ui::AeroNews {
            event: qiguan_app::ui::AeroEvent::Capture,
            seat: 1,
            count: 1,
            victim: 0,
            die: 0,
        });
        assert!(!one.contains("(s)") && one.contains("a plane"), "{one}");
    }
}

/// A prompt in two lines over two lines of news: the news starts below the prompt's last
/// line, at phone and desktop size (on a desktop it was drawn over the prompt's second line).
#[test]
fn a_two_line_prompt_keeps_clear_of_the_news_under_it() {
    use qiguan_app::ui::{AeroEvent, AeroNews};
    for size in [(360, 780), (1280, 800)] {
        let dir = tempfile::tempdir().unwrap();
        let app = start(dir.path(), Language::English, size);
        let ui = app.window();
        ui.global::<HomeAdapter>()
            .invoke_new_game("aeroplane".into());
        // A person first, with a name long enough to take the prompt to two lines.
        let rules = ui.global::<qiguan_app::ui::AeroplaneRules>();
        rules.set_p0(0);
        rules.set_n0("Alexandria Montgomery-Fairweather".into());
        ui.global::<NewGameAdapter>().invoke_start();
        let a = ui.global::<AeroplaneAdapter>();
        a.set_rolling(false);
        let news = |event, seat, count, victim| AeroNews {
            event,
            seat,
            count,
            victim,
            die: 0,
        };
        a.set_news(slint::ModelRc::new(slint::VecModel::from(vec![
            news(AeroEvent::Capture, 1, 2, 0),
            news(AeroEvent::Jump, 1, 0, -1),
        ])));
        let texts = ui.global::<qiguan_app::ui::AeroTexts>();
        let prompt = one_text(&app, &texts.invoke_prompt());
        let newest = one_text(
            &app,
            &texts.invoke_news_text(news(AeroEvent::Jump, 1, 0, -1)),
        );
        let (p, n) = (prompt.absolute_position(), newest.absolute_position());
        assert!(
            prompt.size().height >= 40.0,
            "{size:?}: the prompt has room for its two lines: {:?}",
            prompt.size()
        );
        assert!(
            n.y >= p.y + prompt.size().height - 0.5,
            "{size:?}: the news at {n:?} starts under the prompt at {p:?} {:?}",
            prompt.size()
        );
    }
}

/// The one visible text element with these words.
fn one_text(app: &App, words: &str) -> i_slint_backend_testing::ElementHandle {
    let found: Vec<_> = all(app, words)
        .into_iter()
        .filter(|e| e.is_valid() && e.size().width > 0.0)
        .collect();
    assert_eq!(found.len(), 1, "{words:?}");
    found.into_iter().next().unwrap()
}
