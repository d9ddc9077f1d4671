//! One test for every rule line of docs/design/sea-land-air.md (the rules as specified; the
//! players' page, docs/rules/sea-land-air.md, says the same without tags), named after its
//! tag: `m3_…` checks **[M3]**. The last test fails if the page has a tag without a test here.
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

use qiguan_core::junqi::Side::{self, North, South};
use qiguan_core::sealandair::Kind::{self, *};
use qiguan_core::sealandair::{
    Deployment, Label, Layer, Point, SeaLandAir, SeaLandAirEvent, SeaLandAirMove,
    SeaLandAirOptions, map,
};
use qiguan_core::{Actor, Audience, EndReason, GameResult, Match, Rules, Seat, ToAct, Viewer};

fn p(name: &str) -> Point {
    name.parse().unwrap()
}

fn names(points: &[Point]) -> Vec<String> {
    points.iter().map(|p| p.to_string()).collect()
}

/// A position: pieces as `(point, side, kind)`; South to move unless said.
fn game(pieces: &[(&str, Side, Kind)]) -> SeaLandAir {
    game_to_move(pieces, South)
}

fn game_to_move(pieces: &[(&str, Side, Kind)], to_move: Side) -> SeaLandAir {
    let list: Vec<(Point, Side, Kind)> = pieces.iter().map(|&(a, s, k)| (p(a), s, k)).collect();
    SeaLandAir::from_position(&SeaLandAirOptions::default(), &list, to_move)
}

/// The moves of the piece on `from`, as text, sorted.
fn moves(g: &SeaLandAir, from: &str) -> Vec<String> {
    let mut out: Vec<String> = g
        .board()
        .moves_from(p(from))
        .iter()
        .map(|m| m.to_string())
        .collect();
    out.sort();
    out
}

fn can(g: &SeaLandAir, mv: &str) -> bool {
    let from = mv.split(['-', '*']).next().unwrap();
    moves(g, from).contains(&mv.to_string())
}

/// Plays a move for the side to move; returns the events everyone was told.
fn play(g: &mut SeaLandAir, mv: &str) -> Vec<SeaLandAirEvent> {
    let seat = match g.to_act() {
        ToAct::Seat(s) => s,
        other => panic!("nobody to move: {other:?}"),
    };
    g.play(Actor::Seat(seat), &mv.parse().unwrap())
        .unwrap_or_else(|e| panic!("{mv}: {e}"))
        .into_iter()
        .filter(|t| t.audience == Audience::Everyone)
        .map(|t| t.event)
        .collect()
}

fn at(g: &SeaLandAir, name: &str) -> Option<(Side, Kind)> {
    g.board().get(p(name)).map(|q| (q.side, q.kind))
}

/// The (attacker removed, defender removed) of the battle a move caused.
fn removed(events: &[SeaLandAirEvent]) -> (bool, bool) {
    match &events[0] {
        SeaLandAirEvent::Battle {
            attacker_removed,
            defender_removed,
            ..
        } => (*attacker_removed, *defender_removed),
        other => panic!("not a battle: {other:?}"),
    }
}

/// Some enemy far away, so that a position is not over at once for want of moves.
const FAR: (&str, Side, Kind) = ("c10", North, Private);
const NEAR: (&str, Side, Kind) = ("c1", South, Private);

// ---- The board ----

#[test]
fn b1_land_points_are_joined_by_roads_or_railways_never_both() {
    let m = map();
    let land: Vec<Point> = Point::all().filter(|q| q.layer() == Layer::Land).collect();
    assert_eq!(land.len(), 61, "60 circles and the bridge");
    for q in &land {
        let links = m.land.links(q.index());
        for l in links {
            assert_eq!(Point::from_index(l.to).unwrap().layer(), Layer::Land);
        }
        let mut to: Vec<usize> = links.iter().map(|l| l.to).collect();
        to.sort();
        to.dedup();
        assert_eq!(to.len(), links.len(), "{q}: one link per pair");
    }
    assert!(m.sea.links(p("c2").index()).is_empty());
}

#[test]
fn b2_seven_straight_rail_lines() {
    let m = map();
    let lines: Vec<Vec<String>> = m
        .land
        .lines()
        .iter()
        .map(|l| {
            l.iter()
                .map(|&i| Point::from_index(i).unwrap().to_string())
                .collect()
        })
        .collect();
    assert_eq!(lines.len(), 7);
    let east: Vec<&str> = "e1 e2 e3 e4 e5 br e6 e7 e8 e9 e10".split(' ').collect();
    assert!(lines.contains(&east.iter().map(|s| s.to_string()).collect()));
    for row in [1, 5, 6, 10] {
        let want: Vec<String> = "abcde".chars().map(|c| format!("{c}{row}")).collect();
        assert!(lines.contains(&want), "row {row}");
    }
    assert!(lines.contains(&names(&["a1", "a2", "a3", "a4", "a5"].map(p))));
    assert!(lines.contains(&names(&["a6", "a7", "a8", "a9", "a10"].map(p))));
    // Rail where a line runs, road elsewhere: c2–c3 is road, e2–e3 rail.
    let link = |a: &str, b: &str| {
        m.land
            .links(p(a).index())
            .iter()
            .find(|l| l.to == p(b).index())
            .copied()
    };
    assert!(!link("c2", "c3").unwrap().rail);
    assert!(link("e2", "e3").unwrap().rail);
    assert!(!link("e0", "e1").unwrap().rail);
    let (all, rail) = m.land.link_counts();
    assert_eq!(rail, 4 * 4 + 2 * 4 + 11 - 1);
    assert!(all > rail);
}

#[test]
fn b3_the_territory_line_is_crossed_at_a_c_and_the_bridge_only() {
    let m = map();
    let mut crossings: Vec<(String, String)> = Vec::new();
    for q in Point::all().filter(|q| q.layer() == Layer::Land) {
        for l in m.land.links(q.index()) {
            let r = Point::from_index(l.to).unwrap();
            if q.half() == Some(South) && r.half() != Some(South) {
                crossings.push((q.to_string(), r.to_string()));
            }
        }
    }
    crossings.sort();
    assert_eq!(
        crossings,
        [("a5", "a6"), ("c5", "c6"), ("e5", "br")].map(|(a, b)| (a.to_string(), b.to_string()))
    );
    assert_eq!(Point::BRIDGE.label(), Label::Bridge);
    assert_eq!(Point::BRIDGE.half(), None);
}

#[test]
fn b4_the_city_has_three_flag_points_at_each_end() {
    let city: Vec<Point> = Point::all().filter(|q| q.label() == Label::City).collect();
    assert_eq!(names(&city), ["b0", "c0", "d0", "b11", "c11", "d11"]);
}

#[test]
fn b5_cannon_placements_army_posts_and_long_edge_posts() {
    let with = |label| {
        names(
            &Point::all()
                .filter(|q| q.label() == label)
                .collect::<Vec<_>>(),
        )
    };
    assert_eq!(
        with(Label::CannonPlacement),
        ["a4", "b4", "d4", "e4", "a7", "b7", "d7", "e7"]
    );
    let posts = with(Label::ArmyPost);
    assert_eq!(posts.len(), 16);
    for name in [
        "a0", "e0", "a2", "c2", "e2", "b3", "d3", "c4", "c7", "b8", "d8", "a9", "c9", "e9", "a11",
        "e11",
    ] {
        assert!(posts.contains(&name.to_string()), "{name}");
    }
    assert_eq!(with(Label::EdgePost), ["a5", "e5", "a6", "e6"]);
    assert!(
        ["a5", "e5", "a6", "e6"]
            .iter()
            .all(|q| !p(q).is_placement())
    );
}

#[test]
fn b6_sea_points_are_joined_by_yellow_lines_across_the_territory_line() {
    let m = map();
    let sea: Vec<Point> = Point::all().filter(|q| q.layer() == Layer::Sea).collect();
    assert_eq!(sea.len(), 24);
    let linked = |a: &str, b: &str| {
        m.sea
            .links(p(a).index())
            .iter()
            .any(|l| l.to == p(b).index())
    };
    assert!(linked("f5", "f6") && linked("g5", "g6") && linked("f0", "g0"));
    assert!(!linked("f0", "g1"), "no diagonals");
    assert_eq!(m.sea.link_counts().0, 12 + 2 * 11);
}

#[test]
fn b7_ports_are_joined_to_land_by_double_red_lines() {
    let ports: Vec<Point> = Point::all().filter(|q| q.label() == Label::Port).collect();
    assert_eq!(names(&ports), ["f1", "f3", "f8", "f10"]);
    let mut pairs: Vec<String> = map()
        .landings
        .iter()
        .map(|(a, b)| format!("{a}{b}"))
        .collect();
    pairs.sort();
    assert_eq!(pairs, ["f10e10", "f1e1", "f3e3", "f8e8"]);
}

#[test]
fn b8_navy_placements_are_the_battleships_arrow_tails() {
    let navy: Vec<Point> = Point::all()
        .filter(|q| q.label() == Label::NavyPlacement)
        .collect();
    assert_eq!(names(&navy), ["f4", "g4", "f7", "g7"]);
    for q in navy {
        assert!(map().arrows.iter().any(|(tail, _)| *tail == q));
    }
}

#[test]
fn b9_f5_and_f6_flank_the_bridge() {
    assert_eq!(map().bridge_guards, [p("f5"), p("f6")]);
}

#[test]
fn b10_an_airport_in_each_corner() {
    let airports: Vec<Point> = Point::all()
        .filter(|q| q.layer() == Layer::Airport)
        .collect();
    assert_eq!(names(&airports), ["sw", "se", "nw", "ne"]);
    assert_eq!(p("sw").airport_side(), Some(South));
    assert_eq!(p("se").airport_side(), Some(South));
    assert_eq!(p("nw").airport_side(), Some(North));
    assert_eq!(p("ne").airport_side(), Some(North));
}

#[test]
fn b11_four_diagonal_flight_lines_from_the_airports() {
    let lines: Vec<String> = map().flights.iter().map(|l| names(l).join(" ")).collect();
    assert_eq!(
        lines,
        [
            "sw a0 b1 k0 c2 d3 e4 f5 k5 g6 k9",
            "se g0 f1 k1 e2 d3 c4 b5 k4 a6 k7",
            "nw a11 b10 k2 c9 d8 e7 f6 k5 g5 k8",
            "ne g11 f10 k3 e9 d8 c7 b6 k4 a5 k6",
        ]
    );
    // Each is straight on the drawing: equal steps between consecutive points' positions.
    for line in &map().flights {
        let (x0, y0) = line[0].position();
        let (x1, y1) = line[line.len() - 1].position();
        for q in line {
            let (x, y) = q.position();
            assert_eq!(
                (x - x0) * (y1 - y0),
                (y - y0) * (x1 - x0),
                "{q} off its line"
            );
        }
    }
}

#[test]
fn b12_stopping_dots_crossings_and_line_ends() {
    let dots: Vec<Point> = Point::all().filter(|q| q.layer() == Layer::Dot).collect();
    assert_eq!(dots.len(), 10);
    assert_eq!(map().lines_through(p("k4")).count(), 2);
    assert_eq!(map().lines_through(p("k5")).count(), 2);
    for end in ["k6", "k7", "k8", "k9"] {
        let line = map().lines_through(p(end)).next().unwrap();
        assert_eq!(*line.last().unwrap(), p(end));
    }
    assert_eq!(p("k4").half(), None);
}

#[test]
fn b13_two_retreat_routes_along_the_long_edges() {
    let routes: Vec<String> = map().routes.iter().map(|r| names(r).join(" ")).collect();
    assert_eq!(routes, ["sw k6 k7 nw", "se k8 k9 ne"]);
}

#[test]
fn b14_fire_arrows() {
    let mut arrows: Vec<String> = map()
        .arrows
        .iter()
        .map(|(a, b)| format!("{a}>{b}"))
        .collect();
    arrows.sort();
    // Every head is on a front row, where nothing is deployed: no arrow can fire at once.
    for (_, head) in &map().arrows {
        assert!(!head.is_placement(), "{head}");
    }
    let mut want: Vec<String> =
        "a4>a6 b4>b6 d4>d6 e4>e6 f4>f6 g4>g6 a7>a5 b7>b5 d7>d5 e7>e5 f7>f5 g7>g5"
            .split(' ')
            .map(String::from)
            .collect();
    want.sort();
    assert_eq!(arrows, want);
}

#[test]
fn b15_thirty_seven_placement_points_a_side() {
    for side in [South, North] {
        let order = qiguan_core::sealandair::board::placement_order(side);
        assert_eq!(order.len(), 37);
        let land = order.iter().filter(|q| q.layer() == Layer::Land).count();
        let sea = order.iter().filter(|q| q.layer() == Layer::Sea).count();
        assert_eq!((land, sea), (25, 10));
        assert!(
            order
                .iter()
                .filter(|q| q.is_ground())
                .all(|q| q.is_placement() && q.half() == Some(side))
        );
    }
    assert!(!Point::BRIDGE.is_placement());
    assert!(!p("f5").is_placement() && !p("g6").is_placement());
}

// ---- Set-up ----

fn layout(side: Side) -> Deployment {
    Deployment::random(side, 7)
}

#[test]
fn s1_both_sides_deploy_all_37_in_secret_at_once() {
    let mut g: Match<SeaLandAir> = Match::new(&SeaLandAirOptions::default(), None).unwrap();
    assert_eq!(g.to_act(), ToAct::Seats(vec![Seat::FIRST, Seat::SECOND]));
    let north = layout(North).to_text();
    g.apply_text(Actor::Seat(Seat::SECOND), &format!("deploy:{north}"))
        .unwrap();
    // South sees nothing of North's layout.
    let view = g.view(Viewer::Seat(Seat::FIRST)).game;
    assert!(view.pieces.is_empty());
    assert_eq!(view.deployed, [false, true]);
    g.apply_text(
        Actor::Seat(Seat::FIRST),
        &format!("deploy:{}", layout(South).to_text()),
    )
    .unwrap();
    assert_eq!(g.to_act(), ToAct::Seat(Seat::FIRST));
    assert_eq!(g.game().board().pieces().count(), 74);
    // A ship on land is refused, with the reason.
    let mut text: Vec<char> = layout(South).to_text().chars().collect();
    let ship = text.iter().position(|c| *c == 'B').unwrap();
    text.swap(0, ship);
    let bad = Deployment::from_text(South, &text.iter().collect::<String>()).unwrap();
    let problems = bad.validate().unwrap_err();
    assert!(
        problems.iter().any(|p| p.to_string().contains("starts on")),
        "{problems:?}"
    );
}

#[test]
fn s2_the_flag_stands_in_the_city() {
    let mut d = layout(South);
    let flag = d.pieces.iter().find(|(_, k)| *k == Flag).unwrap().0;
    assert_eq!(flag.label(), Label::City);
    d.swap(flag, p("c3"));
    let problems = d.validate().unwrap_err();
    assert_eq!(problems.len(), 1);
    assert!(problems[0].to_string().contains("city"));
    // The other city points take any land piece.
    let mut d = layout(South);
    let others: Vec<Point> = ["b0", "c0", "d0"]
        .map(p)
        .into_iter()
        .filter(|q| *q != flag)
        .collect();
    let mine = d.pieces.iter().find(|(_, k)| *k == Landmine).unwrap().0;
    d.swap(others[0], mine);
    assert!(d.validate().is_ok());
}

#[test]
fn s3_nothing_else_limits_the_layout() {
    for seed in 0..200 {
        for side in [South, North] {
            let d = Deployment::random(side, seed);
            assert_eq!(d.validate(), Ok(()), "seed {seed}");
            assert_eq!(Deployment::from_text(side, &d.to_text()).unwrap(), d);
            assert_eq!(Deployment::sensible(side, seed).validate(), Ok(()));
        }
    }
    // Landmines in the front placement row are fine.
    let mut d = layout(South);
    let mine = d.pieces.iter().find(|(_, k)| *k == Landmine).unwrap().0;
    let front = p("c4");
    if d.kind_at(front) != Some(Flag) {
        d.swap(mine, front);
        assert!(d.validate().is_ok());
    }
}

// ---- Turns ----

#[test]
fn t1_south_first_then_alternate_one_piece_a_turn() {
    let mut g = game(&[NEAR, FAR]);
    assert_eq!(g.to_act(), ToAct::Seat(Seat::FIRST));
    play(&mut g, "c1-c2");
    assert_eq!(g.to_act(), ToAct::Seat(Seat::SECOND));
    assert!(g.legal_moves(Actor::Seat(Seat::FIRST)).is_empty());
    play(&mut g, "c10-c9");
    assert_eq!(g.to_act(), ToAct::Seat(Seat::FIRST));
}

#[test]
fn t2_a_player_who_cannot_act_loses() {
    // North has only its flag and a landmine: after South's move it cannot act.
    let mut g = game(&[NEAR, ("c11", North, Flag), ("b11", North, Landmine)]);
    play(&mut g, "c1-c2");
    match g.to_act() {
        ToAct::Over(o) => {
            assert_eq!(
                o.result,
                GameResult::Win {
                    winners: vec![Seat::FIRST]
                }
            );
            assert_eq!(o.reason, EndReason::Stalemate);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn t3_eighty_quiet_turns_draw() {
    let mut g = game(&[("a0", South, Private), ("a11", North, Private)]);
    for i in 0..80 {
        let mv = match (i % 4, g.seat_to_move().index()) {
            (0, 0) => "a0-b0",
            (2, 0) => "b0-a0",
            (1, 1) => "a11-b11",
            (3, 1) => "b11-a11",
            _ => unreachable!(),
        };
        assert!(!matches!(g.to_act(), ToAct::Over(_)), "over after {i}");
        play(&mut g, mv);
    }
    match g.to_act() {
        ToAct::Over(o) => assert_eq!(
            (o.result, o.reason),
            (GameResult::Draw, EndReason::MoveLimit)
        ),
        other => panic!("{other:?}"),
    }
    // A removal resets the count; a shot that harms nothing does not. The option changes it.
    let mut g = game(&[
        ("a4", South, Artillery),
        ("a6", North, Commander),
        ("a11", North, Private),
    ]);
    play(&mut g, "a4*a6");
    assert_eq!(g.view(Viewer::Spectator).quiet_plies, 1);
    let mut g = game(&[
        ("a4", South, Artillery),
        ("a6", North, Private),
        ("a11", North, Private),
    ]);
    play(&mut g, "a4*a6");
    assert_eq!(g.view(Viewer::Spectator).quiet_plies, 0);
    let options = SeaLandAirOptions {
        quiet_plies: 2,
        ..Default::default()
    };
    let mut g = SeaLandAir::from_position(
        &options,
        &[(p("a0"), South, Private), (p("a11"), North, Private)],
        South,
    );
    play(&mut g, "a0-b0");
    play(&mut g, "a11-b11");
    assert!(matches!(g.to_act(), ToAct::Over(_)));
}

// ---- Movement ----

#[test]
fn m1_one_piece_a_point_never_onto_ones_own() {
    let g = game(&[
        ("c2", South, Private),
        ("c3", South, Private),
        ("b2", North, Private),
        FAR,
    ]);
    let m = moves(&g, "c2");
    assert!(m.contains(&"c2-b2".to_string()), "attack the enemy");
    assert!(!m.contains(&"c2-c3".to_string()), "not onto its own");
    assert!(m.contains(&"c2-c1".to_string()));
}

#[test]
fn m2_armies_go_one_point_by_road_or_rail() {
    let g = game(&[("c2", South, Brigade), FAR]);
    assert_eq!(moves(&g, "c2"), ["c2-b2", "c2-c1", "c2-c3", "c2-d2"]);
    let g = game(&[("e2", South, Brigade), FAR]);
    assert!(moves(&g, "e2").contains(&"e2-d2".to_string()));
    assert!(moves(&g, "e2").contains(&"e2-e3".to_string()));
}

#[test]
fn m3_two_points_along_one_rail_line_without_overtaking() {
    let g = game(&[("a1", South, Private), FAR]);
    let m = moves(&g, "a1");
    for two in ["a1-a3", "a1-c1"] {
        assert!(m.contains(&two.to_string()), "{two}");
    }
    assert!(!m.contains(&"a1-a4".to_string()), "never three");
    assert!(!m.contains(&"a1-b2".to_string()), "no corner");
    // Blocked in front: no overtaking, but the blocker may be attacked.
    let g = game(&[
        ("a1", South, Private),
        ("a2", South, Private),
        ("b1", North, Private),
        FAR,
    ]);
    let m = moves(&g, "a1");
    assert!(!m.contains(&"a1-a3".to_string()));
    assert!(!m.contains(&"a1-c1".to_string()));
    assert!(m.contains(&"a1-b1".to_string()));
    // Over the bridge: e5 to e6 in one move.
    let g = game(&[("e5", South, Private), FAR]);
    assert!(moves(&g, "e5").contains(&"e5-e6".to_string()));
}

#[test]
fn m4_artillery_and_anti_aircraft_guns_go_by_road_only() {
    for kind in [Artillery, AntiAircraft] {
        let g = game(&[("a2", South, kind), FAR]);
        assert_eq!(moves(&g, "a2"), ["a2-b2"], "{kind:?}: a1 and a3 are rail");
        let g = game(&[("c2", South, kind), FAR]);
        assert_eq!(
            moves(&g, "c2"),
            ["c2-b2", "c2-c1", "c2-c3", "c2-d2"],
            "{kind:?}: by road onto the rail row"
        );
        let g = game(&[("b1", South, kind), FAR]);
        assert_eq!(
            moves(&g, "b1"),
            ["b1-b0", "b1-b2"],
            "{kind:?}: not along row 1"
        );
    }
}

#[test]
fn m5_missiles_go_by_road_or_one_point_along_a_flight_line_never_into_an_airport() {
    let g = game(&[("c2", South, Missile), FAR]);
    assert_eq!(
        moves(&g, "c2"),
        ["c2-b2", "c2-c1", "c2-c3", "c2-d2", "c2-d3", "c2-k0"]
    );
    let g = game(&[("a0", South, Missile), FAR]);
    assert!(!moves(&g, "a0").contains(&"a0-sw".to_string()));
    assert!(
        moves(&g, "a0").contains(&"a0-b1".to_string()),
        "along the line"
    );
    // From a dot, one point on.
    let g = game(&[("k0", South, Missile), FAR]);
    assert_eq!(moves(&g, "k0"), ["k0-b1", "k0-c2"]);
}

#[test]
fn m6_the_flag_and_landmines_never_move() {
    let g = game(&[("c0", South, Flag), ("b0", South, Landmine), FAR]);
    assert!(moves(&g, "c0").is_empty());
    assert!(moves(&g, "b0").is_empty());
}

#[test]
fn m7_ships_move_one_point_along_sea_lines() {
    let g = game(&[("g2", South, Destroyer), FAR]);
    assert_eq!(moves(&g, "g2"), ["g2-f2", "g2-g1", "g2-g3"]);
    let g = game(&[("f2", South, Submarine), FAR]);
    assert_eq!(
        moves(&g, "f2"),
        ["f2-f1", "f2-f3", "f2-g2"],
        "never onto land"
    );
}

#[test]
fn m8_battleships_and_cruisers_land_through_the_enemys_ports() {
    for kind in [Battleship, Cruiser] {
        for (port, shore) in [("f8", "e8"), ("f10", "e10")] {
            let g = game(&[(port, South, kind), FAR]);
            let land = format!("{port}-{shore}");
            assert!(moves(&g, port).contains(&land), "{kind:?} {land}");
            let g = game(&[(shore, South, kind), FAR]);
            let back = format!("{shore}-{port}");
            assert!(moves(&g, shore).contains(&back), "{kind:?} sails back");
        }
        // Never through their own side's ports, either way.
        let g = game(&[("f3", South, kind), FAR]);
        assert!(!moves(&g, "f3").contains(&"f3-e3".to_string()), "{kind:?}");
        let g = game(&[("e3", South, kind), FAR]);
        assert!(!moves(&g, "e3").contains(&"e3-f3".to_string()), "{kind:?}");
        let g = game_to_move(&[("f1", North, kind), NEAR], North);
        assert!(
            moves(&g, "f1").contains(&"f1-e1".to_string()),
            "North lands in the south"
        );
        let g = game_to_move(&[("f10", North, kind), NEAR], North);
        assert!(
            !moves(&g, "f10").contains(&"f10-e10".to_string()),
            "{kind:?}"
        );
    }
    for kind in [Gunboat, Destroyer, Submarine] {
        let g = game(&[("f8", South, kind), FAR]);
        assert!(!moves(&g, "f8").contains(&"f8-e8".to_string()), "{kind:?}");
    }
    let g = game(&[("e8", South, Private), FAR]);
    assert!(
        !moves(&g, "e8").contains(&"e8-f8".to_string()),
        "armies stay on land"
    );
}

#[test]
fn m9_landed_ships_move_as_armies_and_take_the_flag() {
    let g = game(&[("e10", South, Battleship), FAR]);
    let m = moves(&g, "e10");
    for mv in ["e10-e11", "e10-e8", "e10-c10", "e10-f10"] {
        assert!(m.contains(&mv.to_string()), "{mv} in {m:?}");
    }
    let mut g = game(&[("d10", South, Cruiser), ("d11", North, Flag), FAR]);
    play(&mut g, "d10-d11");
    assert_eq!(
        g.to_act(),
        ToAct::Over(qiguan_core::Outcome::win(
            Seat::FIRST,
            EndReason::FlagCaptured
        ))
    );
}

#[test]
fn m10_aircraft_fly_any_distance_over_ground_and_stop_on_dots_or_own_airports() {
    let g = game(&[
        ("sw", South, Recon),
        ("c2", North, Private),
        ("d3", South, Private),
        FAR,
    ]);
    // (sw-se is a retreat, R1: along the line to k9, then the east route.)
    assert_eq!(
        moves(&g, "sw"),
        ["sw-k0", "sw-k5", "sw-k9", "sw-se"],
        "over c2 and d3"
    );
    // An occupied dot blocks: own plane on k0.
    let g = game(&[("sw", South, Recon), ("k0", South, Fighter), FAR]);
    assert!(moves(&g, "sw").is_empty());
    // Back and forth: from k5 both ways, and onto the home airport.
    let g = game(&[("k5", South, Recon), FAR]);
    let m = moves(&g, "k5");
    for mv in ["k5-k0", "k5-sw", "k5-k9", "k5-k2", "k5-k8"] {
        assert!(m.contains(&mv.to_string()), "{mv} in {m:?}");
    }
}

#[test]
fn m11_crossings_give_either_line_never_the_enemy_airports() {
    let g = game(&[("k4", South, Recon), FAR]);
    let m = moves(&g, "k4");
    for mv in ["k4-k1", "k4-se", "k4-k7", "k4-k3", "k4-k6"] {
        assert!(m.contains(&mv.to_string()), "{mv} in {m:?}");
    }
    assert!(!m.contains(&"k4-ne".to_string()));
    let g = game_to_move(&[("k4", North, Recon), NEAR], North);
    assert!(moves(&g, "k4").contains(&"k4-ne".to_string()));
    assert!(!moves(&g, "k4").contains(&"k4-se".to_string()));
}

#[test]
fn m12_only_aircraft_use_the_retreat_routes() {
    let g = game(&[("k8", South, Missile), FAR]);
    assert!(
        !moves(&g, "k8")
            .iter()
            .any(|m| m.ends_with("se") || m.ends_with("k9"))
    );
    let g = game(&[("k8", South, Recon), FAR]);
    assert_eq!(moves(&g, "k8"), ["k8-k2", "k8-k5", "k8-se"]);
}

// ---- Combat ----

#[test]
fn c1_the_winner_takes_the_point_the_loser_is_removed() {
    let mut g = game(&[("c2", South, Brigade), ("c3", North, Regiment), FAR]);
    assert_eq!(removed(&play(&mut g, "c2-c3")), (false, true));
    assert_eq!(at(&g, "c3"), Some((South, Brigade)));
    assert_eq!(at(&g, "c2"), None);
    let mut g = game(&[("c2", South, Regiment), ("c3", North, Brigade), FAR]);
    assert_eq!(removed(&play(&mut g, "c2-c3")), (true, false));
    assert_eq!(at(&g, "c3"), Some((North, Brigade)));
    assert_eq!(at(&g, "c2"), None);
}

#[test]
fn c2_lower_rank_wins_and_a_tie_goes_to_the_attacker() {
    let mut g = game(&[("c2", South, Private), ("c3", North, Private), FAR]);
    assert_eq!(removed(&play(&mut g, "c2-c3")), (false, true));
    let mut g = game(&[("c2", South, Artillery), ("c3", North, Private), FAR]);
    assert_eq!(
        removed(&play(&mut g, "c2-c3")),
        (false, true),
        "rank 9 against rank 9"
    );
    let mut g = game(&[("e3", South, Battleship), ("d3", North, Division), FAR]);
    assert_eq!(
        removed(&play(&mut g, "e3-d3")),
        (false, true),
        "3 against 3"
    );
    let mut g = game(&[("e3", South, Cruiser), ("d3", North, Division), FAR]);
    assert_eq!(removed(&play(&mut g, "e3-d3")), (true, false));
}

#[test]
fn c3_a_destroyer_beats_a_submarine_either_way() {
    let mut g = game(&[("g2", South, Destroyer), ("g3", North, Submarine), FAR]);
    assert_eq!(removed(&play(&mut g, "g2-g3")), (false, true));
    let mut g = game(&[("g2", South, Submarine), ("g3", North, Destroyer), FAR]);
    assert_eq!(removed(&play(&mut g, "g2-g3")), (true, false));
}

#[test]
fn c4_a_submarine_attacking_a_battleship_or_cruiser_wins() {
    for big in [Battleship, Cruiser] {
        let mut g = game(&[("g2", South, Submarine), ("g3", North, big), FAR]);
        assert_eq!(removed(&play(&mut g, "g2-g3")), (false, true), "{big:?}");
        let mut g = game(&[("g2", South, big), ("g3", North, Submarine), FAR]);
        assert_eq!(
            removed(&play(&mut g, "g2-g3")),
            (false, true),
            "{big:?} attacking wins too"
        );
    }
    let mut g = game(&[("g2", South, Submarine), ("g3", North, Gunboat), FAR]);
    assert_eq!(removed(&play(&mut g, "g2-g3")), (true, false));
}

#[test]
fn c5_attacking_a_landmine_removes_both() {
    for kind in [Commander, Private, Artillery, Battleship] {
        let mut g = game(&[("c2", South, kind), ("c3", North, Landmine), FAR]);
        assert_eq!(removed(&play(&mut g, "c2-c3")), (true, true), "{kind:?}");
        assert_eq!(at(&g, "c3"), None);
    }
}

#[test]
fn c6_a_gunboat_beside_the_bridge_attacks_it_as_rank_5_without_moving() {
    let mut g = game(&[("f5", South, Gunboat), ("br", North, Regiment), FAR]);
    assert!(can(&g, "f5*br"));
    assert_eq!(removed(&play(&mut g, "f5*br")), (false, true));
    assert_eq!(at(&g, "f5"), Some((South, Gunboat)));
    assert_eq!(at(&g, "br"), None);
    let mut g = game(&[("f6", South, Gunboat), ("br", North, Brigade), FAR]);
    assert_eq!(removed(&play(&mut g, "f6*br")), (true, false));
    assert_eq!(at(&g, "br"), Some((North, Brigade)));
    for kind in [Battleship, Cruiser, Destroyer] {
        let g = game(&[("f5", South, kind), ("br", North, Private), FAR]);
        assert!(
            !moves(&g, "f5").iter().any(|m| m.ends_with("br")),
            "{kind:?}"
        );
    }
    // Landed, a battleship or cruiser still never attacks the bridge, by road or by rail; it
    // crosses it when it is empty.
    for kind in [Battleship, Cruiser] {
        for from in ["e6", "e7"] {
            let g = game(&[(from, South, kind), ("br", North, Private), FAR]);
            assert!(
                !moves(&g, from).iter().any(|m| m.ends_with("br")),
                "{kind:?} from {from}"
            );
        }
        let g = game(&[("e6", South, kind), FAR]);
        assert!(can(&g, "e6-br") && can(&g, "e6-e5"), "{kind:?}");
    }
    let g = game(&[("e6", South, Division), ("br", North, Private), FAR]);
    assert!(can(&g, "e6-br"), "armies attack the bridge");
    let g = game(&[("g5", South, Gunboat), ("br", North, Private), FAR]);
    assert!(!can(&g, "g5*br"), "only from f5 and f6");
}

#[test]
fn c7_a_missile_dies_with_what_it_fights() {
    let mut g = game(&[("c2", South, Missile), ("c3", North, Commander), FAR]);
    assert_eq!(removed(&play(&mut g, "c2-c3")), (true, true));
    let mut g = game(&[("c2", South, Commander), ("c3", North, Missile), FAR]);
    assert_eq!(removed(&play(&mut g, "c2-c3")), (true, true));
    // A missile on a dot takes an aircraft with it.
    let mut g = game(&[("c2", South, Missile), ("k0", North, Fighter), FAR]);
    assert_eq!(removed(&play(&mut g, "c2-k0")), (true, true));
    // A fighter's strike on a missile costs the fighter; fire does not.
    let mut g = game(&[("k0", South, Fighter), ("c2", North, Missile), FAR]);
    assert_eq!(removed(&play(&mut g, "k0*c2")), (true, true));
    let mut g = game(&[("a4", South, Artillery), ("a6", North, Missile), FAR]);
    assert_eq!(removed(&play(&mut g, "a4*a6")), (false, true));
    assert_eq!(at(&g, "a4"), Some((South, Artillery)));
}

#[test]
fn c8_a_missile_that_tries_the_flag_is_removed_and_the_flag_stays() {
    let mut g = game(&[
        ("c10", South, Missile),
        ("c11", North, Flag),
        ("a11", North, Private),
    ]);
    assert!(can(&g, "c10-c11"), "the player cannot know it is the flag");
    assert_eq!(removed(&play(&mut g, "c10-c11")), (true, false));
    assert_eq!(at(&g, "c11"), Some((North, Flag)));
    assert!(!matches!(g.to_act(), ToAct::Over(_)));
}

#[test]
fn c9_any_other_piece_takes_the_flag_and_wins() {
    for kind in [Private, Artillery, AntiAircraft, Battleship] {
        let mut g = game(&[
            ("c10", South, kind),
            ("c11", North, Flag),
            ("a11", North, Private),
        ]);
        play(&mut g, "c10-c11");
        assert_eq!(
            g.to_act(),
            ToAct::Over(qiguan_core::Outcome::win(
                Seat::FIRST,
                EndReason::FlagCaptured
            )),
            "{kind:?}"
        );
    }
}

#[test]
fn f1_fire_over_arrows_removes_targets_of_rank_3_or_weaker() {
    for (firer, from, to) in [
        (Artillery, "a4", "a6"),
        (Artillery, "e4", "e6"),
        (Battleship, "f4", "f6"),
    ] {
        for (target, hit) in [
            (Division, true),
            (Private, true),
            (Battleship, true),
            (Artillery, true),
            (AntiAircraft, true),
            (Missile, true),
            (ArmyGroup, false),
            (Commander, false),
            (Landmine, false),
        ] {
            // Arrows to sea points meet ships (and missiles that flew there).
            let at_sea = p(to).layer() == Layer::Sea;
            if at_sea && !matches!(target, Battleship | Missile) {
                continue;
            }
            let mv = format!("{from}*{to}");
            let options = SeaLandAirOptions {
                referee: true,
                ..Default::default()
            };
            let list = [
                (p(from), South, firer),
                (p(to), North, target),
                (p(FAR.0), North, FAR.2),
            ];
            let mut g = SeaLandAir::from_position(&options, &list, South);
            assert!(can(&g, &mv), "{mv}");
            assert_eq!(
                removed(&play(&mut g, &mv)),
                (false, hit),
                "{firer:?} at {target:?}"
            );
            assert_eq!(at(&g, from), Some((South, firer)), "the firer stays");
            if !hit {
                // In referee mode (V5) both still see that the shot did nothing.
                let seen = g.view(Viewer::Seat(Seat::FIRST));
                let target = seen.pieces.iter().find(|s| s.at == to).unwrap();
                assert!(target.survived_fire, "both see the shot did nothing");
                assert_eq!(target.kind, None);
            }
        }
    }
    // Only from an arrow's tail, only by artillery and battleships.
    let g = game(&[("a3", South, Artillery), ("a5", North, Private), FAR]);
    assert!(!moves(&g, "a3").iter().any(|m| m.contains('*')));
    let g = game(&[("a4", South, Division), ("a6", North, Private), FAR]);
    assert!(!can(&g, "a4*a6"));
    let g = game(&[("a4", South, Artillery), ("a7", North, Private), FAR]);
    assert!(!can(&g, "a4*a7"), "only at the arrow's head");
}

#[test]
fn f2_anti_air_fire_at_the_first_dot_either_way() {
    let mut g = game(&[("c2", South, AntiAircraft), ("k0", North, Fighter), FAR]);
    assert!(can(&g, "c2*k0"));
    assert_eq!(removed(&play(&mut g, "c2*k0")), (false, true));
    // From e4 the first dots are k0 (past d3, c2) and k5 (past f5).
    let g = game(&[
        ("e4", South, AntiAircraft),
        ("k0", North, Recon),
        ("k5", North, Missile),
        ("d3", North, Private),
        FAR,
    ]);
    assert!(can(&g, "e4*k0") && can(&g, "e4*k5"));
    // Not past the first dot: k9 is behind k5.
    let g = game(&[("e4", South, AntiAircraft), ("k9", North, Recon), FAR]);
    assert!(!can(&g, "e4*k9"));
    let mut g = game(&[("f5", South, Destroyer), ("k5", North, Fighter), FAR]);
    assert_eq!(removed(&play(&mut g, "f5*k5")), (false, true));
    let g = game(&[("c3", South, AntiAircraft), ("k0", North, Fighter), FAR]);
    assert!(
        !moves(&g, "c3").iter().any(|m| m.contains('*')),
        "c3 is under no flight line"
    );
}

#[test]
fn a1_fighters_beat_recons_attacker_wins_between_fighters() {
    let mut g = game(&[("sw", South, Fighter), ("k0", North, Recon), FAR]);
    assert_eq!(removed(&play(&mut g, "sw-k0")), (false, true));
    assert_eq!(at(&g, "k0"), Some((South, Fighter)));
    let mut g = game(&[("sw", South, Fighter), ("k0", North, Fighter), FAR]);
    assert_eq!(removed(&play(&mut g, "sw-k0")), (false, true));
    let mut g = game(&[("sw", South, Recon), ("k0", North, Fighter), FAR]);
    assert_eq!(removed(&play(&mut g, "sw-k0")), (true, false));
}

#[test]
fn a2_two_recons_both_go_home() {
    let mut g = game(&[
        ("k5", South, Recon),
        ("k2", North, Recon),
        ("sw", South, Fighter),
        FAR,
    ]);
    let events = play(&mut g, "k5-k2");
    match &events[0] {
        SeaLandAirEvent::Battle {
            attacker_removed: false,
            defender_removed: false,
            sent_home: Some(homes),
            ..
        } => {
            assert_eq!(homes, &["se".to_string(), "nw".to_string()], "sw is taken");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(at(&g, "se"), Some((South, Recon)));
    assert_eq!(at(&g, "nw"), Some((North, Recon)));
    assert_eq!(at(&g, "k2"), None);
    assert_eq!(at(&g, "k5"), None);
}

#[test]
fn a3_a_fighter_strikes_ground_on_its_line_from_a_stopping_dot() {
    let mut g = game(&[("k0", South, Fighter), ("d3", North, Division), FAR]);
    assert!(can(&g, "k0*d3"));
    assert_eq!(removed(&play(&mut g, "k0*d3")), (false, true));
    assert_eq!(at(&g, "k0"), Some((South, Fighter)));
    assert!(can(&g, "k0-k5"), "and stays in flight");
    for top in [Commander, ArmyGroup] {
        let mut g = game(&[("k0", South, Fighter), ("d3", North, top), FAR]);
        assert_eq!(removed(&play(&mut g, "k0*d3")), (true, false), "{top:?}");
        assert_eq!(at(&g, "k0"), None, "shot down by the {top:?}");
        assert_eq!(at(&g, "d3"), Some((North, top)));
    }
    // Not from an airport: it must be flying.
    let g = game(&[("sw", South, Fighter), ("b1", North, Division), FAR]);
    assert!(!moves(&g, "sw").iter().any(|m| m.contains('*')));
    // Not past an occupied dot.
    let g = game(&[
        ("k0", South, Fighter),
        ("k5", South, Recon),
        ("g6", North, Private),
        FAR,
    ]);
    assert!(!can(&g, "k0*g6"));
    let g = game(&[("k0", South, Fighter), ("g6", North, Private), FAR]);
    assert!(can(&g, "k0*g6"), "past k5 when it is empty");
    // Ships too.
    let mut g = game(&[("k5", South, Fighter), ("f6", North, Cruiser), FAR]);
    assert_eq!(removed(&play(&mut g, "k5*f6")), (false, true));
}

#[test]
fn a4_a_fighter_destroys_a_landmine_unharmed() {
    let mut g = game(&[("k0", South, Fighter), ("c2", North, Landmine), FAR]);
    assert_eq!(removed(&play(&mut g, "k0*c2")), (false, true));
    assert_eq!(at(&g, "k0"), Some((South, Fighter)));
}

#[test]
fn a5_a_fighter_that_strikes_an_anti_aircraft_gun_is_shot_down() {
    let mut g = game(&[("k0", South, Fighter), ("c2", North, AntiAircraft), FAR]);
    assert_eq!(removed(&play(&mut g, "k0*c2")), (true, false));
    assert_eq!(at(&g, "c2"), Some((North, AntiAircraft)));
}

#[test]
fn a6_only_the_fighter_attacks_ground_from_the_air() {
    let g = game(&[("sw", South, Recon), ("c2", North, Private), FAR]);
    assert!(!moves(&g, "sw").iter().any(|m| m.contains('*')));
    let g = game(&[("sw", South, Recon), ("k0", North, Recon), FAR]);
    assert!(can(&g, "sw-k0"), "a recon does attack on dots");
}

#[test]
fn v1_identities_are_hidden_until_a_battle_or_the_recon_shows_them() {
    let mut m: Match<SeaLandAir> = Match::new(&SeaLandAirOptions::default(), None).unwrap();
    m.apply_text(
        Actor::Seat(Seat::FIRST),
        &format!("deploy:{}", layout(South).to_text()),
    )
    .unwrap();
    m.apply_text(
        Actor::Seat(Seat::SECOND),
        &format!("deploy:{}", layout(North).to_text()),
    )
    .unwrap();
    let view = m.view(Viewer::Seat(Seat::FIRST)).game;
    assert_eq!(view.pieces.len(), 74);
    for seen in &view.pieces {
        assert_eq!(seen.kind.is_some(), seen.side == South, "{seen:?}");
    }
    let spectator = m.view(Viewer::Spectator).game;
    assert!(spectator.pieces.iter().all(|s| s.kind.is_none()));
    // A move that fights nothing shows nothing.
    let mut g = game(&[("c2", South, Brigade), ("c10", North, Regiment), NEAR]);
    play(&mut g, "c2-c3");
    let north = g.view(Viewer::Seat(Seat::SECOND));
    let moved = north.pieces.iter().find(|s| s.at == "c3").unwrap();
    assert_eq!(moved.kind, None);
    assert_eq!(north.last.unwrap().mover.unwrap().kind, None);
}

/// The kind `viewer` sees at a point.
fn seen_at(g: &SeaLandAir, viewer: Seat, at: &str) -> Option<Kind> {
    let view = g.view(Viewer::Seat(viewer));
    view.pieces.iter().find(|s| s.at == at).and_then(|s| s.kind)
}

#[test]
fn v4_a_battle_shows_both_pieces_to_both_players_for_good() {
    // By moving: the winner stays known wherever it goes.
    let mut g = game(&[("c2", South, Brigade), ("c3", North, Regiment), FAR]);
    let events = play(&mut g, "c2-c3");
    assert!(matches!(
        &events[0],
        SeaLandAirEvent::Battle {
            attacker: Some(Brigade),
            defender: Some(Regiment),
            ..
        }
    ));
    let last = g.view(Viewer::Seat(Seat::SECOND)).last.unwrap();
    assert_eq!(last.mover.unwrap().kind, Some(Brigade));
    assert_eq!(last.defender.unwrap().kind, Some(Regiment));
    assert_eq!(seen_at(&g, Seat::SECOND, "c3"), Some(Brigade));
    play(&mut g, "c10-c9");
    play(&mut g, "c3-b3");
    assert_eq!(
        seen_at(&g, Seat::SECOND, "b3"),
        Some(Brigade),
        "it stays known"
    );
    let spectator = g.view(Viewer::Spectator);
    assert!(spectator.pieces.iter().any(|s| s.kind == Some(Brigade)));
    // A defender that survives stays known to the attacker's side.
    let mut g = game(&[("c2", South, Private), ("c3", North, Division), FAR]);
    assert_eq!(removed(&play(&mut g, "c2-c3")), (true, false));
    assert_eq!(seen_at(&g, Seat::FIRST, "c3"), Some(Division));
    // Remote attacks too, whatever they do: fire that harmed nothing, a strike, air combat.
    let mut g = game(&[("a4", South, Artillery), ("a6", North, Commander), FAR]);
    play(&mut g, "a4*a6");
    assert_eq!(seen_at(&g, Seat::FIRST, "a6"), Some(Commander));
    assert_eq!(seen_at(&g, Seat::SECOND, "a4"), Some(Artillery));
    let mut g = game(&[("k0", South, Fighter), ("d3", North, Division), FAR]);
    play(&mut g, "k0*d3");
    assert_eq!(seen_at(&g, Seat::SECOND, "k0"), Some(Fighter));
    let mut g = game(&[("sw", South, Recon), ("k0", North, Recon), FAR]);
    play(&mut g, "sw-k0");
    assert_eq!(
        seen_at(&g, Seat::FIRST, "nw"),
        Some(Recon),
        "sent home, known"
    );
    // Pieces that fought nothing stay hidden; a plane shot down on a retreat fought nothing.
    assert_eq!(seen_at(&g, Seat::FIRST, "c10"), None);
    let mut g = game(&[("k4", South, Fighter), ("a9", North, Artillery), FAR]);
    let events = play(&mut g, "k4-sw");
    assert!(matches!(
        &events[0],
        SeaLandAirEvent::Retreated {
            shot_down: true,
            ..
        }
    ));
    assert_eq!(seen_at(&g, Seat::FIRST, "a9"), None);
}

#[test]
fn v5_referee_mode_battles_tell_only_removals() {
    let options = SeaLandAirOptions {
        referee: true,
        ..Default::default()
    };
    let list = [
        (p("c2"), South, Brigade),
        (p("c3"), North, Regiment),
        (p("c4"), North, Division),
        (p("c10"), North, Private),
        (p("a0"), South, Private),
    ];
    let mut g = SeaLandAir::from_position(&options, &list, South);
    let events = play(&mut g, "c2-c3");
    assert!(matches!(
        &events[0],
        SeaLandAirEvent::Battle {
            attacker: None,
            defender: None,
            defender_removed: true,
            ..
        }
    ));
    let north = g.view(Viewer::Seat(Seat::SECOND));
    assert_eq!(north.last.unwrap().mover.unwrap().kind, None);
    assert_eq!(
        seen_at(&g, Seat::SECOND, "c3"),
        None,
        "North does not learn what beat it"
    );
    play(&mut g, "c4-c3");
    assert_eq!(
        seen_at(&g, Seat::FIRST, "c3"),
        None,
        "nor South what beat it"
    );
    // The option is recorded in the game's options.
    let json = serde_json::to_value(&options).unwrap();
    assert_eq!(json["referee"], true);
    let old: SeaLandAirOptions = serde_json::from_str(r#"{"quiet_plies":80}"#).unwrap();
    assert!(
        !old.referee,
        "battles reveal unless the options say otherwise"
    );
}

/// The balance rule behind [A3] and [B14]: every point a piece can make a remote attack from
/// can be attacked by some enemy piece from somewhere.
#[test]
fn nothing_strikes_from_where_nothing_can_reach_it() {
    let kinds = Kind::ALL;
    let mut unreachable = Vec::new();
    for from in Point::all() {
        for &kind in &kinds {
            let strikes = Point::all().filter(|&to| to != from).any(|to| {
                let g = game(&[
                    (&from.to_string(), South, kind),
                    (&to.to_string(), North, Private),
                ]);
                g.board().moves_from(from).iter().any(|m| m.remote)
            });
            if !strikes {
                continue;
            }
            let reached = Point::all().filter(|&q| q != from).any(|q| {
                kinds.iter().any(|&enemy| {
                    let g = game_to_move(
                        &[
                            (&from.to_string(), South, kind),
                            (&q.to_string(), North, enemy),
                        ],
                        North,
                    );
                    g.board().moves_from(q).iter().any(|m| m.to == from)
                })
            });
            if !reached {
                unreachable.push(format!("{kind:?} at {from}"));
            }
        }
    }
    assert!(unreachable.is_empty(), "{unreachable:?}");
}

#[test]
fn v2_the_recon_reveals_what_it_flies_over_to_its_owner_only_for_good() {
    let mut g = game(&[
        ("sw", South, Recon),
        ("c2", North, Division),
        ("d3", North, Landmine),
        ("e4", North, Private),
        FAR,
    ]);
    let told = g
        .play(
            Actor::Seat(Seat::FIRST),
            &"sw-k5".parse::<SeaLandAirMove>().unwrap(),
        )
        .unwrap();
    let spotted = told
        .iter()
        .find(|t| matches!(t.event, SeaLandAirEvent::Spotted { .. }))
        .unwrap();
    assert_eq!(spotted.audience, Audience::Seats(vec![Seat::FIRST]));
    let south = g.view(Viewer::Seat(Seat::FIRST));
    let kind_at = |v: &qiguan_core::sealandair::SeaLandAirView, a: &str| {
        v.pieces.iter().find(|s| s.at == a).and_then(|s| s.kind)
    };
    assert_eq!(kind_at(&south, "c2"), Some(Division));
    assert_eq!(kind_at(&south, "d3"), Some(Landmine));
    assert_eq!(kind_at(&south, "e4"), Some(Private));
    assert_eq!(kind_at(&south, "c10"), None, "not flown over");
    let north = g.view(Viewer::Seat(Seat::SECOND));
    assert_eq!(
        kind_at(&north, "k5"),
        None,
        "North does not learn it was the recon"
    );
    // The knowledge follows the piece.
    play(&mut g, "c2-b2");
    let south = g.view(Viewer::Seat(Seat::FIRST));
    assert_eq!(kind_at(&south, "b2"), Some(Division));
}

#[test]
fn v3_at_the_end_everything_shows() {
    let mut g = game(&[
        ("c10", South, Private),
        ("c11", North, Flag),
        ("a11", North, Commander),
    ]);
    play(&mut g, "c10-c11");
    let view = g.view(Viewer::Seat(Seat::FIRST));
    assert!(view.pieces.iter().all(|s| s.kind.is_some()));
    assert!(
        g.view(Viewer::Spectator)
            .pieces
            .iter()
            .all(|s| s.kind.is_some())
    );
}

#[test]
fn r1_an_aircraft_that_reaches_a_route_flies_home_along_it_in_one_move() {
    let mut g = game(&[("k0", South, Recon), FAR]);
    assert!(
        can(&g, "k0-se"),
        "along the line to k9, then the east route"
    );
    let events = play(&mut g, "k0-se");
    assert_eq!(
        events[0],
        SeaLandAirEvent::Retreated {
            mv: "k0-se".into(),
            shot_down: false
        }
    );
    assert_eq!(at(&g, "se"), Some((South, Recon)));
    // Not if a dot on the way to the route is taken, nor into a full airport.
    let g = game(&[("k0", South, Recon), ("k5", North, Recon), FAR]);
    assert!(!can(&g, "k0-se"));
    let g = game(&[("k0", South, Recon), ("se", South, Fighter), FAR]);
    assert!(!can(&g, "k0-se"));
    // The route's own dots are not in the way.
    let g = game(&[("k9", South, Recon), ("k8", North, Recon), FAR]);
    assert!(can(&g, "k9-se"));
}

#[test]
fn r2_after_an_attack_the_retreat_is_safe() {
    let mut g = game(&[
        ("k0", South, Fighter),
        ("k5", North, Recon),
        ("g3", North, Battleship),
        ("c10", South, Private),
        ("c9", North, Private),
    ]);
    play(&mut g, "k0-k5");
    play(&mut g, "c9-c8");
    let events = play(&mut g, "k5-se");
    assert_eq!(
        events[0],
        SeaLandAirEvent::Retreated {
            mv: "k5-se".into(),
            shot_down: false
        }
    );
    assert_eq!(at(&g, "se"), Some((South, Fighter)));
    // After a strike too.
    let mut g = game(&[
        ("k5", South, Fighter),
        ("f6", North, Private),
        ("g3", North, Battleship),
        ("c9", North, Private),
    ]);
    play(&mut g, "k5*f6");
    play(&mut g, "c9-c8");
    assert_eq!(
        play(&mut g, "k5-se")[0],
        SeaLandAirEvent::Retreated {
            mv: "k5-se".into(),
            shot_down: false
        }
    );
}

#[test]
fn r3_otherwise_artillery_or_a_battleship_beside_the_route_shoots_it_down() {
    // A battleship in column g guards the east route.
    let mut g = game(&[("k5", South, Fighter), ("g9", North, Battleship), FAR]);
    let events = play(&mut g, "k5-se");
    assert_eq!(
        events[0],
        SeaLandAirEvent::Retreated {
            mv: "k5-se".into(),
            shot_down: true
        }
    );
    assert_eq!(at(&g, "se"), None);
    assert_eq!(at(&g, "k5"), None);
    // Artillery in column a guards the west route.
    let mut g = game(&[("k4", South, Recon), ("a9", North, Artillery), FAR]);
    assert!(matches!(
        play(&mut g, "k4-sw")[0],
        SeaLandAirEvent::Retreated {
            shot_down: true,
            ..
        }
    ));
    // Other pieces there do not.
    let mut g = game(&[("k4", South, Recon), ("a9", North, Commander), FAR]);
    assert!(matches!(
        play(&mut g, "k4-sw")[0],
        SeaLandAirEvent::Retreated {
            shot_down: false,
            ..
        }
    ));
    // An attack two turns ago does not count.
    let mut g = game(&[
        ("k0", South, Fighter),
        ("k5", North, Recon),
        ("g3", North, Battleship),
        ("c1", South, Private),
        ("c9", North, Private),
    ]);
    play(&mut g, "k0-k5");
    play(&mut g, "c9-c8");
    play(&mut g, "c1-c2");
    play(&mut g, "c8-c7");
    assert!(matches!(
        play(&mut g, "k5-se")[0],
        SeaLandAirEvent::Retreated {
            shot_down: true,
            ..
        }
    ));
}

#[test]
fn e1_taking_the_flag_wins() {
    let mut g = game_to_move(
        &[
            ("c1", North, Private),
            ("c0", South, Flag),
            ("a0", South, Private),
        ],
        North,
    );
    play(&mut g, "c1-c0");
    assert_eq!(
        g.to_act(),
        ToAct::Over(qiguan_core::Outcome::win(
            Seat::SECOND,
            EndReason::FlagCaptured
        ))
    );
}

#[test]
fn e2_resignation_and_agreed_draws_end_the_game() {
    let mut m: Match<SeaLandAir> = Match::new(&SeaLandAirOptions::default(), None).unwrap();
    m.apply_text(
        Actor::Seat(Seat::FIRST),
        &format!("deploy:{}", layout(South).to_text()),
    )
    .unwrap();
    m.apply_text(
        Actor::Seat(Seat::SECOND),
        &format!("deploy:{}", layout(North).to_text()),
    )
    .unwrap();
    let mut draw = m.clone();
    m.apply_text(Actor::Seat(Seat::SECOND), "resign").unwrap();
    assert_eq!(m.outcome().unwrap().reason, EndReason::Resignation);
    assert_eq!(m.outcome().unwrap().winners(), [Seat::FIRST]);
    draw.apply_text(Actor::Seat(Seat::FIRST), "offer-draw")
        .unwrap();
    draw.apply_text(Actor::Seat(Seat::SECOND), "accept-draw")
        .unwrap();
    assert_eq!(draw.outcome().unwrap().reason, EndReason::DrawAgreed);
}

/// A move the rules refuse is refused with the reason a player can act on.
#[test]
fn refused_moves_say_why() {
    use qiguan_core::sealandair::NoMove::{self, *};
    let why = |pieces: &[(&str, Side, Kind)], from: &str, to: &str| -> Option<NoMove> {
        game(pieces).board().why_not(p(from), p(to))
    };
    assert_eq!(why(&[("c0", South, Flag), FAR], "c0", "c1"), Some(Immobile));
    assert_eq!(
        why(
            &[("c2", South, Private), ("c3", South, Private), FAR],
            "c2",
            "c3"
        ),
        Some(OwnPiece)
    );
    assert_eq!(
        why(&[("c2", South, Private), FAR], "c2", "c3"),
        None,
        "a legal move"
    );
    // Ships and the shore.
    assert_eq!(
        why(&[("f3", South, Battleship), FAR], "f3", "e3"),
        Some(ShipAshore)
    );
    assert_eq!(
        why(&[("f8", South, Gunboat), FAR], "f8", "e8"),
        Some(ShipAshore)
    );
    assert_eq!(
        why(&[("e3", South, Cruiser), FAR], "e3", "f3"),
        Some(ShipAshore)
    );
    assert_eq!(
        why(&[("e4", South, Private), FAR], "e4", "f4"),
        Some(LandPieceAtSea)
    );
    assert_eq!(
        why(
            &[("e6", South, Cruiser), ("br", North, Private), FAR],
            "e6",
            "br"
        ),
        Some(BigShipOnBridge)
    );
    assert_eq!(
        why(
            &[("f5", South, Battleship), ("br", North, Private), FAR],
            "f5",
            "br"
        ),
        Some(BigShipOnBridge)
    );
    // The air.
    assert_eq!(
        why(&[("sw", South, Fighter), FAR], "sw", "c2"),
        Some(AircraftStop)
    );
    assert_eq!(
        why(
            &[("sw", South, Fighter), ("c2", North, Private), FAR],
            "sw",
            "c2"
        ),
        Some(StrikeInFlight)
    );
    assert_eq!(
        why(
            &[("k0", South, Recon), ("c2", North, Private), FAR],
            "k0",
            "c2"
        ),
        Some(FighterOnly)
    );
    assert_eq!(
        why(
            &[("sw", South, Fighter), ("k0", South, Recon), FAR],
            "sw",
            "k5"
        ),
        Some(DotInTheWay)
    );
    assert_eq!(
        why(&[("sw", South, Fighter), FAR], "sw", "k1"),
        Some(NoFlightLine)
    );
    assert_eq!(
        why(&[("k6", South, Recon), FAR], "k6", "nw"),
        Some(EnemyAirport)
    );
    assert_eq!(
        why(&[("b1", South, Missile), FAR], "b1", "sw"),
        Some(MissileIntoAirport)
    );
    // Roads and railways.
    assert_eq!(
        why(&[("b1", South, Artillery), FAR], "b1", "c1"),
        Some(RoadOnly)
    );
    assert_eq!(
        why(
            &[("a1", South, Private), ("b1", South, Private), FAR],
            "a1",
            "c1"
        ),
        Some(RailBlocked)
    );
    assert_eq!(
        why(&[("c2", South, Private), FAR], "c2", "c4"),
        Some(TooFar)
    );
    // Every refusal of every piece on a random-ish board agrees with the legal moves.
    let g = game(&[
        ("c2", South, Division),
        ("e4", South, Artillery),
        ("f4", South, Battleship),
        ("k0", South, Fighter),
        ("c3", North, Private),
        ("f6", North, Cruiser),
        FAR,
    ]);
    for from in ["c2", "e4", "f4", "k0"] {
        let legal: Vec<Point> = g.board().moves_from(p(from)).iter().map(|m| m.to).collect();
        for to in Point::all() {
            let refused = g.board().why_not(p(from), to).is_some();
            assert_eq!(
                refused,
                to != p(from) && !legal.contains(&to),
                "{from}-{to}"
            );
        }
    }
}

/// Every tag in the rules specification has a test named after it here.
#[test]
fn every_rule_on_the_page_has_a_test() {
    let page = include_str!("../../docs/design/sea-land-air.md");
    let tests = include_str!("sealandair_rules.rs");
    let mut missing = Vec::new();
    let mut count = 0;
    for piece in page.split("**[").skip(1) {
        let tag = piece.split(']').next().unwrap();
        count += 1;
        if !tests.contains(&format!("fn {}_", tag.to_lowercase())) {
            missing.push(tag.to_string());
        }
    }
    assert!(count >= 50, "only {count} tags found");
    assert!(missing.is_empty(), "rules without a test: {missing:?}");
}

/// The board picture in the docs is drawn from the current board data.
#[test]
fn the_board_picture_is_current() {
    let file = include_str!("../../docs/rules/sea-land-air-board.svg");
    assert!(
        file == qiguan_core::sealandair::picture::board_svg(),
        "run `cargo run -p qiguan-core --example sealandair_board`"
    );
}
