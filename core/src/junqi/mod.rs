//! Junqi (land battle chess). So far: the board's geometry, the pieces and the battle table,
//! deployments (validation, random, classic layouts) and movement. The three modes, the match
//! state, the views and the computer opponent follow (issue 5).

pub mod board;
pub mod bot;
pub mod deployment;
pub mod movegen;
pub mod pieces;
pub mod state;
pub mod view;

pub use board::{Point, graph};
pub use deployment::{DeployProblem, Deployment};
pub use movegen::{Board, Move, MoveRules, Piece};
pub use pieces::{Battle, BattleRules, Rank, Side, battle};
pub use state::{Junqi, JunqiMove, JunqiOptions, JunqiSetup, Visibility};
pub use view::{JunqiEvent, JunqiView, SeenPiece};
