//! What each fuzz target checks of one input, shared by the targets (`fuzz/fuzz_targets`,
//! built with cargo-fuzz on nightly) and by the stable test that replays every saved input
//! (`tests/saved_inputs.rs`: the seed corpus and every crash found, so CI keeps each fix).
//!
//! Every check takes the raw bytes libFuzzer made. Bad input must be refused with an error,
//! never a panic; input that is accepted must also keep its promises (a FEN written back
//! reads as the same position, a record replays to the same state, a notation names the move
//! it was read as). A broken promise panics with what was expected.

use qiguan_core::xiangqi::dhtmlxq::{read_dhtmlxq, write_dhtmlxq};
use qiguan_core::xiangqi::engine::Engine;
use qiguan_core::xiangqi::notation::{
    parse_any, parse_chinese, parse_coordinates, parse_iccs, parse_wxf, to_chinese, to_wxf,
};
use qiguan_core::xiangqi::pgn::{MoveFormat, read_game, write_pgn};
use qiguan_core::xiangqi::pgn_study::{read_study_pgn, write_study_pgn};
use qiguan_core::xiangqi::study::{Node, Study};
use qiguan_core::xiangqi::uci::{Command, Session, bestmove_line, identify, info_line, parse};
use qiguan_core::xiangqi::xqf::{XqfKeys, read_xqf, write_xqf};
use qiguan_core::xiangqi::{Position, XiangqiOptions};
use qiguan_core::{AnyMatch, Match, Record, Viewer};

/// A target's check of one input.
pub type Check = fn(&[u8]);

/// The targets, by the name of their corpus and regression folders.
pub const TARGETS: &[(&str, Check)] = &[
    ("fen", fen),
    ("notation", notation),
    ("pgn", pgn),
    ("uci", uci),
    ("record", record),
    ("api", api::api),
    ("xqf", xqf),
    ("dhtmlxq", dhtmlxq),
];

pub mod api;

/// The most bytes a check reads: longer inputs only slow the search down.
const MAX_LEN: usize = 16 * 1024;

fn text(data: &[u8]) -> Option<&str> {
    if data.len() > MAX_LEN {
        return None;
    }
    std::str::from_utf8(data).ok()
}

/// A FEN: refused, or read into a position whose FEN reads back to the same position, whose
/// legal moves can be listed and played, each leaving a position that writes a FEN again.
pub fn fen(data: &[u8]) {
    let Some(text) = text(data) else { return };
    let Ok(pos) = Position::from_fen(text) else {
        return;
    };
    let written = pos.to_fen();
    let again = Position::from_fen(&written)
        .unwrap_or_else(|e| panic!("{text:?} was read, but its FEN {written:?} is refused: {e}"));
    assert_eq!(again.to_fen(), written, "{text:?}: the written FEN changed");
    for m in pos.legal_moves() {
        let mut next = pos.clone();
        next.play(m)
            .unwrap_or_else(|e| panic!("{written}: listed move {m} refused: {e}"));
        let _ = next.to_fen();
        assert!(pos.is_legal(m), "{written}: listed move {m} is not legal");
    }
}

/// A FEN on the first line (the start if it is not one), a move in any notation on the
/// second: refused, or a legal move that each notation writes and reads back as itself.
pub fn notation(data: &[u8]) {
    let Some(text) = text(data) else { return };
    let (first, move_text) = text.split_once('\n').unwrap_or(("", text));
    let pos = Position::from_fen(first).unwrap_or_else(|_| Position::start());
    // Each reader alone must refuse or return some move (not necessarily a legal one: the
    // coordinate readers know nothing of the position).
    let _ = parse_coordinates(move_text);
    let _ = parse_iccs(move_text);
    let _ = parse_wxf(&pos, move_text);
    let _ = parse_chinese(&pos, move_text);
    let Ok(m) = parse_any(&pos, move_text) else {
        return;
    };
    assert!(
        pos.is_legal(m),
        "{move_text:?} read as {m}, not legal in {}",
        pos.to_fen()
    );
    let wxf = to_wxf(&pos, m);
    assert_eq!(parse_wxf(&pos, &wxf), Ok(m), "WXF {wxf:?} of {m}");
    let chinese = to_chinese(&pos, m);
    assert_eq!(parse_chinese(&pos, &chinese), Ok(m), "{chinese:?} of {m}");
    assert_eq!(parse_any(&pos, &m.to_string()), Ok(m), "coordinates of {m}");
}

/// A PGN file (or a bare FEN): refused, or a game whose record replays, and whose PGN, as
/// Qiguan writes it, reads back to the same moves and result.
pub fn pgn(data: &[u8]) {
    let Some(text) = text(data) else { return };
    // With its variations and comments: every line legal, and Qiguan's own PGN of the tree
    // reads back to the same tree.
    if let Ok(study) = read_study_pgn(text) {
        studied(&study);
        for format in [MoveFormat::Wxf, MoveFormat::Coordinates] {
            let written = write_study_pgn(&study, format);
            let back = read_study_pgn(&written)
                .unwrap_or_else(|e| panic!("Qiguan's own PGN {written:?} is refused: {e}"));
            // PGN has no way to write a brace inside a comment: Qiguan writes it as a
            // parenthesis, and that is the only change allowed.
            assert_eq!(
                (&back.start, braces_as_written(&back.moves)),
                (&study.start, braces_as_written(&study.moves)),
                "{written:?} read back to another tree"
            );
        }
    }
    let Ok(game) = read_game(text) else { return };
    let _ = game.players();
    let Ok(record) = game.to_record(&XiangqiOptions::default()) else {
        return;
    };
    let played = AnyMatch::from_record(&record)
        .unwrap_or_else(|e| panic!("the record made of {text:?} does not replay: {e:?}"));
    let AnyMatch::Xiangqi(m) = &played else {
        panic!("a PGN made a {:?} record", played.kind());
    };
    for format in [MoveFormat::Wxf, MoveFormat::Coordinates] {
        let written = write_pgn(m, &[], format);
        let back = read_game(&written)
            .unwrap_or_else(|e| panic!("Qiguan's own PGN {written:?} is refused: {e}"));
        let again = back
            .to_record(&XiangqiOptions::default())
            .unwrap_or_else(|e| panic!("Qiguan's own PGN {written:?} does not replay: {e}"));
        assert_eq!(
            again.actions, record.actions,
            "{written:?} read back to other actions"
        );
    }
}

/// An XQF file: refused with a reason, or a study whose every line is legal, which Qiguan
/// writes back (with keys and without) to the same tree, and whose main line replays as a
/// record.
pub fn xqf(data: &[u8]) {
    if data.len() > MAX_LEN {
        return;
    }
    let Ok(study) = read_xqf(data) else { return };
    studied(&study);
    for keys in [
        XqfKeys::default(),
        XqfKeys {
            mask: 0xA5,
            or: [1, 2, 3, 4],
            sum: 9,
            xy: 77,
            from: 200,
            to: 3,
        },
    ] {
        let written = write_xqf(&study, keys);
        let back =
            read_xqf(&written).unwrap_or_else(|e| panic!("Qiguan's own XQF is refused: {e}"));
        assert_eq!(
            (&back.start, &back.moves),
            (&study.start, &study.moves),
            "XQF read back to another tree"
        );
    }
}

/// DhtmlXQ text: refused with a reason, or a study whose every line is legal, which Qiguan
/// writes back to the same tree, and whose main line replays as a record.
pub fn dhtmlxq(data: &[u8]) {
    let Some(text) = text(data) else { return };
    let Ok(study) = read_dhtmlxq(text) else {
        return;
    };
    studied(&study);
    let written = write_dhtmlxq(&study);
    let back = read_dhtmlxq(&written)
        .unwrap_or_else(|e| panic!("Qiguan's own DhtmlXQ {written:?} is refused: {e}"));
    assert_eq!(
        (&back.start, &back.moves),
        (&study.start, &study.moves),
        "{written:?} read back to another tree"
    );
}

/// A tree with its comments as PGN writes them (braces as parentheses).
fn braces_as_written(nodes: &[Node]) -> Vec<Node> {
    let mut out = nodes.to_vec();
    let mut stack: Vec<&mut Node> = out.iter_mut().collect();
    while let Some(node) = stack.pop() {
        node.comment = node
            .comment
            .take()
            .map(|c| c.replace('{', "(").replace('}', ")"));
        stack.extend(node.next.iter_mut());
    }
    out
}

/// What a study read from any file must be: every line legal, a main line that replays.
fn studied(study: &Study) {
    assert_eq!(
        study.check(),
        Ok(()),
        "a reader let an illegal move through"
    );
    let game = study.to_game();
    if let Ok(record) = game.to_record(&XiangqiOptions::default()) {
        AnyMatch::from_record(&record)
            .unwrap_or_else(|e| panic!("a study's main line does not replay: {e:?}"));
    }
}

/// UCI lines, one a line: every line is answered or refused as the engine would, and `go`
/// searches within a small budget (so that a fuzzed `go infinite` ends) and names a legal
/// move or none.
pub fn uci(data: &[u8]) {
    let Some(text) = text(data) else { return };
    let mut session = Session::default();
    // The smallest table: a fuzzed `setoption name Hash` does not change it.
    let mut engine = Engine::new(1);
    for line in text.lines().take(64) {
        let command = match parse(line) {
            Ok(Some(c)) => c,
            Ok(None) | Err(_) => continue,
        };
        match command {
            Command::Uci => assert!(identify().last().is_some_and(|l| l == "uciok")),
            Command::Position { fen, moves } => {
                let before = session.game.position().to_fen();
                if session.set_position(fen.as_deref(), &moves).is_err() {
                    assert_eq!(
                        session.game.position().to_fen(),
                        before,
                        "a refused position changed the game"
                    );
                }
            }
            Command::SetOption { name, value } => {
                let _ = session.set_option(&name, value.as_deref());
            }
            Command::Go(go) => {
                let (mut limits, style) = session.plan(&go);
                limits.time = None;
                limits.nodes = Some(limits.nodes.unwrap_or(2_000).min(2_000));
                limits.depth = Some(limits.depth.unwrap_or(3).min(3));
                let found = engine.search(&session.game, &limits, &style, |info| {
                    let _ = info_line(info);
                });
                let line = bestmove_line(&found);
                assert!(line.starts_with("bestmove "), "{line:?}");
                if let Some(m) = found.best {
                    assert!(
                        session.game.position().is_legal(m),
                        "bestmove {m} is not legal in {}",
                        session.game.position().to_fen()
                    );
                }
            }
            Command::NewGame => engine.clear(),
            _ => {}
        }
    }
}

/// A game record as the store and the server keep it (JSON, any of the four games): refused,
/// or replayed to a game whose own record is the same, replays to the same state and shows
/// every seat and a spectator a view.
pub fn record(data: &[u8]) {
    let Some(text) = text(data) else { return };
    let Ok(record) = Record::from_json(text) else {
        return;
    };
    let Ok(game) = AnyMatch::from_record(&record) else {
        return;
    };
    let kept = game.record();
    let again = AnyMatch::from_record(
        &Record::from_json(&kept.to_json())
            .unwrap_or_else(|e| panic!("the record written back is refused: {e:?}")),
    )
    .unwrap_or_else(|e| panic!("the record written back does not replay: {e:?}"));
    assert_eq!(again.version(), game.version(), "{text}");
    assert_eq!(again.outcome(), game.outcome(), "{text}");
    assert_eq!(again.to_act(), game.to_act(), "{text}");
    assert_eq!(again.record(), kept, "{text}");
    for seat in 0..game.seat_count() {
        let seat = qiguan_core::Seat::new(seat as u8).unwrap_or(qiguan_core::Seat::FIRST);
        let viewer = Viewer::Seat(seat);
        assert_eq!(again.view_json(viewer), game.view_json(viewer));
        let _ = game.legal_actions(qiguan_core::Actor::Seat(seat));
    }
    let _ = game.view_json(Viewer::Spectator);
    // The Xiangqi record's moves also go to PGN and back.
    if let AnyMatch::Xiangqi(m) = &game {
        let _: &Match<_> = m;
        let _ = write_pgn(m, &[], MoveFormat::Wxf);
    }
}
