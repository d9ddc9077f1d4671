//! The Junqi screen: deployment, pass-and-play behind the hand-over screen (or against the
//! computer), correspondence through a server, battles, flip mode, draw offers, the end, and a
//! review of a finished game with every piece shown.
//!
//! In a game on this device, the device is the authority: it deals, it runs the computer
//! player, and it shows each seat only that seat's view; every action is stored before it is
//! shown. In a correspondence game the server is the authority: the device keeps only its
//! seat's last view, queues the seat's actions (stored before they show as sent), and shows
//! the server's answer when it comes. All of that is the shared session of the games with
//! secrets ([`crate::play`]); this module brings Junqi's board, deployment and computer.

use crate::play::GameEntry;
use crate::play::secret::{BannerUi, SecretGame, secret_screen};
use crate::play::{self, GameScreen, Session};
use crate::shell::bind::{handler, handler0};
use crate::shell::ctx::Ctx;
use crate::shell::random::random_seed;
use qiguan_core::deploy::Deploys;
use qiguan_core::junqi::{
    Deployment, FlipColours, Junqi, JunqiEvent, JunqiMove, JunqiOptions, JunqiView, NoMove, Point,
    Rank, Side, Visibility, graph,
};
use qiguan_core::{Match, Seat};
use qiguan_ui::{
    AppWindow, DeployIssue, GamePhase, JunqiAdapter, JunqiCell, JunqiMode, JunqiRules, Routes,
    Screen,
};
use slint::{ComponentHandle, ModelRc, SharedString, VecModel};
use std::rc::Rc;

/// Where saved layouts live among the settings.
const LAYOUT_KEY: &str = "junqi-layout:";

/// Junqi in the registry of games.
pub(crate) const ENTRY: GameEntry = GameEntry {
    seat_colour,
    online: play::secret::online_choice::<Junqi>,
    ..play::entry::<Junqi>(connect, RULES)
};

/// Junqi's rules page (docs/rules/).
const RULES: play::RulesPage = play::RulesPage {
    english: include_str!("../../../docs/rules/junqi.md"),
    chinese: include_str!("../../../docs/rules/zh/junqi.md"),
};

/// A seat's colour once the game has decided it (from the start, but in flip mode only with
/// the first flips): 0 red, 1 blue.
fn seat_colour(game: &qiguan_core::AnyMatch, seat: Seat) -> Option<i32> {
    match game {
        qiguan_core::AnyMatch::Junqi(m) => m.game().side_of_seat(seat).map(|side| side as i32),
        _ => None,
    }
}

impl GameScreen for Junqi {
    secret_screen!(Screen::Junqi, JunqiCell);
    const DEALS: bool = true;

    fn chosen_options(ui: &AppWindow) -> JunqiOptions {
        let a = ui.global::<JunqiRules>();
        JunqiOptions {
            visibility: match a.get_mode() {
                1 => Visibility::Open,
                2 => Visibility::Flip,
                _ => Visibility::Referee,
            },
            landmine_stays: a.get_landmine_stays(),
            camps_safe: a.get_camps_safe(),
            bombs_enter_headquarters: a.get_bombs_enter_hq(),
            quiet_plies: None,
            flip_colours: match a.get_two_in_a_row() {
                true => FlipColours::TwoInARow,
                false => FlipColours::FirstTurn,
            },
            headquarters_locked: a.get_hq_locked(),
            landmines_attackable: a.get_landmines_attackable(),
        }
    }

    /// Something one seat alone may see: its deployment, or (in referee mode) its pieces.
    /// Flip mode hides nothing from one seat that the other sees.
    fn has_secrets(s: &Session<Junqi>) -> bool {
        match s.options().visibility {
            Visibility::Referee => true,
            Visibility::Open => s.deploying(),
            Visibility::Flip => false,
        }
    }

    /// Deployment's controls, the first time a player deploys.
    fn walkthrough(s: &Session<Junqi>) -> Option<&'static str> {
        (s.phase() == GamePhase::Deploy).then_some("junqi-deploy")
    }
}

impl SecretGame for Junqi {
    fn tap_play(s: &mut Session<Junqi>, p: Point) -> Option<JunqiMove> {
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
                if !movable {
                    s.refusal = refusal(s, p);
                }
                s.selected = movable.then_some(p);
                None
            }
        }
    }

    const SAVED_LAYOUTS: bool = true;

    fn random_draft(s: &Session<Junqi>) -> Option<Deployment> {
        Some(Deployment::random(s.side_of(s.viewer)?, random_seed()))
    }

    fn draft_issues(draft: &Deployment) -> Vec<DeployIssue> {
        match draft.validate() {
            Ok(()) => Vec::new(),
            Err(problems) => problems.iter().filter_map(issue).collect(),
        }
    }

    fn first_draft(s: &Session<Junqi>, seat: Seat) -> Option<Deployment> {
        let side = s.side_of(seat)?;
        Deployment::classic("稳守 Steady defence")
            .map(|d| if side == Side::South { d } else { d.mirror() })
    }

    fn banner(_: &Session<Junqi>, view: &JunqiView) -> BannerUi {
        banner(view)
    }

    fn draw_board(ctx: &Rc<Ctx>, s: &Session<Junqi>, view: &JunqiView) {
        refresh_board(ctx, s, view);
    }
}

impl Session<Junqi> {
    fn seat_of_side(&self, side: Side) -> Option<Seat> {
        [Seat::FIRST, Seat::SECOND]
            .into_iter()
            .find(|s| self.side_of(*s) == Some(side))
    }
}

pub fn connect(ctx: &Rc<Ctx>) {
    let ui = ctx.ui();
    let a = ui.global::<JunqiAdapter>();
    a.set_routes(Routes {
        roads: road_path().into(),
        rails: rail_path(false).into(),
        rail_dashes: rail_path(true).into(),
    });
    a.on_cell_clicked(handler(ctx, play::tap::<Junqi>));
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
                crate::shell::bind::show_error(ctx, &e.to_string());
            }
        }
        play::refresh::<Junqi>(ctx);
    }));
}

/// Replaces the viewer's draft deployment.
fn set_draft(ctx: &Rc<Ctx>, make: impl FnOnce(Side) -> Option<Deployment>) {
    if let Some(s) = play::slot::<Junqi>(ctx).borrow_mut().as_mut()
        && s.draft.is_some()
        && let Some(side) = s.side_of(s.viewer)
        && let Some(d) = make(side)
    {
        s.draft = Some(d);
        s.selected = None;
    }
    play::refresh::<Junqi>(ctx);
}

fn saved_layouts(ctx: &Rc<Ctx>) -> Vec<(String, String)> {
    ctx.with_store(|store| store.settings_with_prefix(LAYOUT_KEY))
        .unwrap_or_default()
}

fn save_layout(ctx: &Rc<Ctx>) {
    let ui = ctx.ui();
    let a = ui.global::<JunqiAdapter>();
    let name = a.get_layout_name().trim().to_owned();
    let text = play::slot::<Junqi>(ctx)
        .borrow()
        .as_ref()
        .and_then(|s| s.draft.as_ref().map(Deployment::to_text));
    if let (false, Some(text)) = (name.is_empty(), text) {
        let key = format!("{LAYOUT_KEY}{name}");
        match ctx.with_store(|store| store.set_setting(&key, &text)) {
            Ok(()) => a.set_layout_name("".into()),
            Err(e) => crate::shell::bind::show_error(ctx, &e.to_string()),
        }
    }
    play::refresh::<Junqi>(ctx);
}

/// Draws Junqi's own part of the screen: the board, the mode, the battle banner and the
/// deployment controls (the session's part is drawn by [`play::refresh`]).
fn refresh_board(ctx: &Rc<Ctx>, s: &Session<Junqi>, view: &JunqiView) {
    let options = s.options();
    let cells = match play::reviewed(s) {
        Some(past) => review_cells(&past),
        None if s.handover => hidden_cells(),
        None => view_cells(s, view),
    };
    crate::shell::bind::sync(&s.board.cells, cells);
    let last = view.last.as_ref().map(|l| &l.event);
    play::slide_last_event(ctx, s, &s.board.last_drawn, last, slid);

    let ui = ctx.ui();
    let a = ui.global::<JunqiAdapter>();
    a.set_cells(ModelRc::from(s.board.cells.clone()));
    a.set_mode(match options.visibility {
        Visibility::Referee => JunqiMode::Referee,
        Visibility::Open => JunqiMode::Open,
        Visibility::Flip => JunqiMode::Flip,
    });
    let north = north_at_bottom(s);
    a.set_flipped(north);
    let bottom = if north { Side::North } else { Side::South };
    // Before flip mode's colours are known, the seat bars stay put too.
    let undecided = match options.visibility {
        Visibility::Flip => s.fixed_seat().unwrap_or(Seat::FIRST),
        _ => s.viewer,
    };
    a.set_bottom_seat(s.seat_of_side(bottom).unwrap_or(undecided).index() as i32);
    a.set_quiet_left(options.quiet_limit() as i32 - view.quiet_plies as i32);
    a.set_classics(strings(qiguan_core::junqi::deployment::classic_names()));
    a.set_saved_layouts(strings(
        saved_layouts(ctx).iter().map(|(name, _)| name.as_str()),
    ));
}

/// Where a play slides on the board: a move, or an attack its attacker won.
fn slid(event: &JunqiEvent) -> Option<(usize, usize)> {
    let (JunqiEvent::Moved { mv }
    | JunqiEvent::Battle {
        mv,
        attacker_removed: false,
        ..
    }) = event
    else {
        return None;
    };
    let m: qiguan_core::junqi::Move = mv.parse().ok()?;
    Some((m.from.index(), m.to.index()))
}

/// Why a tap at `p` made no move, when it was meant as one: a piece of the viewer's that
/// may never move, the move from the selected piece that the rules refuse, or a tap on the
/// viewer's pieces while it is not its turn. Only what the viewer's view shows is used.
fn refusal(s: &Session<Junqi>, p: Point) -> Option<&'static str> {
    let view = s.view();
    let at = p.to_string();
    let mine = s.side_of(s.viewer);
    let own = view
        .pieces
        .iter()
        .any(|q| q.at == at && Some(q.side) == mine);
    if !s.viewer_to_act() {
        return own.then_some("not-your-turn");
    }
    let options = s.options();
    let why = |from: Point| view.why_not(&options, qiguan_core::junqi::Move { from, to: p });
    match s.selected {
        _ if own => why(p)
            .filter(|w| matches!(w, NoMove::Immobile | NoMove::InHeadquarters))
            .map(NoMove::code),
        Some(from) => why(from).map(NoMove::code),
        None => None,
    }
}

/// Whether the board is drawn turned, North at the bottom: the viewer's side at the bottom,
/// except in flip mode, where the board stays still. There the pieces lie mixed over the whole
/// board and nothing is hidden between the players, so turning it after every move (or when
/// the first flip decides the colours) would only make the piece just turned jump across.
pub(crate) fn north_at_bottom(s: &Session<Junqi>) -> bool {
    s.options().visibility != Visibility::Flip && s.side_of(s.viewer) == Some(Side::North)
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

/// The last battle or flip, as far as the viewer may know it.
fn banner(view: &JunqiView) -> BannerUi {
    let Some(last) = &view.last else {
        return BannerUi::default();
    };
    if let Some(fight) = Junqi::fight(last) {
        return fight.into();
    }
    match &last.event {
        JunqiEvent::Flipped { side, rank, .. } => BannerUi {
            turned_up: rank.chinese().into(),
            turned_up_colour: *side as i32,
            ..BannerUi::default()
        },
        _ => BannerUi::default(),
    }
}

/// The viewer's picture: its draft (or the deployment it sent) while deploying, else its view,
/// with its marks.
fn view_cells(s: &Session<Junqi>, view: &JunqiView) -> Vec<JunqiCell> {
    let mut cells = hidden_cells();
    if let Some(draft) = s.draft.clone().or_else(|| s.pending_deployment()) {
        for (p, rank) in &draft.pieces {
            let c = &mut cells[p.index()];
            c.side = draft.side as i32;
            c.piece = rank.chinese().into();
            c.selected = s.selected == Some(*p);
        }
        mark_issues(&mut cells, &<Junqi as SecretGame>::draft_issues(&draft));
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
    mark_last(&mut cells, view);
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

/// Marks the last move (and the point of its battle) or the last flip.
/// Marks the pieces the deployment's issues name (the issue's words say what is wrong).
fn mark_issues(cells: &mut [JunqiCell], issues: &[DeployIssue]) {
    for issue in issues {
        if let Ok(p) = issue.at.parse::<Point>() {
            cells[p.index()].battle = true;
        }
    }
}

fn mark_last(cells: &mut [JunqiCell], view: &JunqiView) {
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

/// A finished game as it stood at an earlier action, every piece shown: while deploying, each
/// deployment as it was made; then the board, with the last move marked.
fn review_cells(past: &Match<Junqi>) -> Vec<JunqiCell> {
    let mut cells = hidden_cells();
    let g = past.game();
    let shown: Vec<(Point, Side, Rank)> = if g.deploying() {
        [Side::South, Side::North]
            .into_iter()
            .filter_map(|side| g.deployment(side))
            .flat_map(|d| d.pieces.iter().map(|&(p, rank)| (p, d.side, rank)))
            .collect()
    } else {
        g.board()
            .pieces()
            .map(|(p, piece)| (p, piece.side, piece.rank))
            .collect()
    };
    for (p, side, rank) in shown {
        cells[p.index()].side = side as i32;
        cells[p.index()].piece = rank.chinese().into();
    }
    let last = past.actions().last();
    if let Some(m) = last.and_then(|e| e.action.parse::<qiguan_core::junqi::Move>().ok()) {
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
