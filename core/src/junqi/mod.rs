//! Junqi (land battle chess). So far: the board's geometry. Deployment, movement, battles,
//! the three modes and the views follow (issue 5).

pub mod board;

pub use board::{Point, graph};
