use super::*;
use crate::xiangqi::notation::to_chinese;
use crate::xiangqi::study::sample as sample_study;
use crate::xiangqi::xqf::{XqfKeys, read_xqf, write_xqf};

/// A game as a forum pastes it, written by hand: the standard start, four moves, a variation
/// of move 2 with one of its own at move 3, comments on the start, on move 1 and in the
/// variation.
const PASTED: &str = "[DhtmlXQ]
[DhtmlXQ_title]仙人指路[/DhtmlXQ_title]
[DhtmlXQ_red]柳大华[/DhtmlXQ_red]
[DhtmlXQ_black]吕钦[/DhtmlXQ_black]
[DhtmlXQ_result]黑胜[/DhtmlXQ_result]
[DhtmlXQ_binit]8979695949392919097717866646260600102030405060708012720323436383[/DhtmlXQ_binit]
[DhtmlXQ_movelist]2625706266651222[/DhtmlXQ_movelist]
[DhtmlXQ_move_0_2_1]7242[/DhtmlXQ_move_0_2_1]
[DhtmlXQ_move_1_3_2]7967[/DhtmlXQ_move_1_3_2]
[DhtmlXQ_comment0]开局[/DhtmlXQ_comment0]
[DhtmlXQ_comment1]仙人指路[/DhtmlXQ_comment1]
[DhtmlXQ_comment1_2]中炮还击||好棋[/DhtmlXQ_comment1_2]
[/DhtmlXQ]";

fn chinese(start: &Position, moves: &[Move]) -> Vec<String> {
    let mut pos = start.clone();
    moves
        .iter()
        .map(|m| {
            let text = to_chinese(&pos, *m);
            pos.play(*m).unwrap_or_else(|e| panic!("{e:?}"));
            text
        })
        .collect()
}

#[test]
fn a_pasted_game_reads_move_by_move_with_its_variations() {
    let study = read_dhtmlxq(PASTED).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(study.start, Position::start());
    assert_eq!(
        chinese(&study.start, &study.main_line()),
        ["兵七进一", "马8进7", "兵三进一", "炮2平3"]
    );
    assert_eq!(study.comment.as_deref(), Some("开局"));
    let first = &study.moves[0];
    assert_eq!(first.comment.as_deref(), Some("仙人指路"));
    assert_eq!(first.next.len(), 2, "the game's reply and the variation");
    let variation = &first.next[1];
    let mut pos = study.start.clone();
    pos.play(first.mv).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(to_chinese(&pos, variation.mv), "炮8平5");
    assert_eq!(variation.comment.as_deref(), Some("中炮还击\n好棋"));
    pos.play(variation.mv).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(variation.next.len(), 1);
    assert_eq!(to_chinese(&pos, variation.next[0].mv), "马二进三");
    assert_eq!(study.tag("Result"), Some("0-1"));
    assert_eq!(study.tag("Red"), Some("柳大华"));
    assert_eq!(study.node_count(), 6);
}

#[test]
fn a_written_study_reads_back_equal_and_so_does_one_from_xqf() {
    let study = sample_study();
    let text = write_dhtmlxq(&study);
    let read = read_dhtmlxq(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(read.start, study.start);
    assert_eq!(read.moves, study.moves, "{text}");
    assert_eq!(read.comment, study.comment);
    assert_eq!(read.tag("Event"), Some("残局练习"));
    assert_eq!(read.tag("Result"), Some("1-0"));
    // Through XQF and back: the same tree.
    let via = read_xqf(&write_xqf(&read, XqfKeys::default())).unwrap_or_else(|e| panic!("{e}"));
    let again = read_dhtmlxq(&write_dhtmlxq(&via)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(again.moves, study.moves);
}

#[test]
fn a_bad_paste_says_why() {
    assert_eq!(read_dhtmlxq("1. h3e3 h10g8"), Err(DhtmlXqError::NotDhtmlXq));
    assert_eq!(
        read_dhtmlxq("[DhtmlXQ_movelist]2625"),
        Err(DhtmlXqError::Unclosed("DhtmlXQ_movelist".into()))
    );
    assert!(matches!(
        read_dhtmlxq("[DhtmlXQ_movelist]262[/DhtmlXQ_movelist]"),
        Err(DhtmlXqError::BadMoves(_))
    ));
    assert!(matches!(
        read_dhtmlxq("[DhtmlXQ_movelist]26a5[/DhtmlXQ_movelist]"),
        Err(DhtmlXqError::BadMoves(_))
    ));
    // Move 2 is Red's again (the same pawn).
    match read_dhtmlxq("[DhtmlXQ_movelist]26252524[/DhtmlXQ_movelist]") {
        Err(DhtmlXqError::Illegal(line)) => assert_eq!(line.ply, 2),
        other => panic!("{other:?}"),
    }
    // A variation of line 7, which does not exist.
    assert!(matches!(
        read_dhtmlxq(
            "[DhtmlXQ_movelist]2625[/DhtmlXQ_movelist][DhtmlXQ_move_7_2_1]7062[/DhtmlXQ_move_7_2_1]"
        ),
        Err(DhtmlXqError::Orphan(_))
    ));
    // No red king in binit.
    let kingless = PASTED.replace("8979695949392919", "8979695999392919");
    assert!(matches!(
        read_dhtmlxq(&kingless),
        Err(DhtmlXqError::BadPosition(_))
    ));
}

#[test]
fn comments_and_names_with_the_formats_own_marks_come_back_whole() {
    // The fuzzer's find: a comment holding another tag's closing mark made Qiguan's own text
    // unreadable.
    let mut study = sample_study();
    let tricky = "弃兵[/DhtmlXQ_comment1]||[/DhtmlXQ] a|b \\u4e2d\n二行";
    study.moves[0].comment = Some(tricky.into());
    study.tags.retain(|(name, _)| name != "Black");
    study.tags.push(("Black".into(), "[吕] \\ 钦".into()));
    let text = write_dhtmlxq(&study);
    let read = read_dhtmlxq(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(read.moves[0].comment.as_deref(), Some(tricky), "{text}");
    assert_eq!(read.tag("Black"), Some("[吕] \\ 钦"));
    assert_eq!(read.moves, study.moves);
}

/// A comment with a carriage return before its `||` (found by fuzzing): one line break, read
/// the same after Qiguan writes it back.
#[test]
fn a_carriage_return_before_a_line_break_is_one_break_both_ways() {
    let text = "[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]\
                [DhtmlXQ_comment1]先手\r||中路[/DhtmlXQ_comment1][/DhtmlXQ]";
    let study = read_dhtmlxq(text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(study.moves[0].comment.as_deref(), Some("先手\n中路"));
    let back = read_dhtmlxq(&write_dhtmlxq(&study)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back.moves, study.moves);
}
