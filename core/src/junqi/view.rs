//! What a viewer sees of a Junqi game, and what a move tells everyone. In referee mode a seat
//! sees its own pieces, the opponent's as unknown (its flag once its Field Marshal has fallen),
//! and of a battle only which pieces were removed. When the game is over, everything shows.

use super::board::Point;
use super::pieces::{Rank, Side};
use super::state::{Junqi, Visibility};
use crate::game::Viewer;
use crate::seat::Seat;
use serde::Serialize;

/// One occupied point as a viewer sees it.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct SeenPiece {
    /// The point, `c5`.
    pub at: String,
    /// Whose piece.
    pub side: Side,
    /// Its kind, when this viewer may know it.
    pub rank: Option<Rank>,
}

/// A viewer's picture of the game.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct JunqiView {
    /// Referee or open.
    pub visibility: Visibility,
    /// Which seats have deployed.
    pub deployed: [bool; 2],
    /// The pieces on the board as this viewer may see them. While deploying, only the
    /// viewer's own deployment.
    pub pieces: Vec<SeenPiece>,
    /// The seat to move once both have deployed.
    pub side_to_move: Seat,
    /// Plies in a row without a battle.
    pub quiet_plies: u32,
    /// Which sides have shown their flag (their Field Marshal fell).
    pub flag_shown: [bool; 2],
}

impl JunqiView {
    pub(crate) fn of(game: &Junqi, viewer: Viewer) -> Self {
        let pieces = if game.deploying() {
            // Only the viewer's own deployment, if made.
            let own = match viewer {
                Viewer::Seat(s) if s.index() < 2 => game.deployments[s.index()].as_ref(),
                _ => None,
            };
            own.map(|d| {
                d.pieces
                    .iter()
                    .map(|&(p, rank)| SeenPiece {
                        at: p.to_string(),
                        side: d.side,
                        rank: Some(rank),
                    })
                    .collect()
            })
            .unwrap_or_default()
        } else {
            game.board()
                .pieces()
                .map(|(p, piece): (Point, _)| SeenPiece {
                    at: p.to_string(),
                    side: piece.side,
                    rank: game.visible_rank(viewer, piece),
                })
                .collect()
        };
        JunqiView {
            visibility: game.junqi_options().visibility,
            deployed: [game.deployments[0].is_some(), game.deployments[1].is_some()],
            pieces,
            side_to_move: super::state::seat_of(game.side_to_move()),
            quiet_plies: game.quiet,
            flag_shown: [game.flag_shown(Side::South), game.flag_shown(Side::North)],
        }
    }
}

/// What one action tells every seat. Battles say where and which pieces went; their
/// identities only in open mode.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum JunqiEvent {
    /// A seat deployed (nothing of how).
    Deployed {
        /// Which seat.
        seat: Seat,
    },
    /// A piece moved to an empty point.
    Moved {
        /// The move, `a1a5`.
        mv: String,
    },
    /// A piece attacked.
    Battle {
        /// The move, `a1a5`.
        mv: String,
        /// The attacker was removed.
        attacker_removed: bool,
        /// The defender was removed.
        defender_removed: bool,
        /// The attacker's kind (open mode only).
        attacker: Option<Rank>,
        /// The defender's kind (open mode only).
        defender: Option<Rank>,
    },
}
