//! New game: house rules and player names, then a stored game on the board.

use crate::games;
use crate::play::OnlineChoice;
use crate::shell::bind::handler0;
use crate::shell::ctx::Ctx;
use qiguan_core::GameKind;
use qiguan_ui::{AppWindow, NewGameAdapter, Screen};
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
pub fn open(ctx: &Rc<Ctx>, kind: GameKind) {
    let ui = ctx.ui();
    ui.global::<NewGameAdapter>()
        .set_game_index(games::index_of(kind) as i32);
    ctx.go(Screen::NewGame);
}

/// Starts the game chosen on the screen, on this device.
fn start(ctx: &Rc<Ctx>) {
    let ui = ctx.ui();
    let a = ui.global::<NewGameAdapter>();
    let entry = games::at(a.get_game_index());
    (entry.start)(ctx);
}

/// The game chosen on the screen, and how to create it on a server with this device in the
/// seat `side` names (the correspondence screen shows the same choices).
pub fn chosen_online(ui: &AppWindow, side: u8) -> (GameKind, OnlineChoice) {
    let entry = games::at(ui.global::<NewGameAdapter>().get_game_index());
    (entry.kind, (entry.online)(ui, side))
}
