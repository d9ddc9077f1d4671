//! Command-line tool over the Xiangqi engine, for tests, benchmarks and anyone checking it.
//!
//! ```text
//! xiangqi perft "<FEN>" <depth>            node count (last line)
//! xiangqi moves "<FEN>" [moves...]         legal moves after the moves, sorted, one a line
//! xiangqi status "<FEN>" [moves...]        ongoing | checkmate | stalemate | repetition-draw |
//!                                          perpetual-loss red|black | no-attackers-draw |
//!                                          move-limit-draw
//! xiangqi notation "<FEN>" moves...        each move as coordinates, WXF and Chinese
//! xiangqi bench                            perft(5) from the start, in nodes per second
//! ```
//! Moves may be given in coordinates, ICCS, WXF or Chinese. `--move-limit N` switches on
//! the draw after N plies without a capture; `--no-chase-rule` lets perpetual chase draw.

use qiguan_core::xiangqi::notation::{parse_any, to_chinese, to_wxf};
use qiguan_core::xiangqi::{Color, Position, START_FEN, Xiangqi, XiangqiOptions};
use qiguan_core::{EndReason, GameResult, Seat};
use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str = "usage: xiangqi perft FEN DEPTH | moves FEN [MOVES...] | \
status FEN [MOVES...] | notation FEN MOVES... | bench  [--move-limit N] [--no-chase-rule]";

fn main() -> ExitCode {
    match run(std::env::args().skip(1).collect()) {
        Ok(lines) => {
            for line in lines {
                println!("{line}");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: Vec<String>) -> Result<Vec<String>, String> {
    let (args, options) = take_options(args)?;
    let Some((command, rest)) = args.split_first() else {
        return Err(USAGE.into());
    };
    let fen = rest.first().map(String::as_str);
    let moves = rest.get(1..).unwrap_or(&[]);
    let need_fen = || fen.ok_or_else(|| format!("`{command}` needs a FEN\n{USAGE}"));
    match command.as_str() {
        "perft" => perft(need_fen()?, moves),
        "moves" => legal_moves(need_fen()?, moves),
        "status" => status(need_fen()?, moves, options),
        "notation" => notation(need_fen()?, moves),
        "bench" => Ok(bench()),
        other => Err(format!("unknown command `{other}`\n{USAGE}")),
    }
}

fn take_options(args: Vec<String>) -> Result<(Vec<String>, XiangqiOptions), String> {
    let mut options = XiangqiOptions::default();
    let mut rest = Vec::new();
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--move-limit" => {
                let n = it.next().ok_or("--move-limit needs a number")?;
                let n: u32 = n.parse().map_err(|_| format!("bad move limit `{n}`"))?;
                options.move_limit = Some(n);
            }
            "--no-chase-rule" => options.perpetual_chase_loses = false,
            _ => rest.push(a),
        }
    }
    Ok((rest, options))
}

fn position(fen: &str) -> Result<Position, String> {
    let fen = if fen == "startpos" { START_FEN } else { fen };
    Position::from_fen(fen).map_err(|e| format!("bad FEN: {e}"))
}

fn perft(fen: &str, args: &[String]) -> Result<Vec<String>, String> {
    let depth = args.first().ok_or("perft needs a depth")?;
    let depth: u32 = depth.parse().map_err(|_| format!("bad depth `{depth}`"))?;
    Ok(vec![position(fen)?.perft(depth).to_string()])
}

/// Plays moves on a bare position (no history rules), as Fairy-Stockfish's move lists do.
fn legal_moves(fen: &str, moves: &[String]) -> Result<Vec<String>, String> {
    let mut pos = position(fen)?;
    for text in moves {
        let m = parse_any(&pos, text).map_err(|e| e.to_string())?;
        pos.play(m).map_err(|e| format!("`{text}`: {e}"))?;
    }
    let mut list: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    list.sort();
    Ok(list)
}

fn status(fen: &str, moves: &[String], options: XiangqiOptions) -> Result<Vec<String>, String> {
    let mut game = Xiangqi::from_position(options, position(fen)?).map_err(|e| e.to_string())?;
    for (i, text) in moves.iter().enumerate() {
        if game.outcome().is_some() {
            return Err(format!(
                "the game is already over before move {} `{text}`",
                i + 1
            ));
        }
        let m = parse_any(game.position(), text).map_err(|e| e.to_string())?;
        game.play_move(m).map_err(|e| format!("`{text}`: {e}"))?;
    }
    let Some(outcome) = game.outcome() else {
        return Ok(vec!["ongoing".into()]);
    };
    let loser = || match &outcome.result {
        GameResult::Win { winners } if winners.contains(&Seat::FIRST) => "black",
        _ => "red",
    };
    Ok(vec![match outcome.reason {
        EndReason::Checkmate => "checkmate".into(),
        EndReason::Stalemate => "stalemate".into(),
        EndReason::Repetition => "repetition-draw".into(),
        EndReason::PerpetualCheck | EndReason::PerpetualChase => {
            format!("perpetual-loss {}", loser())
        }
        EndReason::NoAttackers => "no-attackers-draw".into(),
        EndReason::MoveLimit => "move-limit-draw".into(),
        other => other.as_str().into(),
    }])
}

fn notation(fen: &str, moves: &[String]) -> Result<Vec<String>, String> {
    if moves.is_empty() {
        return Err("notation needs at least one move".into());
    }
    let mut pos = position(fen)?;
    let mut out = Vec::new();
    for text in moves {
        let m = parse_any(&pos, text).map_err(|e| e.to_string())?;
        out.push(format!("{m} {} {}", to_wxf(&pos, m), to_chinese(&pos, m)));
        pos.play(m).map_err(|e| format!("`{text}`: {e}"))?;
    }
    Ok(out)
}

fn bench() -> Vec<String> {
    let mut pos = Position::start();
    debug_assert_eq!(pos.side_to_move(), Color::Red);
    let started = Instant::now();
    let nodes = pos.perft(5);
    let secs = started.elapsed().as_secs_f64();
    vec![
        format!("perft(5) from the start: {nodes} nodes in {secs:.2} s"),
        format!("{:.0} nodes/s", nodes as f64 / secs),
    ]
}
