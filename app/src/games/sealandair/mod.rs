//! The Sea-land-air screen: deployment, pass-and-play behind the hand-over screen (or against
//! the computer), correspondence through a server, moves and attacks on land, at sea and in the
//! air, draw offers, the end, and a review of a finished game with every piece shown.
//!
//! In a game on this device, the device is the referee: it runs the computer player and shows
//! each seat only that seat's view; every action is stored before it is shown. In a
//! correspondence game the server referees: the device keeps only its seat's last view, queues
//! the seat's actions (stored before they show as sent), and shows the server's answer. All
//! of that is the shared session's ([`crate::play`], [`crate::play::secret`]); this module brings
//! Sea-land-air's board, deployment and computer.

mod paths;

use paths::{draw_paths, xy};

use crate::play::GameEntry;
use crate::play::secret::{BannerUi, SecretGame, secret_screen};
use crate::play::{self, GameScreen, Session};
use crate::shell::bind::handler;
use crate::shell::ctx::Ctx;
use crate::shell::random::random_seed;
use qiguan_core::deploy::Deploys;
use qiguan_core::deploy::Side;
use qiguan_core::sealandair::state::side_of;
use qiguan_core::sealandair::{
    Deployment, Kind, Label, Layer, Move, NoMove, Point, SeaLandAir, SeaLandAirEvent,
    SeaLandAirMove, SeaLandAirOptions, SeaLandAirView, SeenPlay,
};
use qiguan_core::{Match, Seat};
use qiguan_ui::{
    AppWindow, Battle, DeployIssue, GamePhase, Screen, SeaLandAirAdapter, SeaLandAirCell,
    SeaLandAirRules,
};
use slint::{ComponentHandle, ModelRc};
use std::rc::Rc;

/// Sea-land-air in the registry of games.
pub(crate) const ENTRY: GameEntry = GameEntry {
    online: play::secret::online_choice::<SeaLandAir>,
    ..play::entry::<SeaLandAir>(connect, RULES)
};

/// Sea-land-air's rules page (docs/rules/).
const RULES: play::RulesPage = play::RulesPage {
    english: include_str!("../../../../docs/rules/sea-land-air.md"),
    chinese: include_str!("../../../../docs/rules/zh/sea-land-air.md"),
};

impl GameScreen for SeaLandAir {
    secret_screen!(Screen::SeaLandAir, SeaLandAirCell);

    fn chosen_options(ui: &AppWindow) -> SeaLandAirOptions {
        SeaLandAirOptions {
            open: ui.global::<SeaLandAirRules>().get_open(),
            referee: ui.global::<SeaLandAirRules>().get_referee(),
            ..SeaLandAirOptions::default()
        }
    }

    /// Open mode has nothing left to hide once both have deployed.
    fn has_secrets(s: &Session<SeaLandAir>) -> bool {
        !s.options().open || s.deploying()
    }

    /// The deployment's tips, then on the player's first turn the board's.
    fn walkthrough(s: &Session<SeaLandAir>) -> Option<&'static str> {
        match s.phase() {
            GamePhase::Deploy => Some("sea-land-air-deploy"),
            GamePhase::Play if s.viewer_to_act() => Some("sea-land-air-play"),
            _ => None,
        }
    }
}

impl SecretGame for SeaLandAir {
    fn tap_play(s: &mut Session<SeaLandAir>, p: Point) -> Option<SeaLandAirMove> {
        let legal = go_moves(s);
        match s.selected {
            Some(from) if from == p => {
                s.selected = None;
                None
            }
            Some(from) if legal.iter().any(|m| m.from == from && m.to == p) => legal
                .iter()
                .find(|m| m.from == from && m.to == p)
                .map(|m| SeaLandAirMove::Go(*m)),
            _ => {
                let movable = legal.iter().any(|m| m.from == p);
                if !movable {
                    s.refusal = refusal(s, p);
                }
                s.selected = movable.then_some(p);
                None
            }
        }
    }

    fn first_draft(_: &Session<SeaLandAir>, seat: Seat) -> Option<Deployment> {
        Some(Deployment::sensible(side_of(seat), random_seed()))
    }

    fn random_draft(s: &Session<SeaLandAir>) -> Option<Deployment> {
        Self::first_draft(s, s.viewer)
    }

    /// Swaps keep every piece on its kind of place: only the flag can stray (out of the city).
    fn draft_issues(draft: &Deployment) -> Vec<DeployIssue> {
        draft
            .pieces
            .iter()
            .filter(|(p, k)| *k == Kind::Flag && p.label() != Label::City)
            .map(|(p, _)| DeployIssue {
                code: "city".into(),
                at: p.to_string().into(),
            })
            .collect()
    }

    fn banner(s: &Session<SeaLandAir>, view: &SeaLandAirView) -> BannerUi {
        banner(s, view)
    }

    fn draw_board(ctx: &Rc<Ctx>, s: &Session<SeaLandAir>, view: &SeaLandAirView) {
        refresh_board(ctx, s, view);
    }
}

/// The viewer's moves on the board now (not deployments).
fn go_moves(s: &Session<SeaLandAir>) -> Vec<Move> {
    s.legal_moves()
        .into_iter()
        .filter_map(|m| match m {
            SeaLandAirMove::Go(m) => Some(m),
            _ => None,
        })
        .collect()
}

/// North at the bottom when North is looking.
fn flipped(s: &Session<SeaLandAir>) -> bool {
    side_of(s.viewer) == Side::North
}

pub fn connect(ctx: &Rc<Ctx>) {
    let ui = ctx.ui();
    let a = ui.global::<SeaLandAirAdapter>();
    a.on_cell_clicked(handler(ctx, play::tap::<SeaLandAir>));
}

/// Two placement points of the same kind of place (land, sea, airport).
fn same_place(a: Point, b: Point) -> bool {
    a.layer() == b.layer()
}

/// Where a play slides on the board: a move, a retreat that arrived, or an attack its
/// attacker won and made by moving (a strike from afar stays put).
fn slid(event: &SeaLandAirEvent) -> Option<(usize, usize)> {
    use SeaLandAirEvent::{Battle, Moved, Retreated};
    let mv = match event {
        Moved { mv }
        | Retreated {
            mv,
            shot_down: false,
        } => mv,
        Battle {
            mv,
            attacker_removed: false,
            sent_home: None,
            ..
        } => mv,
        _ => return None,
    };
    let m = mv.parse::<Move>().ok().filter(|m| !m.remote)?;
    Some((m.from.index(), m.to.index()))
}

/// Draws Sea-land-air's own part of the screen: the board in the viewer's orientation, the
/// banner, the selected piece and the deployment check (the session's part is drawn by
/// [`play::refresh`]).
fn refresh_board(ctx: &Rc<Ctx>, s: &Session<SeaLandAir>, view: &SeaLandAirView) {
    let ui = ctx.ui();
    let a = ui.global::<SeaLandAirAdapter>();
    let options = s.options();
    let flipped = flipped(s);
    if *s.board.drawn_for.borrow() != Some(flipped) {
        draw_paths(&a, flipped);
        *s.board.drawn_for.borrow_mut() = Some(flipped);
    }
    let cells = match play::reviewed(s) {
        Some(past) => review_cells(&past, flipped),
        None if s.handover => base_cells(flipped),
        None => view_cells(s, view, flipped),
    };
    crate::shell::bind::sync(&s.board.cells, cells);
    let last = view.last.as_ref().map(|l| &l.event);
    play::slide_last_event(ctx, s, &s.board.last_drawn, last, slid);
    a.set_cells(ModelRc::from(s.board.cells.clone()));
    a.set_bottom_seat(s.viewer.index() as i32);
    a.set_quiet_left(options.quiet_plies as i32 - view.quiet_plies as i32);
    let (sel_piece, sel_moves, sel_strikes) = selected_piece(s, view);
    a.set_sel_piece(sel_piece.into());
    a.set_sel_moves(sel_moves);
    a.set_sel_strikes(sel_strikes);
}

/// What the selected piece is, how many moves it has and how many attacks from afar.
fn selected_piece(s: &Session<SeaLandAir>, view: &SeaLandAirView) -> (&'static str, i32, i32) {
    let (Some(from), true) = (s.selected, s.draft.is_none()) else {
        return ("", 0, 0);
    };
    let moves: Vec<Move> = go_moves(s).into_iter().filter(|m| m.from == from).collect();
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

/// Why a tap at `p` made no move, when it was meant as one: a piece of the viewer's that
/// never moves, the move from the selected piece that the rules refuse, or a tap on the
/// viewer's pieces while it is not its turn. Only what the viewer's view shows is used.
fn refusal(s: &Session<SeaLandAir>, p: Point) -> Option<&'static str> {
    let view = s.view();
    let board = view.board();
    let own = board.get(p).filter(|q| q.side == side_of(s.viewer));
    if !s.viewer_to_act() {
        return own.map(|_| "not-your-turn");
    }
    match (own, s.selected) {
        (Some(piece), _) => piece.kind.immobile().then(|| NoMove::Immobile.code()),
        (None, Some(from)) => board.why_not(from, p).map(NoMove::code),
        (None, None) => None,
    }
}

/// The last fight or retreat, as far as the viewer may know it, and what the viewer's recon
/// plane revealed on its flight.
fn banner(s: &Session<SeaLandAir>, view: &SeaLandAirView) -> BannerUi {
    let Some(last) = &view.last else {
        return BannerUi::default();
    };
    let to = |mv: &str| {
        mv.parse::<Move>()
            .map(|m| m.to.to_string())
            .unwrap_or_default()
    };
    let mut banner = match &last.event {
        SeaLandAirEvent::Battle { .. } => SeaLandAir::fight(last)
            .map(BannerUi::from)
            .unwrap_or_default(),
        SeaLandAirEvent::Retreated { mv, shot_down } => BannerUi {
            battle: if *shot_down {
                Battle::ShotDown
            } else {
                Battle::Retreat
            },
            at: to(mv),
            ..BannerUi::default()
        },
        _ => BannerUi::default(),
    };
    banner.spotted = spotted(s, view, last) as i32;
    banner
}

/// How many opposing pieces the viewer's own recon plane revealed on the flight `last`.
fn spotted(s: &Session<SeaLandAir>, view: &SeaLandAirView, last: &SeenPlay) -> usize {
    let mine = last
        .mover
        .as_ref()
        .is_some_and(|m| m.side == side_of(s.viewer) && m.kind == Some(Kind::Recon));
    let (SeaLandAirEvent::Moved { mv }
    | SeaLandAirEvent::Battle { mv, .. }
    | SeaLandAirEvent::Retreated { mv, .. }) = &last.event
    else {
        return 0;
    };
    let Ok(m) = mv.parse::<Move>() else { return 0 };
    if !mine {
        return 0;
    }
    // The flight's path: the board as it stood before the flight (the recon back where it
    // took off), since a retreat takes the first line clear to its route.
    let mut path = view.board();
    let recon = path.get(m.to);
    path.set(m.to, None);
    path.set(m.from, recon);
    let over = path.flown_over(m.from, m.to);
    view.pieces
        .iter()
        .filter(|p| p.side != side_of(s.viewer) && p.kind.is_some())
        .filter(|p| p.at.parse::<Point>().is_ok_and(|q| over.contains(&q)))
        .count()
}

fn base_cell(p: Point, flipped: bool) -> SeaLandAirCell {
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
    SeaLandAirCell {
        label: p.to_string().into(),
        x,
        y,
        layer,
        tag: tag.into(),
        placement: p.is_placement(),
        side: -1,
        ..SeaLandAirCell::default()
    }
}

/// The empty board, for behind the hand-over screen.
fn base_cells(flipped: bool) -> Vec<SeaLandAirCell> {
    Point::all().map(|p| base_cell(p, flipped)).collect()
}

fn put(cell: &mut SeaLandAirCell, side: Side, kind: Option<Kind>) {
    cell.side = side as i32;
    match kind {
        Some(kind) => cell.piece = kind.short().into(),
        None => cell.unknown = true,
    }
}

/// The viewer's picture: its draft (or the deployment it sent) while deploying, else its view,
/// with its marks.
fn view_cells(
    s: &Session<SeaLandAir>,
    view: &SeaLandAirView,
    flipped: bool,
) -> Vec<SeaLandAirCell> {
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
        // The pieces the deployment's issues name (their words say what is wrong).
        for issue in <SeaLandAir as SecretGame>::draft_issues(&draft) {
            if let Ok(p) = issue.at.parse::<Point>() {
                cells[p.index()].battle = true;
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
        for m in go_moves(s).into_iter().filter(|m| m.from == from) {
            if m.remote {
                cells[m.to.index()].strike = true;
            } else {
                cells[m.to.index()].target = true;
            }
        }
    }
    mark_last(&mut cells, view);
    for action in s.source.pending() {
        if let Ok(SeaLandAirMove::Go(m)) = action.parse::<SeaLandAirMove>() {
            cells[m.from.index()].selected = true;
            cells[m.to.index()].target = true;
        }
    }
    cells
}

/// Marks the last move, and the point of its battle.
fn mark_last(cells: &mut [SeaLandAirCell], view: &SeaLandAirView) {
    let Some(last) = &view.last else { return };
    let (SeaLandAirEvent::Moved { mv }
    | SeaLandAirEvent::Battle { mv, .. }
    | SeaLandAirEvent::Retreated { mv, .. }) = &last.event
    else {
        return;
    };
    if let Ok(m) = mv.parse::<Move>() {
        cells[m.from.index()].last = true;
        cells[m.to.index()].last = true;
        if matches!(last.event, SeaLandAirEvent::Battle { .. }) {
            cells[m.to.index()].battle = true;
        }
    }
}

/// A finished game as it stood at an earlier action, every piece shown: the layouts while
/// deploying, then the board with the last move marked.
fn review_cells(past: &Match<SeaLandAir>, flipped: bool) -> Vec<SeaLandAirCell> {
    let mut cells = base_cells(flipped);
    let g = past.game();
    if g.deploying() {
        let layouts = [Side::South, Side::North].map(|side| g.deployment(side));
        for d in layouts.into_iter().flatten() {
            d.pieces
                .iter()
                .for_each(|(p, kind)| put(&mut cells[p.index()], d.side, Some(*kind)));
        }
        return cells;
    }
    for (p, piece) in g.board().pieces() {
        put(&mut cells[p.index()], piece.side, Some(piece.kind));
    }
    let last = past.actions().last();
    if let Some(m) = last.and_then(|e| e.action.parse::<Move>().ok()) {
        cells[m.from.index()].last = true;
        cells[m.to.index()].last = true;
    }
    cells
}
