//! Seats at the table and per-seat containers.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::{Index, IndexMut};

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

/// How well a computer player in a seat plays. Only Aeroplane chess's computers have two
/// strengths for now; the other games' play at one.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Strength {
    /// Aeroplane chess: captures when it can, otherwise plays loosely.
    Easy,
    /// Aeroplane chess: weighs progress, captures and the risk of being hit.
    #[default]
    Strong,
}
