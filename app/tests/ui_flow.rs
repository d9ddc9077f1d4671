//! The app driven through its UI with Slint's testing backend: elements are found by their
//! accessible labels and pressed or clicked, as a player (or a screen reader) would.

mod common;

use common::{all, click, one, point, press, start, targets};
use i_slint_backend_testing::mock_elapsed_time;
use qiguan_app::App;
use qiguan_app::settings::Language;
use qiguan_app::sound::Sound;
use qiguan_app::ui::{Nav, ReplayAdapter, Screen, XiangqiAdapter};
use slint::ComponentHandle;
use slint::platform::PointerEventButton;
use std::time::Duration;

fn screen(app: &App) -> Screen {
    app.window().global::<Nav>().get_screen()
}

/// Moves by tapping the piece, then the destination.
fn tap_move(app: &App, from: &str, to: &str) {
    click(app, from);
    click(app, to);
}

#[test]
fn select_move_undo_finish_then_find_the_game_in_history_and_replay_it() {
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path(), Language::English, (360, 780));
    assert_eq!(screen(&app), Screen::Home);

    press(&app, "New Xiangqi game");
    assert_eq!(screen(&app), Screen::NewGame);
    press(&app, "Start game");
    assert_eq!(screen(&app), Screen::Xiangqi);
    assert!(
        point(&app, "h3").contains("red 炮"),
        "{}",
        point(&app, "h3")
    );

    select_move_and_undo(&app);
    mate_in_five(&app);

    press(&app, "Back");
    assert_eq!(screen(&app), Screen::Home);
    assert!(
        all(&app, "Continue game 1").is_empty(),
        "a finished game is not offered to continue"
    );
    press(&app, "History");
    assert_eq!(screen(&app), Screen::History);
    assert!(one(&app, "Games: 1").is_valid());
    let row = one(&app, "Game 1");
    assert!(
        row.accessible_description()
            .unwrap_or_default()
            .contains("Red won"),
        "{:?}",
        row.accessible_description()
    );
    row.invoke_accessible_default_action();
    replay_steps_and_autoplays(&app);
}

/// Picks up a cannon, taps where it cannot go, moves it, and takes the move back.
fn select_move_and_undo(app: &App) {
    // Pick up Red's right cannon: its twelve destinations light up, the capture on h10 too.
    click(app, "h3");
    assert!(point(app, "h3").contains("selected"));
    assert_eq!(
        targets(app),
        [
            "c3", "d3", "e3", "f3", "g3", "h10", "h2", "h4", "h5", "h6", "h7", "i3"
        ]
    );
    // A point the cannon cannot reach does nothing but drop the selection.
    click(app, "h9");
    assert!(targets(app).is_empty());

    tap_move(app, "h3", "e3");
    assert!(point(app, "e3").contains("red 炮"));
    assert!(point(app, "h3").is_empty());
    assert_eq!(one(app, "C2=5").accessible_item_selected(), Some(true));
    assert!(one(app, "Black · to move").is_valid());

    press(app, "Undo");
    assert!(point(app, "h3").contains("red 炮"));
    assert!(
        all(app, "C2=5").is_empty(),
        "the move is gone from the list"
    );
    assert!(one(app, "Red · to move").is_valid());
}

/// A five-ply mate; one move is dragged instead of tapped. The end dialog says who won.
fn mate_in_five(app: &App) {
    tap_move(app, "b3", "b5");
    tap_move(app, "a7", "a6");
    let destination = one(app, "c5");
    let corner = destination.absolute_position();
    let size = destination.size();
    let target =
        slint::LogicalPosition::new(corner.x + size.width / 2.0, corner.y + size.height / 2.0);
    one(app, "b5").mock_drag(target, PointerEventButton::Left);
    assert!(
        point(app, "c5").contains("red 炮"),
        "the drag moved the cannon"
    );
    tap_move(app, "f10", "e9");
    tap_move(app, "c5", "c10");

    // The last move mated: the end's sound (two people on this device: a win).
    assert_eq!(app.sounds_played().last(), Some(&Sound::Win));

    // The end-of-game dialog says who won and why.
    assert!(one(app, "Red won").is_valid());
    assert!(one(app, "Checkmate").is_valid());
    press(app, "See the board");
    assert!(all(app, "Checkmate").is_empty());
    assert!(one(app, "Red won · Checkmate").is_valid());
    // Nothing reopens the finished game: no undo.
    assert!(all(app, "Undo").is_empty(), "undo after checkmate");
    // The board no longer takes moves.
    click(app, "e4");
    assert!(targets(app).is_empty());
}

/// The finished five-move game in replay: opens at the end, steps, jumps, autoplays, keys.
fn replay_steps_and_autoplays(app: &App) {
    // Replay opens at the end; step back to the start, forward, jump, autoplay.
    assert_eq!(screen(app), Screen::Replay);
    let replay = app.window().global::<ReplayAdapter>();
    assert_eq!((replay.get_ply(), replay.get_total()), (5, 5));
    assert!(point(app, "c10").contains("red 炮"));
    press(app, "Start");
    assert_eq!(replay.get_ply(), 0);
    assert!(point(app, "b3").contains("red 炮"));
    press(app, "Next move");
    assert!(point(app, "b5").contains("red 炮"));
    press(app, "C8=7");
    assert_eq!(replay.get_ply(), 3);
    assert!(point(app, "c5").contains("red 炮"));
    press(app, "Previous move");
    assert_eq!(replay.get_ply(), 2);
    press(app, "Autoplay");
    // Timers are armed when the window next updates, as in the running app.
    app.window().window().take_snapshot().expect("a frame");
    mock_elapsed_time(Duration::from_millis(1000));
    assert_eq!(replay.get_ply(), 3);
    for _ in 0..3 {
        mock_elapsed_time(Duration::from_millis(1000));
    }
    assert_eq!(replay.get_ply(), 5);
    assert!(!replay.get_autoplay(), "autoplay stops at the end");
    press(app, "End");
    assert_eq!(replay.get_ply(), 5);

    // Desktop keys step through the game too.
    let key = |k: slint::platform::Key| {
        let text: slint::SharedString = k.into();
        let window = app.window().window();
        window.dispatch_event(slint::platform::WindowEvent::KeyPressed { text: text.clone() });
        window.dispatch_event(slint::platform::WindowEvent::KeyReleased { text });
    };
    key(slint::platform::Key::Home);
    assert_eq!(replay.get_ply(), 0);
    key(slint::platform::Key::RightArrow);
    key(slint::platform::Key::RightArrow);
    assert_eq!(replay.get_ply(), 2);
    key(slint::platform::Key::LeftArrow);
    assert_eq!(replay.get_ply(), 1);
    key(slint::platform::Key::End);
    assert_eq!(replay.get_ply(), 5);
}

#[test]
fn continue_from_here_starts_a_new_game_from_the_shown_position() {
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path(), Language::English, (1280, 800));
    press(&app, "New Xiangqi game");
    press(&app, "Start game");
    tap_move(&app, "h3", "e3");
    tap_move(&app, "h10", "g8");
    press(&app, "Resign");
    // Resigning asks first.
    press(&app, "Yes, resign");
    assert!(one(&app, "Resignation").is_valid());
    press(&app, "See the board");
    press(&app, "Review the game");
    assert_eq!(screen(&app), Screen::Replay);
    press(&app, "Previous move");
    press(&app, "Continue from here");
    assert_eq!(screen(&app), Screen::Xiangqi);
    assert!(point(&app, "e3").contains("red 炮"));
    assert!(
        point(&app, "h10").contains("black 马"),
        "the position after one move"
    );
    assert!(one(&app, "Black · to move").is_valid());
    assert_eq!(app.window().global::<XiangqiAdapter>().get_game_id(), 2);
}

/// The position editor (issue 41): each rule the rules core checks is refused with its
/// reason on screen; a good position is played from New game, and analysed in replay.
#[test]
fn the_position_editor_says_why_a_board_is_no_position_then_plays_it() {
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path(), Language::English, (1280, 800));
    press(&app, "New Xiangqi game");
    assert!(one(&app, "The usual start").is_valid());
    press(&app, "Set up…");
    assert_eq!(screen(&app), Screen::Editor);
    assert!(one(&app, "A position: 32 pieces.").is_valid());
    let says = |text: &str| assert!(one(&app, &format!("× {text}")).is_valid(), "{text}");
    let put = |tool: &str, square: &str| {
        press(&app, tool);
        click(&app, square);
    };

    press(&app, "Clear");
    says("Red has no general.");
    says("Black has no general.");
    put("Red 帅", "e1");
    put("Black 将", "e10");
    says("The two generals face each other on an open file.");
    // Off their points: each kind where it never stands.
    put("Red 兵", "e2");
    says("兵 can never reach this point: a soldier goes only forward until it crosses the river.");
    put("Red 相", "e4");
    says("相 stands only on its seven points, on its own side of the river.");
    put("Black 士", "a10");
    says("士 stands only on the five points of its palace's cross.");
    put("Red 帅", "a1");
    says("帅 must stay in its palace.");
    says("Red has 2 帅: a side has 1.");
    put("Take pieces off", "e2");
    click(&app, "e4");
    click(&app, "a10");
    click(&app, "a1");
    // A soldier between the generals; a rook giving check with Red to move.
    put("Red 兵", "e5");
    put("Red 车", "d10");
    says("Black is in check, so it must be Black's move.");
    press(&app, "Black to move");
    assert!(one(&app, "A position: 4 pieces.").is_valid());
    // Mated already: no game to play.
    put("Red 车", "d9");
    says("Black, to move, has no legal move: the game would already be over.");
    put("Take pieces off", "d9");
    // With ✋ a piece is picked up and put down elsewhere.
    press(&app, "Move pieces");
    click(&app, "d10");
    click(&app, "d1");
    assert!(
        point(&app, "d1").contains("red 车"),
        "{}",
        point(&app, "d1")
    );
    assert!(!point(&app, "d10").contains("车"));
    assert!(one(&app, "A position: 4 pieces.").is_valid());

    press(&app, "Play from here");
    assert_eq!(screen(&app), Screen::NewGame);
    assert!(one(&app, "A position you set up").is_valid());
    press(&app, "Start game");
    assert_eq!(screen(&app), Screen::Xiangqi);
    assert!(point(&app, "d1").contains("red 车"));
    assert!(point(&app, "e5").contains("red 兵"));
    assert!(one(&app, "Black · to move").is_valid());

    // Analysed: a game of its own in replay, the engine on.
    press(&app, "Back");
    press(&app, "New Xiangqi game");
    press(&app, "Set up…");
    assert!(
        point(&app, "d1").contains("red 车"),
        "the position set up before"
    );
    press(&app, "Analyse");
    assert_eq!(screen(&app), Screen::Replay);
    let replay = app.window().global::<ReplayAdapter>();
    assert_eq!(replay.get_total(), 0);
    assert!(replay.get_analysing());
    replay.invoke_analyse(false);
}

#[test]
fn a_draw_offer_is_answered_by_the_other_side() {
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path(), Language::English, (360, 780));
    press(&app, "New Xiangqi game");
    press(&app, "Start game");
    tap_move(&app, "h3", "e3");
    press(&app, "Offer draw");
    assert!(one(&app, "Black offers a draw.").is_valid());
    press(&app, "Decline");
    assert!(all(&app, "Black offers a draw.").is_empty());
    // Black cannot offer again before moving; after Black moves, Red may offer.
    assert!(all(&app, "Offer draw").is_empty());
    tap_move(&app, "h10", "g8");
    press(&app, "Offer draw");
    assert!(one(&app, "Red offers a draw.").is_valid());
    press(&app, "Accept draw");
    assert!(one(&app, "Draw agreed").is_valid());
}

#[test]
fn confirm_moves_holds_a_move_until_confirmed() {
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path(), Language::English, (360, 780));
    press(&app, "Settings");
    press(&app, "Confirm each move");
    press(&app, "WXF");
    press(&app, "Back");
    press(&app, "New Xiangqi game");
    press(&app, "Start game");
    tap_move(&app, "h3", "e3");
    assert!(point(&app, "h3").contains("red 炮"), "not played yet");
    assert!(one(&app, "Play C2=5?").is_valid());
    press(&app, "Cancel");
    assert!(point(&app, "h3").contains("red 炮"));
    tap_move(&app, "h3", "e3");
    press(&app, "Confirm");
    assert!(point(&app, "e3").contains("red 炮"));
    assert!(
        one(&app, "C2=5").is_valid(),
        "the list follows the notation setting"
    );
}

#[test]
fn the_interface_switches_to_chinese() {
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path(), Language::English, (360, 780));
    press(&app, "Settings");
    press(&app, "中文");
    assert!(one(&app, "语言").is_valid());
    press(&app, "返回");
    assert!(one(&app, "新象棋对局").is_valid());
}

#[test]
fn flip_and_the_orientation_setting_turn_the_board() {
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path(), Language::English, (360, 780));
    let play = app.window().global::<XiangqiAdapter>();
    press(&app, "New Xiangqi game");
    press(&app, "Start game");
    assert!(!play.get_flipped(), "Red at the bottom by default");
    let red_cannon_y = one(&app, "h3").absolute_position().y;
    press(&app, "Flip");
    assert!(play.get_flipped());
    assert!(
        one(&app, "h3").absolute_position().y < red_cannon_y,
        "Red's side is now at the top"
    );
    press(&app, "Back");

    // "Side to move at the bottom": after Red moves, Black is at the bottom.
    press(&app, "Settings");
    press(&app, "Side to move at the bottom");
    press(&app, "Back");
    press(&app, "Continue game 1");
    assert!(!play.get_flipped());
    tap_move(&app, "h3", "e3");
    assert!(play.get_flipped(), "Black to move, Black at the bottom");
}

#[test]
fn every_game_of_the_registry_is_on_home_new_game_and_the_history_filter() {
    use qiguan_app::ui::{Games, HistoryAdapter, NewGameAdapter};
    use slint::Model;
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path(), Language::English, (360, 780));
    let codes: Vec<String> = app
        .window()
        .global::<Games>()
        .get_codes()
        .iter()
        .map(|c| c.to_string())
        .collect();
    let core: Vec<&str> = qiguan_core::GameKind::ALL
        .iter()
        .map(|k| k.as_str())
        .collect();
    assert_eq!(codes, core, "the screens list core's games, in order");
    for name in [
        "Xiangqi",
        "Junqi",
        "Aeroplane chess",
        "Sea-land-air battle chess",
    ] {
        assert!(one(&app, &format!("New {name} game")).is_valid());
    }
    press(&app, "New Junqi game");
    assert_eq!(
        app.window().global::<NewGameAdapter>().get_game_index(),
        1,
        "New game opens on the game's own choice"
    );
    press(&app, "Sea-land-air");
    assert_eq!(app.window().global::<NewGameAdapter>().get_game_index(), 3);
    press(&app, "Back");
    press(&app, "History");
    let names: Vec<String> = app
        .window()
        .global::<HistoryAdapter>()
        .get_game_names()
        .iter()
        .map(|c| c.to_string())
        .collect();
    assert_eq!(
        names,
        [
            "All games",
            "Xiangqi",
            "Junqi",
            "Aeroplane chess",
            "Sea-land-air battle chess"
        ]
    );
}

#[test]
fn a_game_screen_shown_again_draws_what_changed_meanwhile() {
    use qiguan_app::ui::{GamePhase, GameSession, HomeAdapter};
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path(), Language::English, (360, 780));
    press(&app, "New Xiangqi game");
    press(&app, "Start game");
    tap_move(&app, "h3", "e3");
    // An English player reads WXF until Settings say otherwise.
    assert!(one(&app, "C2=5").is_valid());
    // Settings over the game (as a phone's shortcut would open them), notation to Chinese,
    // back.
    app.window().global::<HomeAdapter>().invoke_settings();
    assert_eq!(screen(&app), Screen::Settings);
    press(&app, "Chinese");
    // Meanwhile another screen filled the shared session global.
    let gs = app.window().global::<GameSession>();
    gs.set_phase(GamePhase::Over);
    press(&app, "Back");
    assert_eq!(screen(&app), Screen::Xiangqi);
    assert!(
        one(&app, "炮二平五").is_valid(),
        "the list follows the new notation"
    );
    assert_eq!(
        gs.get_phase(),
        GamePhase::Play,
        "the game's own session is back"
    );
}

/// Statistics count your side of games against the computer, and games between people on
/// this device as played; they show per game, per opponent and in the month's column.
#[test]
fn statistics_count_the_finished_games_from_your_side() {
    use qiguan_app::ui::{GameSession, HomeAdapter, NewGameAdapter, StatsAdapter};
    use slint::Model;
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path(), Language::English, (360, 780));
    press(&app, "Statistics");
    assert_eq!(screen(&app), Screen::Statistics);
    assert!(
        one(
            &app,
            "No finished games yet. Your results show here once a game ends."
        )
        .is_valid()
    );
    press(&app, "Back");

    // A Junqi game against the computer, resigned at once: your loss.
    let ui = app.window();
    ui.global::<HomeAdapter>().invoke_new_game("junqi".into());
    let ng = ui.global::<NewGameAdapter>();
    ng.set_opponent(1);
    ng.set_strength(0); // the first computer, which answers at once
    ng.set_human_seat(0);
    ng.invoke_start();
    ui.global::<qiguan_app::ui::Deployment>().invoke_ready();
    let gs = ui.global::<GameSession>();
    gs.invoke_resign();
    assert!(gs.get_show_end_dialog());
    gs.set_show_end_dialog(false);
    press(&app, "Back");

    // A Xiangqi game between two people, drawn by agreement: played, nobody's result. (New
    // game remembers the computer as the opponent: a person is chosen again.)
    press(&app, "New Xiangqi game");
    press(&app, "A person here");
    press(&app, "Start game");
    tap_move(&app, "h3", "e3");
    press(&app, "Offer draw");
    press(&app, "Accept draw");
    press(&app, "Back");

    press(&app, "Statistics");
    let s = ui.global::<StatsAdapter>();
    assert_eq!(s.get_played(), 2);
    let yours = s.get_yours();
    assert_eq!((yours.wins, yours.draws, yours.losses), (0, 0, 1));
    let games: Vec<_> = s.get_games().iter().collect();
    let codes: Vec<String> = games.iter().map(|g| g.code.to_string()).collect();
    assert_eq!(codes, ["xiangqi", "junqi"], "in the registry's order");
    assert_eq!((games[0].played, games[0].yours.draws), (1, 0));
    assert_eq!((games[1].played, games[1].yours.losses), (1, 1));
    let opponents: Vec<_> = s.get_opponents().iter().collect();
    assert_eq!(opponents.len(), 1);
    assert_eq!(opponents[0].code.as_str(), "computer");
    let months: Vec<_> = s.get_months().iter().collect();
    assert_eq!(months.len(), 6);
    assert_eq!(months[5].yours.losses, 1, "this month's column");
    assert!(one(&app, "0% won · 2 games finished · 0 won · 0 drawn · 1 lost").is_valid());
    assert!(one(&app, "Junqi · 1 played · 0 won · 0 drawn · 1 lost").is_valid());
    assert!(one(&app, "Computer · 1 played · 0 won · 0 drawn · 1 lost").is_valid());
}

/// Each move is heard: a knock for a move, a double knock for a capture, a ring for check,
/// a battle's thud in Junqi, the die in Aeroplane chess; and nothing once Settings turns the
/// sounds off.
#[test]
fn sounds_follow_the_moves_and_the_setting() {
    use qiguan_app::ui::{AeroplaneAdapter, HomeAdapter, NewGameAdapter, SettingsAdapter};
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path(), Language::English, (1280, 800));
    press(&app, "New Xiangqi game");
    press(&app, "Start game");
    tap_move(&app, "h3", "e3");
    assert_eq!(app.sounds_played(), [Sound::Move]);
    tap_move(&app, "b8", "e8");
    tap_move(&app, "a4", "a5");
    // Black's cannon takes the pawn on e4 over its own pawn, and checks over Red's cannon:
    // check rings louder than the capture.
    tap_move(&app, "e8", "e4");
    assert_eq!(
        app.sounds_played().last(),
        Some(&Sound::Check),
        "{:?}",
        app.sounds_played()
    );
    tap_move(&app, "d1", "e2");
    assert_eq!(app.sounds_played().last(), Some(&Sound::Move));
    // Red's pawn takes Black's across the river.
    tap_move(&app, "a7", "a6");
    tap_move(&app, "a5", "a6");
    assert_eq!(
        app.sounds_played().last(),
        Some(&Sound::Capture),
        "{:?}",
        app.sounds_played()
    );
    // An undone move makes no sound.
    let heard = app.sounds_played().len();
    press(&app, "Undo");
    assert_eq!(app.sounds_played().len(), heard);

    // Junqi against the computer: an attack is a battle.
    press(&app, "Back");
    let ui = app.window();
    ui.global::<HomeAdapter>().invoke_new_game("junqi".into());
    let ng = ui.global::<NewGameAdapter>();
    ng.set_opponent(1);
    ng.set_strength(0); // the first computer, which answers at once
    ng.set_human_seat(0);
    ng.invoke_start();
    ui.global::<qiguan_app::ui::Deployment>().invoke_ready();
    common::jq_tap(&app, &["e5", "e6"]);
    assert!(
        app.sounds_played().contains(&Sound::Battle),
        "{:?}",
        app.sounds_played()
    );
    press(&app, "Back");

    // Aeroplane chess: the die.
    ui.global::<HomeAdapter>()
        .invoke_new_game("aeroplane".into());
    ui.global::<NewGameAdapter>().invoke_start();
    press(&app, "Roll the die");
    assert_eq!(app.sounds_played().last(), Some(&Sound::Roll));
    assert!(ui.global::<AeroplaneAdapter>().get_rolling());
    press(&app, "Back");

    // Sounds off: a move is silent.
    let heard = app.sounds_played().len();
    let settings = ui.global::<SettingsAdapter>();
    ui.global::<HomeAdapter>().invoke_settings();
    press(&app, "Sounds");
    assert!(!settings.get_sound());
    press(&app, "Back");
    press(&app, "New Xiangqi game");
    press(&app, "Start game");
    tap_move(&app, "h3", "e3");
    assert_eq!(app.sounds_played().len(), heard, "sounds are off");
}

/// A move slides from its square to the next, the piece it takes fading; the move is stored
/// first and the next tap is never held up. An undo shows at once.
#[test]
fn a_move_slides_and_never_holds_up_the_next_tap() {
    use qiguan_app::ui::Motion;
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path(), Language::English, (360, 780));
    press(&app, "New Xiangqi game");
    press(&app, "Start game");
    let motion = app.window().global::<Motion>();
    assert_eq!(motion.get_progress(), 1.0, "nothing moves at the start");
    tap_move(&app, "h3", "e3");
    // h3 and e3 as the board numbers them (rank by rank from Red's side, file a first).
    assert_eq!((motion.get_from(), motion.get_to()), (2 * 9 + 7, 2 * 9 + 4));
    assert_eq!(motion.get_progress(), 0.0);
    assert!(motion.get_active());
    assert!(
        point(&app, "e3").contains("red 炮"),
        "the board already holds the move"
    );
    // Black answers while Red's cannon is still on its way.
    tap_move(&app, "h10", "g8");
    assert!(point(&app, "g8").contains("black 马"));
    mock_elapsed_time(Duration::from_millis(120));
    let halfway = motion.get_progress();
    assert!(halfway > 0.0 && halfway < 1.0, "{halfway}");
    mock_elapsed_time(Duration::from_millis(300));
    assert_eq!(motion.get_progress(), 1.0);
    mock_elapsed_time(Duration::from_millis(20));
    assert!(!motion.get_active(), "over: nothing redraws for it");
    // A capture: the pawn on e7 fades under the cannon.
    tap_move(&app, "e3", "e7");
    assert_eq!(motion.get_captured().as_str(), "卒");
    assert!(!motion.get_captured_red());
    mock_elapsed_time(Duration::from_millis(400));
    // Undo shows the position at once.
    press(&app, "Undo");
    assert_eq!(motion.get_progress(), 1.0);
    assert!(point(&app, "e7").contains("black 卒"));
}

#[test]
fn each_game_shows_its_rules_from_new_game_and_from_its_screen_in_both_languages() {
    use qiguan_app::ui::{HomeAdapter, NewGameAdapter, RuleBlock, RulesAdapter};
    use slint::Model;
    let blocks = |app: &App| -> Vec<RuleBlock> {
        app.window()
            .global::<RulesAdapter>()
            .get_blocks()
            .iter()
            .collect()
    };
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path(), Language::English, (360, 780));
    let ui = app.window();

    // From New game: the rules of the game chosen there.
    ui.global::<HomeAdapter>().invoke_new_game("junqi".into());
    press(&app, "Rules");
    assert_eq!(screen(&app), Screen::Rules);
    assert_eq!(ui.global::<RulesAdapter>().get_game(), "junqi");
    assert!(one(&app, "Junqi 军棋 (land battle chess)").is_valid());
    // The pieces table, a row per piece (on a phone each row is a card).
    let rows: Vec<String> = blocks(&app)
        .iter()
        .filter(|b| b.kind == "row")
        .map(|b| b.plain.to_string())
        .collect();
    assert!(
        rows.contains(&"司令 Field Marshal · 1 · 1".to_string()),
        "{rows:?}"
    );
    press(&app, "Back");
    assert_eq!(screen(&app), Screen::NewGame);

    // From a game's screen, and back to the same game.
    ui.global::<HomeAdapter>().invoke_new_game("xiangqi".into());
    ui.global::<NewGameAdapter>().invoke_start();
    common::play(&app, &["h3e3"]);
    press(&app, "Rules");
    assert_eq!(screen(&app), Screen::Rules);
    assert_eq!(ui.global::<RulesAdapter>().get_game(), "xiangqi");
    let page = blocks(&app);
    assert_eq!(page[0].kind, "h1");
    assert_eq!(page[0].plain, "Xiangqi 象棋 (Chinese chess)");
    // Bold words and code keep their words; a list nested in an item is one level deeper.
    let flying = page
        .iter()
        .find(|b| b.plain.starts_with("Flying general."))
        .expect("the flying general rule");
    assert_eq!((flying.kind.as_str(), flying.marker.as_str()), ("li", "•"));
    assert!(page.iter().any(|b| b.kind == "li"
        && b.depth == 2
        && b.plain.starts_with("the piece is unprotected")));
    press(&app, "Back");
    assert_eq!(screen(&app), Screen::Xiangqi);
    assert_eq!(ui.global::<XiangqiAdapter>().get_moves().row_count(), 1);
    drop(app);

    // In Chinese, the Chinese page, with the board picture drawn from its SVG.
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path(), Language::Chinese, (1280, 800));
    let ui = app.window();
    ui.global::<HomeAdapter>()
        .invoke_new_game("sea-land-air".into());
    press(&app, "规则");
    let page = blocks(&app);
    assert_eq!(page[0].plain, "海陆空战棋 Sea-land-air battle chess");
    let picture = page
        .iter()
        .find(|b| b.kind == "picture")
        .expect("the board picture");
    assert_eq!(picture.plain, "棋盘");
    assert_eq!(
        (picture.picture.size().width, picture.picture.size().height),
        (420, 1002)
    );
    // On a wide screen a table has its header row, with a share of the width per column.
    let head = page.iter().find(|b| b.kind == "head").expect("a table");
    let shares: f32 = head.weights.iter().sum();
    assert!((shares - 1.0).abs() < 1e-4, "{shares}");
    assert_eq!(head.plain, "棋子 · 英文 · 数量 · 等级 · 字母");
    assert_eq!(head.heads.row_count(), 5);
    press(&app, "返回");
    assert_eq!(screen(&app), Screen::NewGame);
}

#[test]
fn a_check_is_called_over_the_board_for_a_moment() {
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path(), Language::English, (360, 780));
    let ui = app.window();
    ui.global::<qiguan_app::ui::HomeAdapter>()
        .invoke_new_game("xiangqi".into());
    ui.global::<qiguan_app::ui::NewGameAdapter>().invoke_start();
    let a = ui.global::<XiangqiAdapter>();
    let shown = |app: &App| {
        all(app, "Check!")
            .into_iter()
            .filter(|e| e.is_valid() && e.computed_opacity() > 0.0)
            .count()
    };
    common::play(&app, &["a1a2", "c10e8"]);
    assert_eq!((a.get_check_count(), shown(&app)), (0, 0));
    // The cannon takes the horse on b10 with the advisor on d10 as its screen: check. The
    // seat's badge says so, and the call stands over the board.
    common::play(&app, &["b3b10"]);
    assert!(a.get_in_check());
    assert_eq!(a.get_check_count(), 1);
    mock_elapsed_time(Duration::from_millis(300));
    assert_eq!(shown(&app), 2, "the badge and the call");
    // A moment later the call has gone; the badge stays while the check does.
    mock_elapsed_time(Duration::from_millis(1200));
    mock_elapsed_time(Duration::from_millis(300));
    assert_eq!(shown(&app), 1);
    // Black answers: no check, no new call.
    common::play(&app, &["d10e9"]);
    assert!(!a.get_in_check());
    assert_eq!(a.get_check_count(), 1);
}

/// Issue 36 (found in a play-through): a window made bigger while a game is open — a phone
/// turned, a desktop window maximised — still takes taps on the board, and so does it made
/// small again.
#[test]
fn the_board_takes_taps_after_the_window_is_resized() {
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path(), Language::English, (360, 780));
    press(&app, "New Xiangqi game");
    press(&app, "Start game");
    assert_eq!(screen(&app), Screen::Xiangqi);
    let window = app.window().window();
    window.set_size(slint::PhysicalSize::new(1280, 800));
    common::next_frame();
    click(&app, "h3");
    assert!(
        !targets(&app).is_empty(),
        "a tap on h3 after growing selects the cannon"
    );
    click(&app, "e3");
    assert!(point(&app, "e3").contains("炮"), "{}", point(&app, "e3"));
    window.set_size(slint::PhysicalSize::new(360, 780));
    common::next_frame();
    // Two people on this device: Black's turn.
    click(&app, "b8");
    assert!(
        !targets(&app).is_empty(),
        "a tap on b8 after shrinking selects the cannon"
    );
}
