//! The Sea-land-air game state: secret simultaneous deployment, then moves, attacks, remote
//! attacks and retreats; the recon's knowledge; the ends of the game.

use super::board::Point;
use super::clues::{Fought, Trace};
use super::deployment::Deployment;
use super::movegen::{Board, Move, Piece, Played};
use super::pieces::Kinds;
use super::pieces::{Clash, Kind};
use super::view::{SeaLandAirEvent, SeaLandAirView, SeenPiece};
use crate::game::{
    Actor, Audience, EndReason, GameKind, IllegalMove, Outcome, Rules, SetupError, ToAct, Told,
    Viewer,
};
use crate::junqi::Side;
use crate::seat::Seat;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// House rules.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(default)]
pub struct SeaLandAirOptions {
    /// Turns in a row with no attack that make a draw (T3).
    pub quiet_plies: u32,
    /// Every piece visible to everyone (for learning; the default hides them, V1).
    pub open: bool,
    /// Referee mode: a battle reveals nothing but which pieces were removed (V4). By
    /// default a battle shows both pieces to both players (V1).
    pub referee: bool,
}

impl Default for SeaLandAirOptions {
    fn default() -> Self {
        SeaLandAirOptions {
            quiet_plies: 80,
            open: false,
            referee: false,
        }
    }
}

/// Sea-land-air starts from nothing: both deployments are actions, made in secret.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct SeaLandAirSetup {}

/// An action: a deployment (`deploy:` and 37 letters), or a move or attack (`a1-a3`,
/// `a4*a7`).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SeaLandAirMove {
    /// A seat's secret deployment, in the text of [`Deployment::to_text`].
    Deploy(String),
    /// A move, an attack, a remote attack or a retreat.
    Go(Move),
}

impl fmt::Display for SeaLandAirMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SeaLandAirMove::Deploy(text) => write!(f, "deploy:{text}"),
            SeaLandAirMove::Go(m) => m.fmt(f),
        }
    }
}

impl FromStr for SeaLandAirMove {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        let text = text.trim();
        match text.strip_prefix("deploy:") {
            Some(layout) => Ok(SeaLandAirMove::Deploy(layout.to_owned())),
            None => text.parse().map(SeaLandAirMove::Go),
        }
    }
}

/// Returns the seat that plays a side: South is the first seat and moves first (T1).
pub const fn seat_of(side: Side) -> Seat {
    match side {
        Side::South => Seat::FIRST,
        Side::North => Seat::SECOND,
    }
}

/// Returns the side a seat plays.
pub const fn side_of(seat: Seat) -> Side {
    if seat.index() == 0 {
        Side::South
    } else {
        Side::North
    }
}

/// The authoritative state: every piece's identity. Never serialized; see
/// [`SeaLandAirView`].
#[derive(Clone, Debug)]
pub struct SeaLandAir {
    pub(crate) options: SeaLandAirOptions,
    pub(crate) deployments: [Option<Deployment>; 2],
    /// Started from a position, with no deployments.
    pub(crate) set_up: bool,
    pub(crate) board: Board,
    pub(crate) to_move: Seat,
    pub(crate) quiet: u32,
    pub(crate) outcome: Option<Outcome>,
    /// Bit `id` of `known[s]`: the seat `s` knows what enemy piece `id` is (V2).
    pub(crate) known: [u128; 2],
    /// Bit `id`: the piece fought a battle, which showed it to both players (V4).
    pub(crate) revealed: u128,
    /// Bit `id`: the piece survived a remote attack, which everyone saw (F1).
    pub(crate) survived_fire: u128,
    /// Where each side's aircraft stands that attacked on that side's last turn (R2).
    pub(crate) attacked_last: [Option<Point>; 2],
    /// The last action, with what fought.
    pub(crate) last: Option<LastPlay>,
    /// Every piece removed, in the order it fell (the battle panel).
    pub(crate) lost: Vec<Piece>,
    /// What everyone has seen of each piece, by its `id`: the seats' clues.
    pub(crate) traces: Vec<Trace>,
}

/// The last move as the authority knows it.
#[derive(Clone, Debug)]
pub(crate) struct LastPlay {
    pub(crate) event: SeaLandAirEvent,
    pub(crate) mover: Piece,
    pub(crate) defender: Option<Piece>,
}

impl SeaLandAir {
    /// Returns true while the seats are still deploying.
    pub fn deploying(&self) -> bool {
        !self.set_up && self.deployments.iter().any(Option::is_none)
    }

    /// Starts from a position instead of deployments: for tests, puzzles and analysis. The
    /// pieces are numbered in the order given; `to_move` moves first.
    pub fn from_position(
        options: &SeaLandAirOptions,
        pieces: &[(Point, Side, Kind)],
        to_move: Side,
    ) -> SeaLandAir {
        let mut game = <SeaLandAir as Rules>::start(options, None).unwrap_or_else(|_| {
            <SeaLandAir as Rules>::start(&SeaLandAirOptions::default(), None)
                .expect("the default options")
        });
        for (i, &(p, side, kind)) in pieces.iter().enumerate() {
            game.board.set(
                p,
                Some(Piece {
                    side,
                    kind,
                    id: i as u8,
                }),
            );
        }
        game.traces = pieces.iter().map(|&(p, _, _)| Trace::new(p)).collect();
        game.set_up = true;
        game.to_move = seat_of(to_move);
        game
    }

    /// Returns the board (every identity: for the authority only).
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Returns the seat to move once the game is under way.
    pub fn seat_to_move(&self) -> Seat {
        self.to_move
    }

    /// Returns a side's deployment, if made (for the authority and for review).
    pub fn deployment(&self, side: Side) -> Option<&Deployment> {
        self.deployments[side as usize].as_ref()
    }

    /// Returns true if `seat` knows what the piece is: its own, one its recon revealed, one
    /// that fought a battle (unless in referee mode), everything in open mode and once the
    /// game is over. A spectator knows what both players know.
    pub fn knows(&self, viewer: Viewer, piece: Piece) -> bool {
        if self.outcome.is_some() || self.options.open || self.revealed & (1u128 << piece.id) != 0 {
            return true;
        }
        match viewer {
            Viewer::Seat(s) if s.index() < 2 => {
                side_of(s) == piece.side || self.known[s.index()] & (1u128 << piece.id) != 0
            }
            _ => false,
        }
    }

    /// What `viewer` can tell `piece` may be, when it is a seat that does not know it: its
    /// clues (see [`super::clues`]). Spectators get none.
    pub(crate) fn could_be(&self, viewer: Viewer, piece: Piece) -> Option<Kinds> {
        match viewer {
            Viewer::Seat(s) if s.index() < 2 && !self.knows(viewer, piece) => {
                self.traces.get(usize::from(piece.id)).map(Trace::could_be)
            }
            _ => None,
        }
    }

    fn deploy(
        &mut self,
        side: Side,
        text: &str,
    ) -> Result<Vec<Told<SeaLandAirEvent>>, IllegalMove> {
        if self.deployments[side as usize].is_some() {
            return Err(IllegalMove::Other("this side has already deployed".into()));
        }
        let d = Deployment::from_text(side, text).map_err(IllegalMove::Other)?;
        d.validate().map_err(|problems| {
            let list: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
            IllegalMove::Other(list.join("; "))
        })?;
        self.deployments[side as usize] = Some(d);
        if let [Some(a), Some(b)] = &self.deployments {
            let mut board = Board::default();
            let mut traces = Vec::new();
            for (base, d) in [(0u8, a), (37u8, b)] {
                for (i, &(p, kind)) in d.pieces.iter().enumerate() {
                    traces.push(Trace::new(p));
                    board.set(
                        p,
                        Some(Piece {
                            side: d.side,
                            kind,
                            id: base + i as u8,
                        }),
                    );
                }
            }
            self.board = board;
            self.traces = traces;
        }
        Ok(vec![Told {
            audience: Audience::Everyone,
            event: SeaLandAirEvent::Deployed {
                seat: seat_of(side),
            },
        }])
    }

    fn go(&mut self, seat: Seat, m: Move) -> Result<Vec<Told<SeaLandAirEvent>>, IllegalMove> {
        let side = side_of(seat);
        let piece = match self.board.get(m.from) {
            None => return Err(IllegalMove::NoPiece),
            Some(p) if p.side != side => return Err(IllegalMove::NotYourPiece),
            Some(p) => p,
        };
        if !self.board.moves_from(m.from).contains(&m) {
            return Err(IllegalMove::CannotReach);
        }
        let defender = if m.remote {
            self.board.get(m.to)
        } else {
            self.board.get(m.to).filter(|d| d.side != side)
        };
        let mut told = Vec::new();
        // V2: the recon reveals what it flies over, to its owner.
        if piece.kind == Kind::Recon {
            let seen: Vec<SeenPiece> = self
                .board
                .flown_over(m.from, m.to)
                .into_iter()
                .filter_map(|p| self.board.get(p).map(|q| (p, q)))
                .filter(|(_, q)| q.side != side)
                .map(|(p, q)| {
                    self.known[seat.index()] |= 1u128 << q.id;
                    SeenPiece::known(p, q)
                })
                .collect();
            if !seen.is_empty() {
                told.push(Told {
                    audience: Audience::Seats(vec![seat]),
                    event: SeaLandAirEvent::Spotted { pieces: seen },
                });
            }
        }
        let mut attacked = None;
        if let Some(t) = self.traces.get_mut(usize::from(piece.id)) {
            if m.remote {
                t.moved = true;
            } else {
                t.went(m.from, m.to);
            }
        }
        let after_attack = self.attacked_last[side as usize] == Some(m.from);
        let event = match self.board.play(m, after_attack) {
            Played::Moved => {
                self.quiet += 1;
                SeaLandAirEvent::Moved { mv: m.to_string() }
            }
            Played::Retreated { shot_down } => {
                if shot_down {
                    self.lost.push(piece);
                    self.quiet = 0;
                } else {
                    self.quiet += 1;
                }
                SeaLandAirEvent::Retreated {
                    mv: m.to_string(),
                    shot_down,
                }
            }
            Played::Battle {
                clash,
                removed,
                homes,
            } => {
                let d = defender.unwrap_or(piece);
                let attacker_removed = removed.contains(&piece);
                let defender_removed = removed.contains(&d);
                self.lost.extend(&removed);
                if removed.is_empty() {
                    self.quiet += 1;
                } else {
                    self.quiet = 0;
                }
                if clash == Clash::FlagTaken {
                    self.outcome = Some(Outcome::win(seat, EndReason::FlagCaptured));
                }
                if m.remote && clash == Clash::NoEffect {
                    self.survived_fire |= 1u128 << d.id;
                }
                for (who, foe, attacked) in [(piece, d, true), (d, piece, false)] {
                    if let Some(t) = self.traces.get_mut(usize::from(who.id)) {
                        t.fights.push(Fought {
                            foe: foe.kind,
                            attacked,
                            remote: m.remote,
                            result: clash,
                        });
                    }
                }
                if piece.kind.is_aircraft() && !attacker_removed && clash != Clash::BothHome {
                    attacked = Some(if m.remote { m.from } else { m.to });
                }
                // V4: a battle shows both pieces to both players, unless in referee mode (V5).
                let open = self.options.open || !self.options.referee;
                if open {
                    self.revealed |= (1u128 << piece.id) | (1u128 << d.id);
                }
                SeaLandAirEvent::Battle {
                    mv: m.to_string(),
                    attacker_removed,
                    defender_removed,
                    sent_home: homes.map(|h| h.map(|p| p.to_string())),
                    attacker: open.then_some(piece.kind),
                    defender: open.then_some(d.kind),
                }
            }
        };
        self.attacked_last[side as usize] = attacked;
        for (p, q) in self.board.pieces() {
            if let Some(t) = self.traces.get_mut(usize::from(q.id)) {
                t.stands(p);
            }
        }
        self.last = Some(LastPlay {
            event: event.clone(),
            mover: piece,
            defender,
        });
        told.insert(
            0,
            Told {
                audience: Audience::Everyone,
                event,
            },
        );
        self.to_move = seat.next(2);
        self.judge(seat);
        Ok(told)
    }

    /// Ends the game if the seat now to move cannot act (T2) or the quiet turns ran out (T3).
    fn judge(&mut self, mover: Seat) {
        if self.outcome.is_some() {
            return;
        }
        if self.board.moves(side_of(self.to_move)).is_empty() {
            self.outcome = Some(Outcome::win(mover, EndReason::Stalemate));
        } else if self.quiet >= self.options.quiet_plies {
            self.outcome = Some(Outcome::draw(EndReason::MoveLimit));
        }
    }
}

impl Rules for SeaLandAir {
    type Move = SeaLandAirMove;
    type Options = SeaLandAirOptions;
    type Setup = SeaLandAirSetup;
    type View = SeaLandAirView;
    type Event = SeaLandAirEvent;

    const KIND: GameKind = GameKind::SeaLandAir;
    /// Deployments are secret: the record stays with the authority.
    const PUBLIC_ACTIONS: bool = false;

    fn start(
        options: &SeaLandAirOptions,
        _setup: Option<&SeaLandAirSetup>,
    ) -> Result<Self, SetupError> {
        if options.quiet_plies == 0 {
            return Err(SetupError {
                problems: vec!["quiet_plies must be at least 1".into()],
            });
        }
        Ok(SeaLandAir {
            options: options.clone(),
            deployments: [None, None],
            set_up: false,
            board: Board::default(),
            to_move: Seat::FIRST,
            quiet: 0,
            outcome: None,
            known: [0, 0],
            revealed: 0,
            survived_fire: 0,
            attacked_last: [None, None],
            last: None,
            lost: Vec::new(),
            traces: Vec::new(),
        })
    }

    fn setup(&self) -> SeaLandAirSetup {
        SeaLandAirSetup {}
    }

    fn options(&self) -> &SeaLandAirOptions {
        &self.options
    }

    fn seat_count(&self) -> usize {
        2
    }

    fn to_act(&self) -> ToAct {
        if let Some(outcome) = &self.outcome {
            return ToAct::Over(outcome.clone());
        }
        if self.deploying() {
            let seats: Vec<Seat> = [Side::South, Side::North]
                .into_iter()
                .filter(|s| self.deployments[*s as usize].is_none())
                .map(seat_of)
                .collect();
            return ToAct::Seats(seats);
        }
        ToAct::Seat(self.to_move)
    }

    /// While deploying: three suggested layouts (any valid deployment is accepted). Then
    /// every move of the seat to move.
    fn legal_moves(&self, actor: Actor) -> Vec<SeaLandAirMove> {
        let Actor::Seat(seat) = actor else {
            return Vec::new();
        };
        if seat.index() >= 2 || self.outcome.is_some() {
            return Vec::new();
        }
        let side = side_of(seat);
        if self.deploying() {
            if self.deployments[side as usize].is_some() {
                return Vec::new();
            }
            return (1..=3)
                .map(|n| SeaLandAirMove::Deploy(Deployment::sensible(side, n).to_text()))
                .collect();
        }
        if seat != self.to_move {
            return Vec::new();
        }
        self.board
            .moves(side)
            .into_iter()
            .map(SeaLandAirMove::Go)
            .collect()
    }

    fn play(
        &mut self,
        actor: Actor,
        mv: &SeaLandAirMove,
    ) -> Result<Vec<Told<SeaLandAirEvent>>, IllegalMove> {
        let seat = match actor {
            Actor::Seat(seat) if seat.index() < 2 => seat,
            Actor::Seat(_) => return Err(IllegalMove::Other("no such seat".into())),
            Actor::Authority => {
                return Err(IllegalMove::Other(
                    "the authority has nothing to do in this game".into(),
                ));
            }
        };
        match mv {
            SeaLandAirMove::Deploy(text) => self.deploy(side_of(seat), text),
            SeaLandAirMove::Go(_) if self.deploying() => {
                Err(IllegalMove::Other("both sides must deploy first".into()))
            }
            SeaLandAirMove::Go(m) => self.go(seat, *m),
        }
    }

    fn view(&self, viewer: Viewer) -> SeaLandAirView {
        SeaLandAirView::of(self, viewer)
    }

    /// Every piece shown, as when a move ends the game.
    fn concluded_view(&self, viewer: Viewer, outcome: &Outcome) -> SeaLandAirView {
        if self.outcome.is_some() {
            return self.view(viewer);
        }
        let mut ended = self.clone();
        ended.outcome = Some(outcome.clone());
        SeaLandAirView::of(&ended, viewer)
    }
}
