//! PGN for Xiangqi: writing with `[Variant "Xiangqi"]` and moves in WXF or coordinates, and
//! reading PGN (moves in coordinates, ICCS, WXF or Chinese) or a bare FEN.
//!
//! Red is written as `White`, as Fairy-Stockfish, pychess and most PGN tools expect; `Red`
//! tags from Chinese databases are read too. A decisive or drawn `Result` on a game whose
//! moves do not end it is kept as a resignation or an agreed draw, so nothing is lost.

use super::fen::{FenError, START_FEN};
use super::notation::{NotationError, parse_any, parse_iccs, to_wxf};
use super::{Color, Move, Position, Xiangqi, XiangqiOptions, XiangqiSetup, seat_of};
use crate::Seat;
use crate::game::{Actor, GameKind, GameResult, Outcome};
use crate::matches::Match;
use crate::record::{RECORD_FORMAT, Record};
use std::fmt;

/// How moves are written in exported PGN.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MoveFormat {
    /// WXF (`C2=5`), with a `[Format "WXF"]` tag.
    Wxf,
    /// Fairy-Stockfish coordinates (`h3e3`).
    Coordinates,
}

/// A game read from PGN or FEN.
#[derive(Clone, PartialEq, Debug)]
pub struct PgnGame {
    /// The tags, in the order read.
    pub tags: Vec<(String, String)>,
    /// The starting position's FEN.
    pub fen: String,
    /// The moves, checked for legality.
    pub moves: Vec<Move>,
    /// The `Result` tag or movetext result: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
}

/// Says why a text is not a readable game.
#[derive(Clone, PartialEq, Debug)]
pub enum PgnError {
    /// Nothing but whitespace.
    Empty,
    /// A tag, comment or variation is not closed, or a tag is malformed.
    Syntax(String),
    /// The FEN (tag or bare) does not give a legal position.
    Fen(FenError),
    /// A move does not parse or is not legal where it stands.
    Move {
        /// The move's number in the game, from 1.
        ply: usize,
        /// The move's text.
        text: String,
        /// Why.
        reason: NotationError,
    },
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PgnError::Empty => write!(f, "there is no game in the text"),
            PgnError::Syntax(what) => write!(f, "not valid PGN: {what}"),
            PgnError::Fen(e) => write!(f, "bad FEN: {e}"),
            PgnError::Move { ply, text, reason } => {
                write!(f, "move {ply} ({text}) cannot be played: {reason}")
            }
        }
    }
}

impl std::error::Error for PgnError {}

/// Writes a match as PGN. `tags` (Event, Site, Date, Round, White, Black, …) come first;
/// Result, Variant and, for a non-standard start, FEN and SetUp are added.
pub fn write_pgn(game: &Match<Xiangqi>, tags: &[(&str, String)], format: MoveFormat) -> String {
    let mut out = String::new();
    let result = result_text(game.outcome().as_ref());
    for (name, value) in tags {
        push_tag(&mut out, name, value);
    }
    push_tag(&mut out, "Result", result);
    push_tag(&mut out, "Variant", "Xiangqi");
    let start = game.game().start_position();
    let fen = start.to_fen();
    if fen != START_FEN {
        push_tag(&mut out, "SetUp", "1");
        push_tag(&mut out, "FEN", &fen);
    }
    if format == MoveFormat::Wxf {
        push_tag(&mut out, "Format", "WXF");
    }
    out.push('\n');
    let mut words = Vec::new();
    let mut pos = start.clone();
    let mut number = pos.fullmove_number().max(1);
    for (i, m) in game.game().moves().enumerate() {
        let red = pos.side_to_move() == Color::Red;
        if red {
            words.push(format!("{number}."));
        } else if i == 0 {
            words.push(format!("{number}..."));
        }
        words.push(match format {
            MoveFormat::Wxf => to_wxf(&pos, m),
            MoveFormat::Coordinates => m.to_string(),
        });
        if !red {
            number += 1;
        }
        // Moves in a record are legal by construction.
        let _ = pos.play(m);
    }
    if let Some(outcome) = game.outcome() {
        words.push(format!("{{{}}}", outcome.reason.as_str()));
    }
    words.push(result.to_owned());
    let mut line = String::new();
    for word in words {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&word);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

pub(crate) fn push_tag(out: &mut String, name: &str, value: &str) {
    let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
    out.push_str(&format!("[{name} \"{escaped}\"]\n"));
}

/// The result as PGN writes it: `1-0`, `0-1`, `1/2-1/2`, or `*` for a game not over.
pub fn result_text(outcome: Option<&Outcome>) -> &'static str {
    match outcome.map(|o| &o.result) {
        None => "*",
        Some(GameResult::Win { winners }) if winners.first() == Some(&Seat::FIRST) => "1-0",
        Some(GameResult::Win { .. }) => "0-1",
        Some(_) => "1/2-1/2",
    }
}

/// Reads a game from PGN, or a bare FEN (a position with no moves).
pub fn read_game(text: &str) -> Result<PgnGame, PgnError> {
    let text = text.trim_start_matches('\u{feff}').trim();
    if text.is_empty() {
        return Err(PgnError::Empty);
    }
    if bare_fen(text) {
        let pos = Position::from_fen(text).map_err(PgnError::Fen)?;
        return Ok(PgnGame {
            tags: Vec::new(),
            fen: pos.to_fen(),
            moves: Vec::new(),
            result: "*".into(),
        });
    }
    let (tags, movetext) = read_tags(text)?;
    let tag = |name: &str| {
        tags.iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    };
    let start = match tag("FEN") {
        Some(fen) => Position::from_fen(fen).map_err(PgnError::Fen)?,
        None => Position::start(),
    };
    let iccs = tag("Format").is_some_and(|f| f.eq_ignore_ascii_case("ICCS"));
    let (tokens, movetext_result) = move_tokens(movetext)?;
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        let parsed = if iccs {
            parse_iccs(token).and_then(|m| {
                if pos.is_legal(m) {
                    Ok(m)
                } else {
                    Err(NotationError::NoSuchMove {
                        text: token.clone(),
                    })
                }
            })
        } else {
            parse_any(&pos, token)
        };
        let m = parsed.map_err(|reason| PgnError::Move {
            ply: i + 1,
            text: token.clone(),
            reason,
        })?;
        let _ = pos.play(m);
        moves.push(m);
    }
    let result = tag("Result")
        .map(str::to_owned)
        .or(movetext_result)
        .unwrap_or_else(|| "*".into());
    Ok(PgnGame {
        tags,
        fen: start.to_fen(),
        moves,
        result,
    })
}

pub(crate) type Tags = Vec<(String, String)>;

pub(crate) fn read_tags(text: &str) -> Result<(Tags, &str), PgnError> {
    let mut tags = Vec::new();
    let mut rest = text.trim_start();
    while let Some(after) = rest.strip_prefix('[') {
        let end = find_tag_end(after)
            .ok_or_else(|| PgnError::Syntax("a tag is not closed with ]".into()))?;
        let inner = after[..end].trim();
        let (name, value) = inner
            .split_once(char::is_whitespace)
            .ok_or_else(|| PgnError::Syntax(format!("tag [{inner}] has no value")))?;
        let value = value.trim();
        let value = value
            .strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .ok_or_else(|| PgnError::Syntax(format!("tag {name}'s value is not quoted")))?;
        tags.push((
            name.to_owned(),
            value.replace("\\\"", "\"").replace("\\\\", "\\"),
        ));
        rest = after[end + 1..].trim_start();
    }
    Ok((tags, rest))
}

/// Finds the `]` that closes a tag, skipping any inside its quoted value.
fn find_tag_end(s: &str) -> Option<usize> {
    let mut quoted = false;
    let mut escaped = false;
    for (i, c) in s.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            ']' if !quoted => return Some(i),
            _ => {}
        }
    }
    None
}

/// Splits movetext into move tokens, dropping numbers, comments, variations, NAGs and
/// annotation marks; returns the result token if there is one.
fn move_tokens(movetext: &str) -> Result<(Vec<String>, Option<String>), PgnError> {
    let mut clean = String::new();
    let mut depth = 0usize;
    let mut chars = movetext.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' => {
                if !chars.by_ref().any(|c| c == '}') {
                    return Err(PgnError::Syntax("a comment is not closed with }".into()));
                }
                clean.push(' ');
            }
            ';' => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
                clean.push(' ');
            }
            '(' => {
                depth += 1;
                clean.push(' ');
            }
            ')' => {
                depth = depth
                    .checked_sub(1)
                    .ok_or_else(|| PgnError::Syntax("a ) closes no variation".into()))?;
                clean.push(' ');
            }
            _ if depth > 0 => {}
            _ => clean.push(c),
        }
    }
    if depth > 0 {
        return Err(PgnError::Syntax("a variation is not closed with )".into()));
    }
    let mut tokens = Vec::new();
    let mut result = None;
    for word in clean.split_whitespace() {
        if matches!(word, "1-0" | "0-1" | "1/2-1/2" | "*") {
            result = Some(word.to_owned());
            continue;
        }
        if let Some(word) = move_word(word) {
            tokens.push(word.to_owned());
        }
    }
    Ok((tokens, result))
}

/// The move in a word of movetext, if it holds one: not a NAG (`$1`) or a move number alone
/// (`12.`, `12...`); a number glued to its move (`12.C2=5`) and `!`/`?` marks dropped. A word
/// that starts with digits but no dot is a move itself (WXF `14+1`).
pub(crate) fn move_word(word: &str) -> Option<&str> {
    if word.starts_with('$') {
        return None;
    }
    let digits = word
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(word.len());
    let word = if digits == word.len() {
        ""
    } else if digits > 0 && word[digits..].starts_with('.') {
        word[digits..].trim_start_matches('.')
    } else {
        word
    };
    let word = word.trim_end_matches(['!', '?']);
    (!word.is_empty()).then_some(word)
}

/// Whether a text is a bare FEN rather than PGN.
pub(crate) fn bare_fen(text: &str) -> bool {
    !text.starts_with('[') && !text.contains('.') && text.contains('/')
}

impl PgnGame {
    /// Returns the value of a tag, by case-insensitive name.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Returns the players' names: Red (`White` or `Red`), then Black.
    pub fn players(&self) -> [String; 2] {
        let red = self.tag("Red").or(self.tag("White")).unwrap_or("");
        let black = self.tag("Black").unwrap_or("");
        [red, black].map(|n| {
            if n == "?" {
                String::new()
            } else {
                n.to_owned()
            }
        })
    }

    /// Turns the game into a record under these options. A result the moves do not reach
    /// becomes a resignation (`1-0`, `0-1`) or an agreed draw (`1/2-1/2`).
    pub fn to_record(&self, options: &XiangqiOptions) -> Result<Record, PgnError> {
        let setup = XiangqiSetup {
            fen: self.fen.clone(),
        };
        let mut game: Match<Xiangqi> = Match::new(options, Some(&setup))
            .map_err(|e| PgnError::Syntax(format!("the start position is not playable: {e}")))?;
        for (i, m) in self.moves.iter().enumerate() {
            let mover = seat_of(game.game().position().side_to_move());
            if game.outcome().is_some() {
                // The source played on where these rules end the game (a perpetual check,
                // say): refuse rather than drop the remaining moves.
                return Err(PgnError::Syntax(format!(
                    "the game is already over before move {} under these rules",
                    i + 1
                )));
            }
            game.apply(Actor::Seat(mover), &crate::Action::Play(*m))
                .map_err(|e| PgnError::Syntax(format!("move {}: {e}", i + 1)))?;
        }
        if game.outcome().is_none() {
            let to_move = seat_of(game.game().position().side_to_move());
            let other = Seat::new(1 - to_move.index() as u8).unwrap_or(Seat::SECOND);
            let ending: &[(Seat, &str)] = match self.result.as_str() {
                "1-0" => &[(Seat::SECOND, "resign")],
                "0-1" => &[(Seat::FIRST, "resign")],
                "1/2-1/2" => &[(to_move, "offer-draw"), (other, "accept-draw")],
                _ => &[],
            };
            for (seat, action) in ending {
                game.apply_text(Actor::Seat(*seat), action)
                    .map_err(|e| PgnError::Syntax(format!("result {}: {e}", self.result)))?;
            }
        }
        Ok(Record {
            format: RECORD_FORMAT,
            game: GameKind::Xiangqi,
            ..game.record()
        })
    }
}
