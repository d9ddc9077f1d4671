//! A session's life: a new game started and stored, a stored game opened (behind the
//! hand-over screen if it has secrets), reloaded after the sync worker changed it, and its
//! sync line.

use super::session::{GameScreen, Session, shown, slot};
use super::turn::{on_screen, run_computer, schedule, settle_viewer, transition};
use super::view::refresh;
use super::{phrases, secret, truth};
use crate::shell::ctx::Ctx;
use crate::store::{GameId, Mode, NewGame, Standing};
use crate::sync::Command;
use qiguan_core::fair::Dealer;
use qiguan_core::{Match, Seat, Strength};
use qiguan_ui::{GameSession, Screen, SyncLine};
use slint::ComponentHandle;
use std::rc::Rc;

/// Starts a new game on this device, from a start the player set up (none: the usual one):
/// stores it with what this device dealt as the authority (the operating system's
/// randomness), lets the computer deploy, and opens it.
pub(crate) fn start_from<G: GameScreen>(
    ctx: &Rc<Ctx>,
    options: &G::Options,
    setup: Option<&G::Setup>,
    players: Vec<String>,
    computers: Vec<Option<Strength>>,
) -> Result<GameId, String> {
    let mut game: Match<G> = Match::new(options, setup).map_err(|e| e.to_string())?;
    // This device deals and rolls: it commits to a seed before anything is drawn, and draws
    // each deal from every seat's contribution (see qiguan_core::fair).
    let dealer = game
        .game()
        .has_chance()
        .then(|| Dealer::new(crate::shell::random::chance_seed()));
    if let Some(dealer) = &dealer {
        game.deal_with(dealer.clone())?;
    }
    let seats: Vec<String> = (0..game.game().seat_count())
        .map(|_| crate::shell::random::contribution())
        .collect();
    let dealt =
        crate::shell::random::resolve_chance(&mut game, &seats).map_err(|e| e.to_string())?;
    // One person against the computer is filed as such; two or more people as pass and play.
    let people = computers.iter().filter(|c| c.is_none()).count();
    let mode = match computers.iter().position(Option::is_some) {
        Some(seat) if people <= 1 => Mode::Computer(seat as u8),
        _ => Mode::PassAndPlay,
    };
    let mut new = NewGame::from_record(&game.record(), mode, players);
    new.chance_seed = dealer.as_ref().map(Dealer::seed_hex);
    let standing = Standing::new(&dealt, game.outcome());
    let now = ctx.now();
    let id = ctx
        .games()?
        .create(&new, &dealt, &standing, &computers, now)
        .map_err(|e| e.to_string())?;
    ctx.reset_to(Screen::Home);
    open::<G>(ctx, id);
    Ok(id)
}

/// Loads a stored game and shows it: behind the hand-over screen if it has secrets.
pub(crate) fn open<G: GameScreen>(ctx: &Rc<Ctx>, id: GameId) {
    // The computer's search for this game goes on across leaving and coming back.
    let mut thinking = None;
    if let Some(old) = slot::<G>(ctx).borrow_mut().take() {
        old.timer.stop();
        if old.id == id {
            thinking = old.thinking;
        }
    }
    match load::<G>(ctx, id) {
        Ok(mut session) => {
            session.thinking = thinking;
            session.forget_stale_searches();
            run_computer(ctx, &mut session);
            settle_viewer(&mut session, true);
            let online = session.remote.is_some();
            *slot::<G>(ctx).borrow_mut() = Some(session);
            let ui = ctx.ui();
            let a = ui.global::<GameSession>();
            a.set_show_end_dialog(false);
            a.set_confirm_resign(false);
            a.set_sync_line(SyncLine::Current);
            secret::clear_panels(&ui);
            refresh::<G>(ctx);
            ctx.go(G::SCREEN);
            schedule::<G>(ctx);
            if online {
                ctx.send(Command::Watch(Some(id)));
                ctx.send(Command::Flush);
            }
        }
        Err(e) => crate::shell::bind::show_error(ctx, &e),
    }
}

fn load<G: GameScreen>(ctx: &Rc<Ctx>, id: GameId) -> Result<Session<G>, String> {
    let loaded = truth::load::<G>(&mut *ctx.games()?, id)?;
    let mut session = Session::new(id, loaded);
    session.phrases = phrases::load(ctx, id, session.remote.as_ref());
    Ok(session)
}

/// Reloads the open game if the sync worker changed it, keeping a deployment being arranged;
/// what arrived (the opponent's move, a battle's result, the end) sounds as it would at the
/// table.
pub(crate) fn reload_if_open<G: GameScreen>(ctx: &Rc<Ctx>, ids: &[GameId]) {
    let Some(id) = shown::<G>(ctx) else { return };
    if !ids.contains(&id) || !on_screen::<G>(ctx) {
        return;
    }
    transition::<G>(ctx, |s| {
        let mut session = load::<G>(ctx, id)?;
        session.declined_by = declined_by(s, &session);
        let old = std::mem::replace(s, session);
        s.before_reply = old.before_reply;
        s.draft = old.draft;
        s.selected = old.selected;
        s.board = old.board;
        s.thinking = old.thinking;
        s.hinting = old.hinting;
        s.hint = old.hint;
        Ok(true)
    });
}

/// The seat that declined the viewer's draw offer, as a reload shows it in a correspondence
/// game whose record the server keeps: the offer gone with the game going on (a game whose
/// record is on this device says so from its record).
fn declined_by<G: GameScreen>(old: &Session<G>, new: &Session<G>) -> Option<Seat> {
    let offered =
        old.source.draw_offer().is_some_and(|o| o.by == old.viewer) || old.source.offer_pending();
    let gone = new.source.draw_offer().is_none() && !new.source.offer_pending();
    if new.local().is_none()
        && new.version() > old.version()
        && offered
        && gone
        && new.outcome().is_none()
    {
        new.seats().find(|&seat| seat != new.viewer)
    } else {
        old.declined_by
    }
}

/// Shows whether the open correspondence game's actions have reached the server.
pub(crate) fn set_sync_status<G: GameScreen>(ctx: &Rc<Ctx>, online: bool, pending: usize) {
    let on_screen = ctx.ui().global::<qiguan_ui::Nav>().get_screen() == G::SCREEN;
    let remote = slot::<G>(ctx)
        .borrow()
        .as_ref()
        .is_some_and(|s| s.remote.is_some());
    if on_screen && remote {
        ctx.ui()
            .global::<GameSession>()
            .set_sync_line(truth::sync_line(online, pending));
    }
}
