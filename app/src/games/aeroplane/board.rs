//! The Aeroplane board as its screen draws it: the cells, the planes, the seats and the
//! choice of plane, the die's tumble and a plane's flight along its path.

use super::news::{Happened, all_happened, news_for, replay_to};
use crate::play::Session;
use crate::shell::ctx::Ctx;
use crate::store::GameId;
use qiguan_core::Strength;
use qiguan_core::aeroplane::board::{Colour, GOAL, HOME_TURN, PLANES, SHORTCUT, Spot};
use qiguan_core::aeroplane::geometry::{
    self, hangar_cell, home_cell, spot_cell, square_cell, take_off_cell,
};
use qiguan_core::aeroplane::{Aeroplane, AeroplaneMove, MoveKind, Phase, Plan};
use qiguan_core::{Actor, GameResult, Match, Rules, Seat, ToAct};
use qiguan_ui::{
    AeroCell, AeroChoice, AeroMotion, AeroNews, AeroPlane, AeroPoint, AeroSeat, AeroplaneAdapter,
};
use slint::{ComponentHandle, ModelRc, VecModel};
use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// What the Aeroplane chess screen keeps of its own.
#[derive(Default)]
pub(crate) struct AeroplaneModels {
    /// The rolls drawn so far: the die tumbles when a new one comes (none before the first
    /// drawing of the game).
    rolls_drawn: Cell<Option<usize>>,
    /// The game and the moves drawn so far: a new move flies along its path (none before the
    /// first drawing of the game).
    moves_drawn: Cell<Option<(GameId, usize)>>,
    /// What every action did, and the game's version it was worked out at.
    pub(super) happened: RefCell<Option<(usize, Vec<Happened>)>>,
}

/// The seats in the order they finished (the whole ranking once the game is over).
fn finishing_order(game: &Match<Aeroplane>) -> Vec<i32> {
    match game.outcome().map(|o| o.result) {
        Some(GameResult::Ranking { order }) => order.iter().map(|s| s.index() as i32).collect(),
        _ => game
            .game()
            .finished()
            .iter()
            .map(|s| s.index() as i32)
            .collect(),
    }
}

/// The last thing that happened, and the news the seat to act has not seen.
fn push_news(a: &AeroplaneAdapter<'_>, last: &Happened, news: &[Happened]) {
    a.set_event(last.event);
    a.set_event_seat(last.seat.map_or(-1, |s| s.index() as i32));
    a.set_event_count(last.count as i32);
    a.set_news(ModelRc::new(VecModel::from(
        news.iter()
            .map(|h| AeroNews {
                event: h.event,
                seat: h.seat.map_or(-1, |s| s.index() as i32),
                count: h.count as i32,
                victim: h.victim.map_or(-1, |s| s.index() as i32),
                die: i32::from(h.die),
            })
            .collect::<Vec<_>>(),
    )));
}

/// Draws the board, the seats, the die and the choices: the game as it stands, or in review as
/// it stood at the action on screen.
pub(super) fn refresh_board(ctx: &Rc<Ctx>, s: &Session<Aeroplane>) {
    let Some(live) = s.local() else { return };
    let (game, happened) = match s.review.map(|ply| replay_to(&live.record(), ply)) {
        Some(Ok(pair)) => pair,
        _ => (live.clone(), all_happened(s, live)),
    };
    let to_act = match game.to_act() {
        ToAct::Seat(seat) if s.review.is_none() => Some(seat),
        _ => None,
    };
    let news = news_for(&happened, to_act);
    let last = happened.last().cloned().unwrap_or_default();
    let ui = ctx.ui();
    let a = ui.global::<AeroplaneAdapter>();
    let state = game.game();
    let person = (s.review.is_none() && may_act(s)).then_some(s.viewer);
    let choosing = if person.is_some() {
        choices(&game)
    } else {
        Vec::new()
    };
    let order = finishing_order(&game);
    let planes = plane_models(state, person, &choosing);
    a.set_cells(ModelRc::new(VecModel::from(board_cells())));
    a.set_flights(flight_paths().into());
    a.set_planes(ModelRc::new(VecModel::from(planes)));
    a.set_seats(ModelRc::new(VecModel::from(seat_models(
        s,
        state.table(),
        &order,
    ))));
    a.set_turn(match game.to_act() {
        ToAct::Seat(seat) => seat.index() as i32,
        ToAct::Chance => state.turn().index() as i32,
        _ => -1,
    });
    a.set_die(state.last_roll().map_or(0, |(_, v)| i32::from(v)));
    a.set_can_roll(person.is_some() && state.phase() == Phase::Roll);
    let choices = choice_models(&choosing);
    a.set_launch_choice(choices.iter().any(|c| c.from < 0));
    a.set_move_choice(choices.iter().any(|c| c.from >= 0));
    a.set_choices(ModelRc::new(VecModel::from(choices)));
    a.set_thinking(s.review.is_none() && s.computer_to_act().is_some());
    push_news(&a, &last, &news);
    a.set_sixes(i32::from(state.sixes()));
    a.set_order(ModelRc::new(VecModel::from(order)));
    if s.review.is_none() {
        tumble(&a, s, live);
    }
    fly(&ui.global::<AeroMotion>(), s, live);
}

/// Sets the last move's planes flying along their path, square by square, when it is a move
/// newer than what the board showed (made here, by a computer seat, or by the server); a game
/// opening, a reload or a review shows the planes where they are.
pub(super) fn fly(motion: &AeroMotion<'_>, s: &Session<Aeroplane>, game: &Match<Aeroplane>) {
    let moves = game
        .actions()
        .iter()
        .filter(|e| e.by != Actor::Authority && is_move_text(&e.action))
        .count();
    let before = s.board.moves_drawn.replace(Some((s.id, moves)));
    let state = game.game();
    let new_move = matches!(before, Some((id, n)) if id == s.id && n + 1 == moves)
        && s.review.is_none()
        && game
            .actions()
            .last()
            .is_some_and(|e| is_move_text(&e.action));
    match (state.last_move(), state.last_roll()) {
        (Some(plan), Some((_, roll))) if new_move => {
            let colour = state.table().colours[plan.seat.index()];
            let path = flight_path(colour, plan, roll);
            let points: Vec<AeroPoint> = path.iter().map(|&(x, y)| AeroPoint { x, y }).collect();
            motion.set_seat(plan.seat.index() as i32);
            motion.set_path(ModelRc::new(VecModel::from(points)));
            motion.invoke_start(path.len() as i32 - 1);
        }
        _ if before != Some((s.id, moves)) => motion.invoke_stop(),
        _ => {}
    }
}

/// A move's text in the record: `p1`–`p4`, or `s1`–`s4` for a stack.
pub(super) fn is_move_text(action: &str) -> bool {
    let b = action.as_bytes();
    b.len() == 2 && matches!(b[0], b'p' | b's') && b[1].is_ascii_digit()
}

/// The cells a move's planes pass through, square by square, from where they stood to where
/// they rest: the walk (forward, and back after a bounce at the goal or a blocked landing),
/// then each jump or flight as one hop. `roll` is the die the move used.
pub(super) fn flight_path(colour: Colour, plan: &Plan, roll: u8) -> Vec<(f32, f32)> {
    let first = plan.planes.first().map_or(0, |&p| usize::from(p));
    let cell = |spot: Spot| match spot {
        // The goal is the middle of the board (a finished plane then rests in its hangar).
        Spot::Step(GOAL) => (7.0, 7.0),
        _ => spot_cell(colour, spot, first),
    };
    let mut path = vec![cell(plan.from)];
    let step_of = |spot: Spot| match spot {
        Spot::Step(k) => Some(k),
        Spot::Hangar => None,
    };
    let walked = |path: &mut Vec<(f32, f32)>, steps: &mut dyn Iterator<Item = u8>| {
        path.extend(steps.map(|k| cell(Spot::Step(k))));
    };
    let (from, end) = (
        step_of(plan.from),
        plan.stops.first().copied().and_then(step_of),
    );
    match (plan.kind, from, end) {
        (MoveKind::Launch, _, _) | (_, None, _) | (_, _, None) => {}
        (MoveKind::Walk, Some(a), Some(b)) => walked(&mut path, &mut (a + 1..=b)),
        (MoveKind::Bounced, Some(a), Some(b)) => {
            walked(&mut path, &mut (a + 1..=GOAL));
            walked(&mut path, &mut (b..GOAL).rev());
        }
        (MoveKind::Blocked, Some(a), Some(b)) => {
            // Forward k steps, then back the rest of the count: b = a + k - (roll - k).
            let k = ((i32::from(b) - i32::from(a) + i32::from(roll)) / 2).max(0) as u8;
            walked(&mut path, &mut (a + 1..=a + k));
            walked(&mut path, &mut (b..a + k).rev());
        }
    }
    // Jumps and flights: one hop each (the walk's end is already there).
    let hops = if plan.kind == MoveKind::Walk { 1 } else { 0 };
    path.extend(plan.stops.iter().skip(hops).map(|&s| cell(s)));
    // Where the planes rest (a finished plane in its hangar slot).
    let rest = spot_cell(colour, plan.to(), first);
    if path.last() != Some(&rest) {
        path.push(rest);
    }
    path.dedup();
    path
}

/// The die tumbles when a roll has come since the screen last drew (made here, by a computer
/// seat, or by the server); not when a game opens.
pub(super) fn tumble(a: &AeroplaneAdapter<'_>, s: &Session<Aeroplane>, game: &Match<Aeroplane>) {
    let rolls = game
        .actions()
        .iter()
        .filter(|e| e.by == Actor::Authority)
        .count();
    match s.board.rolls_drawn.replace(Some(rolls)) {
        None => a.set_rolling(false),
        Some(before) if rolls > before => a.set_rolling(true),
        Some(_) => {}
    }
}

pub(super) fn board_cells() -> Vec<AeroCell> {
    let mut cells = Vec::new();
    for square in 0..52u8 {
        let (x, y) = square_cell(square);
        let colour = qiguan_core::aeroplane::board::square_colour(square);
        let shortcut = colour.square(SHORTCUT) == Some(square);
        cells.push(AeroCell {
            x,
            y,
            colour: colour.index() as i32,
            kind: if shortcut { 4 } else { 0 },
        });
    }
    for colour in Colour::ALL {
        let c = colour.index();
        for k in HOME_TURN + 1..GOAL {
            let (x, y) = home_cell(colour, k);
            cells.push(AeroCell {
                x,
                y,
                colour: c as i32,
                kind: 1,
            });
        }
        let (x, y) = take_off_cell(colour);
        cells.push(AeroCell {
            x,
            y,
            colour: c as i32,
            kind: 2,
        });
        for p in 0..PLANES {
            let (x, y) = hangar_cell(colour, p);
            cells.push(AeroCell {
                x,
                y,
                colour: c as i32,
                kind: 3,
            });
        }
    }
    cells
}

/// The four shortcut flights: from the shortcut square, bowing out over the opposite colour's
/// crossing square (its home column's third square), to the end of the flight.
pub(super) fn flight_paths() -> String {
    let mut out = String::new();
    for colour in Colour::ALL {
        if let Some([p0, p1, p2]) = geometry::flight(colour) {
            out.push_str(&format!(
                "M {} {} Q {} {} {} {} ",
                p0.0, p0.1, p1.0, p1.1, p2.0, p2.1
            ));
        }
    }
    out
}

/// Every plane on the board or in its hangar: a seat's planes on one square drawn once with
/// their count, the ones `person` may move with this roll marked.
pub(super) fn plane_models(
    state: &Aeroplane,
    person: Option<Seat>,
    choosing: &[(AeroplaneMove, Plan)],
) -> Vec<AeroPlane> {
    let table = state.table();
    let last: Vec<(Seat, u8)> = state
        .last_move()
        .map(|p| p.planes.iter().map(|&q| (p.seat, q)).collect())
        .unwrap_or_default();
    let mut planes: Vec<AeroPlane> = Vec::new();
    for (i, spots) in table.planes.iter().enumerate() {
        let seat = Seat::new(i as u8).unwrap_or(Seat::FIRST);
        let colour = table.colours[i];
        for (p, spot) in spots.iter().enumerate() {
            let on_board = !matches!(spot, Spot::Hangar | Spot::Step(GOAL));
            if on_board && spots[..p].contains(spot) {
                continue;
            }
            let count = if on_board {
                spots.iter().filter(|q| *q == spot).count()
            } else {
                1
            };
            let (mut x, mut y) = spot_cell(colour, *spot, p);
            // Another seat's planes on the same square (after a step back) sit beside them.
            let taken = |q: &AeroPlane| {
                q.seat != i as i32 && (q.x - x).abs() < 0.1 && (q.y - y).abs() < 0.1
            };
            if on_board && planes.iter().any(taken) {
                x += 0.3;
                y -= 0.3;
            }
            planes.push(AeroPlane {
                x,
                y,
                colour: colour.index() as i32,
                seat: i as i32,
                plane: p as i32,
                count: count as i32,
                movable: person == Some(seat) && choosing.iter().any(|(_, c)| c.from == *spot),
                finished: spot.is_finished(),
                last: last.contains(&(seat, p as u8)),
            });
        }
    }
    planes
}

/// Each seat: its colour, name or computer, planes home and finishing place.
pub(super) fn seat_models(
    s: &Session<Aeroplane>,
    table: &qiguan_core::aeroplane::Table,
    order: &[i32],
) -> Vec<AeroSeat> {
    table
        .colours
        .iter()
        .enumerate()
        .map(|(i, colour)| AeroSeat {
            colour: colour.index() as i32,
            name: s.players.get(i).cloned().unwrap_or_default().into(),
            computer: match s.computers.get(i).copied().flatten() {
                Some(Strength::Easy) => "easy".into(),
                Some(Strength::Strong | Strength::Normal | Strength::Hard | Strength::Level(_)) => {
                    "strong".into()
                }
                None => "".into(),
            },
            home: table.planes[i].iter().filter(|p| p.is_finished()).count() as i32,
            place: order
                .iter()
                .position(|&o| o == i as i32)
                .map_or(0, |p| p as i32 + 1),
        })
        .collect()
}

/// The moves this roll allows, as buttons.
pub(super) fn choice_models(choosing: &[(AeroplaneMove, Plan)]) -> Vec<AeroChoice> {
    choosing
        .iter()
        .map(|(mv, plan)| AeroChoice {
            plane: match mv {
                AeroplaneMove::Plane(p) | AeroplaneMove::Stack(p) => i32::from(*p),
                _ => 0,
            },
            stack: matches!(mv, AeroplaneMove::Stack(_)),
            from: plan.from.step().map_or(-1, i32::from),
            to: plan.to().step().map_or(-1, i32::from),
        })
        .collect()
}

/// The moves the seat to act may choose, one per distinct result (four planes in the hangar
/// all take off the same way), in the order core lists them.
pub(super) fn choices(game: &Match<Aeroplane>) -> Vec<(AeroplaneMove, Plan)> {
    let Phase::Move(roll) = game.game().phase() else {
        return Vec::new();
    };
    let ToAct::Seat(seat) = game.to_act() else {
        return Vec::new();
    };
    let table = game.game().table();
    let options = game.game().options();
    let mut out: Vec<(AeroplaneMove, Plan)> = Vec::new();
    for (planes, plan) in table.moves(options, seat, roll) {
        let mv = if planes.len() > 1 {
            AeroplaneMove::Stack(planes[0])
        } else {
            AeroplaneMove::Plane(planes[0])
        };
        let same = out.iter().any(|(_, p)| {
            p.from == plan.from && p.to() == plan.to() && p.planes.len() == plan.planes.len()
        });
        if !same {
            out.push((mv, plan));
        }
    }
    out
}

/// A person on this device may act now: in a correspondence game, only once every seat is
/// taken.
pub(super) fn may_act(s: &Session<Aeroplane>) -> bool {
    s.person_to_act() && s.remote.as_ref().is_none_or(|r| r.invite_code.is_none())
}
