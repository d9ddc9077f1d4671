//! Aeroplane chess (飞行棋) for 2 to 4 seats: the board, moves with jumps, the shortcut flight
//! and its crossing, stacks and captures, the die as the authority's recorded chance move,
//! finishing places, computer players at two strengths, and the board picture of the rules page.

pub mod board;
pub mod bot;
pub mod geometry;
pub mod movegen;
pub mod picture;
pub mod state;
pub mod view;

pub use board::{Colour, GOAL, PLANES, Spot};
pub use movegen::{MoveKind, Plan, PlaneRef, Table};
pub use state::{
    Aeroplane, AeroplaneMove, AeroplaneOptions, AeroplaneSetup, LaunchRule, Phase, ThreeSixes,
};
pub use view::{AeroplaneEvent, AeroplaneView};
