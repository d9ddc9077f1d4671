//! Game records: everything needed to replay a game exactly, as versioned JSON.

use crate::fair::Fairness;
use crate::game::{Actor, GameKind};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The record format this build writes. Older formats are read; newer ones are refused.
pub const RECORD_FORMAT: u32 = 1;

/// A whole game: which game, its options and setup, and every action in order, chance
/// results included, so that replaying needs no randomness.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Record {
    /// The format version ([`RECORD_FORMAT`] when written by this build).
    pub format: u32,
    /// The game.
    pub game: GameKind,
    /// The game's options, as that game serializes them.
    pub options: serde_json::Value,
    /// The game's setup (for Xiangqi, the starting FEN).
    pub setup: serde_json::Value,
    /// Every action, in order.
    pub actions: Vec<RecordEntry>,
    /// Provably fair chance: the authority's commitment, each draw's contributions, and the
    /// seed once the game is over (see [`crate::fair`]). None in games without chance and in
    /// games recorded before the scheme.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fair: Option<Fairness>,
}

/// One action in a record.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct RecordEntry {
    /// Who acted.
    pub by: Actor,
    /// The action's text form.
    pub action: String,
}

impl Record {
    /// Parses a record from JSON, refusing formats newer than this build understands.
    pub fn from_json(text: &str) -> Result<Record, RecordError> {
        let record: Record =
            serde_json::from_str(text).map_err(|e| RecordError::Malformed(e.to_string()))?;
        if record.format > RECORD_FORMAT || record.format == 0 {
            return Err(RecordError::UnsupportedFormat(record.format));
        }
        Ok(record)
    }

    /// Writes the record as JSON.
    pub fn to_json(&self) -> String {
        // A Record holds only strings, numbers and JSON values: serializing cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// Says why a record cannot be read or replayed.
#[derive(Clone, PartialEq, Debug)]
pub enum RecordError {
    /// The JSON is not a record.
    Malformed(String),
    /// The record was written by a newer (or broken) build.
    UnsupportedFormat(u32),
    /// The record is for another game than the one asked for.
    WrongGame(GameKind),
    /// The options or setup do not decode or do not start a game.
    BadStart(String),
    /// An action does not parse or is not legal where it stands.
    BadAction {
        /// Its index in `actions`.
        index: usize,
        /// The action's text.
        action: String,
        /// Why.
        reason: String,
    },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Malformed(e) => write!(f, "not a game record: {e}"),
            RecordError::UnsupportedFormat(v) => write!(
                f,
                "record format {v} is not supported (this build reads 1 to {RECORD_FORMAT})"
            ),
            RecordError::WrongGame(g) => write!(f, "the record is for another game ({g})"),
            RecordError::BadStart(e) => write!(f, "the record's start is invalid: {e}"),
            RecordError::BadAction {
                index,
                action,
                reason,
            } => write!(
                f,
                "action {} `{action}` cannot be replayed: {reason}",
                index + 1
            ),
        }
    }
}

impl std::error::Error for RecordError {}
