//! Setting up a position by hand (a book's endgame, a position from a photo): pieces put on and
//! taken off any point, the side to move chosen, the board cleared, reset or mirrored — and
//! every reason the result cannot be a Xiangqi position, named, so that the editor can say
//! why it refuses it.

use super::Position;
use super::board::FILES;
use super::board::{Color, Kind, Piece, Square};
use super::fen::fen_of;
use super::fen::{MAX_COUNT, placement_ok};
use std::fmt;

/// A board being set up: any pieces on any points, and a side to move.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Editor {
    board: [Option<Piece>; 90],
    side: Color,
}

/// Why a board set up by hand is not a position a game can have.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Problem {
    /// This side has no general.
    NoGeneral(Color),
    /// This side has more pieces of a kind than a game starts with.
    TooMany {
        /// The side.
        color: Color,
        /// The kind.
        kind: Kind,
        /// How many stand.
        count: u8,
        /// How many a side has.
        max: u8,
    },
    /// A piece stands where it can never go: a general or an advisor outside its palace, an
    /// elephant off its seven points or across the river, a soldier behind where it starts.
    OffItsPoints {
        /// The piece.
        piece: Piece,
        /// Where.
        at: Square,
    },
    /// The two generals face each other on an open file.
    GeneralsFacing,
    /// The side not to move is in check: its opponent could take its general.
    CheckWithOtherToMove(Color),
}

impl Problem {
    /// A stable code for the screens to say it in their language (`no-general`, `too-many`,
    /// `off-its-points`, `generals-facing`, `check-other-to-move`).
    pub fn code(&self) -> &'static str {
        match self {
            Problem::NoGeneral(_) => "no-general",
            Problem::TooMany { .. } => "too-many",
            Problem::OffItsPoints { .. } => "off-its-points",
            Problem::GeneralsFacing => "generals-facing",
            Problem::CheckWithOtherToMove(_) => "check-other-to-move",
        }
    }
}

fn side(color: Color) -> &'static str {
    match color {
        Color::Red => "Red",
        Color::Black => "Black",
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::NoGeneral(c) => write!(f, "{} has no general", side(*c)),
            Problem::TooMany {
                color,
                kind,
                count,
                max,
            } => write!(
                f,
                "{} has {count} pieces `{}`; a side has {max}",
                side(*color),
                Piece::new(*color, *kind).fen_char()
            ),
            Problem::OffItsPoints { piece, at } => {
                write!(f, "`{}` can never stand on {at}", piece.fen_char())
            }
            Problem::GeneralsFacing => f.write_str("the generals face each other"),
            Problem::CheckWithOtherToMove(c) => {
                write!(
                    f,
                    "{} is in check but it is not {}'s move",
                    side(*c),
                    side(*c)
                )
            }
        }
    }
}

impl Editor {
    /// An empty board, Red to move.
    pub fn empty() -> Editor {
        Editor {
            board: [None; 90],
            side: Color::Red,
        }
    }

    /// The standard start.
    pub fn start() -> Editor {
        Editor::of(&Position::start())
    }

    /// This position, to change.
    pub fn of(pos: &Position) -> Editor {
        let mut editor = Editor::empty();
        for sq in Square::all() {
            editor.board[sq.index()] = pos.piece_at(sq);
        }
        editor.side = pos.side_to_move();
        editor
    }

    /// The piece on a point.
    pub fn at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// Puts a piece on a point (replacing what stood there) or takes it off (`None`).
    pub fn put(&mut self, sq: Square, piece: Option<Piece>) {
        self.board[sq.index()] = piece;
    }

    /// Moves whatever stands on `from` to `to` (dragging a piece); nothing if `from` is empty.
    pub fn drag(&mut self, from: Square, to: Square) {
        if let Some(piece) = self.board[from.index()].take() {
            self.board[to.index()] = Some(piece);
        }
    }

    /// Takes every piece off.
    pub fn clear(&mut self) {
        self.board = [None; 90];
    }

    /// Mirrors the board left to right (a position and its mirror are the same study).
    pub fn mirror(&mut self) {
        let old = self.board;
        for sq in Square::all() {
            let file = FILES - 1 - sq.file();
            if let Some(to) = Square::new(file, sq.rank()) {
                self.board[to.index()] = old[sq.index()];
            }
        }
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Chooses the side to move.
    pub fn set_side_to_move(&mut self, side: Color) {
        self.side = side;
    }

    /// Every reason this board cannot be a position, in a fixed order; none when it can.
    pub fn problems(&self) -> Vec<Problem> {
        let mut problems = Vec::new();
        for color in [Color::Red, Color::Black] {
            for (kind, max) in MAX_COUNT {
                let count = self
                    .board
                    .iter()
                    .flatten()
                    .filter(|p| p.color() == color && p.kind() == kind)
                    .count() as u8;
                if kind == Kind::King && count == 0 {
                    problems.push(Problem::NoGeneral(color));
                } else if count > max {
                    problems.push(Problem::TooMany {
                        color,
                        kind,
                        count,
                        max,
                    });
                }
            }
        }
        for sq in Square::all() {
            if let Some(piece) = self.board[sq.index()]
                && !placement_ok(piece, sq)
            {
                problems.push(Problem::OffItsPoints { piece, at: sq });
            }
        }
        if !problems.is_empty() {
            return problems;
        }
        let kings: Vec<Square> = Square::all()
            .filter(|sq| self.board[sq.index()].is_some_and(|p| p.kind() == Kind::King))
            .collect();
        if let [a, b] = kings[..]
            && a.file() == b.file()
        {
            let (low, high) = (a.rank().min(b.rank()), a.rank().max(b.rank()));
            let open = (low + 1..high)
                .filter_map(|r| Square::new(a.file(), r))
                .all(|sq| self.board[sq.index()].is_none());
            if open {
                return vec![Problem::GeneralsFacing];
            }
        }
        if self.unchecked().in_check(self.side.other()) {
            problems.push(Problem::CheckWithOtherToMove(self.side.other()));
        }
        problems
    }

    /// The board as FEN, whatever stands on it.
    pub fn fen(&self) -> String {
        fen_of(&self.board, self.side)
    }

    /// The board as a position without the checks (only to ask who is in check).
    fn unchecked(&self) -> Position {
        let mut pos = Position::empty();
        for sq in Square::all() {
            if let Some(piece) = self.board[sq.index()] {
                pos.put(sq, piece);
            }
        }
        pos.set_side(self.side);
        pos
    }

    /// The position, or every reason it cannot be one.
    pub fn position(&self) -> Result<Position, Vec<Problem>> {
        let problems = self.problems();
        if !problems.is_empty() {
            return Err(problems);
        }
        Position::from_fen(&self.fen()).map_err(|_| problems)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        let b = name.as_bytes();
        let file = usize::from(b[0] - b'a');
        let rank: usize = name[1..].parse().unwrap_or(0);
        Square::new(file, rank - 1).unwrap_or_else(|| panic!("{name}"))
    }

    fn piece(c: char) -> Option<Piece> {
        Piece::from_fen_char(c)
    }

    /// Two generals apart and nothing else: a position.
    fn bare() -> Editor {
        let mut e = Editor::empty();
        e.put(sq("e1"), piece('K'));
        e.put(sq("d10"), piece('k'));
        e
    }

    #[test]
    fn a_good_setup_is_a_position() {
        let mut e = bare();
        e.put(sq("a5"), piece('R'));
        e.set_side_to_move(Color::Black);
        let pos = e.position().unwrap_or_else(|p| panic!("{p:?}"));
        assert_eq!(pos.side_to_move(), Color::Black);
        assert_eq!(Editor::start().position(), Ok(Position::start()));
    }

    #[test]
    fn each_rule_is_named() {
        let mut e = Editor::empty();
        e.put(sq("e1"), piece('K'));
        assert_eq!(e.problems(), [Problem::NoGeneral(Color::Black)]);

        let mut e = bare();
        for s in ["a4", "c4", "e4", "g4", "i4", "a6"] {
            e.put(sq(s), piece('P'));
        }
        assert_eq!(
            e.problems(),
            [Problem::TooMany {
                color: Color::Red,
                kind: Kind::Pawn,
                count: 6,
                max: 5
            }]
        );

        for (c, at) in [
            ('K', "e4"), // a general out of its palace
            ('A', "e3"), // an advisor off the palace's five points
            ('B', "e4"), // an elephant off its seven points
            ('B', "c6"), // an elephant across the river
            ('P', "b4"), // a soldier not yet across on a file it never starts on
            ('P', "e2"), // a soldier behind where it starts
            ('p', "c8"), // ... for Black too
            ('a', "d9"), // a black advisor off its points
        ] {
            let mut e = bare();
            if c == 'K' {
                e.put(sq("e1"), None);
            }
            e.put(sq(at), piece(c));
            let piece = piece(c).unwrap_or_else(|| panic!("{c}"));
            assert_eq!(
                e.problems(),
                [Problem::OffItsPoints { piece, at: sq(at) }],
                "{c} on {at}"
            );
        }

        let mut e = Editor::empty();
        e.put(sq("e1"), piece('K'));
        e.put(sq("e10"), piece('k'));
        assert_eq!(e.problems(), [Problem::GeneralsFacing]);
        e.put(sq("e5"), piece('N'));
        assert_eq!(e.problems(), [], "a piece between them");

        // Red's rook gives check and it is Red's move: Black could never have left it so.
        let mut e = bare();
        e.put(sq("d5"), piece('R'));
        assert_eq!(e.problems(), [Problem::CheckWithOtherToMove(Color::Black)]);
        e.set_side_to_move(Color::Black);
        assert_eq!(e.problems(), []);
    }

    #[test]
    fn pieces_are_dragged_cleared_and_mirrored() {
        let mut e = Editor::start();
        e.drag(sq("h3"), sq("e3"));
        assert_eq!(e.at(sq("e3")), piece('C'));
        assert_eq!(e.at(sq("h3")), None);
        e.mirror();
        assert_eq!(e.at(sq("e3")), piece('C'), "the middle file stays");
        assert_eq!(e.at(sq("h3")), piece('C'), "b3's cannon is now on h3");
        assert_eq!(e.at(sq("b3")), None);
        assert!(e.position().is_ok());
        e.clear();
        assert_eq!(
            e.problems(),
            [
                Problem::NoGeneral(Color::Red),
                Problem::NoGeneral(Color::Black)
            ]
        );
    }
}
