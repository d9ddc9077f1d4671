//! DhtmlXQ (东萍象棋), the text that Chinese Xiangqi forums and sites paste games as (often
//! called UBB): `[DhtmlXQ_name]value[/DhtmlXQ_name]` tags. The start (`binit`: the 32 pieces'
//! points, or `fen`), the game's moves (`movelist`: four digits a move, file then row from
//! Black's side), each variation as `move_{line}_{ply}_{id}` (it replaces move `ply` of line
//! `line`; 0 is the game), comments as `comment{ply}` or `comment{id}_{ply}` (`||` a new line).

use super::fen::fen_of;
use super::study::{Arena, IllegalLine, MAX_NODES, MAX_PLIES, Study, room_for};
use super::{Color, Move, Piece, Position, Square};
use std::collections::HashMap;
use std::fmt;

/// Why a text is not a readable DhtmlXQ game.
#[derive(Clone, PartialEq, Debug)]
pub enum DhtmlXqError {
    /// No `[DhtmlXQ_…]` tag in the text.
    NotDhtmlXq,
    /// A tag is opened and not closed.
    Unclosed(String),
    /// The start (`binit` or `fen`) is not a position a game can have.
    BadPosition(String),
    /// A move list is not groups of four digits.
    BadMoves(String),
    /// A move cannot be played where it stands.
    Illegal(IllegalLine),
    /// A variation hangs from a move no line has.
    Orphan(String),
    /// More moves than any real game holds.
    TooManyMoves,
}

impl fmt::Display for DhtmlXqError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DhtmlXqError::NotDhtmlXq => f.write_str("no DhtmlXQ tags in the text"),
            DhtmlXqError::Unclosed(tag) => write!(f, "the DhtmlXQ tag [{tag}] is not closed"),
            DhtmlXqError::BadPosition(why) => write!(f, "the DhtmlXQ start is impossible: {why}"),
            DhtmlXqError::BadMoves(tag) => {
                write!(
                    f,
                    "the DhtmlXQ moves in [{tag}] are not groups of four digits"
                )
            }
            DhtmlXqError::Illegal(line) => write!(f, "in the DhtmlXQ game, {line}"),
            DhtmlXqError::Orphan(tag) => {
                write!(
                    f,
                    "the DhtmlXQ variation [{tag}] follows no move of the game"
                )
            }
            DhtmlXqError::TooManyMoves => {
                write!(
                    f,
                    "the DhtmlXQ game holds more than {MAX_NODES} moves, or {MAX_PLIES} in one line"
                )
            }
        }
    }
}

impl std::error::Error for DhtmlXqError {}

/// The 32 pieces of `binit`, in order.
const PIECES: &str = "RNBAKABNRCCPPPPPrnbakabnrccppppp";
/// Header tags and their PGN names.
const HEADERS: [(&str, &str); 8] = [
    ("title", "Title"),
    ("event", "Event"),
    ("date", "Date"),
    ("place", "Site"),
    ("red", "Red"),
    ("black", "Black"),
    ("owner", "Author"),
    ("result", "Result"),
];

/// Whether the text holds DhtmlXQ tags.
pub fn is_dhtmlxq(text: &str) -> bool {
    text.contains("[DhtmlXQ")
}

/// Reads a DhtmlXQ game with its variations and comments.
pub fn read_dhtmlxq(text: &str) -> Result<Study, DhtmlXqError> {
    let tags = read_tags(text)?;
    if tags.is_empty() {
        return Err(DhtmlXqError::NotDhtmlXq);
    }
    let value = |name: &str| {
        tags.iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.trim())
    };
    let main = value("movelist").unwrap_or("");
    let main_moves = moves_of(main, "DhtmlXQ_movelist")?;
    let start = start_of(value("fen"), value("binit"), main_moves.first())?;
    let comments: HashMap<(usize, usize), String> = tags
        .iter()
        .filter_map(|(name, v)| {
            let id = name.strip_prefix("comment")?;
            let (line, ply) = match id.split_once('_') {
                Some((line, ply)) => (line.parse().ok()?, ply.parse().ok()?),
                None => (0, id.parse().ok()?),
            };
            // A line break is `||`; one written as CR and `||` is one break too, as
            // Qiguan's writer (which writes CR LF as `||`) reads it back.
            let text = unescape(&v.replace("||", "\n"))
                .replace("\r\n", "\n")
                .trim()
                .to_owned();
            (!text.is_empty()).then_some(((line, ply), text))
        })
        .collect();
    let mut arena = Arena::new();
    // Where each (line, ply) hangs: the node before it (none: the start) and the position.
    let mut hangs: HashMap<(usize, usize), (Option<usize>, Position)> = HashMap::new();
    hangs.insert((0, 1), (None, start.clone()));
    let add = |arena: &mut Arena,
               hangs: &mut HashMap<(usize, usize), (Option<usize>, Position)>,
               line: usize,
               from_ply: usize,
               moves: &[Move],
               at: (Option<usize>, Position)|
     -> Result<(), DhtmlXqError> {
        let (mut parent, mut pos) = at;
        for (i, &mv) in moves.iter().enumerate() {
            let ply = from_ply + i;
            if !room_for(arena.nodes.len(), ply) {
                return Err(DhtmlXqError::TooManyMoves);
            }
            if pos.play(mv).is_err() {
                return Err(DhtmlXqError::Illegal(IllegalLine {
                    ply,
                    text: mv.to_string(),
                }));
            }
            let index = arena.push(parent, mv, comments.get(&(line, ply)).cloned());
            parent = Some(index);
            hangs.insert((line, ply + 1), (parent, pos.clone()));
        }
        Ok(())
    };
    add(
        &mut arena,
        &mut hangs,
        0,
        1,
        &main_moves,
        (None, start.clone()),
    )?;
    // Variations, in the order given; one that hangs from a variation given after it waits
    // for it (as the sites' own readers do).
    let mut waiting: Vec<(String, usize, usize, usize, Vec<Move>)> = Vec::new();
    for (name, v) in &tags {
        let Some(id) = name.strip_prefix("move_") else {
            continue;
        };
        let numbers: Vec<usize> = id.split('_').filter_map(|n| n.parse().ok()).collect();
        let [line, ply, own] = numbers[..] else {
            return Err(DhtmlXqError::Orphan(format!("DhtmlXQ_{name}")));
        };
        waiting.push((name.clone(), line, ply, own, moves_of(v, name)?));
    }
    while !waiting.is_empty() {
        let before = waiting.len();
        let mut still = Vec::new();
        for (name, line, ply, own, moves) in waiting {
            match hangs.get(&(line, ply)).cloned() {
                Some(at) => add(&mut arena, &mut hangs, own, ply, &moves, at)?,
                None => still.push((name, line, ply, own, moves)),
            }
        }
        if still.len() == before {
            return Err(DhtmlXqError::Orphan(format!("DhtmlXQ_{}", still[0].0)));
        }
        waiting = still;
    }
    let mut study_tags = Vec::new();
    for (tag, name) in HEADERS {
        if let Some(v) = value(tag).filter(|v| !v.is_empty()) {
            let v = if name == "Result" {
                result_of(v)
            } else {
                unescape(v)
            };
            study_tags.push((name.to_owned(), v));
        }
    }
    if !study_tags.iter().any(|(n, _)| n == "Result") {
        study_tags.push(("Result".into(), "*".into()));
    }
    Ok(Study {
        tags: study_tags,
        start,
        comment: comments.get(&(0, 0)).cloned(),
        moves: arena.into_tree(),
    })
}

/// Every `[DhtmlXQ_name]value[/DhtmlXQ_name]` in the text, in order (the name without
/// `DhtmlXQ_`).
fn read_tags(text: &str) -> Result<Vec<(String, String)>, DhtmlXqError> {
    let mut tags = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find("[DhtmlXQ_") {
        let after = &rest[open + 1..];
        let Some(end) = after.find(']') else {
            return Err(DhtmlXqError::Unclosed(after.chars().take(30).collect()));
        };
        let name = &after[..end];
        let body = &after[end + 1..];
        let close = format!("[/{name}]");
        let Some(stop) = body.find(&close) else {
            return Err(DhtmlXqError::Unclosed(name.to_owned()));
        };
        let short = name.trim_start_matches("DhtmlXQ_").to_owned();
        tags.push((short, body[..stop].to_owned()));
        rest = &body[stop + close.len()..];
    }
    Ok(tags)
}

/// Moves as four digits each: file and row (from Black's side) of the from and to points.
fn moves_of(digits: &str, tag: &str) -> Result<Vec<Move>, DhtmlXqError> {
    let digits: Vec<u8> = digits
        .bytes()
        .filter(|b| !b.is_ascii_whitespace())
        .collect();
    let bad = || DhtmlXqError::BadMoves(tag.to_owned());
    if !digits.len().is_multiple_of(4) || !digits.iter().all(u8::is_ascii_digit) {
        return Err(bad());
    }
    digits
        .chunks(4)
        .map(|d| {
            let point = |x: u8, y: u8| {
                Square::new(
                    usize::from(x - b'0'),
                    9usize.checked_sub(usize::from(y - b'0'))?,
                )
            };
            match (point(d[0], d[1]), point(d[2], d[3])) {
                (Some(from), Some(to)) => Ok(Move::new(from, to)),
                _ => Err(bad()),
            }
        })
        .collect()
}

/// The start: a FEN tag, or the 32 pieces' points (`99`: off the board), or the standard
/// start; the side to move is the first move's piece's.
fn start_of(
    fen: Option<&str>,
    binit: Option<&str>,
    first: Option<&Move>,
) -> Result<Position, DhtmlXqError> {
    let bad = |why: String| DhtmlXqError::BadPosition(why);
    let mut board: [Option<Piece>; 90] = [None; 90];
    if let Some(fen) = fen.filter(|f| !f.is_empty()) {
        let pos = Position::from_fen(fen).map_err(|e| bad(e.to_string()))?;
        for sq in Square::all() {
            board[sq.index()] = pos.piece_at(sq);
        }
    } else if let Some(binit) = binit.filter(|b| !b.is_empty()) {
        let digits = binit.as_bytes();
        if digits.len() != 64 || !digits.iter().all(u8::is_ascii_digit) {
            return Err(bad("binit is not 64 digits".into()));
        }
        for (i, c) in PIECES.chars().enumerate() {
            let (x, y) = (
                usize::from(digits[2 * i] - b'0'),
                usize::from(digits[2 * i + 1] - b'0'),
            );
            let Some(sq) = (x < 9).then(|| Square::new(x, 9 - y)).flatten() else {
                continue;
            };
            if board[sq.index()].is_some() {
                return Err(bad(format!("two pieces on {sq}")));
            }
            board[sq.index()] = Piece::from_fen_char(c);
        }
    } else {
        let pos = Position::start();
        for sq in Square::all() {
            board[sq.index()] = pos.piece_at(sq);
        }
    }
    let side = first
        .and_then(|m| board[m.from.index()])
        .map_or(Color::Red, Piece::color);
    Position::from_fen(&fen_of(&board, side)).map_err(|e| bad(e.to_string()))
}

/// A result as the sites write it (红胜, 黑胜, 和棋, 红先胜, …) in PGN's words.
fn result_of(text: &str) -> String {
    let t = text.trim();
    let result = if t.contains('和') {
        "1/2-1/2"
    } else if t.contains("红胜") || t.contains("红先胜") || t.contains("黑负") || t == "1-0"
    {
        "1-0"
    } else if t.contains("黑胜") || t.contains("红先负") || t.contains("红负") || t == "0-1"
    {
        "0-1"
    } else {
        "*"
    };
    result.to_owned()
}

/// Writes a study as DhtmlXQ: every line and comment, and the tags DhtmlXQ has.
pub fn write_dhtmlxq(study: &Study) -> String {
    let mut out = String::from("[DhtmlXQ]\n");
    for (tag, name) in HEADERS {
        let Some(v) = study.tag(name) else {
            continue;
        };
        let v = if name == "Result" {
            match v {
                "1-0" => "红胜",
                "0-1" => "黑胜",
                "1/2-1/2" => "和棋",
                _ => continue,
            }
            .to_owned()
        } else {
            escape(v)
        };
        out.push_str(&format!("[DhtmlXQ_{tag}]{v}[/DhtmlXQ_{tag}]\n"));
    }
    out.push_str(&format!(
        "[DhtmlXQ_binit]{}[/DhtmlXQ_binit]\n",
        binit(&study.start)
    ));
    let code = |m: Move| {
        format!(
            "{}{}{}{}",
            m.from.file(),
            9 - m.from.rank(),
            m.to.file(),
            9 - m.to.rank()
        )
    };
    let mut comments = Vec::new();
    if let Some(c) = &study.comment {
        comments.push((0usize, 0usize, c.clone()));
    }
    // Lines to write: (its id, the line it hangs from, its first ply, its moves' list and the
    // index of its first move there).
    let mut queue = std::collections::VecDeque::new();
    queue.push_back((0usize, 0usize, 1usize, &study.moves[..], 0usize));
    let mut next_id = 1;
    while let Some((id, from_line, first_ply, list, index)) = queue.pop_front() {
        let mut digits = String::new();
        let (mut list, mut index, mut ply) = (list, index, first_ply);
        while let Some(node) = list.get(index) {
            digits.push_str(&code(node.mv));
            if let Some(c) = &node.comment {
                comments.push((id, ply, c.clone()));
            }
            // The alternatives to a move this line continues with start lines of their own.
            if index == 0 {
                for k in 1..list.len() {
                    queue.push_back((next_id, id, ply, list, k));
                    next_id += 1;
                }
            }
            list = &node.next;
            index = 0;
            ply += 1;
        }
        if id == 0 {
            out.push_str(&format!("[DhtmlXQ_movelist]{digits}[/DhtmlXQ_movelist]\n"));
        } else {
            let tag = format!("DhtmlXQ_move_{from_line}_{first_ply}_{id}");
            out.push_str(&format!("[{tag}]{digits}[/{tag}]\n"));
        }
    }
    for (line, ply, text) in comments {
        let tag = if line == 0 {
            format!("DhtmlXQ_comment{ply}")
        } else {
            format!("DhtmlXQ_comment{line}_{ply}")
        };
        let text = escape(&text.replace("\r\n", "\n")).replace('\n', "||");
        out.push_str(&format!("[{tag}]{text}[/{tag}]\n"));
    }
    out.push_str("[/DhtmlXQ]\n");
    out
}

/// Text as a tag's value can hold it: the characters that would end a tag or stand for a
/// new line (`[`, `]`, `|`) and the escape's own backslash as `\u` and four hex digits,
/// which the sites' readers decode in comments.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '[' | ']' | '|' | '\\' => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out
}

/// Decodes `\u` escapes (four hex digits each); anything else stays as it is.
fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("\\u") {
        out.push_str(&rest[..at]);
        let code = rest
            .get(at + 2..at + 6)
            .filter(|h| h.chars().all(|c| c.is_ascii_hexdigit()))
            .and_then(|h| u32::from_str_radix(h, 16).ok())
            .and_then(char::from_u32);
        match code {
            Some(c) => {
                out.push(c);
                rest = &rest[at + 6..];
            }
            None => {
                out.push('\\');
                rest = &rest[at + 1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The 32 pieces' points (`99` for those off the board), as `binit` lists them.
fn binit(pos: &Position) -> String {
    let mut slots = vec!["99".to_owned(); 32];
    let mut used = [false; 32];
    for sq in Square::all() {
        let Some(piece) = pos.piece_at(sq) else {
            continue;
        };
        let c = piece.fen_char();
        let free = PIECES
            .chars()
            .enumerate()
            .position(|(i, p)| p == c && !used[i]);
        if let Some(i) = free {
            used[i] = true;
            slots[i] = format!("{}{}", sq.file(), 9 - sq.rank());
        }
    }
    slots.concat()
}

#[cfg(test)]
#[path = "dhtmlxq_tests.rs"]
mod tests;
