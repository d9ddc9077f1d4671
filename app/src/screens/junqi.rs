//! The Junqi screen: deployment, pass-and-play behind the hand-over screen (or against the
//! computer), correspondence through a server, battles, flip mode, draw offers, the end, and a
//! review of a finished game with every piece shown.
//!
//! In a game on this device, the device is the authority: it deals, it runs the computer
//! player, and it shows each seat only that seat's view; every action is stored before it is
//! shown. In a correspondence game the server is the authority: the device keeps only its
//! seat's last view, queues the seat's actions (stored before they show as sent), and shows
//! the server's answer when it comes. What this shares with Sea-land-air's screen is in
//! [`super::hidden`].

use super::handler;
use super::handler0;
use super::hidden::{self, Seen, Source};
use super::new_game::two_seats;
use super::registry::{GameEntry, OnlineChoice};
use crate::ctx::Ctx;
use crate::ctx::Sessions;
use crate::online::Command;
use crate::random::{os_pick, random_seed};
use crate::store::{GameId, Mode, NewGame, RemoteGame, Standing};
use qiguan_core::junqi::bot;
use qiguan_core::junqi::{
    Deployment, FlipColours, Junqi, JunqiEvent, JunqiMove, JunqiOptions, JunqiView, Point, Rank,
    SeenPlay, Side, Visibility, graph,
};
use qiguan_core::{
    Action, Actor, AnyMatch, GameKind, Match, MatchView, Outcome, Rules, Seat, ToAct, Viewer,
};
use qiguan_ui::{DeployIssue, JunqiAdapter, JunqiCell, NewGameAdapter, Screen};
use slint::{ComponentHandle, ModelRc, SharedString, VecModel};
use std::cell::RefCell;
use std::rc::Rc;

/// Where saved layouts live among the settings.
const LAYOUT_KEY: &str = "junqi-layout:";

/// A Junqi game on the screen.
pub struct JunqiSession {
    id: GameId,
    source: Source<Junqi>,
    players: [String; 2],
    /// The seat the computer plays, if any.
    computer: Option<Seat>,
    /// The server link of a correspondence game.
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
    /// The last move or flip whose banner has been shown, and to which seat (a new one shows
    /// when either differs).
    shown: RefCell<Option<(Seat, SeenPlay)>>,
    cells: Rc<VecModel<JunqiCell>>,
}

impl JunqiSession {
    fn local(&self) -> Option<&Match<Junqi>> {
        self.source.local()
    }

    fn seen(&self) -> Option<&Seen<Junqi>> {
        self.source.seen()
    }

    fn options(&self) -> JunqiOptions {
        self.source.options()
    }

    /// What `seat` may know (a correspondence game knows only its own seat's view).
    fn match_view(&self, seat: Seat) -> MatchView<JunqiView> {
        self.source.match_view(seat)
    }

    fn view(&self) -> JunqiView {
        self.match_view(self.viewer).game
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

    fn side_of_seat(&self, seat: Seat) -> Option<Side> {
        match &self.source {
            Source::Local(game) => game.game().side_of_seat(seat),
            Source::Remote(seen) => seen.view.game.colours.get(seat.index()).copied().flatten(),
        }
    }

    fn seat_of_side(&self, side: Side) -> Option<Seat> {
        [Seat::FIRST, Seat::SECOND]
            .into_iter()
            .find(|s| self.side_of_seat(*s) == Some(side))
    }

    fn deploying(&self) -> bool {
        match &self.source {
            Source::Local(game) => game.game().deploying(),
            Source::Remote(seen) => {
                seen.options.visibility != Visibility::Flip
                    && seen.view.game.deployed.iter().any(|d| !d)
            }
        }
    }

    /// The viewer's deployment waiting for the server, if any.
    fn pending_deployment(&self) -> Option<Deployment> {
        let seen = self.seen()?;
        let side = self.side_of_seat(self.viewer)?;
        seen.pending
            .iter()
            .find_map(|a| a.strip_prefix("deploy:"))
            .and_then(|text| Deployment::from_text(side, text).ok())
    }

    fn legal(&self) -> Vec<Action<JunqiMove>> {
        self.source.legal(self.viewer)
    }

    fn legal_moves(&self) -> Vec<JunqiMove> {
        self.legal()
            .into_iter()
            .filter_map(|a| match a {
                Action::Play(m) => Some(m),
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
}

/// Junqi in the registry of games.
pub(crate) const ENTRY: GameEntry = GameEntry {
    kind: GameKind::Junqi,
    screen: Screen::Junqi,
    connect,
    sessions: || vec![Sessions::slot::<JunqiSession>()],
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
    let a = ui.global::<JunqiAdapter>();
    a.set_road_path(road_path().into());
    a.set_rail_path(rail_path(false).into());
    a.set_rail_dashes(rail_path(true).into());
    a.on_cell_clicked(handler(ctx, |ctx, i: i32| cell_clicked(ctx, i)));
    a.on_handover_done(handler0(ctx, |ctx| {
        if let Some(s) = slot(ctx).borrow_mut().as_mut() {
            s.handover = false;
        }
        refresh(ctx);
    }));
    a.on_deploy_random(handler0(ctx, |ctx| {
        set_draft(ctx, |side| Some(Deployment::random(side, random_seed())));
    }));
    a.on_deploy_classic(handler(ctx, |ctx, i: i32| {
        let name = qiguan_core::junqi::deployment::classic_names().nth(i as usize);
        set_draft(ctx, |side| {
            let d = Deployment::classic(name?)?;
            Some(if side == Side::South { d } else { d.mirror() })
        });
    }));
    a.on_load_layout(handler(ctx, |ctx, i: i32| {
        let saved = saved_layouts(ctx);
        let Some((_, text)) = saved.get(i as usize).cloned() else {
            return;
        };
        set_draft(ctx, |side| Deployment::from_text(side, &text).ok());
    }));
    a.on_save_layout(handler0(ctx, save_layout));
    a.on_delete_layout(handler(ctx, |ctx, i: i32| {
        if let Some((name, _)) = saved_layouts(ctx).get(i as usize) {
            let key = format!("{LAYOUT_KEY}{name}");
            if let Err(e) = ctx.with_store(|store| store.delete_setting(&key)) {
                super::show_error(ctx, &e.to_string());
            }
        }
        refresh(ctx);
    }));
    a.on_deploy_ready(handler0(ctx, |ctx| {
        let chosen = slot(ctx).borrow().as_ref().and_then(|s| {
            let d = s.draft.as_ref()?;
            d.validate().ok()?;
            Some((s.viewer, JunqiMove::Deploy(d.to_text())))
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
        ctx.ui().global::<JunqiAdapter>().set_show_end_dialog(false);
        ctx.reset_to(Screen::Home);
        super::new_game::open(ctx, GameKind::Junqi);
    }));
}

/// The viewer resigns, offers a draw or answers one.
fn viewer_acts(ctx: &Rc<Ctx>, action: Action<JunqiMove>) {
    let seat = slot(ctx).borrow().as_ref().map(|s| s.viewer);
    if let Some(seat) = seat {
        act(ctx, Actor::Seat(seat), action);
    }
}

/// Starts a new Junqi game: stores it, deals (flip mode), lets the computer deploy, and opens
/// it.
pub fn start(
    ctx: &Rc<Ctx>,
    options: &JunqiOptions,
    players: Vec<String>,
    computer: Option<Seat>,
) -> Result<GameId, String> {
    let mut game: Match<Junqi> = Match::new(options, None).map_err(|e| e.to_string())?;
    // This device is the authority: it deals with the operating system's randomness.
    let dealt = game
        .resolve_chance(&mut os_pick)
        .map_err(|e| e.to_string())?;
    let mode = computer.map_or(Mode::PassAndPlay, |s| Mode::Computer(s.index() as u8));
    let any = AnyMatch::Junqi(game.clone());
    let mut new = NewGame::from_match(&any, mode, players);
    new.kind = GameKind::Junqi;
    let standing = Standing::new(&dealt, game.outcome());
    let now = ctx.now();
    let id = ctx
        .with_store(|store| store.create_game_with(&new, &dealt, &standing, now))
        .map_err(|e| e.to_string())?;
    ctx.reset_to(Screen::Home);
    open(ctx, id);
    Ok(id)
}

/// Returns the Junqi options chosen on the screen.
fn chosen_options(a: &NewGameAdapter<'_>) -> JunqiOptions {
    JunqiOptions {
        visibility: match a.get_junqi_mode() {
            1 => Visibility::Open,
            2 => Visibility::Flip,
            _ => Visibility::Referee,
        },
        landmine_stays: a.get_landmine_stays(),
        camps_safe: a.get_camps_safe(),
        bombs_enter_headquarters: a.get_bombs_enter_hq(),
        quiet_plies: None,
        flip_colours: if a.get_two_in_a_row() {
            FlipColours::TwoInARow
        } else {
            FlipColours::FirstTurn
        },
        headquarters_locked: a.get_hq_locked(),
        landmines_attackable: a.get_landmines_attackable(),
    }
}

/// Starts the game New game chose.
fn start_chosen(ctx: &Rc<Ctx>, a: &NewGameAdapter<'_>) {
    let options = chosen_options(a);
    let (players, computer) = two_seats(a);
    if let Err(e) = start(ctx, &options, players, computer) {
        super::show_error(ctx, &e);
    }
}

/// Loads a stored Junqi game and shows it: behind the hand-over screen if it has secrets.
pub fn open(ctx: &Rc<Ctx>, id: GameId) {
    match load(ctx, id) {
        Ok(mut session) => {
            run_computer(ctx, &mut session);
            settle_viewer(&mut session, true);
            let online = session.remote.is_some();
            *slot(ctx).borrow_mut() = Some(session);
            let ui = ctx.ui();
            let a = ui.global::<JunqiAdapter>();
            a.set_show_end_dialog(false);
            a.set_confirm_resign(false);
            a.set_layout_name("".into());
            a.set_sync_status("".into());
            refresh(ctx);
            ctx.go(Screen::Junqi);
            if online {
                ctx.send(Command::Watch(Some(id)));
                ctx.send(Command::Flush);
            }
        }
        Err(e) => super::show_error(ctx, &e),
    }
}

fn load(ctx: &Rc<Ctx>, id: GameId) -> Result<JunqiSession, String> {
    let loaded = hidden::load::<Junqi>(ctx, id)?;
    Ok(JunqiSession {
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
    })
}

/// Reloads the open game if the sync worker changed it, keeping a deployment being arranged.
pub fn reload_if_open(ctx: &Rc<Ctx>, ids: &[GameId]) {
    let Some(id) = slot(ctx).borrow().as_ref().map(|s| s.id) else {
        return;
    };
    if !ids.contains(&id) || ctx.ui().global::<qiguan_ui::Nav>().get_screen() != Screen::Junqi {
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
                ctx.ui().global::<JunqiAdapter>().set_show_end_dialog(true);
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
        .global::<JunqiAdapter>()
        .set_sync_status(hidden::sync_line(online, pending).into());
}

/// Returns true if the screen has something one seat alone may see right now: its
/// deployment, or (in referee mode) its pieces. Flip mode hides nothing from one seat that the
/// other sees.
fn has_secrets(s: &JunqiSession) -> bool {
    match s.options().visibility {
        Visibility::Referee => true,
        Visibility::Open => s.deploying(),
        Visibility::Flip => false,
    }
}

/// Picks whose view shows: the person's against the computer, this device's seat in a
/// correspondence game, else the seat to act. Raises the hand-over screen when the view passes
/// to the other player and there are secrets.
fn settle_viewer(s: &mut JunqiSession, opening: bool) {
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
    if fixed.is_none() && has_secrets(s) && (changed || opening) {
        s.handover = true;
    }
    if changed {
        s.selected = None;
        s.draft = None;
    }
    let side = s.side_of_seat(next);
    let deployed = side.is_some_and(|side| s.view().deployed[side as usize])
        || s.pending_deployment().is_some();
    if !s.deploying() || deployed {
        s.draft = None;
    } else if s.draft.is_none()
        && let Some(side) = side
    {
        s.draft = Deployment::classic("稳守 Steady defence")
            .map(|d| if side == Side::South { d } else { d.mirror() });
    }
}

/// Lets the computer act for as long as it is due, storing each action: it answers a draw
/// offer, then deploys or moves.
fn run_computer(ctx: &Rc<Ctx>, s: &mut JunqiSession) {
    let Some(bot_seat) = s.computer else { return };
    for _ in 0..4 {
        let Some(game) = s.local() else { return };
        let actor = Actor::Seat(bot_seat);
        let view: JunqiView = game.game().view(Viewer::Seat(bot_seat));
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
            let options = game.game().junqi_options().clone();
            match bot::choose(&view, bot_seat, &options, random_seed()) {
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

/// Stores and applies an action of a game on this device (and any chance it brings about).
fn store_and_apply(
    ctx: &Rc<Ctx>,
    s: &mut JunqiSession,
    actor: Actor,
    action: &Action<JunqiMove>,
) -> Result<(), String> {
    hidden::store_and_apply(ctx, s.id, &mut s.source, actor, action)?;
    s.selected = None;
    Ok(())
}

/// Queues a correspondence game's action for the server (stored before it shows as sent).
fn queue_remote(
    ctx: &Rc<Ctx>,
    s: &mut JunqiSession,
    action: &Action<JunqiMove>,
) -> Result<(), String> {
    hidden::queue_remote(ctx, s.id, &mut s.source, action)?;
    s.selected = None;
    s.draft = None;
    Ok(())
}

/// A player's action: stored, then the computer's answer, then shown.
fn act(ctx: &Rc<Ctx>, actor: Actor, action: Action<JunqiMove>) {
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
        Ok(()) if over => ctx.ui().global::<JunqiAdapter>().set_show_end_dialog(true),
        Ok(()) if remote => ctx
            .ui()
            .global::<JunqiAdapter>()
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
            // Deployment: tap two of your pieces to swap them.
            let has = |d: &Deployment, q: Point| d.pieces.iter().any(|(at, _)| *at == q);
            if !has(draft, p) {
                s.selected = None;
            } else {
                match s.selected {
                    Some(first) if first == p => s.selected = None,
                    Some(first) => {
                        swap(draft, first, p);
                        s.selected = None;
                    }
                    None => s.selected = Some(p),
                }
            }
            None
        } else {
            let legal = s.legal_moves();
            match s.selected {
                Some(from) if from == p => {
                    s.selected = None;
                    None
                }
                Some(from)
                    if legal
                        .iter()
                        .any(|m| matches!(m, JunqiMove::Go(g) if g.from == from && g.to == p)) =>
                {
                    Some(JunqiMove::Go(qiguan_core::junqi::Move { from, to: p }))
                }
                _ if legal.contains(&JunqiMove::Flip(p)) => Some(JunqiMove::Flip(p)),
                _ => {
                    let movable = legal
                        .iter()
                        .any(|m| matches!(m, JunqiMove::Go(g) if g.from == p));
                    s.selected = movable.then_some(p);
                    None
                }
            }
        }
    };
    match chosen {
        Some(mv) => {
            let seat = slot(ctx).borrow().as_ref().map(|s| s.viewer);
            if let Some(seat) = seat {
                act(ctx, Actor::Seat(seat), Action::Play(mv));
            }
        }
        None => refresh(ctx),
    }
}

fn swap(d: &mut Deployment, a: Point, b: Point) {
    let rank_at = |d: &Deployment, p: Point| d.pieces.iter().find(|(q, _)| *q == p).map(|x| x.1);
    let (Some(ra), Some(rb)) = (rank_at(d, a), rank_at(d, b)) else {
        return;
    };
    for (p, rank) in &mut d.pieces {
        if *p == a {
            *rank = rb;
        } else if *p == b {
            *rank = ra;
        }
    }
}

/// Replaces the viewer's draft deployment.
fn set_draft(ctx: &Rc<Ctx>, make: impl FnOnce(Side) -> Option<Deployment>) {
    if let Some(s) = slot(ctx).borrow_mut().as_mut()
        && s.draft.is_some()
        && let Some(side) = s.side_of_seat(s.viewer)
        && let Some(d) = make(side)
    {
        s.draft = Some(d);
        s.selected = None;
    }
    refresh(ctx);
}

fn saved_layouts(ctx: &Rc<Ctx>) -> Vec<(String, String)> {
    ctx.with_store(|store| store.settings_with_prefix(LAYOUT_KEY))
        .unwrap_or_default()
}

fn save_layout(ctx: &Rc<Ctx>) {
    let ui = ctx.ui();
    let a = ui.global::<JunqiAdapter>();
    let name = a.get_layout_name().trim().to_owned();
    let text = slot(ctx)
        .borrow()
        .as_ref()
        .and_then(|s| s.draft.as_ref().map(Deployment::to_text));
    if let (false, Some(text)) = (name.is_empty(), text) {
        let key = format!("{LAYOUT_KEY}{name}");
        match ctx.with_store(|store| store.set_setting(&key, &text)) {
            Ok(()) => a.set_layout_name("".into()),
            Err(e) => super::show_error(ctx, &e.to_string()),
        }
    }
    refresh(ctx);
}

/// Pushes the session to the screen.
pub fn refresh(ctx: &Rc<Ctx>) {
    let saved = saved_layouts(ctx);
    let guard = slot(ctx).borrow();
    let Some(s) = guard.as_ref() else { return };
    let options = s.options();
    let outcome = s.outcome();
    let over = outcome.is_some();
    let view = s.view();
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
        (Some(at), Some(game)) => review_cells(game, at),
        _ if s.handover => hidden_cells(),
        _ => view_cells(s, &view),
    };
    super::super::board_view::sync(&s.cells, cells);

    let ui = ctx.ui();
    let a = ui.global::<JunqiAdapter>();
    a.set_cells(ModelRc::from(s.cells.clone()));
    a.set_phase(phase.into());
    a.set_mode(
        match options.visibility {
            Visibility::Referee => "referee",
            Visibility::Open => "open",
            Visibility::Flip => "flip",
        }
        .into(),
    );
    a.set_viewer(s.viewer.index() as i32);
    let colour = |seat| s.side_of_seat(seat).map_or(-1, |side| side as i32);
    a.set_seat_colours(int_model(vec![colour(Seat::FIRST), colour(Seat::SECOND)]));
    // The viewer's side at the bottom (flip mode: the viewer's colour once known).
    a.set_flipped(s.side_of_seat(s.viewer) == Some(Side::North));
    a.set_to_move(match s.to_act() {
        ToAct::Seat(seat) => seat.index() as i32,
        _ => -1,
    });
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
    a.set_quiet_left(options.quiet_limit() as i32 - view.quiet_plies as i32);
    a.set_result(super::result_code(outcome.as_ref().map(|o| &o.result)).into());
    a.set_reason(outcome.map(|o| o.reason.as_str()).unwrap_or("").into());
    set_banner(&a, s, &view, matches!(phase, "play" | "over"));
    let bottom = if s.side_of_seat(s.viewer) == Some(Side::North) {
        Side::North
    } else {
        Side::South
    };
    a.set_bottom_seat(s.seat_of_side(bottom).unwrap_or(s.viewer).index() as i32);
    let issues: Vec<DeployIssue> = s
        .draft
        .as_ref()
        .map(|d| match d.validate() {
            Ok(()) => Vec::new(),
            Err(problems) => problems.iter().filter_map(issue).collect(),
        })
        .unwrap_or_default();
    a.set_deploy_issues(ModelRc::new(VecModel::from(issues)));
    a.set_classics(ModelRc::new(VecModel::from(
        qiguan_core::junqi::deployment::classic_names()
            .map(SharedString::from)
            .collect::<Vec<_>>(),
    )));
    a.set_saved_layouts(ModelRc::new(VecModel::from(
        saved
            .iter()
            .map(|(name, _)| SharedString::from(name.as_str()))
            .collect::<Vec<_>>(),
    )));
    a.set_review_ply(s.review.unwrap_or(0) as i32);
    a.set_review_plies(s.version() as i32);

    // Draw offers, resignation, and (correspondence) where the game stands with the server.
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

fn int_model(values: Vec<i32>) -> ModelRc<i32> {
    ModelRc::new(VecModel::from(values))
}

fn issue(p: &qiguan_core::junqi::DeployProblem) -> Option<DeployIssue> {
    use qiguan_core::junqi::DeployProblem as P;
    let (code, at) = match p {
        P::FlagNotInHeadquarters(at) => ("flag", at),
        P::LandmineTooFarForward(at) => ("landmine", at),
        P::BombInFrontRow(at) => ("bomb", at),
        // Swapping keeps counts and places; anything else cannot arise here.
        _ => return None,
    };
    Some(DeployIssue {
        code: code.into(),
        at: at.to_string().into(),
    })
}

/// The last battle or flip, as far as the viewer may know it. The banner shows whenever it
/// differs from the last one shown to this viewer (a new action, or the other player's view of
/// it after a hand-over).
fn set_banner(a: &JunqiAdapter<'_>, s: &JunqiSession, view: &JunqiView, may_show: bool) {
    let mut battle = "";
    let mut at = String::new();
    let mut attacker = String::new();
    let mut defender = String::new();
    let mut attacker_colour = -1;
    let mut flipped = String::new();
    let mut flipped_colour = -1;
    let name = |piece: &Option<qiguan_core::junqi::SeenPiece>| -> String {
        match piece {
            Some(p) => p.rank.map_or_else(|| "?".into(), |r| r.chinese().into()),
            None => String::new(),
        }
    };
    let last = view.last.as_ref().filter(|_| s.review.is_none());
    if let Some(last) = last {
        match &last.event {
            JunqiEvent::Battle {
                mv,
                attacker_removed,
                defender_removed,
                ..
            } => {
                let flag = last
                    .defender
                    .as_ref()
                    .is_some_and(|d| d.rank == Some(Rank::Flag))
                    && !attacker_removed
                    && *defender_removed;
                battle = match (flag, attacker_removed, defender_removed) {
                    (true, _, _) => "flag",
                    (_, true, true) => "both",
                    (_, false, true) => "won",
                    _ => "lost",
                };
                at = mv
                    .parse::<qiguan_core::junqi::Move>()
                    .map(|m| m.to.to_string())
                    .unwrap_or_default();
                attacker = name(&last.mover);
                defender = name(&last.defender);
                attacker_colour = last.mover.as_ref().map_or(-1, |p| p.side as i32);
            }
            JunqiEvent::Flipped { side, rank, .. } => {
                flipped = rank.chinese().into();
                flipped_colour = *side as i32;
            }
            _ => {}
        }
    }
    a.set_battle(battle.into());
    a.set_battle_at(at.into());
    a.set_battle_attacker(attacker.into());
    a.set_battle_defender(defender.into());
    a.set_battle_attacker_colour(attacker_colour);
    a.set_flipped_piece(flipped.into());
    a.set_flipped_colour(flipped_colour);
    if may_show && let Some(last) = last {
        let key = (s.viewer, last.clone());
        if s.shown.borrow().as_ref() != Some(&key) {
            *s.shown.borrow_mut() = Some(key);
            a.set_banner_visible(true);
        }
    }
}

/// The viewer's picture: its draft (or the deployment it sent) while deploying, else its view,
/// with its marks.
fn view_cells(s: &JunqiSession, view: &JunqiView) -> Vec<JunqiCell> {
    let mut cells = hidden_cells();
    if let Some(draft) = s.draft.clone().or_else(|| s.pending_deployment()) {
        for (p, rank) in &draft.pieces {
            let c = &mut cells[p.index()];
            c.side = draft.side as i32;
            c.piece = rank.chinese().into();
            c.selected = s.selected == Some(*p);
        }
        return cells;
    }
    for seen in &view.pieces {
        if let Ok(p) = seen.at.parse::<Point>() {
            let c = &mut cells[p.index()];
            c.side = seen.side as i32;
            match seen.rank {
                Some(rank) => c.piece = rank.chinese().into(),
                None => c.unknown = true,
            }
        }
    }
    for at in &view.face_down {
        if let Ok(p) = at.parse::<Point>() {
            cells[p.index()].face_down = true;
        }
    }
    if let Some(from) = s.selected {
        cells[from.index()].selected = true;
        for m in s.legal_moves() {
            if let JunqiMove::Go(g) = m
                && g.from == from
            {
                cells[g.to.index()].target = true;
            }
        }
    }
    if let Some(last) = &view.last {
        match &last.event {
            JunqiEvent::Moved { mv } | JunqiEvent::Battle { mv, .. } => {
                if let Ok(m) = mv.parse::<qiguan_core::junqi::Move>() {
                    cells[m.from.index()].last = true;
                    cells[m.to.index()].last = true;
                    if matches!(last.event, JunqiEvent::Battle { .. }) {
                        cells[m.to.index()].battle = true;
                    }
                }
            }
            JunqiEvent::Flipped { at, .. } => {
                if let Ok(p) = at.parse::<Point>() {
                    cells[p.index()].last = true;
                }
            }
            _ => {}
        }
    }
    // A move or flip on its way to the server: its points stay marked until the answer.
    for action in s.source.pending() {
        match action.parse::<JunqiMove>() {
            Ok(JunqiMove::Go(m)) => {
                cells[m.from.index()].selected = true;
                cells[m.to.index()].target = true;
            }
            Ok(JunqiMove::Flip(p)) => cells[p.index()].selected = true,
            _ => {}
        }
    }
    cells
}

fn base_cell(p: Point) -> JunqiCell {
    JunqiCell {
        label: p.to_string().into(),
        kind: if p.is_headquarters() {
            2
        } else if p.is_camp() {
            1
        } else {
            0
        },
        side: -1,
        ..JunqiCell::default()
    }
}

/// The empty board, for behind the hand-over screen.
fn hidden_cells() -> Vec<JunqiCell> {
    Point::all().map(base_cell).collect()
}

/// The board after `at` actions of a finished game, every piece shown.
fn review_cells(game: &Match<Junqi>, at: usize) -> Vec<JunqiCell> {
    let mut record = game.record();
    record.actions.truncate(at);
    let mut cells = hidden_cells();
    let Ok(past) = Match::<Junqi>::from_record(&record) else {
        return cells;
    };
    let g = past.game();
    if g.deploying() {
        // Show each deployment as it was made.
        for d in [Side::South, Side::North]
            .into_iter()
            .filter_map(|side| g.deployment(side))
        {
            for (p, rank) in &d.pieces {
                cells[p.index()].side = d.side as i32;
                cells[p.index()].piece = rank.chinese().into();
            }
        }
        return cells;
    }
    for (p, piece) in g.board().pieces() {
        let c = &mut cells[p.index()];
        c.side = piece.side as i32;
        c.piece = piece.rank.chinese().into();
    }
    if let Some(entry) = record.actions.last()
        && let Ok(m) = entry.action.parse::<qiguan_core::junqi::Move>()
    {
        cells[m.from.index()].last = true;
        cells[m.to.index()].last = true;
    }
    cells
}

/// The board's display coordinates, in the units the .slint board draws paths in: 5 columns
/// by 12 rows plus the front band (0.6) between rows 5 and 6; row 11 at the top.
fn xy(p: Point) -> (f32, f32) {
    let d = 11 - p.row();
    let gap = if d >= 6 { 0.6 } else { 0.0 };
    (p.column() as f32 + 0.5, d as f32 + 0.5 + gap)
}

/// Every road (non-rail link) as path commands, from core's board graph.
fn road_path() -> String {
    links(false)
        .map(|(a, b)| segment(a, b))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The railroads: whole links, or (`dashes`) the short white dashes drawn over them.
fn rail_path(dashes: bool) -> String {
    let mut out = Vec::new();
    for (a, b) in links(true) {
        if !dashes {
            out.push(segment(a, b));
            continue;
        }
        let steps = 4;
        for k in 0..steps {
            let t0 = (k as f32 + 0.25) / steps as f32;
            let t1 = (k as f32 + 0.75) / steps as f32;
            let at = |t: f32| (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
            out.push(segment(at(t0), at(t1)));
        }
    }
    out.join(" ")
}

fn links(rail: bool) -> impl Iterator<Item = ((f32, f32), (f32, f32))> {
    Point::all().flat_map(move |p| {
        graph()
            .links(p.index())
            .iter()
            .filter(move |l| l.rail == rail && l.to > p.index())
            .filter_map(move |l| Point::from_index(l.to).map(|q| (xy(p), xy(q))))
    })
}

fn segment(a: (f32, f32), b: (f32, f32)) -> String {
    format!("M {:.3} {:.3} L {:.3} {:.3}", a.0, a.1, b.0, b.1)
}

/// The JunqiSession slot in the context.
fn slot(ctx: &Ctx) -> &RefCell<Option<JunqiSession>> {
    ctx.session()
}
