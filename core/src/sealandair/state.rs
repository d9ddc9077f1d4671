//! The Sea-land-air game state: secret simultaneous deployment, then moves, attacks, remote
//! attacks and retreats; the recon's knowledge; the ends of the game.

use super::board::{Point, map};
use super::deployment::Deployment;
use super::movegen::{Board, Move, Piece};
use super::pieces::{Clash, Kind, melee, remote};
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
            for (base, d) in [(0u8, a), (37u8, b)] {
                for (i, &(p, kind)) in d.pieces.iter().enumerate() {
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
        let event = if self.board.is_retreat(m) {
            self.retreat(side, piece, m)
        } else if let Some(d) = defender {
            let clash = if m.remote {
                remote(piece.kind, d.kind)
            } else {
                melee(piece.kind, d.kind)
            };
            let result = self.resolve(m, piece, d, clash);
            if result.attacker_removed || result.defender_removed {
                self.quiet = 0;
            } else {
                self.quiet += 1;
            }
            if m.remote && clash == Clash::NoEffect {
                self.survived_fire |= 1u128 << d.id;
            }
            if piece.kind.is_aircraft() && !result.attacker_removed && clash != Clash::BothHome {
                attacked = Some(if m.remote { m.from } else { m.to });
            }
            // V4: a battle shows both pieces to both players, unless in referee mode (V5).
            let open = self.options.open || !self.options.referee;
            if open {
                self.revealed |= (1u128 << piece.id) | (1u128 << d.id);
            }
            SeaLandAirEvent::Battle {
                mv: m.to_string(),
                attacker_removed: result.attacker_removed,
                defender_removed: result.defender_removed,
                sent_home: result.homes,
                attacker: open.then_some(piece.kind),
                defender: open.then_some(d.kind),
            }
        } else {
            self.board.set(m.from, None);
            self.board.set(m.to, Some(piece));
            self.quiet += 1;
            SeaLandAirEvent::Moved { mv: m.to_string() }
        };
        self.attacked_last[side as usize] = attacked;
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

    /// Flies a retreat (R1): safe after an attack (R2) or with no enemy artillery or
    /// battleship beside the route (R3); otherwise the aircraft is shot down.
    fn retreat(&mut self, side: Side, piece: Piece, m: Move) -> SeaLandAirEvent {
        let route = self
            .board
            .retreats(m.from)
            .into_iter()
            .find(|r| r.airport == m.to)
            .map_or(0, |r| r.route);
        let after_attack = self.attacked_last[side as usize] == Some(m.from);
        let guarded = map().route_area(route).any(|p| {
            self.board.get(p).is_some_and(|q| {
                q.side != side && matches!(q.kind, Kind::Artillery | Kind::Battleship)
            })
        });
        let shot_down = !after_attack && guarded;
        self.board.set(m.from, None);
        if shot_down {
            self.lost.push(piece);
            self.quiet = 0;
        } else {
            self.board.set(m.to, Some(piece));
            self.quiet += 1;
        }
        SeaLandAirEvent::Retreated {
            mv: m.to_string(),
            shot_down,
        }
    }

    /// Carries out a fight's result on the board.
    fn resolve(&mut self, m: Move, attacker: Piece, defender: Piece, clash: Clash) -> Resolved {
        let mut result = Resolved::default();
        match clash {
            Clash::AttackerWins | Clash::FlagTaken => {
                result.defender_removed = true;
                self.board.set(m.to, None);
                if !m.remote {
                    self.board.set(m.from, None);
                    self.board.set(m.to, Some(attacker));
                }
            }
            Clash::DefenderWins => {
                result.attacker_removed = true;
                self.board.set(m.from, None);
            }
            Clash::BothRemoved => {
                result.attacker_removed = true;
                result.defender_removed = true;
                self.board.set(m.from, None);
                self.board.set(m.to, None);
            }
            Clash::NoEffect => {}
            Clash::BothHome => {
                // A2: both recon planes go back to a free airport of their own.
                self.board.set(m.from, None);
                self.board.set(m.to, None);
                let a = self.home(attacker);
                let d = self.home(defender);
                result.homes = Some([a.to_string(), d.to_string()]);
            }
        }
        if result.attacker_removed {
            self.lost.push(attacker);
        }
        if result.defender_removed {
            self.lost.push(defender);
        }
        if clash == Clash::FlagTaken {
            self.outcome = Some(Outcome::win(
                seat_of(attacker.side),
                EndReason::FlagCaptured,
            ));
        }
        result
    }

    /// Puts an aircraft on its side's first free airport (west first) and returns it.
    fn home(&mut self, piece: Piece) -> Point {
        let airports = match piece.side {
            Side::South => [Point::airport(0), Point::airport(1)],
            Side::North => [Point::airport(2), Point::airport(3)],
        };
        let at = airports
            .into_iter()
            .find(|a| self.board.get(*a).is_none())
            .unwrap_or(airports[0]);
        self.board.set(at, Some(piece));
        at
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

/// What a fight removed.
#[derive(Default)]
struct Resolved {
    attacker_removed: bool,
    defender_removed: bool,
    /// Two recon planes met: the airports each went back to (attacker's first).
    homes: Option<[String; 2]>,
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
}
