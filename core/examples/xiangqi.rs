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
//! xiangqi uci                              the engine, speaking UCI on stdin and stdout
//! ```
//! Moves may be given in coordinates, ICCS, WXF or Chinese. `--move-limit N` switches on
//! the draw after N plies without a capture; `--no-chase-rule` lets perpetual chase draw.

use qiguan_core::xiangqi::engine::{Engine, Limits, Style};
use qiguan_core::xiangqi::notation::{parse_any, to_chinese, to_wxf};
use qiguan_core::xiangqi::uci::{Command, Session, bestmove_line, identify, info_line, parse};
use qiguan_core::xiangqi::{Color, Position, START_FEN, Xiangqi, XiangqiOptions};
use qiguan_core::{EndReason, GameResult, Seat};
use std::io::BufRead;
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Instant;

const USAGE: &str = "usage: xiangqi perft FEN DEPTH | moves FEN [MOVES...] | \
status FEN [MOVES...] | notation FEN MOVES... | bench | uci  [--move-limit N] [--no-chase-rule]";

fn main() -> ExitCode {
    if std::env::args().nth(1).as_deref() == Some("uci") {
        let stdin = std::io::stdin();
        uci_loop(stdin.lock(), |line| {
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "{line}");
            let _ = out.flush();
        });
        return ExitCode::SUCCESS;
    }
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

/// What the search thread is asked to do.
enum Job {
    Search {
        game: Box<Xiangqi>,
        limits: Limits,
        style: Style,
        /// `go infinite` or `go ponder`: the best move waits for `stop` (or `ponderhit`).
        hold: bool,
    },
    Clear,
    Hash(usize),
    Threads(usize),
    /// A net file's path, `classical`, or `None` for the engine's own net.
    Eval(Option<String>),
}

/// Whether a held best move may go out.
type Release = Arc<(Mutex<bool>, Condvar)>;

/// Reads UCI commands from `input` until `quit` or its end; `out` writes one line. The
/// search runs on its own thread, so `stop` and `isready` are answered while it thinks.
fn uci_loop(input: impl BufRead, out: impl Fn(String) + Send + Sync + 'static) {
    let out = Arc::new(out);
    let engine = Engine::new(16);
    let stop = engine.stop_flag();
    let release: Release = Arc::new((Mutex::new(true), Condvar::new()));
    let (jobs, inbox) = mpsc::channel::<Job>();
    let worker = {
        let out = out.clone();
        let release = release.clone();
        std::thread::spawn(move || search_thread(engine, inbox, release, out))
    };
    let set_release = |value: bool| {
        let (lock, signal) = &*release;
        if let Ok(mut released) = lock.lock() {
            *released = value;
        }
        signal.notify_all();
    };
    let mut session = Session::default();
    for line in input.lines() {
        let Ok(line) = line else { break };
        let command = match parse(&line) {
            Ok(Some(c)) => c,
            Ok(None) => continue,
            Err(e) => {
                out(format!("info string error: {e}"));
                continue;
            }
        };
        match command {
            Command::Uci => identify().into_iter().for_each(|l| out(l)),
            Command::IsReady => out("readyok".into()),
            Command::NewGame => {
                let _ = jobs.send(Job::Clear);
            }
            Command::Position { fen, moves } => {
                if let Err(e) = session.set_position(fen.as_deref(), &moves) {
                    out(format!("info string error: {e}"));
                }
            }
            Command::SetOption { name, value } => {
                let (hash, threads, eval) =
                    (session.hash_mb, session.threads, session.eval_file.clone());
                match session.set_option(&name, value.as_deref()) {
                    Ok(()) => {
                        if session.hash_mb != hash {
                            let _ = jobs.send(Job::Hash(session.hash_mb));
                        }
                        if session.threads != threads {
                            let _ = jobs.send(Job::Threads(session.threads));
                        }
                        if session.eval_file != eval {
                            let _ = jobs.send(Job::Eval(session.eval_file.clone()));
                        }
                    }
                    Err(e) => out(format!("info string error: {e}")),
                }
            }
            Command::Go(go) => {
                let (limits, style) = session.plan(&go);
                let hold = go.infinite || go.ponder;
                stop.store(false, Ordering::SeqCst);
                set_release(!hold);
                let _ = jobs.send(Job::Search {
                    game: Box::new(session.game.clone()),
                    limits,
                    style,
                    hold,
                });
            }
            Command::Stop | Command::PonderHit => {
                stop.store(true, Ordering::SeqCst);
                set_release(true);
            }
            Command::Quit => break,
            Command::Ignored => {}
        }
    }
    // Quit (or the input ended): stop thinking, let the last best move out, and finish.
    stop.store(true, Ordering::SeqCst);
    set_release(true);
    drop(jobs);
    let _ = worker.join();
}

fn search_thread(
    mut engine: Engine,
    inbox: mpsc::Receiver<Job>,
    release: Release,
    out: Arc<impl Fn(String)>,
) {
    while let Ok(job) = inbox.recv() {
        match job {
            Job::Clear => engine.clear(),
            Job::Hash(mb) => engine.set_hash(mb),
            Job::Threads(n) => engine.set_threads(n),
            Job::Eval(file) => {
                if let Err(e) = engine.use_net_file(file.as_deref().unwrap_or("embedded")) {
                    out(format!("info string error: EvalFile: {e}"));
                }
            }
            Job::Search {
                game,
                limits,
                style,
                hold,
            } => {
                let found = engine.search(&game, &limits, &style, |info| out(info_line(info)));
                if hold {
                    let (lock, signal) = &*release;
                    if let Ok(mut released) = lock.lock() {
                        while !*released {
                            match signal.wait(released) {
                                Ok(r) => released = r,
                                Err(_) => break,
                            }
                        }
                    }
                }
                out(bestmove_line(&found));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::run;

    const START_FEN_ARG: &str =
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

    fn cli(args: &[&str]) -> Result<Vec<String>, String> {
        run(args.iter().map(|s| s.to_string()).collect())
    }

    #[test]
    fn perft_prints_the_count_last() {
        assert_eq!(
            cli(&["perft", START_FEN_ARG, "2"]),
            Ok(vec!["1920".to_string()])
        );
    }

    #[test]
    fn moves_are_sorted_coordinates_after_the_given_moves() {
        let lines = cli(&["moves", START_FEN_ARG, "h3e3"]).expect("valid");
        // The h-file cannon gains h3 and h2 and loses its capture on h1 (no screen left).
        assert_eq!(lines.len(), 45);
        let mut sorted = lines.clone();
        sorted.sort();
        assert_eq!(lines, sorted);
        assert!(lines.contains(&"h10g8".to_string()));
    }

    #[test]
    fn status_names_every_ending() {
        let perpetual = [
            "status",
            "4k4/9/9/9/9/9/9/9/8R/3K5 w - - 0 1",
            "i2i10",
            "e10e9",
            "i10i9",
            "e9e10",
            "i9i10",
            "e10e9",
            "i10i9",
            "e9e10",
            "i9i10",
        ];
        assert_eq!(cli(&perpetual), Ok(vec!["perpetual-loss red".to_string()]));
        assert_eq!(
            cli(&["status", "startpos"]),
            Ok(vec!["ongoing".to_string()])
        );
        let mate = ["status", "3k5/R8/9/9/9/9/9/9/9/1R2K4 w - - 0 1", "b1b10"];
        assert_eq!(cli(&mate), Ok(vec!["checkmate".to_string()]));
        let stalemate = ["status", "3k5/9/8R/9/9/9/9/9/9/4K4 w - - 0 1", "i8i9"];
        assert_eq!(cli(&stalemate), Ok(vec!["stalemate".to_string()]));
        let quiet = "a1a2 a10a9 a2a1 a9a10 a1a2 a10a9 a2a1 a9a10";
        let mut args = vec!["status", "startpos"];
        args.extend(quiet.split(' '));
        assert_eq!(cli(&args), Ok(vec!["repetition-draw".to_string()]));
        let bare = ["status", "3k5/9/9/9/9/9/9/9/4p4/3AK4 w - - 0 1", "e1e2"];
        assert_eq!(cli(&bare), Ok(vec!["no-attackers-draw".to_string()]));
        let limit = ["status", "--move-limit", "2", "startpos", "a1a2", "a10a9"];
        assert_eq!(cli(&limit), Ok(vec!["move-limit-draw".to_string()]));
    }

    #[test]
    fn notation_prints_three_forms() {
        assert_eq!(
            cli(&["notation", "startpos", "h3e3", "马8进7"]),
            Ok(vec![
                "h3e3 C2=5 炮二平五".to_string(),
                "h10g8 H8+7 马8进7".to_string()
            ])
        );
    }

    #[test]
    fn bad_input_is_an_error() {
        assert!(cli(&["perft", "not a fen", "2"]).is_err());
        assert!(cli(&["moves", "startpos", "h3h9"]).is_err());
        assert!(cli(&["moves", "startpos", "zz"]).is_err());
        assert!(cli(&["status", "startpos", "resign"]).is_err());
        assert!(cli(&["perft", "startpos", "x"]).is_err());
        assert!(cli(&["frobnicate"]).is_err());
        assert!(cli(&[]).is_err());
    }

    /// Input that arrives line by line, as a GUI sends it.
    struct Typed {
        lines: std::sync::mpsc::Receiver<String>,
        pending: Vec<u8>,
    }

    impl std::io::Read for Typed {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.pending.is_empty() {
                match self.lines.recv() {
                    Ok(line) => self.pending = format!("{line}\n").into_bytes(),
                    Err(_) => return Ok(0),
                }
            }
            let n = buf.len().min(self.pending.len());
            buf[..n].copy_from_slice(&self.pending[..n]);
            self.pending.drain(..n);
            Ok(n)
        }
    }

    /// A UCI session on its own thread: lines go in, the engine's lines come out.
    struct Gui {
        input: Option<std::sync::mpsc::Sender<String>>,
        output: std::sync::mpsc::Receiver<String>,
        seen: Vec<String>,
        session: Option<std::thread::JoinHandle<()>>,
    }

    impl Gui {
        fn start() -> Gui {
            let (input, lines) = std::sync::mpsc::channel();
            let (sink, output) = std::sync::mpsc::channel();
            let sink = std::sync::Mutex::new(sink);
            let session = std::thread::spawn(move || {
                let typed = std::io::BufReader::new(Typed {
                    lines,
                    pending: Vec::new(),
                });
                super::uci_loop(typed, move |l| {
                    let _ = sink.lock().expect("the sink").send(l);
                });
            });
            Gui {
                input: Some(input),
                output,
                seen: Vec::new(),
                session: Some(session),
            }
        }

        fn send(&self, line: &str) {
            self.input
                .as_ref()
                .expect("open")
                .send(line.into())
                .expect("sent");
        }

        /// Reads the engine's lines until one matches (a minute at most, so that a broken
        /// engine fails the test instead of hanging it).
        fn until(&mut self, done: impl Fn(&str) -> bool) -> String {
            loop {
                let line = self
                    .output
                    .recv_timeout(std::time::Duration::from_secs(60))
                    .expect("the engine answers");
                self.seen.push(line.clone());
                if done(&line) {
                    return line;
                }
            }
        }

        fn quit(mut self) -> Vec<String> {
            self.send("quit");
            drop(self.input.take());
            if let Some(s) = self.session.take() {
                s.join().expect("the session ends");
            }
            self.seen.extend(self.output.try_iter());
            self.seen
        }
    }

    #[test]
    fn uci_identifies_itself_and_answers_isready() {
        let mut gui = Gui::start();
        gui.send("uci");
        gui.until(|l| l == "uciok");
        gui.send("isready");
        gui.until(|l| l == "readyok");
        let out = gui.quit();
        assert!(out.iter().any(|l| l.starts_with("id name Qiguan")));
        assert!(
            out.iter()
                .any(|l| l == "option name Skill Level type spin default 10 min 1 max 10")
        );
    }

    #[test]
    fn uci_searches_a_position_and_names_a_legal_move() {
        let mut gui = Gui::start();
        gui.send("position startpos moves h3e3 h10g8");
        gui.send("go depth 4");
        let best = gui.until(|l| l.starts_with("bestmove "));
        let out = gui.quit();
        assert!(
            out.iter()
                .any(|l| l.starts_with("info depth 4 ") && l.contains(" pv "))
        );
        let mv = best.split(' ').nth(1).expect("a move");
        let legal = cli(&["moves", START_FEN_ARG, "h3e3", "h10g8"]).expect("the legal moves");
        assert!(legal.contains(&mv.to_string()), "{mv}");
    }

    #[test]
    fn uci_reports_bad_lines_and_goes_on() {
        let mut gui = Gui::start();
        for line in [
            "fly away",
            "position startpos moves h3h9",
            "setoption name Colour value red",
            "go depth 1",
        ] {
            gui.send(line);
        }
        gui.until(|l| l.starts_with("bestmove "));
        let out = gui.quit();
        let errors = out
            .iter()
            .filter(|l| l.starts_with("info string error"))
            .count();
        assert_eq!(errors, 3, "{out:?}");
    }

    #[test]
    fn uci_searches_on_threads_and_with_either_evaluation() {
        let mut gui = Gui::start();
        gui.send("setoption name Threads value 3");
        gui.send("setoption name EvalFile value classical");
        gui.send("position startpos moves h3e3");
        gui.send("go depth 5");
        gui.until(|l| l.starts_with("bestmove "));
        gui.send("setoption name EvalFile value /nowhere/at/all.qxnn");
        gui.send("setoption name EvalFile value <embedded>");
        gui.send("go depth 5");
        let best = gui.until(|l| l.starts_with("bestmove "));
        let out = gui.quit();
        let errors: Vec<&String> = out
            .iter()
            .filter(|l| l.starts_with("info string error"))
            .collect();
        assert_eq!(errors.len(), 1, "only the missing file: {errors:?}");
        assert!(errors[0].contains("EvalFile"), "{errors:?}");
        let mv = best.split(' ').nth(1).expect("a move");
        let legal = cli(&["moves", START_FEN_ARG, "h3e3"]).expect("the legal moves");
        assert!(legal.contains(&mv.to_string()), "{mv}");
    }

    #[test]
    fn uci_mated_side_has_no_move() {
        let mut gui = Gui::start();
        gui.send("position fen 3k5/9/9/9/9/9/9/9/3r5/r2K5 w - - 0 1");
        gui.send("go depth 2");
        assert_eq!(gui.until(|l| l.starts_with("bestmove")), "bestmove (none)");
        gui.quit();
    }

    #[test]
    fn uci_holds_an_infinite_search_until_stop() {
        let mut gui = Gui::start();
        gui.send("position startpos");
        gui.send("go infinite");
        // It thinks on: iterations are reported, and no best move comes before `stop`.
        gui.until(|l| l.starts_with("info depth 3 "));
        assert!(!gui.seen.iter().any(|l| l.starts_with("bestmove")));
        gui.send("stop");
        gui.until(|l| l.starts_with("bestmove "));
        gui.quit();
    }
}
