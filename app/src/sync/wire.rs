//! What the server sends: a seat's view of a game and the answers to creating, joining and
//! sharing one.

use super::SyncError;
use crate::store::Standing;
use qiguan_core::Strength;
use qiguan_core::{GameKind, RecordEntry, Seat, ToAct};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A game as the server shows it to one seat.
#[derive(Clone, Debug, Deserialize, Serialize)]
pub struct ServerView {
    pub game_id: String,
    pub game: GameKind,
    pub seat: u8,
    pub seats_filled: Vec<bool>,
    /// Each seat's player's name as given to the server ("" when not given or not joined).
    #[serde(default)]
    pub names: Vec<String>,
    /// For each seat, the strength of the server's computer player in it.
    #[serde(default)]
    pub bots: Vec<Option<Strength>>,
    pub version: usize,
    pub your_turn: bool,
    pub to_act: ToAct,
    pub legal_actions: Vec<String>,
    /// Core's match view for this seat.
    #[serde(default)]
    pub view: Value,
    pub actions: Option<Vec<RecordEntry>>,
    #[serde(default)]
    pub options: Value,
    #[serde(default)]
    pub setup: Value,
    pub deadline: Option<i64>,
    pub days_per_move: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub applied_version: Option<usize>,
    /// The newest preset phrases the seats have sent, oldest first.
    #[serde(default)]
    pub said: Vec<Said>,
    /// How many phrases have been sent in the game.
    #[serde(default)]
    pub said_count: usize,
    /// For a phrase this device sent: its number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub said_seq: Option<usize>,
    /// Provably fair chance: the server's commitment, the draws, the seed once it is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fair: Option<qiguan_core::fair::Fairness>,
}

/// A preset phrase as the server forwards it.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
pub struct Said {
    pub seq: usize,
    pub seat: u8,
    pub phrase: String,
    pub at: i64,
}

impl ServerView {
    /// The standing of a game whose record the server keeps: from the view alone.
    pub(super) fn standing(&self) -> Standing {
        Standing {
            plies: self.version,
            moves: self.view["moves"].as_u64().unwrap_or(0) as usize,
            outcome: match &self.to_act {
                ToAct::Over(outcome) => Some(outcome.clone()),
                _ => None,
            },
        }
    }

    /// Checks an action against this view before it is queued: listed among the legal
    /// actions, or (a deployment, where only a few layouts are listed) a valid layout for this
    /// seat's side, as core judges it from the view.
    pub(super) fn allows(&self, action: &str) -> Result<(), SyncError> {
        let text = action.trim();
        if self.legal_actions.iter().any(|a| a == text) {
            return Ok(());
        }
        let refused = |why: String| {
            SyncError::Illegal(qiguan_core::ActionError::Illegal(
                qiguan_core::IllegalMove::Other(why),
            ))
        };
        // A deployment, where only a few layouts are listed: core checks the layout against
        // this seat's view.
        if text.starts_with("deploy:")
            && self.legal_actions.iter().any(|a| a.starts_with("deploy:"))
        {
            let seat = Seat::new(self.seat)
                .ok_or_else(|| SyncError::Protocol(format!("no seat {}", self.seat)))?;
            return qiguan_core::deploy::check_layout_json(self.game, &self.view, seat, text)
                .map_err(|problems| refused(problems.join("; ")));
        }
        if self.legal_actions.is_empty() {
            return Err(SyncError::Illegal(qiguan_core::ActionError::NotYourTurn));
        }
        Err(refused(format!("{text} is not possible now")))
    }
}

/// The server's answer to a created game.
#[derive(Clone, Debug, Deserialize)]
pub struct Created {
    pub game_id: String,
    pub seat: u8,
    pub token: String,
    pub invite_code: String,
    /// Every open seat's invite, in seat order (games for more than two).
    #[serde(default)]
    pub invites: Vec<SeatInvite>,
}

/// One open seat's invite code.
#[derive(Clone, Debug, Deserialize)]
pub struct SeatInvite {
    pub seat: u8,
    pub code: String,
}

/// The server's answer to a join.
#[derive(Clone, Debug, Deserialize)]
pub struct Joined {
    pub game_id: String,
    pub seat: u8,
    pub token: String,
}

/// A link to a game's page, as the server made it.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct Shared {
    /// The link's id: the page is `/g/{id}`.
    pub id: String,
    /// For an upload, the key that withdraws the link.
    #[serde(default)]
    pub key: Option<String>,
}

pub(crate) fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// Returns a fresh client action id: 128 random bits in hex.
pub fn new_action_id() -> String {
    let mut bytes = [0u8; 16];
    if getrandom::fill(&mut bytes).is_err() {
        // Without the OS's randomness, time and a counter still never repeat on this device.
        static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        bytes[..8].copy_from_slice(&(now() as u64).to_le_bytes());
        bytes[8..].copy_from_slice(&n.to_le_bytes());
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
