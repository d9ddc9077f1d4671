//! Replay: step through a stored game, continue from any position, export FEN and PGN.

use super::review::{self, Review};
use super::view::{self, Marks, check_square, move_rows};
use crate::ctx::Ctx;
use crate::screens::rows::format_date;
use crate::screens::sync;
use crate::screens::{handler, handler0};
use crate::settings::Orientation;
use crate::store::{GameId, Mode, StoreError};
use qiguan_core::xiangqi::pgn::{MoveFormat, write_pgn};
use qiguan_core::xiangqi::{Move, Position, Xiangqi, XiangqiOptions, XiangqiSetup};
use qiguan_core::{Match, Rules};
use qiguan_ui::{BoardCell, MoveRow, ReplayAdapter, Screen};
use slint::{ComponentHandle, ModelRc, SharedString, VecModel};
use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::Rc;

/// A stored game being replayed.
pub struct ReplaySession {
    pub(super) id: GameId,
    pub(super) game: Match<Xiangqi>,
    pub(super) moves: Vec<Move>,
    players: [String; 2],
    /// Red and Black: played by the computer (a role, not a name).
    computers: [bool; 2],
    created_at: i64,
    pub(super) ply: usize,
    manual_flip: bool,
    cells: Rc<VecModel<BoardCell>>,
    rows: Rc<VecModel<MoveRow>>,
    /// The engine's review and live line.
    pub(super) review: Review,
}

impl ReplaySession {
    /// Returns the position after `self.ply` moves.
    pub(super) fn position(&self) -> Position {
        self.position_at(self.ply)
    }

    /// Returns the position after `ply` moves.
    pub(super) fn position_at(&self, ply: usize) -> Position {
        let mut pos = self.game.game().start_position().clone();
        for &m in &self.moves[..ply.min(self.moves.len())] {
            let _ = pos.play(m);
        }
        pos
    }
}

pub fn connect(ctx: &Rc<Ctx>) {
    let ui = ctx.ui();
    let a = ui.global::<ReplayAdapter>();
    a.on_go_to(handler(ctx, |ctx, ply: i32| {
        if let Some(s) = slot(ctx).borrow_mut().as_mut() {
            s.ply = (ply.max(0) as usize).min(s.moves.len());
        }
        refresh(ctx);
        review::follow(ctx);
    }));
    a.on_analyse(handler(ctx, |ctx, on: bool| {
        if on {
            review::start(ctx);
        } else {
            review::stop(ctx);
        }
    }));
    a.on_flip(handler0(ctx, |ctx| {
        if let Some(s) = slot(ctx).borrow_mut().as_mut() {
            s.manual_flip = !s.manual_flip;
        }
        refresh(ctx);
    }));
    a.on_continue_here(handler0(ctx, continue_here));
    a.on_export_changed(handler0(ctx, export));
    a.on_save_export(handler0(ctx, save_export));
}

/// Opens a stored game in the replay screen, at the end or at the start.
pub fn open(ctx: &Rc<Ctx>, id: GameId, at_end: bool) {
    match load(ctx, id) {
        Ok(mut session) => {
            session.ply = if at_end { session.moves.len() } else { 0 };
            *slot(ctx).borrow_mut() = Some(session);
            let ui = ctx.ui();
            let a = ui.global::<ReplayAdapter>();
            a.set_autoplay(false);
            a.set_show_export(false);
            refresh(ctx);
            ctx.go(Screen::Replay);
        }
        Err(e) => crate::screens::show_error(ctx, &e.to_string()),
    }
}

fn load(ctx: &Rc<Ctx>, id: GameId) -> Result<ReplaySession, StoreError> {
    let loaded = load_xiangqi(ctx, id)?;
    let moves: Vec<Move> = loaded.game.game().moves().collect();
    let review = Review::from_kept(review::kept(ctx, id, &moves));
    Ok(ReplaySession {
        id,
        moves,
        game: loaded.game,
        players: loaded.players,
        computers: loaded.computers,
        created_at: loaded.created_at,
        ply: 0,
        manual_flip: false,
        cells: Rc::new(VecModel::default()),
        rows: Rc::new(VecModel::default()),
        review,
    })
}

/// Pushes the shown position to the screen.
pub fn refresh(ctx: &Rc<Ctx>) {
    let settings = *ctx.settings.borrow();
    let guard = slot(ctx).borrow();
    let Some(s) = guard.as_ref() else { return };
    let pos = s.position();
    let marks = Marks {
        last: s.ply.checked_sub(1).map(|i| s.moves[i]),
        check: check_square(&pos),
        ..Marks::default()
    };
    sync(&s.cells, view::cells(&pos, &marks));
    let mut rows = move_rows(s.game.game().start_position(), &s.moves, settings.notation);
    let glyphs = review::glyphs(s);
    for row in &mut rows {
        let mark = |ply: i32| {
            usize::try_from(ply)
                .ok()
                .and_then(|p| glyphs.get(p))
                .copied()
        };
        if let Some(g) = mark(row.first_ply) {
            row.first = format!("{}{g}", row.first).into();
        }
        if let Some(g) = mark(row.second_ply) {
            row.second = format!("{}{g}", row.second).into();
        }
    }
    sync(&s.rows, rows);
    let base_flip = settings.orientation == Orientation::BlackBottom;
    let outcome = s.game.outcome();
    let ui = ctx.ui();
    let a = ui.global::<ReplayAdapter>();
    a.set_cells(ModelRc::from(s.cells.clone()));
    a.set_moves(ModelRc::from(s.rows.clone()));
    a.set_flipped(base_flip != s.manual_flip);
    a.set_ply(s.ply as i32);
    a.set_total(s.moves.len() as i32);
    a.set_game_id(s.id.0 as i32);
    a.set_names(ModelRc::new(VecModel::from(
        s.players
            .iter()
            .map(|p| SharedString::from(p.as_str()))
            .collect::<Vec<_>>(),
    )));
    a.set_computers(ModelRc::new(VecModel::from(s.computers.to_vec())));
    a.set_outcome(crate::screens::session::game_outcome(outcome.as_ref()));
    a.set_analysing(s.review.on);
    a.set_reviewing(s.review.running());
    a.set_reviewed(s.review.done() as i32);
    a.set_graph(review::graph_path(&s.review.judged).into());
    a.set_marks(ModelRc::new(VecModel::from(review::marks(s))));
    let before = s
        .ply
        .checked_sub(1)
        .map_or_else(|| pos.clone(), |p| s.position_at(p));
    a.set_note(review::note(s, settings.notation, &before));
    let best = review::best_here(s).filter(|m| s.review.on && pos.is_legal(*m));
    a.set_best_from(best.map_or(-1, |m| m.from.index() as i32));
    a.set_best_to(best.map_or(-1, |m| m.to.index() as i32));
    let others: Vec<qiguan_ui::BoardArrow> = review::others_here(s)
        .iter()
        .filter_map(|j| j.best)
        .filter(|m| s.review.on && pos.is_legal(*m) && Some(*m) != best)
        .map(|m| qiguan_ui::BoardArrow {
            from: m.from.index() as i32,
            to: m.to.index() as i32,
        })
        .collect();
    a.set_other_arrows(ModelRc::new(VecModel::from(others)));
    drop(guard);
    if a.get_show_export() {
        export(ctx);
    }
}

fn or_unknown(name: &str) -> &str {
    if name.is_empty() { "?" } else { name }
}

/// Starts a new pass-and-play game from the shown position, under the same house rules.
fn continue_here(ctx: &Rc<Ctx>) {
    let started = {
        let guard = slot(ctx).borrow();
        let Some(s) = guard.as_ref() else { return };
        let options: XiangqiOptions = s.game.game().options().clone();
        let setup = XiangqiSetup {
            fen: s.position().to_fen(),
        };
        Match::<Xiangqi>::new(&options, Some(&setup)).map(|game| (game, s.players.to_vec()))
    };
    ctx.ui().global::<ReplayAdapter>().set_autoplay(false);
    match started {
        Ok((game, players)) => super::start_match(ctx, game, players, Mode::PassAndPlay),
        // A position with no legal move for the side to move, say: say so.
        Err(e) => crate::screens::show_error(ctx, &e.to_string()),
    }
}

/// Returns the export text for the chosen format, and a file name for it.
fn export_text(s: &ReplaySession, format: i32, computer: &str) -> (String, String) {
    // The computer is a role: named as the screen names it; an unnamed person is "?", as PGN
    // writes an unknown name.
    let player = |seat: usize| {
        if s.computers[seat] {
            computer.to_owned()
        } else {
            or_unknown(&s.players[seat]).to_owned()
        }
    };
    match format {
        0 => (
            s.position().to_fen(),
            format!("qiguan-{}-{}.fen", s.id.0, s.ply),
        ),
        _ => {
            let date = format_date(s.created_at);
            let date = date.get(..10).unwrap_or("????-??-??").replace('-', ".");
            let tags = [
                ("Event", format!("Qiguan game {}", s.id.0)),
                ("Site", "Qiguan".to_owned()),
                ("Date", date),
                ("Round", "-".to_owned()),
                ("White", player(0)),
                ("Black", player(1)),
            ];
            let move_format = if format == 1 {
                MoveFormat::Wxf
            } else {
                MoveFormat::Coordinates
            };
            (
                write_pgn(&s.game, &tags, move_format),
                format!("qiguan-{}.pgn", s.id.0),
            )
        }
    }
}

fn export(ctx: &Rc<Ctx>) {
    let guard = slot(ctx).borrow();
    let Some(s) = guard.as_ref() else { return };
    let ui = ctx.ui();
    let a = ui.global::<ReplayAdapter>();
    let computer = ui.global::<qiguan_ui::Texts>().invoke_computer_name();
    let (text, _) = export_text(s, a.get_export_format(), &computer);
    a.set_export_text(text.into());
    a.set_export_note("".into());
}

/// Where exports go: the user's download folder, else the data directory.
fn export_dir(ctx: &Ctx) -> PathBuf {
    directories::UserDirs::new()
        .and_then(|d| d.download_dir().map(|p| p.to_owned()))
        .filter(|p| p.is_dir())
        .unwrap_or_else(|| ctx.data_dir.join("exports"))
}

fn save_export(ctx: &Rc<Ctx>) {
    let guard = slot(ctx).borrow();
    let Some(s) = guard.as_ref() else { return };
    let ui = ctx.ui();
    let a = ui.global::<ReplayAdapter>();
    let computer = ui.global::<qiguan_ui::Texts>().invoke_computer_name();
    let (text, name) = export_text(s, a.get_export_format(), &computer);
    let dir = export_dir(ctx);
    let path = dir.join(name);
    let written = std::fs::create_dir_all(&dir).and_then(|_| std::fs::write(&path, text));
    let note = match written {
        Ok(()) => format!("✓ {}", path.display()),
        Err(e) => format!("× {}: {e}", path.display()),
    };
    a.set_export_note(note.into());
}

/// The ReplaySession slot in the context.
pub(super) fn slot(ctx: &Ctx) -> &RefCell<Option<ReplaySession>> {
    ctx.session()
}

/// A stored Xiangqi game, replayed: the match, its players' names and when it began.
struct LoadedGame {
    game: Match<Xiangqi>,
    players: [String; 2],
    computers: [bool; 2],
    created_at: i64,
}

/// Loads a stored game and replays it.
fn load_xiangqi(ctx: &Rc<Ctx>, id: GameId) -> Result<LoadedGame, StoreError> {
    let stored = ctx.with_store(|store| store.load(id))?;
    let game = Match::from_record(&stored.record).map_err(|e| StoreError::BadRecord {
        id,
        detail: e.to_string(),
    })?;
    let computers = stored.summary.computer_seats();
    let computer = |i: usize| computers.get(i).copied().unwrap_or(false);
    // A computer's seat has no name to show (games stored before kept one there).
    let name = |i: usize| {
        (!computer(i))
            .then(|| stored.summary.players.get(i).cloned())
            .flatten()
            .unwrap_or_default()
    };
    Ok(LoadedGame {
        game,
        players: [name(0), name(1)],
        computers: [computer(0), computer(1)],
        created_at: stored.summary.created_at,
    })
}
