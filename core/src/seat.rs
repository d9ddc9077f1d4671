//! Seats at the table and per-seat containers.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Cow;
use std::fmt;
use std::ops::{Index, IndexMut};
use std::str::FromStr;

/// The largest number of seats any game has (Aeroplane chess).
pub const MAX_SEATS: usize = 4;

/// One place at the table, numbered from 0 in turn order.
///
/// In Xiangqi seat 0 is Red and seat 1 is Black; every game documents its own mapping.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Seat(u8);

impl Seat {
    /// Returns the seat with this index, or `None` past [`MAX_SEATS`].
    pub const fn new(index: u8) -> Option<Seat> {
        if (index as usize) < MAX_SEATS {
            Some(Seat(index))
        } else {
            None
        }
    }

    /// Returns the seat's index, usable to index arrays.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Iterates over the first `count` seats in turn order.
    pub fn all(count: usize) -> impl Iterator<Item = Seat> + Clone {
        (0..count.min(MAX_SEATS) as u8).map(Seat)
    }

    /// Returns the next seat in turn order among `count` seats.
    pub fn next(self, count: usize) -> Seat {
        Seat(((self.0 as usize + 1) % count.max(1)) as u8)
    }
}

/// The seats of the first two, named for the two-player games.
impl Seat {
    /// Seat 0: Red in Xiangqi, South in Junqi.
    pub const FIRST: Seat = Seat(0);
    /// Seat 1: Black in Xiangqi, North in Junqi.
    pub const SECOND: Seat = Seat(1);
}

impl TryFrom<u8> for Seat {
    type Error = String;
    fn try_from(value: u8) -> Result<Self, Self::Error> {
        Seat::new(value).ok_or_else(|| format!("seat {value} is out of range 0..{MAX_SEATS}"))
    }
}

impl From<Seat> for u8 {
    fn from(seat: Seat) -> u8 {
        seat.0
    }
}

impl fmt::Debug for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Seat({})", self.0)
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// One value per seat, for 2 to 4 seats (like shakmaty's `ByColor`).
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(transparent)]
pub struct BySeat<T> {
    slots: Vec<T>,
}

impl<T> BySeat<T> {
    /// Builds a container for `count` seats from a function of the seat.
    pub fn from_fn(count: usize, mut f: impl FnMut(Seat) -> T) -> Self {
        BySeat {
            slots: Seat::all(count).map(&mut f).collect(),
        }
    }

    /// Returns how many seats this holds.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Returns true when it holds no seat (never for a game's container).
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Returns the value for a seat, or `None` if the seat is not at this table.
    pub fn get(&self, seat: Seat) -> Option<&T> {
        self.slots.get(seat.index())
    }

    /// Iterates over `(seat, value)` in turn order.
    pub fn iter(&self) -> impl Iterator<Item = (Seat, &T)> {
        self.slots
            .iter()
            .enumerate()
            .map(|(i, v)| (Seat(i as u8), v))
    }

    /// Maps every value, keeping the seats.
    pub fn map<U>(&self, mut f: impl FnMut(Seat, &T) -> U) -> BySeat<U> {
        BySeat {
            slots: self.iter().map(|(s, v)| f(s, v)).collect(),
        }
    }
}

impl<T: Clone> BySeat<T> {
    /// Builds a container with the same value for every seat.
    pub fn filled(count: usize, value: T) -> Self {
        Self::from_fn(count, |_| value.clone())
    }
}

impl<T> Index<Seat> for BySeat<T> {
    type Output = T;
    fn index(&self, seat: Seat) -> &T {
        &self.slots[seat.index()]
    }
}

impl<T> IndexMut<Seat> for BySeat<T> {
    fn index_mut(&mut self, seat: Seat) -> &mut T {
        &mut self.slots[seat.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seat_range_is_checked_when_parsing() {
        assert!(Seat::new(3).is_some());
        assert!(Seat::new(4).is_none());
        assert!(serde_json::from_str::<Seat>("4").is_err());
        assert_eq!(serde_json::from_str::<Seat>("1").ok(), Some(Seat::SECOND));
    }

    #[test]
    fn by_seat_indexes_and_maps() {
        let mut b = BySeat::filled(3, 0u32);
        b[Seat::SECOND] = 5;
        assert_eq!(b.map(|_, v| v * 2).get(Seat::SECOND), Some(&10));
        assert_eq!(Seat::SECOND.next(3).index(), 2);
        assert_eq!(Seat::new(2).map(|s| s.next(3)), Some(Seat::FIRST));
    }
}

/// How well a computer player in a seat plays. Aeroplane chess's computers have two
/// strengths (easy, strong); Xiangqi's engine has ten levels; Junqi's and Sea-land-air's
/// computers have three (easy, normal, hard; `strong`, stored before the other two existed,
/// plays as easy did then).
///
/// Stored and sent as text: `easy`, `strong`, `normal`, `hard`, `level-1` … `level-10`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Strength {
    /// Aeroplane chess: captures when it can, otherwise plays loosely.
    Easy,
    /// Aeroplane chess: weighs progress, captures and the risk of being hit.
    #[default]
    Strong,
    /// Xiangqi: the engine at this level, 1 (a beginner) to [`Strength::TOP_LEVEL`].
    Level(u8),
    /// Junqi and Sea-land-air: the computer that reasons about hidden pieces, briefly.
    Normal,
    /// Junqi and Sea-land-air: the computer that reasons about hidden pieces at length.
    Hard,
}

impl Strength {
    /// The highest level.
    pub const TOP_LEVEL: u8 = 10;

    /// The engine at `level`, if it is one of the levels.
    pub fn level(level: u8) -> Option<Strength> {
        (1..=Self::TOP_LEVEL)
            .contains(&level)
            .then_some(Strength::Level(level))
    }

    /// The level a Xiangqi engine plays at for this strength: the level itself, or a
    /// middling level for the two-strength names (a server asked for "easy").
    pub fn engine_level(self) -> u8 {
        match self {
            Strength::Easy => 3,
            Strength::Normal => 5,
            Strength::Strong | Strength::Hard => 7,
            Strength::Level(n) => n.clamp(1, Self::TOP_LEVEL),
        }
    }
}

impl fmt::Display for Strength {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Strength::Easy => f.write_str("easy"),
            Strength::Strong => f.write_str("strong"),
            Strength::Normal => f.write_str("normal"),
            Strength::Hard => f.write_str("hard"),
            Strength::Level(n) => write!(f, "level-{n}"),
        }
    }
}

impl FromStr for Strength {
    type Err = String;

    fn from_str(text: &str) -> Result<Strength, String> {
        match text {
            "easy" => Ok(Strength::Easy),
            "strong" => Ok(Strength::Strong),
            "normal" => Ok(Strength::Normal),
            "hard" => Ok(Strength::Hard),
            _ => text
                .strip_prefix("level-")
                .filter(|n| !n.starts_with('0') && !n.starts_with('+'))
                .and_then(|n| n.parse().ok())
                .and_then(Strength::level)
                .ok_or_else(|| {
                    format!(
                        "unknown strength {text:?}: easy, strong, normal, hard or level-1 to level-{}",
                        Strength::TOP_LEVEL
                    )
                }),
        }
    }
}

impl Serialize for Strength {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Strength {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Strength, D::Error> {
        let text = Cow::<'de, str>::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod strength_tests {
    use super::Strength;

    #[test]
    fn strengths_are_stored_as_text_and_levels_stay_in_range() {
        for (strength, text) in [
            (Strength::Easy, "\"easy\""),
            (Strength::Strong, "\"strong\""),
            (Strength::Level(1), "\"level-1\""),
            (Strength::Level(10), "\"level-10\""),
        ] {
            assert_eq!(serde_json::to_string(&strength).unwrap(), text);
            assert_eq!(serde_json::from_str::<Strength>(text).unwrap(), strength);
        }
        for bad in [
            "\"level-0\"",
            "\"level-11\"",
            "\"level-05\"",
            "\"level-+5\"",
            "\"level-\"",
            "\"Strong\"",
            "5",
            "{\"level\":5}",
        ] {
            assert!(serde_json::from_str::<Strength>(bad).is_err(), "{bad}");
        }
        assert_eq!(Strength::level(0), None);
        assert_eq!(Strength::level(11), None);
        assert_eq!(Strength::Level(4).engine_level(), 4);
    }
}
