//! What a viewer sees of a Junqi game, and what a move tells everyone. In referee mode a seat
//! sees its own pieces, the opponent's as unknown (its flag once its Field Marshal has fallen),
//! and of a battle only which pieces were removed. In flip mode everyone sees the same: face-up
//! pieces, and of face-down ones only where they lie (not even whose they are). When the game is
//! over, everything shows.

use super::board::Point;
use super::clues::Ranks;
use super::movegen::{Move, NoMove};
use super::pieces::{Rank, Side};
use super::state::{Junqi, JunqiOptions, Visibility};
use crate::game::Viewer;
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
    pub rank: Option<Rank>,
    /// Referee mode, an opposing piece of unknown kind: the kinds it can still be, from
    /// what this seat has seen (see [`super::clues`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub could_be: Option<Ranks>,
}

/// A viewer's picture of the game.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct JunqiView {
    /// Referee, open or flip.
    pub visibility: Visibility,
    /// The side each seat plays, once known (flip mode fixes it with the first flips).
    pub colours: [Option<Side>; 2],
    /// Flip mode: the points whose piece lies face down.
    pub face_down: Vec<String>,
    /// Flip mode: the points in a headquarters whose piece may still move (dealt there).
    pub free_in_headquarters: Vec<String>,
    /// Flip mode: each side's landmines still on the board, face down ones included (a flag
    /// can be taken only when its side has none).
    pub landmines_left: Option<[u8; 2]>,
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
    /// The last move or flip, and what fought, as far as this viewer may know.
    #[serde(default)]
    pub last: Option<SeenPlay>,
    /// Each side's pieces removed in battle (South's first), in the order they fell, each
    /// with its kind when this viewer may know it: its own side's, everything in open and
    /// flip modes and once the game is over.
    #[serde(default)]
    pub lost: [Vec<Option<Rank>>; 2],
    /// Referee mode, for a seat: what each piece in `lost` can have been (one kind when
    /// known), in the same order.
    #[serde(default, skip_serializing_if = "lost_clues_empty")]
    pub lost_could_be: [Vec<Ranks>; 2],
}

fn lost_clues_empty(clues: &[Vec<Ranks>; 2]) -> bool {
    clues.iter().all(Vec::is_empty)
}

/// The last move or flip as one viewer may know it: the event everyone was told, and the
/// pieces that stood on its two points, each with its kind only when this viewer may know it
/// (its own pieces; everything in open and flip modes and once the game is over).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct SeenPlay {
    /// What everyone was told.
    pub event: JunqiEvent,
    /// The piece that moved, at its starting point (none for a flip).
    pub mover: Option<SeenPiece>,
    /// The piece it attacked, at the target point.
    pub defender: Option<SeenPiece>,
}

impl JunqiView {
    /// Why the viewer may not play `m`, as far as this view tells (see [`super::Board::why_not`]);
    /// `None` when it may or there is nothing to explain.
    pub fn why_not(&self, options: &JunqiOptions, m: Move) -> Option<NoMove> {
        super::bot::board_of(self).why_not(m.from, m.to, super::state::move_rules(options))
    }

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
                        could_be: None,
                    })
                    .collect()
            })
            .unwrap_or_default()
        } else {
            let over = game.outcome.is_some();
            game.board()
                .pieces()
                // A face-down piece shows nothing, not even its side, until the end.
                .filter(|(p, _)| over || !game.board().is_face_down(*p))
                .map(|(p, piece): (Point, _)| {
                    let rank = game.visible_rank(viewer, p, piece);
                    SeenPiece {
                        at: p.to_string(),
                        side: piece.side,
                        rank,
                        could_be: rank
                            .is_none()
                            .then(|| game.could_be(viewer, p, piece.side))
                            .flatten(),
                    }
                })
                .collect()
        };
        let board = game.board();
        let over = game.outcome.is_some();
        let points = |keep: &dyn Fn(Point) -> bool| -> Vec<String> {
            board
                .pieces()
                .filter(|(p, _)| keep(*p))
                .map(|(p, _)| p.to_string())
                .collect()
        };
        let flip = game.flip();
        let mut lost: [Vec<Option<Rank>>; 2] = [Vec::new(), Vec::new()];
        for piece in &game.lost {
            let own = matches!(viewer, Viewer::Seat(s) if game.side_of_seat(s) == Some(piece.side));
            let known = own || over || game.junqi_options().visibility != Visibility::Referee;
            lost[piece.side as usize].push(known.then_some(piece.rank));
        }
        JunqiView {
            visibility: game.junqi_options().visibility,
            colours: [
                game.side_of_seat(Seat::FIRST),
                game.side_of_seat(Seat::SECOND),
            ],
            face_down: if over {
                Vec::new()
            } else {
                points(&|p| board.is_face_down(p))
            },
            free_in_headquarters: points(&|p| board.is_free(p)),
            landmines_left: (flip && game.dealt)
                .then(|| [Side::South, Side::North].map(|s| board.landmines(s) as u8)),
            deployed: [game.deployments[0].is_some(), game.deployments[1].is_some()],
            pieces,
            side_to_move: game.seat_to_move(),
            quiet_plies: game.quiet,
            flag_shown: [game.flag_shown(Side::South), game.flag_shown(Side::North)],
            last: game.last.as_ref().map(|last| {
                let (from, to) = match &last.event {
                    JunqiEvent::Moved { mv } | JunqiEvent::Battle { mv, .. } => mv
                        .parse::<Move>()
                        .map_or((None, None), |m| (Some(m.from), Some(m.to))),
                    _ => (None, None),
                };
                let seen = |at: Option<Point>, piece: Option<super::movegen::Piece>| {
                    let (at, piece) = (at?, piece?);
                    let own = matches!(viewer, Viewer::Seat(s) if game.side_of_seat(s) == Some(piece.side));
                    let known = own || over || game.junqi_options().visibility != Visibility::Referee;
                    Some(SeenPiece {
                        at: at.to_string(),
                        side: piece.side,
                        rank: known.then_some(piece.rank),
                        could_be: None,
                    })
                };
                SeenPlay {
                    event: last.event.clone(),
                    mover: seen(from, last.mover),
                    defender: seen(to, last.defender),
                }
            }),
            lost,
            lost_could_be: game.lost_clues(viewer),
        }
    }

    /// What `side` has left, kind by kind ([`Rank::ALL`]'s order), when this view tells it:
    /// every piece of that side on the board shows its kind, or (flip mode, where the face
    /// down pieces are the rest of a whole army) every piece it lost does.
    pub fn left_by_rank(&self, side: Side) -> Option<[usize; 12]> {
        let index = |r: Rank| Rank::ALL.iter().position(|&x| x == r).unwrap_or(0);
        let mut left = [0; 12];
        if self.visibility == Visibility::Flip {
            // Dealt: the face-down pieces are the rest of two whole armies.
            self.landmines_left?;
            for r in Rank::ALL {
                left[index(r)] = r.count();
            }
            for rank in &self.lost[side as usize] {
                let i = index((*rank)?);
                left[i] = left[i].saturating_sub(1);
            }
            return Some(left);
        }
        if !self.deployed.iter().all(|d| *d) {
            return None;
        }
        for piece in self.pieces.iter().filter(|p| p.side == side) {
            left[index(piece.rank?)] += 1;
        }
        Some(left)
    }

    /// How many pieces `side` has left, when this view tells it (not in flip mode before the
    /// deal).
    pub fn left_count(&self, side: Side) -> Option<usize> {
        if self.visibility == Visibility::Flip {
            self.landmines_left?;
            let whole: usize = Rank::ALL.iter().map(|r| r.count()).sum();
            return Some(whole - self.lost[side as usize].len());
        }
        if !self.deployed.iter().all(|d| *d) {
            return None;
        }
        Some(self.pieces.iter().filter(|p| p.side == side).count())
    }
}

/// What one action tells every seat. Battles say where and which pieces went; their
/// identities only in open mode.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum JunqiEvent {
    /// A seat deployed (nothing of how).
    Deployed {
        /// Which seat.
        seat: Seat,
    },
    /// The authority dealt the pieces face down (flip mode; nothing of how).
    Dealt,
    /// A piece was turned face up (flip mode).
    Flipped {
        /// Where, `c5`.
        at: String,
        /// Whose it is.
        side: Side,
        /// What it is.
        rank: Rank,
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
        /// The attacker's kind (open and flip modes only).
        attacker: Option<Rank>,
        /// The defender's kind (open and flip modes only).
        defender: Option<Rank>,
    },
}
