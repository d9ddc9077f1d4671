//! [`Xiangqi`]: the authoritative game state — position, history and every end rule.

use super::board::{Color, Move, POINTS, Square};
use super::fen::START_FEN;
use super::position::Position;
use super::repetition::{Ply, chased_targets, judge_repetition};
use super::view::{XiangqiEvent, XiangqiView};
use crate::game::{
    Actor, Audience, EndReason, GameKind, IllegalMove, Outcome, Rules, SetupError, ToAct, Told,
    Viewer,
};
use crate::seat::Seat;
use serde::{Deserialize, Serialize};

/// Xiangqi house rules. The default is the standard game of `RULES.md`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(default)]
pub struct XiangqiOptions {
    /// Perpetual chase loses, as in Asian rules (on by default).
    pub perpetual_chase_loses: bool,
    /// Draw after this many plies without a capture (off by default; 120 is usual).
    pub move_limit: Option<u32>,
}

impl Default for XiangqiOptions {
    fn default() -> Self {
        XiangqiOptions {
            perpetual_chase_loses: true,
            move_limit: None,
        }
    }
}

impl XiangqiOptions {
    /// The usual value for [`XiangqiOptions::move_limit`] when a player switches it on.
    pub const USUAL_MOVE_LIMIT: u32 = 120;
}

/// Where a Xiangqi game starts.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct XiangqiSetup {
    /// The starting position as FEN.
    pub fen: String,
}

impl Default for XiangqiSetup {
    fn default() -> Self {
        XiangqiSetup {
            fen: START_FEN.to_string(),
        }
    }
}

const NO_ID: u8 = u8::MAX;

/// A Xiangqi game as the authority holds it. Seat 0 is Red, seat 1 is Black.
#[derive(Clone, Debug)]
pub struct Xiangqi {
    options: XiangqiOptions,
    start: Position,
    pos: Position,
    /// A stable identity per piece, so a chase can follow a piece that moves.
    ids: [u8; POINTS],
    history: Vec<Ply>,
    /// Position hashes: the start, then after each ply.
    hashes: Vec<u64>,
    outcome: Option<Outcome>,
}

/// Returns the seat that plays this colour.
pub fn seat_of(color: Color) -> Seat {
    match color {
        Color::Red => Seat::FIRST,
        Color::Black => Seat::SECOND,
    }
}

impl Xiangqi {
    /// Starts a game from a position with these options.
    pub fn from_position(options: XiangqiOptions, start: Position) -> Result<Self, SetupError> {
        if options.move_limit == Some(0) {
            return Err(SetupError {
                problems: vec!["the move limit must be at least 1 ply".into()],
            });
        }
        let mut ids = [NO_ID; POINTS];
        let mut next = 0;
        for sq in Square::all() {
            if start.piece_at(sq).is_some() {
                ids[sq.index()] = next;
                next += 1;
            }
        }
        let mut game = Xiangqi {
            options,
            hashes: vec![start.hash()],
            pos: start.clone(),
            start,
            ids,
            history: Vec::new(),
            outcome: None,
        };
        game.outcome = game.static_outcome();
        Ok(game)
    }

    /// Returns the current position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// Returns the starting position.
    pub fn start_position(&self) -> &Position {
        &self.start
    }

    /// Returns the moves played so far.
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.history.iter().map(|p| p.mv)
    }

    /// The positions' hashes from the start (`hashes[k]` after ply `k`) and the moves
    /// between them: what a search needs to judge repetitions that reach into the game.
    pub(crate) fn path(&self) -> (&[u64], Vec<Move>) {
        (&self.hashes, self.history.iter().map(|p| p.mv).collect())
    }

    /// Returns the outcome, once the game is over.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// Explains why `m` is not legal for the side to move, or `None` if it is.
    pub fn why_illegal(&self, m: Move) -> Option<IllegalMove> {
        if self.pos.is_legal(m) {
            return None;
        }
        Some(match self.pos.piece_at(m.from) {
            None => IllegalMove::NoPiece,
            Some(p) if p.color() != self.pos.side_to_move() => IllegalMove::NotYourPiece,
            Some(_) => {
                let mut pseudo = super::movegen::MoveList::new();
                self.pos.pseudo_moves(&mut pseudo);
                if pseudo.as_slice().contains(&m) {
                    IllegalMove::SelfCheck
                } else {
                    IllegalMove::CannotReach
                }
            }
        })
    }

    /// Plays a legal move for the side to move; returns the event, or why it is illegal.
    pub fn play_move(&mut self, m: Move) -> Result<XiangqiEvent, IllegalMove> {
        if self.outcome.is_some() {
            return Err(IllegalMove::Other("the game is over".into()));
        }
        if let Some(why) = self.why_illegal(m) {
            return Err(why);
        }
        let mover = self.pos.side_to_move();
        let chased = if self.options.perpetual_chase_loses {
            chased_targets(&self.pos, &self.ids, m)
        } else {
            Vec::new()
        };
        let piece = self.pos.piece_at(m.from);
        let captured = self.pos.piece_at(m.to);
        self.pos.play_unchecked(m);
        self.ids[m.to.index()] = self.ids[m.from.index()];
        self.ids[m.from.index()] = NO_ID;
        let check = self.pos.in_check(mover.other());
        self.history.push(Ply {
            mv: m,
            check,
            chased,
        });
        self.hashes.push(self.pos.hash());
        self.outcome = self.dynamic_outcome();
        Ok(XiangqiEvent::Moved {
            mv: m.to_string(),
            piece: piece.map(|p| p.fen_char()).unwrap_or('?'),
            captured: captured.map(|p| p.fen_char()),
            check,
        })
    }

    /// The outcome that depends on the position alone (used at the start).
    fn static_outcome(&self) -> Option<Outcome> {
        let to_move = self.pos.side_to_move();
        if !self.pos.has_legal_move() {
            let reason = if self.pos.in_check(to_move) {
                EndReason::Checkmate
            } else {
                EndReason::Stalemate
            };
            return Some(Outcome::win(seat_of(to_move.other()), reason));
        }
        if !self.pos.has_attackers(Color::Red) && !self.pos.has_attackers(Color::Black) {
            return Some(Outcome::draw(EndReason::NoAttackers));
        }
        match self.options.move_limit {
            Some(limit) if self.pos.halfmove_clock() >= limit => {
                Some(Outcome::draw(EndReason::MoveLimit))
            }
            _ => None,
        }
    }

    /// The outcome after a move: mate first, then repetition, then the draws.
    fn dynamic_outcome(&self) -> Option<Outcome> {
        if !self.pos.has_legal_move() {
            return self.static_outcome();
        }
        if let Some(outcome) = judge_repetition(
            &self.hashes,
            &self.history,
            self.start.side_to_move(),
            self.options.perpetual_chase_loses,
        ) {
            return Some(outcome);
        }
        self.static_outcome()
    }
}

impl Rules for Xiangqi {
    type Move = Move;
    type Options = XiangqiOptions;
    type Setup = XiangqiSetup;
    type View = XiangqiView;
    type Event = XiangqiEvent;
    const KIND: GameKind = GameKind::Xiangqi;

    fn start(options: &XiangqiOptions, setup: Option<&XiangqiSetup>) -> Result<Self, SetupError> {
        let fen = setup.map_or(START_FEN, |s| s.fen.as_str());
        let pos = Position::from_fen(fen).map_err(|e| SetupError {
            problems: match e {
                super::fen::FenError::Illegal(list) => list,
                other => vec![other.to_string()],
            },
        })?;
        Xiangqi::from_position(options.clone(), pos)
    }

    fn setup(&self) -> XiangqiSetup {
        XiangqiSetup {
            fen: self.start.to_fen(),
        }
    }

    fn options(&self) -> &XiangqiOptions {
        &self.options
    }

    fn seat_count(&self) -> usize {
        2
    }

    fn to_act(&self) -> ToAct {
        match &self.outcome {
            Some(o) => ToAct::Over(o.clone()),
            None => ToAct::Seat(seat_of(self.pos.side_to_move())),
        }
    }

    fn legal_moves(&self, actor: Actor) -> Vec<Move> {
        if self.outcome.is_none() && actor == Actor::Seat(seat_of(self.pos.side_to_move())) {
            self.pos.legal_moves()
        } else {
            Vec::new()
        }
    }

    fn play(&mut self, actor: Actor, mv: &Move) -> Result<Vec<Told<XiangqiEvent>>, IllegalMove> {
        if actor != Actor::Seat(seat_of(self.pos.side_to_move())) {
            return Err(IllegalMove::NotYourPiece);
        }
        let event = self.play_move(*mv)?;
        Ok(vec![Told {
            audience: Audience::Everyone,
            event,
        }])
    }

    fn view(&self, _viewer: Viewer) -> XiangqiView {
        // Xiangqi has no hidden information: every viewer sees everything.
        XiangqiView::of(self)
    }
}
