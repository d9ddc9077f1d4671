//! Search speed of the Xiangqi engine, in nodes per second, with the hand-written evaluation
//! and with a network (issue 37: the net costs speed; this says how much). A benchmark, not a
//! test: run it alone on an idle machine.
//!
//! ```text
//! cargo run --release -p qiguan-core --example xiangqi_speed -- [--net FILE] [--ms 2000] [--check]
//! ```
//! `--check` first checks the net: its evaluation of the start position must be the one the
//! trainer wrote into the file (the trainer and the engine compute the same integers).
//! Searches six positions (the start, two middlegames, an endgame…) for `--ms` each, one
//! thread, first with the hand-written evaluation, then with the net (`--net`; default: the
//! engine's own), and prints each one's nodes per second and depth.

use qiguan_core::Rules;
use qiguan_core::xiangqi::engine::{Engine, Limits, Style};
use qiguan_core::xiangqi::{Position, Xiangqi, XiangqiOptions, XiangqiSetup};
use std::time::Duration;

const POSITIONS: [&str; 6] = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/2P6/P3P1P1P/1C2C1N2/9/RNBAKAB1R w - - 4 3",
    "2bakab2/9/2n1c1n2/p1p1p3p/6p2/2P3P2/P3P3P/2N1C1N2/4A4/2BAK1B2 w - - 0 12",
    "3akab2/r8/2n1b1n2/p3p3p/2p3p2/9/P1P1P1P1P/1CN1B1N2/4A4/R2AK1B2 b - - 2 10",
    "4kab2/4a4/4b4/p3p1p1p/9/2P6/P3P1P1P/4B4/4A4/3AK1B2 w - - 0 30",
    "3k5/4a4/9/9/2n6/9/4P4/9/4A4/3AK4 w - - 0 50",
];

fn main() {
    let mut net = None;
    let mut ms = 2000;
    let mut check = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--check" {
            check = true;
            continue;
        }
        match (arg.as_str(), args.next()) {
            ("--net", Some(v)) => net = Some(v),
            ("--ms", Some(v)) => ms = v.parse().unwrap_or(ms),
            _ => {
                eprintln!("usage: xiangqi_speed [--net FILE] [--ms 2000] [--check]");
                std::process::exit(2);
            }
        }
    }
    let mut rows = Vec::new();
    for label in ["classical", "net"] {
        let mut engine = Engine::new(64);
        let chosen = if label == "classical" {
            Some("classical")
        } else {
            net.as_deref()
        };
        if let Some(path) = chosen
            && let Err(e) = engine.use_net_file(path)
        {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
        if label == "net" {
            let Some(net) = engine.net() else {
                eprintln!("no net: give --net FILE");
                std::process::exit(2);
            };
            if check {
                let ours = net.evaluate_position(&Position::start());
                println!(
                    "start position: the engine says {ours}, the trainer said {}",
                    net.start_eval
                );
                if ours != net.start_eval {
                    eprintln!("the net file and the engine disagree");
                    std::process::exit(1);
                }
            }
        }
        let (mut nodes, mut time) = (0u64, 0f64);
        for fen in POSITIONS {
            let setup = XiangqiSetup { fen: fen.into() };
            let game = Xiangqi::start(&XiangqiOptions::default(), Some(&setup))
                .unwrap_or_else(|e| panic!("{fen}: {e:?}"));
            engine.clear();
            let started = std::time::Instant::now();
            let limits = Limits {
                time: Some(Duration::from_millis(ms)),
                ..Limits::default()
            };
            let found = engine.search(&game, &limits, &Style::default(), |_| {});
            let secs = started.elapsed().as_secs_f64();
            nodes += found.nodes;
            time += secs;
            println!(
                "{label:>9}: depth {:>2}, {:>9.0} nodes/s  {fen}",
                found.depth,
                found.nodes as f64 / secs
            );
        }
        rows.push((label, nodes as f64 / time));
    }
    for (label, nps) in &rows {
        println!("{label}: {nps:.0} nodes/s over all positions");
    }
    if rows.len() == 2 {
        println!(
            "the net searches at {:.0}% of the classical speed",
            100.0 * rows[1].1 / rows[0].1
        );
    }
}
