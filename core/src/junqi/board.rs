//! The Junqi board: 5 columns × 12 rows as a graph of 60 points and 133 links, 35 of them
//! railroad, with headquarters, camps, the mountains and the front line (../shared/RULES.md).
//!
//! A point is `row * 5 + column`; row 0 is South's back row, row 11 North's.

use crate::graph::BoardGraph;
use std::fmt;
use std::sync::OnceLock;

/// Columns.
pub const COLUMNS: usize = 5;
/// Rows.
pub const ROWS: usize = 12;
/// Points.
pub const POINTS: usize = COLUMNS * ROWS;

/// A point of the board, `0..60`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(u8);

impl Point {
    /// Returns the point at this row (0–11) and column (0–4), if on the board.
    pub const fn new(row: usize, column: usize) -> Option<Point> {
        if row < ROWS && column < COLUMNS {
            Some(Point((row * COLUMNS + column) as u8))
        } else {
            None
        }
    }

    /// Returns the point with this index (0–59), if on the board.
    pub const fn from_index(index: usize) -> Option<Point> {
        if index < POINTS {
            Some(Point(index as u8))
        } else {
            None
        }
    }

    /// Returns the index, 0–59.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Returns the row, 0 (South's back row) to 11.
    pub const fn row(self) -> usize {
        self.0 as usize / COLUMNS
    }

    /// Returns the column, 0 to 4.
    pub const fn column(self) -> usize {
        self.0 as usize % COLUMNS
    }

    /// Iterates over all 60 points.
    pub fn all() -> impl Iterator<Item = Point> {
        (0..POINTS as u8).map(Point)
    }

    /// Returns true for the four headquarters: a piece there never moves again.
    pub const fn is_headquarters(self) -> bool {
        matches!((self.row(), self.column()), (0 | 11, 1 | 3))
    }

    /// Returns true for the ten camps: deployed empty, and safe from attack by default.
    pub const fn is_camp(self) -> bool {
        matches!(
            (self.row(), self.column()),
            (2 | 4 | 7 | 9, 1 | 3) | (3 | 8, 2)
        )
    }

    /// Returns true for the front rows, on either side of the mountains (rows 5 and 6).
    pub const fn is_front(self) -> bool {
        matches!(self.row(), 5 | 6)
    }
}

impl fmt::Display for Point {
    /// Writes the column as a letter `a`–`e` and the row as a number: `c5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.column() as u8) as char, self.row())
    }
}

impl fmt::Debug for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::str::FromStr for Point {
    type Err = String;
    /// Reads `c5`: a column letter `a`–`e`, then a row 0–11.
    fn from_str(text: &str) -> Result<Point, String> {
        let mut chars = text.chars();
        let column = match chars.next() {
            Some(c @ 'a'..='e') => c as usize - 'a' as usize,
            _ => return Err(format!("{text:?}: expected a column a–e")),
        };
        let row: usize = chars
            .as_str()
            .parse()
            .map_err(|_| format!("{text:?}: expected a row 0–11"))?;
        Point::new(row, column).ok_or_else(|| format!("{text:?} is off the board"))
    }
}

/// The two places where the mountains cut the board: no link crosses them.
pub const MOUNTAINS: [(usize, usize); 2] = [
    (5 * COLUMNS + 1, 6 * COLUMNS + 1),
    (5 * COLUMNS + 3, 6 * COLUMNS + 3),
];

fn at(row: usize, column: usize) -> usize {
    row * COLUMNS + column
}

/// Returns the board graph (built once).
pub fn graph() -> &'static BoardGraph {
    static GRAPH: OnceLock<BoardGraph> = OnceLock::new();
    GRAPH.get_or_init(build)
}

fn build() -> BoardGraph {
    let mut g = BoardGraph::new(POINTS);
    // The seven straight rail lines: rows 1, 5, 6, 10; columns 0 and 4 from row 1 to row 10;
    // and the centre crossing between the mountains.
    for row in [1, 5, 6, 10] {
        g.rail_line((0..COLUMNS).map(|c| at(row, c)).collect());
    }
    for column in [0, 4] {
        g.rail_line((1..=10).map(|r| at(r, column)).collect());
    }
    g.rail_line(vec![at(5, 2), at(6, 2)]);
    // Roads: every other orthogonal neighbour, except across the mountains.
    for row in 0..ROWS {
        for column in 0..COLUMNS {
            let p = at(row, column);
            if column + 1 < COLUMNS {
                g.link(p, at(row, column + 1), false);
            }
            if row + 1 < ROWS && !MOUNTAINS.contains(&(p, at(row + 1, column))) {
                g.link(p, at(row + 1, column), false);
            }
        }
    }
    // Each camp also reaches its four diagonal neighbours.
    for p in Point::all().filter(|p| p.is_camp()) {
        for (dr, dc) in [(-1i32, -1i32), (-1, 1), (1, -1), (1, 1)] {
            let (r, c) = (p.row() as i32 + dr, p.column() as i32 + dc);
            if let Some(q) = Point::new(r as usize, c as usize).filter(|_| r >= 0 && c >= 0) {
                g.link(p.index(), q.index(), false);
            }
        }
    }
    g
}
