//! Junqi movement: steps, rail slides, engineers, and what may not move or be attacked.
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

use qiguan_core::junqi::{Board, Deployment, Move, MoveRules, Piece, Point, Rank, Side};

fn p(s: &str) -> Point {
    s.parse().unwrap()
}

fn board(pieces: &[(&str, Side, Rank)]) -> Board {
    let mut b = Board::default();
    for &(at, side, rank) in pieces {
        b.set(p(at), Some(Piece { side, rank }));
    }
    b
}

fn names(points: Vec<Point>) -> Vec<String> {
    let mut v: Vec<String> = points.iter().map(|p| p.to_string()).collect();
    v.sort();
    v
}

const S: Side = Side::South;
const N: Side = Side::North;

#[test]
fn a_piece_on_the_railroad_steps_and_slides_but_does_not_turn() {
    let b = board(&[("a1", S, Rank::Captain)]);
    let targets = names(b.targets(p("a1"), MoveRules::default()));
    let mut want: Vec<String> = ["a0", "b2", "b1", "c1", "d1", "e1"]
        .iter()
        .map(|s| s.to_string())
        .chain((2..=10).map(|r| format!("a{r}")))
        .collect();
    want.sort();
    assert_eq!(targets, want);
}

#[test]
fn an_engineer_turns_corners_and_a_slide_stops_on_the_first_piece() {
    let b = board(&[
        ("a1", S, Rank::Engineer),
        ("a6", N, Rank::Major),
        ("c1", S, Rank::Colonel),
    ]);
    let t = b.targets(p("a1"), MoveRules::default());
    assert!(t.contains(&p("a6")), "attack the major");
    // a7 is not reached through the major, only the long way round by rows 1 and 10.
    assert!(t.contains(&p("a7")));
    assert!(!t.contains(&p("c1")), "never onto an own piece");
    assert!(
        t.contains(&p("d1")),
        "d1 the long way round, by rows 5 and column e"
    );
    assert!(
        t.contains(&p("a5")) && t.contains(&p("e5")),
        "round the corner along row 5"
    );
    assert!(t.contains(&p("c6")), "and over the centre crossing");
    // A captain in the same place only goes straight.
    let b = board(&[("a1", S, Rank::Captain), ("a6", N, Rank::Major)]);
    let t = b.targets(p("a1"), MoveRules::default());
    assert!(
        t.contains(&p("a6")) && !t.contains(&p("a7")),
        "the slide stops on the major"
    );
    assert!(!t.contains(&p("e5")) && !t.contains(&p("b5")), "no turning");
}

#[test]
fn immobile_pieces_and_headquarters_never_move() {
    let b = board(&[
        ("c1", S, Rank::Landmine),
        ("b0", S, Rank::Flag),
        ("d0", S, Rank::Major),
    ]);
    for at in ["c1", "b0", "d0"] {
        assert!(b.targets(p(at), MoveRules::default()).is_empty(), "{at}");
    }
    assert!(b.moves(S, MoveRules::default()).is_empty());
}

#[test]
fn camps_protect_unless_the_option_says_otherwise() {
    let b = board(&[
        ("b5", S, Rank::General),
        ("b4", N, Rank::Captain),
        ("a5", N, Rank::Captain),
    ]);
    let safe = b.targets(p("b5"), MoveRules::default());
    assert!(!safe.contains(&p("b4")) && safe.contains(&p("a5")));
    let open = MoveRules {
        camps_safe: false,
        ..MoveRules::default()
    };
    assert!(b.targets(p("b5"), open).contains(&p("b4")));
    // A camp also admits no own piece on top of another, but an empty camp is a step away.
    let b = board(&[("c2", S, Rank::Major)]);
    assert!(b.targets(p("c2"), MoveRules::default()).contains(&p("c3")));
}

#[test]
fn bombs_keep_out_of_the_enemy_headquarters_under_the_option() {
    let b = board(&[("b10", S, Rank::Bomb), ("b11", N, Rank::Flag)]);
    assert!(
        b.targets(p("b10"), MoveRules::default())
            .contains(&p("b11"))
    );
    let strict = MoveRules {
        bombs_enter_headquarters: false,
        ..MoveRules::default()
    };
    assert!(!b.targets(p("b10"), strict).contains(&p("b11")));
}

#[test]
fn from_the_classic_start_every_move_is_sensible() {
    let south = Deployment::classic("稳守 Steady defence").unwrap();
    let north = south.mirror();
    let b = Board::from_deployments(&south, &north);
    let moves = b.moves(S, MoveRules::default());
    assert!(!moves.is_empty());
    for m in &moves {
        let piece = b.get(m.from).unwrap();
        assert!(!piece.rank.immobile() && !m.from.is_headquarters(), "{m}");
        assert_ne!(b.get(m.to).map(|q| q.side), Some(S), "{m}");
    }
    // Nothing reaches the other half through the mountains at b and d.
    assert!(moves.iter().all(|m| m.to.row() <= 6));
    let text = moves[0].to_string();
    assert_eq!(text.parse::<Move>().unwrap(), moves[0]);
    assert_eq!("c10c11".parse::<Move>().unwrap().to.to_string(), "c11");
    assert!("a1".parse::<Move>().is_err());
}

#[test]
fn a_refused_move_says_why() {
    use qiguan_core::junqi::NoMove;
    let b = board(&[
        ("b0", S, Rank::Flag),
        ("d0", S, Rank::Captain),
        ("a1", S, Rank::Captain),
        ("c1", S, Rank::Colonel),
        ("b2", N, Rank::Major),
        ("b1", S, Rank::Lieutenant),
        ("e3", S, Rank::Major),
        ("e5", S, Rank::Captain),
        ("e6", N, Rank::Landmine),
    ]);
    let rules = MoveRules::default();
    let why = |from: &str, to: &str| b.why_not(p(from), p(to), rules);
    assert_eq!(why("a1", "a2"), None, "a legal step");
    assert_eq!(why("a3", "a4"), None, "no piece: nothing to explain");
    assert_eq!(why("b0", "a0"), Some(NoMove::Immobile));
    assert_eq!(why("d0", "d1"), Some(NoMove::InHeadquarters));
    assert_eq!(why("b1", "c1"), Some(NoMove::OwnPiece));
    assert_eq!(why("a1", "b2"), Some(NoMove::CampSafe));
    assert_eq!(why("a1", "e5"), Some(NoMove::OnlyEngineerTurns));
    assert_eq!(
        why("e3", "e7"),
        Some(NoMove::RailBlocked),
        "e5 stands in the way"
    );
    assert_eq!(why("b1", "b3"), Some(NoMove::NoRoad), "two steps");
    // Straight over a mountain: not "only the engineer turns" (the engineer's rail path goes
    // round it, but the player meant to cross).
    let mountain = board(&[("b5", S, Rank::Captain), ("d4", S, Rank::Major)]);
    let why = |from: &str, to: &str| mountain.why_not(p(from), p(to), rules);
    assert_eq!(why("b5", "b6"), Some(NoMove::Mountain));
    assert_eq!(why("b5", "b7"), Some(NoMove::Mountain));
    assert_eq!(why("d4", "d6"), Some(NoMove::Mountain));
    assert_eq!(
        why("b5", "c6"),
        Some(NoMove::OnlyEngineerTurns),
        "round the corner at c5, not over a mountain"
    );
    let why = |from: &str, to: &str| b.why_not(p(from), p(to), rules);
    assert_eq!(
        why("e5", "e6"),
        None,
        "any piece may attack a landmine by default"
    );
    let strict = MoveRules {
        landmines_attackable: false,
        ..rules
    };
    assert_eq!(
        b.why_not(p("e5"), p("e6"), strict),
        Some(NoMove::LandmineNeedsEngineer)
    );
    // Over every pair of points: refused exactly when it is not a legal move.
    for (from, _) in b.pieces() {
        for to in Point::all() {
            let legal = b.targets(from, rules).contains(&to);
            assert_eq!(legal, b.why_not(from, to, rules).is_none(), "{from}{to}");
        }
    }
}
