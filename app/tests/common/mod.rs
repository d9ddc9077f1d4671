//! Shared by the UI tests and the screenshot example: a headless Slint platform with the
//! software renderer, an app on a temporary data directory, and helpers to find and press
//! elements by accessible label.
#![allow(dead_code)]

use i_slint_backend_testing::{ElementHandle, TestingBackend, TestingBackendOptions};
use qiguan_app::settings::Language;
use qiguan_app::ui::{
    Battle, BattleBanner, BattleNews, GameOutcome, GamePhase, GameRow, GameSession, HistoryAdapter,
    HomeAdapter, JunqiAdapter, Nav, OnlineAdapter, ReplayAdapter, ResultKind, Screen,
    SettingsAdapter, Waiting, XiangqiAdapter,
};
use qiguan_app::{App, AppOptions};
use slint::ComponentHandle;
use slint::Model;
use std::path::Path;
use std::time::{Duration, Instant};

/// The news of the last plays beside the board, oldest first.
pub fn news(app: &App) -> Vec<BattleNews> {
    app.window()
        .global::<BattleBanner>()
        .get_news()
        .iter()
        .collect()
}

/// A game's result as short text for assertions: `win:0`, `win:1`, `draw`, or empty.
pub fn result_code(outcome: &GameOutcome) -> String {
    match outcome.kind {
        ResultKind::Win => format!("win:{}", outcome.winner),
        ResultKind::Draw => "draw".into(),
        ResultKind::Unfinished => String::new(),
    }
}

/// Installs the testing platform for this thread, with a real software rasterizer so that
/// snapshots work. Safe to call more than once per thread.
pub fn platform() {
    let _ = slint::platform::set_platform(Box::new(TestingBackend::new(TestingBackendOptions {
        mock_time: true,
        threading: false,
        renderer_name: Some("software".into()),
    })));
}

/// Starts the app on `dir`, in `language`, at the given logical size.
pub fn start(dir: &Path, language: Language, size: (u32, u32)) -> App {
    start_with(dir, language, size, false)
}

/// Starts the app as a new player finds it: with the first-game tips, which [`start`] turns
/// off for the tests that are not about them.
pub fn start_new_player(dir: &Path, language: Language, size: (u32, u32)) -> App {
    start_app(dir, language, size, false, Vec::new())
}

/// Starts the app; `resume` brings back the game on screen when it last stopped (Android).
pub fn start_with(dir: &Path, language: Language, size: (u32, u32), resume: bool) -> App {
    tips_off(dir);
    start_app(dir, language, size, resume, Vec::new())
}

/// Starts the app as "Open with Qiguan" does: with game files to import and open.
pub fn start_opening(dir: &Path, size: (u32, u32), open: Vec<std::path::PathBuf>) -> App {
    tips_off(dir);
    start_app(dir, Language::English, size, false, open)
}

/// A new history with the walkthrough's tips off. Only into a new history: a test's damaged
/// or newer database stays as the test made it (and a restarted app keeps what its first
/// start stored).
fn tips_off(dir: &Path) {
    let db = dir.join(qiguan_app::store::DB_FILE);
    if !db.exists() {
        std::fs::create_dir_all(dir).expect("the data directory");
        let mut store = qiguan_app::store::Store::open(&db).expect("a new store");
        store.set_setting("tips", "false").expect("stored");
    }
}

/// Starts the app as Android does, with a share sheet of the platform's own (here `share`).
pub fn start_with_share_sheet(
    dir: &Path,
    size: (u32, u32),
    share: qiguan_app::share::SystemShare,
) -> App {
    tips_off(dir);
    launch(
        options(dir, Language::English, false, Vec::new(), Some(share)),
        size,
    )
}

fn start_app(
    dir: &Path,
    language: Language,
    size: (u32, u32),
    resume: bool,
    open: Vec<std::path::PathBuf>,
) -> App {
    launch(options(dir, language, resume, open, None), size)
}

fn options(
    dir: &Path,
    language: Language,
    resume: bool,
    open: Vec<std::path::PathBuf>,
    system_share: Option<qiguan_app::share::SystemShare>,
) -> AppOptions {
    AppOptions {
        data_dir: dir.to_owned(),
        default_language: Some(language),
        resume,
        // Tests only note the sounds (App::sounds_played).
        sound_device: false,
        // Tests read what would be told (App::notifications).
        notifications: false,
        open,
        system_share,
    }
}

fn launch(options: AppOptions, size: (u32, u32)) -> App {
    platform();
    let app = qiguan_app::init(options).expect("the app starts");
    app.window()
        .window()
        .set_size(slint::PhysicalSize::new(size.0, size.1));
    app.window().show().expect("the window shows");
    // A window system makes a window it opens the active one; the testing backend has none.
    set_active(&app, true);
    app
}

/// Makes the window the active one, or not, as the window system does when the player
/// switches windows (the app asks Slint's core, which these events set, before it tells the
/// desktop of a move).
pub fn set_active(app: &App, active: bool) {
    app.window()
        .window()
        .dispatch_event(slint::platform::WindowEvent::WindowActiveChanged(active));
}

/// The deployment controls of the game on screen.
pub fn deployment(app: &App) -> qiguan_app::ui::Deployment<'_> {
    app.window().global::<qiguan_app::ui::Deployment>()
}

/// Where the Sea-land-air flag stands out of the city in the deployment arranged ("" if it
/// does not).
pub fn flag_misplaced(app: &App) -> String {
    deployment(app)
        .get_issues()
        .iter()
        .find(|i| i.code == "city")
        .map(|i| i.at.to_string())
        .unwrap_or_default()
}

/// The labels of the texts on screen whose words need more room than their box has (cut off,
/// elided, or wrapped past its height): the UI's `Label` says so while `TextFit.check` is on,
/// which this switches on.
pub fn texts_not_fitting(app: &App) -> Vec<String> {
    app.window()
        .global::<qiguan_app::ui::TextFit>()
        .set_check(true);
    i_slint_backend_testing::ElementQuery::from_root(app.window())
        .match_descendants()
        .find_all()
        .into_iter()
        .filter(|e| e.accessible_description().as_deref() == Some("does not fit"))
        .filter_map(|e| e.accessible_label().map(|l| l.to_string()))
        .collect()
}

/// Returns the elements with this accessible label.
pub fn all(app: &App, label: &str) -> Vec<ElementHandle> {
    ElementHandle::find_by_accessible_label(app.window(), label).collect()
}

/// Returns the one visible element with this label; panics with what was found otherwise.
pub fn one(app: &App, label: &str) -> ElementHandle {
    let found: Vec<_> = all(app, label)
        .into_iter()
        .filter(|e| e.is_valid() && e.size().width > 0.0)
        .collect();
    match found.len() {
        1 => found.into_iter().next().expect("one element"),
        0 => panic!("no element labelled {label:?}"),
        n => panic!("{n} elements labelled {label:?}"),
    }
}

/// Presses the element with this label (its default accessible action).
pub fn press(app: &App, label: &str) {
    one(app, label).invoke_accessible_default_action();
}

/// Clicks the element with this label with a real pointer event at its centre.
pub fn click(app: &App, label: &str) {
    one(app, label).mock_single_click(slint::platform::PointerEventButton::Left);
}

/// Returns the accessible description of the board point with this coordinate (`h3`).
pub fn point(app: &App, square: &str) -> String {
    one(app, square)
        .accessible_description()
        .unwrap_or_default()
        .to_string()
}

/// Returns the board points whose description says they are a legal destination.
pub fn targets(app: &App) -> Vec<String> {
    let mut found: Vec<String> = (0..90)
        .map(|i| format!("{}{}", (b'a' + (i % 9) as u8) as char, i / 9 + 1))
        .filter(|sq| point(app, sq).contains("legal move") || point(app, sq).contains("可走"))
        .collect();
    found.sort();
    found
}

/// Opens the store in `dir` and returns it with its newest game.
pub fn latest_game(dir: &Path) -> (qiguan_app::store::Store, qiguan_app::store::GameId) {
    let store = qiguan_app::store::Store::open_dir(dir).expect("the store opens");
    let id = store
        .history_ids(&Default::default())
        .expect("the history")
        .into_iter()
        .max_by_key(|g| g.0)
        .expect("a game");
    (store, id)
}

/// The actions stored for the newest game in `dir`, in order.
pub fn stored_actions(dir: &Path) -> Vec<String> {
    let (store, id) = latest_game(dir);
    let actions = store.load(id).expect("the game loads").record.actions;
    actions.into_iter().map(|e| e.action).collect()
}

/// The accessible labels of everything shown (of some size, not transparent).
pub fn labels(app: &App) -> Vec<String> {
    i_slint_backend_testing::ElementQuery::from_root(app.window())
        .match_descendants()
        .find_all()
        .into_iter()
        .filter(|e| e.computed_opacity() > 0.0 && e.size().width > 0.0)
        .filter_map(|e| e.accessible_label().map(|l| l.to_string()))
        .filter(|l| !l.is_empty())
        .collect()
}

/// Renders the window and writes it as a PNG.
pub fn snapshot(app: &App, path: &Path) {
    // Time stands still here: a move just made would show at its start. Show where it ends,
    // unless the picture asks for a moment of the motion.
    let motion = app.window().global::<qiguan_app::ui::Motion>();
    let moment = motion.get_frozen();
    if moment < 0.0 {
        motion.set_frozen(1.0);
    }
    let flight = app.window().global::<qiguan_app::ui::AeroMotion>();
    let flight_moment = flight.get_frozen();
    if flight_moment < 0.0 {
        flight.set_frozen(1.0);
    }
    let buffer = app.window().window().take_snapshot().expect("a snapshot");
    motion.set_frozen(moment);
    flight.set_frozen(flight_moment);
    let file = std::fs::File::create(path).expect("the PNG can be created");
    let mut encoder = png::Encoder::new(file, buffer.width(), buffer.height());
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().expect("a PNG header");
    writer
        .write_image_data(buffer.as_bytes())
        .expect("the PNG data");
}

/// Index of a coordinate like "h3" on the board.
pub fn sq(name: &str) -> i32 {
    let file = (name.as_bytes()[0] - b'a') as i32;
    let rank: i32 = name[1..].parse().expect("a rank");
    (rank - 1) * 9 + file
}

pub fn play(app: &App, moves: &[&str]) {
    let a = app.window().global::<XiangqiAdapter>();
    for m in moves {
        let split = 1 + m[1..]
            .find(|c: char| c.is_ascii_alphabetic())
            .expect("two points");
        a.invoke_cell_clicked(sq(&m[..split]));
        a.invoke_cell_clicked(sq(&m[split..]));
    }
}

pub const PGN: &str = r#"[Event "Imported example"]
[White "许银川"]
[Black "吕钦"]
[Result "1/2-1/2"]
1. C2=5 H8+7 2. H2+3 R9=8 3. R1=2 H2+3 4. P7+1 P7+1 5. R2+6 C8=9 6. R2=3 C9-1 1/2-1/2
"#;

/// Index of a Junqi point like "e5" (row * 5 + column).
pub fn jq(name: &str) -> i32 {
    let column = (name.as_bytes()[0] - b'a') as i32;
    let row: i32 = name[1..].parse().expect("a row");
    row * 5 + column
}

/// Taps Junqi points in turn.
pub fn jq_tap(app: &App, points: &[&str]) {
    let j = app.window().global::<JunqiAdapter>();
    for p in points {
        j.invoke_cell_clicked(jq(p));
    }
}

/// Junqi: a referee-mode game between two people (hand-over, deployment, a battle), then a
/// flip-mode game against the computer.
pub fn junqi_tour(app: &App, visit: &mut impl FnMut(&App, &str)) {
    let ui = app.window();
    let ng = ui.global::<qiguan_app::ui::NewGameAdapter>();
    let gs = ui.global::<GameSession>();
    ui.global::<HomeAdapter>().invoke_new_game("junqi".into());
    app.window()
        .global::<qiguan_app::ui::JunqiRules>()
        .set_mode(0);
    ng.set_opponent(0);
    ng.set_red_name("Ann".into());
    ng.set_black_name("Bo".into());
    visit(app, "junqi-new-game");
    // Against the computer: its three strengths.
    ng.set_opponent(1);
    ng.set_strength(2);
    visit(app, "junqi-new-game-computer");
    ng.set_opponent(0);
    // A new player's first deployment: its walkthrough (tips are on for this game only).
    let settings = ui.global::<SettingsAdapter>();
    settings.set_tips(true);
    settings.invoke_changed();
    ng.invoke_start();
    visit(app, "junqi-handover");
    gs.invoke_handover_done();
    let tips = ui.global::<qiguan_app::ui::Walkthrough>();
    assert_eq!(tips.get_key(), "junqi-deploy");
    tips.set_step(1);
    visit(app, "junqi-tips");
    tips.invoke_finished(tips.get_key());
    settings.set_tips(false);
    settings.invoke_changed();
    jq_tap(app, &["c1"]);
    visit(app, "junqi-deploy");
    jq_tap(app, &["c1"]);
    deployment(app).set_show_layouts(true);
    visit(app, "junqi-layouts");
    deployment(app).set_show_layouts(false);
    deployment(app).invoke_ready();
    gs.invoke_handover_done();
    deployment(app).invoke_ready();
    gs.invoke_handover_done();
    // Red's major takes Blue's captain; Blue sees only that the attacker won.
    jq_tap(app, &["e5", "e6"]);
    gs.invoke_handover_done();
    visit(app, "junqi-battle");
    // The battle panel: beside the board on a desktop, behind the Losses button on a phone.
    let ledger = ui.global::<qiguan_app::ui::BattleLedger>();
    ledger.set_show(true);
    visit(app, "junqi-losses");
    ledger.set_show(false);
    jq_tap(app, &["d6"]);
    visit(app, "junqi-play");
    jq_tap(app, &["d6"]);
    ui.global::<Nav>().invoke_back();

    ui.global::<HomeAdapter>().invoke_new_game("junqi".into());
    app.window()
        .global::<qiguan_app::ui::JunqiRules>()
        .set_mode(2);
    ng.set_opponent(1);
    ng.set_strength(0); // the first computer, which answers at once
    ng.set_human_seat(0);
    ng.invoke_start();
    jq_tap(app, &["c5"]);
    visit(app, "junqi-flip");
    app.window()
        .global::<qiguan_app::ui::JunqiRules>()
        .set_mode(0);
    ng.set_opponent(0);
    ui.global::<Nav>().invoke_back();
}

/// Drives the open Aeroplane chess game: the people on this device take the first choice each
/// time, and time passes for the computer seats and the die. Stops when `stop` says so.
pub fn aeroplane_drive(app: &App, limit: usize, mut stop: impl FnMut(&App) -> bool) {
    let a = app.window().global::<qiguan_app::ui::AeroplaneAdapter>();
    for _ in 0..limit {
        if stop(app) || app.window().global::<GameSession>().get_phase() != GamePhase::Play {
            return;
        }
        // No frame is drawn between steps (that would make a whole game slow): the die's own
        // tumbling timer never runs, which only the drawing notices.
        if a.get_can_roll() {
            a.invoke_roll();
        } else if a.get_choices().row_count() > 0 {
            a.invoke_choose(0);
        } else {
            i_slint_backend_testing::mock_elapsed_time(Duration::from_millis(1000));
        }
    }
    panic!("the game did not get there in {limit} steps");
}

/// Aeroplane chess: the new-game choices, a game of people and computers in progress with the
/// planes that can move highlighted, and a finished game's finishing order and review.
pub fn aeroplane_tour(app: &App, visit: &mut impl FnMut(&App, &str)) {
    let ui = app.window();
    let ng = ui.global::<qiguan_app::ui::NewGameAdapter>();
    let a = ui.global::<qiguan_app::ui::AeroplaneAdapter>();
    let gs = ui.global::<GameSession>();
    ui.global::<HomeAdapter>()
        .invoke_new_game("aeroplane".into());
    app.window()
        .global::<qiguan_app::ui::AeroplaneRules>()
        .set_seats(2);
    app.window()
        .global::<qiguan_app::ui::AeroplaneRules>()
        .set_p0(0);
    app.window()
        .global::<qiguan_app::ui::AeroplaneRules>()
        .set_n0("Ann".into());
    app.window()
        .global::<qiguan_app::ui::AeroplaneRules>()
        .set_p1(1);
    app.window()
        .global::<qiguan_app::ui::AeroplaneRules>()
        .set_p2(0);
    app.window()
        .global::<qiguan_app::ui::AeroplaneRules>()
        .set_n2("Bo".into());
    app.window()
        .global::<qiguan_app::ui::AeroplaneRules>()
        .set_p3(2);
    visit(app, "aeroplane-new-game");
    ng.invoke_start();
    // Play until a person must choose among several planes, some of them out.
    aeroplane_drive(app, 4000, |app| {
        let a = app.window().global::<qiguan_app::ui::AeroplaneAdapter>();
        let plies = app.window().global::<GameSession>().get_review_plies();
        a.get_choices().row_count() >= 2 && plies >= 80
    });
    a.set_rolling(false);
    visit(app, "aeroplane-play");
    // Two lines of prompt over two long lines of news: the prompt keeps its lines (the news
    // used to be drawn over its second line on a desktop).
    let long = |event, seat, count, victim| qiguan_app::ui::AeroNews {
        event,
        seat,
        count,
        victim,
        die: 0,
    };
    let kept = a.get_news();
    a.set_news(slint::ModelRc::new(slint::VecModel::from(vec![
        long(qiguan_app::ui::AeroEvent::Capture, 2, 2, 1),
        long(qiguan_app::ui::AeroEvent::Jump, 2, 0, -1),
    ])));
    visit(app, "aeroplane-news");
    a.set_news(kept);
    // A plane mid-flight along the track (the moment frozen halfway).
    aeroplane_drive(app, 4000, |app| {
        let m = app.window().global::<qiguan_app::ui::AeroMotion>();
        m.get_active() && m.get_path().row_count() > 4
    });
    let flight = ui.global::<qiguan_app::ui::AeroMotion>();
    flight.set_frozen(0.5);
    visit(app, "aeroplane-motion");
    flight.set_frozen(-1.0);
    // The rest of the game, to the finishing order.
    aeroplane_drive(app, 40_000, |_| false);
    visit(app, "aeroplane-end");
    gs.set_show_end_dialog(false);
    gs.invoke_review();
    gs.invoke_review_step(-40);
    visit(app, "aeroplane-review");
    ui.global::<Nav>().invoke_back();
}

/// Index of a Sea-land-air point like "c5", "k4" or "sw".
pub fn sla(name: &str) -> i32 {
    name.parse::<qiguan_core::sealandair::Point>()
        .expect("a Sea-land-air point")
        .index() as i32
}

/// Taps Sea-land-air points in turn.
pub fn sla_tap(app: &App, points: &[&str]) {
    let a = app.window().global::<qiguan_app::ui::SeaLandAirAdapter>();
    for p in points {
        a.invoke_cell_clicked(sla(p));
    }
}

/// Plays the seat on screen with core's computer, through taps on the board, until `stop`
/// says so or the game ends; `limit` moves at most. Hand-over screens are passed.
pub fn sla_drive(app: &App, dir: &Path, limit: usize, mut stop: impl FnMut(&App) -> bool) {
    use qiguan_core::sealandair::{SeaLandAirMove, bot};
    let gs = app.window().global::<GameSession>();
    for n in 0..limit {
        // A computer at normal or hard answers from a thread of its own.
        until(app, Duration::from_secs(60), || {
            app.thinking_in_flight() == 0
        });
        if gs.get_phase() == GamePhase::Handover {
            gs.invoke_handover_done();
        }
        if stop(app) || gs.get_phase() != GamePhase::Play {
            return;
        }
        // The seat's own view, as the store's record replays it.
        let (store, id) = latest_game(dir);
        let record = store.load(id).expect("the game loads").record;
        let game = qiguan_core::Match::<qiguan_core::sealandair::SeaLandAir>::from_record(&record)
            .expect("the record replays");
        let seat = qiguan_core::Seat::new(gs.get_viewer() as u8).expect("a seat");
        let view = game.view(qiguan_core::Viewer::Seat(seat)).game;
        match bot::choose(&view, seat, n as u64) {
            Some(SeaLandAirMove::Go(m)) => {
                sla_tap(app, &[&m.from.to_string(), &m.to.to_string()]);
            }
            other => panic!("nothing to play: {other:?}"),
        }
    }
}

/// Sea-land-air: the new-game choices, the hand-over, deployment with a piece picked up, a
/// game under way with a piece's moves shown (zoomed on a phone), a fight, the end and the
/// review.
pub fn sealandair_tour(app: &App, visit: &mut impl FnMut(&App, &str)) {
    let ui = app.window();
    let ng = ui.global::<qiguan_app::ui::NewGameAdapter>();
    let a = ui.global::<qiguan_app::ui::SeaLandAirAdapter>();
    let gs = ui.global::<GameSession>();
    ui.global::<HomeAdapter>()
        .invoke_new_game("sea-land-air".into());
    ng.set_opponent(0);
    ng.set_red_name("Ann".into());
    ng.set_black_name("Bo".into());
    visit(app, "sealandair-new-game");
    // Against the computer: its three strengths.
    ng.set_opponent(1);
    ng.set_strength(2);
    visit(app, "sealandair-new-game-computer");
    ng.set_opponent(0);
    ng.set_strength(1);
    ng.invoke_start();
    visit(app, "sealandair-handover");
    gs.invoke_handover_done();
    sla_tap(app, &["c3"]);
    visit(app, "sealandair-deploy");
    sla_tap(app, &["c3"]);
    deployment(app).invoke_ready();
    gs.invoke_handover_done();
    deployment(app).invoke_ready();
    // A new player's first turn: the board's walkthrough, at its first tip.
    let settings = ui.global::<SettingsAdapter>();
    settings.set_tips(true);
    settings.invoke_changed();
    gs.invoke_handover_done();
    let tips = ui.global::<qiguan_app::ui::Walkthrough>();
    assert_eq!(tips.get_key(), "sea-land-air-play");
    visit(app, "sealandair-tips");
    tips.invoke_finished(tips.get_key());
    settings.set_tips(false);
    settings.invoke_changed();
    // Red's fighter picked up: where it may fly and strike.
    let fighter = (0..99)
        .map(|i| qiguan_core::sealandair::Point::from_index(i).expect("a point"))
        .find(|p| {
            one(app, &p.to_string())
                .accessible_description()
                .is_some_and(|d| d.contains("战斗机") || d.ends_with("战机"))
        })
        .map(|p| p.to_string());
    if let Some(f) = &fighter {
        sla_tap(app, &[f]);
    }
    visit(app, "sealandair-play");
    // A phone shows the whole board with no room for the legend under it: asked for, it comes
    // over the board's lower part.
    if app.window().window().size().width < 600 {
        a.set_show_legend(true);
        visit(app, "sealandair-legend");
        a.set_show_legend(false);
    }
    // Zoomed in (a phone's way to bigger points), on the viewer's own half.
    a.set_zoomed(true);
    visit(app, "sealandair-zoom");
    a.set_zoomed(false);
    if let Some(f) = &fighter {
        sla_tap(app, &[f]);
    }
    ui.global::<Nav>().invoke_back();
    sealandair_against_the_computer(app, visit);
}

/// Sea-land-air against the computer, to the end and its review.
fn sealandair_against_the_computer(app: &App, visit: &mut impl FnMut(&App, &str)) {
    let ui = app.window();
    let ng = ui.global::<qiguan_app::ui::NewGameAdapter>();
    let gs = ui.global::<GameSession>();
    ui.global::<HomeAdapter>()
        .invoke_new_game("sea-land-air".into());
    ng.set_opponent(1);
    ng.set_human_seat(0);
    ng.invoke_start();
    deployment(app).invoke_ready();
    let data = app
        .database_path()
        .parent()
        .expect("the data directory")
        .to_path_buf();
    sla_drive(app, &data, 30, |_| false);
    if news(app)
        .last()
        .is_some_and(|n| n.battle != Battle::NothingToShow)
    {
        visit(app, "sealandair-battle");
    }
    sla_drive(app, &data, 600, |_| false);
    visit(app, "sealandair-end");
    gs.set_show_end_dialog(false);
    gs.invoke_review();
    gs.invoke_review_step(-60);
    visit(app, "sealandair-review");
    ui.global::<Nav>().invoke_back();
    ng.set_opponent(0);
}

/// Simulates what a phone's platform reports: system bars (safe-area insets, logical px)
/// and an on-screen keyboard of this height at the bottom (0 for none).
pub fn simulate_phone(app: &App, top: f32, bottom: f32, keyboard: f32) {
    let window = app.window().window();
    i_slint_core::window::WindowInner::from_pub(window).set_window_item_safe_area(
        i_slint_core::lengths::LogicalEdges::new(top, bottom, 0.0, 0.0),
    );
    let size = window.size().to_logical(window.scale_factor());
    window.set_virtual_keyboard(
        slint::LogicalPosition::new(0.0, size.height - keyboard),
        slint::LogicalSize::new(if keyboard > 0.0 { size.width } else { 0.0 }, keyboard),
        i_slint_core::InternalToken,
    );
}

/// Starts qiguan-server on 127.0.0.1 (a free port) in a background thread; returns its URL.
pub fn server(dir: &Path) -> String {
    let config = qiguan_server::Config {
        listen: "127.0.0.1:0".parse().expect("an address"),
        db: dir.join("server.sqlite").display().to_string(),
        ip_rate: 0.0,
        token_rate: 0.0,
        ..qiguan_server::Config::default()
    };
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Runtime::new().expect("a runtime");
        rt.block_on(async move {
            let state = qiguan_server::open(&config, qiguan_server::system_clock())
                .await
                .expect("the server");
            let listener = tokio::net::TcpListener::bind(config.listen)
                .await
                .expect("a port");
            tx.send(listener.local_addr().expect("an address"))
                .expect("the test waits");
            let app = qiguan_server::router(state)
                .into_make_service_with_connect_info::<std::net::SocketAddr>();
            axum::serve(listener, app).await.expect("serving");
        });
    });
    format!("http://{}", rx.recv().expect("the server's address"))
}

/// Sets the correspondence server in Settings, as a player does (from home, and back).
pub fn use_server(app: &App, url: &str) {
    let ui = app.window();
    ui.global::<HomeAdapter>().invoke_settings();
    let settings = ui.global::<SettingsAdapter>();
    settings.set_server(url.into());
    settings.invoke_changed();
    ui.global::<Nav>().invoke_back();
}

/// Lets the event loop take a turn (Slint runs `changed` handlers then).
pub fn next_frame() {
    i_slint_backend_testing::mock_elapsed_time(Duration::from_millis(16));
}

/// Lets the sync worker's reports reach the UI until `done` holds (at most `limit`).
pub fn until(app: &App, limit: Duration, mut done: impl FnMut() -> bool) -> Duration {
    let started = Instant::now();
    while !done() {
        assert!(started.elapsed() < limit, "gave up after {limit:?}");
        std::thread::sleep(Duration::from_millis(10));
        app.drain_sync();
    }
    started.elapsed()
}

/// Junqi by correspondence against a server in this process, the opponent a second device
/// driven directly: the create form, the game waiting for the opponent's move after a battle,
/// and the opponent's draw offer.
pub fn junqi_online_tour(app: &App, visit: &mut impl FnMut(&App, &str)) {
    use qiguan_app::sync::Correspondence;
    let ui = app.window();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = server(dir.path());
    ui.global::<HomeAdapter>().invoke_settings();
    let settings = ui.global::<SettingsAdapter>();
    settings.set_server(url.clone().into());
    settings.invoke_changed();
    ui.global::<Nav>().invoke_back();

    ui.global::<HomeAdapter>().invoke_online();
    let ng = ui.global::<qiguan_app::ui::NewGameAdapter>();
    ng.set_game_index(1);
    app.window()
        .global::<qiguan_app::ui::JunqiRules>()
        .set_mode(0);
    let o = ui.global::<OnlineAdapter>();
    o.set_name("Ann".into());
    visit(app, "online-junqi-create");
    o.invoke_create();
    until(app, Duration::from_secs(10), || !o.get_invite().is_empty());
    let code = o.get_invite().to_string();
    o.invoke_dismiss_invite();
    let id = o
        .get_games()
        .iter()
        .find(|g| g.game == "junqi")
        .expect("the game is listed")
        .id;

    let rt = tokio::runtime::Runtime::new().expect("a runtime");
    let opp_dir = tempfile::tempdir().expect("a temporary directory");
    let mut opponent = Correspondence::open(opp_dir.path()).expect("the opponent's store");
    let theirs = rt
        .block_on(opponent.join(&url, &code, "Bo"))
        .expect("joined");
    let layout = qiguan_core::junqi::Deployment::classic("快攻 Fast attack")
        .expect("a classic")
        .mirror();
    opponent
        .play(theirs, &format!("deploy:{}", layout.to_text()))
        .expect("deployed");
    rt.block_on(opponent.flush()).expect("sent");
    o.invoke_open(id);
    junqi_online_play(app, visit, &rt, &mut opponent, theirs);
    ui.global::<Nav>().invoke_back();
    ui.global::<Nav>().invoke_back();
    ng.set_game_index(0);
    o.set_name("".into());
}

/// The correspondence Junqi game open on screen: deploy, a battle, then the opponent's move
/// with a draw offer.
fn junqi_online_play(
    app: &App,
    visit: &mut impl FnMut(&App, &str),
    rt: &tokio::runtime::Runtime,
    opponent: &mut qiguan_app::sync::Correspondence,
    theirs: qiguan_app::store::GameId,
) {
    let ui = app.window();
    let gs = ui.global::<GameSession>();
    until(app, Duration::from_secs(30), || {
        gs.get_waiting() == Waiting::Nothing
    });
    deployment(app).invoke_ready();
    until(app, Duration::from_secs(30), || {
        gs.get_phase() == GamePhase::Play && gs.get_waiting() == Waiting::Nothing
    });
    jq_tap(app, &["e5", "e6"]);
    until(app, Duration::from_secs(30), || {
        gs.get_waiting() == Waiting::Turn
    });
    visit(app, "junqi-online-waiting");

    rt.block_on(opponent.refresh(theirs)).expect("refreshed");
    opponent.play(theirs, "offer-draw").expect("offered");
    let legal = opponent
        .seat_view(theirs)
        .expect("a view")
        .expect("kept")
        .legal_actions;
    let mv = legal
        .iter()
        .find(|a| a.parse::<qiguan_core::junqi::Move>().is_ok())
        .expect("a move")
        .clone();
    opponent.play(theirs, &mv).expect("moved");
    rt.block_on(opponent.flush()).expect("sent");
    until(app, Duration::from_secs(30), || {
        gs.get_draw_offered_by() == 1 && gs.get_to_move() == 0
    });
    visit(app, "junqi-online-draw-offer");
    // With the offer shown, its answers and resigning are still wholly on screen (a phone has
    // no room to spare under the board).
    for labels in [
        ["Accept draw", "接受和棋"],
        ["Decline", "拒绝"],
        ["Resign", "认输"],
        ["Phrases", "快捷语"],
    ] {
        inside_window(app, &labels);
    }

    // A phrase from the opponent, called out over the top bar; then the phrases to answer.
    opponent.say(theirs, "good-move").expect("said");
    rt.block_on(opponent.flush()).expect("sent");
    let heard = gs.get_heard_count();
    until(app, Duration::from_secs(30), || {
        gs.get_heard_count() > heard
    });
    i_slint_backend_testing::mock_elapsed_time(Duration::from_millis(20));
    i_slint_backend_testing::mock_elapsed_time(Duration::from_millis(300));
    visit(app, "junqi-online-phrase");
    // The call fades after 3 s.
    i_slint_backend_testing::mock_elapsed_time(Duration::from_millis(3000));
    i_slint_backend_testing::mock_elapsed_time(Duration::from_millis(300));
    gs.set_choosing_phrase(true);
    visit(app, "junqi-online-phrases");
    gs.set_choosing_phrase(false);
}

/// Asserts that the element with one of these labels (the same word in each language) lies
/// wholly inside the window.
pub fn inside_window(app: &App, labels: &[&str]) {
    let size = app
        .window()
        .window()
        .size()
        .to_logical(app.window().window().scale_factor());
    let found = labels
        .iter()
        .flat_map(|l| all(app, l))
        .find(|e| e.is_valid() && e.size().width > 0.0)
        .unwrap_or_else(|| panic!("none of {labels:?} on screen"));
    let (p, s) = (found.absolute_position(), found.size());
    assert!(
        p.x >= 0.0
            && p.y >= 0.0
            && p.x + s.width <= size.width + 0.5
            && p.y + s.height <= size.height + 0.5,
        "{labels:?} at {p:?}, {s:?}: outside the {size:?} window"
    );
}

/// Scrolls what is under the window's centre by `dy` (negative: towards the end), as a mouse
/// wheel or a touchpad does.
pub fn scroll(app: &App, dy: f32) {
    let size = app
        .window()
        .window()
        .size()
        .to_logical(app.window().window().scale_factor());
    app.window()
        .window()
        .dispatch_event(slint::platform::WindowEvent::PointerScrolled {
            position: slint::LogicalPosition::new(size.width / 2.0, size.height / 2.0),
            delta_x: 0.0,
            delta_y: dy,
        });
}

/// The rules: Xiangqi's page from its top (its pieces table), Junqi's from New game, and
/// Sea-land-air's scrolled to its board picture.
fn rules_tour(app: &App, visit: &mut impl FnMut(&App, &str)) {
    let ui = app.window();
    let rules = ui.global::<qiguan_app::ui::RulesAdapter>();
    rules.invoke_open("xiangqi".into());
    visit(app, "rules-xiangqi");
    ui.global::<Nav>().invoke_back();
    rules.invoke_open("sea-land-air".into());
    let picture = ui
        .global::<qiguan_app::ui::RulesAdapter>()
        .get_blocks()
        .iter()
        .find(|b| b.kind == "picture")
        .expect("the board picture")
        .plain;
    // Down until the picture's top is just under the top bar (what is far below the window
    // may not be there to find yet).
    for _ in 0..200 {
        let top = all(app, &picture)
            .into_iter()
            .find(|e| e.is_valid() && e.size().width > 0.0)
            .map(|e| e.absolute_position().y);
        if top.is_some_and(|y| y < 140.0) {
            break;
        }
        scroll(app, -40.0);
    }
    visit(app, "rules-sea-land-air");
    ui.global::<Nav>().invoke_back();
}

/// Drives the app through every screen, calling `visit` with the screen's name at each.
pub fn tour(size: (u32, u32), language: Language, mut visit: impl FnMut(&App, &str)) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let app = start(dir.path(), language, size);
    let ui = app.window();

    xiangqi_tour(&app, language, &mut visit);
    ui.global::<HomeAdapter>().invoke_history();
    visit(&app, "history");
    ui.global::<Nav>().invoke_back();
    ui.global::<HomeAdapter>().invoke_settings();
    visit(&app, "settings");
    ui.global::<Nav>().invoke_back();
    ui.global::<HomeAdapter>().invoke_about();
    visit(&app, "about");
    ui.global::<Nav>().invoke_back();

    junqi_tour(&app, &mut visit);
    junqi_online_tour(&app, &mut visit);
    aeroplane_tour(&app, &mut visit);
    sealandair_tour(&app, &mut visit);
    // The games above that ended: the statistics.
    ui.global::<HomeAdapter>().invoke_statistics();
    visit(&app, "statistics");
    ui.global::<Nav>().invoke_back();
    rules_tour(&app, &mut visit);
    online_tour(&app, &mut visit);
    devices_tour(&app, &mut visit);
    drop(app);

    // A damaged database: the failure screen.
    let broken = tempfile::tempdir().expect("a temporary directory");
    std::fs::write(broken.path().join("qiguan.sqlite"), vec![7u8; 4096]).expect("written");
    let app = start(broken.path(), language, size);
    assert_eq!(app.window().global::<Nav>().get_screen(), Screen::Failure);
    visit(&app, "failure");
}

/// Xiangqi: a finished game (checkmate), an imported one in replay, then an unfinished one in
/// progress with a piece picked up; home.
fn xiangqi_tour(app: &App, language: Language, visit: &mut impl FnMut(&App, &str)) {
    let ui = app.window();
    ui.global::<HomeAdapter>().invoke_new_game("xiangqi".into());
    visit(app, "new-game");
    // The position editor: an endgame being set up, with what is wrong with it so far.
    let rules = ui.global::<qiguan_app::ui::XiangqiRules>();
    rules.invoke_edit_start();
    let editor = ui.global::<qiguan_app::ui::EditorAdapter>();
    editor.invoke_clear();
    for (tool, square) in [
        ("K", "e1"),
        ("k", "d10"),
        ("R", "h7"),
        ("P", "d4"),
        ("B", "b2"),
    ] {
        editor.invoke_tool_chosen(tool.into());
        editor.invoke_cell_clicked(sq(square));
    }
    editor.invoke_tool_chosen("n".into());
    visit(app, "editor");
    editor.invoke_tool_chosen("x".into());
    editor.invoke_cell_clicked(sq("b2"));
    editor.invoke_cell_clicked(sq("d4"));
    for (tool, square) in [("P", "d6"), ("a", "e9")] {
        editor.invoke_tool_chosen(tool.into());
        editor.invoke_cell_clicked(sq(square));
    }
    editor.invoke_use_position();
    visit(app, "new-game-position");
    rules.set_start_fen("".into());
    let ng = ui.global::<qiguan_app::ui::NewGameAdapter>();
    ng.set_red_name("张三".into());
    ng.set_black_name("李四".into());
    ng.invoke_start();
    play(app, &["b3b5", "a7a6", "b5c5", "f10e9", "c5c10"]);
    visit(app, "play-end");
    ui.global::<GameSession>().set_show_end_dialog(false);
    // The finished game shared (the link as a server makes it; online_flow.rs shares for
    // real), and sharing refused for want of a server.
    let share = ui.global::<qiguan_app::ui::ShareAdapter>();
    share.set_link("https://qiguan.example.org/g/3Ks9QdLr2WmXv7TbYp4hNa".into());
    share.set_state(2);
    visit(app, "share-link");
    // On Android the platform's share sheet comes first (here the Android entry point's).
    share.set_system_share(true);
    visit(app, "share-sheet");
    share.set_system_share(false);
    share.set_confirming(true);
    visit(app, "share-withdraw");
    share.set_confirming(false);
    share.set_error("no-server".into());
    share.set_state(3);
    visit(app, "share-error");
    share.set_state(0);
    ui.global::<Nav>().invoke_back();

    // A capture in motion: the cannon halfway to e7, the pawn it takes fading.
    ui.global::<HomeAdapter>().invoke_new_game("xiangqi".into());
    ng.invoke_start();
    play(app, &["h3e3", "h10g8", "e3e7"]);
    let motion = ui.global::<qiguan_app::ui::Motion>();
    motion.set_frozen(0.3);
    visit(app, "play-motion");
    motion.set_frozen(-1.0);
    ui.global::<Nav>().invoke_back();

    // Check, called over the board.
    ui.global::<HomeAdapter>().invoke_new_game("xiangqi".into());
    ng.invoke_start();
    play(app, &["a1a2", "c10e8", "b3b10"]);
    // The call starts on the next tick, then fades in.
    i_slint_backend_testing::mock_elapsed_time(Duration::from_millis(20));
    i_slint_backend_testing::mock_elapsed_time(Duration::from_millis(300));
    visit(app, "play-check");
    i_slint_backend_testing::mock_elapsed_time(Duration::from_millis(1500));
    // A move refused because the data folder cannot be written to (app/tests/crash.rs makes
    // it happen): the dialog over the board, once the call has gone.
    i_slint_backend_testing::mock_elapsed_time(Duration::from_millis(3000));
    ui.global::<Nav>().set_error("storage-read-only".into());
    visit(app, "storage-error");
    ui.global::<Nav>().set_error(Default::default());
    ui.global::<Nav>().invoke_back();

    let h = ui.global::<HistoryAdapter>();
    ui.global::<HomeAdapter>().invoke_history();
    h.set_import_text("1. C2=5 H8+7 2. C5+9".into());
    h.set_show_import(true);
    h.invoke_import();
    visit(app, "history-import-error");
    h.set_import_error(Default::default());
    h.set_import_text(PGN.into());
    visit(app, "history-import");
    // The import's file list: a folder and two game files, one of them damaged (tapped: its
    // reason shows under the list). Names in digits: either language shows them as they are.
    let files = app.database_path().with_file_name("game-files");
    std::fs::create_dir_all(files.join("2024")).expect("a folder");
    std::fs::write(files.join("1960-01.pgn"), PGN).expect("a file");
    std::fs::write(files.join("0000.xqf"), b"XQ\x12").expect("a file");
    h.set_files_folder(files.display().to_string().into());
    h.invoke_open_files();
    h.invoke_file_chosen(1);
    assert_eq!(h.get_files_problem().code, "xqf-short");
    visit(app, "history-files");
    h.set_show_files(false);
    h.invoke_import();
    ui.global::<ReplayAdapter>().invoke_go_to(7);
    visit(app, "replay");
    let r = ui.global::<ReplayAdapter>();
    // The engine's review: the graph, the marks, the note and the live line.
    r.invoke_analyse(true);
    until(app, Duration::from_secs(120), || {
        !r.get_reviewing() && r.get_note().depth >= 8 && !r.get_note().third.is_empty()
    });
    visit(app, "replay-analysis");
    r.invoke_analyse(false);
    until(app, Duration::from_secs(120), || {
        app.thinking_in_flight() == 0
    });
    r.set_export_format(1);
    r.set_show_export(true);
    r.invoke_export_changed();
    visit(app, "replay-export");
    r.set_show_export(false);
    // The study: a move other than the game's at move 10, with a comment; from move 9 the
    // two moves tried show, then the study's dialog on the variation.
    r.invoke_go_to(9);
    r.invoke_cell_clicked(sq("a7"));
    r.invoke_cell_clicked(sq("a6"));
    // A player writes in the language they use.
    r.invoke_save_comment(
        match language {
            Language::Chinese => "边卒先挺，试探对方的应法",
            _ => "The edge pawn first, to see how Red answers",
        }
        .into(),
    );
    r.invoke_go_to(9);
    visit(app, "replay-study");
    r.invoke_go_to(10);
    r.set_show_study(true);
    visit(app, "replay-study-dialog");
    r.set_show_study(false);
    ui.global::<Nav>().invoke_back();
    ui.global::<Nav>().invoke_back();

    ui.global::<HomeAdapter>().invoke_new_game("xiangqi".into());
    ng.set_red_name("Ann".into());
    ng.set_black_name("Bo".into());
    ng.invoke_start();
    play(
        app,
        &["h3e3", "h10g8", "h1g3", "i10h10", "i1h1", "b10c8", "e3e7"],
    );
    // Black to move: pick up the cannon on h8 to show where it may go.
    ui.global::<XiangqiAdapter>().invoke_cell_clicked(sq("h8"));
    visit(app, "play");
    ui.global::<XiangqiAdapter>().invoke_cell_clicked(sq("h8"));
    ui.global::<Nav>().invoke_back();
    visit(app, "home");
    xiangqi_computer_tour(app, visit);
}

/// Xiangqi against the computer: New game with its level, the computer thinking, a hint on
/// the board, and the history narrowed to games against the computer.
fn xiangqi_computer_tour(app: &App, visit: &mut impl FnMut(&App, &str)) {
    let ui = app.window();
    let ng = ui.global::<qiguan_app::ui::NewGameAdapter>();
    let session = ui.global::<GameSession>();
    ui.global::<HomeAdapter>().invoke_new_game("xiangqi".into());
    ng.set_opponent(1);
    ng.set_human_seat(0);
    ng.set_level(5);
    visit(app, "new-game-computer");
    ng.invoke_start();
    play(app, &["h3e3"]);
    assert!(session.get_thinking());
    visit(app, "computer-thinking");
    until(app, Duration::from_secs(120), || {
        app.thinking_in_flight() == 0
    });
    play(app, &["h1g3"]);
    until(app, Duration::from_secs(120), || {
        app.thinking_in_flight() == 0
    });
    session.invoke_hint();
    until(app, Duration::from_secs(120), || {
        app.thinking_in_flight() == 0
    });
    assert!(ui.global::<XiangqiAdapter>().get_hint_from() >= 0);
    visit(app, "computer-hint");
    ui.global::<Nav>().invoke_back();

    let h = ui.global::<HistoryAdapter>();
    ui.global::<HomeAdapter>().invoke_history();
    h.set_mode_filter(4);
    h.set_level_filter(5);
    h.invoke_filters_changed();
    visit(app, "history-computer");
    h.set_mode_filter(0);
    h.set_level_filter(0);
    h.invoke_filters_changed();
    ui.global::<Nav>().invoke_back();
    ng.set_opponent(0);
}

/// Correspondence: the empty screen, then (as the worker would fill it) a game just created with
/// its invite code, a typed code, and games waiting, my turn first.
/// Linked devices against a server in this process: the screen before linking, a pairing code
/// offered (with its QR code on a desktop), and two devices linked (the second one an engine
/// driven directly, joining with the code on screen).
fn devices_tour(app: &App, visit: &mut impl FnMut(&App, &str)) {
    let ui = app.window();
    let server_dir = tempfile::tempdir().expect("a temporary directory");
    let url = server(server_dir.path());
    let settings = ui.global::<SettingsAdapter>();
    ui.global::<HomeAdapter>().invoke_settings();
    settings.set_server(url.clone().into());
    settings.invoke_changed();
    settings.invoke_devices();
    let d = ui.global::<qiguan_app::ui::DevicesAdapter>();
    assert_eq!(ui.global::<Nav>().get_screen(), Screen::Devices);
    until(app, Duration::from_secs(30), || !d.get_busy());
    assert_eq!(d.get_state(), 0, "in no library yet");
    d.set_device_name("书房电脑".into());
    visit(app, "devices");

    d.invoke_start();
    until(app, Duration::from_secs(30), || {
        !d.get_busy() && d.get_state() == 1
    });
    d.invoke_make_offer();
    until(app, Duration::from_secs(30), || {
        !d.get_busy() && !d.get_offer().is_empty()
    });
    visit(app, "devices-code");

    let phone_dir = tempfile::tempdir().expect("a temporary directory");
    let code = d.get_offer().to_string();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    rt.block_on(async {
        let mut phone = qiguan_app::library::Library::open(phone_dir.path()).expect("a store");
        phone.join(&url, &code, "小米手机").await.expect("joined");
        phone.sync().await.expect("synced");
    });
    d.invoke_close_offer();
    d.invoke_sync_now();
    until(app, Duration::from_secs(30), || {
        !d.get_busy() && d.get_devices().row_count() == 2
    });
    until(app, Duration::from_secs(30), || {
        (0..2).all(|i| {
            d.get_devices()
                .row_data(i)
                .is_some_and(|r| !r.name.is_empty())
        })
    });
    visit(app, "devices-linked");
    ui.global::<Nav>().invoke_back();
    ui.global::<Nav>().invoke_back();
}

fn online_tour(app: &App, visit: &mut impl FnMut(&App, &str)) {
    let ui = app.window();
    ui.global::<HomeAdapter>().invoke_online();
    visit(app, "online");
    let o = ui.global::<OnlineAdapter>();
    // Ann's own device: each row names her opponent, and whose move it is from her side.
    let row = |id: i32, players: [&str; 2], plies: i32, to_move: i32, minutes_left: i32| GameRow {
        id,
        you: players
            .iter()
            .position(|&p| p.is_empty())
            .map_or(-1, |s| s as i32),
        game: "xiangqi".into(),
        names: slint::ModelRc::new(slint::VecModel::from(
            players
                .iter()
                .map(|&p| slint::SharedString::from(p))
                .collect::<Vec<_>>(),
        )),
        computers: slint::ModelRc::new(slint::VecModel::from(vec![false, false])),
        date: "2026-11-22 09:30".into(),
        plies,
        mode: "correspondence".into(),
        level: 0,
        strength: Default::default(),
        outcome: Default::default(),
        waiting_join: false,
        to_move_colour: -1,
        to_move,
        minutes_left,
        opening: Default::default(),
    };
    o.set_games(slint::ModelRc::new(slint::VecModel::from(vec![
        row(7, ["", "张三"], 12, 0, 2 * 1440 + 5 * 60),
        row(5, ["李四", ""], 31, 0, 50),
    ])));
    o.set_invite("K7QXM-2PD9R".into());
    o.set_code("q3vwd-8hz1k".into());
    visit(app, "online-invite");
}
