use super::*;
use crate::xiangqi::notation::{parse_coordinates, to_chinese};
use crate::xiangqi::study::Node;
use crate::xiangqi::study::sample as sample_study;

/// The example file of XQStudio's published XQF 1.0 description (2001), byte for byte from
/// its dump: 柳大华 v 吕钦, eight moves each.
fn published_example() -> Vec<u8> {
    let mut file = vec![0u8; 0x488];
    let mut put = |at: usize, hex: &str| {
        for (i, byte) in hex.split_whitespace().enumerate() {
            file[at + i] = u8::from_str_radix(byte, 16).unwrap_or_else(|e| panic!("{byte}: {e}"));
        }
    };
    put(0x00, "58 51 0A");
    put(0x10, "50 46 3C 32 28 1E 14 0A 00 48 0C 53 3F 2B 17 03");
    put(0x20, "09 13 1D 27 31 3B 45 4F 59 11 4D 06 1A 2E 42 56");
    put(0x33, "02");
    put(0x50, "10 CF C9 C8 CB D6 B8 C2 B7 B6 D4 C6 F0 C2 ED BE D6");
    put(
        0xD0,
        "16 22 D6 D0 C1 A2 B1 AD 22 CF F3 C6 E5 B5 E7 CA D3 BF EC C6 E5 C8 FC",
    );
    put(0x110, "0E 31 39 39 37 C4 EA 31 31 D4 C2 31 36 C8 D5");
    put(0x120, "04 B1 B1 BE A9");
    put(0x130, "06 C1 F8 B4 F3 BB AA");
    put(0x140, "06 C2 C0 20 20 C7 D5");
    put(0x1D0, "06 C1 F5 B5 EE D6 D0");
    put(0x1E0, "06 B9 FD BA D3 CF F3");
    put(
        0x400,
        "18 20 F0 FF 00 00 00 00 2F 38 F0 00 00 00 00 00
         67 63 F0 00 00 00 00 00 57 60 F0 00 00 00 00 00
         29 3B F0 00 00 00 00 00 2C 4A F0 00 00 00 00 00
         2B 27 F0 00 00 00 00 00 22 36 F0 00 00 00 00 00
         21 33 F0 00 00 00 00 00 18 2A F0 00 00 00 00 00
         2B 2F F0 00 00 00 00 00 24 22 F0 00 00 00 00 00
         27 6B F0 00 00 00 00 00 60 6D F0 00 00 00 00 00
         33 6D F0 00 00 00 00 00 5E 5E F0 00 00 00 00 00
         71 6F 00 00 00 00 00 00",
    );
    file
}

fn mv(text: &str) -> Move {
    parse_coordinates(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn the_published_example_reads_move_by_move() {
    let study = read_xqf(&published_example()).unwrap_or_else(|e| panic!("{e}"));
    // The description's own list of the moves, in its notation (Black's numbers full width).
    let listed = "兵七进一 马８进７ 兵三进一 炮２平３ 相七进五 马２进１ 马八进七 车１平２ \
                  车九平八 车２进４ 炮八平九 车２平８ 炮二进五 炮３平８ 马二进三 车９平８";
    let mut pos = study.start.clone();
    assert_eq!(pos, Position::start());
    let moves = study.main_line();
    let listed: Vec<&str> = listed.split_whitespace().collect();
    assert_eq!(moves.len(), listed.len());
    for (i, (m, text)) in moves.iter().zip(&listed).enumerate() {
        let ours = to_chinese(&pos, *m);
        let theirs: String = text
            .chars()
            .map(|c| match c {
                '０'..='９' => char::from(b'0' + (c as u32 - '０' as u32) as u8),
                other => other,
            })
            .collect();
        assert_eq!(ours, theirs, "move {}", i + 1);
        pos.play(*m).unwrap_or_else(|e| panic!("{e:?}"));
    }
    let tags: Vec<(&str, &str)> = study
        .tags
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    assert_eq!(
        tags,
        [
            ("Title", "仙人指路对起马局"),
            ("Event", "\"中立杯\"象棋电视快棋赛"),
            ("Date", "1997年11月16日"),
            ("Site", "北京"),
            ("Red", "柳大华"),
            ("Black", "吕钦"),
            ("Annotator", "刘殿中"),
            ("Author", "过河象"),
            ("Result", "0-1"),
        ]
    );
}

#[test]
fn a_written_study_reads_back_equal_with_any_keys() {
    let study = sample_study();
    assert_eq!(study.check(), Ok(()));
    for keys in [
        XqfKeys::default(),
        XqfKeys::SAMPLE,
        XqfKeys {
            mask: 0x0F,
            or: [1, 0, 250, 3],
            sum: 255,
            xy: 254,
            from: 1,
            to: 128,
        },
    ] {
        let bytes = write_xqf(&study, keys);
        let read = read_xqf(&bytes).unwrap_or_else(|e| panic!("{keys:?}: {e}"));
        assert_eq!(read.start, study.start);
        assert_eq!(read.moves, study.moves, "{keys:?}");
        assert_eq!(read.comment, study.comment);
        assert_eq!(read.tag("Event"), Some("残局练习"));
        assert_eq!(read.tag("Red"), Some("红方甲"));
        assert_eq!(read.tag("Black"), Some("Black B"));
        assert_eq!(read.tag("Result"), Some("1-0"));
    }
}

#[test]
fn black_to_move_first_comes_from_the_first_move() {
    let mut study = sample_study();
    study.start = Position::from_fen("3akab2/9/4b4/p3p3p/2p6/6P2/P3P4/2N1B4/4A4/2BAK3R b - - 0 1")
        .unwrap_or_else(|e| panic!("{e}"));
    study.moves = vec![Node {
        mv: mv("a7a6"),
        comment: None,
        next: Vec::new(),
    }];
    let read = read_xqf(&write_xqf(&study, XqfKeys::default())).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(read.start, study.start);
}

#[test]
fn long_names_are_clipped_at_a_character() {
    let mut study = sample_study();
    study.tags = vec![("Red".into(), "一二三四五六七八九十".into())];
    let read = read_xqf(&write_xqf(&study, XqfKeys::default())).unwrap_or_else(|e| panic!("{e}"));
    // 15 bytes of GB18030 hold seven of these characters.
    assert_eq!(read.tag("Red"), Some("一二三四五六七"));
}

#[test]
fn a_bad_file_says_why() {
    let good = published_example();
    assert_eq!(read_xqf(b"PK\x03\x04"), Err(XqfError::NotXqf));
    assert_eq!(read_xqf(&good[..300]), Err(XqfError::ShortHeader(300)));
    // Cut inside move 5.
    assert_eq!(
        read_xqf(&good[..0x400 + 8 * 5 + 3]),
        Err(XqfError::Truncated { ply: 5 })
    );
    // Two pieces on one point.
    let mut two = good.clone();
    two[0x11] = two[0x10];
    assert!(matches!(read_xqf(&two), Err(XqfError::BadPosition(_))));
    // No red king.
    let mut kingless = good.clone();
    kingless[0x14] = 0xFF;
    assert!(matches!(read_xqf(&kingless), Err(XqfError::BadPosition(_))));
    // Move 3 from an empty point (e5), then move 3 backwards (a pawn from g4 to g2).
    let mut empty = good.clone();
    empty[0x400 + 8 * 3] = 24 + 44;
    match read_xqf(&empty) {
        Err(XqfError::Illegal(line)) => assert_eq!(line.ply, 3),
        other => panic!("{other:?}"),
    }
    let mut illegal = good.clone();
    illegal[0x400 + 8 * 3 + 1] = 32 + 61;
    match read_xqf(&illegal) {
        Err(XqfError::Illegal(line)) => assert_eq!(line.ply, 3),
        other => panic!("{other:?}"),
    }
    // A point off the board.
    let mut off = good;
    off[0x400 + 8 * 2] = 24 + 95;
    assert_eq!(read_xqf(&off), Err(XqfError::BadMove { ply: 2 }));
}

#[test]
fn a_hostile_comment_length_is_refused_not_allocated() {
    let mut bytes = published_example();
    // Move 1 says it has a comment of 2 GB.
    bytes[0x400 + 12..0x400 + 16].copy_from_slice(&0x7FFF_FFFFu32.to_le_bytes());
    assert_eq!(read_xqf(&bytes), Err(XqfError::Truncated { ply: 1 }));
}

#[test]
fn padded_chinese_names_are_closed_up_and_other_names_keep_their_spaces() {
    assert_eq!(close_name("吕  钦"), "吕钦");
    assert_eq!(close_name("吕\u{3000}钦"), "吕钦");
    assert_eq!(close_name("胡荣华"), "胡荣华");
    assert_eq!(close_name("Wang Tianyi"), "Wang Tianyi");
    assert_eq!(close_name("Hu 荣华"), "Hu 荣华");
}
