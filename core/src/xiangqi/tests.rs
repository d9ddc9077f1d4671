//! Internal tests: the chase definition, clause by clause.

use super::board::{POINTS, Square};
use super::position::Position;
use super::repetition::chased_targets;

/// Returns how many pieces the move newly chases in the position.
fn chases(fen: &str, mv: &str) -> usize {
    let pos = Position::from_fen(fen).expect("test FEN is valid");
    let mut ids = [u8::MAX; POINTS];
    for (n, sq) in Square::all()
        .filter(|s| pos.piece_at(*s).is_some())
        .enumerate()
    {
        ids[sq.index()] = n as u8;
    }
    let m = mv.parse().expect("test move parses");
    assert!(pos.is_legal(m), "{mv} is not legal in {fen}");
    chased_targets(&pos, &ids, m).len()
}

#[test]
fn a_chariot_chases_an_unprotected_horse() {
    assert_eq!(chases("4k4/9/9/n8/9/9/9/9/9/1R1K5 w - - 0 1", "b1a1"), 1);
}

#[test]
fn attacking_a_protected_horse_is_no_chase() {
    assert_eq!(chases("r3k4/9/9/n8/9/9/9/9/9/1R1K5 w - - 0 1", "b1a1"), 0);
}

#[test]
fn a_horse_chases_a_chariot_even_when_it_is_protected() {
    assert_eq!(chases("2r1k4/9/2r6/9/9/9/2N6/9/9/3K5 w - - 0 1", "c4d6"), 1);
}

#[test]
fn a_cannon_chases_a_chariot_even_when_it_is_protected() {
    // The cannon steps onto the a-file; a black horse on a5 screens the chariot on a8,
    // which the chariot on a10 protects.
    assert_eq!(chases("r3k4/9/r8/9/9/n8/9/9/9/1C1K5 w - - 0 1", "b1a1"), 1);
}

#[test]
fn chariots_attacking_each_other_offer_an_exchange_not_a_chase() {
    assert_eq!(chases("4k4/9/9/r8/9/9/9/9/9/1R1K5 w - - 0 1", "b1a1"), 0);
}

#[test]
fn a_soldier_that_has_not_crossed_cannot_be_chased() {
    assert_eq!(chases("4k4/9/9/p8/9/9/9/9/9/1R1K5 w - - 0 1", "b1a1"), 0);
}

#[test]
fn a_soldier_that_has_crossed_can_be_chased() {
    assert_eq!(chases("4k4/9/9/9/9/9/p8/9/9/1R1K5 w - - 0 1", "b1a1"), 1);
}

#[test]
fn soldiers_and_generals_may_chase_freely() {
    assert_eq!(chases("4k4/9/n8/9/P8/9/9/9/9/3K5 w - - 0 1", "a6a7"), 0);
    // Red's general steps next to an unprotected black horse in its palace.
    assert_eq!(chases("4k4/9/9/9/9/9/9/9/4n4/3K5 w - - 0 1", "d1d2"), 0);
}

#[test]
fn an_attack_that_already_stood_is_no_new_chase() {
    // The chariot already attacks the horse; moving the general changes nothing.
    assert_eq!(chases("4k4/9/9/n8/9/9/9/9/9/R2K5 w - - 0 1", "d1d2"), 0);
}
