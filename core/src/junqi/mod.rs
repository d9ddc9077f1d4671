//! Junqi (land battle chess): the board's geometry, the pieces and the battle table,
//! deployments (validation, random, classic layouts), movement, the match state in referee, open
//! and flip modes, per-seat views, a computer opponent, and the board picture of the rules page.

pub mod belief;
pub mod board;
pub mod bot;
pub mod clues;
pub mod deployment;
pub mod movegen;
pub mod picture;
pub mod pieces;
pub mod search;
pub mod state;
pub mod view;

pub use board::{Point, graph};
pub use clues::Ranks;
pub use deployment::{DeployProblem, Deployment};
pub use movegen::{Board, Move, MoveRules, NoMove, Piece};
pub use pieces::{Battle, BattleRules, Rank, Side, battle};
pub use state::{FlipColours, Junqi, JunqiMove, JunqiOptions, JunqiSetup, Visibility};
pub use view::{JunqiEvent, JunqiView, SeenPiece, SeenPlay};
