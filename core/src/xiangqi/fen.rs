//! Reading and writing FEN, as Fairy-Stockfish and pychess-variants write it.

use super::board::{ADVISOR, Color, ELEPHANT, FILES, Kind, Piece, RANKS, Square, in_palace};
use super::position::Position;
use std::fmt;

/// The standard starting position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Says what is wrong with a FEN. Syntax problems stop reading at once; placement problems
/// are all collected (see [`FenError::Illegal`]).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum FenError {
    /// The text is empty.
    Empty,
    /// The board has the wrong number of ranks (separated by `/`).
    RankCount(usize),
    /// A rank (counted from the top, 10 first) does not add up to 9 points.
    RankWidth {
        /// The rank as FEN counts it (10 is Black's back rank).
        rank: usize,
        /// How many points it describes.
        width: usize,
    },
    /// A character that is neither a piece letter nor a digit 1–9.
    BadChar {
        /// The rank as FEN counts it.
        rank: usize,
        /// The character.
        ch: char,
    },
    /// The side to move is not `w`/`r` or `b`.
    BadSide(String),
    /// A move counter is not a number.
    BadCounter(String),
    /// Too many fields.
    TrailingFields(String),
    /// The placement cannot occur in a game; every problem found is listed.
    Illegal(Vec<String>),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => f.write_str("empty FEN"),
            FenError::RankCount(n) => write!(f, "the board has {n} ranks, expected 10"),
            FenError::RankWidth { rank, width } => {
                write!(f, "rank {rank} describes {width} points, expected 9")
            }
            FenError::BadChar { rank, ch } => {
                write!(f, "unexpected character `{ch}` on rank {rank}")
            }
            FenError::BadSide(s) => write!(f, "side to move `{s}` is not `w` or `b`"),
            FenError::BadCounter(s) => write!(f, "move counter `{s}` is not a number"),
            FenError::TrailingFields(s) => write!(f, "unexpected extra field `{s}`"),
            FenError::Illegal(problems) => {
                write!(f, "impossible position: {}", problems.join("; "))
            }
        }
    }
}

impl std::error::Error for FenError {}

pub(crate) const MAX_COUNT: [(Kind, u8); 7] = [
    (Kind::King, 1),
    (Kind::Advisor, 2),
    (Kind::Elephant, 2),
    (Kind::Horse, 2),
    (Kind::Rook, 2),
    (Kind::Cannon, 2),
    (Kind::Pawn, 5),
];

impl Position {
    /// Reads a FEN. The side, castling, en-passant and counter fields may be left out;
    /// `w` or `r` is Red, `b` is Black.
    pub fn from_fen(text: &str) -> Result<Position, FenError> {
        let mut fields = text.split_whitespace();
        let placement = fields.next().ok_or(FenError::Empty)?;
        let mut pos = read_placement(placement)?;
        match fields.next() {
            None | Some("w") | Some("r") => pos.set_side(Color::Red),
            Some("b") => pos.set_side(Color::Black),
            Some(other) => return Err(FenError::BadSide(other.to_string())),
        }
        // Castling and en passant do not exist in Xiangqi; writers put `-` there.
        let rest: Vec<&str> = fields.collect();
        let counters: Vec<&str> = rest.iter().copied().skip_while(|f| *f == "-").collect();
        let number = |s: &str| s.parse::<u32>().map_err(|_| FenError::BadCounter(s.into()));
        if let Some(h) = counters.first() {
            pos.halfmove = number(h)?;
        }
        if let Some(fm) = counters.get(1) {
            pos.fullmove = number(fm)?.max(1);
        }
        if let Some(extra) = counters.get(2) {
            return Err(FenError::TrailingFields(extra.to_string()));
        }
        let problems = placement_problems(&pos);
        if problems.is_empty() {
            Ok(pos)
        } else {
            Err(FenError::Illegal(problems))
        }
    }

    /// Writes the position as FEN (`... w - - 0 1`).
    pub fn to_fen(&self) -> String {
        let mut out = String::with_capacity(90);
        for rank in (0..RANKS).rev() {
            let mut empty = 0;
            for file in 0..FILES {
                match Square::new(file, rank).and_then(|s| self.piece_at(s)) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            out.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        out.push(p.fen_char());
                    }
                }
            }
            if empty > 0 {
                out.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                out.push('/');
            }
        }
        let side = match self.side {
            Color::Red => 'w',
            Color::Black => 'b',
        };
        format!("{out} {side} - - {} {}", self.halfmove, self.fullmove)
    }
}

fn read_placement(placement: &str) -> Result<Position, FenError> {
    let rows: Vec<&str> = placement.split('/').collect();
    if rows.len() != RANKS {
        return Err(FenError::RankCount(rows.len()));
    }
    let mut pos = Position::empty();
    for (i, row) in rows.iter().enumerate() {
        let rank = RANKS - 1 - i;
        let label = rank + 1;
        let mut file = 0;
        for ch in row.chars() {
            if let Some(d) = ch.to_digit(10).filter(|d| *d >= 1) {
                file += d as usize;
            } else if let Some(piece) = Piece::from_fen_char(ch) {
                if let Some(sq) = Square::new(file, rank) {
                    pos.put(sq, piece);
                }
                file += 1;
            } else {
                return Err(FenError::BadChar { rank: label, ch });
            }
        }
        if file != FILES {
            return Err(FenError::RankWidth {
                rank: label,
                width: file,
            });
        }
    }
    Ok(pos)
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Red => "red",
        Color::Black => "black",
    }
}

/// A board (by point index) and side to move as FEN.
pub(crate) fn fen_of(board: &[Option<Piece>; 90], side: Color) -> String {
    let mut rows = Vec::with_capacity(10);
    for rank in (0..10).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for file in 0..9 {
            match board[rank * 9 + file] {
                Some(p) => {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    row.push(p.fen_char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    let side = if side == Color::Red { 'w' } else { 'b' };
    format!("{} {side} - - 0 1", rows.join("/"))
}

/// Lists every reason this placement cannot occur in a game.
fn placement_problems(pos: &Position) -> Vec<String> {
    let mut problems = Vec::new();
    for color in [Color::Red, Color::Black] {
        for (kind, max) in MAX_COUNT {
            let n = pos.count(color, kind);
            if kind == Kind::King && n == 0 {
                problems.push(format!("{} has no general", color_name(color)));
            } else if n > max {
                problems.push(format!(
                    "{} has {n} pieces `{}`, at most {max} allowed",
                    color_name(color),
                    Piece::new(color, kind).fen_char()
                ));
            }
        }
    }
    for sq in Square::all() {
        if let Some(p) = pos.piece_at(sq)
            && !placement_ok(p, sq)
        {
            problems.push(format!("`{}` cannot stand on {sq}", p.fen_char()));
        }
    }
    if problems.is_empty() && pos.in_check(pos.side.other()) {
        problems.push(format!(
            "{} is in check but it is {}'s move",
            color_name(pos.side.other()),
            color_name(pos.side)
        ));
    }
    problems
}

/// Returns true if this piece can ever stand on this point.
pub(crate) fn placement_ok(p: Piece, sq: Square) -> bool {
    let c = p.color();
    let i = sq.index();
    // Ranks counted from this side's back rank.
    let own_rank = match c {
        Color::Red => sq.rank(),
        Color::Black => RANKS - 1 - sq.rank(),
    };
    match p.kind() {
        Kind::King => in_palace(c, i),
        // An advisor's points are exactly those with advisor moves from them.
        Kind::Advisor => ADVISOR[c.index()][i].len > 0,
        Kind::Elephant => {
            ELEPHANT[c.index()][i].len > 0 && own_rank % 2 == 0 && (sq.file() + own_rank) % 4 == 2
        }
        Kind::Pawn => own_rank >= 5 || (own_rank >= 3 && sq.file().is_multiple_of(2)),
        Kind::Horse | Kind::Rook | Kind::Cannon => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_round_trips() {
        let pos = Position::from_fen(START_FEN);
        assert_eq!(pos.map(|p| p.to_fen()), Ok(START_FEN.to_string()));
    }

    #[test]
    fn short_fen_defaults_to_red_and_counters() {
        let pos = Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR");
        assert_eq!(pos.map(|p| p.to_fen()), Ok(START_FEN.to_string()));
    }

    #[test]
    fn errors_are_precise() {
        use FenError::*;
        let cases: [(&str, FenError); 6] = [
            ("", Empty),
            ("9/9", RankCount(2)),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w",
                RankWidth { rank: 1, width: 8 },
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w",
                BadChar { rank: 1, ch: 'X' },
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x",
                BadSide("x".into()),
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - z 1",
                BadCounter("z".into()),
            ),
        ];
        for (fen, want) in cases {
            assert_eq!(Position::from_fen(fen), Err(want), "{fen}");
        }
    }

    #[test]
    fn every_placement_problem_is_reported() {
        // No red general, an advisor outside the palace, a black soldier behind its start.
        let err = Position::from_fen("4k4/p8/9/9/9/9/9/9/A8/9 w");
        let Err(FenError::Illegal(problems)) = err else {
            panic!("expected placement problems, got {err:?}");
        };
        assert_eq!(problems.len(), 3, "{problems:?}");
    }

    #[test]
    fn side_not_to_move_in_check_is_refused() {
        // Red's chariot gives check but it is Red to move.
        let err = Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K1R3 w").err();
        assert!(err.is_none(), "{err:?}");
        let err = Position::from_fen("4k4/9/9/9/9/9/9/9/9/3KR4 w").err();
        assert!(matches!(err, Some(FenError::Illegal(_))), "{err:?}");
    }
}
