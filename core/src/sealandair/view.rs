//! What a viewer sees of a Sea-land-air game (V1–V5), and what an action tells whom. A seat
//! sees its own pieces, and of the enemy's where they stand, what its recon has revealed and
//! every piece that has fought a battle. A battle shows both pieces to everyone (in referee
//! mode it tells only which pieces were removed); the recon's findings go to its owner alone.
//! When the game is over, everything shows.

use super::board::Point;
use super::movegen::{Board, Move, Piece};
use super::pieces::{Kind, Kinds};
use super::state::{SeaLandAir, side_of};
use crate::game::Viewer;
use crate::junqi::Side;
use crate::seat::Seat;
use serde::{Deserialize, Serialize};

/// One occupied point as a viewer sees it.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct SeenPiece {
    /// The point, `c5`.
    pub at: String,
    /// Whose piece.
    pub side: Side,
    /// Its kind, when this viewer may know it.
    pub kind: Option<Kind>,
    /// It was fired on or struck and nothing happened, which everyone saw: it is a
    /// commander-in-chief, an army group commander, a landmine or the flag (F1).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub survived_fire: bool,
    /// For a seat, of an opposing piece it does not know: the kinds it can still be, from
    /// everything the seat has seen (see [`super::clues`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub could_be: Option<Kinds>,
}

impl SeenPiece {
    pub(crate) fn known(at: Point, piece: Piece) -> SeenPiece {
        SeenPiece {
            at: at.to_string(),
            side: piece.side,
            kind: Some(piece.kind),
            survived_fire: false,
            could_be: None,
        }
    }
}

/// A viewer's picture of the game.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct SeaLandAirView {
    /// Open mode: every piece shows.
    pub open: bool,
    /// Which seats have deployed.
    pub deployed: [bool; 2],
    /// The pieces as this viewer may see them. While deploying, only the viewer's own.
    pub pieces: Vec<SeenPiece>,
    /// The seat to move once both have deployed.
    pub side_to_move: Seat,
    /// Turns in a row with no piece removed.
    pub quiet_plies: u32,
    /// Where each side's aircraft stands that attacked on that side's last turn (it may
    /// retreat safely, R2).
    pub attacked_last: [Option<String>; 2],
    /// The last action, and what fought, as far as this viewer may know.
    pub last: Option<SeenPlay>,
    /// Each side's pieces removed (South's first), in the order they fell, each with its
    /// kind when this viewer may know it: its own, those a battle showed (V4) or its recon
    /// saw, everything in open mode and once the game is over.
    #[serde(default)]
    pub lost: [Vec<Option<Kind>>; 2],
    /// For a seat: what each piece in `lost` can have been (one kind when known), in the
    /// same order.
    #[serde(default, skip_serializing_if = "lost_clues_empty")]
    pub lost_could_be: [Vec<Kinds>; 2],
}

fn lost_clues_empty(clues: &[Vec<Kinds>; 2]) -> bool {
    clues.iter().all(Vec::is_empty)
}

/// The last action as one viewer may know it: the event everyone was told, and the pieces on
/// its two points, each with its kind only when this viewer may know it.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct SeenPlay {
    /// What everyone was told.
    pub event: SeaLandAirEvent,
    /// The piece that acted, at its starting point.
    pub mover: Option<SeenPiece>,
    /// The piece it attacked, at the target point.
    pub defender: Option<SeenPiece>,
}

impl SeaLandAirView {
    /// Rebuilds the board this view shows. An enemy piece of unknown identity stands as a
    /// private: movement never depends on an enemy's identity, so the board gives this seat's
    /// legal moves exactly (the pieces' own `kind`s say which identities are real).
    pub fn board(&self) -> Board {
        let mut board = Board::default();
        for (i, seen) in self.pieces.iter().enumerate() {
            if let Ok(at) = seen.at.parse::<Point>() {
                let kind = seen.kind.unwrap_or(Kind::Private);
                board.set(
                    at,
                    Some(Piece {
                        side: seen.side,
                        kind,
                        id: i as u8,
                    }),
                );
            }
        }
        board
    }

    pub(crate) fn of(game: &SeaLandAir, viewer: Viewer) -> Self {
        let seen = |at: Point, piece: Piece| SeenPiece {
            at: at.to_string(),
            side: piece.side,
            kind: game.knows(viewer, piece).then_some(piece.kind),
            survived_fire: game.survived_fire & (1u128 << piece.id) != 0,
            could_be: game.could_be(viewer, piece),
        };
        let pieces = if game.deploying() {
            let own = match viewer {
                Viewer::Seat(s) if s.index() < 2 => game.deployment(side_of(s)),
                _ => None,
            };
            own.map(|d| {
                d.pieces
                    .iter()
                    .map(|&(p, kind)| SeenPiece {
                        at: p.to_string(),
                        side: d.side,
                        kind: Some(kind),
                        survived_fire: false,
                        could_be: None,
                    })
                    .collect()
            })
            .unwrap_or_default()
        } else {
            game.board()
                .pieces()
                .map(|(p, piece)| seen(p, piece))
                .collect()
        };
        SeaLandAirView {
            open: game.options.open,
            deployed: [0, 1].map(|i| game.deployments[i].is_some() || !game.deploying()),
            pieces,
            side_to_move: game.seat_to_move(),
            quiet_plies: game.quiet,
            attacked_last: game.attacked_last.map(|p| p.map(|p| p.to_string())),
            last: game.last.as_ref().map(|last| {
                let mv = match &last.event {
                    SeaLandAirEvent::Moved { mv }
                    | SeaLandAirEvent::Battle { mv, .. }
                    | SeaLandAirEvent::Retreated { mv, .. } => mv.parse::<Move>().ok(),
                    _ => None,
                };
                SeenPlay {
                    event: last.event.clone(),
                    mover: mv.map(|m| seen(m.from, last.mover)),
                    defender: mv.zip(last.defender).map(|(m, d)| seen(m.to, d)),
                }
            }),
            lost: {
                let mut lost: [Vec<Option<Kind>>; 2] = [Vec::new(), Vec::new()];
                for &piece in &game.lost {
                    lost[piece.side as usize].push(game.knows(viewer, piece).then_some(piece.kind));
                }
                lost
            },
            lost_could_be: {
                let mut clues: [Vec<Kinds>; 2] = [Vec::new(), Vec::new()];
                if matches!(viewer, Viewer::Seat(s) if s.index() < 2) {
                    for &piece in &game.lost {
                        let set = game
                            .could_be(viewer, piece)
                            .unwrap_or_else(|| Kinds::only(piece.kind));
                        clues[piece.side as usize].push(set);
                    }
                }
                clues
            },
        }
    }

    /// What `side` has left, kind by kind ([`Kind::ALL`]'s order), when this view tells it:
    /// every piece of that side on the board shows its kind. None while deploying.
    pub fn left_by_kind(&self, side: Side) -> Option<[usize; 21]> {
        if !self.deployed.iter().all(|d| *d) {
            return None;
        }
        let mut left = [0; 21];
        for piece in self.pieces.iter().filter(|p| p.side == side) {
            let kind = piece.kind?;
            left[Kind::ALL.iter().position(|&k| k == kind).unwrap_or(0)] += 1;
        }
        Some(left)
    }

    /// How many pieces `side` has left (None while deploying).
    pub fn left_count(&self, side: Side) -> Option<usize> {
        self.deployed
            .iter()
            .all(|d| *d)
            .then(|| self.pieces.iter().filter(|p| p.side == side).count())
    }
}

/// What one action tells its audience.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum SeaLandAirEvent {
    /// A seat deployed (nothing of how).
    Deployed {
        /// Which seat.
        seat: Seat,
    },
    /// A piece moved to an empty point.
    Moved {
        /// The move, `a1-a3`.
        mv: String,
    },
    /// A piece attacked, by moving or from where it stands.
    Battle {
        /// The move, `a1-a3` or `a4*a7`.
        mv: String,
        /// The attacker was removed.
        attacker_removed: bool,
        /// The defender was removed.
        defender_removed: bool,
        /// Two recon planes met: the airports they went back to, attacker's first (A2).
        sent_home: Option<[String; 2]>,
        /// The attacker's kind: a battle shows it (V4), except in referee mode (V5).
        attacker: Option<Kind>,
        /// The defender's kind, shown as the attacker's is.
        defender: Option<Kind>,
    },
    /// An aircraft retreated along a route (R1), or was shot down trying (R3).
    Retreated {
        /// The move, `k9-se`.
        mv: String,
        /// It was shot down.
        shot_down: bool,
    },
    /// The recon revealed these enemy pieces (told only to its owner, V2).
    Spotted {
        /// What it saw.
        pieces: Vec<SeenPiece>,
    },
}
