//! Junqi geometry against ../shared/RULES.md: counts, special points, the rail lines, and
//! sample routes for ordinary pieces (straight lines) and engineers (turning corners).

use qiguan_core::junqi::board::{POINTS, Point, graph};

fn p(text: &str) -> usize {
    text.parse::<Point>().expect("a point").index()
}

fn names(points: Vec<usize>) -> Vec<String> {
    let mut v: Vec<String> = points
        .into_iter()
        .map(|i| Point::from_index(i).expect("on the board").to_string())
        .collect();
    v.sort();
    v
}

#[test]
fn sixty_points_and_133_links_of_which_35_are_rail() {
    let g = graph();
    assert_eq!(g.len(), POINTS);
    assert_eq!(g.link_counts(), (133, 35));
    assert_eq!(
        g.lines().len(),
        7,
        "rows 1, 5, 6, 10; columns 0 and 4; the centre crossing"
    );
    assert_eq!((0..POINTS).filter(|&i| g.on_rail(i)).count(), 32);
}

#[test]
fn headquarters_camps_mountains_and_the_front() {
    let hq: Vec<String> = Point::all()
        .filter(|p| p.is_headquarters())
        .map(|p| p.to_string())
        .collect();
    assert_eq!(hq, ["b0", "d0", "b11", "d11"]);
    let camps: Vec<String> = Point::all()
        .filter(|p| p.is_camp())
        .map(|p| p.to_string())
        .collect();
    assert_eq!(
        camps,
        ["b2", "d2", "c3", "b4", "d4", "b7", "d7", "c8", "b9", "d9"]
    );
    // Every camp has its four orthogonal and four diagonal neighbours.
    for camp in Point::all().filter(|p| p.is_camp()) {
        assert_eq!(graph().links(camp.index()).len(), 8, "{camp}");
    }
    let linked = |a: &str, b: &str| graph().links(p(a)).iter().any(|l| l.to == p(b));
    assert!(!linked("b5", "b6") && !linked("d5", "d6"), "the mountains");
    assert!(linked("c5", "c6") && linked("a5", "a6") && linked("e5", "e6"));
    assert!(linked("c3", "b2") && linked("b4", "a5"), "camp diagonals");
    assert!(!linked("a0", "b1"), "no diagonal outside camps");
    assert_eq!(Point::all().filter(|p| p.is_front()).count(), 10);
    assert!(!graph().on_rail(p("c0")) && !graph().on_rail(p("b2")) && !graph().on_rail(p("c8")));
}

#[test]
fn ordinary_pieces_slide_along_one_straight_rail_line() {
    let g = graph();
    let empty = |_: usize| false;
    assert_eq!(
        names(g.rail_slides(p("a1"), empty)),
        names(
            [
                "b1", "c1", "d1", "e1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9", "a10"
            ]
            .map(p)
            .to_vec()
        )
    );
    // The centre crossing is a line of its own: from c5, row 5 and c6, no further.
    assert_eq!(
        names(g.rail_slides(p("c5"), empty)),
        names(["a5", "b5", "d5", "e5", "c6"].map(p).to_vec())
    );
    // A piece in the way stops the slide on it (to attack it); nothing beyond.
    let blocked = |i: usize| i == p("a4");
    let slides = names(g.rail_slides(p("a1"), blocked));
    assert!(slides.contains(&"a4".to_owned()) && !slides.contains(&"a5".to_owned()));
    // No turning: e10 and b5 are out of reach from a1.
    let all = g.rail_slides(p("a1"), empty);
    assert!(!all.contains(&p("e10")) && !all.contains(&p("b5")));
    // Off the railroad there is no slide.
    assert!(g.rail_slides(p("c0"), empty).is_empty());
}

#[test]
fn engineers_turn_corners_through_empty_rail_points() {
    let g = graph();
    let empty = |_: usize| false;
    let all = g.rail_paths(p("a1"), empty);
    assert_eq!(all.len(), 31, "every other rail point");
    assert!(all.contains(&p("e10")) && all.contains(&p("c6")) && all.contains(&p("b5")));
    // Boxed in by two pieces: only those two can be reached (to attack).
    let boxed = |i: usize| i == p("b1") || i == p("a2");
    assert_eq!(names(g.rail_paths(p("a1"), boxed)), ["a2", "b1"]);
    // Around a blocker: a5 occupied, the engineer still reaches a6 by row 1, column 4 and row 6.
    let wall = |i: usize| i == p("a5");
    let around = g.rail_paths(p("a1"), wall);
    assert!(around.contains(&p("a6")) && around.contains(&p("a5")));
}

#[test]
fn points_are_written_column_letter_then_row() {
    assert_eq!(Point::new(5, 2).unwrap().to_string(), "c5");
    assert_eq!("e11".parse::<Point>().unwrap(), Point::new(11, 4).unwrap());
    assert!("f1".parse::<Point>().is_err());
    assert!("a12".parse::<Point>().is_err());
    assert!("".parse::<Point>().is_err());
}
