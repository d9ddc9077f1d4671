//! The board picture in docs/rules/sea-land-air-board.svg, drawn from the board data so that
//! the page and the rules cannot disagree. `cargo run -p qiguan-core --example
//! sealandair_board` writes it; a test checks that the file is current.

use super::board::{Label, Layer, POINTS, Point, map};
use crate::svg::{line, start, text};
use std::fmt::Write;

/// Pixels per half-unit of [`Point::position`].
const U: f64 = 20.0;
/// The picture's margin, in half-units, around the airports.
const MARGIN: f64 = 2.5;
const WIDTH: f64 = (16.0 + 2.0 * MARGIN) * U;
const BOARD_HEIGHT: f64 = (26.0 + 2.0 * MARGIN) * U;
/// The legend below the board: one column of rows, then the key to the printed words.
const LEGEND_ROW: f64 = 24.0;
const LEGEND: f64 = 13.0 * LEGEND_ROW + 3.0 * 18.0 + 16.0;
/// Chinese words on the board: at least 12 px.
const LABEL: f64 = 12.0;

fn px(p: (i32, i32)) -> (f64, f64) {
    xy(p.0 as f64, p.1 as f64)
}

fn xy(x: f64, y: f64) -> (f64, f64) {
    ((x + 2.0 + MARGIN) * U, (24.0 - y + MARGIN) * U)
}

/// Shifts the segment a–b sideways by `d` pixels.
fn offset(a: (f64, f64), b: (f64, f64), d: f64) -> ((f64, f64), (f64, f64)) {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = (dx * dx + dy * dy).sqrt().max(1e-9);
    let (nx, ny) = (-dy / len * d, dx / len * d);
    ((a.0 + nx, a.1 + ny), (b.0 + nx, b.1 + ny))
}

/// Shortens the segment a–b by `d` pixels at each end.
fn trim(a: (f64, f64), b: (f64, f64), d: f64) -> ((f64, f64), (f64, f64)) {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = (dx * dx + dy * dy).sqrt().max(1e-9);
    let (ux, uy) = (dx / len * d, dy / len * d);
    ((a.0 + ux, a.1 + uy), (b.0 - ux, b.1 - uy))
}

/// What words beside a point must keep clear of: the lines drawn, the points, and the words
/// already placed.
#[derive(Default)]
struct Obstacles {
    segments: Vec<((f64, f64), (f64, f64))>,
    /// Centre and radius.
    discs: Vec<((f64, f64), f64)>,
}

impl Obstacles {
    fn segment(&mut self, a: (f64, f64), b: (f64, f64)) {
        self.segments.push((a, b));
    }

    /// How far `p` is from everything in the way.
    fn clearance(&self, p: (f64, f64)) -> f64 {
        let to_segment = |(a, b): &((f64, f64), (f64, f64))| {
            let (dx, dy) = (b.0 - a.0, b.1 - a.1);
            let len2 = (dx * dx + dy * dy).max(1e-9);
            let t = (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2).clamp(0.0, 1.0);
            let (cx, cy) = (a.0 + t * dx, a.1 + t * dy);
            ((p.0 - cx).powi(2) + (p.1 - cy).powi(2)).sqrt()
        };
        let segments = self.segments.iter().map(to_segment);
        let discs = self
            .discs
            .iter()
            .map(|(c, r)| ((p.0 - c.0).powi(2) + (p.1 - c.1).powi(2)).sqrt() - r);
        segments.chain(discs).fold(f64::INFINITY, f64::min)
    }

    /// Returns the spot among `around + offset` that is furthest from everything in the way,
    /// and keeps it clear for the words placed after.
    fn place(&mut self, around: (f64, f64), offsets: &[(f64, f64)], radius: f64) -> (f64, f64) {
        let spot = offsets
            .iter()
            .map(|o| (around.0 + o.0, around.1 + o.1))
            .map(|q| (self.clearance(q), q))
            .fold((f64::NEG_INFINITY, around), |best, c| {
                if c.0 > best.0 { c } else { best }
            })
            .1;
        self.discs.push((spot, radius));
        spot
    }
}

/// The corners beside a circle where its words may go, in order of preference.
const CORNERS: [(f64, f64); 12] = [
    (-13.0, -13.0),
    (13.0, -13.0),
    (-13.0, 13.0),
    (13.0, 13.0),
    (-16.0, -7.0),
    (-7.0, -16.0),
    (7.0, -16.0),
    (16.0, -7.0),
    (-16.0, 7.0),
    (-7.0, 16.0),
    (7.0, 16.0),
    (16.0, 7.0),
];
/// Where a stopping dot's name may go.
const DOT_LABELS: [(f64, f64); 6] = [
    (12.0, 9.0),
    (-12.0, 9.0),
    (12.0, -9.0),
    (-12.0, -9.0),
    (0.0, 13.0),
    (0.0, -13.0),
];

/// Draws a fire arrow from `tail` to `head` as a curve bowing `bow` pixels to its left (seen
/// along the arrow), so that it passes beside the point it flies over instead of across it.
fn fire_arrow(
    out: &mut String,
    tail: (f64, f64),
    head: (f64, f64),
    bow: f64,
    clear: &mut Obstacles,
) {
    let (a, b) = trim(tail, head, 12.0);
    let mid = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
    let (c, _) = offset(mid, b, bow * 2.0);
    let at = |t: f64| {
        let u = 1.0 - t;
        (
            u * u * a.0 + 2.0 * u * t * c.0 + t * t * b.0,
            u * u * a.1 + 2.0 * u * t * c.1 + t * t * b.1,
        )
    };
    for i in 0..8 {
        clear.segment(at(i as f64 / 8.0), at((i + 1) as f64 / 8.0));
    }
    let _ = writeln!(
        out,
        r##"<path d="M{:.1},{:.1} Q{:.1},{:.1} {:.1},{:.1}" fill="none" stroke="#d01c1c" stroke-width="2.2"/>"##,
        a.0, a.1, c.0, c.1, b.0, b.1
    );
    arrowhead(out, c, b);
}

/// Draws a red arrowhead at `tip`, pointing away from `from`.
fn arrowhead(out: &mut String, from: (f64, f64), tip: (f64, f64)) {
    let (dx, dy) = (tip.0 - from.0, tip.1 - from.1);
    let len = (dx * dx + dy * dy).sqrt().max(1e-9);
    let (ux, uy) = (dx / len, dy / len);
    let (bx, by) = (tip.0 - ux * 9.0, tip.1 - uy * 9.0);
    let _ = writeln!(
        out,
        r##"<path d="M{:.1},{:.1} L{:.1},{:.1} L{:.1},{:.1} z" fill="#d01c1c"/>"##,
        tip.0,
        tip.1,
        bx - uy * 4.5,
        by + ux * 4.5,
        bx + uy * 4.5,
        by - ux * 4.5
    );
}

/// Returns the board picture as SVG text.
pub fn board_svg() -> String {
    let mut out = String::new();
    let height = BOARD_HEIGHT + LEGEND;
    start(&mut out, WIDTH, height);
    let _ = writeln!(out, "<title>Sea-land-air battle chess: the board</title>");
    draw_board(&mut out, false);
    text(&mut out, xy(6.0, -2.9), 11.0, "#8a1010", "South 南 (red)");
    text(&mut out, xy(6.0, 24.9), 11.0, "#1c3f8a", "North 北 (blue)");
    legend(&mut out);
    out.push_str("</svg>\n");
    out
}

/// The board's size in pixels, without the legend.
pub(crate) const SIZE: (f64, f64) = (WIDTH, BOARD_HEIGHT);

/// The centre of a point in the picture.
pub(crate) fn centre(p: Point) -> (f64, f64) {
    px(p.position())
}

/// Draws the board: land and sea, the territory line, every line and route, and the points.
/// The territory line and the airports are named in English when `english` (a shared page in
/// English), else in Chinese (the rules pages, whose legend gives both). The points' one-
/// character marks (城, 炮, …) stay, as on the app's board; a page gives their legend.
pub(crate) fn draw_board(out: &mut String, english: bool) {
    let _ = writeln!(
        out,
        r##"<rect width="100%" height="100%" fill="#fbf6e9"/>"##
    );
    // The land and sea areas, and the territory line.
    let (x0, y1) = xy(-1.0, -1.0);
    let (x1, y0) = xy(9.0, 23.0);
    let _ = writeln!(
        out,
        r##"<rect x="{x0:.1}" y="{y0:.1}" width="{:.1}" height="{:.1}" fill="#f1e3b5" rx="6"/>"##,
        x1 - x0,
        y1 - y0
    );
    let (s0, _) = xy(9.0, 0.0);
    let (s1, _) = xy(13.0, 0.0);
    let _ = writeln!(
        out,
        r##"<rect x="{s0:.1}" y="{y0:.1}" width="{:.1}" height="{:.1}" fill="#cfe8df" rx="6"/>"##,
        s1 - s0,
        y1 - y0
    );
    let (lx0, ly) = xy(-4.5, 11.0);
    let (lx1, _) = xy(16.5, 11.0);
    line(
        out,
        (lx0, ly),
        (lx1, ly),
        r##"stroke="#7a5c2e" stroke-width="2.5""##,
    );
    let (tx, ty) = xy(-4.4, 11.0);
    let _ = writeln!(
        out,
        r##"<text x="{tx:.1}" y="{:.1}" font-size="{LABEL}" fill="#7a5c2e">{}</text>"##,
        ty - 6.0,
        if english { "Border" } else { "国界" }
    );
    let mut clear = lines(out);
    points(out, &mut clear, english);
}

/// Draws a piece centred on `(x, y)`: South's red or North's blue, with its short Chinese
/// name, or blank when it is hidden.
pub(crate) fn draw_piece(out: &mut String, (x, y): (f64, f64), north: bool, name: Option<&str>) {
    let ink = if north { "#1c3f8a" } else { "#b8241c" };
    let fill = if name.is_some() { "#fdf3dc" } else { ink };
    // A margin of the board's paper round the tile: a piece on a stopping dot stands close to
    // its neighbours' tiles, and the point's own mark stays under it.
    let _ = writeln!(
        out,
        r##"<rect x="{:.1}" y="{:.1}" width="38" height="26" rx="6" fill="#fbf6e9"/>"##,
        x - 19.0,
        y - 13.0
    );
    let _ = writeln!(
        out,
        r##"<rect x="{:.1}" y="{:.1}" width="34" height="22" rx="4" fill="{fill}" stroke="{ink}" stroke-width="1.8"/>"##,
        x - 17.0,
        y - 11.0
    );
    if let Some(name) = name {
        text(
            out,
            (x, y),
            if name.chars().count() > 2 { 10.0 } else { 13.0 },
            ink,
            name,
        );
    }
}

/// Draws every link, line, route and arrow; returns what words must keep clear of.
fn lines(out: &mut String) -> Obstacles {
    let m = map();
    let mut clear = Obstacles::default();
    // Roads and railways, then the sea lines: every link once.
    let links = |graph: &crate::graph::BoardGraph| -> Vec<(Point, Point, bool)> {
        (0..POINTS)
            .flat_map(|a| {
                graph
                    .links(a)
                    .iter()
                    .filter(move |l| l.to > a)
                    .filter_map(move |l| {
                        Some((Point::from_index(a)?, Point::from_index(l.to)?, l.rail))
                    })
            })
            .collect()
    };
    for (pa, pb, rail) in links(&m.land) {
        let style = if rail {
            r##"stroke="#111" stroke-width="3" stroke-dasharray="7 4""##
        } else {
            r##"stroke="#d01c1c" stroke-width="2""##
        };
        line(out, px(pa.position()), px(pb.position()), style);
        clear.segment(px(pa.position()), px(pb.position()));
    }
    for (pa, pb, _) in links(&m.sea) {
        clear.segment(px(pa.position()), px(pb.position()));
        line(
            out,
            px(pa.position()),
            px(pb.position()),
            r##"stroke="#d9a400" stroke-width="2.5""##,
        );
    }
    // The double red landing lines.
    for &(port, land) in &m.landings {
        for d in [-3.0, 3.0] {
            let (a, b) = offset(px(port.position()), px(land.position()), d);
            line(out, a, b, r##"stroke="#d01c1c" stroke-width="1.6""##);
            clear.segment(a, b);
        }
    }
    // The gunboats' reach onto the bridge.
    for guard in m.bridge_guards {
        let (a, b) = trim(px(guard.position()), px(Point::BRIDGE.position()), 11.0);
        clear.segment(a, b);
        line(
            out,
            a,
            b,
            r##"stroke="#0b5a3f" stroke-width="2.5" stroke-dasharray="5 3""##,
        );
    }
    // Retreat routes, then flight lines.
    let mut polyline = |out: &mut String, points: &[Point], style: &str| {
        for pair in points.windows(2) {
            clear.segment(px(pair[0].position()), px(pair[1].position()));
        }
        let pts: Vec<String> = points
            .iter()
            .map(|p| {
                let (x, y) = px(p.position());
                format!("{x:.1},{y:.1}")
            })
            .collect();
        let _ = writeln!(
            out,
            r##"<polyline points="{}" fill="none" {style}/>"##,
            pts.join(" ")
        );
    };
    for route in &m.routes {
        polyline(
            out,
            route,
            r##"stroke="#d01c1c" stroke-width="3" stroke-dasharray="10 6" opacity="0.8""##,
        );
    }
    for flight in &m.flights {
        polyline(
            out,
            flight,
            r##"stroke="#111" stroke-width="1.8" stroke-dasharray="1.5 4" stroke-linecap="round""##,
        );
    }
    // Fire arrows: each bows to its own right, past the point it flies over: South's to the
    // east of the column, North's to the west, so that the two arrows of a column never meet.
    for &(tail, head) in &m.arrows {
        fire_arrow(
            out,
            px(tail.position()),
            px(head.position()),
            14.0,
            &mut clear,
        );
    }
    clear
}

/// Draws the points with their names and the words the board prints beside them.
fn points(out: &mut String, clear: &mut Obstacles, english: bool) {
    for p in Point::all() {
        let (x, y) = px(p.position());
        clear
            .discs
            .push(((x, y), if p.layer() == Layer::Dot { 5.0 } else { 11.0 }));
    }
    for p in Point::all() {
        let (x, y) = px(p.position());
        match p.layer() {
            Layer::Land if p == Point::BRIDGE => {
                let _ = writeln!(
                    out,
                    r##"<rect x="{:.1}" y="{:.1}" width="22" height="14" fill="#8b5a2b" stroke="#111" rx="2"/>"##,
                    x - 11.0,
                    y - 7.0
                );
                text(out, (x, y), 8.0, "#fff", "桥");
            }
            Layer::Land | Layer::Sea => {
                let fill = if p.layer() == Layer::Land {
                    "#f5d442"
                } else {
                    "#3cb371"
                };
                let _ = writeln!(
                    out,
                    r##"<circle cx="{x:.1}" cy="{y:.1}" r="11" fill="{fill}" stroke="#333" stroke-width="1"/>"##
                );
                if p.is_placement() {
                    // A red semicircle, its flat side towards the owner's back row.
                    let south = p.half() == Some(crate::junqi::Side::South);
                    let (sweep, dy) = if south { (0, 3.0) } else { (1, -3.0) };
                    let _ = writeln!(
                        out,
                        r##"<path d="M{:.1},{:.1} A7.5,7.5 0 0 {sweep} {:.1},{:.1} z" fill="#d01c1c" opacity="0.8"/>"##,
                        x - 7.5,
                        y + dy,
                        x + 7.5,
                        y + dy
                    );
                } else if p.label() == Label::EdgePost {
                    // A long-edge army post: printed on the board, never used.
                    let south = p.half() == Some(crate::junqi::Side::South);
                    let (sweep, dy) = if south { (0, 3.0) } else { (1, -3.0) };
                    let _ = writeln!(
                        out,
                        r##"<path d="M{:.1},{:.1} A7.5,7.5 0 0 {sweep} {:.1},{:.1} z" fill="none" stroke="#8a8a8a" stroke-width="1.2" stroke-dasharray="2 2"/>"##,
                        x - 7.5,
                        y + dy,
                        x + 7.5,
                        y + dy
                    );
                }
                let name_y = match (p.is_placement(), p.half()) {
                    (true, Some(crate::junqi::Side::South)) => y - 3.5,
                    (true, _) => y + 3.5,
                    _ => y,
                };
                text(out, (x, name_y), 7.5, "#111", &p.to_string());
                tag(out, p, (x, y), clear);
            }
            Layer::Dot => {
                let _ = writeln!(
                    out,
                    r##"<circle cx="{x:.1}" cy="{y:.1}" r="5" fill="#111"/>"##
                );
                let (lx, ly) = clear.place((x, y), &DOT_LABELS, 6.0);
                text(out, (lx, ly), 9.0, "#111", &p.to_string());
            }
            Layer::Airport => {
                let _ = writeln!(
                    out,
                    r##"<rect x="{:.1}" y="{:.1}" width="34" height="32" fill="#dde3ee" stroke="#111" rx="5"/>"##,
                    x - 17.0,
                    y - 16.0
                );
                let (word, size) = if english {
                    ("Airport", 7.0)
                } else {
                    ("机场", LABEL)
                };
                text(out, (x, y - 5.0), size, "#111", word);
                text(out, (x, y + 9.0), 8.0, "#111", &p.to_string());
            }
        }
    }
}

/// Prints what the board says beside a point, at the corner furthest from the lines around
/// it. The unused long-edge army posts print nothing: their circle shows a grey outline.
fn tag(out: &mut String, p: Point, (x, y): (f64, f64), clear: &mut Obstacles) {
    let word = match p.label() {
        Label::City => "城",
        Label::CannonPlacement => "炮",
        Label::ArmyPost => "兵",
        Label::NavyPlacement => "海",
        Label::Port => "港",
        Label::EdgePost | Label::Bridge | Label::Plain => return,
    };
    let at = clear.place((x, y), &CORNERS, 7.0);
    text(out, at, LABEL, "#8a1010", word);
}

fn legend(out: &mut String) {
    let top = BOARD_HEIGHT + 4.0;
    let rows: [(&str, &str); 12] = [
        (
            r##"<line x1="0" y1="0" x2="30" y2="0" stroke="#d01c1c" stroke-width="2"/>"##,
            "road 公路 (land, one point)",
        ),
        (
            r##"<line x1="0" y1="0" x2="30" y2="0" stroke="#111" stroke-width="3" stroke-dasharray="7 4"/>"##,
            "railway 铁路 (armies: one or two)",
        ),
        (
            r##"<line x1="0" y1="0" x2="30" y2="0" stroke="#d9a400" stroke-width="2.5"/>"##,
            "sea line 航道 (ships)",
        ),
        (
            r##"<line x1="0" y1="-3" x2="30" y2="-3" stroke="#d01c1c" stroke-width="1.6"/><line x1="0" y1="3" x2="30" y2="3" stroke="#d01c1c" stroke-width="1.6"/>"##,
            "landing line 登陆线 (battleship, cruiser)",
        ),
        (
            r##"<line x1="0" y1="0" x2="30" y2="0" stroke="#111" stroke-width="1.8" stroke-dasharray="1.5 4" stroke-linecap="round"/>"##,
            "flight line 航线",
        ),
        (
            r##"<line x1="0" y1="0" x2="30" y2="0" stroke="#d01c1c" stroke-width="3" stroke-dasharray="10 6"/>"##,
            "retreat route 撤退航线",
        ),
        (
            r##"<path d="M0,0 Q12,-8 24,0" fill="none" stroke="#d01c1c" stroke-width="2.2"/><path d="M30,2 L21,-3.5 L20,4.5 z" fill="#d01c1c"/>"##,
            "fire arrow 火力线 (artillery, battleship)",
        ),
        (
            r##"<line x1="0" y1="0" x2="30" y2="0" stroke="#0b5a3f" stroke-width="2.5" stroke-dasharray="5 3"/>"##,
            "gunboat's reach 炮艇攻桥 (onto the bridge)",
        ),
        (
            r##"<circle cx="15" cy="0" r="8" fill="#f5d442" stroke="#333"/><path d="M10,2 A5,5 0 0 1 20,2 z" fill="#d01c1c"/>"##,
            "land / placement point 阵地",
        ),
        (
            r##"<circle cx="15" cy="0" r="8" fill="#3cb371" stroke="#333"/><path d="M10,2 A5,5 0 0 1 20,2 z" fill="#d01c1c"/>"##,
            "sea / navy placement point",
        ),
        (
            r##"<circle cx="15" cy="0" r="8" fill="#f5d442" stroke="#333"/><path d="M10,2 A5,5 0 0 1 20,2 z" fill="none" stroke="#8a8a8a" stroke-width="1.2" stroke-dasharray="2 2"/>"##,
            "long-edge army post, not used 边兵站（不用）",
        ),
        (
            r##"<circle cx="15" cy="0" r="5" fill="#111"/>"##,
            "stopping dot 停靠点",
        ),
    ];
    for (i, (mark, words)) in rows.iter().enumerate() {
        let (x, y) = (16.0, top + 14.0 + i as f64 * LEGEND_ROW);
        let _ = writeln!(
            out,
            r##"<g transform="translate({x:.1},{y:.1})">{mark}<text x="40" y="0" font-size="{LABEL}" fill="#111" dominant-baseline="central">{words}</text></g>"##
        );
    }
    // The key to the words printed on the board, three lines that fit the width.
    let key = [
        "城 city · 炮 cannon placement · 兵 army post",
        "海 navy placement · 港 port · 桥 rail bridge",
        "国界 territory line",
    ];
    let first = top + 14.0 + rows.len() as f64 * LEGEND_ROW + 6.0;
    for (i, words) in key.iter().enumerate() {
        let _ = writeln!(
            out,
            r##"<text x="16" y="{:.1}" font-size="{LABEL}" fill="#8a1010" dominant-baseline="central">{words}</text>"##,
            first + i as f64 * 18.0
        );
    }
}
