//! Benchmark: with 10 000 stored games, the time from start to the first rendered history
//! list, and the resident memory. Run in release:
//!
//! ```sh
//! cargo run --release -p qiguan-app --example history_bench [-- GAMES [RUNS]]
//! ```
//!
//! The parent fills a fresh database with random legal Xiangqi games (not timed), then starts
//! itself RUNS times as a new process that opens the app on it, goes to the history and renders
//! one frame with Slint's software renderer at phone size. Each child reports its own time from
//! `main` to the rendered frame and its resident memory (VmRSS, and the peak VmHWM) from
//! /proc; the parent also times from spawning the process to that report.
//! `-- --fill DIR [GAMES]` only fills DIR, to try the real app on a large history.

#[path = "../tests/common/mod.rs"]
mod common;

use qiguan_app::settings::Language;
use qiguan_app::store::{Mode, NewGame, Standing, Store};
use qiguan_app::ui::{HistoryAdapter, HomeAdapter};
use qiguan_core::xiangqi::{Xiangqi, XiangqiOptions, seat_of};
use qiguan_core::{Action, Actor, AnyMatch, Match};
use slint::ComponentHandle;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("--measure") => return measure(&args[1]),
        // `--fill DIR [GAMES]`: leave a filled database behind, to try the real app on it.
        Some("--fill") => {
            let games = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(10_000);
            let moves = fill(std::path::Path::new(&args[1]), games);
            return println!("stored {games} games ({moves} moves) in {}", args[1]);
        }
        _ => {}
    }
    let games: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let runs: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(5);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let filled = Instant::now();
    let moves = fill(dir.path(), games);
    let db_size = std::fs::metadata(dir.path().join("qiguan.sqlite")).map_or(0, |m| m.len());
    println!(
        "stored {games} games ({moves} moves, {:.1} MB database) in {:.1} s",
        db_size as f64 / 1e6,
        filled.elapsed().as_secs_f64()
    );
    let results: Vec<(f64, f64, f64, f64)> =
        (0..runs).filter_map(|_| run_once(dir.path())).collect();
    if !results.is_empty() {
        let mut inside: Vec<f64> = results.iter().map(|r| r.0).collect();
        let mut outside: Vec<f64> = results.iter().map(|r| r.1).collect();
        inside.sort_by(f64::total_cmp);
        outside.sort_by(f64::total_cmp);
        let peak = results.iter().map(|r| r.3).fold(0.0, f64::max);
        println!(
            "median over {} runs: {:.1} ms from main, {:.1} ms from spawn; max peak RSS {peak:.1} MB",
            results.len(),
            inside[inside.len() / 2],
            outside[outside.len() / 2]
        );
    }
}

/// Starts the app once on the filled database in `dir` and prints when its history drew:
/// (from main, from spawn, RSS, peak RSS) in ms and MB.
fn run_once(dir: &std::path::Path) -> Option<(f64, f64, f64, f64)> {
    let spawned = Instant::now();
    let mut child = Command::new(std::env::current_exe().expect("own path"))
        .args(["--measure", &dir.display().to_string()])
        .stdout(Stdio::piped())
        .spawn()
        .expect("the child starts");
    let stdout = child.stdout.take().expect("piped");
    let line = BufReader::new(stdout)
        .lines()
        .next()
        .and_then(Result::ok)
        .unwrap_or_default();
    let outside = spawned.elapsed().as_secs_f64() * 1000.0;
    let _ = child.wait();
    let fields: Vec<f64> = line
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    if let [inside, rss, peak, rows] = fields[..] {
        println!(
            "first history frame: {inside:.1} ms from main, {outside:.1} ms from spawn; \
             RSS {rss:.1} MB (peak {peak:.1} MB); {rows} games listed"
        );
        Some((inside, outside, rss, peak))
    } else {
        println!("child said: {line:?}");
        None
    }
}

/// Stores `n` random legal games of 20 to 140 plies, a third of them unfinished.
fn fill(dir: &std::path::Path, n: usize) -> usize {
    let mut store = Store::open_dir(dir).expect("a store");
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let names = ["张三", "李四", "王五", "赵六", "Ann", "Bo", "陈七", ""];
    let mut total = 0;
    store
        .in_transaction(|store| {
            for i in 0..n {
                let mut game: Match<Xiangqi> =
                    Match::new(&XiangqiOptions::default(), None).expect("a start");
                let plies = 20 + (next() % 120) as usize;
                for _ in 0..plies {
                    let pos = game.game().position().clone();
                    let legal = pos.legal_moves();
                    if legal.is_empty() || game.outcome().is_some() {
                        break;
                    }
                    let m = legal[(next() % legal.len() as u64) as usize];
                    let actor = Actor::Seat(seat_of(pos.side_to_move()));
                    game.apply(actor, &Action::Play(m)).expect("a legal move");
                }
                if game.outcome().is_none() && i % 3 != 0 {
                    let actor = Actor::Seat(seat_of(game.game().position().side_to_move()));
                    game.apply(actor, &Action::Resign).expect("resigning");
                }
                total += game.game().moves().count();
                let any = AnyMatch::Xiangqi(game);
                let players = vec![
                    names[(next() % 8) as usize].to_owned(),
                    names[(next() % 8) as usize].to_owned(),
                ];
                let record = any.record();
                let new = NewGame::from_match(&any, Mode::PassAndPlay, players);
                let when = 1_700_000_000_000 + i as i64 * 60_000;
                store.create_game_with(&new, &record.actions, &Standing::of(&any), when)?;
            }
            Ok(())
        })
        .expect("the games are stored");
    total
}

/// The child: start the app, open the history, render one frame, report.
fn measure(dir: &str) {
    let started = Instant::now();
    let app = common::start(std::path::Path::new(dir), Language::Chinese, (360, 780));
    app.window().global::<HomeAdapter>().invoke_history();
    let frame = app.window().window().take_snapshot().expect("a frame");
    let elapsed = started.elapsed().as_secs_f64() * 1000.0;
    assert!(frame.width() > 0);
    let rows = app.window().global::<HistoryAdapter>().get_total();
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kb = |key: &str| -> f64 {
        status
            .lines()
            .find(|l| l.starts_with(key))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(f64::NAN)
    };
    println!(
        "{elapsed:.2} {:.2} {:.2} {rows}",
        kb("VmRSS:") / 1024.0,
        kb("VmHWM:") / 1024.0
    );
}
