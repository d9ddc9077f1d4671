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
/// What a library holds, as this device's store has it (the store's library tables).
pub use crate::store::library as items;

use crate::store::Store;
use crate::sync::{Client, SyncError, now};
use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use crypto::{Key, Keys, Stretched};
use items::Item;
use serde::{Deserialize, Serialize};
use serde_json::json;
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

    /// Starts a library on `server` with this device, under `device_name`.
    pub async fn create(&mut self, server: &str, device_name: &str) -> Result<Link, SyncError> {
        self.refuse_if_linked()?;
        let server = server.trim_end_matches('/').to_owned();
        let key: Key = crypto::random().map_err(protocol)?;
        let keys = Keys::new(&key);
        let sealed_name = keys.seal_name(device_name).map_err(protocol)?;
        let entered: Entered = self
            .client
            .send(
                self.client
                    .http()
                    .post(format!("{server}/api/libraries"))
                    .json(&json!({ "device_name": B64.encode(sealed_name) })),
            )
            .await?;
        let link = Link {
            server,
            library_id: entered.library_id,
            device_id: entered.device_id,
            token: entered.token,
            key,
            cursor: 0,
            unlinked: false,
        };
        self.enter(&link)?;
        self.name_device(&link, device_name).await?;
        Ok(link)
    }

    /// Offers a pairing code for another device (valid for ten minutes, once).
    pub async fn offer(&mut self) -> Result<Offer, SyncError> {
        self.offer_for(600).await
    }

    /// Offers a pairing code valid for `seconds` (at most 900), once.
    pub async fn offer_for(&mut self, seconds: i64) -> Result<Offer, SyncError> {
        let link = self.linked()?;
        let envelope = serde_json::to_vec(&Envelope {
            library_id: link.library_id.clone(),
            key: B64.encode(link.key),
        })
        .map_err(protocol)?;
        // A new code if its first four characters are another open pairing's.
        for _ in 0..4 {
            let code = crypto::new_pairing_code().map_err(protocol)?;
            let normal = crypto::normalize_code(&code).ok_or_else(|| protocol("bad code"))?;
            let stretched = stretch(normal.clone()).await?;
            let sealed = stretched.seal(&envelope).map_err(protocol)?;
            let body = json!({
                "pairing_id": &normal[..crypto::PAIRING_ID_LEN],
                "verifier": B64.encode(stretched.verifier()),
                "envelope": B64.encode(sealed),
                "ttl_seconds": seconds,
            });
            let answer: Result<serde_json::Value, SyncError> = self
                .client
                .send(
                    self.client
                        .http()
                        .post(format!("{}/api/library/pairings", link.server))
                        .bearer_auth(&link.token)
                        .json(&body),
                )
                .await;
            match answer {
                Ok(v) => {
                    return Ok(Offer {
                        code,
                        expires_at: v["expires_at"].as_i64().unwrap_or(0),
                    });
                }
                Err(SyncError::Refused { code, .. }) if code == "pairing-id-taken" => continue,
                Err(e) => return Err(e),
            }
        }
        Err(protocol("no free pairing id after four tries"))
    }

    /// Joins the library a pairing code from one of its devices opens, on `server`, under
    /// `device_name`. The games here join the library at the next sync.
    pub async fn join(
        &mut self,
        server: &str,
        code: &str,
        device_name: &str,
    ) -> Result<Link, SyncError> {
        self.refuse_if_linked()?;
        let server = server.trim_end_matches('/').to_owned();
        let normal = crypto::normalize_code(code).ok_or_else(|| SyncError::Refused {
            status: 0,
            code: "bad-pairing-code".into(),
            message: "a pairing code is 12 letters and digits".into(),
            current: None,
        })?;
        let stretched = stretch(normal.clone()).await?;
        let body = json!({
            "pairing_id": &normal[..crypto::PAIRING_ID_LEN],
            "proof": B64.encode(stretched.proof),
            // This device has no key to seal its name with yet: it writes its name as an entry
            // of the library once it has.
            "device_name": "",
        });
        let entered: Entered = self
            .client
            .send(
                self.client
                    .http()
                    .post(format!("{server}/api/pair"))
                    .json(&body),
            )
            .await?;
        let sealed = B64
            .decode(entered.envelope.as_deref().unwrap_or(""))
            .map_err(protocol)?;
        let opened = stretched
            .open(&sealed)
            .map_err(|e| protocol(format!("the pairing's key: {e}")))?;
        let envelope: Envelope = serde_json::from_slice(&opened).map_err(protocol)?;
        let key: Key = B64
            .decode(&envelope.key)
            .ok()
            .and_then(|k| k.try_into().ok())
            .ok_or_else(|| protocol("the pairing's key is not 32 bytes"))?;
        if envelope.library_id != entered.library_id {
            return Err(protocol("the pairing is for another library"));
        }
        let link = Link {
            server,
            library_id: entered.library_id,
            device_id: entered.device_id,
            token: entered.token,
            key,
            cursor: 0,
            unlinked: false,
        };
        self.enter(&link)?;
        self.name_device(&link, device_name).await?;
        Ok(link)
    }

    /// Writes this device's name as an entry of the library, for the devices list.
    async fn name_device(&mut self, link: &Link, name: &str) -> Result<(), SyncError> {
        let keys = Keys::new(&link.key);
        let item = format!("d:{}", link.device_id);
        let slot = keys.slot(&item);
        self.store
            .set_setting(&format!("{DEVICE_NAME}{slot}"), name)?;
        let entry = crypto::hex(&crypto::random::<16>().map_err(protocol)?);
        let sealed = keys
            .seal_entry(
                &link.library_id,
                &slot,
                &entry,
                &serde_json::to_vec(&json!({"item": "device-name", "name": name}))
                    .map_err(protocol)?,
            )
            .map_err(protocol)?;
        let base = self.slot_entry(&slot)?;
        let body = json!({"entries": [{"slot": slot, "entry": entry, "base": base,
                                        "blob": B64.encode(sealed)}]});
        let _: serde_json::Value = self
            .client
            .send(
                self.client
                    .http()
                    .post(format!("{}/api/library/entries", link.server))
                    .bearer_auth(&link.token)
                    .json(&body),
            )
            .await?;
        self.set_slot_entry(&slot, &entry)
    }

    /// The library's devices, with the names they gave.
    pub async fn devices(&mut self) -> Result<Vec<Device>, SyncError> {
        let link = self.linked()?;
        let described: Described = self
            .client
            .send(
                self.client
                    .http()
                    .get(format!("{}/api/library", link.server))
                    .bearer_auth(&link.token),
            )
            .await
            .inspect_err(|e| self.note_unlinked(e))?;
        let keys = Keys::new(&link.key);
        let mut out = Vec::with_capacity(described.devices.len());
        for d in described.devices {
            // The name entry as last read; else the name the first device gave the server.
            let slot = keys.slot(&format!("d:{}", d.device_id));
            let name = match self.store.setting(&format!("{DEVICE_NAME}{slot}"))? {
                Some(name) => name,
                None => B64
                    .decode(&d.name)
                    .ok()
                    .and_then(|b| keys.open_name(&b).ok())
                    .unwrap_or_default(),
            };
            out.push(Device {
                this: d.device_id == link.device_id,
                device_id: d.device_id,
                name,
                linked_at: d.linked_at,
                unlinked_at: d.unlinked_at,
            });
        }
        Ok(out)
    }

    /// Unlinks a device of the library; this device itself leaves it (its games stay here).
    pub async fn unlink(&mut self, device_id: &str) -> Result<(), SyncError> {
        let link = self.linked()?;
        let _: serde_json::Value = self
            .client
            .send(
                self.client
                    .http()
                    .delete(format!("{}/api/library/devices/{device_id}", link.server))
                    .bearer_auth(&link.token),
            )
            .await?;
        if device_id == link.device_id {
            self.set_unlinked()?;
        }
        Ok(())
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

    /// Reads what other devices wrote and writes what changed here, until both agree (or
    /// another device keeps changing the same items: the next sync goes on).
    pub async fn sync(&mut self) -> Result<Synced, SyncError> {
        let link = self.linked()?;
        let mut done = Synced::default();
        for _ in 0..ROUNDS {
            self.pull(&link, &mut done)
                .await
                .inspect_err(|e| self.note_unlinked(e))?;
            if self
                .push(&link, &mut done)
                .await
                .inspect_err(|e| self.note_unlinked(e))?
            {
                return Ok(done);
            }
        }
        Ok(done)
    }

    /// Reads every entry after the cursor, a page at a time, each page applied with the
    /// cursor in one transaction.
    async fn pull(&mut self, link: &Link, done: &mut Synced) -> Result<(), SyncError> {
        let keys = Keys::new(&link.key);
        loop {
            let cursor = self.link()?.map_or(0, |l| l.cursor);
            let page: Page = self
                .client
                .send(
                    self.client
                        .http()
                        .get(format!(
                            "{}/api/library/entries?after={cursor}&limit=200",
                            link.server
                        ))
                        .bearer_auth(&link.token),
                )
                .await?;
            self.apply_page(link, &keys, cursor, &page, done)?;
            self.progressed(done);
            if !page.more {
                return Ok(());
            }
        }
    }

    /// Applies a page of entries read from the server after `cursor`, with the cursor past
    /// it, in one transaction.
    /// An entry that cannot be opened or read, or that is not in the slot its item belongs
    /// in, is counted as unreadable and skipped.
    fn apply_page(
        &mut self,
        link: &Link,
        keys: &Keys,
        cursor: i64,
        page: &Page,
        done: &mut Synced,
    ) -> Result<(), SyncError> {
        let tx = self.store.applying()?;
        let mut changed = Vec::new();
        let mut last = cursor;
        for e in &page.entries {
            last = last.max(e.seq);
            let known = tx.known_entry(&e.slot)?;
            if known.as_deref() == Some(e.entry.as_str()) {
                continue; // this device's own write, or one already applied
            }
            let opened = B64.decode(&e.blob).ok().and_then(|b| {
                keys.open_entry(&link.library_id, &e.slot, &e.entry, &b)
                    .ok()
            });
            let Some(plain) = opened else {
                done.unreadable += 1;
                continue;
            };
            match serde_json::from_slice::<Item>(&plain) {
                Ok(item) if keys.slot(&item.name()) == e.slot => {
                    match tx.apply(&item)? {
                        items::Applied::Forked => done.forked += 1,
                        items::Applied::Refused => {
                            done.unreadable += 1;
                            tx.remember_entry(&e.slot, &e.entry)?;
                            continue;
                        }
                        items::Applied::Taken | items::Applied::KeptOurs => {}
                    }
                    if let Item::Game(g) = &item
                        && let Some(id) = tx.game_id(&g.uid)?
                    {
                        changed.push(id);
                    }
                    done.taken += 1;
                }
                _ => {
                    // A device's name, or an item of a newer version.
                    if let Ok(v) = serde_json::from_slice::<serde_json::Value>(&plain)
                        && v["item"] == "device-name"
                    {
                        tx.set_setting(
                            &format!("{DEVICE_NAME}{}", e.slot),
                            v["name"].as_str().unwrap_or(""),
                        )?;
                    } else {
                        done.unreadable += 1;
                    }
                }
            }
            tx.remember_entry(&e.slot, &e.entry)?;
        }
        tx.commit(last)?;
        self.changed.extend(changed);
        Ok(())
    }

    /// Takes a page of entries as the server's answer body: for the fuzz target `library`
    /// (fuzz/app), which plays a linked device that writes hostile or damaged entries. What
    /// was taken, forked and found unreadable.
    #[doc(hidden)]
    pub fn take_page(&mut self, body: &[u8]) -> Result<Synced, SyncError> {
        let link = self
            .link()?
            .ok_or_else(|| protocol("this device is in no library"))?;
        let page: Page = crate::sync::read_answer(200, body)?;
        let mut done = Synced::default();
        self.apply_page(&link, &Keys::new(&link.key), link.cursor, &page, &mut done)?;
        Ok(done)
    }

    /// Makes this device's place in a library without a server: for the fuzz target
    /// `library`.
    #[doc(hidden)]
    pub fn enter_offline(&mut self, link: &Link) -> Result<(), SyncError> {
        self.enter(link)
    }

    /// Writes the marked items; true when all were written, false when the server refused a
    /// write because another device wrote first (read again, then write again).
    async fn push(&mut self, link: &Link, done: &mut Synced) -> Result<bool, SyncError> {
        let keys = Keys::new(&link.key);
        let marked = self.store.marked_items()?;
        // (item, its mark, slot, entry id, request body part)
        let mut batch: Vec<(String, i64, String, String, serde_json::Value)> = Vec::new();
        let mut bytes = 0;
        let mut i = 0;
        while i <= marked.len() {
            let full = batch.len() >= WRITE_ENTRIES || bytes >= WRITE_BYTES;
            if (full || i == marked.len()) && !batch.is_empty() {
                if !self.write(link, &batch).await? {
                    return Ok(false);
                }
                done.sent += batch.len();
                self.progressed(done);
                batch.clear();
                bytes = 0;
            }
            let Some((name, generation)) = marked.get(i) else {
                break;
            };
            i += 1;
            let slot = keys.slot(name);
            let base = self.slot_entry(&slot)?;
            let Some(item) = items::snapshot(&self.store, name)? else {
                self.unmark(name, *generation)?;
                continue;
            };
            if base.is_none()
                && matches!(
                    item,
                    Item::Deleted { .. } | Item::Setting { value: None, .. }
                )
            {
                // Gone before the library ever had it: nothing to tell.
                self.unmark(name, *generation)?;
                continue;
            }
            let entry = crypto::hex(&crypto::random::<16>().map_err(protocol)?);
            let plain = serde_json::to_vec(&item).map_err(protocol)?;
            let sealed = keys
                .seal_entry(&link.library_id, &slot, &entry, &plain)
                .map_err(protocol)?;
            if sealed.len() > MAX_BLOB {
                // Larger than the server takes (a game of thousands of moves): kept here only.
                // Its mark goes, so that it is not sealed again every sync; a change to it
                // marks it again.
                done.too_large += 1;
                self.unmark(name, *generation)?;
                continue;
            }
            let blob = B64.encode(sealed);
            bytes += blob.len();
            batch.push((
                name.clone(),
                *generation,
                slot.clone(),
                entry.clone(),
                json!({"slot": slot, "entry": entry, "base": base, "blob": blob}),
            ));
        }
        Ok(true)
    }

    /// One write of several entries; true once the server has taken them.
    async fn write(
        &mut self,
        link: &Link,
        batch: &[(String, i64, String, String, serde_json::Value)],
    ) -> Result<bool, SyncError> {
        let entries: Vec<&serde_json::Value> = batch.iter().map(|b| &b.4).collect();
        let answer: Result<serde_json::Value, SyncError> = self
            .client
            .send(
                self.client
                    .http()
                    .post(format!("{}/api/library/entries", link.server))
                    .bearer_auth(&link.token)
                    .json(&json!({ "entries": entries })),
            )
            .await;
        match answer {
            Ok(_) => {}
            Err(SyncError::Refused { code, .. }) if code == "entry-conflict" => return Ok(false),
            Err(e) => return Err(e),
        }
        let written: Vec<(&str, i64, &str, &str)> = batch
            .iter()
            .map(|(name, generation, slot, entry, _)| {
                (name.as_str(), *generation, slot.as_str(), entry.as_str())
            })
            .collect();
        self.store.written(&written)?;
        Ok(true)
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
