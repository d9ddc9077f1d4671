//! The Aeroplane chess screen: 2 to 4 seats of people and computer players on this device, or a
//! correspondence game through a server; the die, the planes that can move, the finishing order,
//! and a review of the whole game.
//!
//! On this device the device is the authority: a person's tap on the die stores `roll` and the
//! device's roll (from the operating system's randomness) before the die shows it; computer
//! seats act one step at a time on a timer, so that each roll and move can be followed. In a
//! correspondence game the server rolls: the seat's `roll` is queued, and the roll arrives with
//! the server's answer.

use super::registry::{GameEntry, OnlineChoice};
use super::{handler, handler0, handler2};
use crate::ctx::Ctx;
use crate::ctx::Sessions;
use crate::online::Command;
use crate::store::{GameId, Mode, NewGame, RemoteGame, Standing, StoreError};
use qiguan_core::aeroplane::board::{
    CROSSING, Colour, GOAL, HOME_TURN, PLANES, SHORTCUT, SHORTCUT_END, Spot,
};
use qiguan_core::aeroplane::bot::{self, Strength};
use qiguan_core::aeroplane::{
    Aeroplane, AeroplaneEvent, AeroplaneMove, AeroplaneOptions, LaunchRule, MoveKind, Phase, Plan,
    ThreeSixes,
};
use qiguan_core::{
    Action, Actor, AnyMatch, GameKind, GameResult, Match, MatchEvent, Record, Rules, Seat, ToAct,
    Told, Viewer,
};
use qiguan_ui::{
    AeroCell, AeroChoice, AeroPlane, AeroSeat, AeroplaneAdapter, NewGameAdapter, Screen,
};
use slint::{ComponentHandle, ModelRc, VecModel};
use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

/// How long a computer seat waits before each roll or move, so that people can follow it.
const COMPUTER_PAUSE: Duration = Duration::from_millis(700);
/// How long the die tumbles before a move made for the player (the only possible one).
const AUTO_MOVE_PAUSE: Duration = Duration::from_millis(900);

/// What the last action did, for the line under the die.
#[derive(Clone, Debug, Default, PartialEq)]
struct Happened {
    code: &'static str,
    seat: Option<Seat>,
    count: usize,
}

/// An Aeroplane chess game on the screen.
pub struct AeroplaneSession {
    id: GameId,
    game: Match<Aeroplane>,
    names: Vec<String>,
    /// Each seat's computer player on this device, if any.
    computers: Vec<Option<Strength>>,
    /// The server link of a correspondence game.
    remote: Option<RemoteGame>,
    /// In review: the number of actions shown.
    review: Option<usize>,
    happened: Happened,
    /// Runs the computer seats' steps and the moves made for the player.
    timer: slint::Timer,
}

impl AeroplaneSession {
    /// The seat whose turn it is, if a computer on this device plays it.
    fn computer_to_act(&self) -> Option<(Seat, Strength)> {
        if self.remote.is_some() {
            return None;
        }
        match self.game.to_act() {
            ToAct::Seat(seat) => self
                .computers
                .get(seat.index())
                .copied()
                .flatten()
                .map(|s| (seat, s)),
            _ => None,
        }
    }

    /// The seat a person on this device plays now, if any.
    fn person_to_act(&self) -> Option<Seat> {
        let ToAct::Seat(seat) = self.game.to_act() else {
            return None;
        };
        if self.review.is_some() || self.computer_to_act().is_some() {
            return None;
        }
        match &self.remote {
            // Online: only this device's seat, and only once every seat is taken.
            Some(r) if r.seat as usize != seat.index() || r.invite_code.is_some() => None,
            _ => Some(seat),
        }
    }
}

/// Aeroplane chess in the registry of games.
pub(crate) const ENTRY: GameEntry = GameEntry {
    kind: GameKind::Aeroplane,
    screen: Screen::Aeroplane,
    connect,
    sessions: || vec![Sessions::slot::<AeroplaneSession>()],
    open,
    review: |ctx, id, _| open(ctx, id),
    shown: |ctx| slot(ctx).borrow().as_ref().map(|s| s.id),
    refresh,
    reload_if_open,
    set_sync_status,
    start: start_chosen,
    session_call: |_, _| {},
    online: |a, _| OnlineChoice {
        options: serde_json::to_value(chosen_options(a)).unwrap_or_default(),
        // The creator flies red; the other seats are invited or the server's computer.
        seat: 0,
        bots: chosen_seats(a)
            .0
            .iter()
            .enumerate()
            .skip(1)
            .filter_map(|(seat, c)| c.map(|s| (seat as u8, s)))
            .collect(),
    },
};

pub fn connect(ctx: &Rc<Ctx>) {
    let ui = ctx.ui();
    let a = ui.global::<AeroplaneAdapter>();
    a.on_roll(handler0(ctx, |ctx| {
        let seat = slot(ctx)
            .borrow()
            .as_ref()
            .and_then(AeroplaneSession::person_to_act);
        if let Some(seat) = seat {
            act(ctx, Actor::Seat(seat), Action::Play(AeroplaneMove::Roll));
        }
    }));
    a.on_choose(handler(ctx, choose));
    a.on_plane_clicked(handler2(ctx, plane_clicked));
    a.on_resign(handler0(ctx, resign));
    a.on_review(handler0(ctx, |ctx| {
        if let Some(s) = slot(ctx).borrow_mut().as_mut() {
            s.timer.stop();
            s.review = Some(s.game.version());
        }
        refresh(ctx);
    }));
    a.on_review_step(handler(ctx, |ctx, step: i32| {
        if let Some(s) = slot(ctx).borrow_mut().as_mut()
            && let Some(at) = s.review
        {
            let next = at as i64 + i64::from(step);
            s.review = Some(next.clamp(0, s.game.version() as i64) as usize);
        }
        refresh(ctx);
    }));
    a.on_new_game(handler0(ctx, |ctx| {
        ctx.ui()
            .global::<AeroplaneAdapter>()
            .set_show_end_dialog(false);
        ctx.reset_to(Screen::Home);
        super::new_game::open(ctx, GameKind::Aeroplane);
    }));
}

/// The player takes the move of the button `index`.
fn choose(ctx: &Rc<Ctx>, index: i32) {
    let choice = slot(ctx).borrow().as_ref().and_then(|s| {
        let seat = s.person_to_act()?;
        let mv = choices(s).into_iter().nth(usize::try_from(index).ok()?)?.0;
        Some((seat, mv))
    });
    if let Some((seat, mv)) = choice {
        act(ctx, Actor::Seat(seat), Action::Play(mv));
    }
}

/// A plane tapped on the board: its single move first, else its stack's.
fn plane_clicked(ctx: &Rc<Ctx>, seat: i32, plane: i32) {
    let choice = slot(ctx).borrow().as_ref().and_then(|s| {
        let mover = s.person_to_act()?;
        if mover.index() as i32 != seat {
            return None;
        }
        let spot = s.game.game().table().planes[mover.index()].get(plane as usize)?;
        // The tapped plane's square: its single move first, else its stack's.
        let list = choices(s);
        list.iter()
            .find(|(mv, plan)| plan.from == *spot && matches!(mv, AeroplaneMove::Plane(_)))
            .or_else(|| list.iter().find(|(_, plan)| plan.from == *spot))
            .map(|(mv, _)| (mover, *mv))
    });
    if let Some((seat, mv)) = choice {
        act(ctx, Actor::Seat(seat), Action::Play(mv));
    }
}

/// This device's seat resigns (in a game on this device, the seat to act).
fn resign(ctx: &Rc<Ctx>) {
    let seat = slot(ctx).borrow().as_ref().and_then(|s| match &s.remote {
        Some(r) => Seat::new(r.seat),
        None => s.person_to_act(),
    });
    if let Some(seat) = seat {
        act(ctx, Actor::Seat(seat), Action::Resign);
    }
}

/// Starts a game on this device: `computers` names each seat's computer player (`None` for a
/// person). Stores it and opens it.
pub fn start(
    ctx: &Rc<Ctx>,
    options: &AeroplaneOptions,
    names: Vec<String>,
    computers: Vec<Option<Strength>>,
) -> Result<GameId, String> {
    let game: Match<Aeroplane> = Match::new(options, None).map_err(|e| e.to_string())?;
    let people = computers.iter().filter(|c| c.is_none()).count();
    // One person against the computer is filed as such; two or more people as pass and play.
    let mode = match computers.iter().position(Option::is_some) {
        Some(seat) if people <= 1 => Mode::Computer(seat as u8),
        _ => Mode::PassAndPlay,
    };
    let new = NewGame::from_match(&AnyMatch::Aeroplane(game), mode, names);
    let now = ctx.now();
    let id = ctx
        .with_store(|store| {
            store.in_transaction(|store| {
                let id = store.create_game(&new, now)?;
                store.set_computers(id, &computers)?;
                Ok(id)
            })
        })
        .map_err(|e| e.to_string())?;
    ctx.reset_to(Screen::Home);
    open(ctx, id);
    Ok(id)
}

/// Returns the Aeroplane chess options chosen on the screen.
fn chosen_options(a: &NewGameAdapter<'_>) -> AeroplaneOptions {
    AeroplaneOptions {
        seats: (a.get_aero_seats().clamp(0, 2) + 2) as u8,
        launch: match a.get_aero_launch() {
            1 => LaunchRule::SixOnly,
            2 => LaunchRule::FiveOrSix,
            _ => LaunchRule::Even,
        },
        three_sixes: if a.get_aero_end_turn() {
            ThreeSixes::EndTurn
        } else {
            ThreeSixes::SendBack
        },
        stacks_move_together: a.get_aero_stacks_together(),
        stacks_block: a.get_aero_stacks_block(),
    }
}

/// Each Aeroplane chess seat's computer player as chosen (`None`: a person), and the names.
fn chosen_seats(a: &NewGameAdapter<'_>) -> (Vec<Option<Strength>>, Vec<String>) {
    let kinds = [
        a.get_aero_p0(),
        a.get_aero_p1(),
        a.get_aero_p2(),
        a.get_aero_p3(),
    ];
    let names = [
        a.get_aero_n0(),
        a.get_aero_n1(),
        a.get_aero_n2(),
        a.get_aero_n3(),
    ];
    let seats = chosen_options(a).seats as usize;
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
            if c.is_some() {
                crate::sync::COMPUTER_NAME.to_owned()
            } else {
                n.trim().to_owned()
            }
        })
        .collect();
    (computers, names)
}

/// Starts the game New game chose.
fn start_chosen(ctx: &Rc<Ctx>, a: &NewGameAdapter<'_>) {
    let (computers, names) = chosen_seats(a);
    if let Err(e) = start(ctx, &chosen_options(a), names, computers) {
        super::show_error(ctx, &e);
    }
}

/// Loads a stored game and shows it; a finished game opens at its end.
pub fn open(ctx: &Rc<Ctx>, id: GameId) {
    if let Some(old) = slot(ctx).borrow_mut().take() {
        old.timer.stop();
    }
    match load(ctx, id) {
        Ok(session) => {
            let online = session.remote.is_some();
            *slot(ctx).borrow_mut() = Some(session);
            let ui = ctx.ui();
            let a = ui.global::<AeroplaneAdapter>();
            a.set_show_end_dialog(false);
            a.set_confirm_resign(false);
            a.set_rolling(false);
            a.set_sync_status("".into());
            refresh(ctx);
            ctx.go(Screen::Aeroplane);
            schedule(ctx);
            if online {
                ctx.send(Command::Watch(Some(id)));
                ctx.send(Command::Flush);
            }
        }
        Err(e) => super::show_error(ctx, &e),
    }
}

fn load(ctx: &Rc<Ctx>, id: GameId) -> Result<AeroplaneSession, String> {
    let (stored, remote, computers) = ctx
        .with_store(|store| Ok((store.load(id)?, store.remote(id)?, store.computers(id)?)))
        .map_err(|e| e.to_string())?;
    let bad = |detail: String| StoreError::BadRecord { id, detail }.to_string();
    let game: Match<Aeroplane> =
        Match::from_record(&stored.record).map_err(|e| bad(e.to_string()))?;
    let seats = game.game().seat_count();
    let mut computers = computers;
    computers.resize(seats, None);
    let happened = replay_to(&stored.record, game.version())
        .map(|(_, h)| h)
        .unwrap_or_default();
    let mut names = stored.summary.players;
    names.resize(seats, String::new());
    Ok(AeroplaneSession {
        id,
        game,
        names,
        computers,
        remote,
        review: None,
        happened,
        timer: slint::Timer::default(),
    })
}

/// Replays the first `ply` actions; returns the match and what its last action did.
fn replay_to(record: &Record, ply: usize) -> Result<(Match<Aeroplane>, Happened), String> {
    let options: AeroplaneOptions =
        serde_json::from_value(record.options.clone()).map_err(|e| e.to_string())?;
    let setup = serde_json::from_value(record.setup.clone()).ok();
    let mut game: Match<Aeroplane> =
        Match::new(&options, setup.as_ref()).map_err(|e| e.to_string())?;
    let mut happened = Happened::default();
    for entry in record.actions.iter().take(ply) {
        let action: Action<AeroplaneMove> = entry.action.parse()?;
        let told = game.apply(entry.by, &action).map_err(|e| e.to_string())?;
        if let Some(h) = what_happened(&told) {
            happened = h;
        }
    }
    Ok((game, happened))
}

/// Reads what an action did from what it told everyone.
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
                ..
            } => Happened {
                code: "no-move",
                seat: Some(*seat),
                count: 0,
            },
            AeroplaneEvent::Rolled { .. } => Happened::default(),
            AeroplaneEvent::ThreeSixes { seat, sent_back } => Happened {
                code: "three-sixes",
                seat: Some(*seat),
                count: sent_back.len(),
            },
            AeroplaneEvent::Moved { plan } => Happened {
                code: move_code(plan),
                seat: Some(plan.seat),
                count: plan.captured.len(),
            },
            AeroplaneEvent::Finished { seat, .. } => Happened {
                code: "finished",
                seat: Some(*seat),
                count: 0,
            },
        };
        out = Some(h);
    }
    out
}

fn move_code(plan: &Plan) -> &'static str {
    if !plan.captured.is_empty() {
        return "capture";
    }
    match plan.kind {
        MoveKind::Launch => "launch",
        MoveKind::Blocked => "blocked",
        MoveKind::Bounced => "bounce",
        MoveKind::Walk
            if plan.stops.contains(&Spot::Step(SHORTCUT_END)) && plan.stops.len() > 1 =>
        {
            "flight"
        }
        MoveKind::Walk if plan.stops.len() > 1 => "jump",
        MoveKind::Walk => "move",
    }
}

/// The moves the seat to act may choose, one per distinct result (four planes in the hangar
/// all take off the same way), in the order core lists them.
fn choices(s: &AeroplaneSession) -> Vec<(AeroplaneMove, Plan)> {
    let Phase::Move(roll) = s.game.game().phase() else {
        return Vec::new();
    };
    let ToAct::Seat(seat) = s.game.to_act() else {
        return Vec::new();
    };
    let table = s.game.game().table();
    let options = s.game.game().options();
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

/// Applies an action: stored before it shows (with the device's roll when it asks for one),
/// or queued for the server in a correspondence game.
fn act(ctx: &Rc<Ctx>, actor: Actor, action: Action<AeroplaneMove>) {
    let Some(mut s) = slot(ctx).borrow_mut().take() else {
        return;
    };
    let result = if s.remote.is_some() {
        queue_remote(ctx, &mut s, actor, &action)
    } else {
        store_and_apply(ctx, &mut s, actor, &action)
    };
    let rolled = matches!(action, Action::Play(AeroplaneMove::Roll)) && s.remote.is_none();
    let over = s.game.outcome().is_some();
    let online = s.remote.is_some();
    *slot(ctx).borrow_mut() = Some(s);
    let ui = ctx.ui();
    let a = ui.global::<AeroplaneAdapter>();
    match result {
        Err(e) => super::show_error(ctx, &e),
        Ok(()) => {
            if rolled {
                a.set_rolling(true);
            }
            if over {
                a.set_show_end_dialog(true);
            }
            if online {
                a.set_sync_status("sending".into());
                ctx.send(Command::Flush);
            }
        }
    }
    refresh(ctx);
    schedule(ctx);
}

fn store_and_apply(
    ctx: &Rc<Ctx>,
    s: &mut AeroplaneSession,
    actor: Actor,
    action: &Action<AeroplaneMove>,
) -> Result<(), String> {
    let mut next = s.game.clone();
    let mut told = next.apply(actor, action).map_err(|e| e.to_string())?;
    // This device is the authority: it rolls at once, and the roll is stored with the ask.
    while let Some(die) = next.chance(&mut crate::random::os_pick) {
        told.extend(
            next.apply(Actor::Authority, &die)
                .map_err(|e| e.to_string())?,
        );
    }
    let from = s.game.version();
    let entries = next.actions()[from..].to_vec();
    let now = ctx.now();
    let id = s.id;
    ctx.with_store(|store| {
        store.in_transaction(|store| {
            for (i, entry) in entries.iter().enumerate() {
                let last = i + 1 == entries.len();
                let standing = Standing::new(
                    &next.actions()[..from + i + 1],
                    if last { next.outcome() } else { None },
                );
                store.append_action(id, from + i, entry, &standing, now)?;
            }
            Ok(())
        })
    })
    .map_err(|e| e.to_string())?;
    s.game = next;
    if let Some(h) = what_happened(&told) {
        s.happened = h;
    } else if matches!(action, Action::Play(AeroplaneMove::Roll)) {
        s.happened = Happened::default();
    }
    Ok(())
}

/// Queues a correspondence game's action (stored before it shows as sent).
fn queue_remote(
    ctx: &Rc<Ctx>,
    s: &mut AeroplaneSession,
    actor: Actor,
    action: &Action<AeroplaneMove>,
) -> Result<(), String> {
    let mut next = s.game.clone();
    let told = next.apply(actor, action).map_err(|e| e.to_string())?;
    let Some(entry) = next.actions().last().cloned() else {
        return Ok(());
    };
    let standing = Standing::new(next.actions(), next.outcome());
    let cid = crate::sync::new_action_id();
    let now = ctx.now();
    let id = s.id;
    ctx.with_store(|store| {
        store.queue_action(id, next.version() - 1, &entry, &standing, &cid, now)
    })
    .map_err(|e| e.to_string())?;
    s.game = next;
    if let Some(h) = what_happened(&told) {
        s.happened = h;
    }
    Ok(())
}

/// Arms the timer for what happens next without a tap: a computer seat's step, or the only
/// possible move played for a person (a setting).
fn schedule(ctx: &Rc<Ctx>) {
    let guard = slot(ctx).borrow();
    let Some(s) = guard.as_ref() else { return };
    if s.review.is_some() || s.game.outcome().is_some() {
        s.timer.stop();
        return;
    }
    let weak = Rc::downgrade(ctx);
    if s.computer_to_act().is_some() {
        s.timer
            .start(slint::TimerMode::SingleShot, COMPUTER_PAUSE, move || {
                if let Some(ctx) = weak.upgrade() {
                    computer_step(&ctx);
                }
            });
        return;
    }
    let auto = ctx.settings.borrow().auto_move;
    if auto && s.person_to_act().is_some() && choices(s).len() == 1 {
        s.timer
            .start(slint::TimerMode::SingleShot, AUTO_MOVE_PAUSE, move || {
                if let Some(ctx) = weak.upgrade() {
                    only_move(&ctx);
                }
            });
    }
}

/// Whether the Aeroplane screen is showing: the timer's steps wait for the player's return.
fn on_screen(ctx: &Rc<Ctx>) -> bool {
    ctx.ui().global::<qiguan_ui::Nav>().get_screen() == Screen::Aeroplane
}

/// The computer seat to act rolls or moves (one step; the timer brings the next).
fn computer_step(ctx: &Rc<Ctx>) {
    if !on_screen(ctx) {
        return;
    }
    let step = slot(ctx).borrow().as_ref().and_then(|s| {
        let (seat, strength) = s.computer_to_act()?;
        let view = s.game.view(Viewer::Seat(seat)).game;
        let mv = bot::choose(&view, seat, strength, crate::random::random_seed())?;
        Some((seat, mv))
    });
    if let Some((seat, mv)) = step {
        act(ctx, Actor::Seat(seat), Action::Play(mv));
    }
}

/// Plays the one possible move for the person to act, if it still is the only one.
fn only_move(ctx: &Rc<Ctx>) {
    if !on_screen(ctx) {
        return;
    }
    let step = slot(ctx).borrow().as_ref().and_then(|s| {
        let seat = s.person_to_act()?;
        let list = choices(s);
        (list.len() == 1).then(|| (seat, list[0].0))
    });
    if let Some((seat, mv)) = step {
        act(ctx, Actor::Seat(seat), Action::Play(mv));
    }
}

/// Reloads the open game if the sync worker changed it.
pub fn reload_if_open(ctx: &Rc<Ctx>, ids: &[GameId]) {
    let Some((id, version, was_over)) = slot(ctx)
        .borrow()
        .as_ref()
        .map(|s| (s.id, s.game.version(), s.game.outcome().is_some()))
    else {
        return;
    };
    if !ids.contains(&id) || ctx.ui().global::<qiguan_ui::Nav>().get_screen() != Screen::Aeroplane {
        return;
    }
    match load(ctx, id) {
        Ok(session) => {
            // A roll that came from the server tumbles like one made here.
            let rolled = session.game.actions()[version.min(session.game.version())..]
                .iter()
                .any(|e| e.by == Actor::Authority);
            let over = session.game.outcome().is_some();
            if let Some(old) = slot(ctx).borrow_mut().replace(session) {
                old.timer.stop();
            }
            let ui = ctx.ui();
            let a = ui.global::<AeroplaneAdapter>();
            if rolled {
                a.set_rolling(true);
            }
            if over && !was_over {
                a.set_show_end_dialog(true);
            }
            refresh(ctx);
            schedule(ctx);
        }
        Err(e) => super::show_error(ctx, &e),
    }
}

/// Shows whether the open correspondence game's actions have reached the server.
pub fn set_sync_status(ctx: &Rc<Ctx>, online: bool, pending: usize) {
    if slot(ctx)
        .borrow()
        .as_ref()
        .is_none_or(|s| s.remote.is_none())
    {
        return;
    }
    let status = super::sync_status(online, pending).unwrap_or("");
    ctx.ui()
        .global::<AeroplaneAdapter>()
        .set_sync_status(status.into());
    refresh(ctx);
}

// ---- The board's geometry: a 15 × 15 grid, red's quarter top left, turning clockwise. ----

/// The 52 track squares, clockwise from the left arm's top row, as grid cells.
fn ring() -> Vec<(f32, f32)> {
    let mut cells = Vec::with_capacity(52);
    let mut run = |from: (i32, i32), step: (i32, i32), n: i32| {
        for i in 0..n {
            cells.push(((from.0 + step.0 * i) as f32, (from.1 + step.1 * i) as f32));
        }
    };
    run((0, 6), (1, 0), 6);
    run((6, 5), (0, -1), 6);
    run((7, 0), (1, 0), 1);
    run((8, 0), (0, 1), 6);
    run((9, 6), (1, 0), 6);
    run((14, 7), (0, 1), 1);
    run((14, 8), (-1, 0), 6);
    run((8, 9), (0, 1), 6);
    run((7, 14), (-1, 0), 1);
    run((6, 14), (0, -1), 6);
    run((5, 8), (-1, 0), 6);
    run((0, 7), (0, -1), 1);
    cells
}

/// Turns a cell (its top-left corner) a quarter clockwise about the board's centre, `n` times.
fn turn_cell((x, y): (f32, f32), n: usize) -> (f32, f32) {
    (0..n % 4).fold((x, y), |(x, y), _| (14.0 - y, x))
}

/// The cell of a track square (0–51, core's numbering: red's step 1 is square 0).
fn square_cell(ring: &[(f32, f32)], square: u8) -> (f32, f32) {
    ring[(square as usize + 2) % 52]
}

/// Where a plane of `colour` at `spot` is drawn; hangar and goal planes in their hangar slot.
fn spot_cell(ring: &[(f32, f32)], colour: Colour, spot: Spot, plane: usize) -> (f32, f32) {
    let c = colour.index();
    match spot {
        Spot::Hangar | Spot::Step(GOAL) => turn_cell(hangar_slot(plane), c),
        Spot::Step(0) => turn_cell((0.5, 4.5), c),
        Spot::Step(k) if k <= HOME_TURN => colour
            .square(k)
            .map_or((7.0, 7.0), |sq| square_cell(ring, sq)),
        Spot::Step(k) => turn_cell((f32::from(k - HOME_TURN), 7.0), c),
    }
}

fn hangar_slot(plane: usize) -> (f32, f32) {
    [(1.5, 1.5), (3.5, 1.5), (1.5, 3.5), (3.5, 3.5)][plane % 4]
}

fn board_cells(ring: &[(f32, f32)]) -> Vec<AeroCell> {
    let mut cells = Vec::new();
    for square in 0..52u8 {
        let (x, y) = square_cell(ring, square);
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
            let (x, y) = turn_cell((f32::from(k - HOME_TURN), 7.0), c);
            cells.push(AeroCell {
                x,
                y,
                colour: c as i32,
                kind: 1,
            });
        }
        let (x, y) = turn_cell((0.5, 4.5), c);
        cells.push(AeroCell {
            x,
            y,
            colour: c as i32,
            kind: 2,
        });
        for p in 0..PLANES {
            let (x, y) = turn_cell(hangar_slot(p), c);
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
fn flight_paths(ring: &[(f32, f32)]) -> String {
    let centre = |(x, y): (f32, f32)| (x + 0.5, y + 0.5);
    let mut out = String::new();
    for colour in Colour::ALL {
        let (Some(a), Some(b)) = (colour.square(SHORTCUT), colour.square(SHORTCUT_END)) else {
            continue;
        };
        let p0 = centre(square_cell(ring, a));
        let p2 = centre(square_cell(ring, b));
        let over = centre(turn_cell(
            (f32::from(CROSSING - HOME_TURN), 7.0),
            colour.opposite().index(),
        ));
        // A quadratic curve through `over` at its middle.
        let p1 = (
            2.0 * over.0 - (p0.0 + p2.0) / 2.0,
            2.0 * over.1 - (p0.1 + p2.1) / 2.0,
        );
        out.push_str(&format!(
            "M {} {} Q {} {} {} {} ",
            p0.0, p0.1, p1.0, p1.1, p2.0, p2.1
        ));
    }
    out
}

/// Pushes the session to the screen.
pub fn refresh(ctx: &Rc<Ctx>) {
    let guard = slot(ctx).borrow();
    let Some(s) = guard.as_ref() else { return };
    let ui = ctx.ui();
    let a = ui.global::<AeroplaneAdapter>();
    let ring = ring();
    let (game, happened) = shown_game(s);
    let state = game.game();
    let table = state.table();
    let person = s.review.is_none().then(|| s.person_to_act()).flatten();
    let choosing = if person.is_some() {
        choices(s)
    } else {
        Vec::new()
    };
    let order: Vec<i32> = match game.outcome().map(|o| o.result) {
        Some(GameResult::Ranking { order }) => order.iter().map(|s| s.index() as i32).collect(),
        _ => state.finished().iter().map(|s| s.index() as i32).collect(),
    };
    let planes = plane_models(state, &ring, person, &choosing);
    a.set_cells(ModelRc::new(VecModel::from(board_cells(&ring))));
    a.set_flights(flight_paths(&ring).into());
    a.set_planes(ModelRc::new(VecModel::from(planes)));
    a.set_seats(ModelRc::new(VecModel::from(seat_models(s, table, &order))));
    a.set_turn(match game.to_act() {
        ToAct::Seat(seat) => seat.index() as i32,
        ToAct::Chance => state.turn().index() as i32,
        _ => -1,
    });
    a.set_die(state.last_roll().map_or(0, |(_, v)| i32::from(v)));
    a.set_can_roll(person.is_some() && state.phase() == Phase::Roll);
    a.set_choices(ModelRc::new(VecModel::from(choice_models(&choosing))));
    a.set_thinking(s.review.is_none() && s.computer_to_act().is_some());
    a.set_event(happened.code.into());
    a.set_event_seat(happened.seat.map_or(-1, |s| s.index() as i32));
    a.set_event_count(happened.count as i32);
    a.set_sixes(i32::from(state.sixes()));
    a.set_phase(
        if s.review.is_some() {
            "review"
        } else if s.game.outcome().is_some() {
            "over"
        } else {
            "play"
        }
        .into(),
    );
    a.set_order(ModelRc::new(VecModel::from(order)));
    a.set_reason(s.game.outcome().map_or("", |o| o.reason.as_str()).into());
    a.set_review_ply(s.review.unwrap_or(0) as i32);
    a.set_review_plies(s.game.version() as i32);
    set_correspondence(&a, s);
}

/// The game as the screen shows it: in review, replayed to the action on screen.
fn shown_game(s: &AeroplaneSession) -> (Match<Aeroplane>, Happened) {
    match s.review.map(|ply| replay_to(&s.game.record(), ply)) {
        Some(Ok(pair)) => pair,
        _ => (s.game.clone(), s.happened.clone()),
    }
}

/// Every plane on the board or in its hangar: a seat's planes on one square drawn once with
/// their count, the ones `person` may move with this roll marked.
fn plane_models(
    state: &Aeroplane,
    ring: &[(f32, f32)],
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
            let (mut x, mut y) = spot_cell(ring, colour, *spot, p);
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
    s: &AeroplaneSession,
    table: &qiguan_core::aeroplane::Table,
    order: &[i32],
) -> Vec<AeroSeat> {
    table
        .colours
        .iter()
        .enumerate()
        .map(|(i, colour)| AeroSeat {
            colour: colour.index() as i32,
            name: s.names.get(i).cloned().unwrap_or_default().into(),
            computer: match s.computers.get(i).copied().flatten() {
                Some(Strength::Easy) => "easy".into(),
                Some(Strength::Strong) => "strong".into(),
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

/// Where a correspondence game stands: this device's seat, what it waits for, the invite.
fn set_correspondence(a: &AeroplaneAdapter<'_>, s: &AeroplaneSession) {
    a.set_online(s.remote.is_some());
    a.set_my_seat(s.remote.as_ref().map_or(-1, |r| i32::from(r.seat)));
    let waiting = match (&s.remote, s.game.to_act()) {
        (Some(r), _) if r.invite_code.is_some() => "join",
        (Some(_), ToAct::Chance) => "sending",
        (Some(r), ToAct::Seat(seat)) if seat.index() != r.seat as usize => "turn",
        _ => "",
    };
    a.set_waiting(waiting.into());
    a.set_invite(
        s.remote
            .as_ref()
            .and_then(|r| r.invite_code.clone())
            .unwrap_or_default()
            .into(),
    );
}

/// The AeroplaneSession slot in the context.
fn slot(ctx: &Ctx) -> &RefCell<Option<AeroplaneSession>> {
    ctx.session()
}
