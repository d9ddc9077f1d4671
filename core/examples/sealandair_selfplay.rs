//! Plays Sea-land-air computer against computer (the same computer on both sides) and prints
//! the figures the board's balance is judged by (docs/design/sea-land-air.md, "Balance"):
//! how often the first move of the game removes a piece, each side's share of the decisive
//! games, what the fighter's strikes do, where ships land, and who kills whom.
//!
//! `cargo run --release -p qiguan-core --example sealandair_selfplay -- [games] [--referee]`
//! (3,000 games by default; `--referee` plays with battles revealing nothing).

use qiguan_core::sealandair::{
    Kind, Move, SeaLandAir, SeaLandAirEvent, SeaLandAirMove, SeaLandAirOptions, bot,
};
use qiguan_core::{Actor, EndReason, Rules, Seat, ToAct, Viewer};
use std::collections::BTreeMap;

/// What one game showed.
#[derive(Default)]
struct Tally {
    games: u64,
    south_wins: u64,
    north_wins: u64,
    draws: u64,
    flags: u64,
    /// The game's first move (South's) removed a piece.
    first_move_kill: u64,
    /// North's first move removed a piece.
    north_first_kill: u64,
    strikes: u64,
    strikes_hit: u64,
    /// Strikes made from an airport.
    strikes_from_airport: u64,
    landings: u64,
    landings_own_half: u64,
    plies: u64,
    /// Pieces removed by each attacking kind.
    kills: BTreeMap<String, u64>,
}

impl Tally {
    fn add(&mut self, other: Tally) {
        self.games += other.games;
        self.south_wins += other.south_wins;
        self.north_wins += other.north_wins;
        self.draws += other.draws;
        self.flags += other.flags;
        self.first_move_kill += other.first_move_kill;
        self.north_first_kill += other.north_first_kill;
        self.strikes += other.strikes;
        self.strikes_hit += other.strikes_hit;
        self.strikes_from_airport += other.strikes_from_airport;
        self.landings += other.landings;
        self.landings_own_half += other.landings_own_half;
        self.plies += other.plies;
        for (k, v) in other.kills {
            *self.kills.entry(k).or_default() += v;
        }
    }
}

fn play(seed: u64, options: &SeaLandAirOptions, tally: &mut Tally) {
    let mut game = SeaLandAir::start(options, None).expect("the options are valid");
    let seats = [Seat::FIRST, Seat::SECOND];
    for (i, seat) in seats.into_iter().enumerate() {
        let view = game.view(Viewer::Seat(seat));
        let deploy = bot::choose(&view, seat, seed * 2 + i as u64).expect("a deployment");
        game.play(Actor::Seat(seat), &deploy)
            .expect("a valid layout");
    }
    let mut moves_made = [0u32; 2];
    for ply in 0..5000u64 {
        let seat = match game.to_act() {
            ToAct::Seat(s) => s,
            _ => break,
        };
        let view = game.view(Viewer::Seat(seat));
        let Some(action) = bot::choose(&view, seat, seed.wrapping_mul(7919) ^ ply) else {
            break;
        };
        let SeaLandAirMove::Go(m) = action else {
            break;
        };
        let mover = game.board().get(m.from).expect("a piece");
        note_move(&game, m, mover.kind, tally);
        let told = game.play(Actor::Seat(seat), &action).expect("a legal move");
        tally.plies += 1;
        for t in told {
            if let SeaLandAirEvent::Battle {
                attacker_removed,
                defender_removed,
                ..
            } = t.event
            {
                let removed = attacker_removed || defender_removed;
                if removed && moves_made[seat.index()] == 0 {
                    match seat.index() {
                        0 => tally.first_move_kill += 1,
                        _ => tally.north_first_kill += 1,
                    }
                }
                if m.remote && mover.kind == Kind::Fighter {
                    tally.strikes_hit += u64::from(defender_removed);
                }
                if defender_removed {
                    *tally.kills.entry(format!("{:?}", mover.kind)).or_default() += 1;
                }
            }
        }
        moves_made[seat.index()] += 1;
    }
    tally.games += 1;
    match game.to_act() {
        ToAct::Over(outcome) => {
            if outcome.reason == EndReason::FlagCaptured {
                tally.flags += 1;
            }
            match outcome.winners().first().map(|s| s.index()) {
                Some(0) => tally.south_wins += 1,
                Some(_) => tally.north_wins += 1,
                None => tally.draws += 1,
            }
        }
        _ => tally.draws += 1,
    }
}

/// Counts strikes and landings before the move is played.
fn note_move(game: &SeaLandAir, m: Move, kind: Kind, tally: &mut Tally) {
    if m.remote && kind == Kind::Fighter {
        tally.strikes += 1;
        if m.from.layer() == qiguan_core::sealandair::Layer::Airport {
            tally.strikes_from_airport += 1;
        }
    }
    let landing = matches!(kind, Kind::Battleship | Kind::Cruiser)
        && m.from.layer() == qiguan_core::sealandair::Layer::Sea
        && m.to.layer() == qiguan_core::sealandair::Layer::Land;
    if landing {
        tally.landings += 1;
        let side = game.board().get(m.from).map(|p| p.side);
        if m.to.half() == side {
            tally.landings_own_half += 1;
        }
    }
}

fn percent(part: u64, whole: u64) -> f64 {
    100.0 * part as f64 / whole.max(1) as f64
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: u64 = args.iter().find_map(|a| a.parse().ok()).unwrap_or(3000);
    let options = SeaLandAirOptions {
        referee: args.iter().any(|a| a == "--referee"),
        ..SeaLandAirOptions::default()
    };
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
    let started = std::time::Instant::now();
    let tally = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let options = &options;
                scope.spawn(move || {
                    let mut tally = Tally::default();
                    for seed in (t..games).step_by(threads as usize) {
                        play(seed, options, &mut tally);
                    }
                    tally
                })
            })
            .collect();
        let mut all = Tally::default();
        for h in handles {
            all.add(h.join().expect("a worker"));
        }
        all
    });
    report(&tally, &options, started.elapsed());
}

fn report(t: &Tally, options: &SeaLandAirOptions, took: std::time::Duration) {
    let decisive = t.south_wins + t.north_wins;
    let share = t.south_wins as f64 / decisive.max(1) as f64;
    let error = (share * (1.0 - share) / decisive.max(1) as f64).sqrt();
    println!(
        "{} games ({}), {:.1} s, {:.0} plies a game",
        t.games,
        if options.referee {
            "referee: battles reveal nothing"
        } else {
            "battles reveal"
        },
        took.as_secs_f64(),
        t.plies as f64 / t.games.max(1) as f64
    );
    println!(
        "South (first mover) {} · North {} · drawn {} · ended by taking the flag {}",
        t.south_wins, t.north_wins, t.draws, t.flags
    );
    println!(
        "first mover's share of decisive games: {:.1}% ± {:.1}% (one standard error)",
        100.0 * share,
        100.0 * error
    );
    println!(
        "a piece removed on the game's first move: {} games ({:.1}%); on North's first move: {} ({:.1}%)",
        t.first_move_kill,
        percent(t.first_move_kill, t.games),
        t.north_first_kill,
        percent(t.north_first_kill, t.games)
    );
    println!(
        "fighter strikes: {}, {:.1}% removed the target, {} from an airport",
        t.strikes,
        percent(t.strikes_hit, t.strikes),
        t.strikes_from_airport
    );
    println!(
        "ship landings: {}, {} in the lander's own half",
        t.landings, t.landings_own_half
    );
    let mut kills: Vec<_> = t.kills.iter().collect();
    kills.sort_by(|a, b| b.1.cmp(a.1));
    let line: Vec<String> = kills
        .iter()
        .take(8)
        .map(|(k, n)| format!("{k} {:.2}", **n as f64 / t.games.max(1) as f64))
        .collect();
    println!("kills a game by attacker: {}", line.join(", "));
}
