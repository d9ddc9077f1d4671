//! The Aeroplane chess board picture of the rules page (docs/rules/aeroplane-board.svg) is
//! drawn from the board data.

use qiguan_core::aeroplane::picture::board_svg;

/// The picture in the docs is drawn from the current board data.
#[test]
fn the_board_picture_is_current() {
    let file = include_str!("../../docs/rules/aeroplane-board.svg");
    assert!(
        file == board_svg(),
        "run `cargo run -p qiguan-core --example aeroplane_board`"
    );
}

/// 52 track squares and 4 × 5 home column squares; four take-off points, four shortcut
/// flights; and red's path numbered from its take-off point (0) to its last home square (55).
#[test]
fn the_board_has_its_squares_and_red_s_steps() {
    let svg = board_svg();
    let board = svg.split("<g transform").next().unwrap_or_default();
    // The 72 squares, the four hangars.
    assert_eq!(board.matches("<rect x=").count(), 72 + 4);
    assert_eq!(board.matches("<circle").count(), 4);
    assert_eq!(board.matches(r#"stroke-dasharray="6 3""#).count(), 4);
    for step in 0..=55 {
        assert!(board.contains(&format!(">{step}</text>")), "step {step}");
    }
    assert!(!board.contains(">56</text>"), "the goal is not a square");
}
