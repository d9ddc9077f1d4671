//! The devices of a library: creating one on a server, offering it to another device and
//! joining it there, naming this device, listing and unlinking devices.

use super::*;
use crate::sync::SyncError;
use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use crypto::{Key, Keys};
use reqwest::Method;
use serde_json::json;

impl Library {
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
        self.settle_in(server, entered, key, device_name).await
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
                    self.as_device(&link, Method::POST, "/api/library/pairings")
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
        self.settle_in(server, entered, key, device_name).await
    }

    /// Takes this device's place in the library the server let it into (created or joined,
    /// under `key`), and writes its name there.
    async fn settle_in(
        &mut self,
        server: String,
        entered: Entered,
        key: Key,
        device_name: &str,
    ) -> Result<Link, SyncError> {
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
                self.as_device(link, Method::POST, "/api/library/entries")
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
            .send(self.as_device(&link, Method::GET, "/api/library"))
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
        let path = format!("/api/library/devices/{device_id}");
        let _: serde_json::Value = self
            .client
            .send(self.as_device(&link, Method::DELETE, &path))
            .await?;
        if device_id == link.device_id {
            self.set_unlinked()?;
        }
        Ok(())
    }
}
