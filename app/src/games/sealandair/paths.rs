//! The Sea-land-air board's lines as the screen draws them: roads, railways, sea lanes and air
//! routes, the dashed links between posts, and the arrows of the routes a piece may take.

use qiguan_core::sealandair::{Point, map};
use qiguan_ui::{Routes, SeaLandAirAdapter};

/// Board units for a point: positions turned for a North viewer, 1.5 units of margin.
pub(super) fn xy(p: Point, flipped: bool) -> (f32, f32) {
    let (x, y) = p.position();
    let (x, y) = if flipped { (12 - x, 22 - y) } else { (x, y) };
    (x as f32 + 3.5, (24 - y) as f32 + 1.5)
}

pub(super) fn segment(a: (f32, f32), b: (f32, f32)) -> String {
    format!("M {:.3} {:.3} L {:.3} {:.3}", a.0, a.1, b.0, b.1)
}

/// Pieces of the segment a–b: `on` long, every `every`, as path commands (Slint's paths have no
/// dash pattern).
pub(super) fn dashes(a: (f32, f32), b: (f32, f32), on: f32, every: f32) -> Vec<String> {
    let len = ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt();
    let n = (len / every).floor().max(1.0) as usize;
    let step = len / n as f32;
    let at = |d: f32| (a.0 + (b.0 - a.0) * d / len, a.1 + (b.1 - a.1) * d / len);
    (0..n)
        .map(|k| {
            let start = k as f32 * step + (step - on) / 2.0;
            segment(at(start), at(start + on))
        })
        .collect()
}

pub(super) fn shifted(a: (f32, f32), b: (f32, f32), d: f32) -> ((f32, f32), (f32, f32)) {
    let len = ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt().max(1e-6);
    let (nx, ny) = (-(b.1 - a.1) / len * d, (b.0 - a.0) / len * d);
    ((a.0 + nx, a.1 + ny), (b.0 + nx, b.1 + ny))
}

/// Draws every line of the board from core's data, for this orientation.
pub(super) fn draw_paths(a: &SeaLandAirAdapter<'_>, flipped: bool) {
    let m = map();
    let at = |p: Point| xy(p, flipped);
    let links = link_paths(&at);
    let mut landings = Vec::new();
    for &(port, land) in &m.landings {
        for d in [-0.14, 0.14] {
            let (x, y) = shifted(at(port), at(land), d);
            landings.push(segment(x, y));
        }
    }
    let (arrows, heads) = arrow_paths(&at);
    let y = xy(Point::BRIDGE, flipped).1;
    a.set_line_path(segment((0.3, y), (18.7, y)).into());
    a.set_routes(Routes {
        roads: links.roads.join(" ").into(),
        rails: links.rails.join(" ").into(),
        rail_dashes: links.rail_dashes.join(" ").into(),
    });
    a.set_sea_path(links.sea.join(" ").into());
    a.set_landing_path(landings.join(" ").into());
    a.set_flight_path(dashed(&m.flights, &at, 0.1, 0.35).into());
    a.set_route_path(dashed(&m.routes, &at, 0.7, 1.2).into());
    a.set_arrow_path(arrows.join(" ").into());
    a.set_arrow_heads(heads.join(" ").into());
    let guards: Vec<String> = m
        .bridge_guards
        .iter()
        .flat_map(|&g| {
            let (from, to) = trimmed(at(g), at(Point::BRIDGE), 0.6);
            dashes(from, to, 0.3, 0.5)
        })
        .collect();
    a.set_guard_path(guards.join(" ").into());
    a.set_flipped(flipped);
    a.set_sea_x(if flipped { 2.5 } else { 12.5 });
}

/// The land and sea links as path commands: roads, railways (with their white dashes) and
/// sea lanes.
pub(super) struct LinkPaths {
    roads: Vec<String>,
    rails: Vec<String>,
    rail_dashes: Vec<String>,
    sea: Vec<String>,
}

pub(super) fn link_paths(at: &impl Fn(Point) -> (f32, f32)) -> LinkPaths {
    let m = map();
    let mut paths = LinkPaths {
        roads: Vec::new(),
        rails: Vec::new(),
        rail_dashes: Vec::new(),
        sea: Vec::new(),
    };
    for p in Point::all() {
        for l in m.land.links(p.index()).iter().filter(|l| l.to > p.index()) {
            let Some(q) = Point::from_index(l.to) else {
                continue;
            };
            if l.rail {
                paths.rails.push(segment(at(p), at(q)));
                paths.rail_dashes.extend(dashes(at(p), at(q), 0.4, 0.8));
            } else {
                paths.roads.push(segment(at(p), at(q)));
            }
        }
        for l in m.sea.links(p.index()).iter().filter(|l| l.to > p.index()) {
            if let Some(q) = Point::from_index(l.to) {
                paths.sea.push(segment(at(p), at(q)));
            }
        }
    }
    paths
}

/// Polylines (flight lines, retreat routes) drawn dashed.
pub(super) fn dashed<L: AsRef<[Point]>>(
    lines: &[L],
    at: &impl Fn(Point) -> (f32, f32),
    on: f32,
    every: f32,
) -> String {
    let mut out = Vec::new();
    for line in lines {
        for pair in line.as_ref().windows(2) {
            out.extend(dashes(at(pair[0]), at(pair[1]), on, every));
        }
    }
    out.join(" ")
}

/// The segment a–b shortened by `d` at each end.
pub(super) fn trimmed(a: (f32, f32), b: (f32, f32), d: f32) -> ((f32, f32), (f32, f32)) {
    let len = ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt().max(1e-6);
    let (ux, uy) = ((b.0 - a.0) / len * d, (b.1 - a.1) / len * d);
    ((a.0 + ux, a.1 + uy), (b.0 - ux, b.1 - uy))
}

/// The fire arrows: their shafts, each a curve bowing to its own right past the point it flies
/// over (as in the rules page's picture, so that a column's two arrows never meet), and their
/// heads.
pub(super) fn arrow_paths(at: &impl Fn(Point) -> (f32, f32)) -> (Vec<String>, Vec<String>) {
    let m = map();
    let mut arrows = Vec::new();
    let mut heads = Vec::new();
    for &(tail, head) in &m.arrows {
        let (t, h) = trimmed(at(tail), at(head), 0.65);
        let mid = ((t.0 + h.0) / 2.0, (t.1 + h.1) / 2.0);
        let (c, _) = shifted(mid, h, 1.4);
        arrows.push(format!(
            "M {:.3} {:.3} Q {:.3} {:.3} {:.3} {:.3}",
            t.0, t.1, c.0, c.1, h.0, h.1
        ));
        let len = ((h.0 - c.0).powi(2) + (h.1 - c.1).powi(2)).sqrt().max(1e-6);
        heads.push(arrow_head(h, (h.0 - c.0) / len, (h.1 - c.1) / len));
    }
    (arrows, heads)
}

/// A filled triangle with its tip at `tip`, pointing along (dx, dy).
pub(super) fn arrow_head(tip: (f32, f32), dx: f32, dy: f32) -> String {
    let base = (tip.0 - dx * 0.45, tip.1 - dy * 0.45);
    format!(
        "M {:.3} {:.3} L {:.3} {:.3} L {:.3} {:.3} Z",
        tip.0,
        tip.1,
        base.0 - dy * 0.22,
        base.1 + dx * 0.22,
        base.0 + dy * 0.22,
        base.1 - dx * 0.22
    )
}
