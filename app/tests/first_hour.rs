//! The smaller defects of a new player's first hour (issue 36, items 10 and 13), each as the
//! player met it.

mod common;

use common::{all, one, play, start};
use qiguan_app::settings::Language;
use qiguan_app::ui::{
    GameSession, HistoryAdapter, HomeAdapter, Nav, NewGameAdapter, OnlineAdapter, Texts,
};
use slint::ComponentHandle;
use std::time::Duration;

/// Home's Xiangqi card says the computer is there, as Junqi's does (it said "two players on
/// this device").
#[test]
fn home_says_xiangqi_has_the_computer() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let app = start(dir.path(), Language::English, (360, 780));
    let texts = app.window().global::<Texts>();
    for game in ["xiangqi", "junqi", "sea-land-air"] {
        let blurb = texts.invoke_game_blurb(game.into());
        assert!(blurb.contains("the computer"), "{game}: {blurb}");
    }
}

/// One finished game is "1 game finished", not "1 games finished".
#[test]
fn one_game_finished_is_one_game() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let app = start(dir.path(), Language::English, (1280, 800));
    let ui = app.window();
    ui.global::<HomeAdapter>().invoke_new_game("xiangqi".into());
    ui.global::<NewGameAdapter>().invoke_start();
    play(&app, &["b3b5", "a7a6", "b5c5", "f10e9", "c5c10"]);
    ui.global::<GameSession>().set_show_end_dialog(false);
    ui.global::<Nav>().invoke_back();
    ui.global::<HomeAdapter>().invoke_statistics();
    let labels: Vec<String> = common::labels(&app);
    assert!(
        labels.iter().any(|l| l.contains("1 game finished")),
        "{labels:#?}"
    );
    assert!(!labels.iter().any(|l| l.contains("1 games")), "{labels:#?}");
}

/// An import's error speaks of the text that was imported: editing the text takes it away.
#[test]
fn an_import_error_goes_when_the_text_is_edited() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let app = start(dir.path(), Language::English, (1280, 800));
    let ui = app.window();
    ui.global::<HomeAdapter>().invoke_history();
    let h = ui.global::<HistoryAdapter>();
    h.set_show_import(true);
    h.set_import_text("1. C2=5 H8+7 2. C5+9".into());
    h.invoke_import();
    assert_ne!(h.get_import_error().code, "", "the bad move is reported");
    one(&app, "Game text").set_accessible_value("1. C2=5 H8+7");
    assert_eq!(h.get_import_error().code, "", "gone once the text changed");
}

/// "Copy code" answers the tap, until another code is shown.
#[test]
fn copying_the_invite_code_says_so() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = common::server(dir.path());
    let app = start(&dir.path().join("red"), Language::English, (1280, 800));
    let ui = app.window();
    common::use_server(&app, &url);
    ui.global::<HomeAdapter>().invoke_online();
    let online = ui.global::<OnlineAdapter>();
    online.invoke_create();
    common::until(&app, Duration::from_secs(10), || {
        !online.get_invite().is_empty()
    });
    assert!(all(&app, "Copied ✓").is_empty());
    common::press(&app, "Copy code");
    assert!(one(&app, "Copied ✓").is_valid());
    online.set_invite("".into());
    online.set_invite("ABCDE-FGHJK".into());
    i_slint_backend_testing::mock_elapsed_time(Duration::from_millis(16));
    assert!(
        one(&app, "Copy code").is_valid(),
        "a new code is not copied yet"
    );
}

/// A server address is checked once typed (issue 36, item 12: any address was taken without
/// a word): a Qiguan server is found, an address where nothing answers says so, and so does
/// one where something else answers. Only the address on screen is spoken of.
#[test]
fn a_server_address_is_checked_once_typed() {
    use qiguan_app::ui::SettingsAdapter;
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = common::server(dir.path());
    let app = start(&dir.path().join("app"), Language::English, (360, 780));
    let ui = app.window();
    ui.global::<HomeAdapter>().invoke_settings();
    let settings = ui.global::<SettingsAdapter>();
    assert_eq!(
        settings.get_server_check(),
        "",
        "no address, nothing to check"
    );
    let check = |address: &str| {
        settings.set_server(address.into());
        settings.invoke_changed();
        assert_eq!(settings.get_server_check(), "checking");
        // Typing pauses; the check goes out and its answer comes back.
        i_slint_backend_testing::mock_elapsed_time(Duration::from_millis(800));
        common::until(&app, Duration::from_secs(10), || {
            settings.get_server_check() != "checking"
        });
        let said = settings.get_server_check().to_string();
        (said, common::labels(&app))
    };
    let (said, words) = check(&url);
    assert_eq!(said, "ok");
    assert!(
        words.contains(&"✓ A Qiguan server answers at this address.".to_owned()),
        "{words:?}"
    );
    // Nothing listens on the discard port.
    let (said, words) = check("http://127.0.0.1:9");
    assert_eq!(said, "offline");
    assert!(words.contains(
        &"Nothing answers at this address: check it, and that the server is running.".to_owned()
    ));
    // The server's API root is no server of its own: it answers, but not as a Qiguan server.
    let (said, _) = check(&format!("{url}/api"));
    assert_eq!(said, "protocol");
    // A bad address is not checked; an empty one says what the address is for.
    settings.set_server("not an address".into());
    settings.invoke_changed();
    assert_eq!(settings.get_server_check(), "");
}

/// Home's Continue row says the game and its players in full on a phone: "Aeroplane chess ·
/// 2 computers" was cut to "Aeroplane chess · 2 compu…" beside "Your move".
#[test]
fn the_continue_row_names_the_game_and_players_in_full_on_a_phone() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let app = start(dir.path(), Language::English, (360, 780));
    let ui = app.window();
    ui.global::<HomeAdapter>()
        .invoke_new_game("aeroplane".into());
    let rules = ui.global::<qiguan_app::ui::AeroplaneRules>();
    // Three seats: the player, and two computers.
    rules.set_seats(1);
    rules.set_p0(0);
    rules.set_p1(2);
    rules.set_p2(2);
    ui.global::<NewGameAdapter>().invoke_start();
    ui.global::<Nav>().invoke_back();
    assert_eq!(
        ui.global::<Nav>().get_screen(),
        qiguan_app::ui::Screen::Home
    );
    let row = one(&app, "Continue game 1");
    assert_eq!(
        row.accessible_description().unwrap_or_default(),
        "2 computers"
    );
    let cut = common::texts_not_fitting(&app);
    assert!(cut.is_empty(), "{cut:?}");
}
