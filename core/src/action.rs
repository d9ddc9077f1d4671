//! Actions: a game move, or one of the actions every game has (resign, draw offers).

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt::{self, Display};
use std::str::FromStr;

/// Something a seat (or the authority) does. Its text form is stable and is what records hold:
/// a game move in that game's notation, or `resign`, `offer-draw`, `accept-draw`,
/// `decline-draw`, `claim-timeout`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Action<M> {
    /// A move of the game itself (including the authority's chance moves).
    Play(M),
    /// Give up; the game decides who wins.
    Resign,
    /// Offer a draw; it stands until answered or until the other side moves.
    OfferDraw,
    /// Accept the standing draw offer.
    AcceptDraw,
    /// Decline the standing draw offer.
    DeclineDraw,
    /// Claim the win because the seat to act let its deadline pass. Core keeps no clock: the
    /// authority checks the deadline before applying it, and the record keeps the claim.
    ClaimTimeout,
}

const RESIGN: &str = "resign";
const OFFER_DRAW: &str = "offer-draw";
const ACCEPT_DRAW: &str = "accept-draw";
const DECLINE_DRAW: &str = "decline-draw";
const CLAIM_TIMEOUT: &str = "claim-timeout";

/// Whether an action's text is a draw offer or an answer to one: what may wait for the
/// authority beside a move, since it does not change the position.
pub fn is_draw_talk(action: &str) -> bool {
    matches!(action.trim(), OFFER_DRAW | ACCEPT_DRAW | DECLINE_DRAW)
}

impl<M: Display> Display for Action<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Play(m) => m.fmt(f),
            Action::Resign => f.write_str(RESIGN),
            Action::OfferDraw => f.write_str(OFFER_DRAW),
            Action::AcceptDraw => f.write_str(ACCEPT_DRAW),
            Action::DeclineDraw => f.write_str(DECLINE_DRAW),
            Action::ClaimTimeout => f.write_str(CLAIM_TIMEOUT),
        }
    }
}

impl<M: FromStr> FromStr for Action<M> {
    type Err = M::Err;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s.trim() {
            RESIGN => Action::Resign,
            OFFER_DRAW => Action::OfferDraw,
            ACCEPT_DRAW => Action::AcceptDraw,
            DECLINE_DRAW => Action::DeclineDraw,
            CLAIM_TIMEOUT => Action::ClaimTimeout,
            other => Action::Play(other.parse()?),
        })
    }
}

impl<M: Display> Serialize for Action<M> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de, M: FromStr<Err: Display>> Deserialize<'de> for Action<M> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}
