//! Perft against the golden counts in `tests/data/xiangqi.perft`.

use qiguan_core::xiangqi::Position;

/// Leaf counts above this run only in the ignored (release) test.
const FAST_LIMIT: u64 = 5_000_000;

struct Case {
    id: String,
    fen: String,
    depth: u32,
    nodes: u64,
}

fn cases() -> Vec<Case> {
    let text = include_str!("data/xiangqi.perft");
    let (mut id, mut fen) = (String::new(), String::new());
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "id" => id = value.to_string(),
            "epd" => fen = value.to_string(),
            "perft" => {
                let mut parts = value.split_whitespace().map(|v| v.parse::<u64>());
                match (parts.next(), parts.next()) {
                    (Some(Ok(depth)), Some(Ok(nodes))) => out.push(Case {
                        id: id.clone(),
                        fen: fen.clone(),
                        depth: depth as u32,
                        nodes,
                    }),
                    _ => panic!("line {}: bad perft line `{line}`", n + 1),
                }
            }
            _ => panic!("line {}: unknown key `{key}`", n + 1),
        }
    }
    out
}

fn run(filter: impl Fn(&Case) -> bool) -> usize {
    let mut ran = 0;
    for case in cases().iter().filter(|c| filter(c)) {
        let mut pos =
            Position::from_fen(&case.fen).unwrap_or_else(|e| panic!("{}: bad FEN: {e}", case.id));
        assert_eq!(
            pos.perft(case.depth),
            case.nodes,
            "{} perft({})",
            case.id,
            case.depth
        );
        ran += 1;
    }
    ran
}

#[test]
fn perft_golden_counts() {
    let ran = run(|c| c.nodes <= FAST_LIMIT);
    assert!(ran >= 6, "only {ran} perft cases ran");
}

#[test]
#[ignore = "slow: run with cargo test --release -- --ignored"]
fn perft_golden_counts_deep() {
    let ran = run(|c| c.nodes > FAST_LIMIT);
    assert!(ran >= 1);
}
