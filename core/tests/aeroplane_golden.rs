//! Golden Aeroplane chess games with scripted dice. Every expected spot below was worked out by
//! hand from ../shared/RULES.md, counting steps from each colour's take-off point:
//!
//! - Red (colour 0) stands on track square `step - 1`; Blue (colour 2) on `(step + 25) % 52`.
//!   So Red's step s and Blue's step t share a square when `t = (s + 26 - 1) % 52 + 1` for
//!   `s <= 26`, e.g. Red 23 = Blue 49, Red 18 = Blue 44, Red 30 = Blue 4.
//! - Own colour at steps 2, 6, …, 50; a landing there jumps 4 (not from 50); 18 flies to 30.
//! - Blue's home column turns off at Red's step 24; Red's flight 18→30 crosses Blue's step 53.

use qiguan_core::aeroplane::{
    Aeroplane, AeroplaneOptions, AeroplaneSetup, LaunchRule, MoveKind, Phase, Spot, ThreeSixes,
};
use qiguan_core::{Actor, AnyMatch, EndReason, GameResult, Match, Record, Rules, Seat, ToAct};

const RED: Seat = Seat::FIRST;
const BLUE: Seat = Seat::SECOND;
const H: Spot = Spot::Hangar;

fn s(step: u8) -> Spot {
    Spot::Step(step)
}

fn two_seats() -> AeroplaneOptions {
    AeroplaneOptions {
        seats: 2,
        ..AeroplaneOptions::default()
    }
}

fn start(options: AeroplaneOptions, planes: Vec<[Spot; 4]>, first: Seat) -> Match<Aeroplane> {
    let setup = AeroplaneSetup {
        planes,
        first: Some(first),
    };
    Match::new(&options, Some(&setup)).expect("setup")
}

/// The seat to play asks for a roll, the authority rolls `die`, and, if `mv` is given, the seat
/// plays it.
fn turn(game: &mut Match<Aeroplane>, die: u8, mv: Option<&str>) {
    let ToAct::Seat(seat) = game.to_act() else {
        panic!("no seat to roll: {:?}", game.to_act());
    };
    game.apply_text(Actor::Seat(seat), "roll").expect("roll");
    assert_eq!(game.to_act(), ToAct::Chance);
    game.apply_text(Actor::Authority, &format!("d{die}"))
        .expect("die");
    match mv {
        Some(mv) => {
            assert_eq!(game.game().phase(), Phase::Move(die), "a move is due");
            game.apply_text(Actor::Seat(seat), mv)
                .unwrap_or_else(|e| panic!("{mv} with {die}: {e}"));
        }
        None => assert_ne!(
            game.game().phase(),
            Phase::Move(die),
            "the roll {die} should have no move"
        ),
    }
}

fn planes(game: &Match<Aeroplane>, seat: Seat) -> [Spot; 4] {
    game.game().table().planes[seat.index()]
}

/// Checks that the record replays to the same table and turn.
fn replays(game: &Match<Aeroplane>) {
    let json = game.record().to_json();
    let back = AnyMatch::from_record(&Record::from_json(&json).expect("json")).expect("replay");
    let AnyMatch::Aeroplane(back) = back else {
        panic!("not aeroplane")
    };
    assert_eq!(back.game().table(), game.game().table());
    assert_eq!(back.to_act(), game.to_act());
    assert_eq!(back.game().phase(), game.game().phase());
}

#[test]
fn from_the_start_a_launch_a_jump_and_the_shortcut_flight() {
    let mut game: Match<Aeroplane> = Match::new(&two_seats(), None).expect("start");
    // Red rolls 6: launches plane 1 to its take-off point, and rolls again.
    turn(&mut game, 6, Some("p1"));
    assert_eq!(planes(&game, RED), [s(0), H, H, H]);
    assert_eq!(game.to_act(), ToAct::Seat(RED));
    // 2: step 2 is red, so it jumps 4 to step 6. The turn passes.
    turn(&mut game, 2, Some("p1"));
    assert_eq!(planes(&game, RED), [s(6), H, H, H]);
    let last = game.game().last_move().expect("moved");
    assert_eq!(last.stops, [s(2), s(6)]);
    assert!(last.jumped() && !last.flew());
    assert_eq!(game.to_act(), ToAct::Seat(BLUE));
    // Blue rolls 3 with every plane in the hangar: no move, the turn passes by itself.
    turn(&mut game, 3, None);
    assert_eq!(game.to_act(), ToAct::Seat(RED));
    // Red 4: 6 → 10, red, jumps to 14 (one jump only, though 14 is red too).
    turn(&mut game, 4, Some("p1"));
    assert_eq!(planes(&game, RED), [s(14), H, H, H]);
    // Blue 4 launches; even rolls launch by default.
    turn(&mut game, 4, Some("p1"));
    assert_eq!(planes(&game, BLUE), [s(0), H, H, H]);
    // Red 4 lands straight on the shortcut 18: flies to 30, then jumps once to 34.
    turn(&mut game, 4, Some("p1"));
    assert_eq!(planes(&game, RED), [s(34), H, H, H]);
    assert_eq!(
        game.game().last_move().expect("moved").stops,
        [s(18), s(30), s(34)]
    );
    let last = game.game().last_move().expect("moved");
    assert!(last.flew() && last.jumped(), "a flight, then one jump");
    // Blue 6: plane 1 from its take-off point to step 6 (blue), jumps to 10, and rolls again;
    // 5 launches nothing (odd) but plane 1 moves 10 → 15.
    turn(&mut game, 6, Some("p1"));
    assert_eq!(planes(&game, BLUE), [s(10), H, H, H]);
    assert_eq!(game.to_act(), ToAct::Seat(BLUE));
    assert_eq!(
        game.game().legal_moves(Actor::Seat(BLUE)),
        ["roll".parse().unwrap()]
    );
    turn(&mut game, 5, Some("p1"));
    assert_eq!(planes(&game, BLUE), [s(15), H, H, H]);
    // Blue's 15 is square 40, Red's 41. Red at 34 rolls 5: 39 (not red), nothing met.
    turn(&mut game, 5, Some("p1"));
    assert_eq!(planes(&game, RED), [s(39), H, H, H]);
    // Blue 1: 15 → 16 (Red's 42). Red 2: 39 → 41, just behind it.
    turn(&mut game, 1, Some("p1"));
    turn(&mut game, 2, Some("p1"));
    assert_eq!(planes(&game, RED), [s(41), H, H, H]);
    assert_eq!(planes(&game, BLUE), [s(16), H, H, H]);
    // Blue 1: 16 → 17 (Red's 43). Red 2: 41 → 43, onto it: one against one, captured.
    turn(&mut game, 1, Some("p1"));
    turn(&mut game, 2, Some("p1"));
    assert_eq!(planes(&game, RED), [s(43), H, H, H]);
    assert_eq!(planes(&game, BLUE), [H, H, H, H]);
    replays(&game);
}

#[test]
fn a_capture_at_the_crossing_and_at_the_end_of_the_flight() {
    // Red at 14; Blue plane 1 rests on the crossing (its 53), plane 2 on its 4 = Red's 30.
    let mut game = start(
        two_seats(),
        vec![[s(14), H, H, H], [s(53), s(4), H, H]],
        RED,
    );
    turn(&mut game, 4, Some("p1"));
    // 18 → flight to 30 (capturing Blue's plane 2 there, crossing Blue's 53) → jump to 34.
    assert_eq!(planes(&game, RED), [s(34), H, H, H]);
    assert_eq!(planes(&game, BLUE), [H, H, H, H]);
    let plan = game.game().last_move().expect("moved");
    assert_eq!(plan.captured.len(), 2);
    replays(&game);

    // A jump onto the shortcut flies and stops: Red 10 + 4 = 14 (red) → 18 → 30, no jump on.
    let mut game = start(two_seats(), vec![[s(10), H, H, H], [s(53), H, H, H]], RED);
    turn(&mut game, 4, Some("p1"));
    assert_eq!(planes(&game, RED), [s(30), H, H, H]);
    assert_eq!(planes(&game, BLUE), [H, H, H, H]);

    // Yellow sits beside Red, not opposite: in three seats, Red's flight does not touch Yellow's
    // home column. Yellow (colour 1) at its 53 stays.
    let three = AeroplaneOptions {
        seats: 3,
        ..AeroplaneOptions::default()
    };
    let mut game = start(three, vec![[s(14), H, H, H], [s(53), H, H, H], [H; 4]], RED);
    turn(&mut game, 4, Some("p1"));
    assert_eq!(planes(&game, RED), [s(34), H, H, H]);
    assert_eq!(planes(&game, Seat::SECOND), [s(53), H, H, H]);
}

#[test]
fn a_stack_that_blocks() {
    // Red at 20; two Blue planes on Blue's 49 = Red's 23.
    let blues = [s(49), s(49), H, H];
    // Roll 3 would land on them with one plane against two: Red advances to 22 and spends the
    // last step moving back, to 21.
    let mut game = start(two_seats(), vec![[s(20), H, H, H], blues], RED);
    turn(&mut game, 3, Some("p1"));
    assert_eq!(planes(&game, RED), [s(21), H, H, H]);
    assert_eq!(planes(&game, BLUE), blues);
    assert_eq!(
        game.game().last_move().expect("moved").kind,
        MoveKind::Blocked
    );
    // By default the stack can be passed: roll 5 reaches 25.
    let mut game = start(two_seats(), vec![[s(20), H, H, H], blues], RED);
    turn(&mut game, 5, Some("p1"));
    assert_eq!(planes(&game, RED), [s(25), H, H, H]);
    // With the folk rule it cannot: advance 2 to 22, spend the other 3 moving back: 19.
    let folk = AeroplaneOptions {
        stacks_block: true,
        ..two_seats()
    };
    let mut game = start(folk.clone(), vec![[s(20), H, H, H], blues], RED);
    turn(&mut game, 5, Some("p1"));
    assert_eq!(planes(&game, RED), [s(19), H, H, H]);
    // Jumps and flights leap: Red 10 + 4 = 14 → jump over Blue's pair on its 42 (Red's 16) to
    // 18 → fly over Blue's pair on its 50 (Red's 24) to 30.
    let mut game = start(
        folk.clone(),
        vec![[s(10), H, H, H], [s(42), s(42), s(50), s(50)]],
        RED,
    );
    turn(&mut game, 4, Some("p1"));
    assert_eq!(planes(&game, RED), [s(30), H, H, H]);
    assert_eq!(planes(&game, BLUE), [s(42), s(42), s(50), s(50)]);
    // A single opposing plane never blocks the way.
    let mut game = start(folk, vec![[s(20), H, H, H], [s(49), H, H, H]], RED);
    turn(&mut game, 5, Some("p1"));
    assert_eq!(planes(&game, RED), [s(25), H, H, H]);
    // A jump that would end on a stack of two is not made: Red 12 + 2 = 14 (red); the jump to
    // 18 (Blue's 44, where two Blue planes rest) is not made, and so no flight.
    let mut game = start(
        two_seats(),
        vec![[s(12), H, H, H], [s(44), s(44), H, H]],
        RED,
    );
    turn(&mut game, 2, Some("p1"));
    assert_eq!(planes(&game, RED), [s(14), H, H, H]);
    assert_eq!(planes(&game, BLUE), [s(44), s(44), H, H]);
    // With the stack option, two Red planes moving together take both.
    let together = AeroplaneOptions {
        stacks_move_together: true,
        ..two_seats()
    };
    let mut game = start(together, vec![[s(20), s(20), H, H], blues], RED);
    turn(&mut game, 3, Some("s1"));
    assert_eq!(planes(&game, RED), [s(23), s(23), H, H]);
    assert_eq!(planes(&game, BLUE), [H; 4]);
}

#[test]
fn exact_landing_and_the_bounce_back() {
    // Red at 53 rolls 5: two steps to the goal, three back: 58 → 54.
    let mut game = start(two_seats(), vec![[s(53), s(3), H, H], [H; 4]], RED);
    turn(&mut game, 5, Some("p1"));
    assert_eq!(planes(&game, RED), [s(54), s(3), H, H]);
    assert_eq!(
        game.game().last_move().expect("moved").kind,
        MoveKind::Bounced
    );
    // Blue has nothing out and rolls 1; Red then rolls exactly 2: home.
    turn(&mut game, 1, None);
    turn(&mut game, 2, Some("p1"));
    assert_eq!(planes(&game, RED), [Spot::GOAL, s(3), H, H]);
    // A finished plane cannot move again.
    turn(&mut game, 1, None);
    game.apply_text(Actor::Seat(RED), "roll").expect("roll");
    game.apply_text(Actor::Authority, "d1").expect("die");
    let err = game.apply_text(Actor::Seat(RED), "p1").unwrap_err();
    assert_eq!(
        err.to_string(),
        "illegal move: that plane has already finished"
    );
    // Step 50 does not jump: Red at 46 rolls 4, 46 → 50, and stays there.
    let mut game = start(two_seats(), vec![[s(46), H, H, H], [H; 4]], RED);
    turn(&mut game, 4, Some("p1"));
    assert_eq!(planes(&game, RED), [s(50), H, H, H]);
    // But 42 + 4 = 46 jumps to 50.
    let mut game = start(two_seats(), vec![[s(42), H, H, H], [H; 4]], RED);
    turn(&mut game, 4, Some("p1"));
    assert_eq!(planes(&game, RED), [s(50), H, H, H]);
}

#[test]
fn three_sixes_in_a_row() {
    // 6: launch; 6: 0 → 6 (red) → 10; the third 6 sends plane 1 back and the turn passes.
    let mut game: Match<Aeroplane> = Match::new(&two_seats(), None).expect("start");
    turn(&mut game, 6, Some("p1"));
    turn(&mut game, 6, Some("p1"));
    assert_eq!(planes(&game, RED), [s(10), H, H, H]);
    assert_eq!(game.game().sixes(), 2);
    turn(&mut game, 6, None);
    assert_eq!(planes(&game, RED), [H; 4]);
    assert_eq!(game.to_act(), ToAct::Seat(BLUE));
    replays(&game);

    // Only the planes moved by those sixes go back; a capture made stands, and a plane that
    // finished stays finished. Red: plane 2 at 50 and plane 3 at 20; Blue at its 49 = Red 23.
    let mut game = start(
        two_seats(),
        vec![[s(30), s(50), s(17), H], [s(49), H, H, H]],
        RED,
    );
    turn(&mut game, 6, Some("p2")); // 50 → 56: home.
    turn(&mut game, 6, Some("p3")); // 17 → 23, captures Blue's plane.
    assert_eq!(planes(&game, RED), [s(30), Spot::GOAL, s(23), H]);
    assert_eq!(planes(&game, BLUE), [H; 4]);
    turn(&mut game, 6, None);
    assert_eq!(planes(&game, RED), [s(30), Spot::GOAL, H, H]);
    assert_eq!(planes(&game, BLUE), [H; 4]);

    // Under the option, the turn just ends.
    let options = AeroplaneOptions {
        three_sixes: ThreeSixes::EndTurn,
        ..two_seats()
    };
    let mut game: Match<Aeroplane> = Match::new(&options, None).expect("start");
    turn(&mut game, 6, Some("p1"));
    turn(&mut game, 6, Some("p1"));
    turn(&mut game, 6, None);
    assert_eq!(planes(&game, RED), [s(10), H, H, H]);
    assert_eq!(game.to_act(), ToAct::Seat(BLUE));
}

#[test]
fn launch_options() {
    for (rule, launches) in [
        (LaunchRule::Even, [2, 4, 6]),
        (LaunchRule::SixOnly, [6, 6, 6]),
        (LaunchRule::FiveOrSix, [5, 6, 6]),
    ] {
        for die in 1..=6u8 {
            let options = AeroplaneOptions {
                launch: rule,
                ..two_seats()
            };
            let mut game: Match<Aeroplane> = Match::new(&options, None).expect("start");
            game.apply_text(Actor::Seat(RED), "roll").expect("roll");
            game.apply_text(Actor::Authority, &format!("d{die}"))
                .expect("die");
            let can = game.game().phase() == Phase::Move(die);
            assert_eq!(can, launches.contains(&die), "{rule:?} with {die}");
        }
    }
}

#[test]
fn finishing_places_and_the_end() {
    // Three seats, each one plane from home (55), Red to roll.
    let near = [Spot::GOAL, Spot::GOAL, Spot::GOAL, s(55)];
    let three = AeroplaneOptions {
        seats: 3,
        ..AeroplaneOptions::default()
    };
    let mut game = start(three, vec![near; 3], RED);
    turn(&mut game, 3, Some("p4")); // bounces to 54
    turn(&mut game, 1, Some("p4")); // Yellow home: first place.
    assert_eq!(game.game().finished(), [Seat::SECOND]);
    // Yellow is skipped from now on: Blue, then Red.
    assert_eq!(game.to_act(), ToAct::Seat(Seat::new(2).unwrap()));
    turn(&mut game, 4, Some("p4")); // Blue 55 → bounce to 53
    turn(&mut game, 2, Some("p4")); // Red 54 → 56: second place, and Blue is last.
    let outcome = game.outcome().expect("over");
    assert_eq!(outcome.reason, EndReason::AllHome);
    assert_eq!(
        outcome.result,
        GameResult::Ranking {
            order: vec![Seat::SECOND, RED, Seat::new(2).unwrap()]
        }
    );
    replays(&game);
}

#[test]
fn moves_are_checked() {
    let mut game: Match<Aeroplane> = Match::new(&two_seats(), None).expect("start");
    assert_eq!(
        game.apply_text(Actor::Seat(BLUE), "roll")
            .unwrap_err()
            .code(),
        "not-your-turn"
    );
    assert_eq!(
        game.apply_text(Actor::Seat(RED), "p1")
            .unwrap_err()
            .to_string(),
        "illegal move: roll the die first"
    );
    assert!(game.apply_text(Actor::Seat(RED), "p5").is_err());
    assert!(game.apply_text(Actor::Seat(RED), "d7").is_err());
    game.apply_text(Actor::Seat(RED), "roll").expect("roll");
    assert_eq!(
        game.apply_text(Actor::Seat(RED), "d6").unwrap_err().code(),
        "not-your-turn"
    );
    game.apply_text(Actor::Authority, "d3").expect("die");
    // 3 launches nothing: the turn passed.
    assert_eq!(game.to_act(), ToAct::Seat(BLUE));
    game.apply_text(Actor::Seat(BLUE), "roll").expect("roll");
    game.apply_text(Actor::Authority, "d2").expect("die");
    assert_eq!(
        game.apply_text(Actor::Seat(BLUE), "s1")
            .unwrap_err()
            .to_string(),
        "illegal move: that plane does not head a stack that may move together"
    );
    // Every plane may launch with a 2: four choices.
    assert_eq!(game.legal_actions(Actor::Seat(BLUE)).len(), 4 + 2);
    assert!(
        Match::<Aeroplane>::new(
            &AeroplaneOptions {
                seats: 5,
                ..Default::default()
            },
            None
        )
        .is_err()
    );
    assert_eq!(
        Aeroplane::start(&two_seats(), None).unwrap().seat_count(),
        2
    );
}

#[test]
fn a_jump_that_ends_where_the_flight_ends_is_no_flight() {
    // Red at 22 rolls 4: lands on red 26, jumps 4 to 30, the end of the shortcut, without
    // having flown.
    let mut game = start(two_seats(), vec![[s(22), H, H, H], [H, H, H, H]], RED);
    turn(&mut game, 4, Some("p1"));
    assert_eq!(planes(&game, RED), [s(30), H, H, H]);
    let last = game.game().last_move().expect("moved");
    assert_eq!(last.stops, [s(26), s(30)]);
    assert!(last.jumped() && !last.flew());
    // A walk onto the shortcut flies: 14 + 4 = 18, flies to 30, jumps to 34.
    let mut game = start(two_seats(), vec![[s(14), H, H, H], [H, H, H, H]], RED);
    turn(&mut game, 4, Some("p1"));
    assert!(game.game().last_move().expect("moved").flew());
    // A plain walk: 30 + 1 = 31.
    let mut game = start(two_seats(), vec![[s(30), H, H, H], [H, H, H, H]], RED);
    turn(&mut game, 1, Some("p1"));
    let last = game.game().last_move().expect("moved");
    assert!(!last.jumped() && !last.flew());
}
