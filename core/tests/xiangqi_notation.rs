//! Notations on positions chosen for their tandem pieces, both ways.

use qiguan_core::xiangqi::notation::{
    NotationError, parse_any, parse_chinese, parse_iccs, parse_wxf, to_chinese, to_wxf,
};
use qiguan_core::xiangqi::{Move, Position, START_FEN};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn mv(text: &str) -> Move {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Checks that `coord` is written as `wxf` and `chinese`, and that both read back.
fn check(fen: &str, coord: &str, wxf: &str, chinese: &str) {
    let p = pos(fen);
    let m = mv(coord);
    assert!(p.is_legal(m), "{coord} is not legal in {fen}");
    assert_eq!(to_wxf(&p, m), wxf, "WXF of {coord} in {fen}");
    assert_eq!(to_chinese(&p, m), chinese, "Chinese of {coord} in {fen}");
    assert_eq!(parse_wxf(&p, wxf), Ok(m), "reading {wxf}");
    assert_eq!(parse_chinese(&p, chinese), Ok(m), "reading {chinese}");
}

#[test]
fn opening_moves() {
    check(START_FEN, "h3e3", "C2=5", "炮二平五");
    check(START_FEN, "b1c3", "H8+7", "马八进七");
    check(START_FEN, "i1i2", "R1+1", "车一进一");
    check(START_FEN, "g1e3", "E3+5", "相三进五");
    check(START_FEN, "f1e2", "A4+5", "仕四进五");
    check(START_FEN, "e1e2", "K5+1", "帅五进一");
    let after = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
    check(after, "h10g8", "H8+7", "马8进7");
    check(after, "b8e8", "C2=5", "炮2平5");
    check(after, "c7c6", "P3+1", "卒3进1");
    check(after, "b8b1", "C2+7", "炮2进7");
}

#[test]
fn two_chariots_on_a_file_are_front_and_rear() {
    let fen = "4k4/9/9/9/9/R8/9/9/R8/3K5 w - - 0 1";
    check(fen, "a5b5", "R+=8", "前车平八");
    check(fen, "a2b2", "R-=8", "后车平八");
    check(fen, "a5a4", "R+-1", "前车退一");
    // Black counts the front from its own side: a6 is in front of a10.
    let black = "r3k4/9/9/9/r8/9/9/9/9/3K5 b - - 0 1";
    check(black, "a6a5", "R++1", "前车进1");
    check(black, "a10b10", "R-=2", "后车平2");
}

#[test]
fn a_rear_chariot_that_the_front_one_cannot_mirror_keeps_its_file() {
    // Fairy-Stockfish writes the file when the other chariot could not make the same step.
    let fen = "4k4/9/9/R8/9/9/9/9/R8/3K5 w - - 0 1";
    check(fen, "a7a3", "R9-4", "前车退四");
}

#[test]
fn advisors_and_elephants_on_one_file_keep_the_file() {
    let fen = "3k5/9/9/9/9/9/9/3A5/9/3AK4 w - - 0 1";
    check(fen, "d1e2", "A6+5", "仕六进五");
    check(fen, "d3e2", "A6-5", "仕六退五");
    let elephants = "3k5/9/9/9/9/2B6/9/9/9/2B1K4 w - - 0 1";
    check(elephants, "c1e3", "E7+5", "相七进五");
    check(elephants, "c5e3", "E7-5", "相七退五");
}

#[test]
fn three_soldiers_on_a_file() {
    let fen = "3k5/9/9/4P4/4P4/4P4/9/9/9/5K3 w - - 0 1";
    check(fen, "e7e8", "15+1", "前兵进一");
    check(fen, "e6d6", "25=6", "中兵平六");
    // The official WXF forms read too: P+ for the front one, the plain file for the middle.
    let p = pos(fen);
    assert_eq!(parse_wxf(&p, "P+.6"), Ok(mv("e7d7")));
    assert_eq!(parse_wxf(&p, "P5.4"), Ok(mv("e6f6")));
}

#[test]
fn four_soldiers_on_a_file_are_numbered_from_the_front() {
    let fen = "3k5/4P4/4P4/4P4/4P4/9/9/9/9/5K3 w - - 0 1";
    check(fen, "e9d9", "15=6", "一兵平六");
    check(fen, "e8f8", "25=4", "二兵平四");
    check(fen, "e6d6", "45=6", "四兵平六");
    let p = pos(fen);
    assert_eq!(parse_wxf(&p, "++.6"), Ok(mv("e9d9")));
    assert_eq!(parse_wxf(&p, "P+.6"), Ok(mv("e8d8")));
    assert_eq!(parse_wxf(&p, "P-.6"), Ok(mv("e7d7")));
    assert_eq!(parse_wxf(&p, "--.6"), Ok(mv("e6d6")));
}

#[test]
fn soldiers_doubled_on_two_files_keep_the_file() {
    let fen = "3k5/9/9/2P3P2/2P3P2/9/9/9/9/5K3 w - - 0 1";
    check(fen, "c7c8", "17+1", "前兵七进一");
    check(fen, "c6b6", "27=8", "后兵七平八");
    check(fen, "g7g8", "13+1", "前兵三进一");
    assert_eq!(parse_wxf(&pos(fen), "7+.8"), Ok(mv("c7b7")));
}

#[test]
fn chinese_variants_read() {
    let p = pos(START_FEN);
    assert_eq!(parse_chinese(&p, "炮2平5"), Ok(mv("h3e3")));
    assert_eq!(parse_chinese(&p, "馬八進七"), Ok(mv("b1c3")));
    assert_eq!(parse_chinese(&p, "俥 一 進 一"), Ok(mv("i1i2")));
    let black = pos("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
    assert_eq!(parse_chinese(&black, "馬８進７"), Ok(mv("h10g8")));
    assert_eq!(parse_chinese(&black, "砲８平５"), Ok(mv("h8e8")));
}

#[test]
fn syntax_errors_differ_from_illegal_moves() {
    let p = pos(START_FEN);
    assert!(matches!(
        parse_wxf(&p, "X2=5"),
        Err(NotationError::Syntax { .. })
    ));
    assert!(matches!(
        parse_wxf(&p, "C2=5x"),
        Err(NotationError::Syntax { .. })
    ));
    assert!(matches!(
        parse_wxf(&p, "C2+9"),
        Err(NotationError::NoSuchMove { .. })
    ));
    assert!(matches!(
        parse_chinese(&p, "炮二走五"),
        Err(NotationError::Syntax { .. })
    ));
    assert!(matches!(
        parse_chinese(&p, "炮二进九"),
        Err(NotationError::NoSuchMove { .. })
    ));
    assert!(matches!(
        parse_any(&p, "h3h9x"),
        Err(NotationError::Syntax { .. })
    ));
    assert!(matches!(
        parse_any(&p, "e4e6"),
        Err(NotationError::NoSuchMove { .. })
    ));
    // The middle of three soldiers written with a file that two others share is ambiguous
    // when no soldier is in the middle to prefer.
    let two = pos("3k5/9/9/4P4/4P4/9/9/9/9/5K3 w - - 0 1");
    assert!(matches!(
        parse_wxf(&two, "P5=4"),
        Err(NotationError::Ambiguous { .. })
    ));
}

#[test]
fn iccs_counts_ranks_from_zero() {
    assert_eq!(parse_iccs("h2e2"), Ok(mv("h3e3")));
    assert_eq!(parse_iccs("H2-E2"), Ok(mv("h3e3")));
    assert_eq!(parse_iccs("a9a8"), Ok(mv("a10a9")));
    // parse_any takes coordinates first, and ICCS when only that reading is legal.
    let p = pos(START_FEN);
    assert_eq!(parse_any(&p, "h2e2"), Ok(mv("h3e3")));
    assert_eq!(parse_any(&p, "h3e3"), Ok(mv("h3e3")));
}

#[test]
fn coordinates_handle_rank_ten() {
    assert_eq!(mv("a10a9").to_string(), "a10a9");
    assert_eq!(mv("i1i10").to_string(), "i1i10");
    for bad in ["a11a9", "j1j2", "a0a1", "a1", "a1a1", ""] {
        assert!(bad.parse::<Move>().is_err(), "{bad} should not parse");
    }
}
