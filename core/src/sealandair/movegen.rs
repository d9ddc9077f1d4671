//! Sea-land-air movement (docs/design/sea-land-air.md, "Movement", the remote attacks and
//! "Retreat"): what each piece may do from where it stands.
//!
//! Legality never depends on an enemy piece's identity, only on where enemy pieces stand: a
//! player's legal moves can be worked out from that player's view. The rules that do depend
//! on hidden identities (C8, R3) are settled when the move is played.

use super::board::{Layer, POINTS, Point, map};
use super::pieces::{Clash, Kind, melee, remote};
use crate::junqi::Side;
use std::fmt;
use std::str::FromStr;

/// A piece on the board. `id` tells pieces apart for the recon's knowledge (0–36 South's,
/// 37–73 North's, in deployment order).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    /// Whose it is.
    pub side: Side,
    /// What it is.
    pub kind: Kind,
    /// Which piece it is.
    pub id: u8,
}

/// A move, or an attack: by moving (`a1-a3`), or from where the piece stands (`a4*a7`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    /// Where the piece stands.
    pub from: Point,
    /// Where it goes, or what it attacks.
    pub to: Point,
    /// A remote attack: fire, anti-air fire, a strike, a gunboat's attack on the bridge.
    pub remote: bool,
}

impl Move {
    /// A move (or an attack by moving).
    pub const fn go(from: Point, to: Point) -> Move {
        Move {
            from,
            to,
            remote: false,
        }
    }

    /// A remote attack.
    pub const fn strike(from: Point, to: Point) -> Move {
        Move {
            from,
            to,
            remote: true,
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if self.remote { '*' } else { '-' };
        write!(f, "{}{sep}{}", self.from, self.to)
    }
}

impl FromStr for Move {
    type Err = String;
    /// Reads `a1-a3` or `a4*a7`.
    fn from_str(text: &str) -> Result<Move, String> {
        let (from, to, remote) = if let Some((a, b)) = text.split_once('-') {
            (a, b, false)
        } else if let Some((a, b)) = text.split_once('*') {
            (a, b, true)
        } else {
            return Err(format!("{text:?}: expected a move like a1-a3 or a4*a7"));
        };
        Ok(Move {
            from: from.trim().parse()?,
            to: to.trim().parse()?,
            remote,
        })
    }
}

/// The pieces on the 99 points.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Board {
    cells: [Option<Piece>; POINTS],
}

impl Default for Board {
    fn default() -> Self {
        Board {
            cells: [None; POINTS],
        }
    }
}

/// What a flight along one line can reach from a point.
#[derive(Default, Debug)]
struct Flight {
    /// Empty dots and own airports to stop on, and dots with an enemy on them.
    stops: Vec<Point>,
    /// Land and sea points flown over, in reach.
    over: Vec<Point>,
}

impl Board {
    /// Returns what stands on a point.
    pub fn get(&self, p: Point) -> Option<Piece> {
        self.cells[p.index()]
    }

    /// Puts a piece on a point, or clears it.
    pub fn set(&mut self, p: Point, piece: Option<Piece>) {
        self.cells[p.index()] = piece;
    }

    /// Iterates over the occupied points.
    pub fn pieces(&self) -> impl Iterator<Item = (Point, Piece)> + '_ {
        Point::all().filter_map(|p| self.get(p).map(|piece| (p, piece)))
    }

    fn occupied(&self, p: usize) -> bool {
        self.cells[p].is_some()
    }

    /// True if `side` may end a move on `to`: empty, or an enemy to attack.
    fn open_to(&self, side: Side, to: Point) -> bool {
        self.get(to).is_none_or(|other| other.side != side)
    }

    fn enemy_at(&self, side: Side, p: Point) -> bool {
        self.get(p).is_some_and(|other| other.side != side)
    }

    /// Walks a flight line from `from` in both directions (M10): the stops and the points
    /// flown over, up to the first stopping dot with a piece on it.
    fn fly(&self, side: Side, line: &[Point], from: Point) -> Flight {
        let mut flight = Flight::default();
        let Some(at) = line.iter().position(|&p| p == from) else {
            return flight;
        };
        let forward: Vec<Point> = line[at + 1..].to_vec();
        let backward: Vec<Point> = line[..at].iter().rev().copied().collect();
        for direction in [forward, backward] {
            for p in direction {
                match p.layer() {
                    Layer::Dot => {
                        if self.open_to(side, p) {
                            flight.stops.push(p);
                        }
                        if self.get(p).is_some() {
                            break;
                        }
                    }
                    // M11: only one's own airports, and only when empty.
                    Layer::Airport => {
                        if p.airport_side() == Some(side) && self.get(p).is_none() {
                            flight.stops.push(p);
                        }
                    }
                    Layer::Land | Layer::Sea => flight.over.push(p),
                }
            }
        }
        flight
    }

    /// Returns the retreats open to an aircraft on `from` (R1): for each of its side's
    /// airports that it can reach, the route and the flight line it takes (the first such
    /// line, in board order).
    pub fn retreats(&self, from: Point) -> Vec<Retreat> {
        let Some(piece) = self.get(from) else {
            return Vec::new();
        };
        let m = map();
        let mut out: Vec<Retreat> = Vec::new();
        for (index, line) in m.flights.iter().enumerate() {
            let Some(at) = line.iter().position(|&p| p == from) else {
                continue;
            };
            // The junction ends the line; every dot from here to it must be free.
            let end = *line.last().expect("a flight line");
            let Some(route) = m.route_of(end) else {
                continue;
            };
            let clear = line[at + 1..]
                .iter()
                .all(|&p| p.layer() != Layer::Dot || self.get(p).is_none());
            let airport = m.route_airport(route, piece.side);
            if clear && self.get(airport).is_none() && !out.iter().any(|r| r.airport == airport) {
                out.push(Retreat {
                    airport,
                    route,
                    line: index,
                });
            }
        }
        out
    }

    /// Returns every move and attack of the piece on `from`.
    pub fn moves_from(&self, from: Point) -> Vec<Move> {
        let Some(piece) = self.get(from) else {
            return Vec::new();
        };
        let m = map();
        let side = piece.side;
        let kind = piece.kind;
        let mut out: Vec<Move> = Vec::new();
        let go = |to: Point, out: &mut Vec<Move>| {
            let mv = Move::go(from, to);
            if !out.contains(&mv) {
                out.push(mv);
            }
        };
        let step_targets = |graph: &crate::graph::BoardGraph, rail: bool| -> Vec<Point> {
            graph
                .links(from.index())
                .iter()
                .filter(|l| rail || !l.rail)
                .filter_map(|l| Point::from_index(l.to))
                .collect()
        };
        if kind.immobile() {
            return out;
        }
        match from.layer() {
            Layer::Land if kind.is_army() || kind.lands() => {
                // M2, M3, M9: one point by road or rail, or two along one rail line.
                let mut reach = step_targets(&m.land, true);
                reach.extend(
                    m.land
                        .rail_slides_within(from.index(), 2, |p| self.occupied(p))
                        .into_iter()
                        .filter_map(Point::from_index),
                );
                if kind.lands() {
                    // M8: back to sea only through the enemy's ports.
                    reach.extend(
                        m.landings
                            .iter()
                            .filter(|(port, l)| *l == from && port.half() != Some(side))
                            .map(|(port, _)| *port),
                    );
                }
                for to in reach {
                    // C6: a landed battleship or cruiser never attacks the bridge.
                    let at_bridge = to == Point::BRIDGE && kind.lands() && self.enemy_at(side, to);
                    if self.open_to(side, to) && !at_bridge {
                        go(to, &mut out);
                    }
                }
            }
            Layer::Land => {
                // M4, M5: artillery, anti-aircraft guns and missiles go by road only.
                for to in step_targets(&m.land, false) {
                    if self.open_to(side, to) {
                        go(to, &mut out);
                    }
                }
            }
            Layer::Sea => {
                // M7, M8.
                let mut reach = step_targets(&m.sea, true);
                if kind.lands() {
                    // M8: ashore only through the enemy's ports.
                    reach.extend(
                        m.landings
                            .iter()
                            .filter(|(port, _)| *port == from && from.half() != Some(side))
                            .map(|(_, l)| *l),
                    );
                }
                for to in reach {
                    if kind != Kind::Missile && self.open_to(side, to) {
                        go(to, &mut out);
                    }
                }
            }
            Layer::Dot | Layer::Airport => {}
        }
        if kind == Kind::Missile {
            // M5: one point along a flight line, never into an airport.
            for line in m.lines_through(from) {
                let at = line.iter().position(|&p| p == from).unwrap_or(0);
                let next = [at.checked_sub(1), Some(at + 1)];
                for i in next.into_iter().flatten() {
                    if let Some(&to) = line.get(i)
                        && to.layer() != Layer::Airport
                        && self.open_to(side, to)
                    {
                        go(to, &mut out);
                    }
                }
            }
        }
        if kind.is_aircraft() {
            for line in m.lines_through(from) {
                let flight = self.fly(side, line, from);
                for to in flight.stops {
                    go(to, &mut out);
                }
                // A3: the fighter strikes land and sea pieces it flies over, from a
                // stopping dot (in flight), never from an airport.
                if kind == Kind::Fighter && from.layer() == Layer::Dot {
                    for to in flight.over {
                        if self.enemy_at(side, to) && !out.contains(&Move::strike(from, to)) {
                            out.push(Move::strike(from, to));
                        }
                    }
                }
            }
            for retreat in self.retreats(from) {
                go(retreat.airport, &mut out);
            }
        }
        // F1: fire over an arrow from its tail.
        if matches!(kind, Kind::Artillery | Kind::Battleship) {
            for &(tail, head) in &m.arrows {
                if tail == from && self.enemy_at(side, head) {
                    out.push(Move::strike(from, head));
                }
            }
        }
        // F2: anti-air fire at the first dot either way along each flight line.
        if matches!(kind, Kind::AntiAircraft | Kind::Destroyer) && from.is_ground() {
            for line in m.lines_through(from) {
                let at = line.iter().position(|&p| p == from).unwrap_or(0);
                let forward = line[at + 1..].iter();
                let backward = line[..at].iter().rev();
                for mut direction in [
                    forward.copied().collect::<Vec<_>>().into_iter(),
                    backward.copied().collect::<Vec<_>>().into_iter(),
                ] {
                    if let Some(dot) =
                        direction.find(|p| p.layer() != Layer::Land && p.layer() != Layer::Sea)
                        && dot.layer() == Layer::Dot
                        && self.enemy_at(side, dot)
                        && !out.contains(&Move::strike(from, dot))
                    {
                        out.push(Move::strike(from, dot));
                    }
                }
            }
        }
        // C6: a gunboat beside the bridge attacks it.
        if kind == Kind::Gunboat
            && m.bridge_guards.contains(&from)
            && self.enemy_at(side, Point::BRIDGE)
        {
            out.push(Move::strike(from, Point::BRIDGE));
        }
        out
    }

    /// Returns every move and attack `side` may make.
    pub fn moves(&self, side: Side) -> Vec<Move> {
        self.pieces()
            .filter(|(_, p)| p.side == side)
            .flat_map(|(from, _)| self.moves_from(from))
            .collect()
    }

    /// Returns true if `m` is a retreat (R1): an aircraft's move to one of its own airports
    /// that no flight line through its point reaches, so it must go by a route.
    pub fn is_retreat(&self, m: Move) -> bool {
        let Some(piece) = self.get(m.from) else {
            return false;
        };
        !m.remote
            && piece.kind.is_aircraft()
            && m.to.airport_side() == Some(piece.side)
            && !map().lines_through(m.from).any(|line| line.contains(&m.to))
    }

    /// Returns the land and sea points an aircraft flies over on the way from `from` to `to`:
    /// along one flight line, or along its line to a retreat route (V2).
    pub fn flown_over(&self, from: Point, to: Point) -> Vec<Point> {
        let m = map();
        let span = |line: &[Point], a: usize, b: usize| -> Vec<Point> {
            let (lo, hi) = if a < b { (a, b) } else { (b, a) };
            line.get(lo + 1..hi)
                .unwrap_or_default()
                .iter()
                .copied()
                .filter(|p| p.is_ground())
                .collect()
        };
        for line in m.lines_through(from) {
            let a = line.iter().position(|&p| p == from).unwrap_or(0);
            if let Some(b) = line.iter().position(|&p| p == to) {
                return span(line, a, b);
            }
        }
        if let Some(r) = self.retreats(from).into_iter().find(|r| r.airport == to) {
            let line = &m.flights[r.line];
            let a = line.iter().position(|&p| p == from).unwrap_or(0);
            return span(line, a, line.len() - 1);
        }
        Vec::new()
    }
}

/// What playing a move did to the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Played {
    /// A move to an empty point.
    Moved,
    /// A retreat along a route (R1), or an aircraft shot down trying (R3).
    Retreated {
        /// It was shot down.
        shot_down: bool,
    },
    /// An attack, by moving or from where the attacker stands.
    Battle {
        /// How it ended.
        clash: Clash,
        /// The pieces it removed, the attacker first.
        removed: Vec<Piece>,
        /// Two recon planes met: the airports they went back to, the attacker's first (A2).
        homes: Option<[Point; 2]>,
    },
}

impl Board {
    /// Plays a legal move on a board that shows every piece. `after_attack`: the mover is an
    /// aircraft that attacked on its side's last turn, so that a retreat is safe (R2).
    pub fn play(&mut self, m: Move, after_attack: bool) -> Played {
        let Some(piece) = self.get(m.from) else {
            return Played::Moved;
        };
        let side = piece.side;
        if self.is_retreat(m) {
            // R3: shot down when an enemy artillery or battleship stands beside the route,
            // unless the aircraft attacked last turn.
            let route = self
                .retreats(m.from)
                .into_iter()
                .find(|r| r.airport == m.to)
                .map_or(0, |r| r.route);
            let guarded = map().route_area(route).any(|p| {
                self.get(p).is_some_and(|q| {
                    q.side != side && matches!(q.kind, Kind::Artillery | Kind::Battleship)
                })
            });
            let shot_down = !after_attack && guarded;
            self.set(m.from, None);
            if !shot_down {
                self.set(m.to, Some(piece));
            }
            return Played::Retreated { shot_down };
        }
        let defender = self.get(m.to).filter(|d| m.remote || d.side != side);
        let Some(defender) = defender else {
            self.set(m.from, None);
            self.set(m.to, Some(piece));
            return Played::Moved;
        };
        let clash = if m.remote {
            remote(piece.kind, defender.kind)
        } else {
            melee(piece.kind, defender.kind)
        };
        let mut removed = Vec::new();
        let mut homes = None;
        match clash {
            Clash::AttackerWins | Clash::FlagTaken => {
                removed.push(defender);
                self.set(m.to, None);
                if !m.remote {
                    self.set(m.from, None);
                    self.set(m.to, Some(piece));
                }
            }
            Clash::DefenderWins => {
                removed.push(piece);
                self.set(m.from, None);
            }
            Clash::BothRemoved => {
                removed.extend([piece, defender]);
                self.set(m.from, None);
                self.set(m.to, None);
            }
            Clash::NoEffect => {}
            Clash::BothHome => {
                // A2: both recon planes go back to a free airport of their own.
                self.set(m.from, None);
                self.set(m.to, None);
                homes = Some([self.home(piece), self.home(defender)]);
            }
        }
        Played::Battle {
            clash,
            removed,
            homes,
        }
    }

    /// Puts an aircraft on its side's first free airport (west first) and returns it.
    fn home(&mut self, piece: Piece) -> Point {
        let airports = match piece.side {
            Side::South => [Point::airport(0), Point::airport(1)],
            Side::North => [Point::airport(2), Point::airport(3)],
        };
        let at = airports
            .into_iter()
            .find(|a| self.get(*a).is_none())
            .unwrap_or(airports[0]);
        self.set(at, Some(piece));
        at
    }
}

/// A retreat open to an aircraft (R1).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Retreat {
    /// The airport it ends at.
    pub airport: Point,
    /// The route: 0 west, 1 east.
    pub route: usize,
    /// The flight line it flies to reach the route (an index into the board's lines).
    pub line: usize,
}
