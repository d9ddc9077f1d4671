//! The Junqi computer opponent: legal from its own view, takes the flag, defends its own,
//! prefers safe captures, never attacks a piece it knows is stronger.
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

use qiguan_core::junqi::bot::choose;
use qiguan_core::junqi::{
    Junqi, JunqiMove, JunqiOptions, JunqiView, Rank, SeenPiece, Side, Visibility,
};
use qiguan_core::{Action, Actor, Match, Rules, Seat, ToAct, Viewer, seeded_pick};

fn view(pieces: &[(&str, Side, Option<Rank>)]) -> JunqiView {
    JunqiView {
        visibility: Visibility::Open,
        colours: [Some(Side::South), Some(Side::North)],
        face_down: Vec::new(),
        free_in_headquarters: Vec::new(),
        landmines_left: None,
        deployed: [true, true],
        pieces: pieces
            .iter()
            .map(|&(at, side, rank)| SeenPiece {
                at: at.into(),
                side,
                rank,
                could_be: None,
            })
            .collect(),
        side_to_move: Seat::FIRST,
        quiet_plies: 0,
        flag_shown: [false, false],
        last: None,
        lost: [Vec::new(), Vec::new()],
        lost_could_be: [Vec::new(), Vec::new()],
    }
}

fn chosen(v: &JunqiView, seed: u64) -> String {
    match choose(v, Seat::FIRST, &JunqiOptions::default(), seed).unwrap() {
        JunqiMove::Go(m) => m.to_string(),
        other => panic!("{other:?}"),
    }
}

#[test]
fn bots_play_whole_games_with_legal_moves_from_their_own_views() {
    for (seed, visibility) in (0..18u64).map(|s| {
        (
            s,
            [Visibility::Referee, Visibility::Open, Visibility::Flip][s as usize % 3],
        )
    }) {
        let options = JunqiOptions {
            visibility,
            ..JunqiOptions::default()
        };
        let mut game: Match<Junqi> = Match::new(&options, None).unwrap();
        game.resolve_chance(&mut seeded_pick(seed)).unwrap();
        for ply in 0..400u64 {
            let seats = match game.to_act() {
                ToAct::Seat(s) => vec![s],
                ToAct::Seats(list) => list,
                _ => break,
            };
            for seat in seats {
                let v = game.game().view(Viewer::Seat(seat));
                let action =
                    choose(&v, seat, &options, seed * 1000 + ply).expect("something to do");
                game.apply(Actor::Seat(seat), &Action::Play(action))
                    .expect("the bot's move is legal");
            }
        }
        assert!(game.version() > 20, "a real game was played");
    }
}

#[test]
fn it_takes_a_flag_it_can_reach() {
    let v = view(&[
        ("b10", Side::South, Some(Rank::Engineer)),
        ("a5", Side::South, Some(Rank::Captain)),
        ("b11", Side::North, Some(Rank::Flag)),
        ("c10", Side::North, None),
        ("e11", Side::North, None),
    ]);
    for seed in 0..20 {
        assert_eq!(chosen(&v, seed), "b10b11");
    }
}

#[test]
fn it_prefers_a_safe_capture_and_never_attacks_a_known_stronger_piece() {
    // The major can take a known captain, or run into a known general.
    let v = view(&[
        ("a5", Side::South, Some(Rank::Major)),
        ("b0", Side::South, Some(Rank::Flag)),
        ("a6", Side::North, Some(Rank::General)),
        ("b5", Side::North, Some(Rank::Captain)),
        ("b11", Side::North, Some(Rank::Flag)),
    ]);
    for seed in 0..20 {
        let m = chosen(&v, seed);
        assert_eq!(m, "a5b5", "seed {seed}");
    }
    // With only a stronger piece in reach, it does something else.
    let v = view(&[
        ("a5", Side::South, Some(Rank::Major)),
        ("b0", Side::South, Some(Rank::Flag)),
        ("a6", Side::North, Some(Rank::General)),
        ("b11", Side::North, Some(Rank::Flag)),
    ]);
    for seed in 0..20 {
        assert_ne!(chosen(&v, seed), "a5a6");
    }
}

#[test]
fn it_attacks_a_piece_next_to_its_flag() {
    let mut v = view(&[
        ("a1", Side::South, Some(Rank::Captain)),
        ("c2", Side::South, Some(Rank::Colonel)),
        ("b0", Side::South, Some(Rank::Flag)),
        ("a0", Side::North, None),
        ("b11", Side::North, None),
    ]);
    v.visibility = Visibility::Referee;
    for seed in 0..20 {
        assert_eq!(chosen(&v, seed), "a1a0", "seed {seed}");
    }
}

#[test]
fn it_deploys_legally_when_it_has_not() {
    let mut v = view(&[]);
    v.deployed = [false, false];
    let Some(JunqiMove::Deploy(text)) = choose(&v, Seat::SECOND, &JunqiOptions::default(), 3)
    else {
        panic!("a deployment")
    };
    let d = qiguan_core::junqi::Deployment::from_text(Side::North, &text).unwrap();
    assert_eq!(d.validate(), Ok(()));
}

#[test]
fn the_computer_accepts_a_draw_only_when_clearly_behind() {
    use qiguan_core::junqi::bot::accepts_draw;
    let south = |at: &'static str| (at, Side::South, Some(Rank::Captain));
    let north = |at: &'static str| (at, Side::North, None);
    // Two against two, flags aside: no.
    let even = view(&[
        south("a1"),
        south("b1"),
        ("b0", Side::South, Some(Rank::Flag)),
        north("a10"),
        north("b10"),
        ("b11", Side::North, Some(Rank::Flag)),
    ]);
    assert!(!accepts_draw(&even, Seat::FIRST));
    assert!(!accepts_draw(&even, Seat::SECOND));
    // One against three: the one accepts, the three do not.
    let behind = view(&[south("a1"), north("a10"), north("b10"), north("c10")]);
    assert!(accepts_draw(&behind, Seat::FIRST));
    assert!(!accepts_draw(&behind, Seat::SECOND));
    // Before its colour is known (flip mode) it declines.
    let mut unknown = behind.clone();
    unknown.colours = [None, None];
    assert!(!accepts_draw(&unknown, Seat::FIRST));
}
