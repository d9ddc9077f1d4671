//! What a viewer sees of a Xiangqi game, and what a move tells everyone.

use super::state::{Xiangqi, seat_of};
use crate::seat::Seat;
use serde::{Deserialize, Serialize};

/// A viewer's picture of the game. Xiangqi hides nothing, so every viewer gets the same.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct XiangqiView {
    /// The starting position.
    pub start_fen: String,
    /// The current position.
    pub fen: String,
    /// The moves so far, in coordinates.
    pub moves: Vec<String>,
    /// The seat to move (0 Red, 1 Black).
    pub side_to_move: Seat,
    /// The general of the side to move is in check.
    pub in_check: bool,
}

impl XiangqiView {
    pub(crate) fn of(game: &Xiangqi) -> Self {
        let pos = game.position();
        XiangqiView {
            start_fen: game.start_position().to_fen(),
            fen: pos.to_fen(),
            moves: game.moves().map(|m| m.to_string()).collect(),
            side_to_move: seat_of(pos.side_to_move()),
            in_check: pos.in_check(pos.side_to_move()),
        }
    }
}

/// What one move tells every seat.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum XiangqiEvent {
    /// A piece moved.
    Moved {
        /// The move in coordinates.
        mv: String,
        /// The piece that moved, as its FEN letter.
        piece: char,
        /// The piece it captured, if any.
        captured: Option<char>,
        /// The move gives check.
        check: bool,
    },
}
