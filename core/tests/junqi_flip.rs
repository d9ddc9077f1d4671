//! Junqi flip mode (翻棋, ../shared/RULES.md): the authority's face-down deal, colours fixed by
//! the first flips, no attacking face-down pieces, the landmine-guarded flag, bombs that never
//! attack a flag, headquarters, the 40-ply quiet draw, and random games that never leak a
//! face-down piece and replay exactly.
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

use proptest::prelude::*;
use qiguan_core::junqi::{
    Board, FlipColours, Junqi, JunqiMove, JunqiOptions, Move, MoveRules, Piece, Point, Rank, Side,
    Visibility,
};
use qiguan_core::{
    Action, Actor, EndReason, GameResult, Match, Rules, Seat, ToAct, Viewer, seeded_pick,
};
use std::collections::HashMap;

const S0: Actor = Actor::Seat(Seat::FIRST);
const S1: Actor = Actor::Seat(Seat::SECOND);

fn flip_options() -> JunqiOptions {
    JunqiOptions {
        visibility: Visibility::Flip,
        ..JunqiOptions::default()
    }
}

fn p(text: &str) -> Point {
    text.parse().unwrap()
}

fn letter(rank: Rank) -> char {
    match rank.level() {
        Some(level) => (b'0' + level) as char,
        None => match rank {
            Rank::Bomb => 'B',
            Rank::Landmine => 'L',
            _ => 'F',
        },
    }
}

/// A deal with these pieces where given; the rest of both sets fill the other points in order.
fn deal(placed: &[(&str, Side, Rank)]) -> String {
    let placed: HashMap<Point, Piece> = placed
        .iter()
        .map(|&(at, side, rank)| (p(at), Piece { side, rank }))
        .collect();
    let mut rest: Vec<Piece> = [Side::South, Side::North]
        .into_iter()
        .flat_map(|side| {
            Rank::ALL
                .into_iter()
                .flat_map(move |rank| std::iter::repeat_n(Piece { side, rank }, rank.count()))
        })
        .collect();
    for piece in placed.values() {
        let i = rest.iter().position(|q| q == piece).unwrap();
        rest.remove(i);
    }
    let mut rest = rest.into_iter();
    let mut text = String::new();
    for at in Point::all().filter(|q| !q.is_camp()) {
        let piece = placed
            .get(&at)
            .copied()
            .unwrap_or_else(|| rest.next().unwrap());
        text.push(if piece.side == Side::South { 's' } else { 'n' });
        text.push(letter(piece.rank));
    }
    text
}

fn dealt(options: &JunqiOptions, placed: &[(&str, Side, Rank)]) -> Match<Junqi> {
    let mut game = Match::new(options, None).unwrap();
    game.apply_text(Actor::Authority, &format!("deal:{}", deal(placed)))
        .unwrap();
    game
}

fn play(game: &mut Match<Junqi>, actor: Actor, action: &str) {
    game.apply_text(actor, action)
        .unwrap_or_else(|e| panic!("{action} by {actor}: {e}"));
}

fn legal(game: &Match<Junqi>, actor: Actor) -> Vec<String> {
    game.game()
        .legal_moves(actor)
        .iter()
        .map(ToString::to_string)
        .collect()
}

fn view(game: &Match<Junqi>, seat: Seat) -> serde_json::Value {
    serde_json::to_value(game.game().view(Viewer::Seat(seat))).unwrap()
}

#[test]
fn the_authority_deals_everything_face_down_and_nobody_sees_it() {
    let mut game: Match<Junqi> = Match::new(&flip_options(), None).unwrap();
    assert_eq!(game.to_act(), ToAct::Chance);
    assert!(legal(&game, S0).is_empty());
    assert_eq!(
        game.apply_text(S0, "flip:a0").unwrap_err().code(),
        "not-your-turn"
    );
    // A seat cannot deal, and a deal must hold both full sets.
    let text = deal(&[]);
    assert!(game.apply_text(S0, &format!("deal:{text}")).is_err());
    let short = &text[..98];
    let err = game
        .apply_text(Actor::Authority, &format!("deal:{short}"))
        .unwrap_err();
    assert!(err.to_string().contains("100 characters"), "{err}");
    let two_flags = text.replacen("s9", "sF", 1);
    let err = game
        .apply_text(Actor::Authority, &format!("deal:{two_flags}"))
        .unwrap_err();
    assert!(
        err.to_string().contains("the deal has 2 of South's"),
        "{err}"
    );
    assert_eq!(game.version(), 0, "refused deals change nothing");

    let added = game.resolve_chance(&mut seeded_pick(7)).unwrap();
    assert_eq!(added.len(), 1);
    assert_eq!(added[0].by, Actor::Authority);
    assert!(added[0].action.starts_with("deal:"));
    assert_eq!(game.to_act(), ToAct::Seat(Seat::FIRST));
    let board = game.game().board();
    assert_eq!(board.pieces().count(), 50);
    assert!(
        board
            .pieces()
            .all(|(q, _)| !q.is_camp() && board.is_face_down(q))
    );
    for seat in [Seat::FIRST, Seat::SECOND] {
        let v = view(&game, seat);
        assert_eq!(v["pieces"].as_array().unwrap().len(), 0, "{v}");
        assert_eq!(v["face_down"].as_array().unwrap().len(), 50);
        assert_eq!(v["colours"], serde_json::json!([null, null]));
        assert_eq!(v["landmines_left"], serde_json::json!([3, 3]));
    }
    assert_eq!(view(&game, Seat::FIRST), view(&game, Seat::SECOND));
    // Every face-down piece may be turned; nothing may move yet.
    let moves = legal(&game, S0);
    assert_eq!(moves.len(), 50);
    assert!(moves.iter().all(|m| m.starts_with("flip:")));
    // The four headquarters pieces were dealt there, so they may move once face up.
    assert_eq!(v_len(&view(&game, Seat::FIRST), "free_in_headquarters"), 4);
    let locked = JunqiOptions {
        headquarters_locked: true,
        ..flip_options()
    };
    let mut g: Match<Junqi> = Match::new(&locked, None).unwrap();
    g.resolve_chance(&mut seeded_pick(7)).unwrap();
    assert_eq!(v_len(&view(&g, Seat::FIRST), "free_in_headquarters"), 0);
    // Two seeds deal differently; the same seed deals the same.
    let deal_of = |seed| {
        let mut g: Match<Junqi> = Match::new(&flip_options(), None).unwrap();
        g.resolve_chance(&mut seeded_pick(seed)).unwrap()[0]
            .action
            .clone()
    };
    assert_eq!(deal_of(7), added[0].action);
    assert_ne!(deal_of(8), added[0].action);
}

fn v_len(v: &serde_json::Value, key: &str) -> usize {
    v[key].as_array().unwrap().len()
}

#[test]
fn the_first_piece_turned_fixes_the_turners_colour() {
    let mut game = dealt(
        &flip_options(),
        &[
            ("a5", Side::North, Rank::Major),
            ("e6", Side::South, Rank::Captain),
        ],
    );
    play(&mut game, S0, "flip:a5");
    let v = view(&game, Seat::SECOND);
    assert_eq!(v["colours"], serde_json::json!(["north", "south"]));
    assert_eq!(v["pieces"][0]["rank"], "major");
    assert_eq!(game.game().side_of_seat(Seat::FIRST), Some(Side::North));
    // The second seat may turn up either colour, and may not move North's major.
    assert!(!legal(&game, S1).iter().any(|m| m.starts_with("a5")));
    play(&mut game, S1, "flip:e6");
    assert_eq!(
        game.apply_text(S0, "e6e7").unwrap_err().code(),
        "not-your-piece",
        "the first seat may not move South's captain"
    );
}

#[test]
fn with_the_option_colours_wait_for_two_of_a_kind_in_a_row() {
    let options = JunqiOptions {
        flip_colours: FlipColours::TwoInARow,
        ..flip_options()
    };
    let mut game = dealt(
        &options,
        &[
            ("a5", Side::South, Rank::Engineer),
            ("b5", Side::North, Rank::Engineer),
            ("c5", Side::North, Rank::Captain),
            ("d5", Side::North, Rank::Lieutenant),
        ],
    );
    play(&mut game, S0, "flip:a5"); // first seat: South
    play(&mut game, S1, "flip:b5"); // second seat: North
    play(&mut game, S0, "flip:c5"); // first seat: North, not twice in a row
    assert_eq!(
        view(&game, Seat::FIRST)["colours"],
        serde_json::json!([null, null])
    );
    // Until colours are fixed nobody moves a piece.
    assert!(legal(&game, S1).iter().all(|m| m.starts_with("flip:")));
    play(&mut game, S1, "flip:d5"); // second seat: North twice
    assert_eq!(
        view(&game, Seat::FIRST)["colours"],
        serde_json::json!(["south", "north"])
    );
}

/// Seat 0 plays North from its first flip; South's flag at b0 is guarded by three landmines.
#[test]
fn a_flag_falls_only_after_its_landmines_and_never_to_a_bomb() {
    let mut game = dealt(
        &flip_options(),
        &[
            ("b1", Side::North, Rank::Engineer),
            ("c0", Side::North, Rank::Bomb),
            ("b0", Side::South, Rank::Flag),
            ("a1", Side::South, Rank::Landmine),
            ("c1", Side::South, Rank::Landmine),
            ("a0", Side::South, Rank::Landmine),
        ],
    );
    play(&mut game, S0, "flip:b1");
    play(&mut game, S1, "flip:b0");
    // A face-down piece can be neither entered nor attacked: the engineer may only step into
    // the empty camp.
    let from_b1: Vec<String> = legal(&game, S0)
        .into_iter()
        .filter(|m| m.starts_with("b1"))
        .collect();
    assert_eq!(from_b1, ["b1b2"]);
    assert_eq!(
        game.apply_text(S0, "b1a1").unwrap_err().code(),
        "cannot-reach"
    );
    play(&mut game, S0, "flip:a1");
    play(&mut game, S1, "flip:c1");
    let moves = legal(&game, S0);
    assert!(moves.contains(&"b1a1".to_string()), "{moves:?}");
    assert!(
        !moves.contains(&"b1b0".to_string()),
        "the flag is guarded while landmines stand"
    );
    play(&mut game, S0, "b1a1"); // the engineer removes the landmine and stays
    assert_eq!(
        game.game().board().get(p("a1")).map(|q| q.rank),
        Some(Rank::Engineer)
    );
    play(&mut game, S1, "flip:a0");
    play(&mut game, S0, "a1a0");
    play(&mut game, S1, "flip:c0"); // turning up the opponent's bomb
    play(&mut game, S0, "a0a1");
    play(&mut game, S1, "flip:e11");
    assert_eq!(
        view(&game, Seat::FIRST)["landmines_left"],
        serde_json::json!([1, 3])
    );
    play(&mut game, S0, "a1c1"); // along the rail through the emptied b1
    assert_eq!(
        view(&game, Seat::FIRST)["landmines_left"],
        serde_json::json!([0, 3])
    );
    play(&mut game, S1, "flip:e10");
    let moves = legal(&game, S0);
    assert!(
        !moves.contains(&"c0b0".to_string()),
        "a bomb never attacks a flag"
    );
    play(&mut game, S0, "c1b1");
    play(&mut game, S1, "flip:e9");
    assert!(legal(&game, S0).contains(&"b1b0".to_string()));
    play(&mut game, S0, "b1b0");
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.reason, EndReason::FlagCaptured);
    assert_eq!(
        outcome.result,
        GameResult::Win {
            winners: vec![Seat::FIRST]
        }
    );
}

#[test]
fn forty_plies_without_a_battle_or_a_flip_draw() {
    let mut game = dealt(
        &flip_options(),
        &[
            ("a2", Side::North, Rank::Captain),
            ("a9", Side::South, Rank::Captain),
        ],
    );
    play(&mut game, S0, "flip:a2");
    play(&mut game, S1, "flip:a9");
    for i in 0..40 {
        assert!(game.outcome().is_none(), "over after {i} quiet plies");
        let (actor, there, back) = if i % 2 == 0 {
            (S0, "a2b2", "b2a2")
        } else {
            (S1, "a9b9", "b9a9")
        };
        play(
            &mut game,
            actor,
            if (i / 2) % 2 == 0 { there } else { back },
        );
    }
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.result, GameResult::Draw);
    assert_eq!(outcome.reason, EndReason::MoveLimit);
    // Once it is over, everything shows.
    let v = view(&game, Seat::FIRST);
    assert_eq!(v_len(&v, "pieces"), 50);
    assert_eq!(v_len(&v, "face_down"), 0);
}

#[test]
fn flip_movement_rules_on_a_hand_built_board() {
    let rules = MoveRules {
        flip: true,
        ..MoveRules::default()
    };
    let mut board = Board::default();
    let piece = |side, rank| Some(Piece { side, rank });
    // A major dealt into a headquarters may move while it is free; moved in, a piece stays.
    board.set(p("b0"), piece(Side::South, Rank::Major));
    assert!(
        board.targets(p("b0"), rules).is_empty(),
        "locked by default"
    );
    board.set_free(p("b0"), true);
    assert_eq!(board.targets(p("b0"), rules).len(), 3);
    board.set(p("b0"), None);
    board.set(p("b1"), piece(Side::South, Rank::Major));
    board.set(p("b0"), board.get(p("b1")));
    board.set(p("b1"), None);
    assert!(
        board.targets(p("b0"), rules).is_empty(),
        "moving in locks it"
    );
    // Landmines: by default anything may attack one; with the option only engineers and bombs.
    let mut board = Board::default();
    board.set(p("c6"), piece(Side::North, Rank::Landmine));
    board.set(p("c5"), piece(Side::South, Rank::General));
    board.set(p("b5"), piece(Side::South, Rank::Engineer));
    board.set(p("b6"), piece(Side::South, Rank::Bomb));
    let attacks = |board: &Board, rules: MoveRules| -> Vec<String> {
        board
            .moves(Side::South, rules)
            .into_iter()
            .filter(|m: &Move| m.to == p("c6"))
            .map(|m| m.to_string())
            .collect()
    };
    assert_eq!(attacks(&board, rules).len(), 3);
    let careful = MoveRules {
        landmines_attackable: false,
        ..rules
    };
    let mut list = attacks(&board, careful);
    list.sort();
    assert_eq!(list, ["b5c6", "b6c6"]);
}

fn play_random(seed: u64, options: &JunqiOptions) -> Match<Junqi> {
    let mut game: Match<Junqi> = Match::new(options, None).unwrap();
    game.resolve_chance(&mut seeded_pick(seed)).unwrap();
    let mut pick = seeded_pick(seed.wrapping_add(1));
    for _ in 0..600 {
        let ToAct::Seat(seat) = game.to_act() else {
            break;
        };
        let moves = game.game().legal_moves(Actor::Seat(seat));
        let m = moves[pick(moves.len())].clone();
        game.apply(Actor::Seat(seat), &Action::Play(m)).unwrap();
        assert_views_hide_face_down(&game);
    }
    game
}

/// Both seats (and spectators) see exactly the face-up pieces, with their true identities,
/// and of face-down ones only where they lie.
fn assert_views_hide_face_down(game: &Match<Junqi>) {
    let g = game.game();
    let board = g.board();
    let first = view(game, Seat::FIRST);
    assert_eq!(first, view(game, Seat::SECOND));
    assert_eq!(
        first,
        serde_json::to_value(g.view(Viewer::Spectator)).unwrap()
    );
    let over = game.outcome().is_some();
    for seen in first["pieces"].as_array().unwrap() {
        let at = p(seen["at"].as_str().unwrap());
        let real = board.get(at).unwrap();
        assert!(
            over || !board.is_face_down(at),
            "a face-down piece shows at {at}"
        );
        assert_eq!(seen["rank"], serde_json::to_value(real.rank).unwrap());
    }
    let face_down = board
        .pieces()
        .filter(|(q, _)| board.is_face_down(*q))
        .count();
    if !over {
        assert_eq!(v_len(&first, "face_down"), face_down);
        assert_eq!(v_len(&first, "pieces") + face_down, board.pieces().count());
    }
    // The battle panel: every fallen piece fought face up, so each side's losses are known
    // and what is left is the rest of its army, matching the board.
    let typed = g.view(Viewer::Spectator);
    for side in [Side::South, Side::North] {
        let lost = &typed.lost[side as usize];
        assert!(lost.iter().all(Option::is_some), "{lost:?}");
        let left = typed.left_by_rank(side).expect("dealt");
        for (i, rank) in Rank::ALL.iter().enumerate() {
            let on_board = board
                .pieces()
                .filter(|(_, q)| q.side == side && q.rank == *rank)
                .count();
            assert_eq!(left[i], on_board, "{side:?} {rank:?}");
        }
        assert_eq!(typed.left_count(side), Some(25 - lost.len()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_flip_games_never_panic_never_leak_and_replay(
        seed in any::<u64>(),
        two_in_a_row in any::<bool>(),
        locked in any::<bool>(),
        careful in any::<bool>(),
    ) {
        let options = JunqiOptions {
            flip_colours: if two_in_a_row { FlipColours::TwoInARow } else { FlipColours::FirstTurn },
            headquarters_locked: locked,
            landmines_attackable: !careful,
            ..flip_options()
        };
        let game = play_random(seed, &options);
        let replayed: Match<Junqi> = Match::from_record(&game.record()).unwrap();
        prop_assert_eq!(view(&replayed, Seat::FIRST), view(&game, Seat::FIRST));
        prop_assert_eq!(replayed.outcome(), game.outcome());
        prop_assert_eq!(replayed.to_act(), game.to_act());
    }
}

#[test]
fn random_flip_games_end() {
    let ended = (0..40)
        .filter(|&seed| play_random(seed, &flip_options()).outcome().is_some())
        .count();
    assert_eq!(ended, 40, "every random flip game ends within 600 plies");
}

#[test]
fn a_flip_text_round_trips() {
    let m: JunqiMove = "flip:c10".parse().unwrap();
    assert_eq!(m, JunqiMove::Flip(p("c10")));
    assert_eq!(m.to_string(), "flip:c10");
    assert!("flip:z9".parse::<JunqiMove>().is_err());
}

#[test]
fn the_uniform_index_stays_in_range_and_reaches_every_value() {
    let mut source = seeded_pick(3);
    let mut seen = [0usize; 7];
    for _ in 0..7000 {
        let i = qiguan_core::uniform_index(7, || source(usize::MAX) as u64);
        seen[i] += 1;
    }
    assert!(seen.iter().all(|&n| n > 800), "{seen:?}");
    assert_eq!(qiguan_core::uniform_index(1, || unreachable!()), 0);
}
