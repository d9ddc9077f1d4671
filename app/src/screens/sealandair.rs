//! The Sea-land-air screen: deployment, pass-and-play behind the hand-over screen (or against
//! the computer), correspondence through a server, moves and attacks on land, at sea and in the
//! air, draw offers, the end, and a review of a finished game with every piece shown.
//!
//! In a game on this device, the device is the referee: it runs the computer player and shows
//! each seat only that seat's view; every action is stored before it is shown. In a
//! correspondence game the server referees: the device keeps only its seat's last view, queues
//! the seat's actions (stored before they show as sent), and shows the server's answer. What
//! this shares with Junqi's screen is in [`super::hidden`].

use super::handler;
use super::handler0;
use super::hidden::{self, Seen, Source};
use super::new_game::two_seats;
use super::registry::{GameEntry, OnlineChoice};
use crate::ctx::Ctx;
use crate::ctx::Sessions;
use crate::online::Command;
use crate::random::random_seed;
use crate::store::{GameId, Mode, NewGame, RemoteGame, Standing};
use qiguan_core::junqi::Side;
use qiguan_core::sealandair::{
    Deployment, Kind, Label, Layer, Move, Point, SeaLandAir, SeaLandAirEvent, SeaLandAirMove,
    SeaLandAirOptions, SeaLandAirView, SeenPiece, SeenPlay, bot, map,
};
use qiguan_core::{Action, Actor, AnyMatch, GameKind, Match, Outcome, Rules, Seat, ToAct, Viewer};
use qiguan_ui::{NewGameAdapter, Screen, SlaAdapter, SlaCell};
use slint::{ComponentHandle, ModelRc, SharedString, VecModel};
use std::cell::RefCell;
use std::rc::Rc;

/// A Sea-land-air game on the screen.
pub struct SlaSession {
    id: GameId,
    source: Source<SeaLandAir>,
    players: [String; 2],
    /// The seat the computer plays, if any.
    computer: Option<Seat>,
    remote: Option<RemoteGame>,
    /// The seat whose view is on the screen.
    viewer: Seat,
    /// The hand-over screen is up: nothing of the board shows.
    handover: bool,
    selected: Option<Point>,
    /// The viewer's deployment being arranged.
    draft: Option<Deployment>,
    /// In review: the number of actions shown.
    review: Option<usize>,
    /// The last action whose banner has been shown, and to which seat.
    shown: RefCell<Option<(Seat, SeenPlay)>>,
    cells: Rc<VecModel<SlaCell>>,
    /// The orientation the board paths were last drawn for.
    drawn_flipped: RefCell<Option<bool>>,
}

const fn side_of(seat: Seat) -> Side {
    if seat.index() == 0 {
        Side::South
    } else {
        Side::North
    }
}

impl SlaSession {
    fn local(&self) -> Option<&Match<SeaLandAir>> {
        self.source.local()
    }

    fn seen(&self) -> Option<&Seen<SeaLandAir>> {
        self.source.seen()
    }

    fn options(&self) -> SeaLandAirOptions {
        self.source.options()
    }

    fn view(&self) -> SeaLandAirView {
        self.source.match_view(self.viewer).game
    }

    fn to_act(&self) -> ToAct {
        self.source.to_act()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.source.outcome()
    }

    fn version(&self) -> usize {
        self.source.version()
    }

    fn deploying(&self) -> bool {
        match &self.source {
            Source::Local(game) => game.game().deploying(),
            Source::Remote(seen) => seen.view.game.deployed.iter().any(|d| !d),
        }
    }

    /// The viewer's deployment waiting for the server, if any.
    fn pending_deployment(&self) -> Option<Deployment> {
        let seen = self.seen()?;
        seen.pending
            .iter()
            .find_map(|a| a.strip_prefix("deploy:"))
            .and_then(|text| Deployment::from_text(side_of(self.viewer), text).ok())
    }

    fn legal(&self) -> Vec<Action<SeaLandAirMove>> {
        self.source.legal(self.viewer)
    }

    fn legal_moves(&self) -> Vec<Move> {
        self.legal()
            .into_iter()
            .filter_map(|a| match a {
                Action::Play(SeaLandAirMove::Go(m)) => Some(m),
                _ => None,
            })
            .collect()
    }

    /// The seat this device always shows: the person's against the computer, its own in a
    /// correspondence game; none in pass-and-play.
    fn fixed_seat(&self) -> Option<Seat> {
        self.computer
            .map(|bot| bot.next(2))
            .or_else(|| self.remote.as_ref().and_then(|r| Seat::new(r.seat)))
    }

    /// North at the bottom when North is looking.
    fn flipped(&self) -> bool {
        side_of(self.viewer) == Side::North
    }
}

/// Sea-land-air in the registry of games.
pub(crate) const ENTRY: GameEntry = GameEntry {
    kind: GameKind::SeaLandAir,
    screen: Screen::Sealandair,
    connect,
    sessions: || vec![Sessions::slot::<SlaSession>()],
    open,
    review: |ctx, id, _| open(ctx, id),
    shown: |ctx| slot(ctx).borrow().as_ref().map(|s| s.id),
    reload_if_open,
    set_sync_status,
    start: start_chosen,
    online: |a, side| OnlineChoice::two_people(chosen_options(a), side),
};

pub fn connect(ctx: &Rc<Ctx>) {
    let ui = ctx.ui();
    let a = ui.global::<SlaAdapter>();
    a.on_cell_clicked(handler(ctx, |ctx, i: i32| cell_clicked(ctx, i)));
    a.on_handover_done(handler0(ctx, |ctx| {
        if let Some(s) = slot(ctx).borrow_mut().as_mut() {
            s.handover = false;
        }
        refresh(ctx);
    }));
    a.on_deploy_random(handler0(ctx, |ctx| {
        if let Some(s) = slot(ctx).borrow_mut().as_mut()
            && s.draft.is_some()
        {
            s.draft = Some(Deployment::sensible(side_of(s.viewer), random_seed()));
            s.selected = None;
        }
        refresh(ctx);
    }));
    a.on_deploy_ready(handler0(ctx, |ctx| {
        let chosen = slot(ctx).borrow().as_ref().and_then(|s| {
            let d = s.draft.as_ref()?;
            d.validate().ok()?;
            Some((s.viewer, SeaLandAirMove::Deploy(d.to_text())))
        });
        if let Some((seat, mv)) = chosen {
            act(ctx, Actor::Seat(seat), Action::Play(mv));
        }
    }));
    a.on_resign(handler0(ctx, |ctx| viewer_acts(ctx, Action::Resign)));
    a.on_offer_draw(handler0(ctx, |ctx| viewer_acts(ctx, Action::OfferDraw)));
    a.on_answer_draw(handler(ctx, |ctx, accept: bool| {
        viewer_acts(
            ctx,
            if accept {
                Action::AcceptDraw
            } else {
                Action::DeclineDraw
            },
        )
    }));
    a.on_review(handler0(ctx, |ctx| {
        if let Some(s) = slot(ctx).borrow_mut().as_mut()
            && s.local().is_some()
        {
            s.review = Some(s.version());
            s.selected = None;
        }
        refresh(ctx);
    }));
    a.on_review_step(handler(ctx, |ctx, step: i32| {
        if let Some(s) = slot(ctx).borrow_mut().as_mut()
            && let Some(at) = s.review
        {
            let next = at as i64 + step as i64;
            s.review = Some(next.clamp(0, s.version() as i64) as usize);
        }
        refresh(ctx);
    }));
    a.on_new_game(handler0(ctx, |ctx| {
        ctx.ui().global::<SlaAdapter>().set_show_end_dialog(false);
        ctx.reset_to(Screen::Home);
        super::new_game::open(ctx, GameKind::SeaLandAir);
    }));
}

/// The viewer resigns, offers a draw or answers one.
fn viewer_acts(ctx: &Rc<Ctx>, action: Action<SeaLandAirMove>) {
    let seat = slot(ctx).borrow().as_ref().map(|s| s.viewer);
    if let Some(seat) = seat {
        act(ctx, Actor::Seat(seat), action);
    }
}

/// Starts a new game on this device: stores it, lets the computer deploy, and opens it.
pub fn start(
    ctx: &Rc<Ctx>,
    options: &SeaLandAirOptions,
    players: Vec<String>,
    computer: Option<Seat>,
) -> Result<GameId, String> {
    let game: Match<SeaLandAir> = Match::new(options, None).map_err(|e| e.to_string())?;
    let mode = computer.map_or(Mode::PassAndPlay, |s| Mode::Computer(s.index() as u8));
    let any = AnyMatch::SeaLandAir(game.clone());
    let mut new = NewGame::from_match(&any, mode, players);
    new.kind = GameKind::SeaLandAir;
    let standing = Standing::new(&[], game.outcome());
    let now = ctx.now();
    let id = ctx
        .with_store(|store| store.create_game_with(&new, &[], &standing, now))
        .map_err(|e| e.to_string())?;
    ctx.reset_to(Screen::Home);
    open(ctx, id);
    Ok(id)
}

/// Returns the Sea-land-air options chosen on the screen.
fn chosen_options(a: &NewGameAdapter<'_>) -> SeaLandAirOptions {
    SeaLandAirOptions {
        open: a.get_sla_open(),
        ..SeaLandAirOptions::default()
    }
}

/// Starts the game New game chose.
fn start_chosen(ctx: &Rc<Ctx>, a: &NewGameAdapter<'_>) {
    let (players, computer) = two_seats(a);
    if let Err(e) = start(ctx, &chosen_options(a), players, computer) {
        super::show_error(ctx, &e);
    }
}

/// Loads a stored game and shows it, behind the hand-over screen.
pub fn open(ctx: &Rc<Ctx>, id: GameId) {
    match load(ctx, id) {
        Ok(mut session) => {
            run_computer(ctx, &mut session);
            settle_viewer(&mut session, true);
            let online = session.remote.is_some();
            *slot(ctx).borrow_mut() = Some(session);
            let ui = ctx.ui();
            let a = ui.global::<SlaAdapter>();
            a.set_show_end_dialog(false);
            a.set_confirm_resign(false);
            a.set_sync_status("".into());
            refresh(ctx);
            ctx.go(Screen::Sealandair);
            if online {
                ctx.send(Command::Watch(Some(id)));
                ctx.send(Command::Flush);
            }
        }
        Err(e) => super::show_error(ctx, &e),
    }
}

fn load(ctx: &Rc<Ctx>, id: GameId) -> Result<SlaSession, String> {
    let loaded = hidden::load::<SeaLandAir>(ctx, id)?;
    Ok(SlaSession {
        id,
        source: loaded.source,
        players: loaded.players,
        computer: loaded.computer,
        remote: loaded.remote,
        viewer: loaded.viewer,
        handover: false,
        selected: None,
        draft: None,
        review: None,
        shown: RefCell::new(None),
        cells: Rc::new(VecModel::default()),
        drawn_flipped: RefCell::new(None),
    })
}

/// Reloads the open game if the sync worker changed it, keeping a deployment being arranged.
pub fn reload_if_open(ctx: &Rc<Ctx>, ids: &[GameId]) {
    let Some(id) = slot(ctx).borrow().as_ref().map(|s| s.id) else {
        return;
    };
    if !ids.contains(&id) || ctx.ui().global::<qiguan_ui::Nav>().get_screen() != Screen::Sealandair
    {
        return;
    }
    let (was_over, draft, selected, shown) = match slot(ctx).borrow_mut().as_mut() {
        Some(s) => (
            s.outcome().is_some(),
            s.draft.take(),
            s.selected,
            s.shown.take(),
        ),
        None => return,
    };
    match load(ctx, id) {
        Ok(mut session) => {
            session.shown = RefCell::new(shown);
            session.draft = draft;
            session.selected = selected;
            settle_viewer(&mut session, false);
            let over = session.outcome().is_some();
            *slot(ctx).borrow_mut() = Some(session);
            if over && !was_over {
                ctx.ui().global::<SlaAdapter>().set_show_end_dialog(true);
            }
            refresh(ctx);
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
    ctx.ui()
        .global::<SlaAdapter>()
        .set_sync_status(hidden::sync_line(online, pending).into());
}

/// Picks whose view shows and raises the hand-over screen when the view passes to the other
/// player (unless open mode has nothing left to hide).
fn settle_viewer(s: &mut SlaSession, opening: bool) {
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
    let secrets = !s.options().open || s.deploying();
    if fixed.is_none() && secrets && (changed || opening) {
        s.handover = true;
    }
    if changed {
        s.selected = None;
        s.draft = None;
    }
    let deployed = s.view().deployed[next.index()] || s.pending_deployment().is_some();
    if !s.deploying() || deployed {
        s.draft = None;
    } else if s.draft.is_none() {
        s.draft = Some(Deployment::sensible(side_of(next), random_seed()));
    }
}

/// Lets the computer act for as long as it is due, storing each action: it answers a draw
/// offer (accepting only when it has fewer pieces), then deploys or moves.
fn run_computer(ctx: &Rc<Ctx>, s: &mut SlaSession) {
    let Some(bot_seat) = s.computer else { return };
    for _ in 0..4 {
        let Some(game) = s.local() else { return };
        let actor = Actor::Seat(bot_seat);
        let view = game.game().view(Viewer::Seat(bot_seat));
        let answerable = game.legal_actions(actor).contains(&Action::AcceptDraw);
        let action = if answerable {
            if bot::accepts_draw(&view, bot_seat) {
                Action::AcceptDraw
            } else {
                Action::DeclineDraw
            }
        } else {
            if !game.to_act().includes(actor) {
                return;
            }
            match bot::choose(&view, bot_seat, random_seed()) {
                Some(mv) => Action::Play(mv),
                None => return,
            }
        };
        if let Err(e) = store_and_apply(ctx, s, actor, &action) {
            super::show_error(ctx, &e);
            return;
        }
    }
}

/// Stores and applies an action of a game on this device.
fn store_and_apply(
    ctx: &Rc<Ctx>,
    s: &mut SlaSession,
    actor: Actor,
    action: &Action<SeaLandAirMove>,
) -> Result<(), String> {
    hidden::store_and_apply(ctx, s.id, &mut s.source, actor, action)?;
    s.selected = None;
    Ok(())
}

/// Queues a correspondence game's action for the server (stored before it shows as sent).
fn queue_remote(
    ctx: &Rc<Ctx>,
    s: &mut SlaSession,
    action: &Action<SeaLandAirMove>,
) -> Result<(), String> {
    hidden::queue_remote(ctx, s.id, &mut s.source, action)?;
    s.selected = None;
    s.draft = None;
    Ok(())
}

/// A player's action: stored, then the computer's answer, then shown.
fn act(ctx: &Rc<Ctx>, actor: Actor, action: Action<SeaLandAirMove>) {
    let Some(mut s) = slot(ctx).borrow_mut().take() else {
        return;
    };
    let remote = s.seen().is_some();
    let result = if remote {
        queue_remote(ctx, &mut s, &action)
    } else {
        store_and_apply(ctx, &mut s, actor, &action)
    };
    if result.is_ok() {
        run_computer(ctx, &mut s);
        settle_viewer(&mut s, false);
    }
    let over = s.outcome().is_some();
    *slot(ctx).borrow_mut() = Some(s);
    match result {
        Err(e) => super::show_error(ctx, &e),
        Ok(()) if over => ctx.ui().global::<SlaAdapter>().set_show_end_dialog(true),
        Ok(()) if remote => ctx
            .ui()
            .global::<SlaAdapter>()
            .set_sync_status("sending".into()),
        Ok(()) => {}
    }
    refresh(ctx);
}

fn cell_clicked(ctx: &Rc<Ctx>, index: i32) {
    let Some(p) = usize::try_from(index).ok().and_then(Point::from_index) else {
        return;
    };
    let chosen = {
        let mut guard = slot(ctx).borrow_mut();
        let Some(s) = guard.as_mut() else { return };
        if s.handover || s.review.is_some() || s.outcome().is_some() {
            return;
        }
        if let Some(draft) = s.draft.as_mut() {
            // Deployment: tap two of your pieces of one kind of place to swap them.
            let has = draft.kind_at(p).is_some();
            match s.selected {
                _ if !has => s.selected = None,
                Some(first) if first == p => s.selected = None,
                Some(first) if same_place(first, p) => {
                    draft.swap(first, p);
                    s.selected = None;
                }
                _ => s.selected = Some(p),
            }
            None
        } else {
            let legal = s.legal_moves();
            match s.selected {
                Some(from) if from == p => {
                    s.selected = None;
                    None
                }
                Some(from) => match legal.iter().find(|m| m.from == from && m.to == p) {
                    Some(m) => Some(*m),
                    None => {
                        s.selected = legal.iter().any(|m| m.from == p).then_some(p);
                        None
                    }
                },
                None => {
                    s.selected = legal.iter().any(|m| m.from == p).then_some(p);
                    None
                }
            }
        }
    };
    match chosen {
        Some(mv) => {
            let seat = slot(ctx).borrow().as_ref().map(|s| s.viewer);
            if let Some(seat) = seat {
                act(ctx, Actor::Seat(seat), Action::Play(SeaLandAirMove::Go(mv)));
            }
        }
        None => refresh(ctx),
    }
}

/// Two placement points of the same kind of place (land, sea, airport).
fn same_place(a: Point, b: Point) -> bool {
    a.layer() == b.layer()
}

/// Pushes the session to the screen.
pub fn refresh(ctx: &Rc<Ctx>) {
    let guard = slot(ctx).borrow();
    let Some(s) = guard.as_ref() else { return };
    let ui = ctx.ui();
    let a = ui.global::<SlaAdapter>();
    let options = s.options();
    let outcome = s.outcome();
    let over = outcome.is_some();
    let view = s.view();
    let flipped = s.flipped();
    if *s.drawn_flipped.borrow() != Some(flipped) {
        draw_paths(&a, flipped);
        *s.drawn_flipped.borrow_mut() = Some(flipped);
    }
    let phase = if s.handover {
        "handover"
    } else if s.review.is_some() {
        "review"
    } else if over {
        "over"
    } else if s.draft.is_some() {
        "deploy"
    } else {
        "play"
    };
    let cells = match (s.review, s.local()) {
        (Some(at), Some(game)) => review_cells(game, at, flipped),
        _ if s.handover => base_cells(flipped),
        _ => view_cells(s, &view, flipped),
    };
    crate::board_view::sync(&s.cells, cells);
    a.set_cells(ModelRc::from(s.cells.clone()));
    a.set_phase(phase.into());
    a.set_viewer(s.viewer.index() as i32);
    a.set_to_move(match s.to_act() {
        ToAct::Seat(seat) => seat.index() as i32,
        _ => -1,
    });
    a.set_bottom_seat(s.viewer.index() as i32);
    a.set_names(ModelRc::new(VecModel::from(
        s.players
            .iter()
            .map(|n| SharedString::from(n.as_str()))
            .collect::<Vec<_>>(),
    )));
    a.set_computer(ModelRc::new(VecModel::from(vec![
        s.computer == Some(Seat::FIRST),
        s.computer == Some(Seat::SECOND),
    ])));
    a.set_quiet_left(options.quiet_plies as i32 - view.quiet_plies as i32);
    a.set_result(super::result_code(outcome.as_ref().map(|o| &o.result)).into());
    a.set_reason(outcome.map(|o| o.reason.as_str()).unwrap_or("").into());
    set_banner(&a, s, &view, matches!(phase, "play" | "over"));
    a.set_flag_misplaced(
        s.draft
            .as_ref()
            .and_then(|d| d.pieces.iter().find(|(_, k)| *k == Kind::Flag))
            .filter(|(p, _)| p.label() != Label::City)
            .map(|(p, _)| p.to_string())
            .unwrap_or_default()
            .into(),
    );
    let (sel_piece, sel_moves, sel_strikes) = match (s.selected, s.draft.is_none()) {
        (Some(from), true) => {
            let moves: Vec<Move> = s
                .legal_moves()
                .into_iter()
                .filter(|m| m.from == from)
                .collect();
            let piece = view
                .pieces
                .iter()
                .find(|p| p.at == from.to_string())
                .and_then(|p| p.kind)
                .map(Kind::chinese)
                .unwrap_or("");
            let strikes = moves.iter().filter(|m| m.remote).count();
            (piece, (moves.len() - strikes) as i32, strikes as i32)
        }
        _ => ("", 0, 0),
    };
    a.set_sel_piece(sel_piece.into());
    a.set_sel_moves(sel_moves);
    a.set_sel_strikes(sel_strikes);
    a.set_review_ply(s.review.unwrap_or(0) as i32);
    a.set_review_plies(s.version() as i32);
    let legal = if over { Vec::new() } else { s.legal() };
    a.set_can_offer_draw(legal.contains(&Action::OfferDraw));
    a.set_can_answer_draw(legal.contains(&Action::AcceptDraw));
    a.set_can_resign(legal.contains(&Action::Resign));
    let pending_offer = s.source.offer_pending();
    a.set_draw_offered_by(match s.source.draw_offer() {
        Some(offer) => offer.by.index() as i32,
        None if pending_offer => s.viewer.index() as i32,
        None => -1,
    });
    a.set_online(s.remote.is_some());
    let deployed_first = s.deploying() && s.draft.is_none();
    a.set_waiting(hidden::waiting(&s.source, s.remote.as_ref(), s.viewer, deployed_first).into());
    a.set_invite(
        s.remote
            .as_ref()
            .and_then(|r| r.invite_code.clone())
            .unwrap_or_default()
            .into(),
    );
}

/// The last fight, as far as the viewer may know it, and what its recon just saw.
fn set_banner(a: &SlaAdapter<'_>, s: &SlaSession, view: &SeaLandAirView, may_show: bool) {
    let mut battle = "";
    let mut at = String::new();
    let mut attacker = String::new();
    let mut defender = String::new();
    let mut attacker_colour = -1;
    let name = |piece: &Option<SeenPiece>| -> String {
        match piece {
            Some(p) => p.kind.map_or_else(|| "?".into(), |k| k.short().into()),
            None => String::new(),
        }
    };
    let last = view.last.as_ref().filter(|_| s.review.is_none());
    if let Some(last) = last {
        match &last.event {
            SeaLandAirEvent::Battle {
                mv,
                attacker_removed,
                defender_removed,
                sent_home,
                ..
            } => {
                let flag = last
                    .defender
                    .as_ref()
                    .is_some_and(|d| d.kind == Some(Kind::Flag))
                    && *defender_removed;
                battle = match (
                    flag,
                    sent_home.is_some(),
                    attacker_removed,
                    defender_removed,
                ) {
                    (true, ..) => "flag",
                    (_, true, ..) => "home",
                    (_, _, true, true) => "both",
                    (_, _, false, true) => "won",
                    (_, _, true, false) => "lost",
                    (_, _, false, false) => "nothing",
                };
                at = mv
                    .parse::<Move>()
                    .map(|m| m.to.to_string())
                    .unwrap_or_default();
                attacker = name(&last.mover);
                defender = name(&last.defender);
                attacker_colour = last.mover.as_ref().map_or(-1, |p| p.side as i32);
            }
            SeaLandAirEvent::Retreated { mv, shot_down } => {
                battle = if *shot_down { "shot-down" } else { "retreat" };
                at = mv
                    .parse::<Move>()
                    .map(|m| m.to.to_string())
                    .unwrap_or_default();
            }
            _ => {}
        }
    }
    a.set_battle(battle.into());
    a.set_battle_at(at.into());
    a.set_battle_attacker(attacker.into());
    a.set_battle_defender(defender.into());
    a.set_battle_attacker_colour(attacker_colour);
    a.set_spotted(0);
    if may_show && let Some(last) = last {
        let key = (s.viewer, last.clone());
        if s.shown.borrow().as_ref() != Some(&key) {
            *s.shown.borrow_mut() = Some(key);
            // The viewer's own recon flight: how many pieces it revealed.
            let mine = last
                .mover
                .as_ref()
                .is_some_and(|m| m.side == side_of(s.viewer) && m.kind == Some(Kind::Recon));
            if mine
                && let SeaLandAirEvent::Moved { mv }
                | SeaLandAirEvent::Battle { mv, .. }
                | SeaLandAirEvent::Retreated { mv, .. } = &last.event
                && let Ok(m) = mv.parse::<Move>()
            {
                // The flight's path: the board as it stood before the flight (the recon back
                // where it took off), since a retreat takes the first line clear to its route.
                let mut path = view.board();
                let recon = path.get(m.to);
                path.set(m.to, None);
                path.set(m.from, recon);
                let over = path.flown_over(m.from, m.to);
                let seen = view
                    .pieces
                    .iter()
                    .filter(|p| p.side != side_of(s.viewer) && p.kind.is_some())
                    .filter(|p| p.at.parse::<Point>().is_ok_and(|q| over.contains(&q)))
                    .count();
                a.set_spotted(seen as i32);
            }
            a.set_banner_visible(!battle.is_empty() || a.get_spotted() > 0);
        }
    }
}

/// Board units for a point: positions turned for a North viewer, 1.5 units of margin.
fn xy(p: Point, flipped: bool) -> (f32, f32) {
    let (x, y) = p.position();
    let (x, y) = if flipped { (12 - x, 22 - y) } else { (x, y) };
    (x as f32 + 3.5, (24 - y) as f32 + 1.5)
}

fn base_cell(p: Point, flipped: bool) -> SlaCell {
    let (x, y) = xy(p, flipped);
    let layer = match p.layer() {
        _ if p == Point::BRIDGE => 4,
        Layer::Land => 0,
        Layer::Sea => 1,
        Layer::Dot => 2,
        Layer::Airport => 3,
    };
    let tag = match p.label() {
        Label::City => "城",
        Label::CannonPlacement => "炮",
        Label::ArmyPost => "兵",
        Label::NavyPlacement => "海",
        Label::Port => "港",
        _ => "",
    };
    SlaCell {
        label: p.to_string().into(),
        x,
        y,
        layer,
        tag: tag.into(),
        placement: p.is_placement(),
        side: -1,
        ..SlaCell::default()
    }
}

/// The empty board, for behind the hand-over screen.
fn base_cells(flipped: bool) -> Vec<SlaCell> {
    Point::all().map(|p| base_cell(p, flipped)).collect()
}

fn put(cell: &mut SlaCell, side: Side, kind: Option<Kind>) {
    cell.side = side as i32;
    match kind {
        Some(kind) => cell.piece = kind.short().into(),
        None => cell.unknown = true,
    }
}

/// The viewer's picture: its draft (or the deployment it sent) while deploying, else its view,
/// with its marks.
fn view_cells(s: &SlaSession, view: &SeaLandAirView, flipped: bool) -> Vec<SlaCell> {
    let mut cells = base_cells(flipped);
    if let Some(draft) = s.draft.clone().or_else(|| s.pending_deployment()) {
        for (p, kind) in &draft.pieces {
            let c = &mut cells[p.index()];
            put(c, draft.side, Some(*kind));
            c.selected = s.selected == Some(*p);
            // Where the selected piece may go: the other places of its kind.
            if let Some(sel) = s.selected
                && sel != *p
                && same_place(sel, *p)
            {
                c.target = true;
            }
        }
        return cells;
    }
    for seen in &view.pieces {
        if let Ok(p) = seen.at.parse::<Point>() {
            let c = &mut cells[p.index()];
            put(c, seen.side, seen.kind);
            c.survived = seen.survived_fire;
        }
    }
    if let Some(from) = s.selected {
        cells[from.index()].selected = true;
        for m in s.legal_moves().into_iter().filter(|m| m.from == from) {
            if m.remote {
                cells[m.to.index()].strike = true;
            } else {
                cells[m.to.index()].target = true;
            }
        }
    }
    if let Some(last) = &view.last {
        match &last.event {
            SeaLandAirEvent::Moved { mv }
            | SeaLandAirEvent::Battle { mv, .. }
            | SeaLandAirEvent::Retreated { mv, .. } => {
                if let Ok(m) = mv.parse::<Move>() {
                    cells[m.from.index()].last = true;
                    cells[m.to.index()].last = true;
                    if matches!(last.event, SeaLandAirEvent::Battle { .. }) {
                        cells[m.to.index()].battle = true;
                    }
                }
            }
            _ => {}
        }
    }
    for action in s.source.pending() {
        if let Ok(SeaLandAirMove::Go(m)) = action.parse::<SeaLandAirMove>() {
            cells[m.from.index()].selected = true;
            cells[m.to.index()].target = true;
        }
    }
    cells
}

/// The board after `at` actions of a finished game, every piece shown.
fn review_cells(game: &Match<SeaLandAir>, at: usize, flipped: bool) -> Vec<SlaCell> {
    let mut record = game.record();
    record.actions.truncate(at);
    let mut cells = base_cells(flipped);
    let Ok(past) = Match::<SeaLandAir>::from_record(&record) else {
        return cells;
    };
    let g = past.game();
    if g.deploying() {
        for d in [Side::South, Side::North]
            .into_iter()
            .filter_map(|side| g.deployment(side))
        {
            for (p, kind) in &d.pieces {
                put(&mut cells[p.index()], d.side, Some(*kind));
            }
        }
        return cells;
    }
    for (p, piece) in g.board().pieces() {
        put(&mut cells[p.index()], piece.side, Some(piece.kind));
    }
    if let Some(entry) = record.actions.last()
        && let Ok(m) = entry.action.parse::<Move>()
    {
        cells[m.from.index()].last = true;
        cells[m.to.index()].last = true;
    }
    cells
}

fn segment(a: (f32, f32), b: (f32, f32)) -> String {
    format!("M {:.3} {:.3} L {:.3} {:.3}", a.0, a.1, b.0, b.1)
}

/// Pieces of the segment a–b: `on` long, every `every`, as path commands (Slint's paths have no
/// dash pattern).
fn dashes(a: (f32, f32), b: (f32, f32), on: f32, every: f32) -> Vec<String> {
    let len = ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt();
    let n = (len / every).floor().max(1.0) as usize;
    let step = len / n as f32;
    let at = |d: f32| (a.0 + (b.0 - a.0) * d / len, a.1 + (b.1 - a.1) * d / len);
    (0..n)
        .map(|k| {
            let start = k as f32 * step + (step - on) / 2.0;
            segment(at(start), at(start + on))
        })
        .collect()
}

fn shifted(a: (f32, f32), b: (f32, f32), d: f32) -> ((f32, f32), (f32, f32)) {
    let len = ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt().max(1e-6);
    let (nx, ny) = (-(b.1 - a.1) / len * d, (b.0 - a.0) / len * d);
    ((a.0 + nx, a.1 + ny), (b.0 + nx, b.1 + ny))
}

/// Draws every line of the board from core's data, for this orientation.
fn draw_paths(a: &SlaAdapter<'_>, flipped: bool) {
    let m = map();
    let at = |p: Point| xy(p, flipped);
    let mut roads = Vec::new();
    let mut rails = Vec::new();
    let mut rail_dashes = Vec::new();
    let mut sea = Vec::new();
    for p in Point::all() {
        for l in m.land.links(p.index()).iter().filter(|l| l.to > p.index()) {
            let Some(q) = Point::from_index(l.to) else {
                continue;
            };
            if l.rail {
                rails.push(segment(at(p), at(q)));
                rail_dashes.extend(dashes(at(p), at(q), 0.4, 0.8));
            } else {
                roads.push(segment(at(p), at(q)));
            }
        }
        for l in m.sea.links(p.index()).iter().filter(|l| l.to > p.index()) {
            if let Some(q) = Point::from_index(l.to) {
                sea.push(segment(at(p), at(q)));
            }
        }
    }
    let mut landings = Vec::new();
    for &(port, land) in &m.landings {
        for d in [-0.14, 0.14] {
            let (x, y) = shifted(at(port), at(land), d);
            landings.push(segment(x, y));
        }
    }
    let mut flights = Vec::new();
    for line in &m.flights {
        for pair in line.windows(2) {
            flights.extend(dashes(at(pair[0]), at(pair[1]), 0.1, 0.35));
        }
    }
    let mut routes = Vec::new();
    for route in &m.routes {
        for pair in route.windows(2) {
            routes.extend(dashes(at(pair[0]), at(pair[1]), 0.7, 1.2));
        }
    }
    let mut arrows = Vec::new();
    let mut heads = Vec::new();
    for &(tail, head) in &m.arrows {
        let back = m.arrows.contains(&(head, tail));
        if back && head < tail {
            continue;
        }
        let (t, h) = shifted(at(tail), at(head), 0.35);
        let len = ((h.0 - t.0).powi(2) + (h.1 - t.1).powi(2)).sqrt();
        let (ux, uy) = ((h.0 - t.0) / len, (h.1 - t.1) / len);
        let t = (t.0 + ux * 0.6, t.1 + uy * 0.6);
        let h = (h.0 - ux * 0.6, h.1 - uy * 0.6);
        arrows.push(segment(t, h));
        let mut tip = |tip: (f32, f32), dx: f32, dy: f32| {
            let base = (tip.0 - dx * 0.45, tip.1 - dy * 0.45);
            heads.push(format!(
                "M {:.3} {:.3} L {:.3} {:.3} L {:.3} {:.3} Z",
                tip.0,
                tip.1,
                base.0 - dy * 0.22,
                base.1 + dx * 0.22,
                base.0 + dy * 0.22,
                base.1 - dx * 0.22
            ));
        };
        tip(h, ux, uy);
        if back {
            tip(t, -ux, -uy);
        }
    }
    let y = xy(Point::BRIDGE, flipped).1;
    a.set_line_path(segment((0.3, y), (18.7, y)).into());
    a.set_road_path(roads.join(" ").into());
    a.set_rail_path(rails.join(" ").into());
    a.set_rail_dashes(rail_dashes.join(" ").into());
    a.set_sea_path(sea.join(" ").into());
    a.set_landing_path(landings.join(" ").into());
    a.set_flight_path(flights.join(" ").into());
    a.set_route_path(routes.join(" ").into());
    a.set_arrow_path(arrows.join(" ").into());
    a.set_arrow_heads(heads.join(" ").into());
    a.set_flipped(flipped);
    a.set_sea_x(if flipped { 2.5 } else { 12.5 });
}

/// The SlaSession slot in the context.
fn slot(ctx: &Ctx) -> &RefCell<Option<SlaSession>> {
    ctx.session()
}
