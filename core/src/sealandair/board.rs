//! The Sea-land-air board (docs/design/sea-land-air.md, "The board"): 84 land and sea circles
//! in 7 columns × 12 rows, the rail bridge, ten stopping dots and four airports; roads and
//! railways on land (a shared [`BoardGraph`]), sea lines, the double red landing lines, the
//! flight lines, the retreat routes and the fire arrows.
//!
//! A circle is `row * 7 + column`: columns 0–4 (`a`–`e`) are land, 5–6 (`f`, `g`) sea; row 0 is
//! South's back row, row 11 North's. Then come the bridge (84), the dots `k0`–`k9` (85–94) and
//! the airports `sw se nw ne` (95–98).

use crate::graph::BoardGraph;
use crate::junqi::Side;
use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

/// Columns of circles: five of land, two of sea.
pub const COLUMNS: usize = 7;
/// Land columns (`a`–`e`).
pub const LAND_COLUMNS: usize = 5;
/// Rows.
pub const ROWS: usize = 12;
/// Land and sea circles.
pub const CIRCLES: usize = COLUMNS * ROWS;
/// Every point: circles, the bridge, ten dots and four airports.
pub const POINTS: usize = CIRCLES + 1 + 10 + 4;

const BRIDGE: u8 = CIRCLES as u8;
const FIRST_DOT: u8 = BRIDGE + 1;
const FIRST_AIRPORT: u8 = FIRST_DOT + 10;
const AIRPORT_NAMES: [&str; 4] = ["sw", "se", "nw", "ne"];

/// What a point is.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Layer {
    /// A yellow land circle, or the rail bridge.
    Land,
    /// A green sea circle.
    Sea,
    /// A black stopping dot for aircraft.
    Dot,
    /// An airport.
    Airport,
}

/// What the board prints beside a point.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Label {
    /// A city point 城: one holds the flag.
    City,
    /// A cannon placement 炮位, at a fire arrow's tail.
    CannonPlacement,
    /// An army post 兵站.
    ArmyPost,
    /// A long-edge army post, at an end of a front row (not used).
    EdgePost,
    /// A navy placement 海军阵地, at a fire arrow's tail.
    NavyPlacement,
    /// A port 港口, with its double red line to land.
    Port,
    /// The rail bridge 铁路桥.
    Bridge,
    /// Nothing printed.
    Plain,
}

/// A point of the board, `0..99`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(u8);

impl Point {
    /// The rail bridge.
    pub const BRIDGE: Point = Point(BRIDGE);

    /// Returns the circle at this row (0–11) and column (0–6), if on the board.
    pub const fn circle(row: usize, column: usize) -> Option<Point> {
        if row < ROWS && column < COLUMNS {
            Some(Point((row * COLUMNS + column) as u8))
        } else {
            None
        }
    }

    /// Returns the stopping dot `k0`–`k9`.
    pub const fn dot(n: usize) -> Point {
        assert!(n < 10);
        Point(FIRST_DOT + n as u8)
    }

    /// Returns an airport: 0 `sw`, 1 `se`, 2 `nw`, 3 `ne`.
    pub const fn airport(n: usize) -> Point {
        assert!(n < 4);
        Point(FIRST_AIRPORT + n as u8)
    }

    /// Returns the point with this index, if any.
    pub const fn from_index(index: usize) -> Option<Point> {
        if index < POINTS {
            Some(Point(index as u8))
        } else {
            None
        }
    }

    /// Returns the index, 0–98.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Iterates over all 99 points.
    pub fn all() -> impl Iterator<Item = Point> {
        (0..POINTS as u8).map(Point)
    }

    /// Returns (row, column) for a circle.
    pub const fn row_column(self) -> Option<(usize, usize)> {
        if (self.0 as usize) < CIRCLES {
            Some((self.0 as usize / COLUMNS, self.0 as usize % COLUMNS))
        } else {
            None
        }
    }

    /// Returns what the point is.
    pub const fn layer(self) -> Layer {
        match self.row_column() {
            Some((_, c)) if c < LAND_COLUMNS => Layer::Land,
            Some(_) => Layer::Sea,
            None if self.0 == BRIDGE => Layer::Land,
            None if self.0 < FIRST_AIRPORT => Layer::Dot,
            None => Layer::Airport,
        }
    }

    /// Returns true for land and sea circles and the bridge: where land and sea pieces stand.
    pub const fn is_ground(self) -> bool {
        matches!(self.layer(), Layer::Land | Layer::Sea)
    }

    /// Returns the side whose half a circle or airport lies in (the bridge and the dots on
    /// the territory line, `k4` and `k5`, are in neither).
    pub fn half(self) -> Option<Side> {
        let y = self.position().1;
        match y.cmp(&11) {
            std::cmp::Ordering::Less => Some(Side::South),
            std::cmp::Ordering::Greater => Some(Side::North),
            std::cmp::Ordering::Equal => None,
        }
    }

    /// Returns where the point is drawn, in half-units: circle `(column, row)` is at
    /// `(2 column, 2 row)`; the territory line is at `y = 11`.
    pub const fn position(self) -> (i32, i32) {
        const DOTS: [(i32, i32); 10] = [
            (3, 3),
            (9, 3),
            (3, 19),
            (9, 19),
            (1, 11),
            (11, 11),
            (-2, 8),
            (-2, 14),
            (14, 8),
            (14, 14),
        ];
        const AIRPORTS: [(i32, i32); 4] = [(-2, -2), (14, -2), (-2, 24), (14, 24)];
        match self.row_column() {
            Some((r, c)) => (2 * c as i32, 2 * r as i32),
            None if self.0 == BRIDGE => (8, 11),
            None if self.0 < FIRST_AIRPORT => DOTS[(self.0 - FIRST_DOT) as usize],
            None => AIRPORTS[(self.0 - FIRST_AIRPORT) as usize],
        }
    }

    /// Returns what the board prints beside the point.
    pub fn label(self) -> Label {
        if self == Point::BRIDGE {
            return Label::Bridge;
        }
        let Some((row, column)) = self.row_column() else {
            return Label::Plain;
        };
        // Count rows from the near end of the point's own half.
        let own = if row < 6 { row } else { 11 - row };
        match (own, column) {
            (0, 1..=3) => Label::City,
            (4, 0 | 1 | 3 | 4) => Label::CannonPlacement,
            (0, 0 | 4) | (2, 0 | 2 | 4) | (3, 1 | 3) | (4, 2) => Label::ArmyPost,
            (5, 0 | 4) => Label::EdgePost,
            (4, 5 | 6) => Label::NavyPlacement,
            (1 | 3, 5) => Label::Port,
            _ => Label::Plain,
        }
    }

    /// Returns true for a placement point (a red semicircle): the land and sea circles of
    /// a side's back five rows.
    pub fn is_placement(self) -> bool {
        self.row_column()
            .is_some_and(|(row, _)| if row < 6 { row < 5 } else { row > 6 })
    }

    /// Returns the side whose airport this is.
    pub fn airport_side(self) -> Option<Side> {
        match self.0.checked_sub(FIRST_AIRPORT) {
            Some(0 | 1) => Some(Side::South),
            Some(2 | 3) => Some(Side::North),
            _ => None,
        }
    }
}

impl fmt::Display for Point {
    /// Writes `c5`, `br`, `k4` or `sw`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.row_column() {
            Some((r, c)) => write!(f, "{}{}", (b'a' + c as u8) as char, r),
            None if self.0 == BRIDGE => f.write_str("br"),
            None if self.0 < FIRST_AIRPORT => write!(f, "k{}", self.0 - FIRST_DOT),
            None => f.write_str(AIRPORT_NAMES[(self.0 - FIRST_AIRPORT) as usize]),
        }
    }
}

impl fmt::Debug for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Point {
    type Err = String;
    /// Reads `c5` (columns `a`–`g`, rows 0–11), `br`, `k0`–`k9` or an airport name.
    fn from_str(text: &str) -> Result<Point, String> {
        if text == "br" {
            return Ok(Point::BRIDGE);
        }
        if let Some(n) = AIRPORT_NAMES.iter().position(|a| *a == text) {
            return Ok(Point::airport(n));
        }
        let mut chars = text.chars();
        match chars.next() {
            Some('k') => match chars.as_str().parse::<usize>() {
                Ok(n) if n < 10 && chars.as_str().len() == 1 => Ok(Point::dot(n)),
                _ => Err(format!("{text:?}: stopping dots are k0–k9")),
            },
            Some(c @ 'a'..='g') => {
                let row: usize = chars
                    .as_str()
                    .parse()
                    .map_err(|_| format!("{text:?}: expected a row 0–11"))?;
                Point::circle(row, c as usize - 'a' as usize)
                    .ok_or_else(|| format!("{text:?} is off the board"))
            }
            _ => Err(format!(
                "{text:?} is not a point (a0–g11, br, k0–k9, sw, se, nw, ne)"
            )),
        }
    }
}

/// The board's links, lines and arrows.
#[derive(Debug)]
pub struct Map {
    /// Land: roads and railways (the seven straight rail lines).
    pub land: BoardGraph,
    /// Sea: the yellow lines.
    pub sea: BoardGraph,
    /// The double red lines: (port, land point).
    pub landings: Vec<(Point, Point)>,
    /// The sea points from which a gunboat attacks the bridge.
    pub bridge_guards: [Point; 2],
    /// The four flight lines, each from its airport to its dot on the far long edge.
    pub flights: Vec<Vec<Point>>,
    /// The two retreat routes: west `sw k6 k7 nw`, east `se k8 k9 ne`.
    pub routes: [[Point; 4]; 2],
    /// The fire arrows, tail to head.
    pub arrows: Vec<(Point, Point)>,
}

fn at(name: &str) -> Point {
    name.parse().expect("a point of the board")
}

fn points(names: &str) -> Vec<Point> {
    names.split_whitespace().map(at).collect()
}

/// Returns the board (built once).
pub fn map() -> &'static Map {
    static MAP: OnceLock<Map> = OnceLock::new();
    MAP.get_or_init(build)
}

fn circle(row: usize, column: usize) -> usize {
    row * COLUMNS + column
}

fn build() -> Map {
    let mut land = BoardGraph::new(POINTS);
    for row in [1, 5, 6, 10] {
        land.rail_line((0..LAND_COLUMNS).map(|c| circle(row, c)).collect());
    }
    land.rail_line((1..=5).map(|r| circle(r, 0)).collect());
    land.rail_line((6..=10).map(|r| circle(r, 0)).collect());
    let mut east: Vec<usize> = (1..=5).map(|r| circle(r, 4)).collect();
    east.push(Point::BRIDGE.index());
    east.extend((6..=10).map(|r| circle(r, 4)));
    land.rail_line(east);
    // Roads: every other pair of neighbours; across the territory line only at a and c.
    for row in 0..ROWS {
        for column in 0..LAND_COLUMNS {
            let p = circle(row, column);
            if column + 1 < LAND_COLUMNS {
                land.link(p, circle(row, column + 1), false);
            }
            if row + 1 < ROWS && (row != 5 || column == 0 || column == 2) {
                land.link(p, circle(row + 1, column), false);
            }
        }
    }
    let mut sea = BoardGraph::new(POINTS);
    for row in 0..ROWS {
        for column in LAND_COLUMNS..COLUMNS {
            let p = circle(row, column);
            if column + 1 < COLUMNS {
                sea.link(p, circle(row, column + 1), false);
            }
            if row + 1 < ROWS {
                sea.link(p, circle(row + 1, column), false);
            }
        }
    }
    let pairs = |text: &str| -> Vec<(Point, Point)> {
        text.split_whitespace()
            .map(|pair| {
                let (a, b) = pair.split_once('>').expect("a>b");
                (at(a), at(b))
            })
            .collect()
    };
    Map {
        land,
        sea,
        landings: pairs("f1>e1 f3>e3 f8>e8 f10>e10"),
        bridge_guards: [at("f5"), at("f6")],
        flights: vec![
            points("sw a0 b1 k0 c2 d3 e4 f5 k5 g6 k9"),
            points("se g0 f1 k1 e2 d3 c4 b5 k4 a6 k7"),
            points("nw a11 b10 k2 c9 d8 e7 f6 k5 g5 k8"),
            points("ne g11 f10 k3 e9 d8 c7 b6 k4 a5 k6"),
        ],
        routes: [
            [at("sw"), at("k6"), at("k7"), at("nw")],
            [at("se"), at("k8"), at("k9"), at("ne")],
        ],
        // Each arrow reaches the enemy's front row, where no piece is deployed: no arrow's
        // head is another's tail, so nothing can be shot on the first move.
        arrows: pairs(
            "a4>a6 b4>b6 d4>d6 e4>e6 f4>f6 g4>g6 \
             a7>a5 b7>b5 d7>d5 e7>e5 f7>f5 g7>g5",
        ),
    }
}

impl Map {
    /// Returns the flight lines that pass over or stop at `p`.
    pub fn lines_through(&self, p: Point) -> impl Iterator<Item = &Vec<Point>> {
        self.flights.iter().filter(move |line| line.contains(&p))
    }

    /// Returns the column whose pieces guard a retreat route (R3): `a` for the west route,
    /// `g` for the east.
    pub fn route_area(&self, route: usize) -> impl Iterator<Item = Point> {
        let column = if route == 0 { 0 } else { COLUMNS - 1 };
        (0..ROWS).filter_map(move |r| Point::circle(r, column))
    }

    /// Returns the retreat route a dot lies on, if any.
    pub fn route_of(&self, p: Point) -> Option<usize> {
        self.routes.iter().position(|r| r[1..3].contains(&p))
    }

    /// Returns a side's airport at the end of a route.
    pub fn route_airport(&self, route: usize, side: Side) -> Point {
        match side {
            Side::South => self.routes[route][0],
            Side::North => self.routes[route][3],
        }
    }
}

/// Returns a side's placement points, in the order a deployment text lists them: the land
/// points row by row from the back (columns `a`–`e`), the sea points row by row (`f`, `g`),
/// then the west and east airports.
pub fn placement_order(side: Side) -> Vec<Point> {
    let row = |own: usize| side.own_row(own);
    let mut out = Vec::with_capacity(37);
    for own in 0..5 {
        out.extend((0..LAND_COLUMNS).filter_map(|c| Point::circle(row(own), c)));
    }
    for own in 0..5 {
        out.extend((LAND_COLUMNS..COLUMNS).filter_map(|c| Point::circle(row(own), c)));
    }
    match side {
        Side::South => out.extend([Point::airport(0), Point::airport(1)]),
        Side::North => out.extend([Point::airport(2), Point::airport(3)]),
    }
    out
}
