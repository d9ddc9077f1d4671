//! What a viewer sees of an Aeroplane chess game, and what a move tells everyone. Nothing is
//! hidden: every seat sees the whole table, the last roll and the last move. Future rolls do
//! not exist anywhere until the authority makes them.

use super::movegen::{Plan, Table};
use super::state::{AeroplaneOptions, Phase};
use crate::seat::Seat;
use serde::{Deserialize, Serialize};

/// The table as everyone sees it.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct AeroplaneView {
    /// The house rules, which a client needs to work out moves.
    pub options: AeroplaneOptions,
    /// Every seat's colour and planes.
    pub table: Table,
    /// Whose turn it is.
    pub turn: Seat,
    /// Where the turn stands: roll, rolling, or move with a roll.
    pub phase: Phase,
    /// 6s rolled in a row this turn.
    pub sixes: u8,
    /// Seats with all planes home, in finishing order.
    pub finished: Vec<Seat>,
    /// The last roll.
    pub last_roll: Option<u8>,
    /// The last move.
    pub last_move: Option<Plan>,
}

/// What one action tells everyone.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum AeroplaneEvent {
    /// The die was rolled for a seat; `can_move` says whether it has a move to make with it
    /// (if not, the turn passes, or with a 6 the seat rolls again).
    Rolled {
        /// Whose roll.
        seat: Seat,
        /// 1 to 6.
        value: u8,
        /// Whether a move must be made with it.
        can_move: bool,
    },
    /// Planes moved.
    Moved {
        /// Where from and to, what they captured, how it went.
        plan: Plan,
    },
    /// A third 6 in a row: not played, and these planes (moved by the two previous 6s) went back
    /// to the hangar.
    ThreeSixes {
        /// Whose turn ended.
        seat: Seat,
        /// Planes sent back (empty under the option where the turn just ends).
        sent_back: Vec<u8>,
    },
    /// A seat brought its last plane home.
    Finished {
        /// Who.
        seat: Seat,
        /// Its place, from 1.
        place: u8,
    },
}
