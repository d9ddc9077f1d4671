//! Sea-land-air battle chess (海陆空战棋), on the board Qiguan defines in
//! docs/design/sea-land-air.md: the board's three layers, the 37 pieces a side and how fights
//! end, deployments, movement, the match state with its referee views and the recon's
//! knowledge, and a computer opponent.

pub mod board;
pub mod bot;
pub mod clues;
pub mod deployment;
pub mod movegen;
pub mod picture;
pub mod pieces;
pub mod refusal;
pub mod search;
pub mod state;
pub mod view;

pub use board::{Label, Layer, Point, map};
pub use deployment::{DeployProblem, Deployment};
pub use movegen::{Board, Move, Piece, Retreat};
pub use pieces::{Clash, Domain, Kind, Kinds, melee, remote};
pub use refusal::NoMove;
pub use state::{SeaLandAir, SeaLandAirMove, SeaLandAirOptions, SeaLandAirSetup};
pub use view::{SeaLandAirEvent, SeaLandAirView, SeenPiece, SeenPlay};
