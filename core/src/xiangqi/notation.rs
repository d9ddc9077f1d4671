//! Move notations: coordinates (in and out), ICCS (in), WXF and Chinese (both ways).
//!
//! - **Coordinates** as Fairy-Stockfish writes them: files `a`–`i` from Red's left, ranks
//!   `1`–`10` from Red's side: `h3e3`. This is [`Move`]'s `Display`/`FromStr`.
//! - **ICCS**: ranks `0`–`9`: `h2e2` (also `H2-E2`). Read only.
//! - **WXF**: `C2=5`, `H8+7`; `.` is read as `=`. Two pieces on a file are `R+=6` / `R--1`;
//!   three or more soldiers on a file, or soldiers doubled on two files, are written as the
//!   index from the front and the file, `14+1`, as Fairy-Stockfish does. The official WXF
//!   forms (`P+.4`, `++.4`, `3+.4`) are read too.
//! - **Chinese**: 炮二平五, 马8进7 (Red's numbers in Chinese numerals, Black's in digits).
//!   Two on a file: 前车 / 后车; three: 前 / 中 / 后; four or five: 一兵 … 五兵 from the
//!   front; soldiers doubled on two files keep the file: 前兵六进一. Advisors and elephants
//!   keep the file (仕六进五), since the direction tells them apart. Traditional characters
//!   and full-width digits are read too.

use super::board::{Color, FILES, Kind, Move, RANKS, Square, in_palace};
use super::position::Position;
use std::fmt;
use std::str::FromStr;

/// Says why a move text was not accepted. A text that reads fine but fits no legal move is
/// told apart from one that cannot be read at all.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum NotationError {
    /// The text is not a move in this notation.
    Syntax {
        /// The text.
        text: String,
        /// What is wrong.
        reason: String,
    },
    /// The text reads fine, but no legal move fits it.
    NoSuchMove {
        /// The text.
        text: String,
    },
    /// The text fits several legal moves.
    Ambiguous {
        /// The text.
        text: String,
        /// How many.
        count: usize,
    },
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Syntax { text, reason } => {
                write!(f, "cannot read move `{text}`: {reason}")
            }
            NotationError::NoSuchMove { text } => write!(f, "`{text}` is not a legal move here"),
            NotationError::Ambiguous { text, count } => {
                write!(f, "`{text}` fits {count} legal moves")
            }
        }
    }
}

impl std::error::Error for NotationError {}

fn syntax(text: &str, reason: &str) -> NotationError {
    NotationError::Syntax {
        text: text.to_string(),
        reason: reason.to_string(),
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

impl FromStr for Move {
    type Err = NotationError;
    /// Reads Fairy-Stockfish coordinates (`h3e3`, `a10a9`).
    fn from_str(s: &str) -> Result<Move, NotationError> {
        parse_coordinates(s)
    }
}

/// Reads Fairy-Stockfish coordinates (`h3e3`); checks syntax only.
pub fn parse_coordinates(text: &str) -> Result<Move, NotationError> {
    let t = text.trim();
    let (from, rest) = read_square(t, 1).ok_or_else(|| syntax(text, "expected a point like h3"))?;
    let (to, rest) = read_square(rest, 1).ok_or_else(|| syntax(text, "expected a second point"))?;
    if !rest.is_empty() {
        return Err(syntax(text, "unexpected text after the move"));
    }
    if from == to {
        return Err(syntax(text, "a move must change point"));
    }
    Ok(Move::new(from, to))
}

/// Reads ICCS coordinates (`h2e2`, `H2-E2`: ranks 0–9); checks syntax only.
pub fn parse_iccs(text: &str) -> Result<Move, NotationError> {
    let t: String = text.trim().to_ascii_lowercase().replace('-', "");
    let b = t.as_bytes();
    let ok = b.len() == 4
        && (b'a'..=b'i').contains(&b[0])
        && b[1].is_ascii_digit()
        && (b'a'..=b'i').contains(&b[2])
        && b[3].is_ascii_digit();
    if !ok {
        return Err(syntax(text, "expected ICCS like h2e2"));
    }
    let at = |f: u8, r: u8| Square::new((f - b'a') as usize, (r - b'0') as usize);
    match (at(b[0], b[1]), at(b[2], b[3])) {
        (Some(from), Some(to)) if from != to => Ok(Move::new(from, to)),
        _ => Err(syntax(text, "not a move between two points")),
    }
}

/// Reads a point with ranks counted from `base` (1 for coordinates); returns the rest.
fn read_square(s: &str, base: usize) -> Option<(Square, &str)> {
    let mut chars = s.char_indices();
    let (_, f) = chars.next()?;
    if !('a'..='i').contains(&f) {
        return None;
    }
    let digits: String = s[1..]
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .take(2)
        .collect();
    // `a10a9`: take two digits only when they make 10.
    let (rank_text, used) = if digits.starts_with("10") {
        ("10", 2)
    } else {
        (digits.get(..1)?, 1)
    };
    let rank: usize = rank_text.parse().ok()?;
    let sq = Square::new(f as usize - 'a' as usize, rank.checked_sub(base)?)?;
    Some((sq, &s[1 + used..]))
}

/// Reads a move in any notation this module knows and checks it against the legal moves of
/// `pos`. Coordinates come first; a text that is also valid ICCS (`h2e2`) is read as ICCS
/// only when the coordinate reading is not legal and the ICCS one is.
pub fn parse_any(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let coordinates = parse_coordinates(text);
    let iccs = parse_iccs(text);
    for m in [&coordinates, &iccs].into_iter().flatten() {
        if pos.is_legal(*m) {
            return Ok(*m);
        }
    }
    if coordinates.is_ok() || iccs.is_ok() {
        return Err(NotationError::NoSuchMove {
            text: text.to_string(),
        });
    }
    let t = text.trim();
    if !t.is_ascii() {
        return parse_chinese(pos, t);
    }
    let b = t.as_bytes();
    if b.len() >= 2 && (b'a'..=b'i').contains(&b[0]) && b[1].is_ascii_digit() {
        return coordinates;
    }
    parse_wxf(pos, t)
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Op {
    Forward,
    Backward,
    Traverse,
}

/// Which of several same-kind pieces on one file.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Which {
    /// The foremost.
    Front,
    /// The middle one of three.
    Middle,
    /// The rearmost.
    Rear,
    /// The n-th from the front, 1-based.
    Nth(u8),
    /// WXF `P+`: the front one of up to three, the second of four or five.
    Plus,
    /// WXF `P-`: the rear one of up to three, the second-rearmost of four or five.
    Minus,
}

/// A move as relative notations describe it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Desc {
    kind: Option<Kind>,
    file: Option<u8>,
    which: Option<Which>,
    op: Op,
    arg: u8,
}

/// The facts about a move that relative notations draw on.
struct Facts {
    color: Color,
    kind: Kind,
    /// The origin file in the mover's own numbering (1 at the mover's right).
    file: u8,
    /// 0-based position among own same-kind pieces on that file, front first.
    index: usize,
    /// How many own same-kind pieces stand on that file.
    count: usize,
    /// More than one file holds two or more own pieces of this kind.
    multi: bool,
    op: Op,
    arg: u8,
}

fn own_file(color: Color, file: usize) -> u8 {
    match color {
        Color::Red => (FILES - file) as u8,
        Color::Black => (file + 1) as u8,
    }
}

fn facts(pos: &Position, m: Move) -> Option<Facts> {
    let piece = pos.piece_at(m.from)?;
    let (color, kind) = (piece.color(), piece.kind());
    let on_file = |file: usize| -> Vec<usize> {
        // Ranks holding own pieces of this kind on `file`, front first.
        let mut ranks: Vec<usize> = (0..RANKS)
            .filter(|&r| Square::new(file, r).and_then(|s| pos.piece_at(s)) == Some(piece))
            .collect();
        if color == Color::Red {
            ranks.reverse();
        }
        ranks
    };
    let same = on_file(m.from.file());
    let index = same.iter().position(|&r| r == m.from.rank())?;
    let multi = (0..FILES).filter(|&f| on_file(f).len() >= 2).count() >= 2;
    let (fr, tr) = (m.from.rank() as isize, m.to.rank() as isize);
    let forward = if color == Color::Red {
        tr > fr
    } else {
        tr < fr
    };
    let op = if fr == tr {
        Op::Traverse
    } else if forward {
        Op::Forward
    } else {
        Op::Backward
    };
    let arg = if m.from.file() == m.to.file() {
        (tr - fr).unsigned_abs() as u8
    } else {
        own_file(color, m.to.file())
    };
    Some(Facts {
        color,
        kind,
        file: own_file(color, m.from.file()),
        index,
        count: same.len(),
        multi,
        op,
        arg,
    })
}

impl Which {
    fn fits(self, index: usize, count: usize) -> bool {
        match self {
            Which::Front => count >= 2 && index == 0,
            Which::Rear => count >= 2 && index == count - 1,
            Which::Middle => count == 3 && index == 1,
            Which::Nth(n) => count >= 2 && index + 1 == n as usize,
            Which::Plus => (count == 2 || count == 3) && index == 0 || count >= 4 && index == 1,
            Which::Minus => {
                (count == 2 || count == 3) && index == count - 1 || count >= 4 && index == count - 2
            }
        }
    }
}

impl Desc {
    fn fits(&self, f: &Facts) -> bool {
        self.kind.is_none_or(|k| k == f.kind)
            && self.file.is_none_or(|x| x == f.file)
            && self.which.is_none_or(|w| w.fits(f.index, f.count))
            && self.op == f.op
            && self.arg == f.arg
    }
}

/// Finds the one legal move that fits a description.
fn resolve(pos: &Position, desc: Desc, text: &str) -> Result<Move, NotationError> {
    let fitting: Vec<(Move, Facts)> = pos
        .legal_moves()
        .into_iter()
        .filter_map(|m| facts(pos, m).map(|f| (m, f)))
        .filter(|(_, f)| desc.fits(f))
        .collect();
    match fitting.len() {
        0 => Err(NotationError::NoSuchMove {
            text: text.to_string(),
        }),
        1 => Ok(fitting[0].0),
        n => {
            // WXF writes the middle of three soldiers with its plain file: prefer it.
            let middle: Vec<Move> = fitting
                .iter()
                .filter(|(_, f)| desc.which.is_none() && f.index > 0 && f.index + 1 < f.count)
                .map(|(m, _)| *m)
                .collect();
            match middle.as_slice() {
                [m] => Ok(*m),
                _ => Err(NotationError::Ambiguous {
                    text: text.to_string(),
                    count: n,
                }),
            }
        }
    }
}

// ---- WXF ----

fn wxf_letter(kind: Kind) -> char {
    match kind {
        Kind::King => 'K',
        Kind::Advisor => 'A',
        Kind::Elephant => 'E',
        Kind::Horse => 'H',
        Kind::Rook => 'R',
        Kind::Cannon => 'C',
        Kind::Pawn => 'P',
    }
}

fn kind_from_letter(c: char) -> Option<Kind> {
    Some(match c.to_ascii_uppercase() {
        'K' | 'G' => Kind::King,
        'A' => Kind::Advisor,
        'E' | 'B' => Kind::Elephant,
        'H' | 'N' => Kind::Horse,
        'R' => Kind::Rook,
        'C' => Kind::Cannon,
        'P' | 'S' => Kind::Pawn,
        _ => return None,
    })
}

/// Returns true if the other of two same-kind pieces on the file could make the same step,
/// in which case `+`/`-` tells them apart (as Fairy-Stockfish decides).
fn step_shared(pos: &Position, m: Move, f: &Facts) -> bool {
    let other = (0..RANKS)
        .filter_map(|r| Square::new(m.from.file(), r))
        .find(|&s| s != m.from && pos.piece_at(s) == pos.piece_at(m.from));
    let Some(other) = other else { return false };
    let df = m.to.file() as isize - m.from.file() as isize;
    let dr = m.to.rank() as isize - m.from.rank() as isize;
    let (file, rank) = (other.file() as isize + df, other.rank() as isize + dr);
    if file < 0 || rank < 0 {
        return false;
    }
    let Some(target) = Square::new(file as usize, rank as usize) else {
        return false;
    };
    match f.kind {
        Kind::King | Kind::Advisor => in_palace(f.color, target.index()),
        Kind::Elephant => f.color.own_half(target.rank()),
        _ => true,
    }
}

fn op_char(op: Op) -> char {
    match op {
        Op::Forward => '+',
        Op::Backward => '-',
        Op::Traverse => '=',
    }
}

/// Writes a legal move in WXF notation (`C2=5`).
pub fn to_wxf(pos: &Position, m: Move) -> String {
    let Some(f) = facts(pos, m) else {
        return m.to_string();
    };
    let origin = if f.count >= 3 || (f.count == 2 && f.multi) {
        format!("{}{}", f.index + 1, f.file)
    } else if f.count == 2 && step_shared(pos, m, &f) {
        format!(
            "{}{}",
            wxf_letter(f.kind),
            if f.index == 0 { '+' } else { '-' }
        )
    } else {
        format!("{}{}", wxf_letter(f.kind), f.file)
    };
    format!("{origin}{}{}", op_char(f.op), f.arg)
}

/// Reads a WXF move (`C2=5`, `C2.5`, `R+=6`, `14+1`, `P+.4`, `++.4`, `3+.4`) for `pos`.
pub fn parse_wxf(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let chars: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    if chars.len() != 4 {
        return Err(syntax(text, "WXF moves have four characters, like C2=5"));
    }
    let digit = |c: char| {
        c.to_digit(10)
            .filter(|d| (1..=9).contains(d))
            .map(|d| d as u8)
    };
    let (kind, file, which) = match (chars[0], chars[1]) {
        ('+', '+') => (None, None, Some(Which::Front)),
        ('-', '-') => (None, None, Some(Which::Rear)),
        (a, b) if digit(a).is_some() => match (b, digit(b)) {
            (_, Some(file)) => (None, Some(file), digit(a).map(Which::Nth)),
            ('+', None) => (None, digit(a), Some(Which::Front)),
            ('-', None) => (None, digit(a), Some(Which::Rear)),
            _ => return Err(syntax(text, "expected a file or + / - after the index")),
        },
        (a, b) => {
            let kind = kind_from_letter(a)
                .ok_or_else(|| syntax(text, "unknown piece letter (K A E H R C P)"))?;
            match (b, digit(b)) {
                (_, Some(file)) => (Some(kind), Some(file), None),
                ('+', None) => (Some(kind), None, Some(Which::Plus)),
                ('-', None) => (Some(kind), None, Some(Which::Minus)),
                _ => return Err(syntax(text, "expected a file 1-9, + or - after the piece")),
            }
        }
    };
    let op = match chars[2] {
        '+' => Op::Forward,
        '-' => Op::Backward,
        '.' | '=' => Op::Traverse,
        _ => return Err(syntax(text, "expected + - . or = as the third character")),
    };
    let arg = digit(chars[3]).ok_or_else(|| syntax(text, "expected a number 1-9 at the end"))?;
    resolve(
        pos,
        Desc {
            kind,
            file,
            which,
            op,
            arg,
        },
        text,
    )
}

// ---- Chinese ----

const RED_NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// Returns the character on the piece: 帅 仕 相 马 车 炮 兵 for Red, 将 士 象 马 车 炮 卒 for
/// Black.
pub(crate) fn chinese_name(color: Color, kind: Kind) -> char {
    match (color, kind) {
        (Color::Red, Kind::King) => '帅',
        (Color::Black, Kind::King) => '将',
        (Color::Red, Kind::Advisor) => '仕',
        (Color::Black, Kind::Advisor) => '士',
        (Color::Red, Kind::Elephant) => '相',
        (Color::Black, Kind::Elephant) => '象',
        (_, Kind::Horse) => '马',
        (_, Kind::Rook) => '车',
        (_, Kind::Cannon) => '炮',
        (Color::Red, Kind::Pawn) => '兵',
        (Color::Black, Kind::Pawn) => '卒',
    }
}

fn number(color: Color, n: u8) -> char {
    match color {
        Color::Red => RED_NUMERALS[(n as usize).saturating_sub(1).min(8)],
        Color::Black => char::from(b'0' + n),
    }
}

/// Writes a legal move in Chinese notation (炮二平五, 马8进7, 前车进一).
pub fn to_chinese(pos: &Position, m: Move) -> String {
    let Some(f) = facts(pos, m) else {
        return m.to_string();
    };
    let name = chinese_name(f.color, f.kind);
    let position_word = |index: usize, count: usize| match (count, index) {
        (2, 0) | (3, 0) => '前',
        (3, 1) => '中',
        (2, _) | (3, _) => '后',
        (_, i) => RED_NUMERALS[i.min(8)],
    };
    let mut out = String::new();
    if f.count < 2 || matches!(f.kind, Kind::Advisor | Kind::Elephant) {
        out.push(name);
        out.push(number(f.color, f.file));
    } else {
        out.push(position_word(f.index, f.count));
        out.push(name);
        if f.multi {
            out.push(number(f.color, f.file));
        }
    }
    out.push(match f.op {
        Op::Forward => '进',
        Op::Backward => '退',
        Op::Traverse => '平',
    });
    out.push(number(f.color, f.arg));
    out
}

fn chinese_kind(c: char) -> Option<Kind> {
    Some(match c {
        '帅' | '帥' | '将' | '將' => Kind::King,
        '仕' | '士' => Kind::Advisor,
        '相' | '象' => Kind::Elephant,
        '马' | '馬' | '傌' | '碼' => Kind::Horse,
        '车' | '車' | '俥' | '伡' => Kind::Rook,
        '炮' | '砲' | '包' => Kind::Cannon,
        '兵' | '卒' => Kind::Pawn,
        _ => return None,
    })
}

fn chinese_number(c: char) -> Option<u8> {
    if let Some(i) = RED_NUMERALS.iter().position(|&n| n == c) {
        return Some(i as u8 + 1);
    }
    match c {
        '1'..='9' => Some(c as u8 - b'0'),
        '１'..='９' => Some((c as u32 - '０' as u32) as u8),
        _ => None,
    }
}

fn chinese_op(c: char) -> Option<Op> {
    Some(match c {
        '进' | '進' => Op::Forward,
        '退' => Op::Backward,
        '平' => Op::Traverse,
        _ => return None,
    })
}

/// Reads a move in Chinese notation for `pos` (simplified or traditional characters,
/// Chinese numerals or digits for either side).
pub fn parse_chinese(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let c: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    let mut i = 0;
    let which = match c.first() {
        Some('前') => Some(Which::Front),
        Some('中') => Some(Which::Middle),
        Some('后' | '後') => Some(Which::Rear),
        Some(&d) if c.get(1).copied().and_then(chinese_kind).is_some() => Some(Which::Nth(
            chinese_number(d).ok_or_else(|| syntax(text, "unknown prefix"))?,
        )),
        _ => None,
    };
    if which.is_some() {
        i += 1;
    }
    let kind = c
        .get(i)
        .copied()
        .and_then(chinese_kind)
        .ok_or_else(|| syntax(text, "expected a piece name such as 车 or 炮"))?;
    i += 1;
    let file = match c.get(i).copied().and_then(chinese_number) {
        Some(n) => {
            i += 1;
            Some(n)
        }
        None if which.is_some() => None,
        None => return Err(syntax(text, "expected the file the piece stands on")),
    };
    let op = c
        .get(i)
        .copied()
        .and_then(chinese_op)
        .ok_or_else(|| syntax(text, "expected 进, 退 or 平"))?;
    let arg = c
        .get(i + 1)
        .copied()
        .and_then(chinese_number)
        .ok_or_else(|| syntax(text, "expected a number after 进, 退 or 平"))?;
    if c.len() != i + 2 {
        return Err(syntax(text, "unexpected text after the move"));
    }
    resolve(
        pos,
        Desc {
            kind: Some(kind),
            file,
            which,
            op,
            arg,
        },
        text,
    )
}
