//! The UCI protocol as Xiangqi engines speak it (Fairy-Stockfish and Pikafish are the
//! references), without I/O: [`parse`] reads one line, [`Session`] keeps the position and
//! options and turns `go` into the engine's limits, and [`info_line`] / [`bestmove_line`]
//! write the answers. Moves are Fairy-Stockfish coordinates (`h3e3`, `a10a9`), as the
//! `xiangqi moves` command prints them.
//!
//! Every malformed line is an error to report as `info string`, never a panic.

use super::engine::{Found, Info, LEVELS, Level, Limits, Score, Style};
use super::fen::START_FEN;
use super::{Color, Move, Xiangqi, XiangqiOptions, XiangqiSetup};
use crate::game::Rules;
use std::time::Duration;

/// The engine's name as `uci` reports it.
pub const NAME: &str = "Qiguan";
/// The most lines `go` reports at once (MultiPV).
pub const MAX_LINES: usize = 5;
/// The most threads a search may use.
pub const MAX_THREADS: usize = 64;

/// A command from the GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci`: identify and list the options.
    Uci,
    /// `isready`: answer `readyok`.
    IsReady,
    /// `ucinewgame`: forget the last game.
    NewGame,
    /// A position: a FEN (`None`: the start) and moves played from it.
    Position {
        /// The FEN, or `None` for `startpos`.
        fen: Option<String>,
        /// Moves from it, as the GUI wrote them.
        moves: Vec<String>,
    },
    /// `go`: search.
    Go(Go),
    /// `stop`: answer with the best move so far.
    Stop,
    /// `ponderhit`: the expected move was played.
    PonderHit,
    /// `quit`.
    Quit,
    /// `setoption name ... value ...`.
    SetOption {
        /// The option's name (several words).
        name: String,
        /// Its value, if given.
        value: Option<String>,
    },
    /// `debug on|off`, `register ...`: accepted, nothing to do.
    Ignored,
}

/// What `go` asks for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// Milliseconds for this move.
    pub movetime: Option<u64>,
    /// The deepest iteration.
    pub depth: Option<u32>,
    /// A node budget.
    pub nodes: Option<u64>,
    /// Red's clock, in milliseconds.
    pub wtime: Option<u64>,
    /// Black's clock, in milliseconds.
    pub btime: Option<u64>,
    /// Red's increment per move.
    pub winc: Option<u64>,
    /// Black's increment per move.
    pub binc: Option<u64>,
    /// Moves until the next time control.
    pub movestogo: Option<u64>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Search on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
}

/// Reads one line; `Ok(None)` for a blank one.
pub fn parse(line: &str) -> Result<Option<Command>, String> {
    let mut words = line.split_whitespace();
    let Some(first) = words.next() else {
        return Ok(None);
    };
    let rest: Vec<&str> = words.collect();
    let command = match first {
        "uci" => Command::Uci,
        "isready" => Command::IsReady,
        "ucinewgame" => Command::NewGame,
        "stop" => Command::Stop,
        "ponderhit" => Command::PonderHit,
        "quit" => Command::Quit,
        "debug" | "register" => Command::Ignored,
        "position" => parse_position(&rest)?,
        "go" => Command::Go(parse_go(&rest)?),
        "setoption" => parse_setoption(&rest)?,
        other => {
            let shown: String = other.chars().take(40).collect();
            return Err(format!("unknown command: {shown}"));
        }
    };
    Ok(Some(command))
}

fn parse_position(words: &[&str]) -> Result<Command, String> {
    let (fen, rest) = match words.first() {
        Some(&"startpos") => (None, &words[1..]),
        Some(&"fen") => {
            let end = words
                .iter()
                .position(|w| *w == "moves")
                .unwrap_or(words.len());
            if end == 1 {
                return Err("position fen: the FEN is missing".into());
            }
            (Some(words[1..end].join(" ")), &words[end..])
        }
        _ => return Err("position: expected startpos or fen".into()),
    };
    let moves = match rest.split_first() {
        None => Vec::new(),
        Some((&"moves", list)) => list.iter().map(|m| (*m).to_owned()).collect(),
        Some((other, _)) => {
            let shown: String = other.chars().take(40).collect();
            return Err(format!("position: expected moves, found {shown}"));
        }
    };
    Ok(Command::Position { fen, moves })
}

fn parse_go(words: &[&str]) -> Result<Go, String> {
    let mut go = Go::default();
    let mut i = 0;
    while i < words.len() {
        let key = words[i];
        let number = |i: usize| -> Result<u64, String> {
            let w = words
                .get(i + 1)
                .ok_or_else(|| format!("go {key}: a number is missing"))?;
            // Some GUIs send negative clock times when a flag has fallen: treat as zero.
            if let Some(neg) = w.strip_prefix('-') {
                return neg
                    .parse::<u64>()
                    .map(|_| 0)
                    .map_err(|_| format!("go {key}: not a number"));
            }
            w.parse::<u64>()
                .map_err(|_| format!("go {key}: not a number"))
        };
        match key {
            "infinite" => go.infinite = true,
            "ponder" => go.ponder = true,
            "movetime" => go.movetime = Some(number(i)?),
            "depth" => go.depth = Some(number(i)?.min(u32::MAX as u64) as u32),
            "nodes" => go.nodes = Some(number(i)?),
            "wtime" => go.wtime = Some(number(i)?),
            "btime" => go.btime = Some(number(i)?),
            "winc" => go.winc = Some(number(i)?),
            "binc" => go.binc = Some(number(i)?),
            "movestogo" => go.movestogo = Some(number(i)?),
            // Not supported, but well-formed: skip their argument.
            "mate" => {
                number(i)?;
            }
            "searchmoves" => break,
            other => {
                let shown: String = other.chars().take(40).collect();
                return Err(format!("go: unknown parameter {shown}"));
            }
        }
        i += if matches!(key, "infinite" | "ponder") {
            1
        } else {
            2
        };
    }
    Ok(go)
}

fn parse_setoption(words: &[&str]) -> Result<Command, String> {
    if words.first() != Some(&"name") {
        return Err("setoption: expected name".into());
    }
    let value_at = words.iter().position(|w| *w == "value");
    let name = words[1..value_at.unwrap_or(words.len())].join(" ");
    if name.is_empty() {
        return Err("setoption: the name is missing".into());
    }
    let value = value_at.map(|i| words[i + 1..].join(" "));
    Ok(Command::SetOption { name, value })
}

/// The engine's options and the position to search.
#[derive(Clone, Debug)]
pub struct Session {
    /// The game so far (FEN and moves as the GUI gave them).
    pub game: Xiangqi,
    /// 1–10.
    pub skill: u8,
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Varies the weaker levels' misjudgements.
    pub seed: u64,
    /// How many best moves `go` reports, each with its line (MultiPV).
    pub lines: usize,
    /// Threads a full-strength search uses.
    pub threads: usize,
    /// The evaluation: `None` the engine's own net, else a net file's path or `classical`.
    pub eval_file: Option<String>,
}

impl Default for Session {
    fn default() -> Self {
        Session {
            game: start_game(None).unwrap_or_else(|_| unreachable!("the start position is valid")),
            skill: LEVELS,
            hash_mb: 16,
            seed: 0,
            lines: 1,
            threads: 1,
            eval_file: None,
        }
    }
}

fn start_game(fen: Option<&str>) -> Result<Xiangqi, String> {
    let setup = XiangqiSetup {
        fen: fen.unwrap_or(START_FEN).to_owned(),
    };
    Xiangqi::start(&XiangqiOptions::default(), Some(&setup))
        .map_err(|e| format!("bad FEN: {}", e.problems.join("; ")))
}

/// The lines `uci` answers with.
pub fn identify() -> Vec<String> {
    vec![
        format!("id name {NAME} {}", env!("CARGO_PKG_VERSION")),
        "id author the Qiguan developers".into(),
        format!("option name Skill Level type spin default {LEVELS} min 1 max {LEVELS}"),
        "option name Hash type spin default 16 min 1 max 1024".into(),
        "option name Seed type spin default 0 min 0 max 2147483647".into(),
        format!("option name Threads type spin default 1 min 1 max {MAX_THREADS}"),
        "option name EvalFile type string default <embedded>".into(),
        format!("option name MultiPV type spin default 1 min 1 max {MAX_LINES}"),
        "option name UCI_Variant type combo default xiangqi var xiangqi".into(),
        "uciok".into(),
    ]
}

impl Session {
    /// Sets up the position: the previous one stays if any part is wrong.
    pub fn set_position(&mut self, fen: Option<&str>, moves: &[String]) -> Result<(), String> {
        let mut game = start_game(fen)?;
        for (i, text) in moves.iter().enumerate() {
            let shown: String = text.chars().take(12).collect();
            let mv: Move = text
                .parse()
                .map_err(|_| format!("move {} ({shown}) is not a move", i + 1))?;
            game.play_move(mv)
                .map_err(|e| format!("move {} ({shown}) is illegal: {e}", i + 1))?;
        }
        self.game = game;
        Ok(())
    }

    /// Applies `setoption`; an unknown name or a bad value is an error.
    pub fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let number = |lo: u64, hi: u64| -> Result<u64, String> {
            let v = value
                .ok_or_else(|| format!("{name}: a value is missing"))?
                .parse::<u64>()
                .map_err(|_| format!("{name}: not a number"))?;
            if (lo..=hi).contains(&v) {
                Ok(v)
            } else {
                Err(format!("{name}: {v} is outside {lo}–{hi}"))
            }
        };
        match name.to_ascii_lowercase().as_str() {
            "skill level" => self.skill = number(1, LEVELS as u64)? as u8,
            "hash" => self.hash_mb = number(1, 1024)? as usize,
            "seed" => self.seed = number(0, i32::MAX as u64)?,
            "uci_variant" => {
                if value != Some("xiangqi") {
                    return Err("UCI_Variant: only xiangqi is played".into());
                }
            }
            "multipv" => self.lines = number(1, MAX_LINES as u64)? as usize,
            "threads" => self.threads = number(1, MAX_THREADS as u64)? as usize,
            "evalfile" => {
                self.eval_file = match value.map(str::trim) {
                    None | Some("") | Some("<embedded>") => None,
                    Some(v) => Some(v.to_owned()),
                }
            }
            "ponder" => {}
            _ => {
                let shown: String = name.chars().take(40).collect();
                return Err(format!("no such option: {shown}"));
            }
        }
        Ok(())
    }

    /// The engine's limits and style for `go`: the level sets how it judges and its
    /// deepest look; the GUI's clock or limits bound the time.
    pub fn plan(&self, go: &Go) -> (Limits, Style) {
        let level = Level::new(self.skill, self.seed);
        let top = self.skill >= LEVELS;
        let mut limits = if top {
            Limits::default()
        } else {
            level.limits.clone()
        };
        let side = self.game.position().side_to_move();
        let (clock, inc) = match side {
            Color::Red => (go.wtime, go.winc.unwrap_or(0)),
            Color::Black => (go.btime, go.binc.unwrap_or(0)),
        };
        let given = if go.infinite || go.ponder {
            None
        } else if let Some(ms) = go.movetime {
            Some(ms.saturating_sub(10).max(1))
        } else if let Some(left) = clock {
            let moves = go.movestogo.unwrap_or(30).clamp(1, 60);
            let share = left / moves + inc * 3 / 4;
            Some(share.min(left / 3).max(1))
        } else {
            None
        };
        if let Some(ms) = given {
            let t = Duration::from_millis(ms);
            limits.time = Some(limits.time.map_or(t, |own| own.min(t)));
        } else if go.infinite {
            limits.time = None;
        }
        if let Some(d) = go.depth {
            limits.depth = Some(limits.depth.map_or(d, |own| own.min(d)));
        }
        if let Some(n) = go.nodes {
            limits.nodes = Some(n);
        }
        // With no bound at all (top level, `go` alone), a fixed depth rather than for ever.
        if limits.time.is_none() && limits.depth.is_none() && limits.nodes.is_none() && !go.infinite
        {
            limits.depth = Some(8);
        }
        limits.lines = self.lines;
        (limits, level.style)
    }
}

/// An `info` line for one finished iteration.
pub fn info_line(info: &Info) -> String {
    let score = match info.score {
        Score::Cp(v) => format!("cp {v}"),
        Score::Mate(n) => format!("mate {n}"),
    };
    let pv: Vec<String> = info.pv.iter().map(ToString::to_string).collect();
    format!(
        "info depth {} seldepth {} multipv {} score {score} nodes {} nps {} time {} pv {}",
        info.depth,
        info.seldepth,
        info.multipv,
        info.nodes,
        info.nps(),
        info.time.as_millis(),
        pv.join(" ")
    )
}

/// The `bestmove` line.
pub fn bestmove_line(found: &Found) -> String {
    match (found.best, found.ponder) {
        (None, _) => "bestmove (none)".into(),
        (Some(m), Some(p)) => format!("bestmove {m} ponder {p}"),
        (Some(m), None) => format!("bestmove {m}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn reads_the_usual_commands() {
        assert_eq!(parse("uci"), Ok(Some(Command::Uci)));
        assert_eq!(parse("   "), Ok(None));
        assert_eq!(
            parse("position startpos moves h3e3 h10g8"),
            Ok(Some(Command::Position {
                fen: None,
                moves: vec!["h3e3".into(), "h10g8".into()],
            }))
        );
        assert_eq!(
            parse(&format!("position fen {START_FEN} moves a4a5")),
            Ok(Some(Command::Position {
                fen: Some(START_FEN.into()),
                moves: vec!["a4a5".into()],
            }))
        );
        let Ok(Some(Command::Go(go))) = parse("go wtime 60000 btime 50000 winc 1000 binc 1000")
        else {
            panic!("a go")
        };
        assert_eq!(
            (go.wtime, go.btime, go.winc),
            (Some(60000), Some(50000), Some(1000))
        );
        assert_eq!(
            parse("setoption name Skill Level value 3"),
            Ok(Some(Command::SetOption {
                name: "Skill Level".into(),
                value: Some("3".into())
            }))
        );
    }

    #[test]
    fn malformed_lines_are_errors() {
        for line in [
            "position",
            "position fen",
            "position startpos moves",
            "position startpos h3e3",
            "go depth",
            "go depth x",
            "go sideways 3",
            "setoption",
            "setoption name",
            "fly",
        ] {
            // `position startpos moves` with no moves is fine.
            if line == "position startpos moves" {
                assert!(parse(line).is_ok());
                continue;
            }
            assert!(parse(line).is_err(), "{line}");
        }
    }

    #[test]
    fn a_bad_position_keeps_the_previous_one() {
        let mut s = Session::default();
        s.set_position(None, &["h3e3".into()]).expect("legal");
        let before = s.game.position().to_fen();
        assert!(
            s.set_position(None, &["h3e3".into(), "e3e9".into()])
                .is_err()
        );
        assert!(s.set_position(Some("not a fen"), &[]).is_err());
        assert!(s.set_position(None, &["zz".into()]).is_err());
        assert_eq!(s.game.position().to_fen(), before);
    }

    #[test]
    fn options_are_checked() {
        let mut s = Session::default();
        s.set_option("Skill Level", Some("3")).expect("in range");
        assert_eq!(s.skill, 3);
        assert!(s.set_option("Skill Level", Some("11")).is_err());
        assert!(s.set_option("Skill Level", None).is_err());
        assert!(s.set_option("Hash", Some("-1")).is_err());
        assert!(s.set_option("Colour", Some("red")).is_err());
        s.set_option("UCI_Variant", Some("xiangqi"))
            .expect("the variant");
        assert!(s.set_option("UCI_Variant", Some("chess")).is_err());
        s.set_option("MultiPV", Some("3")).expect("in range");
        assert_eq!(s.lines, 3);
        assert!(s.set_option("MultiPV", Some("6")).is_err());
        s.set_option("Threads", Some("4")).expect("in range");
        assert_eq!(s.threads, 4);
        assert!(s.set_option("Threads", Some("0")).is_err());
        s.set_option("EvalFile", Some("classical")).expect("a name");
        assert_eq!(s.eval_file.as_deref(), Some("classical"));
        s.set_option("EvalFile", Some("<embedded>"))
            .expect("the default");
        assert_eq!(s.eval_file, None);
        let go = match parse("go depth 2") {
            Ok(Some(Command::Go(go))) => go,
            other => panic!("{other:?}"),
        };
        assert_eq!(s.plan(&go).0.lines, 3);
        assert!(
            identify()
                .iter()
                .any(|l| l.starts_with("option name MultiPV type spin"))
        );
    }

    #[test]
    fn the_clock_bounds_the_time() {
        let mut s = Session::default();
        let go = |line: &str| match parse(line) {
            Ok(Some(Command::Go(go))) => go,
            other => panic!("{other:?}"),
        };
        let (limits, _) = s.plan(&go("go movetime 500"));
        assert_eq!(limits.time, Some(Duration::from_millis(490)));
        let (limits, _) = s.plan(&go("go wtime 30000 btime 1000"));
        assert_eq!(limits.time, Some(Duration::from_millis(1000)));
        let (limits, _) = s.plan(&go("go infinite"));
        assert_eq!((limits.time, limits.depth), (None, None));
        let (limits, _) = s.plan(&go("go depth 3"));
        assert_eq!(limits.depth, Some(3));
        // A weak level keeps its own shallow look whatever the clock.
        s.skill = 1;
        let (limits, style) = s.plan(&go("go movetime 5000"));
        assert_eq!(limits.depth, Some(1));
        assert!(!style.quiescence);
    }

    proptest! {
        #[test]
        fn no_line_makes_it_panic(line in ".{0,200}") {
            let _ = parse(&line);
        }

        #[test]
        fn no_mix_of_its_words_makes_it_panic(words in proptest::collection::vec(
            prop_oneof![
                Just("uci"), Just("go"), Just("position"), Just("fen"), Just("startpos"),
                Just("moves"), Just("setoption"), Just("name"), Just("value"), Just("depth"),
                Just("movetime"), Just("wtime"), Just("-5"), Just("3"), Just("h3e3"),
                Just("a10a9"), Just("infinite"), Just("Skill"), Just("Level"), Just("Hash"),
                Just("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR"), Just("w"),
            ],
            0..12,
        )) {
            let line = words.join(" ");
            if let Ok(Some(command)) = parse(&line) {
                let mut s = Session::default();
                match command {
                    Command::Position { fen, moves } => {
                        let _ = s.set_position(fen.as_deref(), &moves);
                    }
                    Command::SetOption { name, value } => {
                        let _ = s.set_option(&name, value.as_deref());
                    }
                    Command::Go(go) => {
                        let _ = s.plan(&go);
                    }
                    _ => {}
                }
            }
        }
    }
}
