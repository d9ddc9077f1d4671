//! The Junqi screen: deployment, pass-and-play behind the hand-over screen (or against the
//! computer), battles, flip mode, the end, and a review of a finished game with every piece
//! shown. This device is the authority: it deals, it runs the computer player, and it shows each
//! seat only that seat's view. Every action is stored before it is shown.

use super::handler;
use super::handler0;
use crate::app::Ctx;
use crate::store::{GameId, Mode, NewGame, Standing, StoreError};
use qiguan_core::junqi::bot;
use qiguan_core::junqi::{
    Deployment, Junqi, JunqiEvent, JunqiMove, JunqiOptions, JunqiView, Point, Rank, Side,
    Visibility, graph,
};
use qiguan_core::{Action, Actor, AnyMatch, Match, MatchEvent, Record, Rules, Seat, ToAct, Viewer};
use qiguan_ui::{DeployIssue, JunqiAdapter, JunqiCell, Screen};
use slint::{ComponentHandle, ModelRc, SharedString, VecModel};
use std::rc::Rc;

/// Where saved layouts live among the settings.
const LAYOUT_KEY: &str = "junqi-layout:";

/// A Junqi game on the screen.
pub struct JunqiSession {
    id: GameId,
    game: Match<Junqi>,
    players: [String; 2],
    /// The seat the computer plays, if any.
    computer: Option<Seat>,
    /// The seat whose view is on the screen.
    viewer: Seat,
    /// The hand-over screen is up: nothing of the board shows.
    handover: bool,
    selected: Option<Point>,
    /// The viewer's deployment being arranged.
    draft: Option<Deployment>,
    /// In review: the number of actions shown.
    review: Option<usize>,
    /// What the last game action told everyone.
    last: Option<LastAction>,
    /// The last action's banner has yet to be shown (it waits behind the hand-over screen).
    banner_pending: std::cell::Cell<bool>,
    cells: Rc<VecModel<JunqiCell>>,
}

/// The last move, flip or battle, with the authority's knowledge of what fought (shown only as
/// far as the viewer may know).
#[derive(Clone, Debug)]
struct LastAction {
    event: JunqiEvent,
    attacker: Option<(Side, Rank)>,
    defender: Option<(Side, Rank)>,
}

pub fn connect(ctx: &Rc<Ctx>) {
    let ui = ctx.ui();
    let a = ui.global::<JunqiAdapter>();
    a.set_road_path(road_path().into());
    a.set_rail_path(rail_path(false).into());
    a.set_rail_dashes(rail_path(true).into());
    a.on_cell_clicked(handler(ctx, |ctx, i: i32| cell_clicked(ctx, i)));
    a.on_handover_done(handler0(ctx, |ctx| {
        if let Some(s) = ctx.junqi.borrow_mut().as_mut() {
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
                super::play::show_error(ctx, &e.to_string());
            }
        }
        refresh(ctx);
    }));
    a.on_deploy_ready(handler0(ctx, |ctx| {
        let chosen = ctx.junqi.borrow().as_ref().and_then(|s| {
            let d = s.draft.as_ref()?;
            d.validate().ok()?;
            Some((s.viewer, JunqiMove::Deploy(d.to_text())))
        });
        if let Some((seat, mv)) = chosen {
            act(ctx, Actor::Seat(seat), Action::Play(mv));
        }
    }));
    a.on_resign(handler0(ctx, |ctx| {
        let seat = ctx.junqi.borrow().as_ref().map(|s| s.viewer);
        if let Some(seat) = seat {
            act(ctx, Actor::Seat(seat), Action::Resign);
        }
    }));
    a.on_review(handler0(ctx, |ctx| {
        if let Some(s) = ctx.junqi.borrow_mut().as_mut() {
            s.review = Some(s.game.version());
            s.selected = None;
        }
        refresh(ctx);
    }));
    a.on_review_step(handler(ctx, |ctx, step: i32| {
        if let Some(s) = ctx.junqi.borrow_mut().as_mut()
            && let Some(at) = s.review
        {
            let next = at as i64 + step as i64;
            s.review = Some(next.clamp(0, s.game.version() as i64) as usize);
        }
        refresh(ctx);
    }));
    a.on_new_game(handler0(ctx, |ctx| {
        ctx.ui().global::<JunqiAdapter>().set_show_end_dialog(false);
        ctx.reset_to(Screen::Home);
        super::new_game::open(ctx, "junqi");
    }));
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
    new.kind = qiguan_core::GameKind::Junqi;
    let standing = Standing::new(&dealt, game.outcome());
    let now = ctx.now();
    let id = ctx
        .with_store(|store| store.create_game_with(&new, &dealt, &standing, now))
        .map_err(|e| e.to_string())?;
    ctx.reset_to(Screen::Home);
    open(ctx, id);
    Ok(id)
}

/// Returns true if this stored game is a Junqi game (the history and home open it here).
pub fn is_junqi(ctx: &Rc<Ctx>, id: GameId) -> bool {
    ctx.with_store(|store| store.summaries(&[id]))
        .is_ok_and(|rows| {
            rows.first()
                .is_some_and(|g| g.kind == qiguan_core::GameKind::Junqi)
        })
}

/// Loads a stored Junqi game and shows it: behind the hand-over screen if it has secrets.
pub fn open(ctx: &Rc<Ctx>, id: GameId) {
    match load(ctx, id) {
        Ok(mut session) => {
            run_computer(ctx, &mut session);
            settle_viewer(&mut session, true);
            *ctx.junqi.borrow_mut() = Some(session);
            let ui = ctx.ui();
            let a = ui.global::<JunqiAdapter>();
            a.set_show_end_dialog(false);
            a.set_confirm_resign(false);
            a.set_layout_name("".into());
            refresh(ctx);
            ctx.go(Screen::Junqi);
        }
        Err(e) => super::play::show_error(ctx, &e.to_string()),
    }
}

fn load(ctx: &Rc<Ctx>, id: GameId) -> Result<JunqiSession, StoreError> {
    let stored = ctx.with_store(|store| store.load(id))?;
    let game: Match<Junqi> =
        Match::from_record(&stored.record).map_err(|e| StoreError::BadRecord {
            id,
            detail: e.to_string(),
        })?;
    let name = |i: usize| stored.summary.players.get(i).cloned().unwrap_or_default();
    let computer = match stored.summary.mode {
        Mode::Computer(seat) => Seat::new(seat),
        _ => None,
    };
    let last = last_action(&stored.record);
    Ok(JunqiSession {
        id,
        game,
        players: [name(0), name(1)],
        computer,
        viewer: Seat::FIRST,
        handover: false,
        selected: None,
        draft: None,
        review: None,
        last,
        banner_pending: std::cell::Cell::new(false),
        cells: Rc::new(VecModel::default()),
    })
}

impl LastAction {
    /// Describes what a game action told, with what stood on its two points before it.
    fn of(event: JunqiEvent, before: &qiguan_core::junqi::Board) -> LastAction {
        let (attacker, defender) = match &event {
            JunqiEvent::Battle { mv, .. } | JunqiEvent::Moved { mv } => mv
                .parse::<qiguan_core::junqi::Move>()
                .map_or((None, None), |m| {
                    let at = |p| before.get(p).map(|q| (q.side, q.rank));
                    (at(m.from), at(m.to))
                }),
            _ => (None, None),
        };
        LastAction {
            event,
            attacker,
            defender,
        }
    }
}

/// Returns the game event among what an action told.
fn game_event(told: Vec<qiguan_core::Told<MatchEvent<JunqiEvent>>>) -> Option<JunqiEvent> {
    told.into_iter().find_map(|t| match t.event {
        MatchEvent::Game { event } => Some(event),
        _ => None,
    })
}

/// Replays a record to learn what its last game action told, and what fought.
fn last_action(record: &Record) -> Option<LastAction> {
    let index = record.actions.iter().rposition(|e| {
        matches!(e.by, Actor::Seat(_)) && !e.action.starts_with("deploy:") && {
            matches!(e.action.parse::<Action<JunqiMove>>(), Ok(Action::Play(_)))
        }
    })?;
    let mut before = record.clone();
    before.actions.truncate(index);
    let mut game: Match<Junqi> = Match::from_record(&before).ok()?;
    let entry = &record.actions[index];
    let board = game.game().board().clone();
    let event = game_event(game.apply_text(entry.by, &entry.action).ok()?)?;
    Some(LastAction::of(event, &board))
}

/// Returns true if `seat` has something it alone may see right now: its deployment, or (in
/// referee mode) its pieces. Flip mode hides nothing from one seat that the other sees.
fn has_secrets(game: &Match<Junqi>) -> bool {
    let g = game.game();
    match g.junqi_options().visibility {
        Visibility::Referee => true,
        Visibility::Open => g.deploying(),
        Visibility::Flip => false,
    }
}

/// Picks whose view shows: the human seat against the computer, else the seat to act. Raises
/// the hand-over screen when the view passes to the other player and there are secrets.
fn settle_viewer(s: &mut JunqiSession, opening: bool) {
    if s.game.outcome().is_some() {
        return;
    }
    let next = match (s.computer, s.game.to_act()) {
        (Some(bot), _) => other(bot),
        (None, ToAct::Seat(seat)) => seat,
        (None, ToAct::Seats(list)) => list.first().copied().unwrap_or(s.viewer),
        (None, _) => s.viewer,
    };
    let changed = next != s.viewer;
    s.viewer = next;
    if s.computer.is_none() && has_secrets(&s.game) && (changed || opening) {
        s.handover = true;
    }
    if changed || opening {
        s.selected = None;
        s.draft = None;
    }
    let side = s.game.game().side_of_seat(next);
    if s.draft.is_none()
        && s.game.game().deploying()
        && let Some(side) = side
        && !s.game.view(Viewer::Seat(next)).game.deployed[side as usize]
    {
        s.draft = Deployment::classic("稳守 Steady defence")
            .map(|d| if side == Side::South { d } else { d.mirror() });
    }
}

fn other(seat: Seat) -> Seat {
    if seat == Seat::FIRST {
        Seat::SECOND
    } else {
        Seat::FIRST
    }
}

/// Lets the computer act for as long as it is due, storing each action.
fn run_computer(ctx: &Rc<Ctx>, s: &mut JunqiSession) {
    let Some(bot_seat) = s.computer else { return };
    for _ in 0..4 {
        if !s.game.to_act().includes(Actor::Seat(bot_seat)) {
            return;
        }
        let view: JunqiView = s.game.game().view(Viewer::Seat(bot_seat));
        let options = s.game.game().junqi_options().clone();
        let Some(mv) = bot::choose(&view, bot_seat, &options, random_seed()) else {
            return;
        };
        if let Err(e) = store_and_apply(ctx, s, Actor::Seat(bot_seat), &Action::Play(mv)) {
            super::play::show_error(ctx, &e);
            return;
        }
    }
}

/// Applies an action to a copy of the match, stores it (and any chance it brings about), then
/// makes it the session's state.
fn store_and_apply(
    ctx: &Rc<Ctx>,
    s: &mut JunqiSession,
    actor: Actor,
    action: &Action<JunqiMove>,
) -> Result<(), String> {
    let mut next = s.game.clone();
    let board = next.game().board().clone();
    let told = next.apply(actor, action).map_err(|e| e.to_string())?;
    next.resolve_chance(&mut os_pick)
        .map_err(|e| e.to_string())?;
    let from = s.game.version();
    let entries = next.actions()[from..].to_vec();
    let standing = Standing::new(next.actions(), next.outcome());
    let now = ctx.now();
    let id = s.id;
    ctx.with_store(|store| {
        store.in_transaction(|store| {
            for (i, entry) in entries.iter().enumerate() {
                let after = if i + 1 == entries.len() {
                    standing.clone()
                } else {
                    Standing::new(&next.actions()[..from + i + 1], None)
                };
                store.append_action(id, from + i, entry, &after, now)?;
            }
            Ok(())
        })
    })
    .map_err(|e| e.to_string())?;
    if let Some(event) = game_event(told)
        && !matches!(event, JunqiEvent::Deployed { .. } | JunqiEvent::Dealt)
    {
        s.last = Some(LastAction::of(event, &board));
        s.banner_pending.set(true);
    }
    s.game = next;
    s.selected = None;
    Ok(())
}

/// A player's action: stored, then the computer's answer, then shown.
fn act(ctx: &Rc<Ctx>, actor: Actor, action: Action<JunqiMove>) {
    let Some(mut s) = ctx.junqi.borrow_mut().take() else {
        return;
    };
    let result = store_and_apply(ctx, &mut s, actor, &action);
    if result.is_ok() {
        run_computer(ctx, &mut s);
        settle_viewer(&mut s, false);
    }
    let over = s.game.outcome().is_some();
    *ctx.junqi.borrow_mut() = Some(s);
    match result {
        Err(e) => super::play::show_error(ctx, &e),
        Ok(()) if over => ctx.ui().global::<JunqiAdapter>().set_show_end_dialog(true),
        Ok(()) => {}
    }
    refresh(ctx);
}

fn cell_clicked(ctx: &Rc<Ctx>, index: i32) {
    let Some(p) = usize::try_from(index).ok().and_then(Point::from_index) else {
        return;
    };
    let chosen = {
        let mut guard = ctx.junqi.borrow_mut();
        let Some(s) = guard.as_mut() else { return };
        if s.handover || s.review.is_some() || s.game.outcome().is_some() {
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
        } else if s.game.to_act() != ToAct::Seat(s.viewer) {
            None
        } else {
            let legal = s.game.game().legal_moves(Actor::Seat(s.viewer));
            let face_down = s.game.game().board().is_face_down(p);
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
                _ if face_down && legal.contains(&JunqiMove::Flip(p)) => Some(JunqiMove::Flip(p)),
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
            let seat = ctx.junqi.borrow().as_ref().map(|s| s.viewer);
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
    if let Some(s) = ctx.junqi.borrow_mut().as_mut()
        && s.draft.is_some()
        && let Some(side) = s.game.game().side_of_seat(s.viewer)
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
    let text = ctx
        .junqi
        .borrow()
        .as_ref()
        .and_then(|s| s.draft.as_ref().map(Deployment::to_text));
    if let (false, Some(text)) = (name.is_empty(), text) {
        let key = format!("{LAYOUT_KEY}{name}");
        match ctx.with_store(|store| store.set_setting(&key, &text)) {
            Ok(()) => a.set_layout_name("".into()),
            Err(e) => super::play::show_error(ctx, &e.to_string()),
        }
    }
    refresh(ctx);
}

/// Pushes the session to the screen.
pub fn refresh(ctx: &Rc<Ctx>) {
    let saved = saved_layouts(ctx);
    let guard = ctx.junqi.borrow();
    let Some(s) = guard.as_ref() else { return };
    let g = s.game.game();
    let over = s.game.outcome().is_some();
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
    let cells = match s.review {
        Some(at) => review_cells(&s.game, at),
        None if s.handover => hidden_cells(),
        None => view_cells(s),
    };
    super::super::board_view::sync(&s.cells, cells);

    let ui = ctx.ui();
    let a = ui.global::<JunqiAdapter>();
    a.set_cells(ModelRc::from(s.cells.clone()));
    a.set_phase(phase.into());
    a.set_mode(
        match g.junqi_options().visibility {
            Visibility::Referee => "referee",
            Visibility::Open => "open",
            Visibility::Flip => "flip",
        }
        .into(),
    );
    a.set_viewer(s.viewer.index() as i32);
    let colour = |seat| g.side_of_seat(seat).map_or(-1, |side| side as i32);
    a.set_seat_colours(int_model(vec![colour(Seat::FIRST), colour(Seat::SECOND)]));
    // The viewer's side at the bottom (flip mode: the viewer's colour once known).
    a.set_flipped(g.side_of_seat(s.viewer) == Some(Side::North));
    a.set_to_move(match s.game.to_act() {
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
    a.set_quiet_left(
        g.junqi_options().quiet_limit() as i32 - g.view(Viewer::Spectator).quiet_plies as i32,
    );
    let outcome = s.game.outcome();
    a.set_result(super::play::result_code(outcome.as_ref().map(|o| &o.result)).into());
    a.set_reason(outcome.map(|o| o.reason.as_str()).unwrap_or("").into());
    set_banner(&a, s);
    if s.banner_pending.get() && matches!(phase, "play" | "over") {
        s.banner_pending.set(false);
        a.set_banner_visible(true);
    }
    let bottom = if g.side_of_seat(s.viewer) == Some(Side::North) {
        Side::North
    } else {
        Side::South
    };
    a.set_bottom_seat(g.seat_of_side(bottom).unwrap_or(s.viewer).index() as i32);
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
    a.set_review_plies(s.game.version() as i32);
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

/// The last battle or flip, as far as the viewer may know it.
fn set_banner(a: &JunqiAdapter<'_>, s: &JunqiSession) {
    let mut battle = "";
    let mut at = String::new();
    let mut attacker = String::new();
    let mut defender = String::new();
    let mut attacker_colour = -1;
    let mut flipped = String::new();
    let mut flipped_colour = -1;
    let viewer_side = s.game.game().side_of_seat(s.viewer);
    let over = s.game.outcome().is_some();
    let name = |piece: Option<(Side, Rank)>, told: Option<Rank>| -> String {
        match piece {
            Some((side, rank)) if over || told.is_some() || Some(side) == viewer_side => {
                rank.chinese().into()
            }
            Some(_) => "?".into(),
            None => String::new(),
        }
    };
    if let Some(last) = s.last.as_ref().filter(|_| s.review.is_none()) {
        match &last.event {
            JunqiEvent::Battle {
                mv,
                attacker_removed,
                defender_removed,
                attacker: a_rank,
                defender: d_rank,
            } => {
                let flag = last.defender.is_some_and(|(_, r)| r == Rank::Flag)
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
                attacker = name(last.attacker, *a_rank);
                defender = name(last.defender, *d_rank);
                attacker_colour = last.attacker.map_or(-1, |(side, _)| side as i32);
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

/// The viewer's picture: its draft while deploying, else its view, with its marks.
fn view_cells(s: &JunqiSession) -> Vec<JunqiCell> {
    let mut cells = hidden_cells();
    if let Some(draft) = &s.draft {
        for (p, rank) in &draft.pieces {
            let c = &mut cells[p.index()];
            c.side = draft.side as i32;
            c.piece = rank.chinese().into();
            c.selected = s.selected == Some(*p);
        }
        return cells;
    }
    let view = s.game.game().view(Viewer::Seat(s.viewer));
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
        for m in s.game.game().legal_moves(Actor::Seat(s.viewer)) {
            if let JunqiMove::Go(g) = m
                && g.from == from
            {
                cells[g.to.index()].target = true;
            }
        }
    }
    if let Some(last) = &s.last {
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
    cells
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

/// A uniform index below `n` from the operating system's randomness: this device deals.
fn os_pick(n: usize) -> usize {
    qiguan_core::uniform_index(n, random_seed)
}

/// 64 random bits for the dealer and the computer player's choices.
fn random_seed() -> u64 {
    let mut bytes = [0u8; 8];
    if getrandom::fill(&mut bytes).is_err() {
        // The OS's randomness is missing: the clock still varies the deal.
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        return nanos ^ 0x9e37_79b9_7f4a_7c15;
    }
    u64::from_le_bytes(bytes)
}
