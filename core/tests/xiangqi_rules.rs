//! End-of-game rules on hand-made move sequences: repetition, mate, stalemate, draws.

use qiguan_core::xiangqi::notation::parse_any;
use qiguan_core::xiangqi::{Position, START_FEN, Xiangqi, XiangqiOptions};
use qiguan_core::{EndReason, Outcome, Seat};

/// Plays `moves` from `fen`; every move but the last must leave the game going on.
fn play(fen: &str, moves: &str, options: XiangqiOptions) -> Option<Outcome> {
    let pos = Position::from_fen(fen).expect("test FEN is valid");
    let mut game = Xiangqi::from_position(options, pos).expect("valid options");
    let moves: Vec<&str> = moves.split_whitespace().collect();
    for (i, text) in moves.iter().enumerate() {
        assert!(
            game.outcome().is_none(),
            "game ended before move {} ({text}): {:?}",
            i + 1,
            game.outcome()
        );
        let m = parse_any(game.position(), text).expect("test move is legal");
        game.play_move(m).expect("test move is legal");
    }
    game.outcome().cloned()
}

fn standard(fen: &str, moves: &str) -> Option<Outcome> {
    play(fen, moves, XiangqiOptions::default())
}

fn win(seat: Seat, reason: EndReason) -> Option<Outcome> {
    Some(Outcome::win(seat, reason))
}

const RED: Seat = Seat::FIRST;
const BLACK: Seat = Seat::SECOND;

// Red's chariot checks from rank 10 and rank 9 while Black's general steps between e10 and
// e9. The position after Red's first check comes back a third time on ply 9.
const PERPETUAL_CHECK_FEN: &str = "4k4/9/9/9/9/9/9/9/8R/3K5 w - - 0 1";
const PERPETUAL_CHECK: &str = "i2i10 e10e9 i10i9 e9e10 i9i10 e10e9 i10i9 e9e10 i9i10";

#[test]
fn perpetual_check_loses() {
    assert_eq!(
        standard(PERPETUAL_CHECK_FEN, PERPETUAL_CHECK),
        win(BLACK, EndReason::PerpetualCheck)
    );
}

#[test]
fn perpetual_check_by_black_from_a_black_to_move_fen_loses() {
    let outcome = standard(
        "3k5/8r/9/9/9/9/9/9/9/4K4 b - - 0 1",
        "i9i1 e1e2 i1i2 e2e1 i2i1 e1e2 i1i2 e2e1 i2i1",
    );
    assert_eq!(outcome, win(RED, EndReason::PerpetualCheck));
}

#[test]
fn two_repetitions_are_not_yet_judged() {
    let short = PERPETUAL_CHECK
        .rsplit_once(' ')
        .map(|(a, _)| a)
        .unwrap_or("");
    assert_eq!(standard(PERPETUAL_CHECK_FEN, short), None);
}

// Both sides check on every move: Red's cannon steps between e4 and d4 (discovering the
// chariot's check when it returns), Black's horse between d8 and e6 (screening its cannon).
#[test]
fn mutual_perpetual_check_is_a_draw() {
    let outcome = standard(
        "4c4/3k5/3n5/9/9/9/4C4/9/3R4r/4K4 w - - 0 1",
        "e4d4 d8e6 d4e4 e6d8 e4d4 d8e6 d4e4 e6d8",
    );
    assert_eq!(outcome, Some(Outcome::draw(EndReason::Repetition)));
}

// Red's chariot keeps attacking Black's unprotected horse as it flees between a10 and b8.
const CHASE_FEN: &str = "n3k4/9/9/9/9/1R7/9/9/9/3K5 w - - 0 1";
const CHASE: &str = "b5a5 a10b8 a5b5 b8a10 b5a5 a10b8 a5b5 b8a10";

#[test]
fn perpetual_chase_loses() {
    assert_eq!(
        standard(CHASE_FEN, CHASE),
        win(BLACK, EndReason::PerpetualChase)
    );
}

#[test]
fn perpetual_chase_draws_when_the_option_is_off() {
    let options = XiangqiOptions {
        perpetual_chase_loses: false,
        ..XiangqiOptions::default()
    };
    assert_eq!(
        play(CHASE_FEN, CHASE, options),
        Some(Outcome::draw(EndReason::Repetition))
    );
}

// The same dance, but Black's chariot on a10 guards the horse on both of its squares
// (b10 along the rank, a8 along the file): attacking a protected piece is no chase.
#[test]
fn attacking_a_protected_piece_is_no_chase() {
    let fen = "rn2k4/9/9/9/9/R8/9/9/9/3K5 w - - 0 1";
    let outcome = standard(fen, "a5b5 b10a8 b5a5 a8b10 a5b5 b10a8 b5a5 a8b10");
    assert_eq!(outcome, Some(Outcome::draw(EndReason::Repetition)));
}

#[test]
fn a_quiet_threefold_repetition_is_a_draw() {
    let outcome = standard(START_FEN, "a1a2 a10a9 a2a1 a9a10 a1a2 a10a9 a2a1 a9a10");
    assert_eq!(outcome, Some(Outcome::draw(EndReason::Repetition)));
}

#[test]
fn checkmate_wins() {
    // Rooks on a9 and b10: the black general on d10 has no square.
    assert_eq!(
        standard("3k5/R8/9/9/9/9/9/9/9/1R2K4 w - - 0 1", "b1b10"),
        win(RED, EndReason::Checkmate)
    );
}

#[test]
fn stalemate_loses() {
    // d9 is covered by the chariot, e10 would face Red's general: Black cannot move.
    let outcome = standard("3k5/9/8R/9/9/9/9/9/9/4K4 w - - 0 1", "i8i9");
    assert_eq!(outcome, win(RED, EndReason::Stalemate));
}

#[test]
fn no_piece_that_can_cross_the_river_is_a_draw() {
    // Red's general takes Black's last soldier: only generals and advisors remain.
    let outcome = standard("3k5/9/9/9/9/9/9/9/4p4/3AK4 w - - 0 1", "e1e2");
    assert_eq!(outcome, Some(Outcome::draw(EndReason::NoAttackers)));
}

#[test]
fn the_move_limit_is_off_by_default_and_counts_plies_without_capture() {
    let moves = "a1a2 a10a9 a2a3 a9a8";
    assert_eq!(standard(START_FEN, moves), None);
    let options = XiangqiOptions {
        move_limit: Some(4),
        ..XiangqiOptions::default()
    };
    assert_eq!(
        play(START_FEN, moves, options),
        Some(Outcome::draw(EndReason::MoveLimit))
    );
}

#[test]
fn a_capture_resets_the_move_limit() {
    let options = XiangqiOptions {
        move_limit: Some(3),
        ..XiangqiOptions::default()
    };
    // h3h10 captures on ply 1; two quiet plies follow: the clock stands at 2.
    let outcome = play(START_FEN, "h3h10 i10i9 h10h9", options);
    assert_eq!(outcome, None);
}

#[test]
fn flying_general_moves_are_illegal() {
    // With the d-file open, Red's general may not step onto it to face Black's.
    let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1").expect("valid");
    let moves: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    assert!(!moves.contains(&"e1d1".to_string()), "{moves:?}");
    assert!(moves.contains(&"e1f1".to_string()), "{moves:?}");
}
