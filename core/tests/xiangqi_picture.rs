//! The Xiangqi board picture of the rules page (docs/rules/xiangqi-board.svg) is drawn from
//! the board data and the starting position.

use qiguan_core::xiangqi::picture::{board_svg, centre};
use qiguan_core::xiangqi::{Position, Square};

/// The picture in the docs is drawn from the current board data.
#[test]
fn the_board_picture_is_current() {
    let file = include_str!("../../docs/rules/xiangqi-board.svg");
    assert!(
        file == board_svg(),
        "run `cargo run -p qiguan-core --example xiangqi_board`"
    );
}

/// Each of the 32 pieces of the starting position stands on its point.
#[test]
fn the_starting_position_is_drawn_on_the_points() {
    let svg = board_svg();
    let start = Position::start();
    let mut pieces = 0;
    for sq in Square::all().filter(|&sq| start.piece_at(sq).is_some()) {
        pieces += 1;
        let (x, y) = centre(sq);
        assert!(
            svg.contains(&format!(r#"<circle cx="{x:.1}" cy="{y:.1}" r="16""#)),
            "{sq}"
        );
    }
    assert_eq!(pieces, 32);
    assert_eq!(svg.matches("<circle").count(), 32);
    for name in [
        "帅", "将", "车", "马", "炮", "兵", "卒", "楚 河", "漢 界", "一", "九",
    ] {
        assert!(svg.contains(&format!(">{name}</text>")), "{name}");
    }
}
