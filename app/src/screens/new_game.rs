//! New game: house rules and player names, then a stored game on the board.

use super::handler0;
use crate::app::Ctx;
use crate::store::{Mode, NewGame};
use qiguan_core::aeroplane::bot::Strength;
use qiguan_core::aeroplane::{AeroplaneOptions, LaunchRule, ThreeSixes};
use qiguan_core::junqi::{FlipColours, JunqiOptions, Visibility};
use qiguan_core::sealandair::SeaLandAirOptions;
use qiguan_core::xiangqi::{Xiangqi, XiangqiOptions};
use qiguan_core::{AnyMatch, Match, Seat};
use qiguan_ui::{NewGameAdapter, Screen};
use slint::ComponentHandle;
use std::rc::Rc;

pub fn connect(ctx: &Rc<Ctx>) {
    let ui = ctx.ui();
    let adapter = ui.global::<NewGameAdapter>();
    adapter.on_swap_sides(handler0(ctx, |ctx| {
        let ui = ctx.ui();
        let a = ui.global::<NewGameAdapter>();
        let red = a.get_red_name();
        a.set_red_name(a.get_black_name());
        a.set_black_name(red);
    }));
    adapter.on_start(handler0(ctx, start));
}

/// Opens the new-game screen for this game.
pub fn open(ctx: &Rc<Ctx>, kind: &str) {
    let ui = ctx.ui();
    ui.global::<NewGameAdapter>().set_game_index(match kind {
        "junqi" => 1,
        "aeroplane" => 2,
        "sea-land-air" => 3,
        _ => 0,
    });
    ctx.go(Screen::NewGame);
}

/// Returns the Junqi options chosen on the screen.
pub fn junqi_options(a: &NewGameAdapter<'_>) -> JunqiOptions {
    JunqiOptions {
        visibility: match a.get_junqi_mode() {
            1 => Visibility::Open,
            2 => Visibility::Flip,
            _ => Visibility::Referee,
        },
        landmine_stays: a.get_landmine_stays(),
        camps_safe: a.get_camps_safe(),
        bombs_enter_headquarters: a.get_bombs_enter_hq(),
        quiet_plies: None,
        flip_colours: if a.get_two_in_a_row() {
            FlipColours::TwoInARow
        } else {
            FlipColours::FirstTurn
        },
        headquarters_locked: a.get_hq_locked(),
        landmines_attackable: a.get_landmines_attackable(),
    }
}

/// Returns the Aeroplane chess options chosen on the screen.
pub fn aeroplane_options(a: &NewGameAdapter<'_>) -> AeroplaneOptions {
    AeroplaneOptions {
        seats: (a.get_aero_seats().clamp(0, 2) + 2) as u8,
        launch: match a.get_aero_launch() {
            1 => LaunchRule::SixOnly,
            2 => LaunchRule::FiveOrSix,
            _ => LaunchRule::Even,
        },
        three_sixes: if a.get_aero_end_turn() {
            ThreeSixes::EndTurn
        } else {
            ThreeSixes::SendBack
        },
        stacks_move_together: a.get_aero_stacks_together(),
        stacks_block: a.get_aero_stacks_block(),
    }
}

/// Each Aeroplane chess seat's computer player as chosen (`None`: a person), and the names.
pub fn aeroplane_seats(a: &NewGameAdapter<'_>) -> (Vec<Option<Strength>>, Vec<String>) {
    let kinds = [
        a.get_aero_p0(),
        a.get_aero_p1(),
        a.get_aero_p2(),
        a.get_aero_p3(),
    ];
    let names = [
        a.get_aero_n0(),
        a.get_aero_n1(),
        a.get_aero_n2(),
        a.get_aero_n3(),
    ];
    let seats = aeroplane_options(a).seats as usize;
    let computers: Vec<Option<Strength>> = kinds[..seats]
        .iter()
        .map(|k| match k {
            1 => Some(Strength::Easy),
            2 => Some(Strength::Strong),
            _ => None,
        })
        .collect();
    let names = names[..seats]
        .iter()
        .zip(&computers)
        .map(|(n, c)| {
            if c.is_some() {
                crate::sync::COMPUTER_NAME.to_owned()
            } else {
                n.trim().to_owned()
            }
        })
        .collect();
    (computers, names)
}

fn start_aeroplane(ctx: &Rc<Ctx>) {
    let ui = ctx.ui();
    let a = ui.global::<NewGameAdapter>();
    let (computers, names) = aeroplane_seats(&a);
    if let Err(e) = super::aeroplane::start(ctx, &aeroplane_options(&a), names, computers) {
        super::play::show_error(ctx, &e);
    }
}

/// The players' names and the computer's seat, for the two-seat games with a computer
/// opponent (Junqi, Sea-land-air).
fn two_seats(a: &NewGameAdapter<'_>) -> (Vec<String>, Option<Seat>) {
    if a.get_opponent() == 1 {
        let human = if a.get_human_seat() == 1 {
            Seat::SECOND
        } else {
            Seat::FIRST
        };
        let bot = if human == Seat::FIRST {
            Seat::SECOND
        } else {
            Seat::FIRST
        };
        let mut names = vec![String::new(), String::new()];
        names[bot.index()] = "电脑".into();
        (names, Some(bot))
    } else {
        (
            vec![
                a.get_red_name().trim().to_owned(),
                a.get_black_name().trim().to_owned(),
            ],
            None,
        )
    }
}

fn start_junqi(ctx: &Rc<Ctx>) {
    let ui = ctx.ui();
    let a = ui.global::<NewGameAdapter>();
    let options = junqi_options(&a);
    let (players, computer) = two_seats(&a);
    if let Err(e) = super::junqi::start(ctx, &options, players, computer) {
        super::play::show_error(ctx, &e);
    }
}

/// Returns the Sea-land-air options chosen on the screen.
pub fn sealandair_options(a: &NewGameAdapter<'_>) -> SeaLandAirOptions {
    SeaLandAirOptions {
        open: a.get_sla_open(),
        ..SeaLandAirOptions::default()
    }
}

fn start_sealandair(ctx: &Rc<Ctx>) {
    let ui = ctx.ui();
    let a = ui.global::<NewGameAdapter>();
    let (players, computer) = two_seats(&a);
    if let Err(e) = super::sealandair::start(ctx, &sealandair_options(&a), players, computer) {
        super::play::show_error(ctx, &e);
    }
}

/// Returns the options chosen on the screen.
pub fn chosen_options(adapter: &NewGameAdapter<'_>) -> XiangqiOptions {
    XiangqiOptions {
        perpetual_chase_loses: adapter.get_chase_loses(),
        move_limit: adapter
            .get_move_limit_on()
            .then(|| adapter.get_move_limit().clamp(20, 400) as u32),
    }
}

fn start(ctx: &Rc<Ctx>) {
    let ui = ctx.ui();
    let adapter = ui.global::<NewGameAdapter>();
    match adapter.get_game_index() {
        1 => return start_junqi(ctx),
        2 => return start_aeroplane(ctx),
        3 => return start_sealandair(ctx),
        _ => {}
    }
    let options = chosen_options(&adapter);
    let players = vec![
        adapter.get_red_name().trim().to_owned(),
        adapter.get_black_name().trim().to_owned(),
    ];
    let game: Match<Xiangqi> = match Match::new(&options, None) {
        Ok(game) => game,
        Err(e) => {
            super::play::show_error(ctx, &e.to_string());
            return;
        }
    };
    start_match(ctx, game, players, Mode::PassAndPlay);
}

/// The game and its options chosen on the new-game screen (the correspondence screen shows the
/// same choices), as core serializes them for a server.
pub fn chosen_game(a: &NewGameAdapter<'_>) -> (qiguan_core::GameKind, serde_json::Value) {
    if a.get_game_index() == 3 {
        let options = serde_json::to_value(sealandair_options(a)).unwrap_or_default();
        (qiguan_core::GameKind::SeaLandAir, options)
    } else if a.get_game_index() == 2 {
        let options = serde_json::to_value(aeroplane_options(a)).unwrap_or_default();
        (qiguan_core::GameKind::Aeroplane, options)
    } else if a.get_game_index() == 1 {
        let options = serde_json::to_value(junqi_options(a)).unwrap_or_default();
        (qiguan_core::GameKind::Junqi, options)
    } else {
        let options = serde_json::to_value(chosen_options(a)).unwrap_or_default();
        (qiguan_core::GameKind::Xiangqi, options)
    }
}

/// Stores a new match and opens it on the board; home is what "back" leads to.
pub fn start_match(ctx: &Rc<Ctx>, game: Match<Xiangqi>, players: Vec<String>, mode: Mode) {
    let any = AnyMatch::Xiangqi(game);
    let new = NewGame::from_match(&any, mode, players);
    let now = ctx.now();
    match ctx.with_store(|store| store.create_game(&new, now)) {
        Ok(id) => {
            ctx.reset_to(Screen::Home);
            super::play::open(ctx, id);
        }
        Err(e) => super::play::show_error(ctx, &e.to_string()),
    }
}
