//! Why a Sea-land-air move is not possible, in words a player can act on: the landing rule,
//! the bridge, flight lines and airports, roads and railways. Worked out from the board a
//! viewer sees (an unknown enemy stands there as some piece: legality never depends on what
//! it is).

use super::board::{Layer, Point, map};
use super::movegen::Board;
use super::pieces::Kind;

/// Why a move is not possible, as the player is told.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum NoMove {
    /// Landmines and the flag never move.
    Immobile,
    /// The target holds one of the mover's own pieces.
    OwnPiece,
    /// Nothing enters the enemy's airports.
    EnemyAirport,
    /// Ships stay at sea; battleships and cruisers land only through the enemy's ports.
    ShipAshore,
    /// Land pieces never go to sea.
    LandPieceAtSea,
    /// Battleships and cruisers never attack the rail bridge.
    BigShipOnBridge,
    /// Missiles never enter an airport.
    MissileIntoAirport,
    /// Aircraft stop only on stopping dots and their own airports.
    AircraftStop,
    /// Only the fighter attacks land and sea pieces from the air.
    FighterOnly,
    /// A fighter strikes only from a stopping dot, in flight.
    StrikeInFlight,
    /// A stopping dot with a piece on it is in the way.
    DotInTheWay,
    /// No flight line through the aircraft leads there.
    NoFlightLine,
    /// Artillery, anti-aircraft guns and missiles go by road only.
    RoadOnly,
    /// A piece stands in the way on the railway.
    RailBlocked,
    /// The piece cannot get there in one move.
    TooFar,
}

impl NoMove {
    /// The stable code the screens translate.
    pub fn code(self) -> &'static str {
        match self {
            NoMove::Immobile => "immobile",
            NoMove::OwnPiece => "own-piece",
            NoMove::EnemyAirport => "enemy-airport",
            NoMove::ShipAshore => "ship-ashore",
            NoMove::LandPieceAtSea => "land-piece-at-sea",
            NoMove::BigShipOnBridge => "big-ship-on-bridge",
            NoMove::MissileIntoAirport => "missile-into-airport",
            NoMove::AircraftStop => "aircraft-stop",
            NoMove::FighterOnly => "fighter-only",
            NoMove::StrikeInFlight => "strike-in-flight",
            NoMove::DotInTheWay => "dot-in-the-way",
            NoMove::NoFlightLine => "no-flight-line",
            NoMove::RoadOnly => "road-only",
            NoMove::RailBlocked => "rail-blocked",
            NoMove::TooFar => "too-far",
        }
    }
}

impl Board {
    /// Why the piece on `from` may not move to, or attack, `to`; `None` when it may (or when
    /// `from` is empty).
    pub fn why_not(&self, from: Point, to: Point) -> Option<NoMove> {
        let piece = self.get(from)?;
        if from == to || self.moves_from(from).iter().any(|m| m.to == to) {
            return None;
        }
        let enemy = self.get(to).is_some_and(|o| o.side != piece.side);
        Some(match piece.kind {
            _ if piece.kind.immobile() => NoMove::Immobile,
            _ if self.get(to).is_some_and(|o| o.side == piece.side) => NoMove::OwnPiece,
            _ if to.layer() == Layer::Airport && to.airport_side() != Some(piece.side) => {
                NoMove::EnemyAirport
            }
            kind if kind.is_aircraft() => self.why_not_fly(from, to, kind, enemy),
            Kind::Missile if to.layer() == Layer::Airport => NoMove::MissileIntoAirport,
            kind => self.why_not_go(from, to, kind, enemy),
        })
    }

    /// An aircraft: flight lines, stopping dots, strikes (M10, M11, A3, A6).
    fn why_not_fly(&self, from: Point, to: Point, kind: Kind, enemy: bool) -> NoMove {
        let on_line = map().lines_through(from).any(|line| line.contains(&to));
        match to.layer() {
            Layer::Land | Layer::Sea if !enemy => NoMove::AircraftStop,
            Layer::Land | Layer::Sea if kind != Kind::Fighter => NoMove::FighterOnly,
            Layer::Land | Layer::Sea if on_line && from.layer() == Layer::Airport => {
                NoMove::StrikeInFlight
            }
            _ if on_line => NoMove::DotInTheWay,
            _ => NoMove::NoFlightLine,
        }
    }

    /// A piece on land or at sea: landing lines, the bridge, roads and railways (M2–M9, C6).
    fn why_not_go(&self, from: Point, to: Point, kind: Kind, enemy: bool) -> NoMove {
        let m = map();
        let landing = m
            .landings
            .iter()
            .any(|&(port, land)| (port, land) == (from, to) || (land, port) == (from, to));
        let ship = kind.domain() == super::pieces::Domain::Sea;
        match (from.layer(), to.layer()) {
            _ if to == Point::BRIDGE && enemy && kind.lands() => NoMove::BigShipOnBridge,
            (Layer::Sea, Layer::Land) if ship => NoMove::ShipAshore,
            (Layer::Land, Layer::Sea) if landing => NoMove::ShipAshore,
            (Layer::Land, Layer::Sea) if to != Point::BRIDGE => NoMove::LandPieceAtSea,
            (_, Layer::Dot | Layer::Airport) if kind != Kind::Missile => NoMove::AircraftStop,
            (Layer::Land, Layer::Land) => self.why_not_on_land(from, to, kind),
            _ => NoMove::TooFar,
        }
    }

    /// Roads and railways: road-only pieces, and a piece in the way on a rail line.
    fn why_not_on_land(&self, from: Point, to: Point, kind: Kind) -> NoMove {
        let land = &map().land;
        let (a, b) = (from.index(), to.index());
        let by_rail = land.links(a).iter().any(|l| l.to == b && l.rail)
            || land.rail_slides_within(a, 2, |_| false).contains(&b);
        let road_only = !(kind.is_army() || kind.lands());
        match () {
            _ if road_only && by_rail => NoMove::RoadOnly,
            _ if by_rail => NoMove::RailBlocked,
            _ => NoMove::TooFar,
        }
    }
}
