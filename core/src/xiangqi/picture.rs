//! The Xiangqi board picture in docs/rules/xiangqi-board.svg: the board's lines, river and
//! palaces, and the pieces of the starting position, drawn from the board data and the start
//! FEN so that the rules page and the rules cannot disagree. `cargo run -p qiguan-core
//! --example xiangqi_board` writes it; a test checks that the file is current.
//!
//! Red sits at the bottom. The files are numbered as the Chinese notation counts them: Red's
//! 一 to 九 from its right along the bottom, Black's 1 to 9 from its right along the top; the
//! coordinates (`a`–`i`, `1`–`10`) are written small beside them.

use super::board::{Color, FILES, RANKS, Square, in_palace};
use super::notation::chinese_name;
use super::position::Position;
use crate::svg::{line, start, text};
use std::fmt::Write;

/// Pixels between two lines.
const STEP: f64 = 40.0;
/// Margins: beside the board (room for the rank numbers) and above and below it (the file
/// numbers).
const SIDE: f64 = 46.0;
const END: f64 = 66.0;
const WIDTH: f64 = 2.0 * SIDE + (FILES - 1) as f64 * STEP;
const HEIGHT: f64 = 2.0 * END + (RANKS - 1) as f64 * STEP;
const LINE: &str = r##"stroke="#5a3a1a" stroke-width="1.5""##;
const RED: &str = "#b8241c";
const BLACK: &str = "#1f1f1f";

/// The centre of a point in the picture: file `a` on the left, Red's back rank at the bottom.
pub fn centre(sq: Square) -> (f64, f64) {
    xy(sq.file(), sq.rank())
}

fn xy(file: usize, rank: usize) -> (f64, f64) {
    (SIDE + file as f64 * STEP, HEIGHT - END - rank as f64 * STEP)
}

/// Returns the board picture as SVG text.
pub fn board_svg() -> String {
    let mut out = String::new();
    start(&mut out, WIDTH, HEIGHT);
    let _ = writeln!(
        out,
        "<title>Xiangqi: the board and the starting position</title>"
    );
    draw_board(&mut out);
    // The pieces where the game starts.
    let start = Position::start();
    for sq in Square::all() {
        if let Some(piece) = start.piece_at(sq) {
            draw_piece(
                &mut out,
                centre(sq),
                piece.color() == Color::Red,
                &chinese_name(piece.color(), piece.kind()).to_string(),
            );
        }
    }
    out.push_str("</svg>\n");
    out
}

/// The picture's size in pixels.
pub(crate) const SIZE: (f64, f64) = (WIDTH, HEIGHT);

/// Draws the board without pieces: its background, lines, river, palaces and numbers.
pub(crate) fn draw_board(out: &mut String) {
    let _ = writeln!(
        out,
        r##"<rect width="100%" height="100%" fill="#fbf6e9"/>"##
    );
    let (x0, y0) = xy(0, RANKS - 1);
    let (x1, y1) = xy(FILES - 1, 0);
    let _ = writeln!(
        out,
        r##"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="#f1d9a6" stroke="#5a3a1a" stroke-width="3"/>"##,
        x0 - 8.0,
        y0 - 8.0,
        x1 - x0 + 16.0,
        y1 - y0 + 16.0
    );
    // The ranks run across the board; the files stop at the river, but for the two edges.
    for rank in 0..RANKS {
        line(out, xy(0, rank), xy(FILES - 1, rank), LINE);
    }
    for file in 0..FILES {
        let edge = file == 0 || file == FILES - 1;
        let halves: Vec<(usize, usize)> = if edge {
            vec![(0, RANKS - 1)]
        } else {
            // Each side's half: the ranks where a soldier has not crossed the river.
            [Color::Red, Color::Black]
                .map(|c| {
                    let ranks: Vec<usize> = (0..RANKS).filter(|&r| c.own_half(r)).collect();
                    (ranks[0], ranks[ranks.len() - 1])
                })
                .to_vec()
        };
        for (a, b) in halves {
            line(out, xy(file, a), xy(file, b), LINE);
        }
    }
    // The palaces: the diagonals of each 3×3 square.
    for color in [Color::Red, Color::Black] {
        let points: Vec<Square> = Square::all()
            .filter(|sq| in_palace(color, sq.index()))
            .collect();
        let (lo, hi) = (points[0], points[points.len() - 1]);
        line(out, centre(lo), centre(hi), LINE);
        line(
            out,
            xy(hi.file(), lo.rank()),
            xy(lo.file(), hi.rank()),
            LINE,
        );
    }
    // The river, between the two halves.
    let river = (xy(0, 4).1 + xy(0, 5).1) / 2.0;
    text(out, (xy(2, 0).0, river), 20.0, "#5a3a1a", "楚 河");
    text(out, (xy(6, 0).0, river), 20.0, "#5a3a1a", "漢 界");
    // The files as each side counts them, and the coordinates.
    const RED_NUMERALS: [&str; 9] = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];
    for file in 0..FILES {
        let (x, bottom) = xy(file, 0);
        let (_, top) = xy(file, RANKS - 1);
        text(
            out,
            (x, bottom + 36.0),
            14.0,
            RED,
            RED_NUMERALS[FILES - 1 - file],
        );
        text(
            out,
            (x, bottom + 54.0),
            10.0,
            "#8a7a66",
            &((b'a' + file as u8) as char).to_string(),
        );
        text(out, (x, top - 36.0), 14.0, BLACK, &(file + 1).to_string());
    }
    for rank in 0..RANKS {
        let (x, y) = xy(0, rank);
        text(out, (x - 32.0, y), 10.0, "#8a7a66", &(rank + 1).to_string());
    }
}

/// Draws a piece centred on `(x, y)`: red or black, with its Chinese name.
pub(crate) fn draw_piece(out: &mut String, (x, y): (f64, f64), red: bool, name: &str) {
    let ink = if red { RED } else { BLACK };
    let _ = writeln!(
        out,
        r##"<circle cx="{x:.1}" cy="{y:.1}" r="16" fill="#fdf3dc" stroke="{ink}" stroke-width="2"/>"##
    );
    text(out, (x, y), 18.0, ink, name);
}
