//! PGN with its variations and comments: recursive annotation variations `( … )` and
//! `{ comments }` read into a [`Study`] and written from one, so that what a player studied
//! leaves and comes back whole. The plain reader ([`super::pgn::read_game`]) keeps reading the
//! game line only.

use super::notation::{NotationError, parse_any, parse_iccs, to_wxf};
use super::pgn::{MoveFormat, PgnError, bare_fen, move_word, push_tag, read_tags};
use super::study::{Arena, MAX_NODES, MAX_PLIES, Node, Study, room_for};
use super::{Color, Position, START_FEN};

/// A piece of movetext.
#[derive(Debug, PartialEq)]
enum Token {
    Move(String),
    Comment(String),
    Open,
    Close,
    Result(String),
}

fn tokens(movetext: &str) -> Result<Vec<Token>, PgnError> {
    let mut out = Vec::new();
    let mut chars = movetext.chars().peekable();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut Vec<Token>| {
        if word.is_empty() {
            return;
        }
        let w = std::mem::take(word);
        if matches!(w.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*") {
            out.push(Token::Result(w));
            return;
        }
        if let Some(mv) = move_word(&w) {
            out.push(Token::Move(mv.to_owned()));
        }
    };
    while let Some(c) = chars.next() {
        match c {
            '{' => {
                flush(&mut word, &mut out);
                let mut text = String::new();
                let mut closed = false;
                for c in chars.by_ref() {
                    if c == '}' {
                        closed = true;
                        break;
                    }
                    text.push(c);
                }
                if !closed {
                    return Err(PgnError::Syntax("a comment is not closed with }".into()));
                }
                out.push(Token::Comment(text.trim().to_owned()));
            }
            ';' => {
                flush(&mut word, &mut out);
                let text: String = chars.by_ref().take_while(|c| *c != '\n').collect();
                out.push(Token::Comment(text.trim().to_owned()));
            }
            '(' => {
                flush(&mut word, &mut out);
                out.push(Token::Open);
            }
            ')' => {
                flush(&mut word, &mut out);
                out.push(Token::Close);
            }
            c if c.is_whitespace() => flush(&mut word, &mut out),
            c => word.push(c),
        }
    }
    flush(&mut word, &mut out);
    Ok(out)
}

/// Where moves go in the line being read.
#[derive(Clone)]
struct Frame {
    /// The node new moves follow (none: the start).
    parent: Option<usize>,
    /// The position new moves are played from.
    pos: Position,
    ply: usize,
    /// The last move of this line: the node it follows, the position before it, its ply —
    /// where a variation opened after it starts.
    last: Option<(Option<usize>, Position, usize)>,
    /// A comment read before the line's first move, for it.
    pending: Option<String>,
}

/// Reads PGN with its variations and comments (or a bare FEN).
pub fn read_study_pgn(text: &str) -> Result<Study, PgnError> {
    let text = text.trim_start_matches('\u{feff}').trim();
    if text.is_empty() {
        return Err(PgnError::Empty);
    }
    if bare_fen(text) {
        let start = Position::from_fen(text).map_err(PgnError::Fen)?;
        return Ok(Study {
            tags: vec![("Result".into(), "*".into())],
            start,
            comment: None,
            moves: Vec::new(),
        });
    }
    let (mut tags, movetext) = read_tags(text)?;
    let tag = |name: &str| {
        tags.iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.clone())
    };
    let start = match tag("FEN") {
        Some(fen) => Position::from_fen(&fen).map_err(PgnError::Fen)?,
        None => Position::start(),
    };
    let iccs = tag("Format").is_some_and(|f| f.eq_ignore_ascii_case("ICCS"));
    let mut arena = Arena::new();
    let mut comment: Option<String> = None;
    let mut frame = Frame {
        parent: None,
        pos: start.clone(),
        ply: 1,
        last: None,
        pending: None,
    };
    let mut outer: Vec<Frame> = Vec::new();
    let mut result = None;
    let add = |to: &mut Option<String>, text: String| {
        if text.is_empty() {
            return;
        }
        match to {
            Some(old) => {
                old.push('\n');
                old.push_str(&text);
            }
            None => *to = Some(text),
        }
    };
    for token in tokens(movetext)? {
        match token {
            Token::Move(word) => {
                if !room_for(arena.nodes.len(), frame.ply) {
                    return Err(PgnError::Syntax(format!(
                        "more than {MAX_NODES} moves, or {MAX_PLIES} in one line"
                    )));
                }
                let parsed = if iccs {
                    parse_iccs(&word).and_then(|m| {
                        if frame.pos.is_legal(m) {
                            Ok(m)
                        } else {
                            Err(NotationError::NoSuchMove { text: word.clone() })
                        }
                    })
                } else {
                    parse_any(&frame.pos, &word)
                };
                let mv = parsed.map_err(|reason| PgnError::Move {
                    ply: frame.ply,
                    text: word.clone(),
                    reason,
                })?;
                let index = arena.push(frame.parent, mv, frame.pending.take());
                frame.last = Some((frame.parent, frame.pos.clone(), frame.ply));
                let _ = frame.pos.play(mv);
                frame.parent = Some(index);
                frame.ply += 1;
            }
            Token::Comment(text) => match frame.parent.filter(|_| frame.last.is_some()) {
                Some(index) => add(&mut arena.nodes[index].1.comment, text),
                None if outer.is_empty() => add(&mut comment, text),
                None => add(&mut frame.pending, text),
            },
            Token::Open => {
                let Some((parent, pos, ply)) = frame.last.clone() else {
                    return Err(PgnError::Syntax("a variation opens before any move".into()));
                };
                outer.push(frame);
                frame = Frame {
                    parent,
                    pos,
                    ply,
                    last: None,
                    pending: None,
                };
            }
            Token::Close => {
                frame = outer
                    .pop()
                    .ok_or_else(|| PgnError::Syntax("a ) closes no variation".into()))?;
            }
            Token::Result(r) => result = Some(r),
        }
    }
    if !outer.is_empty() {
        return Err(PgnError::Syntax("a variation is not closed with )".into()));
    }
    if tag("Result").is_none() {
        tags.push(("Result".into(), result.unwrap_or_else(|| "*".into())));
    }
    Ok(Study {
        tags,
        start,
        comment,
        moves: arena.into_tree(),
    })
}

/// One thing left to write.
enum Task<'a> {
    /// Write the move `list[index]` played from `pos` at `ply` and go on along its line.
    Line {
        list: &'a [Node],
        index: usize,
        pos: Position,
        ply: usize,
        number: bool,
    },
    Word(&'static str),
}

/// Writes a study as PGN: the game line with every variation in `( … )` where it branches,
/// comments in `{ … }`, in WXF or coordinates. Tags come first (Result, Variant and, for a
/// start of its own, SetUp and FEN added).
pub fn write_study_pgn(study: &Study, format: MoveFormat) -> String {
    let mut out = String::new();
    // Only a result PGN knows ends the movetext (a `2-0` would read as a move).
    let result = study
        .tag("Result")
        .filter(|r| matches!(*r, "1-0" | "0-1" | "1/2-1/2" | "*"))
        .unwrap_or("*")
        .to_owned();
    for (name, value) in &study.tags {
        if !["Result", "Variant", "SetUp", "FEN", "Format"]
            .iter()
            .any(|n| n.eq_ignore_ascii_case(name))
        {
            push_tag(&mut out, name, value);
        }
    }
    push_tag(&mut out, "Result", &result);
    push_tag(&mut out, "Variant", "Xiangqi");
    let fen = study.start.to_fen();
    if fen != START_FEN {
        push_tag(&mut out, "SetUp", "1");
        push_tag(&mut out, "FEN", &fen);
    }
    if format == MoveFormat::Wxf {
        push_tag(&mut out, "Format", "WXF");
    }
    out.push('\n');
    let mut words: Vec<String> = Vec::new();
    if let Some(c) = &study.comment {
        words.push(comment_word(c));
    }
    let number_base = study.start.fullmove_number().max(1) as usize;
    let red_first = study.start.side_to_move() == Color::Red;
    let mut tasks = vec![Task::Line {
        list: &study.moves,
        index: 0,
        pos: study.start.clone(),
        ply: 1,
        number: true,
    }];
    while let Some(task) = tasks.pop() {
        let (list, index, pos, ply, number) = match task {
            Task::Word(w) => {
                words.push(w.to_owned());
                continue;
            }
            Task::Line {
                list,
                index,
                pos,
                ply,
                number,
            } => (list, index, pos, ply, number),
        };
        let Some(node) = list.get(index) else {
            continue;
        };
        // Move numbers: Red's moves carry theirs; Black's when a line starts with one.
        let half = ply - 1 + usize::from(!red_first);
        let move_number = number_base + half / 2;
        if pos.side_to_move() == Color::Red {
            words.push(format!("{move_number}."));
        } else if number {
            words.push(format!("{move_number}..."));
        }
        words.push(match format {
            MoveFormat::Wxf => to_wxf(&pos, node.mv),
            MoveFormat::Coordinates => node.mv.to_string(),
        });
        if let Some(c) = &node.comment {
            words.push(comment_word(c));
        }
        let mut after = pos.clone();
        let _ = after.play(node.mv);
        let alternatives = if index == 0 { list.len() - 1 } else { 0 };
        // In writing order: each alternative in brackets, then the line goes on; pushed last
        // first.
        tasks.push(Task::Line {
            list: &node.next,
            index: 0,
            pos: after,
            ply: ply + 1,
            number: alternatives > 0 || node.comment.is_some(),
        });
        for k in (1..=alternatives).rev() {
            tasks.push(Task::Word(")"));
            tasks.push(Task::Line {
                list,
                index: k,
                pos: pos.clone(),
                ply,
                number: true,
            });
            tasks.push(Task::Word("("));
        }
    }
    words.push(result);
    let mut line = String::new();
    for word in words {
        let full = line.chars().count() + 1 + word.chars().count() > 79;
        if full && !line.is_empty() && !line.ends_with('(') {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        // No space inside the brackets of a variation.
        if !line.is_empty() && !line.ends_with('(') && word != ")" {
            line.push(' ');
        }
        line.push_str(&word);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// A comment as PGN can hold it: braces inside become brackets of another shape.
fn comment_word(text: &str) -> String {
    format!("{{{}}}", text.replace('{', "(").replace('}', ")"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xiangqi::notation::{parse_coordinates, to_chinese};

    fn node(m: &str, comment: Option<&str>, next: Vec<Node>) -> Node {
        Node {
            mv: parse_coordinates(m).unwrap_or_else(|e| panic!("{m}: {e}")),
            comment: comment.map(str::to_owned),
            next,
        }
    }

    fn sample(start: &str) -> Study {
        Study {
            tags: vec![
                ("Event".into(), "练习".into()),
                ("White".into(), "甲".into()),
                ("Result".into(), "1-0".into()),
            ],
            start: Position::from_fen(start).unwrap_or_else(|e| panic!("{e}")),
            comment: Some("开局 {注}".into()),
            moves: vec![
                node(
                    "h3e3",
                    Some("中炮"),
                    vec![
                        node("h10g8", None, vec![node("h1g3", None, vec![])]),
                        node(
                            "b8e8",
                            Some("顺炮\n两行"),
                            vec![node("b1c3", None, vec![]), node("h1g3", Some("另"), vec![])],
                        ),
                        node("c7c6", None, vec![]),
                    ],
                ),
                node("c4c5", Some("仙人指路"), vec![node("c7c6", None, vec![])]),
            ],
        }
    }

    #[test]
    fn a_written_study_reads_back_equal_in_both_formats() {
        for start in [
            START_FEN,
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 7",
        ] {
            let mut study = sample(start);
            for format in [MoveFormat::Wxf, MoveFormat::Coordinates] {
                let text = write_study_pgn(&study, format);
                let read = read_study_pgn(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
                assert_eq!(read.moves, study.moves, "{text}");
                assert_eq!(read.comment.as_deref(), Some("开局 (注)"), "{text}");
                assert_eq!(read.start, study.start);
                assert_eq!(read.tag("White"), Some("甲"));
                assert_eq!(read.tag("Result"), Some("1-0"));
            }
            study.comment = None;
            let text = write_study_pgn(&study, MoveFormat::Wxf);
            assert!(
                start != START_FEN || text.contains("1. C2=5 {中炮} (1. P7+1 {仙人指路}"),
                "{text}"
            );
            assert!(
                start == START_FEN
                    || text.contains(
                        "7. C2=5 {中炮} (7. P7+1 {仙人指路} 7... P3+1) 7... H8+7 (7... C2=5"
                    ),
                "{text}"
            );
        }
    }

    #[test]
    fn pgn_from_elsewhere_with_variations_reads_into_a_tree() {
        // Chinese moves, a variation for Black, one nested in it, comments before and after.
        let text = "[Red \"胡荣华\"]\n\n{全局}\n1. 炮二平五 {中炮} 马8进7 (1... 炮8平5 {顺炮} 2. 马二进三 \
                    (2. 马八进七) 马8进7) 2. 马二进三 $1 车9平8 *";
        let study = read_study_pgn(text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(study.comment.as_deref(), Some("全局"));
        assert_eq!(study.node_count(), 8);
        let main: Vec<String> = {
            let mut pos = study.start.clone();
            study
                .main_line()
                .into_iter()
                .map(|m| {
                    let t = to_chinese(&pos, m);
                    let _ = pos.play(m);
                    t
                })
                .collect()
        };
        assert_eq!(main, ["炮二平五", "马8进7", "马二进三", "车9平8"]);
        let reply = &study.moves[0].next[1];
        assert_eq!(reply.comment.as_deref(), Some("顺炮"));
        assert_eq!(reply.next.len(), 2, "马二进三 and the nested 马八进七");
        assert_eq!(study.tag("Result"), Some("*"));
    }

    #[test]
    fn a_result_pgn_does_not_know_is_written_as_unknown() {
        // The fuzzer's find: `[Result "2-0"]` ended Qiguan's own movetext with `2-0`, which
        // reads as a move.
        let mut study = sample(START_FEN);
        study.tags = vec![("Result".into(), "2-0".into())];
        let text = write_study_pgn(&study, MoveFormat::Wxf);
        let read = read_study_pgn(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(read.moves, study.moves);
        assert_eq!(read.tag("Result"), Some("*"));
    }

    #[test]
    fn a_broken_variation_says_why() {
        for (text, why) in [
            ("1. h3e3 (1. h2e2", "not closed"),
            ("1. h3e3 ) h10g8", "closes no"),
            ("( 1. h3e3 )", "before any move"),
            ("1. h3e3 {no end", "comment"),
        ] {
            match read_study_pgn(text) {
                Err(PgnError::Syntax(what)) => assert!(what.contains(why), "{text}: {what}"),
                other => panic!("{text}: {other:?}"),
            }
        }
        match read_study_pgn("1. h3e3 (1. h3e3 h10g8 2. e3e7 e7e8)") {
            Err(PgnError::Move { ply, .. }) => assert_eq!(ply, 4, "the variation's fourth move"),
            other => panic!("{other:?}"),
        }
    }
}
