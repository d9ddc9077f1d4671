//! The Junqi screen: deployment, pass-and-play behind the hand-over screen (or against the
//! computer), correspondence through a server, battles, flip mode, draw offers, the end, and a
//! review of a finished game with every piece shown.
//!
//! In a game on this device, the device is the authority: it deals, it runs the computer
//! player, and it shows each seat only that seat's view; every action is stored before it is
//! shown. In a correspondence game the server is the authority: the device keeps only its
//! seat's last view, queues the seat's actions (stored before they show as sent), and shows
//! the server's answer when it comes. All of that is the shared session of the games with
//! secrets ([`super::session`]); this module brings Junqi's board, deployment and computer.

use super::hidden::Source;
use super::new_game::two_seats;
use super::registry::{GameEntry, OnlineChoice};
use super::session::{self, SecretGame, Session};
use super::{handler, handler0};
use crate::ctx::Ctx;
use crate::random::{os_pick, random_seed};
use crate::store::{GameId, Mode, NewGame, Standing};
use qiguan_core::junqi::bot;
use qiguan_core::junqi::{
    Deployment, FlipColours, Junqi, JunqiEvent, JunqiMove, JunqiOptions, JunqiView, Point, Rank,
    SeenPlay, Side, Visibility, graph,
};
use qiguan_core::{Action, AnyMatch, GameKind, Match, Seat};
use qiguan_ui::{DeployIssue, GamePhase, JunqiAdapter, JunqiCell, NewGameAdapter, Screen};
use slint::{ComponentHandle, ModelRc, SharedString, VecModel};
use std::cell::RefCell;
use std::rc::Rc;

/// Where saved layouts live among the settings.
const LAYOUT_KEY: &str = "junqi-layout:";

/// A Junqi game on its screen.
type JunqiSession = Session<Junqi>;

/// Junqi in the registry of games.
pub(crate) const ENTRY: GameEntry = session::entry::<Junqi>(connect, start_chosen, |a, side| {
    OnlineChoice::two_people(chosen_options(a), side)
});

/// The Junqi screen's own models.
pub(crate) struct JunqiBoard {
    cells: Rc<VecModel<JunqiCell>>,
}

impl SecretGame for Junqi {
    type Point = Point;
    type Draft = Deployment;
    type Seen = SeenPlay;
    type Board = JunqiBoard;
    const SCREEN: Screen = Screen::Junqi;

    fn new_board() -> JunqiBoard {
        JunqiBoard {
            cells: Rc::new(VecModel::default()),
        }
    }

    fn deploying(source: &Source<Junqi>) -> bool {
        match source {
            Source::Local(game) => game.game().deploying(),
            Source::Remote(seen) => {
                seen.options.visibility != Visibility::Flip
                    && seen.view.game.deployed.iter().any(|d| !d)
            }
        }
    }

    fn has_deployed(view: &JunqiView, seat: Seat) -> bool {
        // A seat's side follows its seat outside flip mode, which has no deployment.
        view.colours
            .get(seat.index())
            .copied()
            .flatten()
            .is_some_and(|side| view.deployed[side as usize])
    }

    /// Something one seat alone may see: its deployment, or (in referee mode) its pieces.
    /// Flip mode hides nothing from one seat that the other sees.
    fn has_secrets(s: &JunqiSession) -> bool {
        match s.options().visibility {
            Visibility::Referee => true,
            Visibility::Open => s.deploying(),
            Visibility::Flip => false,
        }
    }

    fn deployment_of(s: &JunqiSession, seat: Seat, mv: &JunqiMove) -> Option<Deployment> {
        let JunqiMove::Deploy(text) = mv else {
            return None;
        };
        Deployment::from_text(s.side_of_seat(seat)?, text).ok()
    }

    fn first_draft(s: &JunqiSession, seat: Seat) -> Option<Deployment> {
        let side = s.side_of_seat(seat)?;
        Deployment::classic("稳守 Steady defence")
            .map(|d| if side == Side::South { d } else { d.mirror() })
    }

    fn seat_colour(s: &JunqiSession, seat: Seat) -> i32 {
        s.side_of_seat(seat).map_or(-1, |side| side as i32)
    }

    fn computer_accepts_draw(view: &JunqiView, seat: Seat) -> bool {
        bot::accepts_draw(view, seat)
    }

    fn computer_move(view: &JunqiView, seat: Seat, options: &JunqiOptions) -> Option<JunqiMove> {
        bot::choose(view, seat, options, random_seed())
    }

    fn refresh_board(ctx: &Rc<Ctx>, s: &JunqiSession) {
        refresh_board(ctx, s);
    }
}

impl Session<Junqi> {
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
}

/// The Junqi session slot in the context.
fn slot(ctx: &Ctx) -> &RefCell<Option<JunqiSession>> {
    session::slot::<Junqi>(ctx)
}

/// Pushes the session to the screen.
fn refresh(ctx: &Rc<Ctx>) {
    session::refresh::<Junqi>(ctx);
}

pub fn connect(ctx: &Rc<Ctx>) {
    let ui = ctx.ui();
    let a = ui.global::<JunqiAdapter>();
    a.set_road_path(road_path().into());
    a.set_rail_path(rail_path(false).into());
    a.set_rail_dashes(rail_path(true).into());
    a.on_cell_clicked(handler(ctx, |ctx, i: i32| cell_clicked(ctx, i)));
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
            Some(JunqiMove::Deploy(d.to_text()))
        });
        if let Some(mv) = chosen {
            session::viewer_acts::<Junqi>(ctx, Action::Play(mv));
        }
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
    new.kind = GameKind::Junqi;
    let standing = Standing::new(&dealt, game.outcome());
    let now = ctx.now();
    let id = ctx
        .with_store(|store| store.create_game_with(&new, &dealt, &standing, now))
        .map_err(|e| e.to_string())?;
    ctx.reset_to(Screen::Home);
    session::open::<Junqi>(ctx, id);
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
            session::viewer_acts::<Junqi>(ctx, Action::Play(mv));
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

/// Draws Junqi's own part of the screen: the board, the mode, the battle banner and the
/// deployment controls (the session's part is drawn by [`session::refresh`]).
fn refresh_board(ctx: &Rc<Ctx>, s: &JunqiSession) {
    let options = s.options();
    let view = s.view();
    let phase = s.phase();
    let cells = match (s.review, s.local()) {
        (Some(at), Some(game)) => review_cells(game, at),
        _ if s.handover => hidden_cells(),
        _ => view_cells(s, &view),
    };
    super::super::board_view::sync(&s.board.cells, cells);

    let ui = ctx.ui();
    let a = ui.global::<JunqiAdapter>();
    a.set_cells(ModelRc::from(s.board.cells.clone()));
    a.set_mode(
        match options.visibility {
            Visibility::Referee => "referee",
            Visibility::Open => "open",
            Visibility::Flip => "flip",
        }
        .into(),
    );
    // The viewer's side at the bottom (flip mode: the viewer's colour once known).
    let north = s.side_of_seat(s.viewer) == Some(Side::North);
    a.set_flipped(north);
    let bottom = if north { Side::North } else { Side::South };
    a.set_bottom_seat(s.seat_of_side(bottom).unwrap_or(s.viewer).index() as i32);
    a.set_quiet_left(options.quiet_limit() as i32 - view.quiet_plies as i32);
    set_banner(
        &a,
        s,
        &view,
        matches!(phase, GamePhase::Play | GamePhase::Over),
    );
    let issues: Vec<DeployIssue> = s
        .draft
        .as_ref()
        .map(|d| match d.validate() {
            Ok(()) => Vec::new(),
            Err(problems) => problems.iter().filter_map(issue).collect(),
        })
        .unwrap_or_default();
    a.set_deploy_issues(ModelRc::new(VecModel::from(issues)));
    a.set_classics(strings(qiguan_core::junqi::deployment::classic_names()));
    a.set_saved_layouts(strings(
        saved_layouts(ctx).iter().map(|(name, _)| name.as_str()),
    ));
}

fn strings<'a>(names: impl Iterator<Item = &'a str>) -> ModelRc<SharedString> {
    ModelRc::new(VecModel::from(
        names.map(SharedString::from).collect::<Vec<_>>(),
    ))
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
