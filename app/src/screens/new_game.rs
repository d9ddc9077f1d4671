//! New game: house rules and player names, then a stored game on the board.

use super::handler0;
use super::registry::{self, OnlineChoice};
use crate::ctx::Ctx;
use qiguan_core::Strength;
use qiguan_core::{GameKind, Seat};
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
        .set_game_index(registry::index_of(kind) as i32);
    ctx.go(Screen::NewGame);
}

/// Starts the game chosen on the screen, on this device.
fn start(ctx: &Rc<Ctx>) {
    let ui = ctx.ui();
    let a = ui.global::<NewGameAdapter>();
    let entry = registry::at(a.get_game_index());
    (entry.start)(ctx);
}

/// The game chosen on the screen, and how to create it on a server with this device in the
/// seat `side` names (the correspondence screen shows the same choices).
pub fn chosen_online(ui: &AppWindow, side: u8) -> (GameKind, OnlineChoice) {
    let entry = registry::at(ui.global::<NewGameAdapter>().get_game_index());
    (entry.kind, (entry.online)(ui, side))
}

/// The strength chosen on New game for the games whose computer comes at three (easy, normal
/// or hard).
pub(crate) fn chosen_strength(ui: &AppWindow) -> Strength {
    match ui.global::<NewGameAdapter>().get_strength() {
        0 => Strength::Easy,
        2 => Strength::Hard,
        _ => Strength::Normal,
    }
}

/// A correspondence game of two seats as chosen: against a friend, or against the server's
/// computer at the strength chosen (in the other seat).
pub(crate) fn online_at_strength(
    ui: &AppWindow,
    options: impl serde::Serialize,
    side: u8,
) -> OnlineChoice {
    let mut choice = OnlineChoice::two_people(options, side);
    if ui.global::<NewGameAdapter>().get_opponent() == 1 {
        choice.bots = vec![(1 - choice.seat, chosen_strength(ui))];
    }
    choice
}

/// The players' names and each seat's computer, for a two-seat game against a person or the
/// computer (the choice New game offers with its opponent buttons).
pub(crate) fn two_seats(ui: &AppWindow) -> (Vec<String>, Vec<Option<Strength>>) {
    two_seats_at(ui, Strength::Strong)
}

/// As [`two_seats`], the computer (if chosen) at `strength`.
pub(crate) fn two_seats_at(
    ui: &AppWindow,
    strength: Strength,
) -> (Vec<String>, Vec<Option<Strength>>) {
    let a = ui.global::<NewGameAdapter>();
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
        // The computer's seat has no name: the computer is a role, named on screen.
        let names = vec![String::new(), String::new()];
        let mut computers = vec![None, None];
        computers[bot.index()] = Some(strength);
        (names, computers)
    } else {
        (
            vec![
                a.get_red_name().trim().to_owned(),
                a.get_black_name().trim().to_owned(),
            ],
            vec![None, None],
        )
    }
}
