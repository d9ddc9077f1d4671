//! The Aeroplane chess board picture in docs/rules/aeroplane-board.svg, drawn from the board
//! data (the colours of the 52 track squares, each colour's take-off point, home column and
//! shortcut flight) so that the rules page and the rules cannot disagree. `cargo run -p
//! qiguan-core --example aeroplane_board` writes it; a test checks that the file is current.
//!
//! The layout is the app's board (app/src/screens/aeroplane.rs): a 15 × 15 grid, red's
//! quarter top left, the colours following each other clockwise. Red's path is numbered in
//! steps from its take-off point, as the rules page counts them.

use super::board::{Colour, GOAL, HOME_TURN, SHORTCUT, TRACK, square_colour};
use super::geometry;
use crate::svg::{start, text};
use std::fmt::Write;

/// Pixels per grid cell.
const CELL: f64 = 26.0;
/// The margin around the board.
const MARGIN: f64 = 8.0;
const WIDTH: f64 = 15.0 * CELL + 2.0 * MARGIN;
const BOARD_HEIGHT: f64 = WIDTH;
const LEGEND_ROW: f64 = 24.0;
const LEGEND: f64 = 5.0 * LEGEND_ROW + 16.0;

/// The strong and the pale tone of each colour, as the app draws them.
fn tone(c: Colour) -> &'static str {
    ["#d1392f", "#e0a800", "#2563c4", "#2c9a56"][c.index()]
}

fn pale(c: Colour) -> &'static str {
    ["#f6d3cf", "#f8e7b0", "#cfdcf5", "#cdebd7"][c.index()]
}

/// A place of the board's grid (core's geometry) in this picture's units.
fn px((x, y): geometry::Cell) -> (f64, f64) {
    (f64::from(x), f64::from(y))
}

fn square_cell(square: u8) -> (f64, f64) {
    px(geometry::square_cell(square))
}

fn home_cell(c: Colour, step: u8) -> (f64, f64) {
    px(geometry::home_cell(c, step))
}

fn take_off_cell(c: Colour) -> (f64, f64) {
    px(geometry::take_off_cell(c))
}

/// The centre of a cell, in pixels.
fn centre((x, y): (f64, f64)) -> (f64, f64) {
    (MARGIN + (x + 0.5) * CELL, MARGIN + (y + 0.5) * CELL)
}

fn square(out: &mut String, cell: (f64, f64), fill: &str, stroke: &str, width: f64) {
    let _ = writeln!(
        out,
        r##"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" rx="4" fill="{fill}" stroke="{stroke}" stroke-width="{width}"/>"##,
        MARGIN + cell.0 * CELL + 1.0,
        MARGIN + cell.1 * CELL + 1.0,
        CELL - 2.0,
        CELL - 2.0
    );
}

/// The path of a colour's shortcut flight, as a quadratic curve (start, control point, end)
/// in pixels.
fn flight(c: Colour) -> Option<[(f64, f64); 3]> {
    let at = |p: geometry::Cell| {
        let (x, y) = px(p);
        (MARGIN + x * CELL, MARGIN + y * CELL)
    };
    geometry::flight(c).map(|[a, q, b]| [at(a), at(q), at(b)])
}

/// Returns the board picture as SVG text.
pub fn board_svg() -> String {
    let mut out = String::new();
    let height = BOARD_HEIGHT + LEGEND;
    start(&mut out, WIDTH, height);
    let _ = writeln!(
        out,
        "<title>Aeroplane chess: the board, with red's steps</title>"
    );
    draw_board(&mut out, false);
    // Red's steps, as the rules page counts them.
    let red = Colour::Red;
    text(&mut out, centre(take_off_cell(red)), 10.0, "#ffffff", "0");
    for step in 1..=HOME_TURN {
        if let Some(s) = red.square(step) {
            text(
                &mut out,
                centre(square_cell(s)),
                10.0,
                "#ffffff",
                &step.to_string(),
            );
        }
    }
    for step in HOME_TURN + 1..GOAL {
        text(
            &mut out,
            centre(home_cell(red, step)),
            10.0,
            tone(red),
            &step.to_string(),
        );
    }
    legend(&mut out);
    out.push_str("</svg>\n");
    out
}

/// The board's size in pixels, without the legend.
pub(crate) const SIZE: (f64, f64) = (WIDTH, BOARD_HEIGHT);

/// The centre of a grid cell in the picture.
pub(crate) fn cell_centre(cell: geometry::Cell) -> (f64, f64) {
    centre(px(cell))
}

/// Draws the board: hangars, the goal, the track, home columns, take-off points and flights.
/// The hangars and the goal are named in English when `english` (a shared page in English),
/// else in Chinese (the rules pages, whose legend gives both).
pub(crate) fn draw_board(out: &mut String, english: bool) {
    let _ = writeln!(
        out,
        r##"<rect width="100%" height="100%" fill="#fbf5e6"/>"##
    );
    // The hangars in the corners, red's top left and the others clockwise, with the colour's
    // name.
    for c in Colour::ALL {
        let (x, y) = [(0.25, 0.25), (9.25, 0.25), (9.25, 9.25), (0.25, 9.25)][c.index()];
        let _ = writeln!(
            out,
            r##"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" rx="14" fill="{}" stroke="{}" stroke-width="2"/>"##,
            MARGIN + x * CELL,
            MARGIN + y * CELL,
            5.5 * CELL,
            5.5 * CELL,
            pale(c),
            tone(c)
        );
        text(
            out,
            centre((x + 2.25, y + 2.25)),
            14.0,
            tone(c),
            &if english {
                format!("{} hangar", ["Red", "Yellow", "Blue", "Green"][c.index()])
            } else {
                format!("{}方机库", c.chinese())
            },
        );
    }
    // The goal: four triangles meeting in the middle, each colour's towards its home column.
    let (gx, gy) = (MARGIN + 6.0 * CELL, MARGIN + 6.0 * CELL);
    let g = 3.0 * CELL;
    let mid = (gx + g / 2.0, gy + g / 2.0);
    let corners = [(gx, gy), (gx + g, gy), (gx + g, gy + g), (gx, gy + g)];
    for c in Colour::ALL {
        // Red's home column comes from the left: its triangle has the left side.
        let (a, b) = match c.index() {
            0 => (corners[3], corners[0]),
            1 => (corners[0], corners[1]),
            2 => (corners[1], corners[2]),
            _ => (corners[2], corners[3]),
        };
        let _ = writeln!(
            out,
            r##"<path d="M{:.1},{:.1} L{:.1},{:.1} L{:.1},{:.1} z" fill="{}" stroke="#ffffff" stroke-width="1.5"/>"##,
            a.0,
            a.1,
            b.0,
            b.1,
            mid.0,
            mid.1,
            tone(c)
        );
    }
    text(
        out,
        mid,
        12.0,
        "#ffffff",
        if english { "Goal" } else { "终点" },
    );
    // The track, the home columns and the take-off points.
    for s in 0..TRACK {
        let c = square_colour(s);
        let shortcut = c.square(SHORTCUT) == Some(s);
        square(
            out,
            square_cell(s),
            tone(c),
            if shortcut { "#2b2118" } else { tone(c) },
            if shortcut { 3.0 } else { 0.0 },
        );
    }
    for c in Colour::ALL {
        for step in HOME_TURN + 1..GOAL {
            square(out, home_cell(c, step), pale(c), tone(c), 1.5);
        }
        let at = centre(take_off_cell(c));
        let _ = writeln!(
            out,
            r##"<circle cx="{:.1}" cy="{:.1}" r="{:.1}" fill="{}" stroke="#ffffff" stroke-width="2"/>"##,
            at.0,
            at.1,
            CELL / 2.0 - 1.0,
            tone(c)
        );
    }
    // The shortcut flights.
    for c in Colour::ALL {
        if let Some([a, q, b]) = flight(c) {
            let _ = writeln!(
                out,
                r##"<path d="M{:.1},{:.1} Q{:.1},{:.1} {:.1},{:.1}" fill="none" stroke="#2b2118" stroke-width="2" stroke-dasharray="6 3" opacity="0.8"/>"##,
                a.0, a.1, q.0, q.1, b.0, b.1
            );
        }
    }
}

/// Draws a plane of colour `c` centred on `(x, y)`, with its number.
pub(crate) fn draw_plane(out: &mut String, (x, y): (f64, f64), c: Colour, number: &str) {
    let _ = writeln!(
        out,
        r##"<circle cx="{x:.1}" cy="{y:.1}" r="{:.1}" fill="{}" stroke="#2b2118" stroke-width="1.5"/>"##,
        CELL / 2.0 - 3.0,
        tone(c)
    );
    text(out, (x, y), 12.0, "#ffffff", number);
}

fn legend(out: &mut String) {
    let top = BOARD_HEIGHT + 6.0;
    let red = tone(Colour::Red);
    let rows: [(String, &str); 5] = [
        (
            format!(r##"<circle cx="13" cy="0" r="11" fill="{red}"/><text x="13" y="0" font-size="10" fill="#ffffff" text-anchor="middle" dominant-baseline="central">0</text>"##),
            "take-off point 起飞点 (step 0)",
        ),
        (
            format!(r##"<rect x="2" y="-11" width="22" height="22" rx="4" fill="{red}"/><text x="13" y="0" font-size="10" fill="#ffffff" text-anchor="middle" dominant-baseline="central">18</text>"##),
            "red's steps 红方的步数: 1–50 on the track",
        ),
        (
            format!(r##"<rect x="2" y="-11" width="22" height="22" rx="4" fill="{red}" stroke="#2b2118" stroke-width="3"/>"##),
            "shortcut square 捷径格 (step 18)",
        ),
        (
            r##"<path d="M0,4 Q13,-10 26,4" fill="none" stroke="#2b2118" stroke-width="2" stroke-dasharray="6 3"/>"##.to_string(),
            "shortcut flight 捷径飞行: 18 → 30",
        ),
        (
            format!(r##"<rect x="2" y="-11" width="22" height="22" rx="4" fill="{}" stroke="{red}" stroke-width="1.5"/><text x="13" y="0" font-size="10" fill="{red}" text-anchor="middle" dominant-baseline="central">53</text>"##, pale(Colour::Red)),
            "home column 终点跑道: 51–55, then the goal 终点",
        ),
    ];
    for (i, (mark, words)) in rows.iter().enumerate() {
        let (x, y) = (14.0, top + 14.0 + i as f64 * LEGEND_ROW);
        let _ = writeln!(
            out,
            r##"<g transform="translate({x:.1},{y:.1})">{mark}<text x="40" y="0" font-size="12" fill="#111" dominant-baseline="central">{words}</text></g>"##
        );
    }
}
