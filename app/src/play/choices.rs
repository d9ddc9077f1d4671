//! What the New game screen chose, as the games read it: the seats (people, or the computer
//! at a strength) and a correspondence game to create.

use qiguan_core::{Seat, Strength};
use qiguan_ui::{AppWindow, NewGameAdapter};
use slint::ComponentHandle;

/// A correspondence game to create, as chosen on screen.
#[derive(Debug)]
pub(crate) struct OnlineChoice {
    /// The options, as core serializes them for the server.
    pub options: serde_json::Value,
    /// The creator's seat.
    pub seat: u8,
    /// Seats the server's computer plays, at these strengths.
    pub bots: Vec<(u8, Strength)>,
}

impl OnlineChoice {
    /// A game of two people, the creator in `seat`.
    pub fn two_people(options: impl serde::Serialize, seat: u8) -> OnlineChoice {
        OnlineChoice {
            options: serde_json::to_value(options).unwrap_or_default(),
            seat: seat.min(1),
            bots: Vec::new(),
        }
    }
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
