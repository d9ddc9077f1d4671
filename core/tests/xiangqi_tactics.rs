//! The tactics suite (`docs/bench/xiangqi-tactics.epd`, made by `scripts/xiangqi-tactics
//! make`) is well formed: every problem's FEN reads, its answer is a legal move there, it has
//! a choice to make, and no problem or name appears twice. Whether the engine solves them is a
//! benchmark (`scripts/xiangqi-tactics run`), not a test: it depends on time.

use qiguan_core::xiangqi::{Move, Position};
use std::collections::HashSet;

const SUITE: &str = include_str!("../../docs/bench/xiangqi-tactics.epd");

#[test]
fn every_problem_reads_and_its_answer_is_legal() {
    let mut fens = HashSet::new();
    let mut names = HashSet::new();
    let mut count = 0;
    for line in SUITE.lines().filter(|l| !l.trim().is_empty()) {
        let (fen, rest) = line
            .split_once(" bm ")
            .unwrap_or_else(|| panic!("no `bm` in {line}"));
        let position = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let answer = rest.split(';').next().unwrap_or_default().trim();
        let answer: Move = answer
            .parse()
            .unwrap_or_else(|e| panic!("{fen}: answer {answer}: {e}"));
        let legal = position.legal_moves();
        assert!(legal.contains(&answer), "{fen}: {answer} is not legal");
        assert!(legal.len() > 1, "{fen}: a forced move is no problem");
        let name = rest
            .split_once("id \"")
            .and_then(|(_, n)| n.split_once('"'))
            .map(|(n, _)| n)
            .unwrap_or_else(|| panic!("no id in {line}"));
        assert!(fens.insert(position.to_fen()), "{fen} twice");
        assert!(names.insert(name.to_owned()), "{name} twice");
        count += 1;
    }
    assert!(count > 0, "the suite is empty");
}
