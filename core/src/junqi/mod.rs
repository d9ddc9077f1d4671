//! Junqi (land battle chess). So far: the board's geometry, the pieces and the battle table,
//! and deployments (validation, random, classic layouts). Movement, the three modes, the
//! match state and the views follow (issue 5).

pub mod board;
pub mod deployment;
pub mod pieces;

pub use board::{Point, graph};
pub use deployment::{DeployProblem, Deployment};
pub use pieces::{Battle, BattleRules, Rank, Side, battle};
