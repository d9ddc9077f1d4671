//! The Aeroplane chess board (../shared/RULES.md): a ring of 52 track squares coloured red,
//! yellow, blue and green in turn, a take-off point and a home column of five squares for each
//! colour, and the goal in the middle.
//!
//! A plane's place is counted in *steps* from its own colour's take-off point (step 0). Steps
//! 1–50 are track squares shared with everyone, 51–55 its home column, 56 the goal. Step 1 is
//! the previous colour's square; own colour at steps 2, 6, …, 50; step 18 is the shortcut
//! square, whose flight ends at step 30 and crosses the opposite colour's step 53.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Squares on the ring.
pub const TRACK: u8 = 52;
/// The take-off point's step.
pub const TAKE_OFF: u8 = 0;
/// The shortcut square: a plane landing here flies to [`SHORTCUT_END`].
pub const SHORTCUT: u8 = 18;
/// Where the shortcut flight ends.
pub const SHORTCUT_END: u8 = 30;
/// The last track square: own colour, but no jump; the plane turns into the home column.
pub const HOME_TURN: u8 = 50;
/// The third square of a home column, which the opposite colour's shortcut flight crosses.
pub const CROSSING: u8 = 53;
/// The goal, reached only by an exact count.
pub const GOAL: u8 = 56;
/// Planes per seat.
pub const PLANES: usize = 4;

/// The four colours, in seat order around the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Colour {
    /// 红
    Red,
    /// 黄
    Yellow,
    /// 蓝
    Blue,
    /// 绿
    Green,
}

impl Colour {
    /// The colours in order around the board.
    pub const ALL: [Colour; 4] = [Colour::Red, Colour::Yellow, Colour::Blue, Colour::Green];

    /// Returns its place in [`Colour::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// Returns the colour at this place (modulo 4).
    pub fn from_index(i: usize) -> Colour {
        Colour::ALL[i % 4]
    }

    /// Returns the colour sitting opposite, whose home column this colour's shortcut crosses.
    pub fn opposite(self) -> Colour {
        Colour::from_index(self.index() + 2)
    }

    /// Returns the Chinese name: 红, 黄, 蓝, 绿.
    pub fn chinese(self) -> &'static str {
        ["红", "黄", "蓝", "绿"][self.index()]
    }

    /// Returns the track square of this colour's step 1–50.
    pub fn square(self, step: u8) -> Option<u8> {
        (1..=HOME_TURN)
            .contains(&step)
            .then(|| ((13 * self.index() as u32 + step as u32 - 1) % TRACK as u32) as u8)
    }

    /// Returns the step at which this colour passes a track square (1–52; a colour never
    /// stands on its steps 51 and 52 of the ring, which are the two squares before its step 1).
    pub fn step_of(self, square: u8) -> u8 {
        ((square as u32 + TRACK as u32 - 13 * self.index() as u32) % TRACK as u32) as u8 + 1
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Colour::Red => "red",
            Colour::Yellow => "yellow",
            Colour::Blue => "blue",
            Colour::Green => "green",
        })
    }
}

/// The colours the seats take: two seats sit opposite (red and blue); three take red, yellow
/// and blue; four take all.
pub fn colours(seats: usize) -> Vec<Colour> {
    match seats {
        2 => vec![Colour::Red, Colour::Blue],
        3 => vec![Colour::Red, Colour::Yellow, Colour::Blue],
        _ => Colour::ALL.to_vec(),
    }
}

/// Returns the colour of a track square.
pub fn square_colour(square: u8) -> Colour {
    Colour::from_index(square as usize + 3)
}

/// Returns true if a plane landing on this step of its own path jumps on four steps: its own
/// colour's squares 2, 6, …, 46 (not 50, the turn into the home column).
pub fn jumps_from(step: u8) -> bool {
    step < HOME_TURN && step % 4 == 2
}

/// Where a plane is.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(try_from = "i8", into = "i8")]
pub enum Spot {
    /// In its hangar (serialized as -1).
    #[default]
    Hangar,
    /// At this step of its colour's path: 0 the take-off point, 1–50 the track, 51–55 the home
    /// column, 56 the goal (finished).
    Step(u8),
}

impl Spot {
    /// The goal: a plane here has finished.
    pub const GOAL: Spot = Spot::Step(GOAL);

    /// Returns true once the plane has reached the goal.
    pub fn is_finished(self) -> bool {
        self == Spot::GOAL
    }

    /// Returns the step, if the plane has left the hangar.
    pub fn step(self) -> Option<u8> {
        match self {
            Spot::Hangar => None,
            Spot::Step(s) => Some(s),
        }
    }

    /// Returns the track square this spot is on for a plane of `colour` (steps 1–50 only).
    pub fn square(self, colour: Colour) -> Option<u8> {
        self.step().and_then(|s| colour.square(s))
    }
}

impl TryFrom<i8> for Spot {
    type Error = String;
    fn try_from(v: i8) -> Result<Self, String> {
        match v {
            -1 => Ok(Spot::Hangar),
            0..=56 => Ok(Spot::Step(v as u8)),
            _ => Err(format!("a spot is -1 (hangar) to 56 (goal), not {v}")),
        }
    }
}

impl From<Spot> for i8 {
    fn from(s: Spot) -> i8 {
        match s {
            Spot::Hangar => -1,
            Spot::Step(v) => v as i8,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thirteen_squares_of_each_colour_in_seat_order() {
        for c in Colour::ALL {
            assert_eq!((0..TRACK).filter(|&s| square_colour(s) == c).count(), 13);
        }
        for c in Colour::ALL {
            let prev = Colour::from_index(c.index() + 3);
            assert_eq!(square_colour(c.square(1).unwrap()), prev, "step 1 of {c}");
            for step in (2..=50).step_by(4) {
                assert_eq!(
                    square_colour(c.square(step).unwrap()),
                    c,
                    "step {step} of {c}"
                );
            }
            for step in 1..=50 {
                assert_eq!(c.step_of(c.square(step).unwrap()), step);
            }
        }
    }

    #[test]
    fn the_shortcut_flight_crosses_the_opposite_home_column_at_its_third_square() {
        for c in Colour::ALL {
            let o = c.opposite();
            // The opposite colour turns off the ring after its step 50 …
            let turn = o.square(HOME_TURN).unwrap();
            let from = c.step_of(turn);
            // … which this colour passes strictly between its steps 18 and 30, in the middle.
            assert!(SHORTCUT < from && from < SHORTCUT_END, "{c}: {from}");
            assert_eq!(from, 24);
        }
    }
}
