//! Linked devices (issue 21): one private library of games, seat tokens, layouts and shared
//! settings across a player's devices, kept in step through the companion server, which only
//! ever holds sealed blobs (see [`crypto`]). No UI here: the app runs it on its sync worker;
//! the end-to-end tests drive it directly.
//!
//! This device keeps working offline: every change to its history marks the changed item in
//! the same transaction (schema 7's triggers). [`Library::sync`] reads what other devices wrote
//! since its cursor, merges it ([`items`]), then writes its own marked items, each on top of
//! the entry it last saw in that item's slot; when another device got there first the server
//! refuses the write, and the next round reads and merges that first. Reading commits each
//! page of entries with the cursor in one transaction, and a write's mark is cleared only after
//! the server has acknowledged it (and only if the item did not change meanwhile), so a crash
//! at any point loses nothing and, games being keyed by uid, repeats nothing.

pub mod crypto;
mod devices;
mod exchange;
/// What a library holds, as this device's store has it (the store's library tables).
pub use crate::store::library as items;

use crate::store::Store;
use crate::sync::{Client, SyncError, now};
use crypto::Stretched;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// This device's place in a library (kept in the store's library tables).
pub use crate::store::library::Link;

/// A device of the library, as the devices list shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Device {
    /// Its id.
    pub device_id: String,
    /// Its name, as it gave it (or empty if it cannot be opened).
    pub name: String,
    /// When it joined, Unix ms.
    pub linked_at: i64,
    /// When it was unlinked, if it was.
    pub unlinked_at: Option<i64>,
    /// Whether it is this device.
    pub this: bool,
}

/// A pairing code this device offers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Offer {
    /// The code to type on the other device: `ABCD-EFGH-JKMN`.
    pub code: String,
    /// When it stops working, Unix ms.
    pub expires_at: i64,
}

/// What one sync did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Synced {
    /// Entries read from other devices and applied.
    pub taken: usize,
    /// Games this device had played on from the same point as another device, kept as copies.
    pub forked: usize,
    /// Items written.
    pub sent: usize,
    /// Entries that did not open with the library's key or were not understood (left alone).
    pub unreadable: usize,
    /// Items too large for the server (a game of thousands of moves): kept on this device
    /// only, and not tried again until they change.
    pub too_large: usize,
}

/// What the pairing envelope carries to the new device.
#[derive(Serialize, Deserialize)]
struct Envelope {
    library_id: String,
    key: String,
}

#[derive(Deserialize)]
struct Entered {
    library_id: String,
    device_id: String,
    token: String,
    #[serde(default)]
    envelope: Option<String>,
}

#[derive(Deserialize)]
struct EntryOut {
    slot: String,
    entry: String,
    seq: i64,
    blob: String,
}

#[derive(Deserialize)]
struct Page {
    entries: Vec<EntryOut>,
    more: bool,
}

#[derive(Deserialize)]
struct DeviceOut {
    device_id: String,
    name: String,
    linked_at: i64,
    unlinked_at: Option<i64>,
}

#[derive(Deserialize)]
struct Described {
    devices: Vec<DeviceOut>,
}

/// The settings key under which a device's name is kept here, by its name entry's slot.
const DEVICE_NAME: &str = "library-device:";

/// Sync rounds (read, then write) before giving up for now on a slot another device keeps
/// changing.
const ROUNDS: usize = 6;
/// The most entries, and about the most bytes, in one write.
const WRITE_ENTRIES: usize = 64;
const WRITE_BYTES: usize = 600 * 1024;
/// The largest sealed entry the server takes.
const MAX_BLOB: usize = 256 * 1024;

fn protocol(e: impl std::fmt::Display) -> SyncError {
    SyncError::Protocol(e.to_string())
}

/// Called after each step of a sync is committed here (a page read, a write acknowledged),
/// with the totals so far.
pub type Progress = Box<dyn FnMut(&Synced)>;

/// The library engine of one device.
pub struct Library {
    store: Store,
    client: Client,
    progress: Option<Progress>,
    /// Local games that reading from the library changed, since [`Library::take_changed`].
    changed: Vec<crate::store::GameId>,
}

impl std::fmt::Debug for Library {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Library")
            .field("store", &self.store)
            .finish_non_exhaustive()
    }
}

impl Library {
    /// Opens the engine on the app's data directory (its own connection to the same file).
    pub fn open(data_dir: &Path) -> Result<Library, SyncError> {
        Ok(Library::with(Store::open_dir(data_dir)?, Client::new()))
    }

    /// The engine over a store, with this HTTP client.
    pub fn with(store: Store, client: Client) -> Library {
        Library {
            store,
            client,
            progress: None,
            changed: Vec::new(),
        }
    }

    /// The local games that syncs changed since the last call (open screens reload them).
    pub fn take_changed(&mut self) -> Vec<crate::store::GameId> {
        let mut ids = std::mem::take(&mut self.changed);
        ids.sort();
        ids.dedup();
        ids
    }

    /// Reports each committed step of the next syncs to `f`.
    pub fn on_progress(&mut self, f: Progress) {
        self.progress = Some(f);
    }

    fn progressed(&mut self, done: &Synced) {
        if let Some(f) = self.progress.as_mut() {
            f(done);
        }
    }

    /// The local store.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The local store, to change.
    pub fn store_mut(&mut self) -> &mut Store {
        &mut self.store
    }

    /// This device's place in a library, if it has one.
    pub fn link(&self) -> Result<Option<Link>, SyncError> {
        Ok(self.store.library_link()?)
    }

    fn linked(&self) -> Result<Link, SyncError> {
        match self.link()? {
            Some(link) if !link.unlinked => Ok(link),
            Some(_) => Err(SyncError::Refused {
                status: 401,
                code: "device-unlinked".into(),
                message: "this device was unlinked from its library".into(),
                current: None,
            }),
            None => Err(SyncError::Refused {
                status: 0,
                code: "not-linked".into(),
                message: "this device is in no library".into(),
                current: None,
            }),
        }
    }

    /// A request to the library's server as this device (with its token), at `path` there.
    fn as_device(
        &self,
        link: &Link,
        method: reqwest::Method,
        path: &str,
    ) -> reqwest::RequestBuilder {
        self.client
            .http()
            .request(method, format!("{}{path}", link.server))
            .bearer_auth(&link.token)
    }

    fn refuse_if_linked(&self) -> Result<(), SyncError> {
        match self.link()? {
            Some(link) if !link.unlinked => Err(SyncError::Refused {
                status: 0,
                code: "already-linked".into(),
                message: "this device is already in a library; unlink it first".into(),
                current: None,
            }),
            _ => Ok(()),
        }
    }

    /// Stores this device's new place in a library: everything it holds is to be sent there.
    fn enter(&mut self, link: &Link) -> Result<(), SyncError> {
        Ok(self.store.enter_library(link)?)
    }

    fn set_unlinked(&mut self) -> Result<(), SyncError> {
        Ok(self.store.set_unlinked()?)
    }

    fn note_unlinked(&self, e: &SyncError) {
        if let SyncError::Refused { code, .. } = e
            && code == "device-unlinked"
        {
            let _ = self.store.set_unlinked();
        }
    }

    fn slot_entry(&self, slot: &str) -> Result<Option<String>, SyncError> {
        Ok(self.store.slot_entry(slot)?)
    }

    fn set_slot_entry(&mut self, slot: &str, entry: &str) -> Result<(), SyncError> {
        Ok(self.store.remember_slot_entry(slot, entry)?)
    }

    /// Whether anything here waits to be sent.
    pub fn has_changes(&self) -> Result<bool, SyncError> {
        Ok(self.link()?.is_some_and(|l| !l.unlinked) && self.store.has_marked_items()?)
    }

    fn unmark(&mut self, name: &str, generation: i64) -> Result<(), SyncError> {
        Ok(self.store.clear_item_mark(name, generation)?)
    }
}

/// Argon2id takes a noticeable moment (and 19 MiB): off the async runtime's threads.
async fn stretch(code: String) -> Result<Stretched, SyncError> {
    tokio::task::spawn_blocking(move || Stretched::from_code(&code))
        .await
        .map_err(protocol)?
        .map_err(protocol)
}

/// The time now, Unix ms (for the screens' "expires in").
pub fn now_ms() -> i64 {
    now()
}
