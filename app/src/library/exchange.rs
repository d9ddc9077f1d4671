//! Exchanging a library's entries with the server: a sync pulls the pages other devices wrote
//! (opened with the library's key, applied to the store) and pushes this device's changes.

use super::*;
use crate::sync::SyncError;
use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use crypto::Keys;
use items::Item;
use reqwest::Method;
use serde_json::json;

impl Library {
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
            let path = format!("/api/library/entries?after={cursor}&limit=200");
            let page: Page = self
                .client
                .send(self.as_device(link, Method::GET, &path))
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
                // A device's name, or an item of a newer version.
                _ if device_name(&tx, &e.slot, &plain)? => {}
                _ => done.unreadable += 1,
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
            let Some((slot, entry, base, blob)) = self.seal(link, &keys, name, done)? else {
                self.unmark(name, *generation)?;
                continue;
            };
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

    /// Seals the item `name` as it stands into a new entry of its slot: (slot, entry id, the
    /// entry it replaces, the sealed blob); `None` where there is nothing to write (gone before
    /// the library ever had it) or it is larger than the server takes.
    #[allow(clippy::type_complexity)]
    fn seal(
        &mut self,
        link: &Link,
        keys: &Keys,
        name: &str,
        done: &mut Synced,
    ) -> Result<Option<(String, String, Option<String>, String)>, SyncError> {
        let slot = keys.slot(name);
        let base = self.slot_entry(&slot)?;
        let Some(item) = items::snapshot(&self.store, name)? else {
            return Ok(None);
        };
        if base.is_none()
            && matches!(
                item,
                Item::Deleted { .. } | Item::Setting { value: None, .. }
            )
        {
            // Gone before the library ever had it: nothing to tell.
            return Ok(None);
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
            return Ok(None);
        }
        Ok(Some((slot, entry, base, B64.encode(sealed))))
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
                self.as_device(link, Method::POST, "/api/library/entries")
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
}

/// Keeps the name another device gave itself, if the entry is one; false for anything else
/// (an item of a newer version).
fn device_name(
    tx: &items::Applying<'_>,
    slot: &str,
    plain: &[u8],
) -> Result<bool, crate::store::StoreError> {
    match serde_json::from_slice::<serde_json::Value>(plain) {
        Ok(v) if v["item"] == "device-name" => {
            tx.set_setting(
                &format!("{DEVICE_NAME}{slot}"),
                v["name"].as_str().unwrap_or(""),
            )?;
            Ok(true)
        }
        _ => Ok(false),
    }
}
