//! How the session moves on: an action is committed (stored before it shows, or queued for the
//! server), the computer answers, whose view shows is settled, and the screen follows, all in
//! one [`transition`], whatever moved the game (a player, the computer's search, the timer,
//! the sync worker).

use super::search::{Search, Thinking};
use super::session::{GameScreen, Session, slot};
use super::truth;
use super::view::refresh;
use crate::shell::bind::show_error;
use crate::shell::ctx::Ctx;
use crate::shell::sound::Sound;
use crate::store::GameId;
use crate::sync::Command;
use qiguan_core::{Action, Actor, GameResult, Seat, ToAct, Viewer};
use qiguan_ui::{GameSession, SyncLine};
use slint::{ComponentHandle, TimerMode};
use std::rc::Rc;
use std::time::Duration;

/// The louder of two sounds: the end, then check, a battle, a capture, the die, a move.
fn louder(a: Option<Sound>, b: Option<Sound>) -> Option<Sound> {
    let rank = |s: &Option<Sound>| match s {
        None => 0,
        Some(Sound::Move | Sound::Message) => 1,
        Some(Sound::Roll) => 2,
        Some(Sound::Capture) => 3,
        Some(Sound::Battle) => 4,
        Some(Sound::Check) => 5,
        Some(Sound::Win | Sound::Lose) => 6,
    };
    if rank(&b) > rank(&a) { b } else { a }
}

/// The end's sound, once a game is over: a win when a person on this device won (or people
/// played each other here), a loss when the computer or the opponent far away did; nothing
/// for a draw.
fn end_sound<G: GameScreen>(s: &Session<G>) -> Option<Sound> {
    let outcome = s.outcome()?;
    let winner = match &outcome.result {
        GameResult::Win { winners } => winners.first().copied()?,
        GameResult::Ranking { order } => order.first().copied()?,
        GameResult::Draw => return None,
    };
    let people_here: Vec<Seat> = s
        .seats()
        .filter(|&seat| s.computer(seat).is_none() && (s.remote.is_none() || seat == s.viewer))
        .collect();
    Some(if people_here.contains(&winner) {
        Sound::Win
    } else {
        Sound::Lose
    })
}

/// Plays what changed from `before` to the session's view now, and the end's sound when the
/// game has just ended.
fn sound_of_change<G: GameScreen>(
    s: &Session<G>,
    before: &G::View,
    was_over: bool,
    also: Option<Sound>,
) -> Option<Sound> {
    let now = s.view();
    let mut sound = louder(also, G::sound(before, &now));
    if !was_over {
        sound = louder(sound, end_sound(s));
    }
    sound
}

/// Picks whose view shows: the person's against the computer, this device's seat in a
/// correspondence game, else the seat to act. Raises the hand-over screen when the view passes
/// to the other player and there are secrets.
pub(crate) fn settle_viewer<G: GameScreen>(s: &mut Session<G>, opening: bool) {
    if s.outcome().is_some() {
        s.draft = None;
        return;
    }
    let fixed = s.fixed_seat();
    let next = match (fixed, s.to_act()) {
        (Some(seat), _) => seat,
        (None, ToAct::Seat(seat)) => seat,
        (None, ToAct::Seats(list)) => list.first().copied().unwrap_or(s.viewer),
        (None, _) => s.viewer,
    };
    let changed = next != s.viewer;
    s.viewer = next;
    if fixed.is_none() && G::has_secrets(s) && (changed || opening) {
        s.handover = true;
    }
    if changed {
        s.selected = None;
        s.draft = None;
        s.refusal = None;
    }
    G::settled(s);
}

/// Lets the computer act at once for as long as it is due (unless the game paces it: then
/// [`schedule`] does), storing each action.
pub(crate) fn run_computer<G: GameScreen>(ctx: &Rc<Ctx>, s: &mut Session<G>) {
    if G::COMPUTER_PAUSE.is_some() {
        return;
    }
    s.before_reply = s.computer_to_act().map(|_| (s.viewer, s.view()));
    for _ in 0..8 {
        if !computer_acts(ctx, s) {
            return;
        }
    }
}

/// The computer whose turn it is acts once: it answers a draw offer, else deploys or moves.
/// It decides from its seat's view only. Returns whether it acted.
fn computer_acts<G: GameScreen>(ctx: &Rc<Ctx>, s: &mut Session<G>) -> bool {
    let Some((seat, strength)) = s.computer_to_act() else {
        return false;
    };
    let Some(game) = s.local() else { return false };
    let actor = Actor::Seat(seat);
    let view = game.game().view(Viewer::Seat(seat));
    let action = if game.legal_actions(actor).contains(&Action::AcceptDraw) {
        if G::computer_accepts_draw(&view, seat) {
            Action::AcceptDraw
        } else {
            Action::DeclineDraw
        }
    } else {
        let options = game.game().options();
        if let Some(search) = G::computer_search(&view, seat, options, strength) {
            start_thinking(ctx, s, search);
            return false;
        }
        match G::computer_move(&view, seat, options, strength) {
            Some(mv) => Action::Play(mv),
            None => return false,
        }
    };
    let stored = ctx.games().and_then(|mut store| {
        truth::store_and_apply(&mut *store, ctx.now(), s.id, &mut s.source, actor, &action)
    });
    if let Err(e) = stored {
        show_error(ctx, &e);
        return false;
    }
    sent(ctx, false);
    s.selected = None;
    true
}

/// Starts the computer's search on a thread of its own, unless it already runs for the game
/// as it stands. Its move arrives in [`computer_found`].
fn start_thinking<G: GameScreen>(ctx: &Rc<Ctx>, s: &mut Session<G>, search: Search<G::Move>) {
    let at = s.version();
    if s.thinking.as_ref().is_some_and(|t| t.at == at) {
        return;
    }
    let id = s.id;
    s.thinking = Some(Thinking::start(
        ctx,
        at,
        search,
        move |ctx, token, found| computer_found::<G>(ctx, id, token, found),
    ));
}

/// The computer's search `token` found its move for game `id`: stored, then shown (with its
/// sound and the end, if the game's screen is up). A move from a search no longer waited for
/// (the game changed: an undo, a resignation; or it closed) is dropped.
pub(crate) fn computer_found<G: GameScreen>(
    ctx: &Rc<Ctx>,
    id: GameId,
    token: u64,
    found: Option<G::Move>,
) {
    let seat = slot::<G>(ctx).borrow().as_ref().and_then(|s| {
        let waited = s.id == id
            && Thinking::is(&s.thinking, token)
            && s.thinking.as_ref().is_some_and(|t| t.at == s.version());
        waited.then(|| s.computer_to_act().map(|(seat, _)| seat))?
    });
    let (Some(mv), Some(seat)) = (found, seat) else {
        return;
    };
    transition::<G>(ctx, |s| {
        s.thinking = None;
        s.before_reply = Some((s.viewer, s.view()));
        s.selected = None;
        commit(ctx, s, Actor::Seat(seat), &Action::Play(mv))
    });
}

/// Arms the timer for what happens next without a tap, in a game that paces it: the
/// computer's action, or the only possible move played for a person (a setting).
pub(crate) fn schedule<G: GameScreen>(ctx: &Rc<Ctx>) {
    let guard = slot::<G>(ctx).borrow();
    let Some(s) = guard.as_ref() else { return };
    s.timer.stop();
    if s.review.is_some() || s.outcome().is_some() {
        return;
    }
    let weak = Rc::downgrade(ctx);
    let step = move |computer: bool| {
        move || {
            if let Some(ctx) = weak.upgrade() {
                paced_step::<G>(&ctx, computer);
            }
        }
    };
    if let Some(pause) = G::COMPUTER_PAUSE
        && s.computer_to_act().is_some()
    {
        s.timer.start(TimerMode::SingleShot, pause, step(true));
    } else if ctx.settings.borrow().auto_move && s.person_to_act() && G::only_move(s).is_some() {
        s.timer
            .start(TimerMode::SingleShot, AUTO_MOVE_PAUSE, step(false));
    }
}

/// How long the screen waits before a move made for the player (the only possible one).
const AUTO_MOVE_PAUSE: Duration = Duration::from_millis(900);

/// The timer's step: the computer acts, or the only possible move is played. Nothing happens
/// while the game's screen is not showing: the step waits for the player's return.
fn paced_step<G: GameScreen>(ctx: &Rc<Ctx>, computer: bool) {
    if !on_screen::<G>(ctx) {
        return;
    }
    if !computer {
        let only = slot::<G>(ctx)
            .borrow()
            .as_ref()
            .filter(|s| s.person_to_act())
            .and_then(|s| Some((s.viewer, G::only_move(s)?)));
        if let Some((seat, mv)) = only {
            act::<G>(ctx, Actor::Seat(seat), Action::Play(mv));
        }
        return;
    }
    transition::<G>(ctx, |s| Ok(computer_acts(ctx, s)));
}

/// A player's action: stored (or queued for the server), then the computer's answer, then
/// shown.
pub(crate) fn act<G: GameScreen>(ctx: &Rc<Ctx>, actor: Actor, action: Action<G::Move>) {
    let remote = slot::<G>(ctx)
        .borrow()
        .as_ref()
        .is_some_and(|s| s.remote.is_some());
    let done = transition::<G>(ctx, |s| {
        commit(ctx, s, actor, &action)?;
        s.selected = None;
        s.declined_by = None;
        Ok(true)
    });
    if remote && done.is_some_and(|d| d.result.is_ok() && !d.ended) {
        ctx.ui()
            .global::<GameSession>()
            .set_sync_line(SyncLine::Sending);
    }
}

/// Commits an action to the game's truth: stored and applied where this device is the
/// authority, else queued for the server (applied here where the record is here). Then tells
/// the sync worker: the server's outbox, or a page the game is shared on.
fn commit<G: GameScreen>(
    ctx: &Rc<Ctx>,
    s: &mut Session<G>,
    actor: Actor,
    action: &Action<G::Move>,
) -> Result<bool, String> {
    let remote = s.remote.is_some();
    let (id, now) = (s.id, ctx.now());
    let mut store = ctx.games()?;
    let store = &mut *store;
    if s.seen().is_some() {
        truth::queue_remote(store, id, &mut s.source, action)?;
        s.draft = None;
    } else if remote {
        truth::queue_local(store, now, id, &mut s.source, actor, action)?;
    } else {
        truth::store_and_apply(store, now, id, &mut s.source, actor, action)?;
    }
    sent(ctx, remote);
    Ok(true)
}

/// Tells the sync worker that a game changed: a correspondence game's outbox has an action to
/// send; a game kept here may be shared on a page that follows it.
pub(crate) fn sent(ctx: &Ctx, remote: bool) {
    ctx.send(if remote {
        Command::Flush
    } else {
        Command::SendUploads
    });
}

/// What a [`transition`] did.
#[derive(Debug)]
pub(crate) struct Done {
    /// Whether the change moved the game on, or why it failed (shown to the player).
    pub result: Result<bool, String>,
    /// The game ended with it.
    pub ended: bool,
}

/// The one way the session moves on, whatever moved it (a player's action, the computer's
/// search, the timer, the sync worker): takes the session out of its slot and lets `change`
/// change it; when the game moved on (`Ok(true)`), the computer answers (when it plays here
/// and is due) and whose view shows is settled; puts the session back; then, where the
/// game's screen shows, the error, the louder sound of what changed, the end dialog once it
/// has just ended, the board drawn again; and arms the timer for what comes next.
pub(crate) fn transition<G: GameScreen>(
    ctx: &Rc<Ctx>,
    change: impl FnOnce(&mut Session<G>) -> Result<bool, String>,
) -> Option<Done> {
    let mut s = slot::<G>(ctx).borrow_mut().take()?;
    let (before, was_over) = (s.view(), s.outcome().is_some());
    let result = change(&mut s);
    let mut sound = None;
    if let Ok(true) = result {
        // What changed first, then the computer's answer: the louder sound of the two.
        let first = sound_of_change(&s, &before, was_over, None);
        let (mid, mid_over) = (s.view(), s.outcome().is_some());
        s.forget_stale_searches();
        run_computer(ctx, &mut s);
        sound = sound_of_change(&s, &mid, mid_over, first);
        settle_viewer(&mut s, false);
    }
    let ended = !was_over && s.outcome().is_some();
    *slot::<G>(ctx).borrow_mut() = Some(s);
    if let Err(e) = &result {
        show_error(ctx, e);
    } else if on_screen::<G>(ctx) {
        if let Some(sound) = sound {
            ctx.play_sound(sound);
        }
        if ended {
            ctx.ui().global::<GameSession>().set_show_end_dialog(true);
        }
    }
    refresh::<G>(ctx);
    schedule::<G>(ctx);
    Some(Done { result, ended })
}

/// Whether the screen of game `G` shows.
pub(crate) fn on_screen<G: GameScreen>(ctx: &Ctx) -> bool {
    ctx.ui().global::<qiguan_ui::Nav>().get_screen() == G::SCREEN
}
