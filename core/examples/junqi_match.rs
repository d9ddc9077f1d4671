//! Strength benchmark: one Junqi (or Sea-land-air) computer against another, sides
//! alternating, and the time each takes a move. Prints wins/draws/losses of the first, its score with a 95% error bar,
//! the Elo difference, and the mean and slowest time a move for each. A benchmark, not a test:
//!
//! ```text
//! cargo run --release -p qiguan-core --example junqi_match -- \
//!     [--games 1000] [--a hard] [--b easy] [--mode referee|open|flip] [--parallel 2] [--seed 1]
//! cargo run --release -p qiguan-core --example junqi_match -- --game sea-land-air \
//!     [--mode shown|referee|open] ...
//! ```
//! Sea-land-air's modes: `shown` (the default: a battle shows both pieces), `referee`, `open`.
//! `--a`/`--b` are strengths: `easy` (the first computer, one move ahead), `normal`, `hard`,
//! or an effort to try, `samples:depth:nodes`.

use qiguan_core::junqi::search::Effort;
use qiguan_core::junqi::{Junqi, JunqiOptions, Visibility, bot};
use qiguan_core::sealandair::{SeaLandAir, SeaLandAirOptions};
use qiguan_core::{Action, Actor, Computer, Match, Rules, Seat, Strength, ToAct, Viewer};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
struct Settings {
    /// Sea-land-air rather than Junqi.
    sea_land_air: bool,
    games: usize,
    a: Player,
    b: Player,
    /// Junqi: referee, open or flip; Sea-land-air: shown, referee or open (empty: the first).
    mode: String,
    parallel: usize,
    seed: u64,
}

/// A computer: at a strength, or thinking with a given effort (`samples:depth:nodes`, for
/// trying efforts out).
#[derive(Clone, Copy, Debug)]
enum Player {
    At(Strength),
    With(Effort),
}

impl std::str::FromStr for Player {
    type Err = String;
    fn from_str(text: &str) -> Result<Player, String> {
        let parts: Vec<&str> = text.split(':').collect();
        if let [samples, depth, nodes] = parts[..] {
            let n = |t: &str| {
                t.parse::<u64>()
                    .map_err(|_| format!("{text}: samples:depth:nodes"))
            };
            return Ok(Player::With(Effort {
                samples: n(samples)? as usize,
                depth: n(depth)? as u32,
                nodes: n(nodes)?,
            }));
        }
        text.parse().map(Player::At)
    }
}

impl std::fmt::Display for Player {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Player::At(s) => s.fmt(f),
            Player::With(e) => write!(f, "{}:{}:{}", e.samples, e.depth, e.nodes),
        }
    }
}

/// What one game gave: A's score, the plies, and each computer's move times.
struct Played {
    score: f64,
    /// How the game ended.
    how: String,
    plies: usize,
    times: [Vec<Duration>; 2],
}

fn read_args() -> Result<Settings, String> {
    let mut s = Settings {
        sea_land_air: false,
        games: 1000,
        a: Player::At(Strength::Hard),
        b: Player::At(Strength::Easy),
        mode: String::new(),
        parallel: 2,
        seed: 1,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    for pair in args.chunks(2) {
        let [key, value] = pair else {
            return Err(format!("{} needs a value", pair[0]));
        };
        let bad = |_| format!("{key}: bad value {value}");
        match key.as_str() {
            "--game" => {
                s.sea_land_air = match value.as_str() {
                    "junqi" => false,
                    "sea-land-air" => true,
                    other => return Err(format!("--game {other}: junqi or sea-land-air")),
                }
            }
            "--games" => s.games = value.parse().map_err(bad)?,
            "--a" => s.a = value.parse()?,
            "--b" => s.b = value.parse()?,
            "--mode" => s.mode = value.clone(),
            "--parallel" => s.parallel = value.parse().map_err(bad)?,
            "--seed" => s.seed = value.parse().map_err(bad)?,
            other => return Err(format!("unknown argument {other}")),
        }
    }
    Ok(s)
}

/// Plays game `index` of the game the settings name.
fn play(s: &Settings, index: usize) -> Result<Played, String> {
    if s.sea_land_air {
        let (referee, open) = match s.mode.as_str() {
            "" | "shown" => (false, false),
            "referee" => (true, false),
            "open" => (false, true),
            other => return Err(format!("--mode {other}: shown, referee or open")),
        };
        let options = SeaLandAirOptions {
            referee,
            open,
            ..SeaLandAirOptions::default()
        };
        let with = |view: &_, seat, effort, seed| {
            qiguan_core::sealandair::bot::choose_with(view, seat, &options, effort, seed)
        };
        play_one::<SeaLandAir>(s, index, &options, with)
    } else {
        let visibility = match s.mode.as_str() {
            "" | "referee" => Visibility::Referee,
            "open" => Visibility::Open,
            "flip" => Visibility::Flip,
            other => return Err(format!("--mode {other}: referee, open or flip")),
        };
        let options = JunqiOptions {
            visibility,
            ..JunqiOptions::default()
        };
        let with =
            |view: &_, seat, effort, seed| bot::choose_with(view, seat, &options, effort, seed);
        play_one::<Junqi>(s, index, &options, with)
    }
}

/// Plays game `index`: A takes the first seat in even games, the second in odd ones.
fn play_one<G: Rules + Computer>(
    s: &Settings,
    index: usize,
    options: &G::Options,
    with: impl Fn(&G::View, Seat, Effort, u64) -> Option<G::Move>,
) -> Result<Played, String> {
    let mut game: Match<G> = Match::new(options, None).map_err(|e| format!("{e:?}"))?;
    let a_seat = if index.is_multiple_of(2) {
        Seat::FIRST
    } else {
        Seat::SECOND
    };
    let seed = s.seed.wrapping_mul(1_000_003) ^ index as u64;
    let mut chance = seed | 1;
    let mut times: [Vec<Duration>; 2] = [Vec::new(), Vec::new()];
    let mut plies = 0;
    for step in 0..2000u64 {
        let seats = match game.to_act() {
            ToAct::Over(_) => break,
            ToAct::Chance => {
                let mut pick = |n: usize| {
                    chance ^= chance << 13;
                    chance ^= chance >> 7;
                    chance ^= chance << 17;
                    (chance % n as u64) as usize
                };
                game.resolve_chance(&mut pick).map_err(|e| e.to_string())?;
                continue;
            }
            ToAct::Seat(seat) => vec![seat],
            ToAct::Seats(seats) => seats,
        };
        for seat in seats {
            let player = if seat == a_seat { s.a } else { s.b };
            let view = game.game().view(Viewer::Seat(seat));
            let started = Instant::now();
            let seed = seed ^ (step << 8);
            let mv = match player {
                Player::At(strength) => G::computer_move(&view, seat, options, strength, seed),
                Player::With(effort) => with(&view, seat, effort, seed),
            }
            .ok_or("the computer had no move")?;
            let took = started.elapsed();
            if !mv.to_string().starts_with("deploy:") {
                times[usize::from(seat != a_seat)].push(took);
                plies += 1;
            }
            game.apply(Actor::Seat(seat), &Action::Play(mv.clone()))
                .map_err(|e| format!("{mv}: {e}"))?;
        }
    }
    let score = match game.outcome() {
        Some(outcome) if outcome.winners().contains(&a_seat) => 1.0,
        Some(outcome) if outcome.winners().is_empty() => 0.5,
        Some(_) => 0.0,
        None => 0.5,
    };
    let result = match score {
        1.0 => "won",
        0.0 => "lost",
        _ => "drew",
    };
    let how = game.outcome().map_or_else(
        || "unfinished".to_owned(),
        |o| format!("{result}: {:?}", o.reason),
    );
    Ok(Played {
        score,
        how,
        plies,
        times,
    })
}

fn main() {
    let s = match read_args() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    println!(
        "{} ({}): {} against {}, {} games, sides alternating, {} at once",
        if s.sea_land_air {
            "Sea-land-air"
        } else {
            "Junqi"
        },
        if s.mode.is_empty() {
            "default mode"
        } else {
            &s.mode
        },
        s.a,
        s.b,
        s.games,
        s.parallel
    );
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..s.parallel.max(1) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= s.games {
                        break;
                    }
                    match play(&s, i) {
                        Ok(p) => {
                            if let Ok(mut r) = results.lock() {
                                r.push(p);
                                if r.len() % 100 == 0 {
                                    let score: f64 = r.iter().map(|p| p.score).sum();
                                    eprintln!("{} games: {score} points for {}", r.len(), s.a);
                                }
                            }
                        }
                        Err(e) => eprintln!("game {}: {e}", i + 1),
                    }
                }
            });
        }
    });
    let results = results.into_inner().unwrap_or_default();
    summary(&s, &results);
}

fn summary(s: &Settings, results: &[Played]) {
    let n = results.len() as f64;
    if results.is_empty() {
        println!("no games finished");
        return;
    }
    let wins = results.iter().filter(|r| r.score > 0.75).count();
    let losses = results.iter().filter(|r| r.score < 0.25).count();
    let draws = results.len() - wins - losses;
    let mean = results.iter().map(|r| r.score).sum::<f64>() / n;
    let var = results
        .iter()
        .map(|r| (r.score - mean).powi(2))
        .sum::<f64>()
        / n;
    let margin = 1.96 * (var / n).sqrt();
    let elo = |p: f64| -400.0 * (1.0 / p.clamp(0.001, 0.999) - 1.0).log10();
    let plies = results.iter().map(|r| r.plies).sum::<usize>() as f64 / n;
    println!(
        "{}: {wins} wins, {draws} draws, {losses} losses of {}: score {:.1}% ± {:.1}%, \
         Elo {:+.0} (95%: {:+.0} to {:+.0}); {plies:.0} plies a game",
        s.a,
        results.len(),
        100.0 * mean,
        100.0 * margin,
        elo(mean),
        elo(mean - margin),
        elo(mean + margin)
    );
    let mut ends = std::collections::BTreeMap::<&str, usize>::new();
    for r in results {
        *ends.entry(r.how.as_str()).or_default() += 1;
    }
    println!("{} ended: {ends:?}", s.a);
    for (i, name) in [s.a, s.b].iter().enumerate() {
        let all: Vec<Duration> = results.iter().flat_map(|r| r.times[i].clone()).collect();
        let total: Duration = all.iter().sum();
        let slowest = all.iter().max().copied().unwrap_or_default();
        println!(
            "{name}: {:.1} ms a move on average, {:.0} ms the slowest ({} moves)",
            total.as_secs_f64() * 1000.0 / all.len().max(1) as f64,
            slowest.as_secs_f64() * 1000.0,
            all.len()
        );
    }
}
