//! The Xiangqi screen: the board, the moves so far, dragging or tapping a move, a move held for
//! confirmation, and the board's orientation. Everything else (storing each move before it
//! shows, the outbox of a correspondence game, draws, resignation, undo, the end) is the shared
//! session's ([`crate::play`]); a finished game is looked back on in the replay screen.

pub mod editor;
mod export;
pub mod replay;
mod replay_session;
mod review;
pub mod view;

use crate::play::GameEntry;
use crate::play::{self, GameScreen, Session};
use crate::shell::bind::sync;
use crate::shell::bind::{handler, handler0, handler2};
use crate::shell::ctx::{Ctx, Sessions};
use crate::shell::settings::Orientation;
use crate::store::{GameId, Mode, NewGame, Standing};
use qiguan_core::Strength;
use qiguan_core::xiangqi::computer;
use qiguan_core::xiangqi::engine::Level;
use qiguan_core::xiangqi::{
    Color, Move, Square, Xiangqi, XiangqiOptions, XiangqiSetup, XiangqiView,
};
use qiguan_core::{AnyMatch, Match, Seat};
use qiguan_ui::{
    AppWindow, BoardCell, ImportProblem, Motion, MoveRow, NewGameAdapter, Screen, XiangqiAdapter,
    XiangqiRules,
};
use replay_session::ReplaySession;
use slint::Model;
use slint::{ComponentHandle, ModelRc, VecModel};
use std::cell::Cell;
use std::rc::Rc;
use view::{Marks, check_square, move_rows, notate};

/// What the Xiangqi screen keeps of its own.
#[derive(Default)]
pub(crate) struct XiangqiModels {
    cells: Rc<VecModel<BoardCell>>,
    moves: Rc<VecModel<MoveRow>>,
    /// A move waiting for the player's confirmation (a setting).
    pending: Option<Move>,
    /// The player turned the board over.
    manual_flip: bool,
    /// The game and the number of moves the board last showed, to tell a new move (which
    /// slides) from a reload, an undo or another game (which do not).
    drawn: Cell<Option<(GameId, usize)>>,
    /// The last move was dragged into place: it does not slide again.
    dropped: Cell<bool>,
}

/// The level whose move a hint suggests.
const HINT_LEVEL: u8 = 8;

/// Xiangqi in the registry of games: played on its screen, looked back on in replay.
pub(crate) const ENTRY: GameEntry = GameEntry {
    review: replay::open,
    online: online_choice,
    import: Some(import),
    opening: Some(view::opening_name),
    sessions: || {
        vec![
            Sessions::slot::<Session<Xiangqi>>(),
            Sessions::slot::<ReplaySession>(),
            Sessions::slot::<editor::EditorSession>(),
        ]
    },
    computer_levels: true,
    ..play::entry::<Xiangqi>(connect, RULES)
};

/// Xiangqi's rules page (docs/rules/).
const RULES: play::RulesPage = play::RulesPage {
    english: include_str!("../../../../docs/rules/xiangqi.md"),
    chinese: include_str!("../../../../docs/rules/zh/xiangqi.md"),
};

impl GameScreen for Xiangqi {
    type Board = XiangqiModels;
    type Spot = Square;
    type Draft = ();
    const SCREEN: Screen = Screen::Xiangqi;
    const UNDO: bool = true;

    /// A move knocks, a capture knocks twice, check rings.
    fn sound(before: &XiangqiView, after: &XiangqiView) -> Option<crate::shell::sound::Sound> {
        use crate::shell::sound::Sound;
        if after.moves.len() <= before.moves.len() {
            return None;
        }
        let pieces = |fen: &str| {
            fen.split(' ')
                .next()
                .unwrap_or_default()
                .chars()
                .filter(char::is_ascii_alphabetic)
                .count()
        };
        Some(if after.in_check {
            Sound::Check
        } else if pieces(&after.fen) < pieces(&before.fen) {
            Sound::Capture
        } else {
            Sound::Move
        })
    }

    fn chosen_options(ui: &AppWindow) -> XiangqiOptions {
        let a = ui.global::<XiangqiRules>();
        XiangqiOptions {
            perpetual_chase_loses: a.get_chase_loses(),
            move_limit: a
                .get_move_limit_on()
                .then(|| a.get_move_limit().clamp(20, 400) as u32),
        }
    }

    /// A position set up in the editor, if New game holds one.
    fn chosen_setup(ui: &AppWindow) -> Option<XiangqiSetup> {
        let fen = ui.global::<XiangqiRules>().get_start_fen();
        (!fen.is_empty()).then(|| XiangqiSetup {
            fen: fen.to_string(),
        })
    }

    /// Two people at the board, or one against the engine at the level chosen.
    fn chosen_seats(ui: &AppWindow) -> (Vec<String>, Vec<Option<Strength>>) {
        let level = ui.global::<NewGameAdapter>().get_level().clamp(1, 10) as u8;
        let strength = Strength::level(level).unwrap_or(Strength::Level(1));
        play::choices::two_seats_at(ui, strength)
    }

    /// The engine at the seat's level, on a thread of its own (up to 2 s at the top level).
    fn computer_search(
        view: &XiangqiView,
        seat: Seat,
        options: &XiangqiOptions,
        strength: Strength,
    ) -> Option<play::Search<Move>> {
        if view.side_to_move != seat {
            return None;
        }
        let game = computer::game_of(view, options)?;
        let level = Level::new(strength.engine_level(), crate::shell::random::random_seed());
        Some(Box::new(move |stop| computer::think(&game, &level, stop)))
    }

    const HINTS: bool = true;

    /// The engine's move at a strong level (under a second on a desktop core).
    fn hint_search(s: &Session<Xiangqi>) -> Option<play::Search<Move>> {
        let game = s.local()?.game().clone();
        let level = Level::new(HINT_LEVEL, 0);
        Some(Box::new(move |stop| computer::think(&game, &level, stop)))
    }

    fn tap(ctx: &Rc<Ctx>, s: &mut Session<Xiangqi>, index: i32) -> Option<Move> {
        let sq = usize::try_from(index).ok().and_then(Square::from_index)?;
        if s.board.pending.is_some() || !s.viewer_to_act() {
            return None;
        }
        let game = s.local()?.game();
        let pos = game.position();
        let own = pos
            .piece_at(sq)
            .is_some_and(|p| p.color() == pos.side_to_move());
        match s.selected {
            Some(from) if from != sq && pos.is_legal(Move::new(from, sq)) => {
                choose(ctx, s, Move::new(from, sq))
            }
            Some(from) if from == sq => {
                s.selected = None;
                None
            }
            _ => {
                s.selected = own.then_some(sq);
                None
            }
        }
    }

    /// Red and Black.
    fn seat_colours(_: &Session<Xiangqi>) -> Vec<i32> {
        vec![0, 2]
    }

    fn review_elsewhere(ctx: &Rc<Ctx>, id: GameId) -> bool {
        replay::open(ctx, id, true);
        true
    }

    fn refresh_board(ctx: &Rc<Ctx>, s: &Session<Xiangqi>, _: &XiangqiView) {
        refresh_board(ctx, s);
    }
}

/// A correspondence game as chosen: against a friend, or against the server's engine at the
/// level chosen (in the other seat).
fn online_choice(ui: &AppWindow, side: u8) -> play::OnlineChoice {
    let mut choice = play::OnlineChoice::two_people(Xiangqi::chosen_options(ui), side);
    let a = ui.global::<NewGameAdapter>();
    if a.get_opponent() == 1 {
        let level = a.get_level().clamp(1, 10) as u8;
        let strength = Strength::level(level).unwrap_or(Strength::Level(1));
        choice.bots = vec![(1 - choice.seat, strength)];
    }
    choice
}

/// Reads a pasted game or a file into a record and its players: XQF, PGN (Chinese, WXF, ICCS
/// or coordinate moves), a FEN, or DhtmlXQ as forums paste it (the format told from the
/// content; text in UTF-8 or GB18030).
fn import(bytes: &[u8]) -> Result<play::Imported, ImportProblem> {
    use qiguan_core::xiangqi::dhtmlxq::DhtmlXqError;
    use qiguan_core::xiangqi::import::{ImportError, read_any};
    use qiguan_core::xiangqi::pgn::PgnError;
    use qiguan_core::xiangqi::xqf::XqfError;
    let problem = |code: &str| ImportProblem {
        code: code.into(),
        ..ImportProblem::default()
    };
    let study = read_any(bytes).map_err(|e| match (&e, e.illegal()) {
        (_, Some(line)) => ImportProblem {
            code: "move".into(),
            ply: line.ply as i32,
            text: line.text.into(),
        },
        (ImportError::Pgn(PgnError::Empty), _) => problem("empty"),
        (ImportError::Pgn(PgnError::Fen(_)), _) => problem("fen"),
        _ if e.bad_position() => problem("position"),
        (ImportError::DhtmlXq(DhtmlXqError::TooManyMoves), _)
        | (ImportError::Xqf(XqfError::TooManyMoves), _) => problem("too-long"),
        (ImportError::DhtmlXq(_), _) => problem("dhtmlxq"),
        (ImportError::Xqf(XqfError::BadMove { ply }), _) => ImportProblem {
            code: "xqf-move".into(),
            ply: *ply as i32,
            ..ImportProblem::default()
        },
        (ImportError::Xqf(_), _) => problem("xqf-short"),
        _ => problem("syntax"),
    })?;
    let game = study.to_game();
    let record = game
        .to_record(&XiangqiOptions::default())
        .map_err(|_| problem("unplayable"))?;
    Ok(play::Imported {
        record,
        players: game.players().to_vec(),
        study: replay::study_text(&study, &study.main_line()),
    })
}

/// Plays a chosen move, or holds it for confirmation when the player asked for that.
fn choose(ctx: &Rc<Ctx>, s: &mut Session<Xiangqi>, m: Move) -> Option<Move> {
    if ctx.settings.borrow().confirm_moves {
        s.board.pending = Some(m);
        s.selected = Some(m.from);
        None
    } else {
        Some(m)
    }
}

pub fn connect(ctx: &Rc<Ctx>) {
    replay::connect(ctx);
    editor::connect(ctx);
    let ui = ctx.ui();
    ui.global::<qiguan_ui::XiangqiLines>()
        .set_grid(view::grid_path().into());
    let a = ui.global::<XiangqiAdapter>();
    a.on_cell_clicked(handler(ctx, play::tap::<Xiangqi>));
    a.on_cell_dragged(handler2(ctx, |ctx, from: i32, to: i32| {
        play::play_with::<Xiangqi>(ctx, |s| dragged(ctx, s, from, to));
    }));
    a.on_flip(handler0(ctx, |ctx| {
        play::update::<Xiangqi>(ctx, |s| s.board.manual_flip = !s.board.manual_flip);
    }));
    a.on_confirm_move(handler0(ctx, |ctx| {
        play::play_with::<Xiangqi>(ctx, |s| s.board.pending.take());
    }));
    a.on_cancel_move(handler0(ctx, |ctx| {
        play::update::<Xiangqi>(ctx, |s| {
            s.board.pending = None;
            s.selected = None;
        });
    }));
}

/// A piece dragged from one point to another: the move, if legal; else the dragged piece stays
/// picked up if it is the mover's.
fn dragged(ctx: &Rc<Ctx>, s: &mut Session<Xiangqi>, from: i32, to: i32) -> Option<Move> {
    let square = |i: i32| usize::try_from(i).ok().and_then(Square::from_index);
    let (Some(from), Some(to)) = (square(from), square(to)) else {
        s.selected = None;
        return None;
    };
    if s.board.pending.is_some() || !s.viewer_to_act() {
        return None;
    }
    let pos = s.local()?.game().position();
    if pos.is_legal(Move::new(from, to)) {
        s.board.dropped.set(true);
        return choose(ctx, s, Move::new(from, to));
    }
    let own = pos
        .piece_at(from)
        .is_some_and(|p| p.color() == pos.side_to_move());
    s.selected = own.then_some(from);
    None
}

/// Stores a new match (a position to continue from, say) and opens it; home is what "back"
/// leads to.
pub(crate) fn start_match(ctx: &Rc<Ctx>, game: Match<Xiangqi>, players: Vec<String>, mode: Mode) {
    let new = NewGame::from_match(&AnyMatch::Xiangqi(game), mode, players);
    let now = ctx.now();
    let created = ctx.games().and_then(|mut store| {
        let empty = Standing::new(&[], None);
        store
            .create(&new, &[], &empty, &[], now)
            .map_err(|e| e.to_string())
    });
    match created {
        Ok(id) => {
            ctx.reset_to(Screen::Home);
            play::open::<Xiangqi>(ctx, id);
        }
        Err(e) => crate::shell::bind::show_error(ctx, &e),
    }
}

/// Draws the board, the moves and the marks.
fn refresh_board(ctx: &Rc<Ctx>, s: &Session<Xiangqi>) {
    let Some(game) = s.local().map(Match::game) else {
        return;
    };
    let settings = *ctx.settings.borrow();
    let pos = game.position();
    let moves: Vec<Move> = game.moves().collect();
    let marks = marks(s, moves.last().copied());
    let ui = ctx.ui();
    let new_move = slide(&ui.global::<Motion>(), s, &moves);
    sync(&s.board.cells, view::cells(pos, &marks));
    sync(
        &s.board.moves,
        move_rows(game.start_position(), &moves, settings.notation),
    );
    let base_flip = match (s.fixed_seat(), settings.orientation) {
        (Some(seat), _) => seat == Seat::SECOND,
        (None, Orientation::RedBottom) => false,
        (None, Orientation::BlackBottom) => true,
        (None, Orientation::SideToMove) => pos.side_to_move() == Color::Black,
    };
    let a = ui.global::<XiangqiAdapter>();
    a.set_cells(ModelRc::from(s.board.cells.clone()));
    a.set_moves(ModelRc::from(s.board.moves.clone()));
    a.set_last_ply(moves.len() as i32 - 1);
    a.set_flipped(base_flip != s.board.manual_flip);
    let in_check = marks.check.is_some() && s.outcome().is_none();
    a.set_in_check(in_check);
    if new_move && in_check {
        a.set_check_count(a.get_check_count() + 1);
    }
    a.set_game_id(s.id.0 as i32);
    a.set_pending_move(
        s.board
            .pending
            .map(|m| notate(pos, m, settings.notation))
            .unwrap_or_default()
            .into(),
    );
    let hint = s.current_hint().filter(|m| pos.is_legal(*m));
    a.set_hint_from(hint.map_or(-1, |m| m.from.index() as i32));
    a.set_hint_to(hint.map_or(-1, |m| m.to.index() as i32));
    a.set_hint_move(
        hint.map(|m| notate(pos, m, settings.notation))
            .unwrap_or_default()
            .into(),
    );
}

/// Starts the last move's slide when it is one move newer than what the board showed (the
/// piece it took, read from the board before it is redrawn, fades); anything else (a reload,
/// an undo, another game, a dragged move) shows at once. Returns whether the last move is
/// new (slid or dragged).
fn slide(motion: &Motion<'_>, s: &Session<Xiangqi>, moves: &[Move]) -> bool {
    let shown = (s.id, moves.len());
    let before = s.board.drawn.replace(Some(shown));
    let dropped = s.board.dropped.replace(false);
    let new_move = matches!(before, Some((id, n)) if id == s.id && n + 1 == moves.len());
    match (before, moves.last()) {
        (Some(_), Some(last)) if new_move && !dropped => {
            let taken = s.board.cells.row_data(last.to.index()).unwrap_or_default();
            motion.set_from(last.from.index() as i32);
            motion.set_to(last.to.index() as i32);
            motion.set_captured(taken.piece);
            motion.set_captured_red(taken.red);
            motion.invoke_start();
        }
        _ if before != Some(shown) => motion.invoke_stop(),
        _ => {}
    }
    new_move
}

/// The board's marks: the selected piece and where it may go (or the move waiting to be
/// confirmed), the last move, and a king in check.
fn marks(s: &Session<Xiangqi>, last: Option<Move>) -> Marks {
    let Some(pos) = s.local().map(|g| g.game().position()) else {
        return Marks::default();
    };
    let targets: Vec<Square> = match (s.board.pending, s.selected) {
        (Some(pending), _) => vec![pending.to],
        (None, Some(from)) => pos
            .legal_moves()
            .into_iter()
            .filter(|m| m.from == from)
            .map(|m| m.to)
            .collect(),
        (None, None) => Vec::new(),
    };
    Marks {
        selected: s.selected,
        targets,
        last,
        check: check_square(pos),
    }
}
