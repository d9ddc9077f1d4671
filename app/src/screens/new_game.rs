//! New game: house rules and player names, then a stored game on the board.

use super::handler0;
use crate::app::Ctx;
use crate::store::{Mode, NewGame};
use qiguan_core::xiangqi::{Xiangqi, XiangqiOptions};
use qiguan_core::{AnyMatch, Match};
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
pub fn open(ctx: &Rc<Ctx>, _kind: &str) {
    let ui = ctx.ui();
    ui.global::<NewGameAdapter>().set_game_index(0);
    ctx.go(Screen::NewGame);
}

/// Returns the options chosen on the screen.
fn chosen_options(adapter: &NewGameAdapter<'_>) -> XiangqiOptions {
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
