//! Where a move takes a plane: launching, the walk with its blocks and bounces, captures, jumps,
//! the shortcut flight and its crossing. [`Table`] holds only what everyone sees (every plane's
//! spot), so the authority's state and a seat's view move planes with the same code.

use super::board::{Colour, GOAL, HOME_TURN, PLANES, SHORTCUT, SHORTCUT_END, Spot, jumps_from};
use super::state::{AeroplaneOptions, LaunchRule};
use crate::seat::Seat;
use serde::{Deserialize, Serialize};

/// Every seat's planes and colour.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Table {
    /// Each seat's colour.
    pub colours: Vec<Colour>,
    /// Each seat's four planes.
    pub planes: Vec<[Spot; PLANES]>,
}

/// One plane sent back to its hangar.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct PlaneRef {
    /// Whose plane.
    pub seat: Seat,
    /// Which of its four (0–3).
    pub plane: u8,
}

/// Everything one move does, worked out before it is made.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Plan {
    /// The mover.
    pub seat: Seat,
    /// The planes that move (one, or a stack moving together).
    pub planes: Vec<u8>,
    /// Where they started.
    pub from: Spot,
    /// Each place they stopped at on the way: the end of the walk, then of a jump or a flight.
    /// The last is where they end.
    pub stops: Vec<Spot>,
    /// Opposing planes sent back to their hangars.
    pub captured: Vec<PlaneRef>,
    /// How the move went.
    pub kind: MoveKind,
}

impl Plan {
    /// Returns where the planes end.
    pub fn to(&self) -> Spot {
        self.stops.last().copied().unwrap_or(self.from)
    }

    /// Returns true if the planes flew the shortcut (from step 18 to 30) on this move. A jump
    /// that happens to end on step 30 (from 26) is not a flight.
    pub fn flew(&self) -> bool {
        self.stops
            .windows(2)
            .any(|w| w == [Spot::Step(SHORTCUT), Spot::Step(SHORTCUT_END)])
    }

    /// Returns true if the planes jumped to the next square of their colour on this move
    /// (besides any flight).
    pub fn jumped(&self) -> bool {
        self.kind == MoveKind::Walk && self.stops.len() > 1 + usize::from(self.flew())
    }
}

/// How a move went, for what the board shows and says.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MoveKind {
    /// From the hangar to the take-off point.
    Launch,
    /// A walk, perhaps followed by a jump or a flight (see `stops`).
    Walk,
    /// The walk met opposing planes it could not land on or pass, and stepped back.
    Blocked,
    /// The count went past the goal and the excess came back down the home column.
    Bounced,
}

impl Table {
    /// An empty table: every plane in its hangar.
    pub fn new(colours: Vec<Colour>) -> Table {
        let planes = vec![[Spot::Hangar; PLANES]; colours.len()];
        Table { colours, planes }
    }

    /// Returns the seat's colour.
    pub fn colour(&self, seat: Seat) -> Colour {
        self.colours[seat.index()]
    }

    /// Returns true once all four of the seat's planes have reached the goal.
    pub fn all_home(&self, seat: Seat) -> bool {
        self.planes[seat.index()].iter().all(|p| p.is_finished())
    }

    /// Lists the opposing planes on a track square (as seen by `seat`).
    fn opponents_on(&self, seat: Seat, square: u8) -> Vec<PlaneRef> {
        let mut out = Vec::new();
        for (i, planes) in self.planes.iter().enumerate() {
            if i == seat.index() {
                continue;
            }
            let colour = self.colours[i];
            for (p, spot) in planes.iter().enumerate() {
                if spot.square(colour) == Some(square) {
                    out.push(PlaneRef {
                        seat: Seat::new(i as u8).unwrap_or(Seat::FIRST),
                        plane: p as u8,
                    });
                }
            }
        }
        out
    }

    /// Returns true if some opposing colour has two or more planes on this square.
    fn opposing_stack_on(&self, seat: Seat, square: u8) -> bool {
        let found = self.opponents_on(seat, square);
        found
            .iter()
            .any(|a| found.iter().filter(|b| b.seat == a.seat).count() >= 2)
    }

    /// Returns the planes of `seat` standing with plane `plane` (itself included), in order.
    pub fn stack_of(&self, seat: Seat, plane: u8) -> Vec<u8> {
        let planes = &self.planes[seat.index()];
        let spot = planes[plane as usize];
        if spot == Spot::Hangar || spot.is_finished() {
            return vec![plane];
        }
        (0..PLANES as u8)
            .filter(|&p| planes[p as usize] == spot)
            .collect()
    }

    /// Works out moving `planes` (all on one spot) of `seat` by `roll`, or `None` if the rules
    /// do not allow it (a finished plane, or a launch the roll does not permit).
    pub fn plan(
        &self,
        options: &AeroplaneOptions,
        seat: Seat,
        planes: &[u8],
        roll: u8,
    ) -> Option<Plan> {
        let first = *planes.first()?;
        let from = *self.planes.get(seat.index())?.get(first as usize)?;
        let colour = self.colour(seat);
        let count = planes.len();
        let mut plan = Plan {
            seat,
            planes: planes.to_vec(),
            from,
            stops: Vec::new(),
            captured: Vec::new(),
            kind: MoveKind::Walk,
        };
        let k = match from {
            Spot::Hangar => {
                if !options.launch.allows(roll) || count != 1 {
                    return None;
                }
                plan.kind = MoveKind::Launch;
                plan.stops.push(Spot::Step(0));
                return Some(plan);
            }
            Spot::Step(GOAL) => return None,
            Spot::Step(k) => k,
        };
        let target = k + roll;
        if target > GOAL {
            plan.kind = MoveKind::Bounced;
            plan.stops.push(Spot::Step(2 * GOAL - target));
            return Some(plan);
        }
        // The walk: opposing planes can stand only on track squares (steps 1–50).
        for step in k + 1..=target.min(HOME_TURN) {
            let Some(square) = colour.square(step) else {
                continue;
            };
            let blocked = if step == target {
                self.opponents_on(seat, square).len() > count
            } else {
                options.stacks_block && self.opposing_stack_on(seat, square)
            };
            if blocked {
                // Advance to the square before them, then spend the rest of the count moving
                // back, with no jump or capture after.
                let ahead = step - 1 - k;
                let back = roll - ahead;
                plan.kind = MoveKind::Blocked;
                plan.stops
                    .push(Spot::Step((k + ahead).saturating_sub(back)));
                return Some(plan);
            }
        }
        self.land(&mut plan, target);
        if target == SHORTCUT {
            // Straight onto the shortcut: fly, then jump once.
            if self.fly(&mut plan, count) {
                self.hop(&mut plan, SHORTCUT_END + 4, count);
            }
        } else if jumps_from(target) {
            let next = target + 4;
            // A jump onto the shortcut square flies and stops.
            if self.hop(&mut plan, next, count) && next == SHORTCUT {
                self.fly(&mut plan, count);
            }
        }
        Some(plan)
    }

    /// Lands on `step` (no checks: the walk already made them), capturing what is there.
    fn land(&self, plan: &mut Plan, step: u8) {
        if let Some(square) = self.colour(plan.seat).square(step) {
            plan.captured.extend(self.opponents_on(plan.seat, square));
        }
        plan.stops.push(Spot::Step(step));
    }

    /// Jumps (or flies) to `step` unless more opposing planes rest there than move; returns
    /// whether it was made.
    fn hop(&self, plan: &mut Plan, step: u8, count: usize) -> bool {
        let colour = self.colour(plan.seat);
        let Some(square) = colour.square(step) else {
            return false;
        };
        let there = self.opponents_on(plan.seat, square);
        if there.len() > count {
            return false;
        }
        plan.captured.extend(there);
        plan.stops.push(Spot::Step(step));
        true
    }

    /// Flies the shortcut from step 18 to 30, if it may end there; the flight sends home any
    /// opposing planes on the crossing square it passes over.
    fn fly(&self, plan: &mut Plan, count: usize) -> bool {
        if !self.hop(plan, SHORTCUT_END, count) {
            return false;
        }
        let opposite = self.colour(plan.seat).opposite();
        for (i, planes) in self.planes.iter().enumerate() {
            if self.colours[i] != opposite {
                continue;
            }
            for (p, spot) in planes.iter().enumerate() {
                if *spot == Spot::Step(super::board::CROSSING) {
                    plan.captured.push(PlaneRef {
                        seat: Seat::new(i as u8).unwrap_or(Seat::FIRST),
                        plane: p as u8,
                    });
                }
            }
        }
        true
    }

    /// Makes a planned move: the planes go to its end, captured planes to their hangars.
    pub fn apply(&mut self, plan: &Plan) {
        let to = plan.to();
        for &p in &plan.planes {
            self.planes[plan.seat.index()][p as usize] = to;
        }
        for c in &plan.captured {
            self.planes[c.seat.index()][c.plane as usize] = Spot::Hangar;
        }
    }

    /// Lists the moves a seat may make with a roll: each plane that can move (launches
    /// included), and with the stack option each stack, named by its first plane.
    pub fn moves(&self, options: &AeroplaneOptions, seat: Seat, roll: u8) -> Vec<(Vec<u8>, Plan)> {
        let mut out = Vec::new();
        for p in 0..PLANES as u8 {
            if let Some(plan) = self.plan(options, seat, &[p], roll) {
                out.push((vec![p], plan));
            }
        }
        if options.stacks_move_together {
            for p in 0..PLANES as u8 {
                let stack = self.stack_of(seat, p);
                if stack.len() >= 2
                    && stack[0] == p
                    && let Some(plan) = self.plan(options, seat, &stack, roll)
                {
                    out.push((stack, plan));
                }
            }
        }
        out
    }

    /// Returns a seat's progress: the sum of its planes' steps (hangar -1), for ranking
    /// unfinished seats and for bots.
    pub fn progress(&self, seat: Seat) -> i32 {
        self.planes[seat.index()]
            .iter()
            .map(|s| s.step().map_or(-1, i32::from))
            .sum()
    }
}

impl LaunchRule {
    /// Returns true if this roll launches a plane.
    pub fn allows(self, roll: u8) -> bool {
        match self {
            LaunchRule::Even => roll.is_multiple_of(2),
            LaunchRule::SixOnly => roll == 6,
            LaunchRule::FiveOrSix => roll >= 5,
        }
    }
}
