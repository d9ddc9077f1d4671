//! Training data for the Xiangqi network (issue 37): Qiguan's engine plays itself from the
//! standard start after a few random plies, at a fixed node budget a move (so that a seed
//! gives the same games on any machine), and every quiet position is written with the search's
//! score and the game's result. Only the engine's own play goes in: no outside games or nets.
//!
//! ```text
//! cargo run --release -p qiguan-core --example xiangqi_datagen -- \
//!     --games 20000 --nodes 6000 --threads 2 --seed 1 --out data.txt [--net FILE|classical]
//! ```
//! Each line: the position's FEN, then `|` Red's score in centipawns (the search's score at
//! the position, turned to Red's side), then `|` Red's result (`1`, `0.5`, `0`). A position is
//! kept when its side to move is not in check, the move the search chose is not a capture,
//! the score is not a mate, and the game is past its random plies. A game ends by the rules
//! core (mate, repetition judged, 120 plies without a capture), or is adjudicated: a side ahead
//! by 2,500 or more for eight plies in a row wins; 400 plies draw.
//! `--net` plays with the evaluation of that net file (`classical` for the hand-written one;
//! default: the engine's own).

use qiguan_core::xiangqi::engine::{Engine, Limits, MATE, Score, Style};
use qiguan_core::xiangqi::{Color, Xiangqi, XiangqiOptions, seat_of};
use qiguan_core::{GameResult, Rules};
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

struct Settings {
    games: usize,
    nodes: u64,
    threads: usize,
    seed: u64,
    out: String,
    net: Option<String>,
}

fn main() {
    let s = match read_args() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}\n{}", USAGE);
            std::process::exit(2);
        }
    };
    let file = match std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&s.out)
    {
        Ok(f) => Arc::new(Mutex::new(f)),
        Err(e) => {
            eprintln!("{}: {e}", s.out);
            std::process::exit(1);
        }
    };
    let s = Arc::new(s);
    let next = Arc::new(AtomicUsize::new(0));
    let totals = Arc::new(Mutex::new((0usize, [0usize; 3])));
    let started = std::time::Instant::now();
    let workers: Vec<_> = (0..s.threads.max(1))
        .map(|_| {
            let (s, next, file, totals) = (s.clone(), next.clone(), file.clone(), totals.clone());
            std::thread::spawn(move || {
                let mut engine = Engine::new(16);
                if let Some(net) = &s.net
                    && let Err(e) = engine.use_net_file(net)
                {
                    eprintln!("{net}: {e}");
                    std::process::exit(1);
                }
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= s.games {
                        break;
                    }
                    let (lines, result) = play(&mut engine, &s, i as u64);
                    let mut text = String::new();
                    for line in &lines {
                        text.push_str(line);
                        text.push('\n');
                    }
                    if let Ok(mut f) = file.lock() {
                        let _ = f.write_all(text.as_bytes());
                    }
                    if let Ok(mut t) = totals.lock() {
                        t.0 += lines.len();
                        t.1[(result * 2.0) as usize] += 1;
                        let done = t.1.iter().sum::<usize>();
                        if done % 100 == 0 {
                            eprintln!(
                                "{done} games, {} positions, {:.0} s (Red: {} won, {} drawn, {} lost)",
                                t.0,
                                started.elapsed().as_secs_f64(),
                                t.1[2],
                                t.1[1],
                                t.1[0]
                            );
                        }
                    }
                }
            })
        })
        .collect();
    for w in workers {
        let _ = w.join();
    }
    if let Ok(t) = totals.lock() {
        println!(
            "{} games, {} positions in {:.0} s; Red {} won, {} drawn, {} lost",
            t.1.iter().sum::<usize>(),
            t.0,
            started.elapsed().as_secs_f64(),
            t.1[2],
            t.1[1],
            t.1[0]
        );
    }
}

const USAGE: &str = "usage: xiangqi_datagen --out FILE [--games N] [--nodes N] [--threads N] [--seed N] [--net FILE|classical]";

fn read_args() -> Result<Settings, String> {
    let mut s = Settings {
        games: 1000,
        nodes: 6000,
        threads: 2,
        seed: 1,
        out: String::new(),
        net: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let value = args.next().ok_or(format!("{arg} needs a value"))?;
        let bad = |_| format!("{arg}: {value} does not read");
        match arg.as_str() {
            "--games" => s.games = value.parse().map_err(bad)?,
            "--nodes" => s.nodes = value.parse().map_err(bad)?,
            "--threads" => s.threads = value.parse().map_err(bad)?,
            "--seed" => s.seed = value.parse().map_err(bad)?,
            "--out" => s.out = value,
            "--net" => s.net = Some(value),
            _ => return Err(format!("unknown argument {arg}")),
        }
    }
    if s.out.is_empty() {
        return Err("--out is needed".into());
    }
    Ok(s)
}

/// A small deterministic generator (splitmix64) for the random plies.
struct Dice(u64);

impl Dice {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// Plays game `index`; returns its kept positions as lines and Red's result.
fn play(engine: &mut Engine, s: &Settings, index: u64) -> (Vec<String>, f64) {
    let mut dice = Dice(s.seed.wrapping_mul(0x1000_0000_01B3) ^ index);
    let options = XiangqiOptions {
        move_limit: Some(XiangqiOptions::USUAL_MOVE_LIMIT),
        ..XiangqiOptions::default()
    };
    let Ok(mut game) = Xiangqi::start(&options, None) else {
        return (Vec::new(), 0.5);
    };
    engine.clear();
    // 4 to 9 random plies, each a legal move chosen uniformly.
    let random = 4 + (dice.next() % 6) as usize;
    for _ in 0..random {
        let moves = game.position().legal_moves();
        if moves.is_empty() || game.outcome().is_some() {
            return (Vec::new(), 0.5);
        }
        let m = moves[(dice.next() % moves.len() as u64) as usize];
        if game.play_move(m).is_err() {
            return (Vec::new(), 0.5);
        }
    }
    let limits = Limits {
        nodes: Some(s.nodes),
        ..Limits::default()
    };
    let style = Style::default();
    let mut kept: Vec<(String, i32)> = Vec::new();
    let mut ahead = (Color::Red, 0u32);
    let mut plies = random;
    let result = loop {
        if let Some(outcome) = game.outcome() {
            break match &outcome.result {
                GameResult::Win { winners } if winners.contains(&seat_of(Color::Red)) => 1.0,
                GameResult::Win { .. } => 0.0,
                _ => 0.5,
            };
        }
        if plies >= 400 {
            break 0.5;
        }
        let pos = game.position().clone();
        let mover = pos.side_to_move();
        let found = engine.search(&game, &limits, &style, |_| {});
        let Some(m) = found.best else {
            break 0.5;
        };
        let red = |v: i32| if mover == Color::Red { v } else { -v };
        if let Score::Cp(cp) = found.score {
            let quiet = pos.piece_at(m.to).is_none() && !pos.in_check(mover);
            if quiet && cp.abs() < MATE / 2 {
                kept.push((pos.to_fen(), red(cp)));
            }
            // Adjudication: one side 2,500 or more ahead for eight plies in a row.
            let leader = if red(cp) > 0 {
                Color::Red
            } else {
                Color::Black
            };
            if cp.abs() >= 2500 {
                ahead = if ahead.0 == leader && ahead.1 > 0 {
                    (leader, ahead.1 + 1)
                } else {
                    (leader, 1)
                };
                if ahead.1 >= 8 {
                    break if leader == Color::Red { 1.0 } else { 0.0 };
                }
            } else {
                ahead.1 = 0;
            }
        }
        if game.play_move(m).is_err() {
            // The rules core refused the engine's move (cannot happen: the root is checked).
            break 0.5;
        }
        plies += 1;
    };
    let lines = kept
        .into_iter()
        .map(|(fen, cp)| format!("{fen} | {cp} | {result}"))
        .collect();
    (lines, result)
}
