//! Texel tuning of the evaluation: the weights that best predict how games ended from the
//! positions in them.
//!
//! Each sample is a quiet position from a finished game (not in check, the move played from
//! it not a capture, past the opening) and the game's result for Red (1, ½ or 0). A
//! position's evaluation `e` predicts Red's score as `1 / (1 + 10^(-k·e/400))`; the tuning
//! minimises the mean squared difference from the results over all samples, first finding
//! the `k` that fits the current weights, then moving one weight at a time by its step while
//! that lowers the error (the local search of the Texel method). A share of the games is held
//! back to check that the lower error holds on games the tuning never saw.

use super::eval::{self, WEIGHTS, Weights};
use crate::xiangqi::board::{Color, Move, POINTS};
use crate::xiangqi::position::Position;

/// A quiet position and how its game ended for Red.
#[derive(Clone, Debug)]
pub struct Sample {
    pos: Position,
    /// Red's score: 1 a win, 0.5 a draw, 0 a loss.
    result: f64,
}

/// Plies at the start of each game whose positions are left out (the openings were set).
pub const SKIP_OPENING: usize = 10;

/// The quiet positions of finished games, each game given as Red's score and its moves
/// from the standard start. A game whose moves do not replay is cut where they stop.
pub fn samples(games: &[(f64, Vec<Move>)]) -> Vec<Sample> {
    let mut out = Vec::new();
    for (result, moves) in games {
        let mut pos = Position::start();
        for (ply, &mv) in moves.iter().enumerate() {
            if !pos.is_legal(mv) {
                break;
            }
            let quiet = pos.piece_at(mv.to).is_none() && !pos.in_check(pos.side_to_move());
            if ply >= SKIP_OPENING && quiet {
                out.push(Sample {
                    pos: pos.clone(),
                    result: *result,
                });
            }
            let _ = pos.play(mv);
        }
    }
    out
}

/// The static evaluation under `weights` (with their tables), from Red's side.
fn red_eval(pos: &Position, weights: &Weights, tables: &[[i32; POINTS]; 16]) -> i32 {
    let tempo = weights.w[eval::W_TEMPO];
    let red = eval::material_with(pos, tables) + eval::positional(pos, weights);
    match pos.side_to_move() {
        Color::Red => red + tempo,
        Color::Black => red - tempo,
    }
}

fn predicted(e: i32, k: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * f64::from(e) / 400.0))
}

/// The mean squared error of `weights` over `samples` at scale `k`.
pub fn error(samples: &[Sample], weights: &Weights, k: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let tables = eval::build_tables(weights);
    let total: f64 = samples
        .iter()
        .map(|s| {
            let d = s.result - predicted(red_eval(&s.pos, weights, &tables), k);
            d * d
        })
        .sum();
    total / samples.len() as f64
}

/// The scale `k` that fits `weights` best (searched between 0.1 and 3).
pub fn fit_k(samples: &[Sample], weights: &Weights) -> f64 {
    let (mut lo, mut hi) = (0.1f64, 3.0f64);
    // The error is unimodal in k: a ternary search.
    for _ in 0..40 {
        let a = lo + (hi - lo) / 3.0;
        let b = hi - (hi - lo) / 3.0;
        if error(samples, weights, a) < error(samples, weights, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// How far one step moves each weight: material by 10, table strengths by 5%, the rest by 1
/// (the tempo and the small terms) or 2.
fn step(i: usize) -> i32 {
    match i {
        i if i < eval::W_SQUARES => 10,
        i if i < eval::W_ROOK_REACH => 5,
        eval::W_CANNON_EMPTY | eval::W_CANNON_SCREEN | eval::W_HORSE_TRAPPED | eval::W_DEEP => 2,
        _ => 1,
    }
}

/// Whether a weight may take a value (nothing below zero; the general's table stays put,
/// its material does not exist).
fn allowed(i: usize, v: i32) -> bool {
    v >= 0 && i != eval::W_SQUARES
}

/// Tunes `start` on `samples` at scale `k` for at most `passes` passes over the weights
/// (fewer if a pass changes nothing), reporting each pass's error. Returns the best weights.
pub fn tune(
    samples: &[Sample],
    start: Weights,
    k: f64,
    passes: usize,
    mut report: impl FnMut(usize, f64, &Weights),
) -> Weights {
    let mut best = start;
    let mut best_error = error(samples, &best, k);
    for pass in 1..=passes {
        let mut improved = false;
        for i in 0..WEIGHTS {
            for direction in [1, -1] {
                let mut trial = best;
                trial.w[i] += direction * step(i);
                if !allowed(i, trial.w[i]) {
                    continue;
                }
                let e = error(samples, &trial, k);
                if e < best_error {
                    best = trial;
                    best_error = e;
                    improved = true;
                    break;
                }
            }
        }
        report(pass, best_error, &best);
        if !improved {
            break;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Games the engine plays against itself at depth 1, all scored as Red wins: the tuning
    /// lowers the error (or keeps it) and keeps every weight in bounds.
    #[test]
    fn tuning_fits_results_and_never_raises_the_error() {
        use crate::xiangqi::engine::{Engine, Limits, Style};
        use crate::xiangqi::{Xiangqi, XiangqiOptions};
        let mut engine = Engine::new(1);
        let limits = Limits {
            depth: Some(1),
            ..Limits::default()
        };
        let mut games = Vec::new();
        for seed in 0..3 {
            let mut game =
                Xiangqi::from_position(XiangqiOptions::default(), Position::start()).unwrap();
            let style = Style {
                noise: 60,
                seed,
                ..Style::default()
            };
            for _ in 0..30 {
                let Some(mv) = engine.search(&game, &limits, &style, |_| {}).best else {
                    break;
                };
                game.play_move(mv).unwrap();
            }
            games.push((1.0, game.moves().collect::<Vec<Move>>()));
        }
        let samples = samples(&games);
        assert!(samples.len() > 10, "{}", samples.len());
        let k = fit_k(&samples, &eval::DEFAULT);
        let before = error(&samples, &eval::DEFAULT, k);
        let tuned = tune(&samples, eval::DEFAULT, k, 3, |_, _, _| {});
        let after = error(&samples, &tuned, k);
        assert!(after < before, "{after} >= {before}");
        assert_eq!(tuned.w[eval::W_SQUARES], 100, "the general's table stays");
        assert!(tuned.w.iter().all(|&v| v >= 0));
    }

    #[test]
    fn samples_leave_out_the_opening_captures_and_checks() {
        let moves: Vec<Move> = ["h3e3", "h10g8", "e3e7"]
            .iter()
            .map(|t| t.parse().unwrap())
            .collect();
        assert!(samples(&[(0.5, moves)]).is_empty(), "all in the opening");
    }
}
