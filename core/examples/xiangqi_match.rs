//! Strength benchmark: Qiguan's Xiangqi engine against Fairy-Stockfish over UCI, or one of
//! its levels against another, from a varied set of short openings with colours swapped,
//! adjudicated by Qiguan's own rules core. Prints wins/draws/losses, the score and the Elo
//! difference with its 95% error bar. A benchmark, not a test: run it with
//! `scripts/bench-xiangqi-strength` (which installs Debian's `fairy-stockfish`), or
//!
//! ```text
//! cargo run --release -p qiguan-core --example xiangqi_match -- \
//!     [--games 100] [--movetime 500] [--level 10] [--skill 10] [--engine PATH]
//!     [--against-level N] [--parallel 2] [--seed 1] [--save FILE] [--fixed]
//!     [--adjudicate CP] [--net FILE|classical] [--against-net FILE|classical] [--time-all]
//!     [--threads N] [--against-threads N] [--nodes N] [--against-nodes N]
//!     [--option NAME=VALUE]
//! ```
//! `--save FILE` appends each game as one line, Red's score (`1`, `0.5`, `0`) then its moves,
//! for tuning the evaluation on real games.
//! `--skill` is Fairy-Stockfish's `Skill Level` (-20 to 20, 20 = full strength);
//! `--against-level N` plays Qiguan's level N instead of Fairy-Stockfish. Level games use
//! each level's own time (level 10 too); `--movetime` applies to full-strength play against
//! Fairy-Stockfish.
//! `--fixed` gives each level its node budget instead of its time (`Level::fixed`, as the
//! server plays), so results do not depend on the machine's load.
//! `--adjudicate CP` ends a game once, for three moves of each side in a row, one side's own
//! score is at least `CP` and the other's at most `-CP`: both engines agree who is winning, as
//! cutechess's resign rule does (against Fairy-Stockfish, its reported score; each engine's
//! centipawns are its own, so give a margin both read as decisive, e.g. 1000).
//! `--net` makes Qiguan evaluate with that net file (`classical`: the hand-written evaluation;
//! default: the engine's own), `--against-net` the same for the level it plays against.
//! `--time-all` gives full strength `--movetime` a move in level games too (e.g. level 10
//! with one net against level 10 with another, at equal time).
//! `--threads N` lets Qiguan search on N threads, `--against-threads N` the level it plays
//! against (both 1 by default); give `--parallel` so that the games' threads fit the cores.
//! `--engine PATH` plays another UCI engine instead of Fairy-Stockfish (e.g. an older build of
//! Qiguan's own, `examples/xiangqi`, to measure a change to the search), `--option NAME=VALUE`
//! (repeatable) sets its options after the usual ones (e.g. `EvalFile=FILE`).
//! `--nodes N` (with `--time-all` or against Fairy-Stockfish) makes full-strength Qiguan search
//! N nodes a move instead of `--movetime`, `--against-nodes` the level it plays against: a
//! comparison that the machine's load does not change.

use qiguan_core::xiangqi::engine::{Engine, Level, Limits, MATE, Score, Style};
use qiguan_core::xiangqi::{Color, Move, Xiangqi, XiangqiOptions, seat_of};
use qiguan_core::{GameResult, Rules};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// First moves for Red and replies for Black, common in play: 中炮, 仙人指路, 飞相, 起马,
/// 过宫炮, 士角炮, 金钩炮 and their usual answers.
const RED_FIRST: [&str; 10] = [
    "h3e3", "b3e3", "c4c5", "g4g5", "c1e3", "g1e3", "h1g3", "b1c3", "h3f3", "h3d3",
];
const BLACK_FIRST: [&str; 8] = [
    "h10g8", "b10c8", "c7c6", "g7g6", "h8e8", "b8e8", "c10e8", "g10e8",
];
/// Two more replies (卒底炮 answers: 炮8平6, 炮2平4), after the 80 openings above so that
/// matches of up to 160 games keep their openings: 100 in all, for 200 games.
const BLACK_MORE: [&str; 2] = ["h8f8", "b8d8"];

#[derive(Clone, Debug)]
struct Settings {
    games: usize,
    movetime: u64,
    level: u8,
    skill: i32,
    engine: String,
    against_level: Option<u8>,
    parallel: usize,
    seed: u64,
    save: Option<String>,
    fixed: bool,
    adjudicate: Option<i32>,
    net: Option<String>,
    against_net: Option<String>,
    time_all: bool,
    threads: usize,
    against_threads: usize,
    nodes: Option<u64>,
    against_nodes: Option<u64>,
    /// `NAME=VALUE` pairs for the UCI engine, set after the usual options.
    options: Vec<(String, String)>,
}

fn main() {
    let settings = match read_args() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let openings = openings();
    let games: Vec<(usize, Vec<Move>, Color)> = (0..settings.games)
        .map(|i| {
            let opening = openings[(i / 2) % openings.len()].clone();
            // Each opening twice, Qiguan Red then Black.
            let ours = if i % 2 == 0 { Color::Red } else { Color::Black };
            (i, opening, ours)
        })
        .collect();
    let queue = Arc::new(Mutex::new(games));
    let results = Arc::new(Mutex::new(Vec::<(usize, f64, String)>::new()));
    let opponent = match settings.against_level {
        Some(n) => format!("Qiguan level {n}"),
        None => format!("Fairy-Stockfish (Skill Level {})", settings.skill),
    };
    println!(
        "Qiguan level {} against {opponent}: {} games, {} ms a move at full strength, {} at once",
        settings.level, settings.games, settings.movetime, settings.parallel
    );
    let workers: Vec<_> = (0..settings.parallel.max(1))
        .map(|_| {
            let (queue, results, settings) = (queue.clone(), results.clone(), settings.clone());
            std::thread::spawn(move || {
                loop {
                    let next = queue.lock().ok().and_then(|mut q| q.pop());
                    let Some((i, opening, ours)) = next else {
                        break;
                    };
                    match play(&settings, &opening, ours, i as u64) {
                        Ok((score, how, moves)) => {
                            if let Some(path) = &settings.save {
                                let red = if ours == Color::Red {
                                    score
                                } else {
                                    1.0 - score
                                };
                                let list: Vec<String> =
                                    moves.iter().map(ToString::to_string).collect();
                                let line = format!("{red} {}\n", list.join(" "));
                                let written = std::fs::OpenOptions::new()
                                    .create(true)
                                    .append(true)
                                    .open(path)
                                    .and_then(|mut f| f.write_all(line.as_bytes()));
                                if let Err(e) = written {
                                    eprintln!("{path}: {e}");
                                }
                            }
                            let line = format!(
                                "game {:>3}: Qiguan {} {} ({how})",
                                i + 1,
                                if ours == Color::Red { "red  " } else { "black" },
                                match score {
                                    s if s > 0.75 => "won ",
                                    s if s < 0.25 => "lost",
                                    _ => "drew",
                                }
                            );
                            println!("{line}");
                            if let Ok(mut r) = results.lock() {
                                r.push((i, score, how));
                            }
                        }
                        Err(e) => eprintln!("game {}: {e}", i + 1),
                    }
                }
            })
        })
        .collect();
    for w in workers {
        let _ = w.join();
    }
    let results = results.lock().map(|r| r.clone()).unwrap_or_default();
    summary(&results);
}

fn read_args() -> Result<Settings, String> {
    let mut s = Settings {
        games: 100,
        movetime: 500,
        level: 10,
        skill: 10,
        engine: "/usr/games/fairy-stockfish".into(),
        against_level: None,
        parallel: 2,
        seed: 1,
        save: None,
        fixed: false,
        adjudicate: None,
        net: None,
        against_net: None,
        time_all: false,
        threads: 1,
        against_threads: 1,
        nodes: None,
        against_nodes: None,
        options: Vec::new(),
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        if args[i] == "--fixed" || args[i] == "--time-all" {
            s.fixed |= args[i] == "--fixed";
            s.time_all |= args[i] == "--time-all";
            i += 1;
            continue;
        }
        let value = args
            .get(i + 1)
            .ok_or_else(|| format!("{} needs a value", args[i]))?;
        let bad = |_| format!("{}: bad value {value}", args[i]);
        match args[i].as_str() {
            "--games" => s.games = value.parse().map_err(bad)?,
            "--movetime" => s.movetime = value.parse().map_err(bad)?,
            "--level" => s.level = value.parse().map_err(bad)?,
            "--skill" => s.skill = value.parse().map_err(bad)?,
            "--engine" => s.engine = value.clone(),
            "--against-level" => s.against_level = Some(value.parse().map_err(bad)?),
            "--parallel" => s.parallel = value.parse().map_err(bad)?,
            "--seed" => s.seed = value.parse().map_err(bad)?,
            "--save" => s.save = Some(value.clone()),
            "--adjudicate" => s.adjudicate = Some(value.parse().map_err(bad)?),
            "--net" => s.net = Some(value.clone()),
            "--against-net" => s.against_net = Some(value.clone()),
            "--threads" => s.threads = value.parse().map_err(bad)?,
            "--against-threads" => s.against_threads = value.parse().map_err(bad)?,
            "--nodes" => s.nodes = Some(value.parse().map_err(bad)?),
            "--against-nodes" => s.against_nodes = Some(value.parse().map_err(bad)?),
            "--option" => {
                let (name, v) = value
                    .split_once('=')
                    .ok_or_else(|| format!("--option {value}: give NAME=VALUE"))?;
                s.options.push((name.to_owned(), v.to_owned()));
            }
            other => return Err(format!("unknown argument {other}")),
        }
        i += 2;
    }
    Ok(s)
}

/// Every legal pair of a first move and a reply, in a fixed order.
fn openings() -> Vec<Vec<Move>> {
    let mut out = Vec::new();
    for replies in [&BLACK_FIRST[..], &BLACK_MORE[..]] {
        for red in RED_FIRST {
            for &black in replies {
                let moves: Vec<Move> = [red, black].iter().filter_map(|m| m.parse().ok()).collect();
                let mut g = new_game();
                if moves.len() == 2 && moves.iter().all(|m| g.play_move(*m).is_ok()) {
                    out.push(moves);
                }
            }
        }
    }
    out
}

fn new_game() -> Xiangqi {
    let options = XiangqiOptions {
        move_limit: Some(XiangqiOptions::USUAL_MOVE_LIMIT),
        ..XiangqiOptions::default()
    };
    Xiangqi::start(&options, None).unwrap_or_else(|e| panic!("the start: {e:?}"))
}

/// A player: Qiguan at a level, or an engine over UCI.
enum Player {
    Qiguan {
        engine: Engine,
        level: Level,
        full: bool,
        movetime: u64,
        nodes: Option<u64>,
    },
    Uci(Uci),
}

impl Player {
    fn qiguan(
        level: u8,
        seed: u64,
        s: &Settings,
        net: Option<&str>,
        threads: usize,
        nodes: Option<u64>,
    ) -> Result<Player, String> {
        let movetime = s.movetime;
        let mut engine = Engine::new(16);
        engine.set_threads(threads);
        if let Some(net) = net {
            engine
                .use_net_file(net)
                .map_err(|e| format!("{net}: {e}"))?;
        }
        Ok(Player::Qiguan {
            engine,
            level: if s.fixed {
                Level::fixed(level, seed)
            } else {
                Level::new(level, seed)
            },
            // Against another level, full strength plays by its own level too.
            full: level >= qiguan_core::xiangqi::engine::LEVELS
                && (s.against_level.is_none() || s.time_all),
            movetime,
            nodes,
        })
    }

    /// The move chosen and, for Qiguan, its score from the mover's side.
    fn choose(
        &mut self,
        game: &Xiangqi,
        moves: &[Move],
    ) -> Result<(Option<Move>, Option<i32>), String> {
        match self {
            Player::Qiguan {
                engine,
                level,
                full,
                movetime,
                nodes,
            } => {
                let limits = if *full {
                    match nodes {
                        Some(n) => Limits {
                            nodes: Some(*n),
                            ..Limits::default()
                        },
                        None => Limits {
                            time: Some(Duration::from_millis(*movetime)),
                            ..Limits::default()
                        },
                    }
                } else {
                    level.limits.clone()
                };
                let style: Style = level.style.clone();
                let found = engine.search(game, &limits, &style, |_| {});
                let cp = match found.score {
                    Score::Cp(cp) => cp,
                    Score::Mate(n) if n > 0 => MATE,
                    Score::Mate(_) => -MATE,
                };
                Ok((found.best, Some(cp)))
            }
            Player::Uci(uci) => uci.best(moves),
        }
    }
}

/// Fairy-Stockfish (or any UCI Xiangqi engine) as a child process.
struct Uci {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    movetime: u64,
}

impl Uci {
    fn start(
        path: &str,
        skill: i32,
        movetime: u64,
        options: &[(String, String)],
    ) -> Result<Uci, String> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("{path}: {e} (scripts/bench-xiangqi-strength installs it)"))?;
        let input = child.stdin.take().ok_or("no stdin")?;
        let output = BufReader::new(child.stdout.take().ok_or("no stdout")?);
        let mut uci = Uci {
            child,
            input,
            output,
            movetime,
        };
        uci.send("uci")?;
        uci.wait_for("uciok", |_| {})?;
        let usual = [
            "setoption name UCI_Variant value xiangqi".to_string(),
            "setoption name Threads value 1".into(),
            "setoption name Hash value 16".into(),
            format!("setoption name Skill Level value {skill}"),
        ];
        let given = options
            .iter()
            .map(|(name, value)| format!("setoption name {name} value {value}"));
        let last = ["ucinewgame".to_string(), "isready".into()];
        for line in usual.into_iter().chain(given).chain(last) {
            uci.send(&line)?;
        }
        uci.wait_for("readyok", |_| {})?;
        Ok(uci)
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.input, "{line}").map_err(|e| e.to_string())?;
        self.input.flush().map_err(|e| e.to_string())
    }

    /// Reads lines until one starts with `start` (returned trimmed), showing each line
    /// before it to `seen`.
    fn wait_for(&mut self, start: &str, mut seen: impl FnMut(&str)) -> Result<String, String> {
        let mut line = String::new();
        loop {
            line.clear();
            let n = self
                .output
                .read_line(&mut line)
                .map_err(|e| e.to_string())?;
            if n == 0 {
                return Err("the engine quit".into());
            }
            if line.starts_with(start) {
                return Ok(line.trim().to_owned());
            }
            seen(&line);
        }
    }

    /// The engine's move and the last score it reported (from its own side, in its
    /// centipawns; a mate as ±`MATE`).
    fn best(&mut self, moves: &[Move]) -> Result<(Option<Move>, Option<i32>), String> {
        let list: Vec<String> = moves.iter().map(ToString::to_string).collect();
        self.send(&format!("position startpos moves {}", list.join(" ")))?;
        self.send(&format!("go movetime {}", self.movetime))?;
        let mut score = None;
        let line = self.wait_for("bestmove", |info| {
            if info.starts_with("info") {
                score = reported_score(info).or(score);
            }
        })?;
        let word = line.split_whitespace().nth(1).unwrap_or("(none)");
        if word == "(none)" {
            return Ok((None, score));
        }
        word.parse()
            .map(|m| (Some(m), score))
            .map_err(|_| format!("the engine answered {line}"))
    }
}

impl Drop for Uci {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let _ = self.child.wait();
    }
}

/// The score in a UCI `info` line (`score cp N` or `score mate N`), unless it is only a bound.
fn reported_score(line: &str) -> Option<i32> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|&w| w == "score")?;
    if words
        .get(at + 3)
        .is_some_and(|&w| w == "lowerbound" || w == "upperbound")
    {
        return None;
    }
    let value: i32 = words.get(at + 2)?.parse().ok()?;
    match *words.get(at + 1)? {
        "cp" => Some(value),
        "mate" if value > 0 => Some(MATE),
        "mate" => Some(-MATE),
        _ => None,
    }
}

/// Qiguan's score in a game (1, ½, 0), how it ended, and its moves.
type Played = (f64, String, Vec<Move>);

/// Plays one game.
fn play(s: &Settings, opening: &[Move], ours: Color, index: u64) -> Result<Played, String> {
    let mut qiguan = Player::qiguan(
        s.level,
        s.seed ^ index,
        s,
        s.net.as_deref(),
        s.threads,
        s.nodes,
    )?;
    let mut other = match s.against_level {
        Some(n) => Player::qiguan(
            n,
            s.seed ^ index ^ 0x5555,
            s,
            s.against_net.as_deref(),
            s.against_threads,
            s.against_nodes,
        )?,
        None => Player::Uci(Uci::start(&s.engine, s.skill, s.movetime, &s.options)?),
    };
    let mut game = new_game();
    let mut moves = Vec::new();
    for &m in opening {
        game.play_move(m).map_err(|e| e.to_string())?;
        moves.push(m);
    }
    // The last scores each side reported, from its own side (ours first).
    let mut scores: [Vec<i32>; 2] = [Vec::new(), Vec::new()];
    while game.outcome().is_none() {
        if let Some(cp) = s.adjudicate
            && let Some(ours_won) = agreed(&scores, cp)
        {
            let score = if ours_won { 1.0 } else { 0.0 };
            return Ok((
                score,
                format!("adjudicated after {} plies", moves.len()),
                moves,
            ));
        }
        if moves.len() >= 400 {
            return Ok((0.5, "400 plies".into(), moves));
        }
        let mover = game.position().side_to_move();
        let player = if mover == ours {
            &mut qiguan
        } else {
            &mut other
        };
        let (chosen, score) = player.choose(&game, &moves)?;
        let Some(m) = chosen else {
            return Err(format!("no move from {mover:?} in a game not over"));
        };
        if let Some(score) = score {
            scores[usize::from(mover != ours)].push(score);
        }
        if let Err(e) = game.play_move(m) {
            // An illegal move loses (by the rules core's judgement, e.g. a forbidden
            // repetition the other engine does not know).
            let score = if mover == ours { 0.0 } else { 1.0 };
            return Ok((score, format!("{mover:?} played {m}: {e}"), moves));
        }
        moves.push(m);
    }
    let outcome = game.outcome().cloned().ok_or("no outcome")?;
    let score = match &outcome.result {
        GameResult::Win { winners } if winners.contains(&seat_of(ours)) => 1.0,
        GameResult::Win { .. } => 0.0,
        _ => 0.5,
    };
    let how = format!("{:?} after {} plies", outcome.reason, moves.len());
    Ok((score, how, moves))
}

/// Whether both sides' last three scores agree that one side is winning by `cp` or more:
/// `Some(true)` if it is ours.
fn agreed(scores: &[Vec<i32>; 2], cp: i32) -> Option<bool> {
    let last = |side: &Vec<i32>| -> Option<[i32; 3]> {
        let n = side.len();
        (n >= 3).then(|| [side[n - 3], side[n - 2], side[n - 1]])
    };
    let (ours, theirs) = (last(&scores[0])?, last(&scores[1])?);
    if ours.iter().all(|&v| v >= cp) && theirs.iter().all(|&v| v <= -cp) {
        Some(true)
    } else if ours.iter().all(|&v| v <= -cp) && theirs.iter().all(|&v| v >= cp) {
        Some(false)
    } else {
        None
    }
}

fn summary(results: &[(usize, f64, String)]) {
    let n = results.len() as f64;
    if n == 0.0 {
        println!("no games finished");
        return;
    }
    let wins = results.iter().filter(|r| r.1 > 0.75).count();
    let losses = results.iter().filter(|r| r.1 < 0.25).count();
    let draws = results.len() - wins - losses;
    let mean = results.iter().map(|r| r.1).sum::<f64>() / n;
    let var = results.iter().map(|r| (r.1 - mean).powi(2)).sum::<f64>() / n;
    let margin = 1.96 * (var / n).sqrt();
    let elo = |p: f64| {
        let p = p.clamp(0.001, 0.999);
        -400.0 * (1.0 / p - 1.0).log10()
    };
    println!(
        "Qiguan: {wins} wins, {draws} draws, {losses} losses of {}: score {:.1}% ± {:.1}%",
        results.len(),
        100.0 * mean,
        100.0 * margin
    );
    println!(
        "Elo difference: {:+.0} (95%: {:+.0} to {:+.0})",
        elo(mean),
        elo(mean - margin),
        elo(mean + margin)
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_score_of_uci_info_lines() {
        let line = "info depth 12 seldepth 18 multipv 1 score cp -143 nodes 91234 pv h2e2";
        assert_eq!(reported_score(line), Some(-143));
        assert_eq!(
            reported_score("info depth 9 score mate 3 pv a1a2"),
            Some(MATE)
        );
        assert_eq!(
            reported_score("info depth 9 score mate -2 pv a1a2"),
            Some(-MATE)
        );
        // A bound from an aspiration window is not the engine's score.
        assert_eq!(reported_score("info depth 9 score cp 50 lowerbound"), None);
        assert_eq!(reported_score("info string variant xiangqi"), None);
        assert_eq!(reported_score("info depth 3 score cp x"), None);
    }

    #[test]
    fn a_hundred_different_openings_the_first_eighty_as_before() {
        let all = openings();
        assert_eq!(all.len(), 100);
        let distinct: std::collections::HashSet<_> = all.iter().collect();
        assert_eq!(distinct.len(), 100);
        let first: Vec<Move> = ["h3e3", "h10g8"]
            .iter()
            .map(|m| m.parse().unwrap())
            .collect();
        assert_eq!(all[0], first);
        let eightieth: Vec<Move> = ["h3d3", "g10e8"]
            .iter()
            .map(|m| m.parse().unwrap())
            .collect();
        assert_eq!(all[79], eightieth);
    }

    #[test]
    fn adjudicates_only_when_both_sides_agree_three_times() {
        let ours = vec![900, 1200, 1300, 1400];
        let theirs = vec![-1100, -1200, -1250];
        assert_eq!(agreed(&[ours.clone(), theirs.clone()], 1000), Some(true));
        assert_eq!(agreed(&[theirs.clone(), ours.clone()], 1000), Some(false));
        // One side still sees a game: no verdict.
        assert_eq!(
            agreed(&[ours.clone(), vec![-1100, -900, -1250]], 1000),
            None
        );
        // Fewer than three scores from a side: no verdict.
        assert_eq!(agreed(&[ours, vec![-1100, -1200]], 1000), None);
    }
}
