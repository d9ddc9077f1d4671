//! XQF, the binary format of 象棋演播室 (XQStudio), in which most Xiangqi game collections
//! are kept: version 10 as its author published it (2001), and the encrypted layout of
//! versions 11 and later as published by xqbase's converters. The whole move tree is read,
//! variations and comments included; text is GB18030.
//!
//! Layout: a 1024-byte header (`XQ`, the version, the keys of versions ≥ 11, the 32 pieces'
//! points, the result, the kind of file, then length-prefixed strings), then the moves in
//! pre-order — each move's continuation before the alternatives to it — each as four bytes
//! (from, to, flags, 0) and, when it has one, its comment's length and text. A point is the
//! byte `file * 10 + rank` from Red's lower left; a piece off the board is 0xFF.

use super::fen::{FenError, fen_of};
use super::study::{Arena, IllegalLine, MAX_NODES, MAX_PLIES, Study, room_for};
use super::{Color, Kind, Move, Piece, Position, Square};
use encoding_rs::GB18030;
use std::fmt;

/// Why bytes are not a readable XQF file.
#[derive(Clone, PartialEq, Debug)]
pub enum XqfError {
    /// The file does not start with `XQ`.
    NotXqf,
    /// The file ends inside its header (1024 bytes).
    ShortHeader(usize),
    /// The file ends inside the record of this move (0: the start's comment).
    Truncated {
        /// The move's number from the start.
        ply: usize,
    },
    /// Two pieces stand on one point, or the pieces do not make a position a game can have.
    BadPosition(String),
    /// A move names a point off the board, or no piece of the side to move.
    BadMove {
        /// The move's number from the start.
        ply: usize,
    },
    /// A move cannot be played where it stands.
    Illegal(IllegalLine),
    /// More moves than any real file holds ([`MAX_NODES`], or [`MAX_PLIES`] in one line).
    TooManyMoves,
}

impl fmt::Display for XqfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            XqfError::NotXqf => f.write_str("not an XQF file (it does not start with XQ)"),
            XqfError::ShortHeader(n) => write!(
                f,
                "the XQF file ends after {n} bytes, inside its 1024-byte header"
            ),
            XqfError::Truncated { ply: 0 } => {
                f.write_str("the XQF file ends before its first move record")
            }
            XqfError::Truncated { ply } => write!(f, "the XQF file ends inside move {ply}"),
            XqfError::BadPosition(why) => write!(f, "the XQF file's position is impossible: {why}"),
            XqfError::BadMove { ply } => write!(
                f,
                "move {ply} of the XQF file names a point off the board or an empty point"
            ),
            XqfError::Illegal(line) => write!(f, "in the XQF file, {line}"),
            XqfError::TooManyMoves => write!(
                f,
                "the XQF file holds more than {MAX_NODES} moves, or {MAX_PLIES} in one line"
            ),
        }
    }
}

impl std::error::Error for XqfError {}

/// The header size: moves start here.
const MOVES_AT: usize = 0x400;
/// The key stream's mask (versions ≥ 11).
const MASK: &[u8; 32] = b"[(C) Copyright Mr. Dong Shiwei.]";
/// The 16 pieces of a side in the file's order.
const ORDER: [Kind; 16] = [
    Kind::Rook,
    Kind::Horse,
    Kind::Elephant,
    Kind::Advisor,
    Kind::King,
    Kind::Advisor,
    Kind::Elephant,
    Kind::Horse,
    Kind::Rook,
    Kind::Cannon,
    Kind::Cannon,
    Kind::Pawn,
    Kind::Pawn,
    Kind::Pawn,
    Kind::Pawn,
    Kind::Pawn,
];
/// Header strings: (offset, size, tag).
const STRINGS: [(usize, usize, &str); 8] = [
    (0x50, 64, "Title"),
    (0xD0, 64, "Event"),
    (0x110, 16, "Date"),
    (0x120, 16, "Site"),
    (0x130, 16, "Red"),
    (0x140, 16, "Black"),
    (0x1D0, 16, "Annotator"),
    (0x1E0, 16, "Author"),
];

/// The keys of an encrypted file (versions ≥ 11), as its header holds them: byte 3 is the
/// mask, bytes 8–11 the "or" keys, 12 the keys' sum, 13–15 the keys of the piece points and
/// of the moves' from and to points.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct XqfKeys {
    /// Header byte 3.
    pub mask: u8,
    /// Header bytes 8–11.
    pub or: [u8; 4],
    /// Header byte 12.
    pub sum: u8,
    /// Header byte 13.
    pub xy: u8,
    /// Header byte 14.
    pub from: u8,
    /// Header byte 15.
    pub to: u8,
}

impl XqfKeys {
    /// Keys of an encrypted file with every key set, for tests and fuzz seeds.
    #[doc(hidden)]
    pub const SAMPLE: XqfKeys = XqfKeys {
        mask: 0xFF,
        or: [0x11, 0x22, 0x33, 0x44],
        sum: 0x5A,
        xy: 0x7B,
        from: 0x9C,
        to: 0xBD,
    };
}

/// What the keys come to: offsets for the piece points, the moves' points and comment
/// lengths, and the 32-byte stream subtracted from everything after the header.
struct Cipher {
    pieces: u8,
    from: u8,
    to: u8,
    comment: i64,
    stream: [u8; 32],
}

impl Cipher {
    fn none() -> Cipher {
        Cipher {
            pieces: 0,
            from: 0,
            to: 0,
            comment: 0,
            stream: [0; 32],
        }
    }

    fn of(k: &XqfKeys) -> Cipher {
        // ((((b² · 3 + 9) · 3 + 8) · 2 + 1) · 3 + 8) · x, that is (54 b² + 221) · x, in a byte.
        let step = |b: u8, x: u8| ((54 * u32::from(b).pow(2) + 221) * u32::from(x)) as u8;
        let pieces = step(k.xy, k.xy);
        let from = step(k.from, pieces);
        let to = step(k.to, from);
        let keys = [k.sum, k.xy, k.from, k.to];
        let mut stream = [0u8; 32];
        for (i, byte) in stream.iter_mut().enumerate() {
            *byte = MASK[i] & ((keys[i % 4] & k.mask) | k.or[i % 4]);
        }
        Cipher {
            pieces,
            from,
            to,
            comment: (i64::from(k.sum) * 256 + i64::from(k.xy)) % 32000 + 767,
            stream,
        }
    }
}

/// Reads an XQF file: its tags, start, and whole move tree.
pub fn read_xqf(bytes: &[u8]) -> Result<Study, XqfError> {
    if bytes.len() < 2 || &bytes[..2] != b"XQ" {
        return Err(XqfError::NotXqf);
    }
    if bytes.len() < MOVES_AT {
        return Err(XqfError::ShortHeader(bytes.len()));
    }
    let version = bytes[2];
    let keys = XqfKeys {
        mask: bytes[3],
        or: [bytes[8], bytes[9], bytes[10], bytes[11]],
        sum: bytes[12],
        xy: bytes[13],
        from: bytes[14],
        to: bytes[15],
    };
    let cipher = if version >= 11 {
        Cipher::of(&keys)
    } else {
        Cipher::none()
    };
    let mut points = [0xFFu8; 32];
    for (i, raw) in bytes[0x10..0x30].iter().enumerate() {
        let slot = if version >= 12 {
            (usize::from(cipher.pieces) + 1 + i) % 32
        } else {
            i
        };
        points[slot] = raw.wrapping_sub(cipher.pieces);
    }
    let data: Vec<u8> = bytes[MOVES_AT..]
        .iter()
        .enumerate()
        .map(|(i, b)| b.wrapping_sub(cipher.stream[i % 32]))
        .collect();
    let mut reader = Records {
        data: &data,
        at: 0,
        version,
        cipher: &cipher,
    };
    let root = reader.next(0)?;
    // The side to move is the side of the first move's piece.
    let first = if root.has_next {
        let mut peek = reader;
        Some(peek.next(1)?)
    } else {
        None
    };
    let start = position(&points, first.as_ref())?;
    let mut arena = Arena::new();
    let mut pending: Vec<(Option<usize>, Position, usize)> = Vec::new();
    let mut current = root.has_next.then(|| (None, start.clone(), 1));
    while let Some((parent, pos, ply)) = current {
        if !room_for(arena.nodes.len(), ply) {
            return Err(XqfError::TooManyMoves);
        }
        let record = reader.next(ply)?;
        let mv = record.mv.ok_or(XqfError::BadMove { ply })?;
        let mut after = pos.clone();
        if after.play(mv).is_err() {
            return Err(XqfError::Illegal(IllegalLine {
                ply,
                text: mv.to_string(),
            }));
        }
        let index = arena.push(parent, mv, record.comment);
        if record.has_var {
            pending.push((parent, pos, ply));
        }
        current = if record.has_next {
            Some((Some(index), after, ply + 1))
        } else {
            pending.pop()
        };
    }
    let mut tags = Vec::new();
    for (at, size, name) in STRINGS {
        let mut value = header_string(&bytes[at..at + size]);
        if matches!(name, "Red" | "Black") {
            value = close_name(&value);
        }
        if !value.is_empty() {
            tags.push((name.to_owned(), value));
        }
    }
    let result = match bytes[0x33] {
        1 => "1-0",
        2 => "0-1",
        3 | 4 => "1/2-1/2",
        _ => "*",
    };
    tags.push(("Result".into(), result.into()));
    Ok(Study {
        tags,
        start,
        comment: root.comment,
        moves: arena.into_tree(),
    })
}

/// One move record as read.
struct Record {
    mv: Option<Move>,
    has_next: bool,
    has_var: bool,
    comment: Option<String>,
}

#[derive(Clone, Copy)]
struct Records<'a> {
    data: &'a [u8],
    at: usize,
    version: u8,
    cipher: &'a Cipher,
}

impl Records<'_> {
    fn take(&mut self, n: usize, ply: usize) -> Result<&[u8], XqfError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.data.len());
        let end = end.ok_or(XqfError::Truncated { ply })?;
        let bytes = &self.data[self.at..end];
        self.at = end;
        Ok(bytes)
    }

    fn next(&mut self, ply: usize) -> Result<Record, XqfError> {
        let head = self.take(4, ply)?;
        let (src, dst, flags) = (head[0], head[1], head[2]);
        let (has_next, has_var, length) = if self.version <= 10 {
            let n = self.take(4, ply)?;
            let length = i64::from(u32::from_le_bytes([n[0], n[1], n[2], n[3]]));
            (flags & 0xF0 != 0, flags & 0x0F != 0, length)
        } else {
            let length = if flags & 0x20 != 0 {
                let n = self.take(4, ply)?;
                i64::from(i32::from_le_bytes([n[0], n[1], n[2], n[3]])) - self.cipher.comment
            } else {
                0
            };
            (flags & 0x80 != 0, flags & 0x40 != 0, length)
        };
        let comment = if length > 0 {
            let n = usize::try_from(length).map_err(|_| XqfError::Truncated { ply })?;
            let text = gb18030(self.take(n, ply)?);
            (!text.trim().is_empty()).then_some(text)
        } else {
            None
        };
        let point = |b: u8| {
            let code = usize::from(b);
            (code < 90)
                .then(|| Square::new(code / 10, code % 10))
                .flatten()
        };
        let from = point(src.wrapping_sub(24).wrapping_sub(self.cipher.from));
        let to = point(dst.wrapping_sub(32).wrapping_sub(self.cipher.to));
        Ok(Record {
            mv: from.zip(to).map(|(f, t)| Move::new(f, t)),
            has_next,
            has_var,
            comment,
        })
    }
}

/// The start: the 32 pieces on their points, with the side of the first move to move.
fn position(points: &[u8; 32], first: Option<&Record>) -> Result<Position, XqfError> {
    let mut board: [Option<Piece>; 90] = [None; 90];
    for (i, &code) in points.iter().enumerate() {
        if code >= 90 {
            continue;
        }
        let color = if i < 16 { Color::Red } else { Color::Black };
        let Some(sq) = Square::new(usize::from(code) / 10, usize::from(code) % 10) else {
            continue;
        };
        if board[sq.index()].is_some() {
            return Err(XqfError::BadPosition(format!("two pieces on {sq}")));
        }
        board[sq.index()] = Some(Piece::new(color, ORDER[i % 16]));
    }
    let side = first
        .and_then(|r| r.mv)
        .and_then(|m| board[m.from.index()])
        .map_or(Color::Red, Piece::color);
    let fen = fen_of(&board, side);
    Position::from_fen(&fen).map_err(|e| match e {
        FenError::Illegal(problems) => XqfError::BadPosition(problems.join("; ")),
        other => XqfError::BadPosition(other.to_string()),
    })
}

/// A header string: a length byte, then that many bytes of GB18030 (clipped to its field).
fn header_string(field: &[u8]) -> String {
    let n = usize::from(field[0]).min(field.len() - 1);
    gb18030(&field[1..=n]).trim().to_owned()
}

/// A player's name without the spaces XQStudio pads two-character Chinese names with to line
/// them up with three-character ones ("吕  钦" is 吕钦); spaces in other names stay.
fn close_name(name: &str) -> String {
    let cjk = |c: char| ('\u{3400}'..='\u{9FFF}').contains(&c);
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::with_capacity(name.len());
    for (i, &c) in chars.iter().enumerate() {
        if c.is_whitespace() {
            let before = chars[..i].iter().rev().find(|c| !c.is_whitespace());
            let after = chars[i + 1..].iter().find(|c| !c.is_whitespace());
            if before.is_some_and(|&b| cjk(b)) && after.is_some_and(|&a| cjk(a)) {
                continue;
            }
        }
        out.push(c);
    }
    out
}

fn gb18030(bytes: &[u8]) -> String {
    GB18030.decode_without_bom_handling(bytes).0.into_owned()
}

fn gb18030_bytes(text: &str) -> Vec<u8> {
    GB18030.encode(text).0.into_owned()
}

/// Writes a study as XQF version 18 with these keys (all zero: a file any XQF reader opens
/// without a key). Every line and comment is kept; tags that XQF has a field for are kept,
/// clipped to the field at a character's end.
pub fn write_xqf(study: &Study, keys: XqfKeys) -> Vec<u8> {
    let cipher = Cipher::of(&keys);
    let mut out = vec![0u8; MOVES_AT];
    out[..3].copy_from_slice(&[b'X', b'Q', 18]);
    out[3] = keys.mask;
    out[8..12].copy_from_slice(&keys.or);
    out[12..16].copy_from_slice(&[keys.sum, keys.xy, keys.from, keys.to]);
    let mut points = [0xFFu8; 32];
    let mut used = [false; 32];
    for sq in Square::all() {
        let Some(piece) = study.start.piece_at(sq) else {
            continue;
        };
        let base = if piece.color() == Color::Red { 0 } else { 16 };
        let free = (0..16).find(|&i| ORDER[i] == piece.kind() && !used[base + i]);
        if let Some(i) = free {
            used[base + i] = true;
            points[base + i] = (sq.file() * 10 + sq.rank()) as u8;
        }
    }
    for i in 0..32 {
        let slot = (usize::from(cipher.pieces) + 1 + i) % 32;
        out[0x10 + i] = points[slot].wrapping_add(cipher.pieces);
    }
    out[0x33] = match study.tag("Result") {
        Some("1-0") => 1,
        Some("0-1") => 2,
        Some("1/2-1/2") => 3,
        _ => 0,
    };
    // A file of the standard start is a whole game; any other start, a middle game.
    out[0x40] = if study.start == Position::start() {
        0
    } else {
        2
    };
    for (at, size, name) in STRINGS {
        if let Some(value) = study.tag(name) {
            let mut bytes = gb18030_bytes(value);
            while bytes.len() > size - 1 {
                // Drop the last character (GB18030 characters are 1, 2 or 4 bytes).
                let keep = value
                    .char_indices()
                    .map(|(i, _)| i)
                    .rfind(|&i| gb18030_bytes(&value[..i]).len() < bytes.len())
                    .unwrap_or(0);
                bytes = gb18030_bytes(&value[..keep]);
            }
            out[at] = bytes.len() as u8;
            out[at + 1..at + 1 + bytes.len()].copy_from_slice(&bytes);
        }
    }
    let mut moves = Vec::new();
    let record = |moves: &mut Vec<u8>,
                  mv: Option<Move>,
                  has_next: bool,
                  has_var: bool,
                  comment: Option<&str>| {
        let code = |sq: Square| (sq.file() * 10 + sq.rank()) as u8;
        let (from, to) = mv.map_or((0, 0), |m| (code(m.from), code(m.to)));
        let text = comment.map(gb18030_bytes).filter(|t| !t.is_empty());
        let flags =
            u8::from(has_next) << 7 | u8::from(has_var) << 6 | u8::from(text.is_some()) << 5;
        moves.extend_from_slice(&[
            from.wrapping_add(24).wrapping_add(cipher.from),
            to.wrapping_add(32).wrapping_add(cipher.to),
            flags,
            0,
        ]);
        if let Some(text) = text {
            let length = text.len() as i64 + cipher.comment;
            moves.extend_from_slice(&(length as i32).to_le_bytes());
            moves.extend_from_slice(&text);
        }
    };
    record(
        &mut moves,
        None,
        !study.moves.is_empty(),
        false,
        study.comment.as_deref(),
    );
    // Pre-order: a move, then its continuation and everything in it, then its alternatives.
    let mut stack = vec![(&study.moves[..], 0usize)];
    while let Some((line, i)) = stack.pop() {
        let Some(node) = line.get(i) else {
            continue;
        };
        record(
            &mut moves,
            Some(node.mv),
            !node.next.is_empty(),
            i + 1 < line.len(),
            node.comment.as_deref(),
        );
        stack.push((line, i + 1));
        stack.push((&node.next[..], 0));
    }
    out.extend(
        moves
            .iter()
            .enumerate()
            .map(|(i, b)| b.wrapping_add(cipher.stream[i % 32])),
    );
    out
}

#[cfg(test)]
#[path = "xqf_tests.rs"]
mod tests;
