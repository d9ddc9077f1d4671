//! Xiangqi (象棋, Chinese chess), complete: rules, FEN, notations, repetition, perft.
//!
//! Seat 0 plays Red and moves first; seat 1 plays Black. Moves travel as Fairy-Stockfish
//! coordinates (`h3e3`); [`notation`] turns them into WXF (`C2=5`) and Chinese (炮二平五)
//! and reads those back, as well as ICCS (`h2e2`).

pub mod analysis;
pub mod board;
pub mod computer;
pub mod dhtmlxq;
pub mod editor;
pub mod engine;
pub mod fen;
pub mod import;
mod movegen;
pub mod notation;
pub mod opening;
pub mod pgn;
pub mod pgn_study;
pub mod picture;
pub mod position;
mod repetition;
pub mod state;
pub mod study;
pub mod uci;
pub mod view;
pub mod xqf;

#[cfg(test)]
mod tests;

pub use board::{Color, Kind, Move, Piece, Square};
pub use fen::{FenError, START_FEN};
pub use position::Position;
pub use state::{Xiangqi, XiangqiOptions, XiangqiSetup, seat_of};
pub use view::{XiangqiEvent, XiangqiView};
