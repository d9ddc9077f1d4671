//! Opening names: the named line a game from the usual start has followed, from Qiguan's own
//! table (`openings.txt`: a few hundred lines with ECCO-style codes, in Chinese and English).
//!
//! A game is named after the last table position it passed through, so transpositions find
//! their name, and a line played on the other wing (the mirror image, left to right) is the
//! same line.

use super::board::{FILES, Move, Square};
use super::notation::parse_chinese;
use super::position::Position;
use std::collections::HashMap;
use std::sync::OnceLock;

/// A named opening line.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Opening {
    /// Its ECCO-style code (`C01`): the class letter, the group and the line's number, or the
    /// group's first number where the table gives the group only.
    pub code: &'static str,
    /// Its Chinese name (中炮七路马对屏风马).
    pub zh: &'static str,
    /// Its English name.
    pub en: &'static str,
    /// Its moves from the usual start.
    pub moves: Vec<Move>,
}

impl Opening {
    /// The text that names this line in stored games: code and Chinese name.
    pub fn key(&self) -> String {
        format!("{} {}", self.code, self.zh)
    }

    /// Its class: `A` to `E`.
    pub fn class(&self) -> char {
        self.code.chars().next().unwrap_or('A')
    }
}

/// The five classes of openings, by letter, with their names in Chinese and English.
pub const CLASSES: [(char, &str, &str); 5] = [
    (
        'A',
        "非中炮类开局",
        "Openings other than the central cannon",
    ),
    (
        'B',
        "中炮对反宫马及其他",
        "Central cannon vs Reverse Palace Horses and others",
    ),
    ('C', "中炮对屏风马", "Central cannon vs Screen Horses"),
    ('D', "顺炮局和列炮局", "Same and opposite direction cannons"),
    ('E', "仙人指路局", "Pawn openings"),
];

/// Why a line of the table cannot be read (the table is checked by a test; a bad line is left
/// out at run time).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TableError {
    /// The line's number in the file, from 1.
    pub line: usize,
    /// What is wrong with it.
    pub why: String,
}

const TABLE: &str = include_str!("openings.txt");

/// Reads the table: every named line, in the file's order.
pub fn read_table(text: &'static str) -> Vec<Result<Opening, TableError>> {
    let mut by_name: HashMap<&str, Vec<Move>> = HashMap::new();
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let read = read_line(line, &by_name).map_err(|why| TableError { line: n + 1, why });
        if let Ok(opening) = &read {
            by_name.insert(opening.zh, opening.moves.clone());
        }
        out.push(read);
    }
    out
}

fn read_line(line: &'static str, earlier: &HashMap<&str, Vec<Move>>) -> Result<Opening, String> {
    let fields: Vec<&'static str> = line.split('|').map(str::trim).collect();
    let [code, zh, en, moves] = fields[..] else {
        return Err(format!("{} fields, not 4", fields.len()));
    };
    let well_formed = code.len() == 3
        && code.starts_with(|c: char| ('A'..='E').contains(&c))
        && code[1..].chars().all(|c| c.is_ascii_digit());
    if !well_formed {
        return Err(format!("code {code:?} is not a letter A–E and two digits"));
    }
    let mut text = moves;
    let mut line_moves = Vec::new();
    if let Some(rest) = text.strip_prefix('<') {
        let (name, after) = rest
            .split_once('>')
            .ok_or_else(|| "a < without its >".to_owned())?;
        line_moves = earlier
            .get(name)
            .ok_or_else(|| format!("no earlier line named {name}"))?
            .clone();
        text = after;
    }
    let mut pos = Position::start();
    for &m in &line_moves {
        pos.play(m).map_err(|e| format!("{e:?}"))?;
    }
    for word in text.split_whitespace() {
        let m = parse_chinese(&pos, word).map_err(|e| format!("{word}: {e}"))?;
        pos.play(m)
            .map_err(|_| format!("{word} cannot be played"))?;
        line_moves.push(m);
    }
    if line_moves.is_empty() {
        return Err("no moves".to_owned());
    }
    Ok(Opening {
        code,
        zh,
        en,
        moves: line_moves,
    })
}

/// The table, read once, and each of its positions (and their mirror images) by hash.
struct Book {
    openings: Vec<Opening>,
    by_position: HashMap<u64, usize>,
    longest: usize,
}

fn book() -> &'static Book {
    static BOOK: OnceLock<Book> = OnceLock::new();
    BOOK.get_or_init(|| {
        let openings: Vec<Opening> = read_table(TABLE).into_iter().flatten().collect();
        // Each line's own position first, then the mirror images where no line is there: a
        // position whose mirror is another line's keeps its own line's name (the two-headed
        // snake against the left horse is not named as the mirror of the right horse's).
        let mut by_position = HashMap::new();
        for (i, opening) in openings.iter().enumerate() {
            if let Some(pos) = play(&opening.moves) {
                by_position.entry(pos.hash()).or_insert(i);
            }
        }
        for (i, opening) in openings.iter().enumerate() {
            if let Some(pos) = play(&mirrored(&opening.moves)) {
                by_position.entry(pos.hash()).or_insert(i);
            }
        }
        let longest = openings.iter().map(|o| o.moves.len()).max().unwrap_or(0);
        Book {
            openings,
            by_position,
            longest,
        }
    })
}

/// Plays moves from the usual start; `None` if one cannot be played.
fn play(moves: &[Move]) -> Option<Position> {
    let mut pos = Position::start();
    for &m in moves {
        pos.play(m).ok()?;
    }
    Some(pos)
}

/// The same moves on the other wing.
fn mirrored(moves: &[Move]) -> Vec<Move> {
    let flip = |sq: Square| Square::new(FILES - 1 - sq.file(), sq.rank()).unwrap_or(sq);
    moves
        .iter()
        .map(|m| Move::new(flip(m.from), flip(m.to)))
        .collect()
}

/// Every named line of the table, in its order.
pub fn openings() -> &'static [Opening] {
    &book().openings
}

/// The named line stored as `key` (see [`Opening::key`]).
pub fn by_key(key: &str) -> Option<&'static Opening> {
    openings().iter().find(|o| o.key() == key)
}

/// The opening of a game: the last named position its moves passed through, for a game from
/// the usual start (`None` from any other start, or before any named position).
pub fn opening_of(
    start: &Position,
    moves: impl IntoIterator<Item = Move>,
) -> Option<&'static Opening> {
    opening_line(start, moves).pop()
}

/// Every named position a game's moves passed through, in order, each once: its opening is the
/// last, the ones before it the families it grew from (仙人指路, then 两头蛇对进右马, …).
pub fn opening_line(
    start: &Position,
    moves: impl IntoIterator<Item = Move>,
) -> Vec<&'static Opening> {
    let book = book();
    let mut pos = start.clone();
    let mut line: Vec<&'static Opening> = Vec::new();
    if pos.hash() != Position::start().hash() {
        return line;
    }
    for m in moves.into_iter().take(book.longest) {
        if pos.play(m).is_err() {
            break;
        }
        if let Some(&i) = book.by_position.get(&pos.hash()) {
            let opening = &book.openings[i];
            line.retain(|o| o.zh != opening.zh);
            line.push(opening);
        }
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xiangqi::notation::parse_iccs;

    fn line(text: &str) -> Vec<Move> {
        let mut pos = Position::start();
        text.split_whitespace()
            .map(|w| {
                let m = parse_iccs(w).unwrap_or_else(|e| panic!("{w}: {e}"));
                pos.play(m).unwrap_or_else(|e| panic!("{w}: {e:?}"));
                m
            })
            .collect()
    }

    fn name(text: &str) -> Option<&'static str> {
        opening_of(&Position::start(), line(text)).map(|o| o.zh)
    }

    #[test]
    fn every_line_of_the_table_reads_and_plays() {
        let read = read_table(TABLE);
        let bad: Vec<_> = read.iter().filter_map(|r| r.as_ref().err()).collect();
        assert!(bad.is_empty(), "bad lines: {bad:?}");
        assert!(read.len() >= 200, "only {} lines", read.len());
        let names: std::collections::HashSet<_> = openings().iter().map(|o| o.zh).collect();
        assert_eq!(names.len(), openings().len(), "a name is given twice");
        for o in openings() {
            assert!(o.en.is_ascii(), "{}: English name {:?}", o.zh, o.en);
            // Two lines of a phone's replay hold a name with its code (the screen keeps
            // two lines' room for it).
            assert!(o.en.len() <= 90, "{}: English name too long", o.en);
            assert!(
                o.zh.chars().count() <= 36,
                "{}: Chinese name too long",
                o.zh
            );
            assert!(!o.zh.is_ascii(), "{}: no Chinese name", o.en);
            let class = CLASSES.iter().find(|c| c.0 == o.class());
            assert!(class.is_some(), "{}: class {}", o.zh, o.class());
        }
    }

    #[test]
    fn no_two_lines_name_one_position() {
        let mut seen: HashMap<u64, &str> = HashMap::new();
        for o in openings() {
            let hash = play(&o.moves).map(|p| p.hash()).unwrap_or_default();
            if let Some(other) = seen.insert(hash, o.zh) {
                panic!("one position, two names: {other} and {}", o.zh);
            }
        }
    }

    #[test]
    fn each_line_is_named_after_itself_and_its_mirror_after_it_or_its_own_line() {
        let own: std::collections::HashSet<u64> = openings()
            .iter()
            .filter_map(|o| play(&o.moves).map(|p| p.hash()))
            .collect();
        for o in openings() {
            assert_eq!(opening_of(&Position::start(), o.moves.clone()), Some(o));
            let mirror = mirrored(&o.moves);
            let hash = play(&mirror).map(|p| p.hash()).unwrap_or_default();
            if !own.contains(&hash) {
                assert_eq!(opening_of(&Position::start(), mirror), Some(o));
            }
        }
    }

    #[test]
    fn a_game_keeps_its_wing_and_its_families() {
        // 兵七进一 马8进7 兵三进一: the left horse, not the mirror of the right one's line.
        assert_eq!(name("c3c4 h9g7 g3g4"), Some("两头蛇对进左马"));
        assert_eq!(name("c3c4 b9c7 g3g4"), Some("两头蛇对进右马"));
        let line: Vec<&str> = opening_line(&Position::start(), line("c3c4 b9c7 g3g4 h7g7"))
            .iter()
            .map(|o| o.zh)
            .collect();
        assert_eq!(
            line,
            [
                "仙人指路",
                "仙人指路对进右马",
                "两头蛇对进右马",
                "两头蛇对进右马转卒底炮"
            ]
        );
    }

    #[test]
    fn games_are_named_by_the_last_named_position_they_reached() {
        // The classical screen horses, in the usual order and in another.
        assert_eq!(name("h2e2 h9g7 h0g2 b9c7"), Some("中炮对屏风马"));
        assert_eq!(name("h2e2 b9c7 h0g2 h9g7"), Some("中炮对屏风马"));
        // On the other wing: 炮八平五 马2进3 马八进七 马8进7.
        assert_eq!(name("b2e2 b9c7 b0c2 h9g7"), Some("中炮对屏风马"));
        // Past the table the name stays the last one reached.
        assert_eq!(
            name("h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 c3c4 g6g5 b0c2 c9e7 c2d4 a6a5"),
            Some("中炮七路马对屏风马 红左马盘河")
        );
        assert_eq!(name("h2e2 h7e7"), Some("顺炮局"));
        assert_eq!(name("h2e2 b7e7"), Some("中炮对列炮"));
        assert_eq!(name("c3c4 g6g5"), Some("仙人指路对进7卒"));
        assert_eq!(name("c3c4 c6c5"), Some("对兵局"));
        assert_eq!(name("g3g4 g6g5"), Some("对兵局"));
        assert_eq!(name("g0e2"), Some("飞相局"));
        assert_eq!(name("c0e2"), Some("飞相局"));
        // No named position: a first move the table does not name.
        assert_eq!(name("i0i2"), None);
        assert_eq!(name(""), None);
    }

    #[test]
    fn a_game_from_another_start_has_no_opening_name() {
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1")
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(opening_of(&pos, []), None);
    }

    #[test]
    fn keys_find_their_line() {
        for o in openings().iter().step_by(17) {
            assert_eq!(by_key(&o.key()), Some(o));
        }
        assert_eq!(by_key("Z99 不存在"), None);
    }
}
