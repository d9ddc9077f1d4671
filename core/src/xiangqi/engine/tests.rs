use super::*;
use crate::xiangqi::{XiangqiOptions, XiangqiSetup};

fn game(fen: &str) -> Xiangqi {
    Xiangqi::start(
        &XiangqiOptions::default(),
        Some(&XiangqiSetup { fen: fen.into() }),
    )
    .expect("a position")
}

fn best(fen: &str, depth: u32) -> Found {
    let mut e = Engine::new(16);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    e.search(&game(fen), &limits, &Style::default(), |_| {})
}

#[test]
fn finds_a_mate_in_one() {
    // The chariot on a9 holds the ninth rank; the other one mates on the tenth.
    let found = best("4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1", 3);
    assert_eq!(found.best.map(|m| m.to_string()).as_deref(), Some("b1b10"));
    assert_eq!(found.score, Score::Mate(1));
}

#[test]
fn takes_the_chariot_rather_than_the_cannon() {
    // Black's chariot on e7 is free for the red chariot, and worth more than the cannon.
    let found = best("3k5/9/9/4r4/9/9/9/9/c3R4/5K3 w - - 0 1", 4);
    assert_eq!(found.best.map(|m| m.to_string()).as_deref(), Some("e2e7"));
}

#[test]
fn a_node_limit_gives_the_same_answer_every_time() {
    let limits = Limits {
        nodes: Some(30_000),
        ..Limits::default()
    };
    let g = game(crate::xiangqi::START_FEN);
    let run = || {
        let mut e = Engine::new(8);
        let f = e.search(&g, &limits, &Style::default(), |_| {});
        (f.best, f.nodes, f.depth)
    };
    let first = run();
    assert!(first.0.is_some());
    assert_eq!(first, run());
}

#[test]
fn the_stop_flag_ends_a_search_with_a_move() {
    let g = game(crate::xiangqi::START_FEN);
    let mut e = Engine::new(8);
    let stop = e.stop_flag();
    let mut iterations = 0;
    let found = e.search(&g, &Limits::default(), &Style::default(), |info| {
        iterations += 1;
        if info.depth >= 3 {
            stop.store(true, Ordering::Relaxed);
        }
    });
    assert!(found.best.is_some());
    assert!(
        found.depth >= 3 && found.depth <= 4,
        "stopped at {}",
        found.depth
    );
}

#[test]
fn a_finished_game_has_no_move() {
    // Red is mated.
    let found = best("3k5/9/9/9/9/9/9/9/3r5/r2K5 w - - 0 1", 2);
    assert_eq!(found.best, None);
}

#[test]
fn every_level_plays_a_legal_move() {
    let g = game(crate::xiangqi::START_FEN);
    for n in 1..=LEVELS {
        let level = Level::new(n, 7);
        let mut e = Engine::new(4);
        let limits = Limits {
            nodes: Some(20_000),
            ..level.limits.clone()
        };
        let found = e.search(&g, &limits, &level.style, |_| {});
        let mv = found.best.expect("a move");
        assert!(g.position().is_legal(mv), "level {n}: {mv}");
    }
}

/// A game from `fen` after `moves`.
fn played(fen: &str, moves: &[&str]) -> Xiangqi {
    let mut g = game(fen);
    for m in moves {
        let mv: Move = m.parse().expect("a move");
        g.play_move(mv).expect("legal");
    }
    g
}

fn winner_after(g: &Xiangqi, mv: &str) -> Option<Color> {
    let mut next = g.clone();
    next.play_move(mv.parse().expect("a move")).expect("legal");
    let outcome = next.outcome()?;
    match &outcome.result {
        crate::game::GameResult::Win { winners } if winners.contains(&seat_of(Color::Red)) => {
            Some(Color::Red)
        }
        crate::game::GameResult::Win { .. } => Some(Color::Black),
        _ => None,
    }
}

#[test]
fn never_checks_into_a_losing_repetition() {
    // Red's chariot has checked the bare general up and down twice; a ninth ply of the
    // same would be perpetual check, which loses.
    let g = played(
        "4k4/9/R8/9/9/9/9/9/9/3K5 w - - 0 1",
        &[
            "a8a10", "e10e9", "a10a9", "e9e10", "a9a10", "e10e9", "a10a9", "e9e10",
        ],
    );
    assert_eq!(
        winner_after(&g, "a9a10"),
        Some(Color::Black),
        "the rules' verdict"
    );
    let mut e = Engine::new(16);
    let limits = Limits {
        depth: Some(6),
        ..Limits::default()
    };
    let found = e.search(&g, &limits, &Style::default(), |_| {});
    let mv = found.best.expect("a move").to_string();
    assert_ne!(mv, "a9a10");
    assert_ne!(winner_after(&g, &mv), Some(Color::Black));
    assert!(
        matches!(found.score, Score::Cp(v) if v > 500)
            || matches!(found.score, Score::Mate(n) if n > 0)
    );
}

#[test]
fn steers_into_a_repetition_the_opponent_may_not_keep_up() {
    // Black can only stop the mate on b10 by checking with its chariot forever; Red's
    // general steps back, so that Black must either break off (and be mated) or repeat
    // its checks, which loses.
    let g = played(
        "4k4/R8/9/9/9/9/9/1R7/7r1/3K5 b - - 0 1",
        &["h2h1", "d1d2", "h1h2"],
    );
    let mut e = Engine::new(16);
    let limits = Limits {
        depth: Some(6),
        ..Limits::default()
    };
    let found = e.search(&g, &limits, &Style::default(), |_| {});
    assert_eq!(found.best.map(|m| m.to_string()).as_deref(), Some("d2d1"));
    // A win by the rules, scored as a mate as near as the repetition.
    assert!(
        matches!(found.score, Score::Mate(n) if n > 0 && n <= 3),
        "scored {:?}",
        found.score
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]
    /// From positions reached by random play, the engine's move is always legal and the game
    /// not over; none when it is over.
    #[test]
    fn the_engine_always_answers_with_a_legal_move(
        choices in proptest::collection::vec(proptest::prelude::any::<u16>(), 0..80)
    ) {
        let mut g = game(crate::xiangqi::START_FEN);
        for c in choices {
            if g.outcome().is_some() {
                break;
            }
            let moves = g.position().legal_moves();
            let m = moves[c as usize % moves.len()];
            g.play_move(m).expect("a listed move applies");
        }
        let mut e = Engine::new(1);
        let limits = Limits { nodes: Some(3_000), ..Limits::default() };
        let found = e.search(&g, &limits, &Style::default(), |_| {});
        match found.best {
            Some(m) => {
                proptest::prop_assert!(g.outcome().is_none());
                proptest::prop_assert!(g.why_illegal(m).is_none(), "{} is illegal", m);
            }
            None => proptest::prop_assert!(g.outcome().is_some() || g.position().legal_moves().is_empty()),
        }
    }
}

#[test]
fn several_lines_come_best_first_each_with_its_own_move() {
    let mut e = Engine::new(16);
    let limits = Limits {
        depth: Some(4),
        lines: 3,
        ..Limits::default()
    };
    let mut seen: Vec<Info> = Vec::new();
    let found = e.search(
        &game(crate::xiangqi::START_FEN),
        &limits,
        &Style::default(),
        |info| seen.push(info.clone()),
    );
    let last: Vec<&Info> = seen.iter().filter(|i| i.depth == 4).collect();
    assert_eq!(
        last.iter().map(|i| i.multipv).collect::<Vec<_>>(),
        [1, 2, 3],
        "three lines at each depth, best first"
    );
    let firsts: Vec<Move> = last.iter().map(|i| i.pv[0]).collect();
    assert!(
        firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2],
        "{firsts:?}"
    );
    let cp = |s: Score| match s {
        Score::Cp(v) => v,
        Score::Mate(n) => 100_000 / n,
    };
    assert!(cp(last[0].score) >= cp(last[1].score) && cp(last[1].score) >= cp(last[2].score));
    assert_eq!(found.best, Some(firsts[0]));
    // Each line's score is exact, not a bound: the second line's move, searched alone one ply
    // shallower, scores the same (within what transposition-table hits may shift).
    let mut alone = Engine::new(16);
    let mut after = game(crate::xiangqi::START_FEN);
    let _ = after.play_move(firsts[1]);
    let reply = alone.search(
        &after,
        &Limits {
            depth: Some(3),
            ..Limits::default()
        },
        &Style::default(),
        |_| {},
    );
    let (line, alone) = (cp(last[1].score), -cp(reply.score));
    assert!(
        (line - alone).abs() <= 40,
        "line 2 scores {line}, its move alone {alone}"
    );
}

#[test]
fn more_lines_than_moves_report_every_move_once() {
    // Two legal moves: the general up, the soldier on.
    let mut e = Engine::new(1);
    let limits = Limits {
        depth: Some(2),
        lines: 5,
        ..Limits::default()
    };
    let g = game("4rk3/9/9/9/9/9/P8/9/9/3K5 w - - 0 1");
    let legal = g.position().legal_moves().len();
    let mut ranks = Vec::new();
    e.search(&g, &limits, &Style::default(), |info| {
        if info.depth == 2 {
            ranks.push(info.multipv);
        }
    });
    assert_eq!(ranks, (1..=legal.min(5)).collect::<Vec<_>>());
}

#[test]
fn several_threads_find_what_one_finds_and_stop_together() {
    let mut e = Engine::new(16);
    e.set_threads(3);
    let limits = Limits {
        depth: Some(5),
        ..Limits::default()
    };
    let g = game("3k5/9/9/4r4/9/9/9/9/c3R4/5K3 w - - 0 1");
    let found = e.search(&g, &limits, &Style::default(), |_| {});
    assert_eq!(found.best.map(|m| m.to_string()).as_deref(), Some("e2e7"));
    let mate = e.search(
        &game("4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1"),
        &limits,
        &Style::default(),
        |_| {},
    );
    assert_eq!(mate.score, Score::Mate(1));
    // Stopped from outside, every thread stops (the search returns) with a move.
    let stop = e.stop_flag();
    let mut iterations = 0;
    let g = game(crate::xiangqi::START_FEN);
    let found = e.search(&g, &Limits::default(), &Style::default(), |_| {
        iterations += 1;
        if iterations == 3 {
            stop.store(true, Ordering::SeqCst);
        }
    });
    stop.store(false, Ordering::SeqCst);
    assert!(found.best.is_some());
    assert!(found.depth >= 3);
}

#[test]
fn only_the_top_levels_take_more_threads_and_a_fixed_level_never_does() {
    for n in 1..=LEVELS {
        let level = Level::new(n, 1);
        assert!((1..=4).contains(&level.threads), "level {n}");
        if n < 9 {
            assert_eq!(level.threads, 1, "level {n}");
        }
        assert_eq!(Level::fixed(n, 1).threads, 1, "level {n} for the server");
    }
}

#[test]
fn a_new_engine_evaluates_with_the_embedded_net_and_can_switch_back() {
    let mut e = Engine::new(1);
    let embedded = nnue::embedded().expect("the embedded net reads");
    assert!(e.net().is_some_and(|n| Arc::ptr_eq(n, &embedded)));
    e.use_net_file("classical").expect("a name");
    assert!(e.net().is_none());
    assert!(e.use_net_file("/nowhere/at/all.qxnn").is_err());
    assert!(e.net().is_none(), "a failed load keeps what was there");
    e.use_net_file("embedded").expect("a name");
    assert!(e.net().is_some());
}

#[test]
fn a_move_that_beat_the_best_before_a_node_limit_stops_the_search_is_played() {
    // With a node limit the search runs exactly as a depth-limited one until it stops, so the
    // last finished iteration's choice is `best(fen, depth)`. A move that beat it in the
    // unfinished iteration is played instead: somewhere among these positions and budgets
    // the answer is already the next iteration's choice (without the rule, never).
    let fens = [
        "rnbakabCr/9/5c1c1/p1p1p1p1p/9/P8/2P1P1P1P/1C7/9/RNBAKABNR w - - 1 3",
        "rnbakabCr/9/5c3/p1p1p1p1p/9/P8/2P1P1PcP/6NC1/9/RNBAKAB1R b - - 4 4",
        "1nbakabC1/r7r/5c3/p1p1p1p1p/9/P8/2P1P1PcP/6NC1/8R/RNBAKAB2 w - - 7 6",
        "1nbakabC1/1r6r/5c3/p1p1p1p1p/9/P8/2P1P1PcP/6NC1/RR7/1NBAKAB2 b - - 10 7",
    ];
    let mut ahead = 0;
    for fen in fens {
        for nodes in (4_096..=32_768).step_by(4_096) {
            let limits = Limits {
                nodes: Some(nodes),
                ..Limits::default()
            };
            let found = Engine::new(16).search(&game(fen), &limits, &Style::default(), |_| {});
            let finished = best(fen, found.depth).best;
            if found.best != finished && found.best == best(fen, found.depth + 1).best {
                ahead += 1;
            }
        }
    }
    assert!(ahead > 0, "no cut iteration's better move was ever played");
}
