//! The Aeroplane chess game: turns, the die, launching, the three-sixes rule, finishing
//! places. A turn is: the seat asks for a roll (`roll`), the authority rolls (`d1`–`d6`, a
//! recorded chance move), and the seat moves a plane (`p1`–`p4`) or, with the stack option, a
//! stack (`s1`–`s4`, named by its first plane). A roll with no legal move passes by itself.

use super::board::{PLANES, Spot, colours};
use super::movegen::{Plan, Table};
use super::view::{AeroplaneEvent, AeroplaneView};
use crate::game::{
    Actor, Audience, EndReason, GameKind, GameResult, IllegalMove, Outcome, Rules, SetupError,
    ToAct, Told, Viewer,
};
use crate::seat::Seat;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Which rolls launch a plane from the hangar.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LaunchRule {
    /// 2, 4 or 6 (seed 003; the default).
    #[default]
    Even,
    /// 6 only.
    SixOnly,
    /// 5 or 6.
    FiveOrSix,
}

/// What a third 6 in a row does.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ThreeSixes {
    /// The planes moved by the two previous 6s go back to the hangar, and the third 6 is not
    /// played (the default).
    #[default]
    SendBack,
    /// The turn just ends, and the third 6 is not played.
    EndTurn,
}

/// How many seats play, and the house rules (../shared/RULES.md).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(default)]
pub struct AeroplaneOptions {
    /// 2 to 4.
    pub seats: u8,
    /// Which rolls launch.
    pub launch: LaunchRule,
    /// What a third 6 in a row does.
    pub three_sixes: ThreeSixes,
    /// Own planes on one square may move together on one roll.
    pub stacks_move_together: bool,
    /// An opposing stack of two or more cannot be passed at all (the common folk rule).
    pub stacks_block: bool,
}

impl Default for AeroplaneOptions {
    fn default() -> Self {
        AeroplaneOptions {
            seats: 4,
            launch: LaunchRule::Even,
            three_sixes: ThreeSixes::SendBack,
            stacks_move_together: false,
            stacks_block: false,
        }
    }
}

/// Where a game starts: by default every plane in its hangar and seat 0 to roll. A setup may
/// place planes (for puzzles, lessons and tests).
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct AeroplaneSetup {
    /// Each seat's planes (empty: all in their hangars).
    pub planes: Vec<[Spot; PLANES]>,
    /// The seat that rolls first (none: seat 0).
    pub first: Option<Seat>,
}

/// An Aeroplane chess action.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum AeroplaneMove {
    /// The seat asks the authority to roll the die (`roll`).
    Roll,
    /// The authority's roll (`d1`–`d6`).
    Die(u8),
    /// Move one plane, 0–3 (`p1`–`p4`): launch it, or move it by the roll.
    Plane(u8),
    /// Move the stack this plane heads, together (`s1`–`s4`; stack option).
    Stack(u8),
}

impl fmt::Display for AeroplaneMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AeroplaneMove::Roll => f.write_str("roll"),
            AeroplaneMove::Die(v) => write!(f, "d{v}"),
            AeroplaneMove::Plane(p) => write!(f, "p{}", p + 1),
            AeroplaneMove::Stack(p) => write!(f, "s{}", p + 1),
        }
    }
}

impl FromStr for AeroplaneMove {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        let text = text.trim();
        if text == "roll" {
            return Ok(AeroplaneMove::Roll);
        }
        let bad = || format!("not an Aeroplane chess move: {text:?} (roll, d1–d6, p1–p4, s1–s4)");
        let mut chars = text.chars();
        let (Some(kind), Some(digit), None) = (chars.next(), chars.next(), chars.next()) else {
            return Err(bad());
        };
        let n = digit.to_digit(10).ok_or_else(bad)? as u8;
        match (kind, n) {
            ('d', 1..=6) => Ok(AeroplaneMove::Die(n)),
            ('p', 1..=4) => Ok(AeroplaneMove::Plane(n - 1)),
            ('s', 1..=4) => Ok(AeroplaneMove::Stack(n - 1)),
            _ => Err(bad()),
        }
    }
}

/// Where the current turn stands.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "phase", content = "roll")]
pub enum Phase {
    /// The seat to play must ask for a roll.
    Roll,
    /// The authority must roll.
    Rolling,
    /// The seat must move with this roll.
    Move(u8),
}

/// The authoritative state of an Aeroplane chess game. There are no secrets: every seat's view
/// is the whole table.
#[derive(Clone, Debug)]
pub struct Aeroplane {
    options: AeroplaneOptions,
    setup: AeroplaneSetup,
    table: Table,
    turn: Seat,
    phase: Phase,
    /// 6s rolled in a row this turn.
    sixes: u8,
    /// The planes each 6 of this turn moved.
    moved_on_six: Vec<Vec<u8>>,
    /// Seats with all four planes home, in the order they finished.
    finished: Vec<Seat>,
    /// The last roll and the last move, for the board to show.
    last_roll: Option<(Seat, u8)>,
    last_move: Option<Plan>,
    over: Option<Outcome>,
}

impl Aeroplane {
    /// Returns the planes and colours.
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// Returns the seat whose turn it is.
    pub fn turn(&self) -> Seat {
        self.turn
    }

    /// Returns where the turn stands.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Returns the seats that have finished, in order.
    pub fn finished(&self) -> &[Seat] {
        &self.finished
    }

    /// Returns the 6s rolled in a row this turn.
    pub fn sixes(&self) -> u8 {
        self.sixes
    }

    /// Returns the last roll, and who rolled it.
    pub fn last_roll(&self) -> Option<(Seat, u8)> {
        self.last_roll
    }

    /// Returns the last move made.
    pub fn last_move(&self) -> Option<&Plan> {
        self.last_move.as_ref()
    }

    fn seats(&self) -> usize {
        self.table.colours.len()
    }

    /// The next seat in turn order that still has planes to bring home.
    fn next_seat(&self, from: Seat) -> Seat {
        let mut s = from;
        for _ in 0..self.seats() {
            s = s.next(self.seats());
            if !self.finished.contains(&s) {
                return s;
            }
        }
        from
    }

    fn end_turn(&mut self) {
        self.sixes = 0;
        self.moved_on_six.clear();
        self.turn = self.next_seat(self.turn);
        self.phase = Phase::Roll;
    }

    /// Lists the moves the seat to play may make with `roll`, as actions.
    fn moves_with(&self, roll: u8) -> Vec<(AeroplaneMove, Plan)> {
        self.table
            .moves(&self.options, self.turn, roll)
            .into_iter()
            .map(|(planes, plan)| {
                let mv = if planes.len() > 1 {
                    AeroplaneMove::Stack(planes[0])
                } else {
                    AeroplaneMove::Plane(planes[0])
                };
                (mv, plan)
            })
            .collect()
    }

    /// Ranks the seats: those finished in order, then the others by progress.
    fn ranking(&self, last: Option<Seat>) -> Vec<Seat> {
        let mut order = self.finished.clone();
        let mut rest: Vec<Seat> = Seat::all(self.seats())
            .filter(|s| !order.contains(s) && Some(*s) != last)
            .collect();
        rest.sort_by_key(|s| (-self.table.progress(*s), s.index()));
        order.extend(rest);
        order.extend(last);
        order
    }

    fn roll(&mut self, value: u8) -> Vec<Told<AeroplaneEvent>> {
        let seat = self.turn;
        self.last_roll = Some((seat, value));
        let mut told = Vec::new();
        if value == 6 {
            self.sixes += 1;
            if self.sixes == 3 {
                let mut sent_back = Vec::new();
                if self.options.three_sixes == ThreeSixes::SendBack {
                    let planes = &mut self.table.planes[seat.index()];
                    for &p in self.moved_on_six.iter().flatten() {
                        let spot = &mut planes[p as usize];
                        if !spot.is_finished() && *spot != Spot::Hangar {
                            *spot = Spot::Hangar;
                            sent_back.push(p);
                        }
                    }
                    sent_back.sort_unstable();
                    sent_back.dedup();
                }
                told.push(everyone(AeroplaneEvent::ThreeSixes { seat, sent_back }));
                self.end_turn();
                return told;
            }
        }
        let can_move = !self.moves_with(value).is_empty();
        told.push(everyone(AeroplaneEvent::Rolled {
            seat,
            value,
            can_move,
        }));
        if can_move {
            self.phase = Phase::Move(value);
        } else if value == 6 {
            self.moved_on_six.push(Vec::new());
            self.phase = Phase::Roll;
        } else {
            self.end_turn();
        }
        told
    }

    fn make(&mut self, roll: u8, plan: Plan) -> Vec<Told<AeroplaneEvent>> {
        let seat = self.turn;
        self.table.apply(&plan);
        let mut told = vec![everyone(AeroplaneEvent::Moved { plan: plan.clone() })];
        self.last_move = Some(plan.clone());
        if self.table.all_home(seat) {
            self.finished.push(seat);
            told.push(everyone(AeroplaneEvent::Finished {
                seat,
                place: self.finished.len() as u8,
            }));
            let left: Vec<Seat> = Seat::all(self.seats())
                .filter(|s| !self.finished.contains(s))
                .collect();
            if left.len() <= 1 {
                self.finished.extend(left);
                self.over = Some(Outcome {
                    result: GameResult::Ranking {
                        order: self.finished.clone(),
                    },
                    reason: EndReason::AllHome,
                });
                return told;
            }
            self.end_turn();
        } else if roll == 6 {
            self.moved_on_six.push(plan.planes);
            self.phase = Phase::Roll;
        } else {
            self.end_turn();
        }
        told
    }

    /// Returns the view (the same for everyone).
    fn seen(&self) -> AeroplaneView {
        AeroplaneView {
            options: self.options.clone(),
            table: self.table.clone(),
            turn: self.turn,
            phase: self.phase,
            sixes: self.sixes,
            finished: self.finished.clone(),
            last_roll: self.last_roll.map(|(_, v)| v),
            last_move: self.last_move.clone(),
        }
    }
}

fn everyone(event: AeroplaneEvent) -> Told<AeroplaneEvent> {
    Told {
        audience: Audience::Everyone,
        event,
    }
}

fn illegal(why: &str) -> IllegalMove {
    IllegalMove::Other(why.into())
}

impl Rules for Aeroplane {
    type Move = AeroplaneMove;
    type Options = AeroplaneOptions;
    type Setup = AeroplaneSetup;
    type View = AeroplaneView;
    type Event = AeroplaneEvent;

    const KIND: GameKind = GameKind::Aeroplane;

    fn start(
        options: &AeroplaneOptions,
        setup: Option<&AeroplaneSetup>,
    ) -> Result<Self, SetupError> {
        let mut problems = Vec::new();
        let seats = options.seats as usize;
        if !(2..=4).contains(&seats) {
            problems.push(format!("2 to 4 seats play, not {seats}"));
        }
        let setup = setup.cloned().unwrap_or_default();
        if !setup.planes.is_empty() && setup.planes.len() != seats {
            problems.push(format!(
                "the setup places planes for {} seats, not {seats}",
                setup.planes.len()
            ));
        }
        if setup.first.is_some_and(|s| s.index() >= seats) {
            problems.push("the first seat is not at the table".into());
        }
        if setup
            .planes
            .iter()
            .any(|planes| planes.iter().all(|p| p.is_finished()))
        {
            problems.push("a seat cannot start with every plane home".into());
        }
        if !problems.is_empty() {
            return Err(SetupError { problems });
        }
        let mut table = Table::new(colours(seats));
        if !setup.planes.is_empty() {
            table.planes = setup.planes.clone();
        }
        Ok(Aeroplane {
            options: options.clone(),
            turn: setup.first.unwrap_or(Seat::FIRST),
            setup,
            table,
            phase: Phase::Roll,
            sixes: 0,
            moved_on_six: Vec::new(),
            finished: Vec::new(),
            last_roll: None,
            last_move: None,
            over: None,
        })
    }

    fn setup(&self) -> AeroplaneSetup {
        self.setup.clone()
    }

    fn options(&self) -> &AeroplaneOptions {
        &self.options
    }

    fn seat_count(&self) -> usize {
        self.seats()
    }

    fn to_act(&self) -> ToAct {
        if let Some(outcome) = &self.over {
            return ToAct::Over(outcome.clone());
        }
        match self.phase {
            Phase::Rolling => ToAct::Chance,
            Phase::Roll | Phase::Move(_) => ToAct::Seat(self.turn),
        }
    }

    fn legal_moves(&self, actor: Actor) -> Vec<AeroplaneMove> {
        if self.over.is_some() {
            return Vec::new();
        }
        match (self.phase, actor) {
            (Phase::Rolling, Actor::Authority) => (1..=6).map(AeroplaneMove::Die).collect(),
            (Phase::Roll, Actor::Seat(s)) if s == self.turn => vec![AeroplaneMove::Roll],
            (Phase::Move(roll), Actor::Seat(s)) if s == self.turn => {
                self.moves_with(roll).into_iter().map(|(m, _)| m).collect()
            }
            _ => Vec::new(),
        }
    }

    fn play(
        &mut self,
        actor: Actor,
        mv: &AeroplaneMove,
    ) -> Result<Vec<Told<AeroplaneEvent>>, IllegalMove> {
        match (self.phase, actor, *mv) {
            (Phase::Roll, Actor::Seat(s), AeroplaneMove::Roll) if s == self.turn => {
                self.phase = Phase::Rolling;
                Ok(Vec::new())
            }
            (Phase::Rolling, Actor::Authority, AeroplaneMove::Die(v)) if (1..=6).contains(&v) => {
                Ok(self.roll(v))
            }
            (
                Phase::Move(roll),
                Actor::Seat(s),
                AeroplaneMove::Plane(p) | AeroplaneMove::Stack(p),
            ) if s == self.turn => {
                let (_, plan) = self
                    .moves_with(roll)
                    .into_iter()
                    .find(|(m, _)| m == mv)
                    .ok_or_else(|| match self.table.planes[s.index()].get(p as usize) {
                        Some(_) if matches!(mv, AeroplaneMove::Stack(_)) => {
                            illegal("that plane does not head a stack that may move together")
                        }
                        Some(Spot::Hangar) => illegal("this roll does not launch a plane"),
                        Some(spot) if spot.is_finished() => {
                            illegal("that plane has already finished")
                        }
                        _ => IllegalMove::NoPiece,
                    })?;
                Ok(self.make(roll, plan))
            }
            (Phase::Roll, _, _) => Err(illegal("roll the die first")),
            (Phase::Rolling, _, _) => Err(illegal("the die is being rolled")),
            (Phase::Move(_), _, _) => Err(illegal("move a plane with the roll")),
        }
    }

    fn view(&self, _viewer: Viewer) -> AeroplaneView {
        self.seen()
    }

    fn has_chance(&self) -> bool {
        true
    }

    fn chance(&self, pick: &mut dyn FnMut(usize) -> usize) -> Option<AeroplaneMove> {
        (self.phase == Phase::Rolling && self.over.is_none())
            .then(|| AeroplaneMove::Die(pick(6).min(5) as u8 + 1))
    }

    /// A seat that resigns takes the last place; the seats that finished keep theirs and the
    /// others are ranked by how far their planes have come.
    fn resignation(&self, seat: Seat) -> Outcome {
        Outcome {
            result: GameResult::Ranking {
                order: self.ranking(Some(seat)),
            },
            reason: EndReason::Resignation,
        }
    }
}
