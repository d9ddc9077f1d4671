//! The Junqi board picture in docs/rules/junqi-board.svg, drawn from the board data (the
//! points, links, rail flags, camps, headquarters and mountains of [`super::board`]) so that
//! the rules page and the rules cannot disagree. `cargo run -p qiguan-core --example
//! junqi_board` writes it; a test checks that the file is current.
//!
//! Railways are drawn as thick double lines, roads as thin ones; ordinary points (兵站) are
//! rounded rectangles, camps (行营) circles, headquarters (大本营) red arches. South (red) sits
//! at the bottom.

use super::board::{COLUMNS, MOUNTAINS, POINTS, Point, graph};
use super::pieces::Side;
use crate::svg::{line, start, text};
use std::fmt::Write;

/// Pixels between two columns.
const DX: f64 = 72.0;
/// Pixels between two rows in one half.
const DY: f64 = 44.0;
/// Pixels between rows 5 and 6, across the front.
const FRONT: f64 = 84.0;
/// Margins: beside the board, and above and below it (room for the sides' names).
const SIDE: f64 = 44.0;
const END: f64 = 44.0;
/// The picture's width, and the board's height (the legend comes below).
const WIDTH: f64 = 2.0 * SIDE + (COLUMNS - 1) as f64 * DX;
const BOARD_HEIGHT: f64 = 2.0 * END + 10.0 * DY + FRONT;
/// The legend: one row per kind of line and point, then a note.
const LEGEND_ROW: f64 = 26.0;
const LEGEND: f64 = 6.0 * LEGEND_ROW + 40.0;

/// How a railway is drawn: a thick dark line (a test finds the railways by it), then
/// [`RAIL_INSIDE`] over it.
pub const RAIL: &str = r##"stroke="#222" stroke-width="7" stroke-linecap="round""##;
const RAIL_INSIDE: &str = r##"stroke="#fbf3de" stroke-width="2.6" stroke-linecap="round""##;
const ROAD: &str = r##"stroke="#7a6a55" stroke-width="1.6""##;

/// The centre of a point in the picture, in pixels: column `a` on the left, row 0 (South's
/// back row) at the bottom.
pub fn centre(p: Point) -> (f64, f64) {
    (SIDE + p.column() as f64 * DX, row_y(p.row()))
}

/// The height of a row's points in the picture.
fn row_y(row: usize) -> f64 {
    let across = if row >= 6 { FRONT - DY } else { 0.0 };
    BOARD_HEIGHT - END - row as f64 * DY - across
}

/// Every link once, with its two ends and whether it is rail.
fn links() -> Vec<(Point, Point, bool)> {
    let g = graph();
    (0..POINTS)
        .flat_map(|a| {
            g.links(a)
                .iter()
                .filter(move |l| l.to > a)
                .filter_map(move |l| {
                    Some((Point::from_index(a)?, Point::from_index(l.to)?, l.rail))
                })
        })
        .collect()
}

/// Returns the board picture as SVG text.
pub fn board_svg() -> String {
    let mut out = String::new();
    let height = BOARD_HEIGHT + LEGEND;
    start(&mut out, WIDTH, height);
    let _ = writeln!(out, "<title>Junqi: the board</title>");
    draw_board(&mut out);
    text(
        &mut out,
        (WIDTH / 2.0, BOARD_HEIGHT - 13.0),
        12.0,
        "#8a1010",
        "South 南 (red)",
    );
    text(
        &mut out,
        (WIDTH / 2.0, 13.0),
        12.0,
        "#1c3f8a",
        "North 北 (blue)",
    );
    legend(&mut out);
    out.push_str("</svg>\n");
    out
}

/// The board's size in pixels, without the legend.
pub(crate) const SIZE: (f64, f64) = (WIDTH, BOARD_HEIGHT);

/// Draws the board: its background, the two halves, roads, railways, mountains and points.
pub(crate) fn draw_board(out: &mut String) {
    let _ = writeln!(
        out,
        r##"<rect width="100%" height="100%" fill="#fbf6e9"/>"##
    );
    // The two halves, and the front between them.
    for (y0, y1) in [(row_y(11), row_y(6)), (row_y(5), row_y(0))] {
        let _ = writeln!(
            out,
            r##"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="#f1e3b5" rx="6"/>"##,
            SIDE - 30.0,
            y0 - 20.0,
            WIDTH - 2.0 * SIDE + 60.0,
            y1 - y0 + 40.0
        );
    }
    // Roads first, then the railways over them: black, then a light line inside, so that
    // each railway shows as a double line.
    let all = links();
    for &(a, b, rail) in &all {
        if !rail {
            line(out, centre(a), centre(b), ROAD);
        }
    }
    for inside in [false, true] {
        for &(a, b, rail) in &all {
            if rail {
                line(
                    out,
                    centre(a),
                    centre(b),
                    if inside { RAIL_INSIDE } else { RAIL },
                );
            }
        }
    }
    // The mountains: nothing crosses between the two points of each pair.
    for (a, b) in MOUNTAINS {
        let (Some(a), Some(b)) = (Point::from_index(a), Point::from_index(b)) else {
            continue;
        };
        let ((xa, ya), (xb, yb)) = (centre(a), centre(b));
        mountain(out, ((xa + xb) / 2.0, (ya + yb) / 2.0));
    }
    for p in Point::all() {
        point(out, p);
    }
}

/// Draws a piece on the point centred on `(x, y)`: South's red, North's blue, or grey when
/// no one knows whose it is (a face-down piece in flip mode); with its Chinese name, or blank
/// when it is hidden.
pub(crate) fn draw_piece(
    out: &mut String,
    (x, y): (f64, f64),
    side: Option<Side>,
    name: Option<&str>,
) {
    let ink = match side {
        Some(Side::South) => "#b8241c",
        Some(Side::North) => "#1c3f8a",
        None => "#6b6255",
    };
    let fill = if name.is_some() { "#fdf3dc" } else { ink };
    let _ = writeln!(
        out,
        r##"<rect x="{:.1}" y="{:.1}" width="48" height="28" rx="5" fill="{fill}" stroke="{ink}" stroke-width="2"/>"##,
        x - 24.0,
        y - 14.0
    );
    if let Some(name) = name {
        text(out, (x, y), 15.0, ink, name);
    }
}

/// Draws two peaks centred on `at`.
fn mountain(out: &mut String, (x, y): (f64, f64)) {
    let _ = writeln!(
        out,
        r##"<path d="M{:.1},{:.1} L{:.1},{:.1} L{:.1},{:.1} L{:.1},{:.1} L{:.1},{:.1} z" fill="#8b6b3d" stroke="#5a4223" stroke-width="1"/>"##,
        x - 22.0,
        y + 11.0,
        x - 8.0,
        y - 12.0,
        x + 1.0,
        y + 1.0,
        x + 9.0,
        y - 8.0,
        x + 22.0,
        y + 11.0
    );
}

/// Draws a point with its name: a camp as a circle, a headquarters as a red arch, any other
/// point as a rounded rectangle.
fn point(out: &mut String, p: Point) {
    let (x, y) = centre(p);
    if p.is_camp() {
        let _ = writeln!(
            out,
            r##"<circle cx="{x:.1}" cy="{y:.1}" r="17" fill="#d6ebcf" stroke="#2f6b2f" stroke-width="2"/>"##
        );
    } else if p.is_headquarters() {
        // An arch: flat on the side of the board's end, round towards the middle.
        let south = p.row() < 6;
        let (edge, sweep) = if south { (y + 12.0, 1) } else { (y - 12.0, 0) };
        let _ = writeln!(
            out,
            r##"<path d="M{:.1},{edge:.1} L{:.1},{:.1} A24,16 0 0 {sweep} {:.1},{:.1} L{:.1},{edge:.1} z" fill="#f4c7bd" stroke="#8a1010" stroke-width="2"/>"##,
            x - 24.0,
            x - 24.0,
            if south { y - 2.0 } else { y + 2.0 },
            x + 24.0,
            if south { y - 2.0 } else { y + 2.0 },
            x + 24.0,
        );
    } else {
        let _ = writeln!(
            out,
            r##"<rect x="{:.1}" y="{:.1}" width="40" height="22" rx="4" fill="#fffaf0" stroke="#5a4632" stroke-width="1.2"/>"##,
            x - 20.0,
            y - 11.0
        );
    }
    text(out, (x, y), 11.0, "#222", &p.to_string());
}

fn legend(out: &mut String) {
    let top = BOARD_HEIGHT + 8.0;
    let rows: [(String, &str); 6] = [
        (
            format!(
                r##"<line x1="2" y1="0" x2="30" y2="0" {RAIL}/><line x1="2" y1="0" x2="30" y2="0" {RAIL_INSIDE}/>"##
            ),
            "railway 铁路: any distance in a straight line",
        ),
        (
            format!(r##"<line x1="0" y1="0" x2="32" y2="0" {ROAD}/>"##),
            "road 公路: one step",
        ),
        (
            r##"<rect x="6" y="-10" width="22" height="20" rx="4" fill="#fffaf0" stroke="#5a4632" stroke-width="1.2"/>"##
                .to_string(),
            "post 兵站",
        ),
        (
            r##"<circle cx="17" cy="0" r="11" fill="#d6ebcf" stroke="#2f6b2f" stroke-width="2"/>"##
                .to_string(),
            "camp 行营: safe from attack",
        ),
        (
            r##"<path d="M3,9 L3,-1 A14,10 0 0 1 31,-1 L31,9 z" fill="#f4c7bd" stroke="#8a1010" stroke-width="2"/>"##
                .to_string(),
            "headquarters 大本营",
        ),
        (
            r##"<path d="M-2,10 L10,-10 L18,2 L25,-6 L36,10 z" fill="#8b6b3d" stroke="#5a4223" stroke-width="1"/>"##
                .to_string(),
            "mountains 山界: no way across",
        ),
    ];
    for (i, (mark, words)) in rows.iter().enumerate() {
        let (x, y) = (16.0, top + 14.0 + i as f64 * LEGEND_ROW);
        let _ = writeln!(
            out,
            r##"<g transform="translate({x:.1},{y:.1})">{mark}<text x="46" y="0" font-size="12" fill="#111" dominant-baseline="central">{words}</text></g>"##
        );
    }
    let note = top + 14.0 + rows.len() as f64 * LEGEND_ROW + 4.0;
    let _ = writeln!(
        out,
        r##"<text x="16" y="{note:.1}" font-size="12" fill="#8a1010" dominant-baseline="central">front 前线: crossed at a, c and e only</text>"##
    );
}
