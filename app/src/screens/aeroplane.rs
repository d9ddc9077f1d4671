//! The Aeroplane chess screen: 2 to 4 seats of people and computer players on this device, or a
//! correspondence game through a server; the die, the planes that can move, the finishing order,
//! and a review of the whole game.
//!
//! The shared session ([`super::session`]) stores each action before it shows, queues a
//! correspondence game's actions, paces the computer seats (one step at a time on a timer, so
//! that each roll and move can be followed), plays the only possible move for a person (a
//! setting), and runs resignation, review and the end. On this device the device rolls (the
//! operating system's randomness) and the roll is stored with the ask; in a correspondence game
//! the server rolls, and the roll arrives with its answer. This module brings the board, the
//! die and the choice of plane.

use super::registry::{GameEntry, OnlineChoice};
use super::session::{self, GameScreen, Session};
use super::{handler, handler0, handler2};
use crate::ctx::Ctx;
use crate::store::GameId;
use qiguan_core::aeroplane::board::{Colour, GOAL, HOME_TURN, PLANES, SHORTCUT, Spot};
use qiguan_core::aeroplane::geometry::{
    self, hangar_cell, home_cell, spot_cell, square_cell, take_off_cell,
};
use qiguan_core::aeroplane::{
    Aeroplane, AeroplaneEvent, AeroplaneMove, AeroplaneOptions, AeroplaneView, LaunchRule,
    MoveKind, Phase, Plan, ThreeSixes,
};
use qiguan_core::{Action, Actor, GameResult, Match, MatchEvent, Record, Rules, Seat, ToAct, Told};
use qiguan_core::{Computer, Strength};
use qiguan_ui::{
    AeroCell, AeroChoice, AeroEvent, AeroMotion, AeroNews, AeroPlane, AeroPoint, AeroSeat,
    AeroplaneAdapter, AeroplaneRules, AppWindow, GameOutcome, Screen,
};
use slint::{ComponentHandle, Model, ModelRc, VecModel};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::time::Duration;

/// What an action did, for the lines under the die.
#[derive(Clone, Debug, Default, PartialEq)]
struct Happened {
    event: AeroEvent,
    seat: Option<Seat>,
    count: usize,
    /// Whose planes a capture sent back.
    victim: Option<Seat>,
    /// The roll that let no plane move.
    die: u8,
}

/// The most lines of news under the die.
const NEWS: usize = 4;

/// What the seat to act has not seen yet: what happened since its own last move (every
/// other seat's moves, a capture of its planes among them), at most [`NEWS`], the newest
/// last; at least the last thing that happened. Over or in review: the last [`NEWS`].
fn news_for(all: &[Happened], to_act: Option<Seat>) -> Vec<Happened> {
    let since = to_act
        .and_then(|seat| {
            all.iter().rposition(|h| {
                h.seat == Some(seat) && !matches!(h.event, AeroEvent::NoMove | AeroEvent::None)
            })
        })
        .map_or(0, |i| i + 1);
    let from = since
        .min(all.len().saturating_sub(1))
        .max(all.len().saturating_sub(NEWS));
    all[from..].to_vec()
}

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
    happened: RefCell<Option<(usize, Vec<Happened>)>>,
}

/// Aeroplane chess in the registry of games.
pub(crate) const ENTRY: GameEntry = GameEntry {
    online: online_choice,
    row_codes,
    computer_levels: true,
    // Its board names the computers (each seat's colour, strength by strength).
    level_in_rows: false,
    most_seats: 4,
    ..session::entry::<Aeroplane>(connect, RULES)
};

/// Aeroplane chess's rules page (docs/rules/).
const RULES: super::registry::RulesPage = super::registry::RulesPage {
    english: include_str!("../../../docs/rules/aeroplane.md"),
    chinese: include_str!("../../../docs/rules/zh/aeroplane.md"),
};

/// Seats are named by colour, which depends on how many play: a list row gets the first
/// place's colour as its winner, and the colour to move.
fn row_codes(outcome: GameOutcome, to_move: i32, seats: usize) -> (GameOutcome, i32) {
    let colours = qiguan_core::aeroplane::board::colours(seats);
    let colour_of = |seat: i32| {
        usize::try_from(seat)
            .ok()
            .and_then(|s| colours.get(s))
            .map_or(-1, |c| c.index() as i32)
    };
    let winner = colour_of(outcome.winner);
    (GameOutcome { winner, ..outcome }, colour_of(to_move))
}

impl GameScreen for Aeroplane {
    type Board = AeroplaneModels;
    type Spot = ();
    type Draft = ();
    const SCREEN: Screen = Screen::Aeroplane;
    const COMPUTER_PAUSE: Option<Duration> = Some(Duration::from_millis(700));

    /// A plane moved (sending planes home sounds as a capture), or the die was rolled.
    fn sound(before: &AeroplaneView, after: &AeroplaneView) -> Option<crate::sound::Sound> {
        use crate::sound::Sound;
        if after.last_move != before.last_move
            && let Some(plan) = &after.last_move
        {
            return Some(if plan.captured.is_empty() {
                Sound::Move
            } else {
                Sound::Capture
            });
        }
        let roll = |v: &AeroplaneView| (v.last_roll, v.phase, v.turn, v.sixes);
        (after.last_roll.is_some() && roll(after) != roll(before)).then_some(Sound::Roll)
    }

    /// Returns the Aeroplane chess options chosen on the screen.
    fn chosen_options(ui: &AppWindow) -> AeroplaneOptions {
        let a = ui.global::<AeroplaneRules>();
        AeroplaneOptions {
            seats: (a.get_seats().clamp(0, 2) + 2) as u8,
            launch: match a.get_launch() {
                1 => LaunchRule::SixOnly,
                2 => LaunchRule::FiveOrSix,
                _ => LaunchRule::Even,
            },
            three_sixes: if a.get_end_turn() {
                ThreeSixes::EndTurn
            } else {
                ThreeSixes::SendBack
            },
            stacks_move_together: a.get_stacks_together(),
            stacks_block: a.get_stacks_block(),
        }
    }

    /// Each seat's player's name, and its computer player as chosen (`None`: a person).
    fn chosen_seats(ui: &AppWindow) -> (Vec<String>, Vec<Option<Strength>>) {
        let a = ui.global::<AeroplaneRules>();
        let kinds = [a.get_p0(), a.get_p1(), a.get_p2(), a.get_p3()];
        let names = [a.get_n0(), a.get_n1(), a.get_n2(), a.get_n3()];
        let seats = Aeroplane::chosen_options(ui).seats as usize;
        let computers: Vec<Option<Strength>> = kinds[..seats]
            .iter()
            .map(|k| match k {
                1 => Some(Strength::Easy),
                2 => Some(Strength::Strong),
                _ => None,
            })
            .collect();
        let names = names[..seats]
            .iter()
            .zip(&computers)
            .map(|(n, c)| {
                // The computer is a role (kept in the computers), not a name.
                if c.is_some() {
                    String::new()
                } else {
                    n.trim().to_owned()
                }
            })
            .collect();
        (names, computers)
    }

    /// The planes are tapped through their own callback ([`plane_move`]).
    fn tap(_: &Rc<Ctx>, _: &mut Session<Aeroplane>, _: i32) -> Option<AeroplaneMove> {
        None
    }

    /// The seats' colours in the screens' numbering (red 0, blue 1, yellow 3, green 4).
    fn seat_colours(s: &Session<Aeroplane>) -> Vec<i32> {
        let Some(game) = s.local() else {
            return Vec::new();
        };
        game.game()
            .table()
            .colours
            .iter()
            .map(|c| match c {
                Colour::Red => 0,
                Colour::Yellow => 3,
                Colour::Blue => 1,
                Colour::Green => 4,
            })
            .collect()
    }

    fn only_move(s: &Session<Aeroplane>) -> Option<AeroplaneMove> {
        let list = choices(s.local()?);
        (list.len() == 1 && may_act(s)).then(|| list[0].0)
    }

    fn computer_move(
        view: &AeroplaneView,
        seat: Seat,
        options: &AeroplaneOptions,
        strength: Strength,
    ) -> Option<AeroplaneMove> {
        let seed = crate::random::random_seed();
        <Aeroplane as Computer>::computer_move(view, seat, options, strength, seed)
    }

    fn refresh_board(ctx: &Rc<Ctx>, s: &Session<Aeroplane>, _: &AeroplaneView) {
        refresh_board(ctx, s);
    }
}

/// A person on this device may act now: in a correspondence game, only once every seat is
/// taken.
fn may_act(s: &Session<Aeroplane>) -> bool {
    s.person_to_act() && s.remote.as_ref().is_none_or(|r| r.invite_code.is_none())
}

/// What New game chose, for a correspondence game: the creator flies red; the other seats are
/// invited or the server's computer.
fn online_choice(ui: &AppWindow, _: u8) -> OnlineChoice {
    OnlineChoice {
        options: serde_json::to_value(Aeroplane::chosen_options(ui)).unwrap_or_default(),
        seat: 0,
        bots: Aeroplane::chosen_seats(ui)
            .1
            .iter()
            .enumerate()
            .skip(1)
            .filter_map(|(seat, c)| c.map(|s| (seat as u8, s)))
            .collect(),
    }
}

pub fn connect(ctx: &Rc<Ctx>) {
    let ui = ctx.ui();
    let a = ui.global::<AeroplaneAdapter>();
    a.on_roll(handler0(ctx, |ctx| {
        session::play_with::<Aeroplane>(ctx, |s| {
            let rolls = s.local()?.game().phase() == Phase::Roll;
            (may_act(s) && rolls).then_some(AeroplaneMove::Roll)
        });
    }));
    a.on_choose(handler(ctx, |ctx, index: i32| {
        session::play_with::<Aeroplane>(ctx, |s| {
            let i = usize::try_from(index).ok()?;
            may_act(s).then(|| choices(s.local()?).into_iter().nth(i).map(|c| c.0))?
        });
    }));
    a.on_plane_clicked(handler2(ctx, |ctx, seat: i32, plane: i32| {
        session::play_with::<Aeroplane>(ctx, |s| plane_move(s, seat, plane));
    }));
    let weak = Rc::downgrade(ctx);
    a.on_board_tapped(move |x, y, reach| {
        let Some(ctx) = weak.upgrade() else { return };
        let planes: Vec<AeroPlane> = ctx
            .ui()
            .global::<AeroplaneAdapter>()
            .get_planes()
            .iter()
            .collect();
        if let Some((seat, plane)) = nearest_movable(&planes, x, y, reach) {
            session::play_with::<Aeroplane>(&ctx, |s| plane_move(s, seat, plane));
        }
    });
}

/// The plane that can move nearest to a tap at (x, y) in grid units, if its square's centre
/// is within `reach`: a finger's 44 px on a board of 24 px squares, without two neighbours'
/// tap areas overlapping.
fn nearest_movable(planes: &[AeroPlane], x: f32, y: f32, reach: f32) -> Option<(i32, i32)> {
    planes
        .iter()
        .filter(|p| p.movable)
        .map(|p| {
            let (dx, dy) = (p.x + 0.5 - x, p.y + 0.5 - y);
            (dx * dx + dy * dy, p)
        })
        .filter(|(d2, _)| *d2 <= reach * reach)
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, p)| (p.seat, p.plane))
}

/// A plane tapped on the board: its single move first, else its stack's.
fn plane_move(s: &Session<Aeroplane>, seat: i32, plane: i32) -> Option<AeroplaneMove> {
    if !may_act(s) || s.viewer.index() as i32 != seat {
        return None;
    }
    let game = s.local()?;
    let spot = game.game().table().planes[s.viewer.index()].get(usize::try_from(plane).ok()?)?;
    let list = choices(game);
    list.iter()
        .find(|(mv, plan)| plan.from == *spot && matches!(mv, AeroplaneMove::Plane(_)))
        .or_else(|| list.iter().find(|(_, plan)| plan.from == *spot))
        .map(|(mv, _)| *mv)
}

/// Replays the first `ply` actions; returns the match and what its last action did.
fn replay_to(record: &Record, ply: usize) -> Result<(Match<Aeroplane>, Vec<Happened>), String> {
    let mut record = record.clone();
    record.actions.truncate(ply);
    let mut game: Match<Aeroplane> = {
        let mut start = record.clone();
        start.actions.clear();
        Match::from_record(&start).map_err(|e| e.to_string())?
    };
    let mut happened = Vec::new();
    for entry in &record.actions {
        let action: Action<AeroplaneMove> = entry.action.parse()?;
        let told = game.apply(entry.by, &action).map_err(|e| e.to_string())?;
        happened.extend(what_happened(&told));
    }
    Ok((game, happened))
}

/// Reads what an action did from what it told everyone (a roll that lets a plane move tells
/// nothing of its own: the move will).
fn what_happened(told: &[Told<MatchEvent<AeroplaneEvent>>]) -> Option<Happened> {
    let mut out = None;
    for t in told {
        let MatchEvent::Game { event } = &t.event else {
            continue;
        };
        let h = match event {
            AeroplaneEvent::Rolled {
                seat,
                can_move: false,
                value,
            } => Happened {
                event: AeroEvent::NoMove,
                seat: Some(*seat),
                count: 0,
                victim: None,
                die: *value,
            },
            AeroplaneEvent::Rolled { .. } => continue,
            AeroplaneEvent::ThreeSixes { seat, sent_back } => Happened {
                event: AeroEvent::ThreeSixes,
                seat: Some(*seat),
                count: sent_back.len(),
                victim: None,
                die: 0,
            },
            AeroplaneEvent::Moved { plan } => Happened {
                event: move_event(plan),
                seat: Some(plan.seat),
                count: plan.captured.len(),
                victim: plan.captured.first().map(|p| p.seat),
                die: 0,
            },
            AeroplaneEvent::Finished { seat, .. } => Happened {
                event: AeroEvent::Finished,
                seat: Some(*seat),
                count: 0,
                victim: None,
                die: 0,
            },
        };
        out = Some(h);
    }
    out
}

/// What a move did, the most telling first: a capture, a flight, a jump (core says which).
fn move_event(plan: &Plan) -> AeroEvent {
    if !plan.captured.is_empty() {
        return AeroEvent::Capture;
    }
    match plan.kind {
        MoveKind::Launch => AeroEvent::Launch,
        MoveKind::Blocked => AeroEvent::Blocked,
        MoveKind::Bounced => AeroEvent::Bounce,
        MoveKind::Walk if plan.flew() => AeroEvent::Flight,
        MoveKind::Walk if plan.jumped() => AeroEvent::Jump,
        MoveKind::Walk => AeroEvent::Move,
    }
}

/// The moves the seat to act may choose, one per distinct result (four planes in the hangar
/// all take off the same way), in the order core lists them.
fn choices(game: &Match<Aeroplane>) -> Vec<(AeroplaneMove, Plan)> {
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

/// Draws the board, the seats, the die and the choices: the game as it stands, or in review as
/// it stood at the action on screen.
fn refresh_board(ctx: &Rc<Ctx>, s: &Session<Aeroplane>) {
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
    let order: Vec<i32> = match game.outcome().map(|o| o.result) {
        Some(GameResult::Ranking { order }) => order.iter().map(|s| s.index() as i32).collect(),
        _ => state.finished().iter().map(|s| s.index() as i32).collect(),
    };
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
fn fly(motion: &AeroMotion<'_>, s: &Session<Aeroplane>, game: &Match<Aeroplane>) {
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
fn is_move_text(action: &str) -> bool {
    let b = action.as_bytes();
    b.len() == 2 && matches!(b[0], b'p' | b's') && b[1].is_ascii_digit()
}

/// The cells a move's planes pass through, square by square, from where they stood to where
/// they rest: the walk (forward, and back after a bounce at the goal or a blocked landing),
/// then each jump or flight as one hop. `roll` is the die the move used.
fn flight_path(colour: Colour, plan: &Plan, roll: u8) -> Vec<(f32, f32)> {
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

/// What each of the game's actions did (worked out once per version).
fn all_happened(s: &Session<Aeroplane>, game: &Match<Aeroplane>) -> Vec<Happened> {
    let mut cached = s.board.happened.borrow_mut();
    match cached.as_ref() {
        Some((version, h)) if *version == game.version() => h.clone(),
        _ => {
            let h = replay_to(&game.record(), game.version())
                .map(|(_, h)| h)
                .unwrap_or_default();
            *cached = Some((game.version(), h.clone()));
            h
        }
    }
}

/// The die tumbles when a roll has come since the screen last drew (made here, by a computer
/// seat, or by the server); not when a game opens.
fn tumble(a: &AeroplaneAdapter<'_>, s: &Session<Aeroplane>, game: &Match<Aeroplane>) {
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

// ---- The board's geometry: a 15 × 15 grid, red's quarter top left, turning clockwise. ----

fn board_cells() -> Vec<AeroCell> {
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
fn flight_paths() -> String {
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
fn plane_models(
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
fn seat_models(
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
fn choice_models(choosing: &[(AeroplaneMove, Plan)]) -> Vec<AeroChoice> {
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

#[cfg(test)]
mod tests {
    use super::{
        AeroEvent, AeroPlane, Colour, GOAL, MoveKind, Plan, Seat, Spot, flight_path, move_event,
        nearest_movable, spot_cell,
    };
    use qiguan_core::aeroplane::PlaneRef;

    fn walk(stops: &[u8]) -> Plan {
        Plan {
            seat: Seat::FIRST,
            planes: vec![0],
            from: Spot::Step(stops[0].saturating_sub(4)),
            stops: stops.iter().map(|&s| Spot::Step(s)).collect(),
            captured: Vec::new(),
            kind: MoveKind::Walk,
        }
    }

    /// The news is what the seat to act has not seen since its own last move, at most four
    /// lines, and at least the last thing that happened.
    #[test]
    fn the_news_runs_from_the_seats_last_move() {
        use super::{Happened, NEWS, news_for};
        let seat = |i: u8| Seat::new(i);
        let h = |i: u8, event: AeroEvent| Happened {
            event,
            seat: seat(i),
            ..Happened::default()
        };
        let all = vec![
            h(0, AeroEvent::Move),
            h(1, AeroEvent::Capture),
            h(2, AeroEvent::Launch),
            h(3, AeroEvent::NoMove),
        ];
        assert_eq!(news_for(&all, seat(0)), all[1..]);
        assert_eq!(
            news_for(&all, seat(3)),
            all,
            "its own roll with no move is news too"
        );
        assert_eq!(news_for(&all, seat(2)), all[3..], "just after its own move");
        assert_eq!(news_for(&all, None), all);
        let many: Vec<Happened> = (0..10).map(|_| h(1, AeroEvent::Move)).collect();
        assert_eq!(news_for(&many, seat(0)).len(), NEWS);
        assert!(news_for(&[], seat(0)).is_empty());
    }

    #[test]
    fn a_move_flies_square_by_square_and_hops_its_jumps_and_flights() {
        let red = Colour::Red;
        let cells = |steps: &[u8]| -> Vec<(f32, f32)> {
            steps
                .iter()
                .map(|&k| spot_cell(red, Spot::Step(k), 0))
                .collect()
        };
        let plan = |from: Spot, stops: &[u8], kind: MoveKind| Plan {
            seat: Seat::FIRST,
            planes: vec![0],
            from,
            stops: stops.iter().map(|&s| Spot::Step(s)).collect(),
            captured: Vec::new(),
            kind,
        };
        // A walk of 3: every square on the way.
        let walk = plan(Spot::Step(3), &[6], MoveKind::Walk);
        assert_eq!(flight_path(red, &walk, 3), cells(&[3, 4, 5, 6]));
        // A walk of 4 from 14 lands on 18, the shortcut: it flies to 30, then jumps to 34.
        let flight = plan(Spot::Step(14), &[18, 30, 34], MoveKind::Walk);
        assert_eq!(
            flight_path(red, &flight, 4),
            cells(&[14, 15, 16, 17, 18, 30, 34])
        );
        // Launch: from the hangar to the take-off point.
        let launch = plan(Spot::Hangar, &[0], MoveKind::Launch);
        assert_eq!(
            flight_path(red, &launch, 6),
            vec![spot_cell(red, Spot::Hangar, 0), cells(&[0])[0]]
        );
        // From 53 a 5 goes to the goal (the board's middle) and bounces back to 54.
        let bounce = plan(Spot::Step(53), &[54], MoveKind::Bounced);
        let mut expected = cells(&[53, 54, 55]);
        expected.push((7.0, 7.0));
        expected.extend(cells(&[55, 54]));
        assert_eq!(flight_path(red, &bounce, 5), expected);
        // Blocked on 10 with a 4 from 6: forward to 9, back one to 8.
        let blocked = plan(Spot::Step(6), &[8], MoveKind::Blocked);
        assert_eq!(flight_path(red, &blocked, 4), cells(&[6, 7, 8, 9, 8]));
        // Home exactly: the goal, then the hangar slot where a finished plane rests.
        let home = plan(Spot::Step(54), &[GOAL], MoveKind::Walk);
        let path = flight_path(red, &home, 2);
        assert_eq!(path[..3], [cells(&[54])[0], cells(&[55])[0], (7.0, 7.0)]);
        assert_eq!(path[3], spot_cell(red, Spot::Step(GOAL), 0));
    }

    #[test]
    fn the_line_under_the_die_names_what_core_says_the_move_did() {
        assert_eq!(
            move_event(&walk(&[26, 30])),
            AeroEvent::Jump,
            "26 jumps to 30"
        );
        assert_eq!(move_event(&walk(&[18, 30, 34])), AeroEvent::Flight);
        assert_eq!(move_event(&walk(&[14, 18, 30])), AeroEvent::Flight);
        assert_eq!(move_event(&walk(&[2, 6])), AeroEvent::Jump);
        assert_eq!(move_event(&walk(&[31])), AeroEvent::Move);
        let mut capture = walk(&[18, 30]);
        capture.captured.push(PlaneRef {
            seat: Seat::SECOND,
            plane: 1,
        });
        assert_eq!(
            move_event(&capture),
            AeroEvent::Capture,
            "a capture tells most"
        );
    }

    fn plane(x: f32, y: f32, plane: i32, movable: bool) -> AeroPlane {
        AeroPlane {
            x,
            y,
            plane,
            movable,
            ..AeroPlane::default()
        }
    }

    #[test]
    fn a_tap_goes_to_the_nearest_plane_that_can_move_within_reach() {
        // Two movable planes on neighbouring squares and a still one between them.
        let planes = [
            plane(4.0, 6.0, 0, true),
            plane(5.0, 6.0, 1, false),
            plane(6.0, 6.0, 2, true),
        ];
        // Reach 0.92 squares: 44 px on 24 px squares.
        assert_eq!(nearest_movable(&planes, 4.5, 6.5, 0.92), Some((0, 0)));
        // Off the square but within a finger's reach, and nearer the first plane.
        assert_eq!(nearest_movable(&planes, 5.3, 6.9, 0.92), Some((0, 0)));
        // The still plane's square, nearer the third.
        assert_eq!(nearest_movable(&planes, 5.8, 6.5, 0.92), Some((0, 2)));
        // Too far from any movable plane.
        assert_eq!(nearest_movable(&planes, 5.5, 8.0, 0.92), None);
        assert_eq!(nearest_movable(&planes[1..2], 5.5, 6.5, 0.92), None);
    }
}
