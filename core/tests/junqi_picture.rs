//! The Junqi board picture of the rules page (docs/rules/junqi-board.svg) is drawn from the
//! board data, and shows it: every railway through the centres of its two points.

use qiguan_core::junqi::board::{POINTS, Point, graph};
use qiguan_core::junqi::picture::{RAIL, board_svg, centre};

/// The picture in the docs is drawn from the current board data.
#[test]
fn the_board_picture_is_current() {
    let file = include_str!("../../docs/rules/junqi-board.svg");
    assert!(
        file == board_svg(),
        "run `cargo run -p qiguan-core --example junqi_board`"
    );
}

/// The railways drawn are exactly the board's rail links, each from centre to centre.
#[test]
fn every_railway_is_drawn_through_the_centres_of_its_points() {
    let svg = board_svg();
    let drawn: Vec<&str> = svg.lines().filter(|l| l.contains(RAIL)).collect();
    let g = graph();
    let mut rails = 0;
    for a in 0..POINTS {
        for l in g.links(a).iter().filter(|l| l.rail && l.to > a) {
            rails += 1;
            let (pa, pb) = (
                Point::from_index(a).expect("a point"),
                Point::from_index(l.to).expect("a point"),
            );
            let ((x1, y1), (x2, y2)) = (centre(pa), centre(pb));
            let wanted = format!(r#"x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}""#);
            assert!(
                drawn.iter().any(|l| l.contains(&wanted)),
                "{pa}-{pb} is not drawn as a railway"
            );
        }
    }
    assert_eq!(rails, 35);
    // One line per railway, plus the legend's sample.
    assert_eq!(drawn.len(), rails + 1);
}

/// Camps are circles, headquarters arches, every other point a rectangle, each named.
#[test]
fn every_point_is_drawn_with_its_name() {
    let svg = board_svg();
    for p in Point::all() {
        let (x, y) = centre(p);
        assert!(
            svg.contains(&format!(r##"x="{x:.1}" y="{y:.1}" font-size="11" fill="#222" text-anchor="middle" dominant-baseline="central">{p}<"##)),
            "{p} has no name"
        );
        if p.is_camp() {
            assert!(
                svg.contains(&format!(r#"<circle cx="{x:.1}" cy="{y:.1}" r="17""#)),
                "{p}"
            );
        }
    }
    assert_eq!(
        svg.matches("<circle").count(),
        10 + 1,
        "ten camps and the legend's"
    );
    assert_eq!(
        svg.matches("stroke=\"#8a1010\" stroke-width=\"2\"/>")
            .count(),
        4 + 1,
        "four headquarters and the legend's"
    );
}
