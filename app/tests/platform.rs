//! What Android's lifecycle and system keys drive, tested on the desktop: the back key walks
//! the screen stack and is left to the system at home; a game survives the app being stopped
//! mid-game and comes back on screen when it starts again on the data directory it is given;
//! the screens keep clear of system bars and an on-screen keyboard.
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;

use common::{deployment, jq_tap, start, start_with};
use qiguan_app::settings::Language;
use qiguan_app::store::Store;
use qiguan_app::ui::{GamePhase, GameSession};
use qiguan_app::ui::{HomeAdapter, Nav, NewGameAdapter, Screen};
use slint::ComponentHandle;
use slint::platform::{Key, WindowEvent};

fn back_key(app: &qiguan_app::App) {
    let text: slint::SharedString = Key::Back.into();
    let window = app.window().window();
    window.dispatch_event(WindowEvent::KeyPressed { text: text.clone() });
    window.dispatch_event(WindowEvent::KeyReleased { text });
}

#[test]
fn the_back_key_walks_the_screen_stack_and_is_left_to_the_system_at_home() {
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path(), Language::English, (360, 780));
    let ui = app.window();
    let nav = ui.global::<Nav>();
    ui.global::<HomeAdapter>().invoke_settings();
    ui.global::<HomeAdapter>().invoke_about();
    assert_eq!(nav.get_screen(), Screen::About);
    back_key(&app);
    assert_eq!(nav.get_screen(), Screen::Settings);
    // An error on show: the back key dismisses it first.
    nav.set_error("boom".into());
    back_key(&app);
    assert_eq!(nav.get_error(), "");
    assert_eq!(nav.get_screen(), Screen::Settings);
    back_key(&app);
    assert_eq!(nav.get_screen(), Screen::Home);
    // At home the key is not taken: Android then closes the activity.
    back_key(&app);
    assert_eq!(nav.get_screen(), Screen::Home);

    // A text field with the focus passes the key on; after its screen is gone the key still
    // arrives.
    ui.global::<HomeAdapter>().invoke_online();
    common::one(&app, "Your name").mock_single_click(slint::platform::PointerEventButton::Left);
    back_key(&app);
    assert_eq!(nav.get_screen(), Screen::Home);
    ui.global::<HomeAdapter>().invoke_settings();
    back_key(&app);
    assert_eq!(nav.get_screen(), Screen::Home);
}

#[test]
fn a_game_survives_being_stopped_and_comes_back_on_screen_at_its_data_directory() {
    let dir = tempfile::tempdir().unwrap();
    // Android's internal data path, as the platform layer hands it over.
    let data = dir.path().join("internal").join("files");
    {
        let app = start_with(&data, Language::English, (360, 780), true);
        let ui = app.window();
        ui.global::<HomeAdapter>().invoke_new_game("junqi".into());
        let ng = ui.global::<NewGameAdapter>();
        app.window()
            .global::<qiguan_app::ui::JunqiRules>()
            .set_mode(1);
        ng.set_opponent(1);
        ng.set_strength(0); // the first computer, which answers at once
        ng.set_human_seat(0);
        ng.invoke_start();
        deployment(&app).invoke_ready();
        jq_tap(&app, &["e5", "e6"]);
        // The process is stopped here, as Android may stop a paused app: nothing to flush.
    }
    let store = Store::open_dir(&data).unwrap();
    let ids = store.history_ids(&Default::default()).unwrap();
    assert_eq!(ids.len(), 1);
    let plies = store.load(ids[0]).unwrap().record.actions.len();
    assert!(
        plies >= 4,
        "both deployments, the move and the reply: {plies}"
    );
    drop(store);

    // Started again: the same game is on screen, with every move.
    let app = start_with(&data, Language::English, (360, 780), true);
    let ui = app.window();
    assert_eq!(ui.global::<Nav>().get_screen(), Screen::Junqi);
    let gs = ui.global::<GameSession>();
    assert_eq!(gs.get_phase(), GamePhase::Play);
    assert_eq!(gs.get_review_plies() as usize, plies);
    // Back at Home when it stops: it starts at Home.
    ui.global::<Nav>().invoke_back();
    drop(app);
    let app = start_with(&data, Language::English, (360, 780), true);
    assert_eq!(app.window().global::<Nav>().get_screen(), Screen::Home);
    // The desktop starts at Home whatever was on screen.
    app.window()
        .global::<HomeAdapter>()
        .invoke_continue_game(ids[0].0 as i32);
    drop(app);
    let app = start(&data, Language::English, (360, 780));
    assert_eq!(app.window().global::<Nav>().get_screen(), Screen::Home);
}

/// Scrolls the wheel by `delta_y` with the pointer at (180, `y`).
fn scroll(app: &qiguan_app::App, y: f32, delta_y: f32) {
    app.window()
        .window()
        .dispatch_event(WindowEvent::PointerScrolled {
            position: slint::LogicalPosition::new(180.0, y),
            delta_x: 0.0,
            delta_y,
        });
}

#[test]
fn screens_keep_clear_of_system_bars_and_the_keyboard_does_not_cover_the_code_field() {
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path(), Language::English, (360, 780));
    common::simulate_phone(&app, 32.0, 24.0, 0.0);
    let back_top = |app: &qiguan_app::App| {
        app.window().global::<HomeAdapter>().invoke_online();
        let back = common::one(app, "Back");
        let y = back.absolute_position().y;
        app.window().global::<Nav>().invoke_back();
        y
    };
    assert!(
        back_top(&app) >= 32.0,
        "the top bar sits below the status bar"
    );

    // Tap the join code field (scrolled to first), then the keyboard opens: the field stays
    // above it. (A player who joins has a server set: the first run's card saying one is
    // needed is not there.)
    common::use_server(&app, "https://qiguan.example.org");
    app.window().global::<HomeAdapter>().invoke_online();
    scroll(&app, 400.0, -3000.0);
    // Back up a little, so that the field is not at the very end (where the list would stay
    // put against the keyboard on its own).
    scroll(&app, 400.0, 60.0);
    let field = common::one(&app, "Invite code");
    assert!(
        field.absolute_position().y > 480.0,
        "the keyboard would cover the field"
    );
    field.mock_single_click(slint::platform::PointerEventButton::Left);
    common::simulate_phone(&app, 32.0, 24.0, 300.0);
    let bottom = field.absolute_position().y + field.size().height;
    assert!(
        bottom <= 780.0 - 300.0,
        "the code field ends at {bottom}, under the keyboard"
    );
    // Scrolled to the end, the Join button is above the keyboard too.
    scroll(&app, 300.0, -3000.0);
    let join = common::one(&app, "Join game");
    let bottom = join.absolute_position().y + join.size().height;
    assert!(
        bottom <= 780.0 - 300.0,
        "Join game ends at {bottom}, under the keyboard"
    );
}

/// Back (Escape on a desktop) closes a game's dialog before it leaves the game: the resign
/// question, then the end dialog; only then does it go back a screen.
#[test]
fn the_back_key_closes_a_games_dialog_before_leaving_it() {
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path(), Language::English, (360, 780));
    let ui = app.window();
    let nav = ui.global::<Nav>();
    let session = ui.global::<GameSession>();
    ui.global::<HomeAdapter>().invoke_new_game("xiangqi".into());
    ui.global::<NewGameAdapter>().invoke_start();
    assert_eq!(nav.get_screen(), Screen::Xiangqi);
    session.set_confirm_resign(true);
    back_key(&app);
    assert!(!session.get_confirm_resign());
    assert_eq!(nav.get_screen(), Screen::Xiangqi, "the game stays");
    session.set_confirm_resign(true);
    let escape: slint::SharedString = Key::Escape.into();
    let window = ui.window();
    window.dispatch_event(WindowEvent::KeyPressed {
        text: escape.clone(),
    });
    window.dispatch_event(WindowEvent::KeyReleased { text: escape });
    assert!(!session.get_confirm_resign());
    session.invoke_resign();
    assert!(session.get_show_end_dialog(), "the end dialog shows");
    back_key(&app);
    assert!(!session.get_show_end_dialog());
    assert_eq!(nav.get_screen(), Screen::Xiangqi);
    back_key(&app);
    assert_ne!(
        nav.get_screen(),
        Screen::Xiangqi,
        "then Back leaves the game"
    );
}

/// Back closes the other dialogs over a game too (the losses, Junqi's layouts, Sea-land-air's
/// legend) before it leaves the game.
#[test]
fn the_back_key_closes_the_losses_the_layouts_and_the_legend_first() {
    use qiguan_app::ui::{BattleLedger, Deployment, SeaLandAirAdapter};
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path(), Language::English, (360, 780));
    let ui = app.window();
    let nav = ui.global::<Nav>();
    ui.global::<HomeAdapter>().invoke_new_game("junqi".into());
    ui.global::<NewGameAdapter>().invoke_start();
    assert_eq!(nav.get_screen(), Screen::Junqi);
    ui.global::<Deployment>().set_show_layouts(true);
    back_key(&app);
    assert!(!ui.global::<Deployment>().get_show_layouts());
    ui.global::<BattleLedger>().set_show(true);
    back_key(&app);
    assert!(!ui.global::<BattleLedger>().get_show());
    assert_eq!(nav.get_screen(), Screen::Junqi, "the game stays");
    back_key(&app);
    assert_eq!(nav.get_screen(), Screen::Home);
    ui.global::<HomeAdapter>()
        .invoke_new_game("sea-land-air".into());
    ui.global::<NewGameAdapter>().invoke_start();
    assert_eq!(nav.get_screen(), Screen::SeaLandAir);
    ui.global::<SeaLandAirAdapter>().set_show_legend(true);
    back_key(&app);
    assert!(!ui.global::<SeaLandAirAdapter>().get_show_legend());
    assert_eq!(nav.get_screen(), Screen::SeaLandAir, "the game stays");
}
