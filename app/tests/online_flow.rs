//! Correspondence through the UI: create on a real server (in this process), pass the code to
//! a second device, play, and see the opponent's move arrive.
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;

use common::{
    all, click, deployment, news, next_frame, one, point, press, result_code, server, set_active,
    start, targets, until,
};
use qiguan_app::settings::Language;
use qiguan_app::store::GameId;
use qiguan_app::sync::Correspondence;
use qiguan_app::ui::{GamePhase, GameSession, Waiting};
use qiguan_app::ui::{Nav, OnlineAdapter, Screen, SettingsAdapter};
use slint::{ComponentHandle, Model};
use std::time::Duration;

/// Starts a server and a phone-sized app in `dir` that uses it.
fn app_with_server(dir: &std::path::Path) -> (String, qiguan_app::App) {
    let url = server(dir);
    let app = start(&dir.join("red"), Language::English, (360, 780));
    let settings = app.window().global::<SettingsAdapter>();
    press(&app, "Settings");
    settings.set_server(url.clone().into());
    settings.invoke_changed();
    press(&app, "Back");
    (url, app)
}

/// Presses Create on the correspondence screen (its action: the button is below the house
/// rules on a phone) and returns the invite code the server gave.
fn create_game(app: &qiguan_app::App) -> String {
    let online = app.window().global::<OnlineAdapter>();
    online.invoke_create();
    until(app, Duration::from_secs(10), || {
        assert_eq!(online.get_error(), "", "the server refused");
        !online.get_invite().is_empty()
    });
    online.get_invite().to_string()
}

/// The descriptions of the Junqi points that start with `colour`.
fn junqi_pieces(app: &qiguan_app::App, colour: &str) -> Vec<String> {
    (0..12)
        .flat_map(|row| (0..5).map(move |c| format!("{}{row}", (b'a' + c) as char)))
        .map(|p| point(app, &p))
        .filter(|d| d.starts_with(colour))
        .collect()
}

/// Opens the correspondence game before the opponent has joined: it says what it waits for.
fn opened_before_the_opponent_joined(app: &qiguan_app::App, screen: Screen) {
    press(app, "Continue game 1");
    let gs = app.window().global::<GameSession>();
    assert_eq!(app.window().global::<Nav>().get_screen(), screen);
    assert!(gs.get_online());
    assert_eq!(
        gs.get_phase(),
        GamePhase::Deploy,
        "no hand-over screen online"
    );
    assert_eq!(gs.get_waiting(), Waiting::Join);
}

/// Once the game is over its whole record is kept, the opponent's `layout` too; the review
/// goes back to the start of play.
fn the_review_starts_from_the_whole_record(
    app: &qiguan_app::App,
    dir: &std::path::Path,
    layout: &str,
) {
    let gs = app.window().global::<GameSession>();
    gs.invoke_review();
    assert_eq!(gs.get_phase(), GamePhase::Review);
    let record = my_record(dir);
    assert!(
        record
            .actions
            .iter()
            .any(|e| e.action == format!("deploy:{layout}")),
        "the whole record is kept once the game is over"
    );
    gs.invoke_review_step(-(record.actions.len() as i32) + 2);
}

/// The other device of a correspondence game, joined with the invite code.
struct Opponent {
    rt: tokio::runtime::Runtime,
    device: Correspondence,
    game: GameId,
    _dir: tempfile::TempDir,
}

impl Opponent {
    fn join(url: &str, code: &str) -> Opponent {
        let rt = tokio::runtime::Runtime::new().unwrap();
        let dir = tempfile::tempdir().unwrap();
        let mut device = Correspondence::open(dir.path()).unwrap();
        let game = rt.block_on(device.join(url, code, "Bo")).unwrap();
        Opponent {
            rt,
            device,
            game,
            _dir: dir,
        }
    }

    /// Makes an action and sends it, once the server says it may be made (the other
    /// device's move may still be on its way: its outbox empties when the server has it, but
    /// this device learns of it only by asking).
    fn play(&mut self, action: &str) {
        let started = std::time::Instant::now();
        // A refused action changes nothing on the device: ask the server again.
        while let Err(e) = self.device.play(self.game, action) {
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "{action} never became legal: {e:?}"
            );
            std::thread::sleep(Duration::from_millis(20));
            self.rt.block_on(self.device.refresh(self.game)).unwrap();
        }
        assert_eq!(self.rt.block_on(self.device.flush()).unwrap().sent, 1);
    }

    /// Fetches the game, then the first legal action that `pick` likes.
    fn legal(&mut self, pick: impl Fn(&str) -> bool) -> String {
        self.rt.block_on(self.device.refresh(self.game)).unwrap();
        let view = self.device.seat_view(self.game).unwrap().unwrap();
        view.legal_actions.into_iter().find(|a| pick(a)).unwrap()
    }
}

/// The stored record of the game on this device, in `dir`'s app.
fn my_record(dir: &std::path::Path) -> qiguan_core::Record {
    let store = qiguan_app::store::Store::open_dir(&dir.join("red")).unwrap();
    store.load(GameId(1)).unwrap().record
}

#[test]
fn create_invite_join_play_and_see_the_opponents_move_within_a_second() {
    let dir = tempfile::tempdir().unwrap();
    let (url, app) = app_with_server(dir.path());

    press(&app, "Correspondence: play a friend over days");
    assert_eq!(app.window().global::<Nav>().get_screen(), Screen::Online);
    // The button is further down the phone's page, past the game's choices.
    common::scroll(&app, -400.0);
    press(&app, "Create game");
    let online = app.window().global::<OnlineAdapter>();
    until(&app, Duration::from_secs(10), || {
        assert_eq!(online.get_error(), "", "the server refused");
        !online.get_invite().is_empty()
    });
    let code = online.get_invite().to_string();
    // The page goes up to the new code (on the event loop's next turn).
    next_frame();
    assert!(one(&app, &format!("Invite code {code}")).is_valid());

    // The opponent's device joins with the code.
    let rt = tokio::runtime::Runtime::new().unwrap();
    let opp_dir = tempfile::tempdir().unwrap();
    let mut opponent = Correspondence::open(opp_dir.path()).unwrap();
    let theirs: GameId = rt.block_on(opponent.join(&url, &code, "Bo")).unwrap();

    press(&app, "Done");
    press(&app, "Continue game 1");
    assert_eq!(app.window().global::<Nav>().get_screen(), Screen::Xiangqi);
    assert!(app.window().global::<GameSession>().get_online());
    assert!(
        all(&app, "Undo").is_empty(),
        "no undo against a remote opponent"
    );

    click(&app, "h3");
    click(&app, "e3");
    assert!(point(&app, "e3").contains("red 炮"), "shown at once");
    until(&app, Duration::from_secs(10), || {
        online.get_pending() == 0 && online.get_online()
    });
    // Black's turn now: Red's pieces do not answer.
    click(&app, "e3");
    assert!(targets(&app).is_empty());

    assert!(
        rt.block_on(opponent.wait(theirs, Duration::from_secs(5)))
            .unwrap()
    );
    assert_eq!(opponent.game(theirs).unwrap().version(), 1);
    let heard = app.sounds_played().len();
    // With the window focused (the join above), the desktop was told nothing; now the player
    // looks elsewhere.
    assert_eq!(app.notifications(), []);
    set_active(&app, false);
    opponent.play(theirs, "h10g8").unwrap();
    rt.block_on(opponent.flush()).unwrap();
    let took = until(&app, Duration::from_secs(5), || {
        point(&app, "g8").contains("black 马")
    });
    assert!(
        took < Duration::from_secs(1),
        "the opponent's move took {took:?}"
    );
    assert!(one(&app, "Red · to move").is_valid());
    // The move that arrived sounded, once, and the desktop was told, once.
    assert_eq!(
        app.sounds_played()[heard..],
        [qiguan_app::sound::Sound::Move]
    );
    assert_eq!(
        app.notifications(),
        [qiguan_app::notify::Notice {
            title: "Your move".into(),
            body: "Bo has moved in your Xiangqi game.".into(),
        }]
    );
}

#[test]
fn a_correspondence_game_against_the_servers_engine_is_answered_by_the_server() {
    use qiguan_app::ui::NewGameAdapter;
    let dir = tempfile::tempdir().unwrap();
    let (_url, app) = app_with_server(dir.path());
    press(&app, "Correspondence: play a friend over days");
    let ng = app.window().global::<NewGameAdapter>();
    ng.set_game_index(0);
    press(&app, "The server's computer");
    press(&app, "Level 2");
    let online = app.window().global::<OnlineAdapter>();
    online.set_side(1);
    online.invoke_create();
    // Nobody to invite: the board opens, with the engine's first move (Red) on it.
    until(&app, Duration::from_secs(20), || {
        assert_eq!(online.get_error(), "", "the server refused");
        app.window().global::<Nav>().get_screen() == Screen::Xiangqi
            && app.window().global::<GameSession>().get_to_move() == 1
    });
    let session = app.window().global::<GameSession>();
    assert!(session.get_online());
    assert!(!all(&app, "Red · Computer (level 2)").is_empty());
    assert!(
        !session.get_thinking(),
        "the server plays it, not this device"
    );
    assert_eq!(app.thinking_in_flight(), 0);
    assert_eq!(my_record(dir.path()).actions.len(), 1);

    // The person's move goes to the server, which answers with the engine's.
    click(&app, "h8");
    click(&app, "e8");
    until(&app, Duration::from_secs(20), || {
        my_record(dir.path()).actions.len() == 3 && session.get_to_move() == 1
    });
    assert_eq!(app.thinking_in_flight(), 0, "nothing searched here");
    let actions = my_record(dir.path()).actions;
    assert_eq!(actions[1].action, "h8e8");
    assert_eq!(
        actions[2].by,
        qiguan_core::Actor::Seat(qiguan_core::Seat::FIRST)
    );
}

#[test]
fn home_lists_correspondence_games_waiting_for_me_first() {
    use qiguan_app::store::{Mode, NewGame, RemoteGame, Standing, Store};
    use qiguan_core::AnyMatch;
    let dir = tempfile::tempdir().unwrap();
    {
        let mut store = Store::open_dir(dir.path()).unwrap();
        let game = AnyMatch::new(
            qiguan_core::GameKind::Xiangqi,
            &serde_json::Value::Null,
            &serde_json::Value::Null,
        )
        .unwrap();
        let standing = Standing::of(&game);
        let remote_game =
            NewGame::from_match(&game, Mode::Correspondence, vec!["Me".into(), "Far".into()]);
        let remote = RemoteGame {
            game_id: GameId(0),
            server: "http://127.0.0.1:9".into(),
            remote_id: "abc".into(),
            seat: 0,
            token: "t".into(),
            invite_code: None,
            days_per_move: 3,
            deadline: Some(1),
            your_turn: true,
        };
        // The correspondence game is older; a local game was touched since.
        store
            .create_remote_game(&remote_game, &remote, &[], &standing, 1_000)
            .unwrap();
        let local = NewGame::from_match(&game, Mode::PassAndPlay, vec!["Near".into(), "By".into()]);
        store.create_game(&local, 2_000).unwrap();
    }
    let app = start(dir.path(), Language::English, (360, 780));
    let first = one(&app, "Continue game 1").absolute_position().y;
    let second = one(&app, "Continue game 2").absolute_position().y;
    assert!(
        first < second,
        "my-turn correspondence game {first} above the newer local one {second}"
    );
}

/// Junqi by correspondence: the app shows only its own seat (no hand-over screen), sends its
/// deployment and moves through the server, shows the opponent's as they arrive, offers a
/// draw, and once the game is over keeps the whole record for the review.
#[test]
fn a_junqi_correspondence_game_shows_only_my_seat_and_ends_with_everything_shown() {
    use qiguan_app::ui::NewGameAdapter;
    use qiguan_core::junqi::Deployment;

    let dir = tempfile::tempdir().unwrap();
    let (url, app) = app_with_server(dir.path());
    press(&app, "Correspondence: play a friend over days");
    let ng = app.window().global::<NewGameAdapter>();
    ng.set_game_index(1);
    app.window()
        .global::<qiguan_app::ui::JunqiRules>()
        .set_mode(0);
    let code = create_game(&app);
    press(&app, "Done");

    opened_before_the_opponent_joined(&app, Screen::Junqi);
    let gs = app.window().global::<GameSession>();

    let mut opponent = Opponent::join(&url, &code);
    let layout = Deployment::classic("快攻 Fast attack").unwrap().mirror();
    opponent.play(&format!("deploy:{}", layout.to_text()));
    until(&app, Duration::from_secs(5), || {
        gs.get_waiting() == Waiting::Nothing
    });
    junqi_deploy_and_attack(&app);
    junqi_draw_by_agreement(&app, &mut opponent);

    // The review shows Blue's layout.
    the_review_starts_from_the_whole_record(&app, dir.path(), &layout.to_text());
    let blue_named = junqi_pieces(&app, "Blue")
        .iter()
        .filter(|d| !d.contains("unknown"))
        .count();
    assert_eq!(blue_named, 25, "the review shows every piece");
}

/// A move Red can make now, as the two points to tap (from a piece's legal-move marks).
fn legal_junqi_move(app: &qiguan_app::App) -> (String, String) {
    use common::jq_tap;
    let points: Vec<String> = (0..12)
        .flat_map(|row| (0..5).map(move |c| format!("{}{row}", (b'a' + c) as char)))
        .collect();
    for from in points.iter().filter(|p| point(app, p).starts_with("Red")) {
        jq_tap(app, &[from]);
        let to = points
            .iter()
            .find(|p| point(app, p).contains("legal move"))
            .cloned();
        jq_tap(app, &[from]);
        if let Some(to) = to {
            return (from.clone(), to);
        }
    }
    panic!("Red has no move");
}

/// Red deploys (the steady defence it was offered), then its major on e5 takes what stands on
/// e6 (Blue's fast attack puts a piece there).
fn junqi_deploy_and_attack(app: &qiguan_app::App) {
    use common::jq_tap;
    let gs = app.window().global::<GameSession>();
    let online = app.window().global::<OnlineAdapter>();
    deployment(app).invoke_ready();
    until(app, Duration::from_secs(5), || {
        gs.get_phase() == GamePhase::Play && gs.get_waiting() == Waiting::Nothing
    });
    assert_eq!(gs.get_to_move(), 0);
    assert_eq!(junqi_pieces(app, "Red").len(), 25);
    let blue = junqi_pieces(app, "Blue");
    assert_eq!(blue.len(), 25);
    assert!(blue.iter().all(|d| d.contains("unknown piece")), "{blue:?}");

    jq_tap(app, &["e5"]);
    assert!(point(app, "e6").contains("legal move"));
    jq_tap(app, &["e6"]);
    until(app, Duration::from_secs(5), || {
        gs.get_waiting() == Waiting::Turn && online.get_pending() == 0
    });
    let banner = news(app).pop().expect("news of the battle");
    assert_eq!(banner.at, "e6");
    assert_eq!(banner.attacker, "营长", "Red knows its own piece");
    assert_eq!(banner.defender, "?", "but not Blue's");
}

/// Blue's move arrives; Red offers a draw (shown at once, sent), Blue declines it and Red
/// is told so (issue 36: the offer silently vanished; the server keeps this game's record,
/// so the device learns it from its seat's view); Red offers again and Blue accepts.
fn junqi_draw_by_agreement(app: &qiguan_app::App, opponent: &mut Opponent) {
    let gs = app.window().global::<GameSession>();
    let mv = opponent.legal(|a| a.parse::<qiguan_core::junqi::Move>().is_ok());
    opponent.play(&mv);
    until(app, Duration::from_secs(5), || gs.get_to_move() == 0);
    assert_eq!(gs.get_waiting(), Waiting::Nothing);

    assert_eq!(gs.get_draw_declined_by(), -1);
    gs.invoke_offer_draw();
    until(app, Duration::from_secs(5), || {
        gs.get_waiting() == Waiting::Nothing && gs.get_draw_offered_by() == 0
    });
    opponent.play("decline-draw");
    until(app, Duration::from_secs(5), || {
        gs.get_draw_declined_by() == 1
    });
    assert_eq!(gs.get_draw_offered_by(), -1, "the offer is gone");
    assert_eq!(gs.get_phase(), GamePhase::Play);
    if gs.get_to_move() == 0 {
        // Red moves on (any piece it can): the news of the declined offer goes with it.
        let red_move = legal_junqi_move(app);
        common::jq_tap(app, &[&red_move.0, &red_move.1]);
        until(app, Duration::from_secs(5), || gs.get_to_move() == 1);
        assert_eq!(gs.get_draw_declined_by(), -1, "told until Red acts");
        let mv = opponent.legal(|a| a.parse::<qiguan_core::junqi::Move>().is_ok());
        opponent.play(&mv);
    } else {
        let mv = opponent.legal(|a| a.parse::<qiguan_core::junqi::Move>().is_ok());
        opponent.play(&mv);
    }
    until(app, Duration::from_secs(5), || gs.get_to_move() == 0);

    assert!(gs.get_can_offer_draw());
    gs.invoke_offer_draw();
    assert_eq!(gs.get_waiting(), Waiting::Sending);
    assert_eq!(gs.get_draw_offered_by(), 0, "shown as made at once");
    until(app, Duration::from_secs(5), || {
        gs.get_waiting() == Waiting::Nothing
    });
    assert_eq!(gs.get_draw_offered_by(), 0);
    assert!(!gs.get_can_offer_draw());
    opponent.legal(|a| a == "accept-draw");
    opponent.play("accept-draw");
    until(app, Duration::from_secs(5), || {
        gs.get_phase() == GamePhase::Over
    });
    assert_eq!(result_code(&gs.get_outcome()), "draw");
    assert!(gs.get_show_end_dialog());
}

#[test]
fn an_aeroplane_correspondence_game_with_the_servers_computer_and_the_servers_rolls() {
    use qiguan_app::ui::{AeroplaneAdapter, NewGameAdapter};
    use slint::Model;

    let dir = tempfile::tempdir().unwrap();
    let (url, app) = app_with_server(dir.path());
    press(&app, "Correspondence: play a friend over days");
    // Three seats: me (red), the server's strong computer (yellow), a friend invited (blue).
    let ng = app.window().global::<NewGameAdapter>();
    ng.set_game_index(2);
    app.window()
        .global::<qiguan_app::ui::AeroplaneRules>()
        .set_seats(1);
    app.window()
        .global::<qiguan_app::ui::AeroplaneRules>()
        .set_p1(2);
    app.window()
        .global::<qiguan_app::ui::AeroplaneRules>()
        .set_p2(0);
    let code = create_game(&app);
    assert_eq!(
        code.len(),
        11,
        "one code: the computer's seat needs none ({code})"
    );
    press(&app, "Done");
    press(&app, "Continue game 1");
    assert_eq!(app.window().global::<Nav>().get_screen(), Screen::Aeroplane);
    let a = app.window().global::<AeroplaneAdapter>();
    let gs = app.window().global::<GameSession>();
    assert!(gs.get_online());
    assert_eq!(gs.get_viewer(), 0, "this device flies red");
    assert_eq!(gs.get_waiting(), Waiting::Join);
    assert!(!a.get_can_roll(), "nobody rolls before everyone is in");

    let mut friend = Opponent::join(&url, &code);
    until(&app, Duration::from_secs(5), || a.get_can_roll());
    let seats: Vec<String> = a
        .get_seats()
        .iter()
        .map(|s| s.computer.to_string())
        .collect();
    assert_eq!(seats, ["", "strong", ""]);

    aeroplane_the_server_rolls(&app, dir.path());
    aeroplane_red_plays_until_the_turn_leaves(&app);
    until(&app, Duration::from_secs(5), || a.get_turn() == 2);
    friend
        .rt
        .block_on(friend.device.refresh(friend.game))
        .unwrap();
    assert_eq!(
        friend.device.game(friend.game).unwrap().to_act(),
        qiguan_core::ToAct::Seat(qiguan_core::Seat::new(2).unwrap()),
        "the friend sees the game, at its turn"
    );
}

/// The tap asks the server, whose roll comes back with its answer.
fn aeroplane_the_server_rolls(app: &qiguan_app::App, dir: &std::path::Path) {
    use qiguan_app::store::Store;
    use qiguan_app::ui::AeroplaneAdapter;
    let a = app.window().global::<AeroplaneAdapter>();
    let online = app.window().global::<OnlineAdapter>();
    press(app, "Roll the die");
    // The ask is stored the moment it is made, and queued until the server has it. (Whether
    // the sync worker has sent it yet is a race this test does not arrange: the outbox holds
    // it, or nothing once the server has answered.)
    let store = Store::open_dir(&dir.join("red")).unwrap();
    let stored = store.load(GameId(1)).unwrap().record.actions;
    assert_eq!(stored.first().map(|e| e.action.as_str()), Some("roll"));
    assert!(store.outbox().unwrap().len() <= 1);
    until(app, Duration::from_secs(5), || {
        online.get_pending() == 0 && a.get_die() > 0
    });
    let game = Correspondence::open(&dir.join("red"))
        .unwrap()
        .game(GameId(1))
        .unwrap();
    let record = game.record();
    assert_eq!(record.actions[0].action, "roll");
    assert_eq!(record.actions[1].by, qiguan_core::Actor::Authority);
    assert!(record.actions[1].action.starts_with('d'));
    // The die shows the last roll the server made (the computer may have played since).
    let last_roll = record
        .actions
        .iter()
        .rev()
        .find(|e| e.by == qiguan_core::Actor::Authority)
        .unwrap();
    assert_eq!(last_roll.action, format!("d{}", a.get_die()));
}

/// Red plays on until the turn leaves it; the computer's turn never waits for anyone.
fn aeroplane_red_plays_until_the_turn_leaves(app: &qiguan_app::App) {
    use qiguan_app::ui::AeroplaneAdapter;
    use slint::Model;
    let a = app.window().global::<AeroplaneAdapter>();
    let gs = app.window().global::<GameSession>();
    let online = app.window().global::<OnlineAdapter>();
    let settled = || {
        online.get_pending() == 0
            && (a.get_can_roll() || a.get_choices().row_count() > 0 || a.get_turn() != 0)
    };
    until(app, Duration::from_secs(5), settled);
    for _ in 0..30 {
        if a.get_turn() != 0 {
            break;
        }
        // (The die tumbles on a timer that only mock time moves here: its action directly.)
        if a.get_can_roll() {
            a.invoke_roll();
        } else {
            a.invoke_choose(0);
        }
        until(app, Duration::from_secs(5), || {
            online.get_pending() == 0 && gs.get_sync_line() == qiguan_app::ui::SyncLine::Current
        });
        until(app, Duration::from_secs(5), settled);
    }
}

/// The descriptions of the Sea-land-air points that start with `colour`.
fn sea_land_air_pieces(app: &qiguan_app::App, colour: &str) -> Vec<String> {
    use qiguan_core::sealandair::Point;
    (0..99)
        .map(|i| point(app, &Point::from_index(i).unwrap().to_string()))
        .filter(|d| d.starts_with(colour))
        .collect()
}

#[test]
fn a_sea_land_air_correspondence_game_shows_only_my_seat_and_ends_with_everything_shown() {
    use qiguan_app::ui::NewGameAdapter;
    use qiguan_core::junqi::Side;
    use qiguan_core::sealandair::Deployment;

    let dir = tempfile::tempdir().unwrap();
    let (url, app) = app_with_server(dir.path());
    press(&app, "Correspondence: play a friend over days");
    let ng = app.window().global::<NewGameAdapter>();
    ng.set_game_index(3);
    let code = create_game(&app);
    press(&app, "Done");
    opened_before_the_opponent_joined(&app, Screen::SeaLandAir);
    let gs = app.window().global::<GameSession>();

    let mut opponent = Opponent::join(&url, &code);
    let layout = Deployment::sensible(Side::North, 5);
    a_layout_with_the_flag_out_of_the_city_is_refused(&mut opponent, &layout);
    opponent.play(&format!("deploy:{}", layout.to_text()));
    until(&app, Duration::from_secs(5), || {
        gs.get_waiting() == Waiting::Nothing
    });
    sea_land_air_deploy_and_move(&app, dir.path());

    // Blue answers; then Red resigns.
    let reply = opponent.legal(|a| a.contains('-'));
    opponent.play(&reply);
    until(&app, Duration::from_secs(5), || gs.get_to_move() == 0);
    assert!(gs.get_can_resign());
    gs.invoke_resign();
    until(&app, Duration::from_secs(5), || {
        gs.get_phase() == GamePhase::Over
    });
    assert_eq!(result_code(&gs.get_outcome()), "win:1");
    the_review_starts_from_the_whole_record(&app, dir.path(), &layout.to_text());
    let blue_named = sea_land_air_pieces(&app, "Blue")
        .iter()
        .filter(|d| !d.contains("unknown"))
        .count();
    assert_eq!(blue_named, 37, "the review shows every piece");
}

/// A layout with the flag out of the city is refused on the device, before it is queued.
fn a_layout_with_the_flag_out_of_the_city_is_refused(
    opponent: &mut Opponent,
    layout: &qiguan_core::sealandair::Deployment,
) {
    let mut bad = layout.clone();
    let flag = bad
        .pieces
        .iter()
        .find(|(_, k)| *k == qiguan_core::sealandair::Kind::Flag)
        .unwrap()
        .0;
    bad.swap(flag, "c7".parse().unwrap());
    let refused = opponent
        .device
        .play(opponent.game, &format!("deploy:{}", bad.to_text()))
        .unwrap_err();
    assert!(refused.to_string().contains("city"), "{refused}");
}

/// Red deploys, sees only its own pieces, and moves what the computer would, by tapping; the
/// server's answer comes back.
fn sea_land_air_deploy_and_move(app: &qiguan_app::App, dir: &std::path::Path) {
    use common::sla_tap;
    use qiguan_core::sealandair::{SeaLandAirView, bot};
    let gs = app.window().global::<GameSession>();
    let online = app.window().global::<OnlineAdapter>();
    deployment(app).invoke_ready();
    until(app, Duration::from_secs(5), || {
        gs.get_phase() == GamePhase::Play && gs.get_waiting() == Waiting::Nothing
    });
    assert_eq!(gs.get_to_move(), 0);
    assert_eq!(sea_land_air_pieces(app, "Red").len(), 37);
    let blue = sea_land_air_pieces(app, "Blue");
    assert_eq!(blue.len(), 37);
    assert!(blue.iter().all(|d| d.contains("unknown piece")), "{blue:?}");

    let store = qiguan_app::store::Store::open_dir(&dir.join("red")).unwrap();
    let kept = store.seat_view(GameId(1)).unwrap().unwrap();
    let server: qiguan_app::sync::ServerView = serde_json::from_str(&kept).unwrap();
    let view: SeaLandAirView = serde_json::from_value(server.view["game"].clone()).unwrap();
    let mv = bot::choose(&view, qiguan_core::Seat::FIRST, 3)
        .unwrap()
        .to_string();
    let (from, to) = mv.split_once(['-', '*']).unwrap();
    sla_tap(app, &[from, to]);
    until(app, Duration::from_secs(5), || {
        gs.get_waiting() == Waiting::Turn && online.get_pending() == 0
    });
}

/// The list and the game say where a correspondence game stands: waiting for the join, then
/// whose move it is, the opponent's name, and the moves made, as soon as the server has them.
#[test]
fn the_correspondence_list_and_game_follow_the_join_and_the_moves() {
    let dir = tempfile::tempdir().unwrap();
    let (url, app) = app_with_server(dir.path());
    press(&app, "Correspondence: play a friend over days");
    let code = create_game(&app);
    let online = app.window().global::<OnlineAdapter>();
    let row = || online.get_games().row_data(0).expect("the game is listed");
    assert_eq!(row().plies, 0);
    assert!(row().waiting_join, "no one has joined yet: {:?}", row());

    let mut opponent = Opponent::join(&url, &code);
    until(&app, Duration::from_secs(5), || !row().waiting_join);
    assert_eq!(row().to_move, 0, "Red, the creator, moves first");
    assert!(
        row().names.iter().any(|name| name == "Bo"),
        "{:?}",
        row().names
    );
    assert_eq!(online.get_invite(), "", "the code was used: no invite card");
    // The time left to move, from the server's deadline (the game gives 3 days a move),
    // in the list and in the game.
    let days = 3 * 24 * 60;
    let left = row().minutes_left;
    assert!((days - 5..=days).contains(&left), "{left} minutes left");
    assert!(!all(&app, "2 d 23 h left").is_empty() || left == days);

    press(&app, "Continue game 1");
    let gs = app.window().global::<GameSession>();
    assert_eq!(
        gs.get_waiting(),
        Waiting::Nothing,
        "Red to move, no one to wait for"
    );
    assert!((days - 5..=days).contains(&gs.get_minutes_left()));
    assert!(
        !all(&app, "Time to move: 2 d 23 h left").is_empty()
            || !all(&app, "Time to move: 3 d 0 h left").is_empty()
    );
    click(&app, "h3");
    click(&app, "e3");
    until(&app, Duration::from_secs(10), || online.get_pending() == 0);
    let game = opponent.game;
    opponent.rt.block_on(opponent.device.refresh(game)).unwrap();
    opponent.play("h10g8");
    until(&app, Duration::from_secs(5), || {
        point(&app, "g8").contains("black 马")
    });
    click(&app, "b3");
    click(&app, "b10");
    until(&app, Duration::from_secs(10), || online.get_pending() == 0);
    press(&app, "Back");
    assert_eq!((row().plies, row().to_move), (3, 1), "{:?}", row());
    // A move that arrives while the list shows updates it (a periodic refresh of all games).
    let game = opponent.game;
    opponent.rt.block_on(opponent.device.refresh(game)).unwrap();
    opponent.play("a10b10");
    until(&app, Duration::from_secs(25), || row().plies == 4);
    assert_eq!(row().to_move, 0);
}

/// What the server refused is said in the interface's language, from the server's code.
#[test]
fn a_wrong_invite_code_is_refused_in_chinese() {
    let dir = tempfile::tempdir().unwrap();
    let url = server(dir.path());
    let app = start(&dir.path().join("red"), Language::Chinese, (360, 780));
    let settings = app.window().global::<SettingsAdapter>();
    settings.set_server(url.into());
    settings.invoke_changed();
    let online = app.window().global::<OnlineAdapter>();
    online.set_code("ZZZZZ-ZZZZZ".into());
    online.invoke_join();
    until(&app, Duration::from_secs(10), || {
        !online.get_error().is_empty()
    });
    assert_eq!(online.get_error(), "unknown-invite");
    app.window()
        .global::<qiguan_app::ui::HomeAdapter>()
        .invoke_online();
    assert!(one(&app, "没有哪局棋用这个邀请码。").is_valid());
}

/// Preset phrases: chosen from the game's sheet and kept before they show, then sent; the
/// opponent's arrive at once, called out over the top bar with a sound, and told by the
/// desktop while the window is in the background. "Another game?" still goes after the end.
#[test]
fn players_exchange_preset_phrases_and_hear_them_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let (url, app) = app_with_server(dir.path());
    press(&app, "Correspondence: play a friend over days");
    let code = create_game(&app);
    let mut opponent = Opponent::join(&url, &code);
    press(&app, "Done");
    press(&app, "Continue game 1");
    let gs = app.window().global::<GameSession>();
    assert!(gs.get_can_say(), "a person sits in the other seat");
    assert_eq!(gs.get_phrases().row_count(), 0);

    press(&app, "Phrases");
    assert!(gs.get_choosing_phrase());
    assert!(one(&app, "Nothing said yet. Only these phrases can be sent.").is_valid());
    press(&app, "Good move");
    assert!(!gs.get_choosing_phrase());
    // Shown at once, then sent.
    assert_eq!(gs.get_phrases().row_count(), 1);
    let online = app.window().global::<OnlineAdapter>();
    until(&app, Duration::from_secs(10), || {
        gs.get_phrases().row_data(0).is_some_and(|p| p.sent)
    });
    assert!(one(&app, "You: Good move").is_valid());
    let game = opponent.game;
    opponent.rt.block_on(opponent.device.refresh(game)).unwrap();
    let heard = opponent.device.take_heard();
    assert_eq!(heard.len(), 1);
    assert_eq!(
        (heard[0].1.seat, heard[0].1.phrase.as_str()),
        (0, "good-move")
    );

    // The opponent answers: on screen within a second, with a sound, and nothing for the
    // desktop while the window has the player's attention.
    let sounds = app.sounds_played().len();
    let say = |opponent: &mut Opponent, phrase: &str| {
        opponent.device.say(game, phrase).unwrap();
        opponent.rt.block_on(opponent.device.flush()).unwrap();
    };
    say(&mut opponent, "thanks");
    let took = until(&app, Duration::from_secs(5), || gs.get_heard_count() == 1);
    assert!(took < Duration::from_secs(1), "the phrase took {took:?}");
    assert_eq!(gs.get_heard().phrase, "thanks");
    assert!(!all(&app, "Black · Bo: Thanks").is_empty());
    assert_eq!(
        app.sounds_played()[sounds..],
        [qiguan_app::sound::Sound::Message]
    );
    assert_eq!(app.notifications(), []);
    // In the background, the desktop tells it.
    set_active(&app, false);
    say(&mut opponent, "hurry");
    until(&app, Duration::from_secs(5), || gs.get_heard_count() == 2);
    assert_eq!(
        app.notifications(),
        [qiguan_app::notify::Notice {
            title: "Xiangqi".into(),
            body: "Bo: Please hurry".into(),
        }]
    );
    set_active(&app, true);

    // The sheet holds the conversation, oldest first.
    press(&app, "Phrases");
    let lines: Vec<String> = gs
        .get_phrases()
        .iter()
        .map(|p| format!("{}:{}", p.seat, p.phrase))
        .collect();
    assert_eq!(lines, ["0:good-move", "1:thanks", "1:hurry"]);
    // In the sheet, and as the newest line under the board.
    assert!(all(&app, "Black · Bo: Please hurry").len() >= 2);
    assert!(one(&app, "Black · Bo: Thanks").is_valid());
    press(&app, "Close");

    // After the end, a rematch may still be asked for.
    opponent.play("resign");
    until(&app, Duration::from_secs(5), || {
        gs.get_phase() == GamePhase::Over
    });
    press(&app, "See the board");
    press(&app, "Phrases");
    press(&app, "Another game?");
    until(&app, Duration::from_secs(10), || {
        online.get_pending() == 0 && gs.get_phrases().iter().all(|p| p.sent)
    });
    opponent.rt.block_on(opponent.device.refresh(game)).unwrap();
    let heard = opponent.device.take_heard();
    assert_eq!(heard.last().map(|h| h.1.phrase.as_str()), Some("rematch"));
}

/// Issue 36: on a phone, what a request brings shows where the player looks. Create pressed
/// far down the page shows the new game's code; a wrong code's message and an unreachable
/// server's likewise (the page used to stay at the bottom while they appeared at the top).
#[test]
fn what_a_request_brings_shows_on_a_phone() {
    let dir = tempfile::tempdir().unwrap();
    let (_url, app) = app_with_server(dir.path());
    let online = app.window().global::<OnlineAdapter>();
    app.window()
        .global::<qiguan_app::ui::HomeAdapter>()
        .invoke_online();
    common::scroll(&app, -5000.0);
    let code = create_game(&app);
    // (A change handler runs on the event loop's next turn.)
    next_frame();
    common::inside_window(&app, &[&format!("Invite code {code}")]);

    online.invoke_dismiss_invite();
    common::scroll(&app, -5000.0);
    online.set_code("ZZZZZ-ZZZZZ".into());
    online.invoke_join();
    until(&app, Duration::from_secs(10), || {
        !online.get_error().is_empty()
    });
    next_frame();
    common::inside_window(&app, &["No game has this invite code."]);

    // A server that is not there (nothing listens on the discard port).
    let settings = app.window().global::<SettingsAdapter>();
    settings.set_server("http://127.0.0.1:9".into());
    settings.invoke_changed();
    app.window()
        .global::<qiguan_app::ui::HomeAdapter>()
        .invoke_online();
    common::scroll(&app, -5000.0);
    online.set_code("ZZZZZ-ZZZZZ".into());
    online.invoke_join();
    until(&app, Duration::from_secs(30), || {
        online.get_error() == "offline"
    });
    next_frame();
    common::inside_window(
        &app,
        &["The server cannot be reached. Check its address in Settings and the connection."],
    );
}

/// Issue 36: no made-up server address. A first run has none, and the correspondence screen
/// says what it needs; an address is checked as it is typed (any text used to be taken, and
/// Refresh then said nothing), and a good one is kept.
#[test]
fn a_server_address_is_needed_first_and_checked_when_typed() {
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path(), Language::English, (360, 780));
    let ui = app.window();
    let online = ui.global::<OnlineAdapter>();
    ui.global::<qiguan_app::ui::HomeAdapter>().invoke_online();
    assert_eq!(online.get_server(), "");
    assert!(
        one(
            &app,
            "Correspondence games go through a Qiguan server, which you or a friend can run on any computer. Enter its address in Settings."
        )
        .is_valid()
    );
    online.invoke_create();
    assert_eq!(online.get_error(), "no-server");
    assert!(!online.get_busy(), "nothing was sent");
    online.invoke_refresh();
    assert_eq!(online.get_error(), "no-server");

    let settings = ui.global::<SettingsAdapter>();
    press(&app, "Settings");
    assert_eq!(ui.global::<Nav>().get_screen(), Screen::Settings);
    settings.set_server("not a url at all".into());
    settings.invoke_changed();
    assert_eq!(settings.get_server_problem(), "not-an-address");
    settings.set_server("https://example.org/?game=3".into());
    settings.invoke_changed();
    assert_eq!(settings.get_server_problem(), "not-a-server");
    ui.global::<qiguan_app::ui::HomeAdapter>().invoke_online();
    assert_eq!(online.get_server(), "", "a bad address is not kept");

    settings.set_server(" https://qiguan.example.org/ ".into());
    settings.invoke_changed();
    assert_eq!(settings.get_server_problem(), "");
    // Back on the correspondence screen, the request for an address is gone.
    ui.global::<qiguan_app::ui::HomeAdapter>().invoke_online();
    assert_eq!(online.get_error(), "", "no stale 'enter an address first'");
    drop(app);
    let app = start(dir.path(), Language::English, (360, 780));
    app.window()
        .global::<qiguan_app::ui::HomeAdapter>()
        .invoke_online();
    assert_eq!(
        app.window().global::<OnlineAdapter>().get_server(),
        "https://qiguan.example.org"
    );
}

/// Share: a pass-and-play Xiangqi game in progress goes up to the server in Settings from the
/// game screen's Share button; the dialog shows its link (the same one when asked again),
/// copies it, and withdraws it (the page then answers 410). Without a server it says where to
/// set one.
#[test]
fn a_game_on_this_device_is_shared_from_its_screen_and_withdrawn() {
    use common::use_server;
    use qiguan_app::ui::ShareAdapter;
    let dir = tempfile::tempdir().unwrap();
    let app = start(&dir.path().join("red"), Language::English, (360, 780));
    press(&app, "New Xiangqi game");
    press(&app, "Start game");
    click(&app, "h3");
    click(&app, "e3");
    let share = app.window().global::<ShareAdapter>();
    assert!(all(&app, "Share this game").is_empty());

    // No server yet: the dialog says what to do.
    press(&app, "Share");
    assert!(one(&app, "Share this game").is_valid());
    until(&app, Duration::from_secs(10), || share.get_state() == 3);
    assert_eq!(share.get_error(), "no-server");
    assert!(
        all(&app, "Try again").is_empty(),
        "trying again cannot help"
    );
    press(&app, "Close");
    assert!(all(&app, "Share this game").is_empty());
    // Its Settings button goes where the address is entered, and Back comes back.
    press(&app, "Share");
    until(&app, Duration::from_secs(10), || share.get_state() == 3);
    press(&app, "Settings");
    assert_eq!(app.window().global::<Nav>().get_screen(), Screen::Settings);
    assert_eq!(share.get_state(), 0, "the dialog closed");
    app.window().global::<Nav>().invoke_back();
    assert_eq!(app.window().global::<Nav>().get_screen(), Screen::Xiangqi);

    let url = server(dir.path());
    use_server(&app, &url);
    // Back from Settings to the game.
    assert_eq!(app.window().global::<Nav>().get_screen(), Screen::Xiangqi);
    press(&app, "Share");
    until(&app, Duration::from_secs(10), || share.get_state() == 2);
    let link = share.get_link().to_string();
    assert!(link.starts_with(&format!("{url}/g/")), "{link}");
    assert!(one(&app, "Link to the game").is_valid());
    press(&app, "Copy link");
    assert!(one(&app, "Copied ✓").is_valid());
    let page = |link: &str| {
        let link = link.to_owned();
        std::thread::spawn(move || {
            tokio::runtime::Runtime::new().unwrap().block_on(async {
                reqwest::get(&link)
                    .await
                    .map(|r| r.status().as_u16())
                    .unwrap()
            })
        })
        .join()
        .unwrap()
    };
    assert_eq!(page(&link), 200);
    // The game goes on here: each move goes up to the page (one made before sharing).
    let actions = |link: &str| {
        let link = format!("{link}.json");
        std::thread::spawn(move || {
            tokio::runtime::Runtime::new().unwrap().block_on(async {
                let record: serde_json::Value =
                    reqwest::get(&link).await.unwrap().json().await.unwrap();
                record["actions"].as_array().map_or(0, Vec::len)
            })
        })
        .join()
        .unwrap()
    };
    assert_eq!(actions(&link), 1);
    press(&app, "Close");
    click(&app, "h8");
    click(&app, "e8");
    until(&app, Duration::from_secs(10), || actions(&link) == 2);
    press(&app, "Share");
    until(&app, Duration::from_secs(10), || share.get_state() == 2);
    assert_eq!(share.get_link(), link.as_str(), "the same link again");
    // Escape (Back on a phone) closes the dialog, not the game.
    let key: slint::SharedString = slint::platform::Key::Escape.into();
    let window = app.window().window();
    window.dispatch_event(slint::platform::WindowEvent::KeyPressed { text: key.clone() });
    window.dispatch_event(slint::platform::WindowEvent::KeyReleased { text: key });
    assert_eq!(share.get_state(), 0);
    assert_eq!(app.window().global::<Nav>().get_screen(), Screen::Xiangqi);
    press(&app, "Share");
    until(&app, Duration::from_secs(10), || share.get_state() == 2);

    // Withdraw asks first.
    press(&app, "Withdraw");
    let asked = "Withdraw the link? Anyone who has it can no longer open the game.";
    assert!(one(&app, asked).is_valid());
    press(&app, "Keep it");
    assert!(all(&app, asked).is_empty());
    assert_eq!(share.get_state(), 2);
    assert_eq!(page(&link), 200);
    press(&app, "Withdraw");
    press(&app, "Withdraw");
    until(&app, Duration::from_secs(10), || share.get_state() == 0);
    assert!(all(&app, "Share this game").is_empty());
    assert_eq!(page(&link), 410);
}

/// Share on Android: the platform's share sheet is offered first and gets the link and the
/// dialog's title; when the sheet cannot open, the dialog says so and keeps the link to copy.
#[test]
fn the_platforms_share_sheet_gets_the_link() {
    use common::{start_with_share_sheet, use_server};
    use qiguan_app::share::SystemShare;
    use qiguan_app::ui::ShareAdapter;
    use std::sync::{Arc, Mutex};
    let dir = tempfile::tempdir().unwrap();
    let sent = Arc::new(Mutex::new(Vec::<(String, String)>::new()));
    let fails = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let sheet = {
        let (sent, fails) = (sent.clone(), fails.clone());
        SystemShare::new(move |title, link| {
            sent.lock().unwrap().push((title.into(), link.into()));
            match fails.load(std::sync::atomic::Ordering::SeqCst) {
                true => Err("no activity".into()),
                false => Ok(()),
            }
        })
    };
    let app = start_with_share_sheet(&dir.path().join("phone"), (360, 780), sheet);
    let url = server(dir.path());
    use_server(&app, &url);
    press(&app, "New Xiangqi game");
    press(&app, "Start game");
    click(&app, "h3");
    click(&app, "e3");
    let share = app.window().global::<ShareAdapter>();
    press(&app, "Share");
    until(&app, Duration::from_secs(10), || share.get_state() == 2);
    let link = share.get_link().to_string();
    assert!(link.starts_with(&format!("{url}/g/")), "{link}");
    assert!(
        sent.lock().unwrap().is_empty(),
        "nothing sent before the tap"
    );
    press(&app, "Share…");
    assert_eq!(
        *sent.lock().unwrap(),
        [("Share this game".to_owned(), link.clone())]
    );
    assert_eq!(share.get_error(), "");
    // Copy link is still there, beside Withdraw.
    assert!(one(&app, "Copy link").is_valid());
    fails.store(true, std::sync::atomic::Ordering::SeqCst);
    press(&app, "Share…");
    assert_eq!(share.get_error(), "share-sheet");
    assert!(
        one(
            &app,
            "The share sheet could not be opened: copy the link instead."
        )
        .is_valid()
    );
    assert_eq!(share.get_state(), 2, "the link stays on screen");
    assert_eq!(share.get_link(), link.as_str());
}
