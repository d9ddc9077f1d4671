//! The boards are drawn to their geometry: every road, railway and line a board draws passes
//! through the centres of the points it joins, at phone and desktop size (issue 36: Junqi's
//! rails were squeezed between the columns).
//!
//! Each layer of lines is drawn alone and then not at all, and the two renderings compared:
//! the pixels that differ are the layer's visible pixels. Every one of them must lie within
//! half the line's width (plus a pixel of anti-aliasing) of a link of the rules' board between
//! two points' centres, as the screen places the points (their accessible elements), and every
//! link must show drawn pixels around its middle. Pieces cover parts of the lines: only what
//! is visible is judged.

mod common;

use common::deployment;
use qiguan_app::App;
use qiguan_app::settings::Language;
use qiguan_app::ui::{GameSession, HomeAdapter, NewGameAdapter, Routes, XiangqiLines};
use slint::ComponentHandle;
use std::collections::HashMap;

type Segment = ((f32, f32), (f32, f32));

/// Draws a layer alone (true) or not at all (false).
type Show = Box<dyn Fn(&App, bool)>;

/// One layer of a board's lines: how to draw it alone, its width, and the links it draws (by
/// the points' labels).
struct Layer {
    name: &'static str,
    width: f32,
    /// Every link shows some of its line (not so for dashes, which may lie under the points).
    whole: bool,
    links: Vec<(String, String)>,
    show: Show,
}

fn render(app: &App) -> (u32, Vec<[u8; 4]>) {
    let buffer = app.window().window().take_snapshot().expect("a snapshot");
    let pixels = buffer
        .as_slice()
        .iter()
        .map(|p| [p.r, p.g, p.b, p.a])
        .collect();
    (buffer.width(), pixels)
}

/// Where each labelled point's centre is on screen.
fn centres(app: &App, labels: impl IntoIterator<Item = String>) -> HashMap<String, (f32, f32)> {
    labels
        .into_iter()
        .map(|label| {
            let e = common::one(app, &label);
            let (p, s) = (e.absolute_position(), e.size());
            (label, (p.x + s.width / 2.0, p.y + s.height / 2.0))
        })
        .collect()
}

fn distance(p: (f32, f32), (a, b): Segment) -> f32 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    let t = if len2 == 0.0 {
        0.0
    } else {
        (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2).clamp(0.0, 1.0)
    };
    let (x, y) = (a.0 + t * dx, a.1 + t * dy);
    ((p.0 - x).powi(2) + (p.1 - y).powi(2)).sqrt()
}

/// Checks every layer; returns what is wrong.
fn check(app: &App, board: &str, layers: &[Layer]) -> Vec<String> {
    let size = app.window().window().size();
    let mut problems = Vec::new();
    for layer in layers {
        for other in layers {
            (other.show)(app, false);
        }
        let (width, off) = render(app);
        (layer.show)(app, true);
        let (_, on) = render(app);
        // QIGUAN_GEOMETRY_PNG=DIR keeps each layer's rendering, to look at what was judged.
        if let Some(dir) = std::env::var_os("QIGUAN_GEOMETRY_PNG") {
            let name = format!("{board}-{}x{}-{}.png", size.width, size.height, layer.name);
            common::snapshot(
                app,
                &std::path::Path::new(&dir).join(name.replace(' ', "-")),
            );
        }
        (layer.show)(app, false);
        let labels = layer.links.iter().flat_map(|(a, b)| [a.clone(), b.clone()]);
        let at = centres(app, labels);
        let segments: Vec<Segment> = layer.links.iter().map(|(a, b)| (at[a], at[b])).collect();
        let drawn: Vec<(f32, f32)> = (0..on.len())
            .filter(|&i| on[i] != off[i])
            .map(|i| {
                let i = i as u32;
                ((i % width) as f32 + 0.5, (i / width) as f32 + 0.5)
            })
            .collect();
        let tolerance = layer.width / 2.0 + 1.0 + std::f32::consts::FRAC_1_SQRT_2;
        let stray: Vec<(f32, f32)> = drawn
            .iter()
            .copied()
            .filter(|&p| segments.iter().all(|&s| distance(p, s) > tolerance))
            .collect();
        if !stray.is_empty() {
            let worst = stray
                .iter()
                .map(|&p| {
                    let d = segments
                        .iter()
                        .map(|&s| distance(p, s))
                        .fold(f32::INFINITY, f32::min);
                    (d, p)
                })
                .fold((0.0, (0.0, 0.0)), |a, b| if b.0 > a.0 { b } else { a });
            problems.push(format!(
                "{board} {}×{} {}: {} of {} drawn pixels off every link (the worst {:.1} px off, at {:?})",
                size.width,
                size.height,
                layer.name,
                stray.len(),
                drawn.len(),
                worst.0,
                worst.1
            ));
        }
        // Every link is drawn: some of it shows the line between the two points (a point's
        // own mark may cover the middle of a short link, as the rail bridge's does).
        for ((a, b), &(p, q)) in layer.links.iter().zip(&segments).filter(|_| layer.whole) {
            let (dx, dy) = (q.0 - p.0, q.1 - p.1);
            let len2 = (dx * dx + dy * dy).max(1e-6);
            let shown = drawn.iter().any(|&d| {
                let t = ((d.0 - p.0) * dx + (d.1 - p.1) * dy) / len2;
                (0.05..=0.95).contains(&t) && distance(d, (p, q)) <= tolerance
            });
            if !shown {
                problems.push(format!(
                    "{board} {}×{} {}: nothing drawn between {a} and {b}",
                    size.width, size.height, layer.name
                ));
            }
        }
        if drawn.is_empty() {
            problems.push(format!("{board} {}: nothing drawn at all", layer.name));
        }
    }
    problems
}

fn start(size: (u32, u32)) -> (tempfile::TempDir, App) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let app = common::start(dir.path(), Language::English, size);
    (dir, app)
}

/// Starts a pass-and-play game with secrets and deploys both sides, to the board in play.
fn deployed(app: &App, game: &str) {
    let ui = app.window();
    ui.global::<HomeAdapter>().invoke_new_game(game.into());
    ui.global::<NewGameAdapter>().set_opponent(0);
    ui.global::<NewGameAdapter>().invoke_start();
    let gs = ui.global::<GameSession>();
    gs.invoke_handover_done();
    deployment(app).invoke_ready();
    gs.invoke_handover_done();
    deployment(app).invoke_ready();
    gs.invoke_handover_done();
}

/// The three layers a board's `Routes` draws (roads, rails, the dashes over the rails), with
/// their widths as the board draws them, given the routes the app set and how to set them.
fn routes_layers(
    full: Routes,
    set: fn(&App, Routes),
    roads: Vec<(String, String)>,
    rails: Vec<(String, String)>,
    widths: [f32; 3],
) -> Vec<Layer> {
    let one = |pick: usize| {
        let full = full.clone();
        Box::new(move |app: &App, shown: bool| {
            let mut r = Routes::default();
            if shown {
                match pick {
                    0 => r.roads = full.roads.clone(),
                    1 => r.rails = full.rails.clone(),
                    _ => r.rail_dashes = full.rail_dashes.clone(),
                }
            }
            set(app, r);
        }) as Show
    };
    vec![
        Layer {
            name: "roads",
            width: widths[0],
            whole: true,
            links: roads,
            show: one(0),
        },
        Layer {
            name: "rails",
            width: widths[1],
            whole: true,
            links: rails.clone(),
            show: one(1),
        },
        Layer {
            name: "rail dashes",
            width: widths[2],
            whole: false,
            links: rails,
            show: one(2),
        },
    ]
}

fn junqi_at(size: (u32, u32)) -> Vec<String> {
    use qiguan_core::junqi::board::{Point, graph};
    let (_dir, app) = start(size);
    deployed(&app, "junqi");
    let name = |i: usize| Point::from_index(i).expect("a point").to_string();
    let links = |rail: bool| -> Vec<(String, String)> {
        Point::all()
            .flat_map(|p| {
                graph()
                    .links(p.index())
                    .iter()
                    .filter(move |l| l.rail == rail && l.to > p.index())
                    .map(move |l| (p.to_string(), name(l.to)))
            })
            .collect()
    };
    let a = app.window().global::<qiguan_app::ui::JunqiAdapter>();
    let layers = routes_layers(
        a.get_routes(),
        |app, r| {
            app.window()
                .global::<qiguan_app::ui::JunqiAdapter>()
                .set_routes(r)
        },
        links(false),
        links(true),
        [1.4, 6.0, 3.0],
    );
    check(&app, "Junqi", &layers)
}

fn sealandair_at(size: (u32, u32)) -> Vec<String> {
    use qiguan_core::sealandair::board::{Point, map};
    let (_dir, app) = start(size);
    deployed(&app, "sea-land-air");
    let a = app.window().global::<qiguan_app::ui::SeaLandAirAdapter>();
    // Only the links between points are judged here: the other lines (the territory line,
    // landings, flight lines, routes, arrows) are left out of every rendering.
    a.set_line_path("".into());
    a.set_landing_path("".into());
    a.set_flight_path("".into());
    a.set_route_path("".into());
    a.set_arrow_path("".into());
    a.set_arrow_heads("".into());
    a.set_guard_path("".into());
    let name = |i: usize| Point::from_index(i).expect("a point").to_string();
    let m = map();
    let links = |graph: &qiguan_core::graph::BoardGraph, rail: Option<bool>| {
        Point::all()
            .flat_map(|p| {
                graph
                    .links(p.index())
                    .iter()
                    .filter(move |l| rail.is_none_or(|r| l.rail == r) && l.to > p.index())
                    .map(move |l| (p.to_string(), name(l.to)))
            })
            .collect::<Vec<_>>()
    };
    let mut layers = routes_layers(
        a.get_routes(),
        |app, r| {
            app.window()
                .global::<qiguan_app::ui::SeaLandAirAdapter>()
                .set_routes(r)
        },
        links(&m.land, Some(false)),
        links(&m.land, Some(true)),
        [1.6, 4.5, 2.0],
    );
    let sea = a.get_sea_path();
    layers.push(Layer {
        name: "sea",
        width: 2.2,
        whole: true,
        links: links(&m.sea, None),
        show: Box::new(move |app: &App, shown: bool| {
            app.window()
                .global::<qiguan_app::ui::SeaLandAirAdapter>()
                .set_sea_path(if shown { sea.clone() } else { "".into() })
        }),
    });
    check(&app, "Sea-land-air", &layers)
}

/// Xiangqi's lines, as the rules place them: ranks across, files up (those inside the board
/// stopping at the river), and the palaces' diagonals through their centres.
fn xiangqi_links() -> Vec<(String, String)> {
    let name = |f: u8, r: u8| format!("{}{}", (b'a' + f) as char, r + 1);
    let mut links = Vec::new();
    for r in 0..10 {
        for f in 0..9 {
            if f < 8 {
                links.push((name(f, r), name(f + 1, r)));
            }
            if r < 9 && !(r == 4 && (1..8).contains(&f)) {
                links.push((name(f, r), name(f, r + 1)));
            }
        }
    }
    for (centre, corners) in [
        ("e2", ["d1", "f1", "d3", "f3"]),
        ("e9", ["d8", "f8", "d10", "f10"]),
    ] {
        for c in corners {
            links.push((c.to_string(), centre.to_string()));
        }
    }
    links
}

fn xiangqi_at(size: (u32, u32)) -> Vec<String> {
    let (_dir, app) = start(size);
    let ui = app.window();
    ui.global::<HomeAdapter>().invoke_new_game("xiangqi".into());
    ui.global::<NewGameAdapter>().invoke_start();
    let grid = ui.global::<XiangqiLines>().get_grid();
    let layers = vec![Layer {
        name: "lines",
        width: 1.2,
        whole: true,
        links: xiangqi_links(),
        show: Box::new(move |app: &App, shown: bool| {
            app.window().global::<XiangqiLines>().set_grid(if shown {
                grid.clone()
            } else {
                "".into()
            })
        }),
    }];
    check(&app, "Xiangqi", &layers)
}

const SIZES: [(u32, u32); 2] = [(360, 780), (1280, 800)];

#[test]
fn junqi_roads_and_railways_join_the_points_centres() {
    let problems: Vec<String> = SIZES.iter().flat_map(|&s| junqi_at(s)).collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn sea_land_air_roads_railways_and_sea_lines_join_the_points_centres() {
    let problems: Vec<String> = SIZES.iter().flat_map(|&s| sealandair_at(s)).collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn xiangqi_lines_join_the_points_centres() {
    let problems: Vec<String> = SIZES.iter().flat_map(|&s| xiangqi_at(s)).collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A point of a quadratic Bézier curve.
fn bezier(p0: (f32, f32), p1: (f32, f32), p2: (f32, f32), t: f32) -> (f32, f32) {
    let u = 1.0 - t;
    (
        u * u * p0.0 + 2.0 * u * t * p1.0 + t * t * p2.0,
        u * u * p0.1 + 2.0 * u * t * p1.1 + t * t * p2.1,
    )
}

/// Aeroplane chess's shortcut flights: each from its colour's shortcut square to the flight's
/// end, bowing out over the opposite colour's crossing square (the curve passes through that
/// square's centre at its middle). Its squares' places come from the board's cells (grid
/// units) and the board's place on screen.
fn aeroplane_at(size: (u32, u32)) -> Vec<String> {
    use qiguan_core::aeroplane::board::{CROSSING, Colour, HOME_TURN, SHORTCUT, SHORTCUT_END};
    use slint::Model;
    let (_dir, app) = start(size);
    let ui = app.window();
    ui.global::<HomeAdapter>()
        .invoke_new_game("aeroplane".into());
    let rules = ui.global::<qiguan_app::ui::AeroplaneRules>();
    rules.set_seats(2);
    for seat in 0..4 {
        match seat {
            0 => rules.set_p0(0),
            1 => rules.set_p1(0),
            2 => rules.set_p2(0),
            _ => rules.set_p3(0),
        }
    }
    ui.global::<NewGameAdapter>().invoke_start();
    let a = ui.global::<qiguan_app::ui::AeroplaneAdapter>();
    let cells: Vec<_> = a.get_cells().iter().collect();
    let board = common::all(&app, "Board")
        .into_iter()
        .find(|e| e.size().width > 0.0)
        .expect("the board");
    let (p, s) = (board.absolute_position(), board.size());
    let u = s.width.min(s.height) / 15.0;
    let (ox, oy) = (
        p.x + (s.width - 15.0 * u) / 2.0,
        p.y + (s.height - 15.0 * u) / 2.0,
    );
    let centre = |i: usize| {
        let c = &cells[i];
        (ox + (c.x + 0.5) * u, oy + (c.y + 0.5) * u)
    };
    // The first 52 cells are the track's squares in order; then each colour's five home
    // column squares, its take-off point and four hangar slots.
    let flights: Vec<[(f32, f32); 3]> = Colour::ALL
        .iter()
        .map(|&colour| {
            let from = centre(usize::from(colour.square(SHORTCUT).expect("a square")));
            let to = centre(usize::from(colour.square(SHORTCUT_END).expect("a square")));
            let over =
                centre(52 + colour.opposite().index() * 10 + usize::from(CROSSING - HOME_TURN - 1));
            let control = (
                2.0 * over.0 - (from.0 + to.0) / 2.0,
                2.0 * over.1 - (from.1 + to.1) / 2.0,
            );
            [from, control, to]
        })
        .collect();
    let curves: Vec<Segment> = flights
        .iter()
        .flat_map(|&[p0, p1, p2]| {
            (0..64).map(move |k| {
                (
                    bezier(p0, p1, p2, k as f32 / 64.0),
                    bezier(p0, p1, p2, (k + 1) as f32 / 64.0),
                )
            })
        })
        .collect();
    let full = a.get_flights();
    a.set_flights("".into());
    let (width, off) = render(&app);
    a.set_flights(full);
    let (_, on) = render(&app);
    let drawn: Vec<(f32, f32)> = (0..on.len())
        .filter(|&i| on[i] != off[i])
        .map(|i| {
            let i = i as u32;
            ((i % width) as f32 + 0.5, (i / width) as f32 + 0.5)
        })
        .collect();
    // The flights are drawn 2 px wide: half that, and a pixel of anti-aliasing.
    let line_width = 2.0_f32;
    let tolerance = line_width / 2.0 + 1.0 + std::f32::consts::FRAC_1_SQRT_2;
    let mut problems = Vec::new();
    let stray = drawn
        .iter()
        .filter(|&&d| curves.iter().all(|&c| distance(d, c) > tolerance))
        .count();
    if stray > 0 || drawn.is_empty() {
        problems.push(format!(
            "Aeroplane {size:?}: {stray} of {} drawn pixels off every flight",
            drawn.len()
        ));
    }
    for (colour, [p0, p1, p2]) in Colour::ALL.iter().zip(&flights) {
        for (what, at) in [
            ("start", *p0),
            ("middle", bezier(*p0, *p1, *p2, 0.5)),
            ("end", *p2),
        ] {
            if !drawn
                .iter()
                .any(|&d| ((d.0 - at.0).powi(2) + (d.1 - at.1).powi(2)).sqrt() <= tolerance)
            {
                problems.push(format!(
                    "Aeroplane {size:?}: {colour:?}'s flight does not pass its {what} square's centre {at:?}"
                ));
            }
        }
    }
    problems
}

#[test]
fn aeroplane_flights_pass_through_their_squares_centres() {
    let problems: Vec<String> = SIZES.iter().flat_map(|&s| aeroplane_at(s)).collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
