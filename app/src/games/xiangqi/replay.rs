//! Replay: step through a stored game, try other moves at any point and keep them as
//! variations with comments (the study, kept with the game), continue from any position,
//! export FEN and PGN.

use super::export::{export, save_export};
use super::replay_session::{ReplaySession, Review, slot};
use super::review;
use super::view::{self, Marks, check_square, move_rows, opening_name, opening_of};
use crate::shell::bind::sync;
use crate::shell::bind::{handler, handler0, handler2};
use crate::shell::ctx::Ctx;
use crate::shell::settings::{Notation, Orientation};
use crate::store::{GameId, Mode, StoreError};
use qiguan_core::xiangqi::pgn::MoveFormat;
use qiguan_core::xiangqi::pgn_study::{read_study_pgn, write_study_pgn};
use qiguan_core::xiangqi::study::EditError;
use qiguan_core::xiangqi::study::{Path, Study};
use qiguan_core::xiangqi::{Move, Position, Square, Xiangqi, XiangqiOptions, XiangqiSetup};
use qiguan_core::{Match, Rules};
use qiguan_ui::{MoveRow, ReplayAdapter, Screen, StudyMove};
use slint::{ComponentHandle, ModelRc, SharedString, VecModel};
use std::rc::Rc;

/// What the store keeps of a study of a game that played `game`: nothing when it is that one
/// line with no comment; else PGN in coordinates, without tags (the game has its own).
pub(crate) fn study_text(study: &Study, game: &[Move]) -> Option<String> {
    if !study.has_comments() && study.node_count() == game.len() && study.main_line() == game {
        return None;
    }
    let bare = Study {
        tags: Vec::new(),
        ..study.clone()
    };
    Some(write_study_pgn(&bare, MoveFormat::Coordinates))
}

/// The study kept with a game, with the game's own line in it (a game that went on since
/// keeps what was studied before); the game's line alone when none was kept or it cannot be
/// read.
fn study_of(kept: Option<&str>, start: &Position, moves: &[Move]) -> Study {
    let own = Study::from_line(start.clone(), moves, Vec::new()).unwrap_or_else(|_| Study {
        tags: Vec::new(),
        start: start.clone(),
        comment: None,
        moves: Vec::new(),
    });
    match kept.and_then(|t| read_study_pgn(t).ok()) {
        Some(mut study) if study.start == *start => {
            study.tags.clear();
            study.merge(&own);
            study
        }
        _ => own,
    }
}

pub fn connect(ctx: &Rc<Ctx>) {
    let ui = ctx.ui();
    let a = ui.global::<ReplayAdapter>();
    a.on_go_to(handler(ctx, |ctx, ply: i32| {
        if let Some(s) = slot(ctx).borrow_mut().as_mut() {
            s.ply = (ply.max(0) as usize).min(s.moves.len());
            s.selected = None;
        }
        refresh(ctx);
        review::follow(ctx, refresh);
    }));
    a.on_go_to_game(handler(ctx, |ctx, ply: i32| {
        if let Some(s) = slot(ctx).borrow_mut().as_mut() {
            s.line = s.game_path();
            s.ply = ply.max(0) as usize;
            s.relined();
        }
        refresh(ctx);
        review::follow(ctx, refresh);
    }));
    a.on_cell_clicked(handler(ctx, tap));
    a.on_cell_dragged(handler2(ctx, dragged));
    a.on_choose(handler(ctx, |ctx, i: i32| {
        if let Some(s) = slot(ctx).borrow_mut().as_mut() {
            let mut path = s.path().to_vec();
            if usize::try_from(i)
                .is_ok_and(|i| s.study.children(&path).is_some_and(|c| i < c.len()))
            {
                path.push(i as usize);
                s.go_into(&path);
            }
        }
        refresh(ctx);
        review::follow(ctx, refresh);
    }));
    connect_study(ctx, &a);
    a.on_analyse(handler(ctx, |ctx, on: bool| {
        if on {
            analyse(ctx);
        } else {
            review::stop(ctx);
            refresh(ctx);
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

/// The study's editing: a comment saved, a variation promoted or deleted.
fn connect_study(ctx: &Rc<Ctx>, a: &ReplayAdapter<'_>) {
    a.on_save_comment(handler(ctx, |ctx, text: SharedString| {
        edit(ctx, |s| {
            let path = s.path().to_vec();
            s.study.set_comment(&path, &text).map(|_| path)
        });
    }));
    a.on_promote(handler0(ctx, |ctx| {
        edit(ctx, |s| {
            let path = s.path().to_vec();
            s.study.promote(&path)
        });
    }));
    a.on_delete_variation(handler0(ctx, |ctx| {
        edit(ctx, |s| match s.deletable() {
            Some(v) => s.study.delete(&v),
            None => Err(EditError::NoSuchMove),
        });
    }));
}

/// Turns the engine's analysis on for the game in replay (the review and the live line).
pub fn analyse(ctx: &Rc<Ctx>) {
    review::start(ctx, refresh);
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
        Err(e) => crate::shell::bind::show_error(ctx, &e.to_string()),
    }
}

fn load(ctx: &Rc<Ctx>, id: GameId) -> Result<ReplaySession, StoreError> {
    let loaded = load_xiangqi(ctx, id)?;
    let game_moves: Vec<Move> = loaded.game.game().moves().collect();
    let kept = ctx.with_store(|store| store.study(id))?;
    let study = study_of(
        kept.as_deref(),
        loaded.game.game().start_position(),
        &game_moves,
    );
    let review = Review::from_kept(review::kept(ctx, id, &game_moves));
    let mut session = ReplaySession {
        id,
        game_moves,
        study,
        line: Vec::new(),
        moves: Vec::new(),
        shared: 0,
        game: loaded.game,
        players: loaded.players,
        computers: loaded.computers,
        created_at: loaded.created_at,
        imported: loaded.imported,
        ply: 0,
        selected: None,
        manual_flip: false,
        cells: Rc::new(VecModel::default()),
        rows: Rc::new(VecModel::default()),
        review,
    };
    // The game as it was played first.
    session.line = session.game_path();
    session.relined();
    Ok(session)
}

/// Makes a change to the study and keeps it with the game before the screen shows it; then
/// shows the point the change leaves (a store that refuses it leaves the study as it was).
fn edit(ctx: &Rc<Ctx>, change: impl FnOnce(&mut ReplaySession) -> Result<Path, EditError>) {
    let failed = {
        let mut guard = slot(ctx).borrow_mut();
        let Some(s) = guard.as_mut() else { return };
        let before = s.study.clone();
        match change(s) {
            Err(_) => None,
            Ok(at) => {
                let text = study_text(&s.study, &s.game_moves);
                match ctx.with_store(|store| store.set_study(s.id, text.as_deref())) {
                    Ok(()) => {
                        s.go_into(&at);
                        None
                    }
                    Err(e) => {
                        s.study = before;
                        s.relined();
                        Some(e)
                    }
                }
            }
        }
    };
    if let Some(e) = failed {
        crate::shell::bind::show_error(ctx, &e.to_string());
    }
    refresh(ctx);
    review::follow(ctx, refresh);
}

/// A tap on the board: picks up a piece of the side to move, or plays the piece picked up
/// there, which adds the move to the study (a move tried before is gone into again).
fn tap(ctx: &Rc<Ctx>, index: i32) {
    let Some(sq) = usize::try_from(index).ok().and_then(Square::from_index) else {
        return;
    };
    let picked = slot(ctx).borrow().as_ref().and_then(|s| s.selected);
    match picked {
        Some(from) if from != sq && try_move(ctx, Move::new(from, sq)) => {}
        _ => {
            if let Some(s) = slot(ctx).borrow_mut().as_mut() {
                let pos = s.position();
                let own = pos
                    .piece_at(sq)
                    .is_some_and(|p| p.color() == pos.side_to_move());
                s.selected = (own && picked != Some(sq)).then_some(sq);
            }
            refresh(ctx);
        }
    }
}

/// A piece dragged from one point to another: the move, if legal; else it stays picked up.
fn dragged(ctx: &Rc<Ctx>, from: i32, to: i32) {
    let square = |i: i32| usize::try_from(i).ok().and_then(Square::from_index);
    let (Some(from), Some(to)) = (square(from), square(to)) else {
        return;
    };
    if !try_move(ctx, Move::new(from, to)) {
        tap(ctx, from.index() as i32);
    }
}

/// Plays `mv` in the position shown, if it is legal there (and the game shown is not over).
fn try_move(ctx: &Rc<Ctx>, mv: Move) -> bool {
    let legal = slot(ctx).borrow().as_ref().is_some_and(|s| {
        s.shown_game()
            .is_some_and(|g| g.outcome().is_none() && g.position().is_legal(mv))
    });
    if legal {
        ctx.ui().global::<ReplayAdapter>().set_autoplay(false);
        edit(ctx, |s| {
            let path = s.path().to_vec();
            s.study.play(&path, mv)
        });
    }
    legal
}

/// Pushes the shown position to the screen.
pub fn refresh(ctx: &Rc<Ctx>) {
    let settings = *ctx.settings.borrow();
    let guard = slot(ctx).borrow();
    let Some(s) = guard.as_ref() else { return };
    let pos = s.position();
    draw_board(s, &pos);
    sync(&s.rows, move_list(s, settings.notation));
    let base_flip = settings.orientation == Orientation::BlackBottom;
    let outcome = s.game.outcome();
    let ui = ctx.ui();
    let a = ui.global::<ReplayAdapter>();
    a.set_cells(ModelRc::from(s.cells.clone()));
    a.set_moves(ModelRc::from(s.rows.clone()));
    a.set_flipped(base_flip != s.manual_flip);
    a.set_ply(s.ply as i32);
    a.set_total(s.moves.len() as i32);
    a.set_game_total(s.game_moves.len() as i32);
    a.set_game_ply(s.ply.min(s.shared) as i32);
    a.set_game_id(s.id.0 as i32);
    a.set_names(ModelRc::new(VecModel::from(
        s.players
            .iter()
            .map(|p| SharedString::from(p.as_str()))
            .collect::<Vec<_>>(),
    )));
    a.set_computers(ModelRc::new(VecModel::from(s.computers.to_vec())));
    let mut shown = crate::shell::format::game_outcome(outcome.as_ref());
    if s.imported {
        shown.reason = "".into();
    }
    a.set_outcome(shown);
    let opening = opening_of(&s.study.start, &s.moves[..s.ply]);
    a.set_opening(opening.map(|o| opening_name(&o.key())).unwrap_or_default());
    show_review(s, &a, &pos, settings.notation);
    show_study(s, &a, &pos, settings.notation);
    drop(guard);
    if a.get_show_export() {
        export(ctx);
    }
}

/// The board's cells: the position shown, the selected piece and its targets, the last
/// move, check.
fn draw_board(s: &ReplaySession, pos: &Position) {
    let targets = s.selected.map_or_else(Vec::new, |from| {
        pos.legal_moves()
            .into_iter()
            .filter(|m| m.from == from)
            .map(|m| m.to)
            .collect()
    });
    let marks = Marks {
        selected: s.selected,
        targets,
        last: s.ply.checked_sub(1).map(|i| s.moves[i]),
        check: check_square(pos),
    };
    sync(&s.cells, view::cells(pos, &marks));
}

/// The move list of the line shown, with the study's marks and the review's judgements.
fn move_list(s: &ReplaySession, notation: Notation) -> Vec<MoveRow> {
    let mut rows = move_rows(&s.study.start, &s.moves, notation);
    study_marks(s, &mut rows);
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
    rows
}

/// The engine's review of the position shown: its graph and marks, the note on the move that
/// led here, the best move and the others it weighed.
fn show_review(s: &ReplaySession, a: &ReplayAdapter<'_>, pos: &Position, notation: Notation) {
    a.set_analysing(s.review.on);
    a.set_reviewing(s.review.running());
    a.set_reviewed(s.review.done() as i32);
    a.set_graph(review::graph_path(&s.review.judged).into());
    a.set_marks(ModelRc::new(VecModel::from(review::marks(s))));
    let before = s
        .ply
        .checked_sub(1)
        .map_or_else(|| pos.clone(), |p| s.position_at(p));
    a.set_note(review::note(s, notation, &before));
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
}

/// Marks the moves of the line shown that the game did not play (the player's), and those
/// with other moves tried in their place.
fn study_marks(s: &ReplaySession, rows: &mut [MoveRow]) {
    let mut tried = Vec::with_capacity(s.moves.len());
    let mut list = &s.study.moves[..];
    for &i in &s.line {
        tried.push(list.len() > 1);
        list = list.get(i).map_or(&[][..], |n| &n.next[..]);
    }
    let player = |ply: i32| usize::try_from(ply).is_ok_and(|p| p >= s.shared);
    let more = |ply: i32| usize::try_from(ply).is_ok_and(|p| tried.get(p) == Some(&true));
    for row in rows {
        row.first_study = player(row.first_ply);
        row.second_study = player(row.second_ply);
        row.first_more = more(row.first_ply);
        row.second_more = more(row.second_ply);
    }
}

/// The study at the position shown: its comment, the moves tried from it, and what may be
/// done with the variation it is in.
fn show_study(s: &ReplaySession, a: &ReplayAdapter<'_>, pos: &Position, notation: Notation) {
    let path = s.path();
    let comment = match path {
        [] => s.study.comment.clone(),
        _ => s.study.node(path).and_then(|n| n.comment.clone()),
    };
    a.set_comment(comment.unwrap_or_default().into());
    let game_path = s.game_path();
    let next = s.line.get(path.len()).copied();
    let tried: Vec<StudyMove> = s
        .study
        .children(path)
        .unwrap_or(&[])
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let mut at = path.to_vec();
            at.push(i);
            StudyMove {
                text: view::notate(pos, n.mv, notation).into(),
                shown: next == Some(i),
                played: game_path.starts_with(&at),
            }
        })
        .collect();
    a.set_tried(ModelRc::new(VecModel::from(if tried.len() > 1 {
        tried
    } else {
        Vec::new()
    })));
    a.set_in_variation(s.variation().is_some());
    a.set_can_delete(s.deletable().is_some());
    a.set_study_move(
        path.is_empty()
            .then(String::new)
            .unwrap_or_else(|| {
                let before = s.position_at(s.ply - 1);
                view::notate(&before, s.moves[s.ply - 1], notation)
            })
            .into(),
    );
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
        Err(e) => crate::shell::bind::show_error(ctx, &e.to_string()),
    }
}

/// A stored Xiangqi game, replayed: the match, its players' names and when it began.
struct LoadedGame {
    game: Match<Xiangqi>,
    players: [String; 2],
    computers: [bool; 2],
    created_at: i64,
    imported: bool,
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
        imported: stored.summary.mode == Mode::Imported,
    })
}
