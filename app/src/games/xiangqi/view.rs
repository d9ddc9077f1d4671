//! Turns core positions and move lists into what the board and move list display.

use crate::shell::settings::Notation;
use qiguan_core::xiangqi::notation::{to_chinese, to_wxf};
use qiguan_core::xiangqi::{Color, Kind, Move, Piece, Position, Square};
use qiguan_ui::{BoardCell, MoveRow, OpeningName};
use slint::SharedString;

/// What to mark on the board besides the pieces.
#[derive(Clone, Default, Debug)]
pub struct Marks {
    /// The piece picked up.
    pub selected: Option<Square>,
    /// Where it may go.
    pub targets: Vec<Square>,
    /// The last move played.
    pub last: Option<Move>,
    /// A general in check.
    pub check: Option<Square>,
}

/// Returns the character players read for a piece: 帅仕相马车炮兵 for Red, 将士象马车炮卒 for Black.
pub fn piece_char(piece: Piece) -> &'static str {
    let red = piece.color() == Color::Red;
    match piece.kind() {
        Kind::King => {
            if red {
                "帅"
            } else {
                "将"
            }
        }
        Kind::Advisor => {
            if red {
                "仕"
            } else {
                "士"
            }
        }
        Kind::Elephant => {
            if red {
                "相"
            } else {
                "象"
            }
        }
        Kind::Horse => "马",
        Kind::Rook => "车",
        Kind::Cannon => "炮",
        Kind::Pawn => {
            if red {
                "兵"
            } else {
                "卒"
            }
        }
    }
}

/// Returns the 90 cells for a position, index = rank * 9 + file.
pub fn cells(pos: &Position, marks: &Marks) -> Vec<BoardCell> {
    board_cells(|sq| pos.piece_at(sq), marks)
}

/// The board's cells for whatever stands on each point (a board being set up, too).
pub fn board_cells(piece_at: impl Fn(Square) -> Option<Piece>, marks: &Marks) -> Vec<BoardCell> {
    Square::all()
        .map(|sq| {
            let piece = piece_at(sq);
            BoardCell {
                label: SharedString::from(sq.to_string()),
                piece: piece.map(piece_char).unwrap_or("").into(),
                red: piece.is_some_and(|p| p.color() == Color::Red),
                selected: marks.selected == Some(sq),
                target: marks.targets.contains(&sq),
                last: marks.last.is_some_and(|m| m.from == sq || m.to == sq),
                check: marks.check == Some(sq),
            }
        })
        .collect()
}

/// Returns the general in check in `pos`, if the side to move is in check.
pub fn check_square(pos: &Position) -> Option<Square> {
    let side = pos.side_to_move();
    pos.in_check(side).then(|| pos.king(side))
}

/// Writes one move in the chosen notation, from the position before it.
pub fn notate(pos: &Position, m: Move, notation: Notation) -> String {
    match notation {
        Notation::Chinese => to_chinese(pos, m),
        Notation::Wxf => to_wxf(pos, m),
        Notation::Coordinates => m.to_string(),
    }
}

/// Returns the move list in full moves, Red's then Black's; a row's plies index `moves`.
pub fn move_rows(start: &Position, moves: &[Move], notation: Notation) -> Vec<MoveRow> {
    let mut rows: Vec<MoveRow> = Vec::new();
    let mut pos = start.clone();
    let mut number = pos.fullmove_number().max(1) as i32;
    for (ply, &m) in moves.iter().enumerate() {
        let text: SharedString = notate(&pos, m, notation).into();
        if pos.side_to_move() == Color::Red {
            rows.push(MoveRow {
                number,
                first: text,
                second: SharedString::new(),
                first_ply: ply as i32,
                second_ply: -1,
                ..MoveRow::default()
            });
        } else {
            if rows.last().is_none_or(|r| r.second_ply >= 0) {
                rows.push(MoveRow {
                    number,
                    first: "…".into(),
                    second: SharedString::new(),
                    first_ply: -1,
                    second_ply: -1,
                    ..MoveRow::default()
                });
            }
            if let Some(row) = rows.last_mut() {
                row.second = text;
                row.second_ply = ply as i32;
            }
            number += 1;
        }
        let _ = pos.play(m);
    }
    rows
}

/// The links the board's lines draw, each between two points as (file, rank): ranks across,
/// files up the board (those inside the board stop at the river), and the palaces' diagonals.
pub fn board_links() -> Vec<((u8, u8), (u8, u8))> {
    let mut links = Vec::new();
    for rank in 0..10u8 {
        for file in 0..9u8 {
            if file < 8 {
                links.push(((file, rank), (file + 1, rank)));
            }
            let river = rank == 4 && (1..8).contains(&file);
            if rank < 9 && !river {
                links.push(((file, rank), (file, rank + 1)));
            }
        }
    }
    for centre in [(4u8, 1u8), (4, 8)] {
        for (df, dr) in [(-1i8, -1i8), (1, -1), (-1, 1), (1, 1)] {
            let corner = (
                centre.0.wrapping_add_signed(df),
                centre.1.wrapping_add_signed(dr),
            );
            links.push((corner, centre));
        }
    }
    links
}

/// The board's lines as path commands in cell units (a point's centre is at its file + 0.5
/// across and its rank from the top + 0.5 down; the board is the same either way up).
pub fn grid_path() -> String {
    let at = |(file, rank): (u8, u8)| (f32::from(file) + 0.5, 9.5 - f32::from(rank));
    board_links()
        .into_iter()
        .map(|(a, b)| {
            let (a, b) = (at(a), at(b));
            format!("M {} {} L {} {}", a.0, a.1, b.0, b.1)
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// An opening stored with a game, by its key, as the screens name it (the list rows, through
/// the registry entry, and the replay): its code and its name in both languages (a key the
/// table no longer holds keeps its stored code and Chinese name).
pub(crate) fn opening_name(key: &str) -> OpeningName {
    match qiguan_core::xiangqi::opening::by_key(key) {
        Some(o) => OpeningName {
            code: o.code.into(),
            zh: o.zh.into(),
            en: o.en.into(),
        },
        None => {
            let (code, zh) = key.split_once(' ').unwrap_or(("", key));
            OpeningName {
                code: code.into(),
                zh: zh.into(),
                en: zh.into(),
            }
        }
    }
}

/// The opening the line has reached after these moves (from the usual start only).
pub(crate) fn opening_of(
    start: &Position,
    moves: &[Move],
) -> Option<&'static qiguan_core::xiangqi::opening::Opening> {
    qiguan_core::xiangqi::opening::opening_of(start, moves.iter().copied())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_shows_thirty_two_pieces_with_their_characters() {
        let cells = cells(&Position::start(), &Marks::default());
        assert_eq!(cells.len(), 90);
        assert_eq!(cells.iter().filter(|c| !c.piece.is_empty()).count(), 32);
        let at = |name: &str| cells.iter().find(|c| c.label == name).unwrap();
        assert_eq!((at("e1").piece.as_str(), at("e1").red), ("帅", true));
        assert_eq!((at("e10").piece.as_str(), at("e10").red), ("将", false));
        assert_eq!(at("h3").piece, "炮");
        assert_eq!(at("a4").piece, "兵");
        assert_eq!(at("a7").piece, "卒");
        assert_eq!(
            (at("d1").piece.as_str(), at("d10").piece.as_str()),
            ("仕", "士")
        );
    }

    #[test]
    fn move_rows_pair_red_and_black_and_start_with_black_when_it_moves_first() {
        let start = Position::start();
        let moves: Vec<Move> = ["h3e3", "h10g8", "h1g3"]
            .iter()
            .map(|t| t.parse().unwrap())
            .collect();
        let rows = move_rows(&start, &moves, Notation::Chinese);
        assert_eq!(rows.len(), 2);
        assert_eq!(
            (rows[0].first.as_str(), rows[0].second.as_str()),
            ("炮二平五", "马8进7")
        );
        assert_eq!(
            (rows[1].first.as_str(), rows[1].second_ply),
            ("马二进三", -1)
        );
        let wxf = move_rows(&start, &moves, Notation::Wxf);
        assert_eq!(wxf[0].first, "C2=5");

        let black_first = Position::from_fen(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
        )
        .unwrap();
        let rows = move_rows(&black_first, &moves[1..2], Notation::Coordinates);
        assert_eq!((rows[0].first.as_str(), rows[0].first_ply), ("…", -1));
        assert_eq!((rows[0].second.as_str(), rows[0].second_ply), ("h10g8", 0));
    }
}
