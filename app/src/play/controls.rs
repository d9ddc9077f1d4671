//! What the players ask of the session: a tap on the board, the `GameSession` global's calls
//! (resign, draw, undo, hint, review, phrases, hand-over), each becoming a [`turn`](super::turn)
//! or a change of what shows.

use super::phrases;
use super::search::Thinking;
use super::session::{Call, GameScreen, Session, shown, slot};
use super::truth::Source;
use super::turn::{act, settle_viewer};
use super::view::refresh;
use crate::shell::ctx::Ctx;
use crate::store::Standing;
use crate::sync::Command;
use qiguan_core::{Action, Actor, Match};
use qiguan_ui::GameSession;
use slint::ComponentHandle;
use std::rc::Rc;

/// Handles a call from the `GameSession` or `Deployment` global for the game on screen.
pub(crate) fn call<G: GameScreen>(ctx: &Rc<Ctx>, call: Call) {
    match call {
        Call::HandoverDone => {
            if let Some(s) = slot::<G>(ctx).borrow_mut().as_mut() {
                s.handover = false;
            }
        }
        Call::Resign => return viewer_acts::<G>(ctx, Action::Resign),
        Call::OfferDraw => return viewer_acts::<G>(ctx, Action::OfferDraw),
        Call::Undo => return undo::<G>(ctx),
        Call::Hint => start_hint::<G>(ctx),
        Call::Arrange(what) => return G::arrange(ctx, what),
        Call::AnswerDraw(accept) => return answer_draw::<G>(ctx, accept),
        Call::Review => {
            let Some(id) = shown::<G>(ctx) else { return };
            ctx.ui().global::<GameSession>().set_show_end_dialog(false);
            if G::review_elsewhere(ctx, id) {
                return;
            }
            if let Some(s) = slot::<G>(ctx).borrow_mut().as_mut()
                && s.local().is_some()
            {
                s.review = Some(s.version());
                s.selected = None;
            }
        }
        Call::ReviewStep(step) => {
            if let Some(s) = slot::<G>(ctx).borrow_mut().as_mut()
                && let Some(at) = s.review
            {
                let next = at as i64 + step as i64;
                s.review = Some(next.clamp(0, s.version() as i64) as usize);
            }
        }
        Call::Say(phrase) => {
            let said = match slot::<G>(ctx).borrow_mut().as_mut() {
                Some(s) => match s.remote.clone() {
                    Some(remote) => {
                        phrases::say(ctx, s.id, &remote, phrase).map(|list| s.phrases = list)
                    }
                    None => Ok(()),
                },
                None => Ok(()),
            };
            if let Err(e) = said {
                crate::shell::bind::show_error(ctx, &e);
            }
        }
    }
    refresh::<G>(ctx);
}

/// A tap on the board's cell `index`: what it means is the game's ([`GameScreen::tap`]).
pub(crate) fn tap<G: GameScreen>(ctx: &Rc<Ctx>, index: i32) {
    play_with::<G>(ctx, |s| G::tap(ctx, s, index));
}

/// Lets `choose` change the session's selection or draft, and plays the move it returns.
/// Nothing happens behind the hand-over screen, in review or at the end.
pub(crate) fn play_with<G: GameScreen>(
    ctx: &Rc<Ctx>,
    choose: impl FnOnce(&mut Session<G>) -> Option<G::Move>,
) {
    let chosen = {
        let mut guard = slot::<G>(ctx).borrow_mut();
        let Some(s) = guard.as_mut() else { return };
        if s.handover || s.review.is_some() || s.outcome().is_some() {
            return;
        }
        s.refusal = None;
        choose(s)
    };
    match chosen {
        Some(mv) => viewer_acts::<G>(ctx, Action::Play(mv)),
        None => refresh::<G>(ctx),
    }
}

/// Changes the session's own state (a selection, the board's orientation) and draws it.
pub(crate) fn update<G: GameScreen>(ctx: &Rc<Ctx>, change: impl FnOnce(&mut Session<G>)) {
    if let Some(s) = slot::<G>(ctx).borrow_mut().as_mut() {
        change(s);
    }
    refresh::<G>(ctx);
}

/// Answers the standing draw offer, as the seat that may ([`Session::answerer`]).
fn answer_draw<G: GameScreen>(ctx: &Rc<Ctx>, accept: bool) {
    let answerer = slot::<G>(ctx).borrow().as_ref().and_then(Session::answerer);
    let answer = if accept {
        Action::AcceptDraw
    } else {
        Action::DeclineDraw
    };
    if let Some(seat) = answerer {
        act::<G>(ctx, Actor::Seat(seat), answer);
    }
}

/// Takes back the last action (with the computer's answer to it, when it plays): stored
/// first, then shown.
fn undo<G: GameScreen>(ctx: &Rc<Ctx>) {
    let Some(mut s) = slot::<G>(ctx).borrow_mut().take() else {
        return;
    };
    let result = if s.can_undo() {
        take_back(ctx, &mut s)
    } else {
        Ok(())
    };
    *slot::<G>(ctx).borrow_mut() = Some(s);
    match result {
        Err(e) => crate::shell::bind::show_error(ctx, &e),
        Ok(()) => ctx.send(Command::SendUploads),
    }
    ctx.ui().global::<GameSession>().set_show_end_dialog(false);
    refresh::<G>(ctx);
}

fn take_back<G: GameScreen>(ctx: &Rc<Ctx>, s: &mut Session<G>) -> Result<(), String> {
    s.before_reply = None;
    let Some(game) = s.local() else {
        return Ok(());
    };
    let computer = |g: &Match<G>| {
        s.seats()
            .any(|seat| s.computer(seat).is_some() && g.to_act().includes(Actor::Seat(seat)))
    };
    // Draw talk since the last move (an offer and the computer's answer to it) goes with it:
    // undo takes back a move.
    let mut len = game.version();
    while len > 0 && qiguan_core::action::is_draw_talk(&game.actions()[len - 1].action) {
        len -= 1;
    }
    let previous = loop {
        if len == 0 {
            return Ok(());
        }
        len -= 1;
        let previous: Match<G> = game.rewound(len).map_err(|e| e.to_string())?;
        if len == 0 || !computer(&previous) {
            break previous;
        }
    };
    let standing = Standing::new(previous.actions(), previous.outcome());
    let (id, now) = (s.id, ctx.now());
    ctx.games()?
        .truncate(id, len, &standing, previous.fairness().as_ref(), now)
        .map_err(|e| e.to_string())?;
    s.source = Source::Local(Box::new(previous));
    s.selected = None;
    s.forget_stale_searches();
    settle_viewer(s, false);
    Ok(())
}

/// The viewer acts: a move chosen on the board, a deployment, a draw offer or resignation.
pub(crate) fn viewer_acts<G: GameScreen>(ctx: &Rc<Ctx>, action: Action<G::Move>) {
    let seat = slot::<G>(ctx).borrow().as_ref().map(|s| s.viewer);
    if let Some(seat) = seat {
        act::<G>(ctx, Actor::Seat(seat), action);
    }
}

/// Starts the search for a hint for the person to act; it shows on the board once found.
fn start_hint<G: GameScreen>(ctx: &Rc<Ctx>) {
    let mut guard = slot::<G>(ctx).borrow_mut();
    let Some(s) = guard.as_mut() else { return };
    if !s.can_hint() {
        return;
    }
    let Some(search) = G::hint_search(s) else {
        return;
    };
    let (id, at) = (s.id, s.version());
    s.hinting = Some(Thinking::start(
        ctx,
        at,
        search,
        move |ctx, token, found| {
            update::<G>(ctx, |s| {
                if s.id == id && s.version() == at && Thinking::is(&s.hinting, token) {
                    s.hinting = None;
                    s.hint = Some((at, found));
                }
            });
        },
    ));
}
