//! Opening any game after any other leaves nothing of the first on screen: for every ordered
//! pair of the four games, the second game shows exactly what it shows when it is the first
//! thing opened after a start (issue 36: Junqi's losses panel sat in Xiangqi's column).

mod common;

use common::{deployment, jq_tap, play};
use i_slint_backend_testing::{AccessibleRole, ElementQuery};
use qiguan_app::App;
use qiguan_app::settings::Language;
use qiguan_app::ui::{GamePhase, GameSession, HomeAdapter, Nav, NewGameAdapter};
use slint::{ComponentHandle, Model};
use std::path::Path;

/// Everything a player can see or press on screen, with where it is (to the pixel): role,
/// label, description and box.
fn screen(app: &App) -> Vec<String> {
    let mut seen: Vec<String> = ElementQuery::from_root(app.window())
        .match_descendants()
        .find_all()
        .into_iter()
        .filter(|e| {
            e.accessible_role()
                .is_some_and(|r| !matches!(r, AccessibleRole::None))
                && e.computed_opacity() > 0.0
                && e.size().width > 0.0
                && e.size().height > 0.0
        })
        .map(|e| {
            let (p, s) = (e.absolute_position(), e.size());
            format!(
                "{:?} {:?} {:?} at {:.0},{:.0} {:.0}×{:.0}",
                e.accessible_role().expect("a role"),
                e.accessible_label().unwrap_or_default(),
                e.accessible_description().unwrap_or_default(),
                p.x,
                p.y,
                s.width,
                s.height
            )
        })
        .collect();
    seen.sort();
    seen
}

/// One game of each kind, each well into play with its panels filled: Xiangqi a few moves in,
/// Junqi (referee) after a battle, Aeroplane chess after some rolls, Sea-land-air deployed
/// and under way. Returns their ids in that order.
fn games(dir: &Path) -> Vec<(&'static str, i32)> {
    let app = common::start(dir, Language::English, (1280, 800));
    let ui = app.window();
    let ng = ui.global::<NewGameAdapter>();
    let gs = ui.global::<GameSession>();
    let latest = || common::latest_game(dir).1.0 as i32;
    let mut ids = Vec::new();

    ui.global::<HomeAdapter>().invoke_new_game("xiangqi".into());
    ng.set_red_name("Ann".into());
    ng.set_black_name("Bo".into());
    ng.invoke_start();
    play(&app, &["h3e3", "h10g8", "h1g3"]);
    ids.push(("xiangqi", latest()));
    ui.global::<Nav>().invoke_back();

    ui.global::<HomeAdapter>().invoke_new_game("junqi".into());
    ui.global::<qiguan_app::ui::JunqiRules>().set_mode(0);
    ng.set_opponent(0);
    ng.invoke_start();
    gs.invoke_handover_done();
    deployment(&app).invoke_ready();
    gs.invoke_handover_done();
    deployment(&app).invoke_ready();
    gs.invoke_handover_done();
    // Red's major takes Blue's captain: a battle, and a line in each side's losses.
    jq_tap(&app, &["e5", "e6"]);
    gs.invoke_handover_done();
    assert!(
        ui.global::<qiguan_app::ui::BattleLedger>()
            .get_lines()
            .iter()
            .count()
            > 0,
        "the battle is in the losses panel"
    );
    ids.push(("junqi", latest()));
    ui.global::<Nav>().invoke_back();

    ui.global::<HomeAdapter>()
        .invoke_new_game("aeroplane".into());
    let rules = ui.global::<qiguan_app::ui::AeroplaneRules>();
    rules.set_seats(2);
    rules.set_p0(0);
    rules.set_p2(0);
    ng.invoke_start();
    common::aeroplane_drive(&app, 4000, |app| {
        app.window().global::<GameSession>().get_review_plies() >= 12
    });
    ids.push(("aeroplane", latest()));
    ui.global::<Nav>().invoke_back();

    ui.global::<HomeAdapter>()
        .invoke_new_game("sea-land-air".into());
    ng.set_opponent(0);
    ng.invoke_start();
    gs.invoke_handover_done();
    deployment(&app).invoke_ready();
    gs.invoke_handover_done();
    deployment(&app).invoke_ready();
    gs.invoke_handover_done();
    common::sla_drive(&app, dir, 6, |_| false);
    if gs.get_phase() == GamePhase::Handover {
        gs.invoke_handover_done();
    }
    ids.push(("sea-land-air", latest()));
    ui.global::<Nav>().invoke_back();
    ids
}

/// Opens a stored game from home, and passes its hand-over screen if it has one.
fn open(app: &App, id: i32) {
    let ui = app.window();
    ui.global::<HomeAdapter>().invoke_continue_game(id);
    let gs = ui.global::<GameSession>();
    if gs.get_phase() == GamePhase::Handover {
        gs.invoke_handover_done();
    }
}

fn every_pair_at(size: (u32, u32)) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let games = games(dir.path());

    // Each game as it looks when it is the first thing opened.
    let fresh: Vec<Vec<String>> = games
        .iter()
        .map(|&(_, id)| {
            let app = common::start(dir.path(), Language::English, size);
            open(&app, id);
            screen(&app)
        })
        .collect();

    let app = common::start(dir.path(), Language::English, size);
    let mut problems = Vec::new();
    for (a, &(first, first_id)) in games.iter().enumerate() {
        for (b, &(second, second_id)) in games.iter().enumerate() {
            if a == b {
                continue;
            }
            open(&app, first_id);
            app.window().global::<Nav>().invoke_back();
            open(&app, second_id);
            let now = screen(&app);
            let extra: Vec<&String> = now.iter().filter(|l| !fresh[b].contains(l)).collect();
            let missing: Vec<&String> = fresh[b].iter().filter(|l| !now.contains(l)).collect();
            if !extra.is_empty() || !missing.is_empty() {
                problems.push(format!(
                    "{second} after {first} at {size:?}:\n  more {extra:#?}\n  less {missing:#?}"
                ));
            }
            app.window().global::<Nav>().invoke_back();
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn a_game_opened_after_another_shows_nothing_of_it_on_a_desktop() {
    every_pair_at((1280, 800));
}

#[test]
fn a_game_opened_after_another_shows_nothing_of_it_on_a_phone() {
    every_pair_at((360, 780));
}
