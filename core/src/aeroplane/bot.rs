//! Computer players for Aeroplane chess, at two strengths. Both decide from the view (the whole
//! table, which every seat sees) and never see a roll before the authority makes it.
//!
//! - **Easy** plays like a casual player: it captures when it can, launches often, and otherwise
//!   picks a move with a lot of chance in it.
//! - **Strong** scores the table after each candidate move: how far its planes have come, what
//!   its captures cost the others, and the risk that each of its planes on the track is hit on
//!   the opponents' next rolls, worked out exactly with the same move code (jumps, flights and
//!   the crossing included).

use super::board::{GOAL, HOME_TURN, PLANES, Spot};
use super::movegen::Table;
use super::state::{AeroplaneMove, AeroplaneOptions, Phase};
use super::view::AeroplaneView;
use crate::seat::Seat;

pub use crate::seat::Strength;

/// Chooses `seat`'s action from the view: `roll` when it must roll, a plane or stack when it
/// must move. `seed` breaks ties and gives the easy player its whims (the authority supplies it,
/// and records the result like any move). `None` when the seat has nothing to do.
pub fn choose(
    view: &AeroplaneView,
    seat: Seat,
    strength: Strength,
    seed: u64,
) -> Option<AeroplaneMove> {
    if view.turn != seat || view.finished.contains(&seat) {
        return None;
    }
    let roll = match view.phase {
        Phase::Roll => return Some(AeroplaneMove::Roll),
        Phase::Rolling => return None,
        Phase::Move(roll) => roll,
    };
    let mut rng = seed | 1;
    let mut noise = move |range: i64| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % range.max(1) as u64) as i64
    };
    let options = &view.options;
    view.table
        .moves(options, seat, roll)
        .into_iter()
        .map(|(planes, plan)| {
            let mv = if planes.len() > 1 {
                AeroplaneMove::Stack(planes[0])
            } else {
                AeroplaneMove::Plane(planes[0])
            };
            let mut after = view.table.clone();
            after.apply(&plan);
            let score = match strength {
                Strength::Easy => {
                    let gained = i64::from(plan.to().step().unwrap_or(0))
                        - i64::from(plan.from.step().unwrap_or(0));
                    plan.captured.len() as i64 * 1000
                        + if plan.from == Spot::Hangar { 300 } else { 0 }
                        + gained * 10
                        + noise(400)
                }
                Strength::Strong | Strength::Normal | Strength::Hard | Strength::Level(_) => {
                    evaluate(&after, options, seat) * 16 + noise(16)
                }
            };
            (score, mv)
        })
        .max_by_key(|(score, _)| *score)
        .map(|(_, mv)| mv)
}

/// What a plane at this spot is worth: two for every step it has come (so a jump's four steps
/// count), a launch's worth for being out at all, and a little more once it is safe in its home
/// column, and again at the goal.
fn worth(spot: Spot) -> i64 {
    match spot {
        Spot::Hangar => 0,
        Spot::Step(GOAL) => 30 + 2 * i64::from(GOAL) + 20,
        Spot::Step(k) if k > HOME_TURN => 30 + 2 * i64::from(k) + 10,
        Spot::Step(k) => 30 + 2 * i64::from(k),
    }
}

/// Scores the table for `seat` (in hundredths where probabilities enter).
fn evaluate(table: &Table, options: &AeroplaneOptions, seat: Seat) -> i64 {
    let seats = table.colours.len();
    let mine: i64 = table.planes[seat.index()].iter().map(|s| worth(*s)).sum();
    let others: i64 = Seat::all(seats)
        .filter(|s| *s != seat)
        .map(|s| {
            table.planes[s.index()]
                .iter()
                .map(|p| worth(*p))
                .sum::<i64>()
        })
        .sum();
    // Risk: the chance that each of this seat's planes is hit on the next roll of each
    // opponent, times what it would lose.
    let mut risk = 0;
    for plane in 0..PLANES as u8 {
        let spot = table.planes[seat.index()][plane as usize];
        if !matches!(spot, Spot::Step(k) if (1..=HOME_TURN).contains(&k) || k == super::board::CROSSING)
        {
            continue;
        }
        let mut safe = 1.0f64;
        for other in Seat::all(seats).filter(|s| *s != seat) {
            let hits = (1..=6u8)
                .filter(|&roll| {
                    (0..PLANES as u8).any(|p| {
                        table.plan(options, other, &[p], roll).is_some_and(|plan| {
                            plan.captured
                                .iter()
                                .any(|c| c.seat == seat && c.plane == plane)
                        })
                    })
                })
                .count();
            safe *= 1.0 - hits as f64 / 6.0;
        }
        risk += ((1.0 - safe) * worth(spot) as f64 * 70.0) as i64;
    }
    mine * 100 - others * 100 / (seats as i64 - 1).max(1) - risk
}

impl crate::Computer for super::Aeroplane {
    fn computer_move(
        view: &Self::View,
        seat: Seat,
        _: &Self::Options,
        strength: Strength,
        seed: u64,
    ) -> Option<Self::Move> {
        choose(view, seat, strength, seed)
    }
}
