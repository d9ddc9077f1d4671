//! The position editor: a board set up by hand, with the rules core's reasons it is not a
//! position yet; its position is then played from New game or analysed in replay.

use super::view::{self, Marks, piece_char};
use crate::shell::bind::{handler, handler0, handler2};
use crate::shell::ctx::Ctx;
use crate::shell::settings::Orientation;
use crate::store::{Mode, NewGame, Standing};
use qiguan_core::xiangqi::editor::{Editor, Problem};
use qiguan_core::xiangqi::{Color, Kind, Piece, Position, Square, Xiangqi, XiangqiSetup};
use qiguan_core::{AnyMatch, Match};
use qiguan_ui::{EditorAdapter, EditorProblem, PalettePiece, Screen, XiangqiRules};
use slint::{ComponentHandle, ModelRc, VecModel};
use std::cell::RefCell;
use std::rc::Rc;

/// The board being set up, and the piece picked up to move (with no piece chosen to put).
pub struct EditorSession {
    editor: Editor,
    picked: Option<Square>,
}

pub fn connect(ctx: &Rc<Ctx>) {
    let ui = ctx.ui();
    let a = ui.global::<EditorAdapter>();
    let palette = |color: Color| {
        // The palette in the kinds' own order: general first, soldiers last.
        let pieces: Vec<PalettePiece> = Kind::ALL
            .iter()
            .map(|&kind| {
                let piece = Piece::new(color, kind);
                PalettePiece {
                    code: piece.fen_char().to_string().into(),
                    text: piece_char(piece).into(),
                    red: color == Color::Red,
                }
            })
            .collect();
        ModelRc::new(VecModel::from(pieces))
    };
    a.set_red_pieces(palette(Color::Red));
    a.set_black_pieces(palette(Color::Black));
    a.on_cell_clicked(handler(ctx, tap));
    a.on_cell_dragged(handler2(ctx, |ctx, from: i32, to: i32| {
        change(ctx, |s| {
            if let (Some(from), Some(to)) = (square(from), square(to)) {
                s.editor.drag(from, to);
                s.picked = None;
            }
        });
    }));
    a.on_tool_chosen(handler(ctx, |ctx, code: slint::SharedString| {
        let ui = ctx.ui();
        let a = ui.global::<EditorAdapter>();
        a.set_tool(code);
        change(ctx, |s| s.picked = None);
    }));
    a.on_side_chosen(handler(ctx, |ctx, side: i32| {
        let color = if side == 1 { Color::Black } else { Color::Red };
        change(ctx, |s| s.editor.set_side_to_move(color));
    }));
    a.on_clear(handler0(ctx, |ctx| change(ctx, |s| s.editor.clear())));
    a.on_usual_start(handler0(ctx, |ctx| {
        change(ctx, |s| s.editor = Editor::start());
    }));
    a.on_mirror(handler0(ctx, |ctx| change(ctx, |s| s.editor.mirror())));
    a.on_use_position(handler0(ctx, use_position));
    a.on_analyse(handler0(ctx, analyse));
    ui.global::<XiangqiRules>()
        .on_edit_start(handler0(ctx, |ctx| {
            let fen = ctx.ui().global::<XiangqiRules>().get_start_fen();
            let pos = Position::from_fen(&fen).unwrap_or_else(|_| Position::start());
            open(ctx, &pos);
        }));
}

/// Opens the editor on this position.
pub fn open(ctx: &Rc<Ctx>, pos: &Position) {
    *slot(ctx).borrow_mut() = Some(EditorSession {
        editor: Editor::of(pos),
        picked: None,
    });
    ctx.ui().global::<EditorAdapter>().set_tool("".into());
    refresh(ctx);
    ctx.go(Screen::Editor);
}

fn square(index: i32) -> Option<Square> {
    usize::try_from(index).ok().and_then(Square::from_index)
}

/// A tap on a point: puts the chosen piece there (or takes it off again if it stands there
/// already), takes a piece off with ✕, or picks a piece up and puts it down elsewhere.
fn tap(ctx: &Rc<Ctx>, index: i32) {
    let Some(sq) = square(index) else { return };
    let tool = ctx.ui().global::<EditorAdapter>().get_tool();
    change(ctx, |s| {
        let here = s.editor.at(sq);
        match tool.as_str() {
            "x" => s.editor.put(sq, None),
            "" => match s.picked {
                Some(from) if from != sq => {
                    s.editor.drag(from, sq);
                    s.picked = None;
                }
                Some(_) => s.picked = None,
                None => s.picked = here.map(|_| sq),
            },
            code => {
                let piece = code.chars().next().and_then(Piece::from_fen_char);
                s.editor.put(sq, if here == piece { None } else { piece });
            }
        }
    });
}

/// Changes the board and shows it.
fn change(ctx: &Rc<Ctx>, f: impl FnOnce(&mut EditorSession)) {
    if let Some(s) = slot(ctx).borrow_mut().as_mut() {
        f(s);
    }
    refresh(ctx);
}

fn refresh(ctx: &Rc<Ctx>) {
    let guard = slot(ctx).borrow();
    let Some(s) = guard.as_ref() else { return };
    // The rules core's reasons, and one more: a game that would be over before it began.
    let problems = s.editor.problems();
    let mut shown: Vec<EditorProblem> = problems.iter().map(problem).collect();
    let position = s.editor.position().ok();
    if let Some(pos) = &position
        && pos.legal_moves().is_empty()
    {
        shown.push(EditorProblem {
            code: "no-move".into(),
            side: side_index(pos.side_to_move()),
            ..EditorProblem::default()
        });
    }
    let wrong: Vec<Square> = problems
        .iter()
        .filter_map(|p| match p {
            Problem::OffItsPoints { at, .. } => Some(*at),
            _ => None,
        })
        .collect();
    let marks = Marks {
        selected: s.picked,
        ..Marks::default()
    };
    let mut cells = view::board_cells(|sq| s.editor.at(sq), &marks);
    for sq in wrong {
        cells[sq.index()].check = true;
    }
    let ui = ctx.ui();
    let a = ui.global::<EditorAdapter>();
    a.set_cells(ModelRc::new(VecModel::from(cells)));
    a.set_flipped(ctx.settings.borrow().orientation == Orientation::BlackBottom);
    a.set_side(side_index(s.editor.side_to_move()));
    a.set_pieces(
        Square::all()
            .filter(|&sq| s.editor.at(sq).is_some())
            .count() as i32,
    );
    a.set_problems(ModelRc::new(VecModel::from(shown)));
}

fn side_index(color: Color) -> i32 {
    i32::from(color == Color::Black)
}

fn kind_word(kind: Kind) -> &'static str {
    match kind {
        Kind::King => "king",
        Kind::Advisor => "advisor",
        Kind::Elephant => "elephant",
        Kind::Horse => "horse",
        Kind::Rook => "rook",
        Kind::Cannon => "cannon",
        Kind::Pawn => "soldier",
    }
}

/// One of the core's reasons, for the screen to say in its language.
fn problem(p: &Problem) -> EditorProblem {
    let mut shown = EditorProblem {
        code: p.code().into(),
        ..EditorProblem::default()
    };
    match *p {
        Problem::NoGeneral(color) | Problem::CheckWithOtherToMove(color) => {
            shown.side = side_index(color);
        }
        Problem::TooMany {
            color,
            kind,
            count,
            max,
        } => {
            shown.side = side_index(color);
            shown.piece = piece_char(Piece::new(color, kind)).into();
            shown.kind = kind_word(kind).into();
            shown.count = i32::from(count);
            shown.max = i32::from(max);
        }
        Problem::OffItsPoints { piece, .. } => {
            shown.side = side_index(piece.color());
            shown.piece = piece_char(piece).into();
            shown.kind = kind_word(piece.kind()).into();
        }
        Problem::GeneralsFacing => {}
    }
    shown
}

/// The position set up, if it is one a game can start from.
fn position(ctx: &Rc<Ctx>) -> Option<Position> {
    let guard = slot(ctx).borrow();
    let pos = guard.as_ref()?.editor.position().ok()?;
    (!pos.legal_moves().is_empty()).then_some(pos)
}

/// Back to New game, which now starts from this position.
fn use_position(ctx: &Rc<Ctx>) {
    let Some(pos) = position(ctx) else { return };
    ctx.ui()
        .global::<XiangqiRules>()
        .set_start_fen(pos.to_fen().into());
    ctx.back();
}

/// Stores the position as a game of its own (imported, no moves yet) and opens it in replay
/// with the engine on: moves tried there are kept as its study.
fn analyse(ctx: &Rc<Ctx>) {
    let Some(pos) = position(ctx) else { return };
    let setup = XiangqiSetup { fen: pos.to_fen() };
    let game = match Match::<Xiangqi>::new(&Default::default(), Some(&setup)) {
        Ok(game) => AnyMatch::Xiangqi(game),
        Err(e) => return crate::shell::bind::show_error(ctx, &e.to_string()),
    };
    let new = NewGame::from_match(&game, Mode::Imported, vec![String::new(), String::new()]);
    let now = ctx.now();
    let created =
        ctx.with_store(|store| store.create_game_with(&new, &[], &Standing::of(&game), now));
    match created {
        Ok(id) => {
            super::replay::open(ctx, id, false);
            super::replay::analyse(ctx);
        }
        Err(e) => crate::shell::bind::show_error(ctx, &e.to_string()),
    }
}

fn slot(ctx: &Ctx) -> &RefCell<Option<EditorSession>> {
    ctx.session()
}
