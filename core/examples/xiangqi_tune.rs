//! Texel tuning of the Xiangqi evaluation on saved games (see `xiangqi::engine::tune`).
//!
//! ```text
//! cargo run --release -p qiguan-core --example xiangqi_match -- \
//!     --level 4 --against-level 4 --games 1600 --save games.txt
//! cargo run --release -p qiguan-core --example xiangqi_tune -- games.txt [more.txt …] [--passes 20]
//! ```
//! Each line of a games file is Red's score (`1`, `0.5`, `0`) then the moves from the
//! standard start, as `xiangqi_match --save` writes them. Every tenth game is held back to
//! check the result on games the tuning never saw. Prints the error before and after, and the
//! tuned weights as Rust, for `eval::DEFAULT`.

use qiguan_core::xiangqi::Move;
use qiguan_core::xiangqi::engine::eval::{DEFAULT, WEIGHTS};
use qiguan_core::xiangqi::engine::tune::{self, samples};

fn main() {
    let mut files = Vec::new();
    let mut passes = 20;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--passes" {
            passes = args.next().and_then(|v| v.parse().ok()).unwrap_or(passes);
        } else {
            files.push(arg);
        }
    }
    if files.is_empty() {
        eprintln!("usage: xiangqi_tune GAMES.txt [MORE.txt …] [--passes N]");
        std::process::exit(2);
    }
    let mut train = Vec::new();
    let mut held = Vec::new();
    let mut count = 0usize;
    for file in &files {
        let text = match std::fs::read_to_string(file) {
            Ok(text) => text,
            Err(e) => {
                eprintln!("{file}: {e}");
                std::process::exit(1);
            }
        };
        for (n, line) in text.lines().enumerate() {
            let mut words = line.split_whitespace();
            let Some(result) = words.next().and_then(|w| w.parse::<f64>().ok()) else {
                eprintln!("{file}:{}: no result", n + 1);
                continue;
            };
            let moves: Result<Vec<Move>, _> = words.map(str::parse).collect();
            let Ok(moves) = moves else {
                eprintln!("{file}:{}: a move does not read", n + 1);
                continue;
            };
            count += 1;
            if count.is_multiple_of(10) {
                held.push((result, moves));
            } else {
                train.push((result, moves));
            }
        }
    }
    let train = samples(&train);
    let held = samples(&held);
    println!(
        "{count} games: {} training positions, {} held back",
        train.len(),
        held.len()
    );
    let k = tune::fit_k(&train, &DEFAULT);
    let before = (
        tune::error(&train, &DEFAULT, k),
        tune::error(&held, &DEFAULT, k),
    );
    println!(
        "k = {k:.4}; error before: {:.6} (held back {:.6})",
        before.0, before.1
    );
    let tuned = tune::tune(&train, DEFAULT, k, passes, |pass, e, _| {
        println!("pass {pass}: {e:.6}");
    });
    let after = (
        tune::error(&train, &tuned, k),
        tune::error(&held, &tuned, k),
    );
    println!("error after: {:.6} (held back {:.6})", after.0, after.1);
    let list: Vec<String> = (0..WEIGHTS).map(|i| tuned.w[i].to_string()).collect();
    println!("w: [{}]", list.join(", "));
}
