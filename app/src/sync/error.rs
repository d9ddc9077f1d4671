//! Why a sync step failed.

use crate::store::StoreError;
use serde_json::Value;
use std::fmt;

/// Why a sync step failed.
#[derive(Debug)]
pub enum SyncError {
    /// The server could not be reached (the action stays queued).
    Offline(String),
    /// The server answered with an error.
    Refused {
        /// HTTP status.
        status: u16,
        /// The server's stable code.
        code: String,
        /// Its message.
        message: String,
        /// With `stale-version`: the game as it now is.
        current: Option<Value>,
    },
    /// Core refused the action before anything was queued.
    Illegal(qiguan_core::ActionError),
    /// The local store failed.
    Store(StoreError),
    /// The server said something this client does not understand.
    Protocol(String),
}

impl SyncError {
    /// Why, in a word the screens translate: the server's own code when it refused
    /// (`unknown-invite`, `invite-used`, `rate-limited`, …), else `offline`, `illegal`,
    /// `storage` or `protocol`.
    pub fn code(&self) -> String {
        match self {
            SyncError::Offline(_) => "offline".into(),
            SyncError::Refused { code, .. } => code.clone(),
            SyncError::Illegal(_) => "illegal".into(),
            SyncError::Store(_) => "storage".into(),
            SyncError::Protocol(_) => "protocol".into(),
        }
    }
}

impl fmt::Display for SyncError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SyncError::Offline(e) => write!(f, "the server cannot be reached: {e}"),
            SyncError::Refused { code, message, .. } => write!(f, "{message} ({code})"),
            SyncError::Illegal(e) => write!(f, "{e}"),
            SyncError::Store(e) => write!(f, "{e}"),
            SyncError::Protocol(e) => write!(f, "unexpected answer from the server: {e}"),
        }
    }
}

impl std::error::Error for SyncError {}

impl From<StoreError> for SyncError {
    fn from(e: StoreError) -> Self {
        SyncError::Store(e)
    }
}
