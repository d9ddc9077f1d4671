//! The Junqi game state (referee and open modes): secret simultaneous deployment, moves and
//! battles, the flag shown when the Field Marshal falls, and the ends of the game.

use super::deployment::Deployment;
use super::movegen::{Board, Move, MoveRules, Piece};
use super::pieces::{Battle, BattleRules, Rank, Side, battle};
use super::view::{JunqiEvent, JunqiView};
use crate::game::{
    Actor, Audience, EndReason, GameKind, IllegalMove, Outcome, Rules, SetupError, ToAct, Told,
    Viewer,
};
use crate::seat::Seat;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Who sees what.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Visibility {
    /// A player never learns an opposing piece's identity (the default).
    #[default]
    Referee,
    /// Every piece is visible to everyone.
    Open,
}

/// House rules (../shared/RULES.md).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(default)]
pub struct JunqiOptions {
    /// Referee (default) or open.
    pub visibility: Visibility,
    /// The northern landmine rule: a landmine attacked by anything but an engineer or a bomb
    /// stays.
    pub landmine_stays: bool,
    /// Pieces in camps cannot be attacked.
    pub camps_safe: bool,
    /// Bombs may move into the opponent's headquarters.
    pub bombs_enter_headquarters: bool,
    /// Plies in a row without a battle that make a draw.
    pub quiet_plies: u32,
}

impl Default for JunqiOptions {
    fn default() -> Self {
        JunqiOptions {
            visibility: Visibility::Referee,
            landmine_stays: false,
            camps_safe: true,
            bombs_enter_headquarters: true,
            quiet_plies: 70,
        }
    }
}

/// Returns the movement rules these options set.
pub(crate) fn move_rules(options: &JunqiOptions) -> MoveRules {
    options.move_rules()
}

/// Returns the battle rules these options set.
pub(crate) fn battle_rules(options: &JunqiOptions) -> BattleRules {
    options.battle_rules()
}

impl JunqiOptions {
    fn move_rules(&self) -> MoveRules {
        MoveRules {
            camps_safe: self.camps_safe,
            bombs_enter_headquarters: self.bombs_enter_headquarters,
        }
    }

    fn battle_rules(&self) -> BattleRules {
        BattleRules {
            landmine_stays: self.landmine_stays,
        }
    }
}

/// Junqi starts from nothing: both deployments are actions, made in secret.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct JunqiSetup {}

/// A Junqi action: a deployment (`deploy:` and its 25-character text) or a move (`a1a5`).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum JunqiMove {
    /// A seat's secret deployment, in the text of [`Deployment::to_text`].
    Deploy(String),
    /// A move or attack.
    Go(Move),
}

impl fmt::Display for JunqiMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JunqiMove::Deploy(text) => write!(f, "deploy:{text}"),
            JunqiMove::Go(m) => m.fmt(f),
        }
    }
}

impl FromStr for JunqiMove {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        match text.trim().strip_prefix("deploy:") {
            Some(layout) => Ok(JunqiMove::Deploy(layout.to_owned())),
            None => text.trim().parse().map(JunqiMove::Go),
        }
    }
}

/// Returns the seat of a side.
pub const fn seat_of(side: Side) -> Seat {
    match side {
        Side::South => Seat::FIRST,
        Side::North => Seat::SECOND,
    }
}

fn side_of(seat: Seat) -> Option<Side> {
    match seat.index() {
        0 => Some(Side::South),
        1 => Some(Side::North),
        _ => None,
    }
}

/// The authoritative state: every piece's identity. Never serialized; see [`JunqiView`].
#[derive(Clone, Debug)]
pub struct Junqi {
    pub(crate) options: JunqiOptions,
    pub(crate) deployments: [Option<Deployment>; 2],
    pub(crate) board: Board,
    pub(crate) to_move: Side,
    pub(crate) quiet: u32,
    /// A side whose Field Marshal has fallen shows its flag.
    pub(crate) flag_shown: [bool; 2],
    pub(crate) outcome: Option<Outcome>,
    pub(crate) plies: usize,
}

impl Junqi {
    /// Returns true while the seats are still deploying.
    pub fn deploying(&self) -> bool {
        self.deployments.iter().any(Option::is_none)
    }

    /// Returns the board (every identity: for the authority only).
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Returns the side to move once both have deployed.
    pub fn side_to_move(&self) -> Side {
        self.to_move
    }

    /// Returns the options.
    pub fn junqi_options(&self) -> &JunqiOptions {
        &self.options
    }

    /// Returns true if this side's flag has been shown (its Field Marshal fell).
    pub fn flag_shown(&self, side: Side) -> bool {
        self.flag_shown[side as usize]
    }

    fn deploy(&mut self, side: Side, text: &str) -> Result<Vec<Told<JunqiEvent>>, IllegalMove> {
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
            self.board = Board::from_deployments(a, b);
        }
        Ok(vec![Told {
            audience: Audience::Everyone,
            event: JunqiEvent::Deployed {
                seat: seat_of(side),
            },
        }])
    }

    fn go(&mut self, side: Side, m: Move) -> Result<Vec<Told<JunqiEvent>>, IllegalMove> {
        let piece = match self.board.get(m.from) {
            None => return Err(IllegalMove::NoPiece),
            Some(p) if p.side != side => return Err(IllegalMove::NotYourPiece),
            Some(p) => p,
        };
        if !self
            .board
            .targets(m.from, self.options.move_rules())
            .contains(&m.to)
        {
            return Err(IllegalMove::CannotReach);
        }
        let defender = self.board.get(m.to);
        self.board.set(m.from, None);
        let event = match defender {
            None => {
                self.board.set(m.to, Some(piece));
                self.quiet += 1;
                JunqiEvent::Moved { mv: m.to_string() }
            }
            Some(d) => {
                self.quiet = 0;
                let result = battle(piece.rank, d.rank, self.options.battle_rules());
                self.resolve(m, piece, d, result);
                let (attacker_removed, defender_removed) = match result {
                    Battle::AttackerWins | Battle::FlagTaken => (false, true),
                    Battle::DefenderWins => (true, false),
                    Battle::BothRemoved => (true, true),
                };
                let open = self.options.visibility == Visibility::Open;
                JunqiEvent::Battle {
                    mv: m.to_string(),
                    attacker_removed,
                    defender_removed,
                    attacker: open.then_some(piece.rank),
                    defender: open.then_some(d.rank),
                }
            }
        };
        self.plies += 1;
        self.to_move = side.other();
        self.judge(side);
        Ok(vec![Told {
            audience: Audience::Everyone,
            event,
        }])
    }

    fn resolve(&mut self, m: Move, attacker: Piece, defender: Piece, result: Battle) {
        let mut removed = Vec::new();
        match result {
            Battle::AttackerWins | Battle::FlagTaken => {
                self.board.set(m.to, Some(attacker));
                removed.push(defender);
            }
            Battle::DefenderWins => removed.push(attacker),
            Battle::BothRemoved => {
                self.board.set(m.to, None);
                removed.extend([attacker, defender]);
            }
        }
        for piece in removed {
            if piece.rank == Rank::FieldMarshal {
                self.flag_shown[piece.side as usize] = true;
            }
        }
        if result == Battle::FlagTaken {
            self.outcome = Some(Outcome::win(
                seat_of(attacker.side),
                EndReason::FlagCaptured,
            ));
        }
    }

    /// Ends the game if the side now to move cannot move, or the quiet plies ran out.
    fn judge(&mut self, mover: Side) {
        if self.outcome.is_some() {
            return;
        }
        let rules = self.options.move_rules();
        let stuck = self.board.moves(self.to_move, rules).is_empty();
        if stuck {
            self.outcome = Some(if self.board.moves(mover, rules).is_empty() {
                Outcome::draw(EndReason::Stalemate)
            } else {
                Outcome::win(seat_of(mover), EndReason::Stalemate)
            });
        } else if self.quiet >= self.options.quiet_plies {
            self.outcome = Some(Outcome::draw(EndReason::MoveLimit));
        }
    }

    /// Returns the piece's kind if `viewer` may know it: its own pieces, a shown flag,
    /// everything in open mode or once the game is over.
    pub(crate) fn visible_rank(&self, viewer: Viewer, piece: Piece) -> Option<Rank> {
        let own = matches!(viewer, Viewer::Seat(s) if side_of(s) == Some(piece.side));
        let revealed = piece.rank == Rank::Flag && self.flag_shown[piece.side as usize];
        (own || revealed || self.options.visibility == Visibility::Open || self.outcome.is_some())
            .then_some(piece.rank)
    }
}

impl Rules for Junqi {
    type Move = JunqiMove;
    type Options = JunqiOptions;
    type Setup = JunqiSetup;
    type View = JunqiView;
    type Event = JunqiEvent;

    const KIND: GameKind = GameKind::Junqi;
    /// Deployments are secret: the record stays with the authority.
    const PUBLIC_ACTIONS: bool = false;

    fn start(options: &JunqiOptions, _setup: Option<&JunqiSetup>) -> Result<Self, SetupError> {
        if options.quiet_plies == 0 {
            return Err(SetupError {
                problems: vec!["quiet_plies must be at least 1".into()],
            });
        }
        Ok(Junqi {
            options: options.clone(),
            deployments: [None, None],
            board: Board::default(),
            to_move: Side::South,
            quiet: 0,
            flag_shown: [false, false],
            outcome: None,
            plies: 0,
        })
    }

    fn setup(&self) -> JunqiSetup {
        JunqiSetup {}
    }

    fn options(&self) -> &JunqiOptions {
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
        ToAct::Seat(seat_of(self.to_move))
    }

    /// During deployment: the classic layouts (any valid deployment is accepted). Then every
    /// move of the side to move.
    fn legal_moves(&self, actor: Actor) -> Vec<JunqiMove> {
        let Actor::Seat(seat) = actor else {
            return Vec::new();
        };
        let Some(side) = side_of(seat) else {
            return Vec::new();
        };
        if self.outcome.is_some() {
            return Vec::new();
        }
        if self.deploying() {
            if self.deployments[side as usize].is_some() {
                return Vec::new();
            }
            return super::deployment::classic_names()
                .filter_map(Deployment::classic)
                .map(|d| JunqiMove::Deploy(d.to_text()))
                .collect();
        }
        if side != self.to_move {
            return Vec::new();
        }
        self.board
            .moves(side, self.options.move_rules())
            .into_iter()
            .map(JunqiMove::Go)
            .collect()
    }

    fn play(&mut self, actor: Actor, mv: &JunqiMove) -> Result<Vec<Told<JunqiEvent>>, IllegalMove> {
        let Actor::Seat(seat) = actor else {
            return Err(IllegalMove::Other("only a player moves".into()));
        };
        let side = side_of(seat).ok_or_else(|| IllegalMove::Other("no such seat".into()))?;
        match mv {
            JunqiMove::Deploy(text) => self.deploy(side, text),
            JunqiMove::Go(_) if self.deploying() => {
                Err(IllegalMove::Other("both sides must deploy first".into()))
            }
            JunqiMove::Go(m) => self.go(side, *m),
        }
    }

    fn view(&self, viewer: Viewer) -> JunqiView {
        JunqiView::of(self, viewer)
    }
}
