//! The clues a Sea-land-air view gives about unknown opposing pieces (`could_be`,
//! `lost_could_be`) always hold the true kind (read from the owner's own view), narrow down as
//! the game goes, and the computer's belief built from a seat's view draws boards that fit every
//! clue, make up the opposing army exactly and keep every piece the seat sees: over random
//! games, in the default mode and in referee mode.
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

use qiguan_core::junqi::Side;
use qiguan_core::sealandair::search::Belief;
use qiguan_core::sealandair::{
    Deployment, Kind, Point, SeaLandAir, SeaLandAirMove, SeaLandAirOptions, SeaLandAirView,
};
use qiguan_core::{Actor, Match, Rules, Seat, ToAct, Viewer};

fn side_of(seat: Seat) -> Side {
    if seat == Seat::FIRST {
        Side::South
    } else {
        Side::North
    }
}

/// Checks one seat's view against the truth, and the belief built from it.
fn check(game: &Match<SeaLandAir>, seat: Seat, seed: u64, narrowed: &mut usize) {
    let view: SeaLandAirView = game.game().view(Viewer::Seat(seat));
    let theirs = side_of(seat).other();
    let owner_seat = if theirs == Side::South {
        Seat::FIRST
    } else {
        Seat::SECOND
    };
    let owner = game.game().view(Viewer::Seat(owner_seat));
    let truth = game.game().board();
    for seen in view.pieces.iter().filter(|p| p.side == theirs) {
        let at: Point = seen.at.parse().unwrap();
        let kind = truth.get(at).unwrap().kind;
        match seen.kind {
            Some(k) => assert_eq!(k, kind),
            None => {
                let set = seen.could_be.expect("an unknown piece carries its clues");
                assert!(set.contains(kind), "{kind:?} at {at} not in {set:?}");
                *narrowed += usize::from(set.len() < 10);
            }
        }
    }
    for seen in view.pieces.iter().filter(|p| p.side != theirs) {
        assert!(seen.could_be.is_none(), "no clues about one's own pieces");
    }
    let lost = &view.lost[theirs as usize];
    let clues = &view.lost_could_be[theirs as usize];
    assert_eq!(lost.len(), clues.len());
    for (i, set) in clues.iter().enumerate() {
        let kind = owner.lost[theirs as usize][i].unwrap();
        assert!(set.contains(kind), "fallen {kind:?} not in {set:?}");
    }
    let belief = Belief::of(&view, side_of(seat)).expect("the clues hold together");
    for k in 0..3 {
        let sample = belief.sample(seed ^ k);
        assert_eq!(sample.len(), belief.unknown.len());
        let mut left = belief.pool;
        for (u, kind) in belief.unknown.iter().zip(&sample) {
            assert!(u.could_be.contains(*kind), "{kind:?} drawn for {u:?}");
            left[*kind as usize] -= 1;
        }
        assert!(left.iter().all(|&n| n == 0), "the draw uses the whole pool");
        let board = belief.board_with(&sample);
        for seen in &view.pieces {
            let at: Point = seen.at.parse().unwrap();
            let piece = board.get(at).unwrap();
            assert_eq!(piece.side, seen.side);
            if let Some(k) = seen.kind {
                assert_eq!(piece.kind, k);
            }
        }
        assert_eq!(board.pieces().count(), view.pieces.len());
    }
}

fn play(options: &SeaLandAirOptions, seed: u64) -> usize {
    let mut game: Match<SeaLandAir> = Match::new(options, None).unwrap();
    for (seat, side) in [(Seat::FIRST, Side::South), (Seat::SECOND, Side::North)] {
        let text = Deployment::random(side, seed * 2 + seat.index() as u64).to_text();
        game.apply_text(Actor::Seat(seat), &format!("deploy:{text}"))
            .unwrap();
    }
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut narrowed = 0;
    for ply in 0..240u64 {
        let ToAct::Seat(seat) = game.to_act() else {
            break;
        };
        if ply % 4 == 0 {
            check(&game, Seat::FIRST, seed ^ ply, &mut narrowed);
            check(&game, Seat::SECOND, seed ^ ply, &mut narrowed);
        }
        let moves = game.game().legal_moves(Actor::Seat(seat));
        // Attacks two times in three, so that battles happen.
        let board = game.game().board();
        let attacks: Vec<&SeaLandAirMove> = moves
            .iter()
            .filter(|m| matches!(m, SeaLandAirMove::Go(g) if board.get(g.to).is_some()))
            .collect();
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let mv = if !attacks.is_empty() && !state.is_multiple_of(3) {
            attacks[(state / 3) as usize % attacks.len()].clone()
        } else {
            moves[(state / 3) as usize % moves.len()].clone()
        };
        game.apply(Actor::Seat(seat), &qiguan_core::Action::Play(mv))
            .unwrap();
    }
    narrowed
}

#[test]
fn clues_hold_the_truth_and_samples_fit_them_in_the_default_mode() {
    let narrowed: usize = (0..12)
        .map(|seed| play(&SeaLandAirOptions::default(), seed))
        .sum();
    assert!(narrowed > 0, "the clues narrow some pieces down");
}

#[test]
fn clues_hold_the_truth_and_samples_fit_them_in_referee_mode() {
    let options = SeaLandAirOptions {
        referee: true,
        ..SeaLandAirOptions::default()
    };
    let narrowed: usize = (0..12).map(|seed| play(&options, seed)).sum();
    assert!(narrowed > 0, "the clues narrow some pieces down");
}

#[test]
fn a_piece_that_moved_is_neither_a_landmine_nor_the_flag() {
    let mut game: Match<SeaLandAir> = Match::new(&SeaLandAirOptions::default(), None).unwrap();
    for (seat, side) in [(Seat::FIRST, Side::South), (Seat::SECOND, Side::North)] {
        let text = Deployment::sensible(side, 5).to_text();
        game.apply_text(Actor::Seat(seat), &format!("deploy:{text}"))
            .unwrap();
    }
    // South moves a land piece that is not attacking; North then sees it moved.
    let moves = game.game().legal_moves(Actor::Seat(Seat::FIRST));
    let board = game.game().board();
    let m = moves
        .iter()
        .find_map(|m| match m {
            SeaLandAirMove::Go(g)
                if board.get(g.to).is_none()
                    && g.from.layer() == qiguan_core::sealandair::Layer::Land =>
            {
                Some(*g)
            }
            _ => None,
        })
        .unwrap();
    game.apply_text(Actor::Seat(Seat::FIRST), &m.to_string())
        .unwrap();
    let view = game.game().view(Viewer::Seat(Seat::SECOND));
    let seen = view
        .pieces
        .iter()
        .find(|p| p.at == m.to.to_string())
        .unwrap();
    let set = seen.could_be.unwrap();
    assert!(!set.contains(Kind::Landmine) && !set.contains(Kind::Flag));
    // One that stayed in the city may still be the flag.
    let city = view
        .pieces
        .iter()
        .filter(|p| p.side == Side::South)
        .find(|p| {
            p.at.parse::<Point>().unwrap().label() == qiguan_core::sealandair::Label::City
                && p.at != m.to.to_string()
        })
        .unwrap();
    assert!(city.could_be.unwrap().contains(Kind::Flag));
}
