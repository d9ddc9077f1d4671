//! Libraries of linked devices: the server side of issue 21.
//!
//! A player's devices share one library: their games, seat tokens, layouts and shared settings,
//! each kept in a *slot* whose newest *entry* is a blob sealed with a key only the devices have
//! (XChaCha20-Poly1305; the app's `library` module). The server sees opaque slot names and
//! entry ids, sizes and times, never a move, a name or a token. It keeps the newest entry of
//! each slot, numbers every write with the library's change number, and refuses a write that
//! was not based on the entry the slot holds (`409 entry-conflict`): the device then reads the
//! newer entry, merges, and writes again, so that every device ends with the same library.
//!
//! A new device joins with a pairing code from a device already in the library. The code never
//! reaches the server: the offering device sends the SHA-256 of a proof derived from the code
//! (Argon2id) and the library's key sealed with another key derived from it; the joining device
//! derives the same proof, and the server hands it the sealed key and a device token only if
//! the proof matches, before the pairing expires, once. Wrong proofs count against the pairing
//! and against the client's address.

use crate::auth::{self, Hash};
use crate::error::ApiError;
use crate::games::Clock;
use crate::store::{MAX_PAIRING_MISSES, Store, StoreError, StoredDevice, Write};
use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The most devices linked to one library at once.
pub const MAX_DEVICES: usize = 16;
/// The largest sealed entry, in bytes.
pub const MAX_BLOB: usize = 256 * 1024;
/// The most entries written in one request.
pub const MAX_ENTRIES_PER_WRITE: usize = 64;
/// The largest sealed device name or pairing envelope, in bytes.
pub const MAX_SMALL_BLOB: usize = 1024;
/// The longest a pairing stays open, and how long by default, in seconds.
pub const MAX_PAIRING_SECONDS: i64 = 15 * 60;
const DEFAULT_PAIRING_SECONDS: i64 = 10 * 60;
/// The most entries one read returns, and how many by default.
pub const MAX_READ: usize = 500;
const DEFAULT_READ: usize = 200;

/// The libraries, over the store.
pub struct Libraries {
    store: Arc<dyn Store>,
    clock: Clock,
}

impl std::fmt::Debug for Libraries {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Libraries({:?})", self.store)
    }
}

/// A new library's first device.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct NewLibrary {
    /// The device's name, sealed (base64).
    pub device_name: String,
}

/// A device as the library's devices see it.
#[derive(Serialize, Debug)]
pub struct DeviceInfo {
    pub device_id: String,
    /// Its name, sealed (base64).
    pub name: String,
    pub linked_at: i64,
    pub unlinked_at: Option<i64>,
}

/// What a device gets when it enters a library.
#[derive(Serialize, Debug)]
pub struct Entered {
    pub library_id: String,
    pub device_id: String,
    /// The device's bearer token: the server keeps only its hash.
    pub token: String,
    /// The library's key sealed with the pairing code's key (base64); none for a new library.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub envelope: Option<String>,
}

/// An entry to write.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct NewEntry {
    pub slot: String,
    pub entry: String,
    /// The entry the device had seen in the slot; null when it had seen none.
    #[serde(default)]
    pub base: Option<String>,
    /// The sealed entry (base64).
    pub blob: String,
}

/// A write of entries.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct WriteEntries {
    pub entries: Vec<NewEntry>,
}

/// An entry as read.
#[derive(Serialize, Debug)]
pub struct EntryOut {
    pub slot: String,
    pub entry: String,
    pub seq: i64,
    pub blob: String,
}

/// A pairing offered.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Offer {
    /// Four Crockford base32 characters: the first part of the code, which the server knows.
    pub pairing_id: String,
    /// SHA-256 of the proof (base64 of 32 bytes).
    pub verifier: String,
    /// The library's key sealed with the code's key (base64).
    pub envelope: String,
    /// How long the code stays usable, in seconds (at most 900; default 600).
    #[serde(default, deserialize_with = "whole_or_null")]
    pub ttl_seconds: Option<i64>,
}

/// A pairing taken up.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Pair {
    pub pairing_id: String,
    /// The proof derived from the code (base64 of 32 bytes).
    pub proof: String,
    /// The new device's name, sealed (base64).
    pub device_name: String,
}

/// A whole number (`3.0` too, as JSON allows), or null.
fn whole_or_null<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    #[derive(Deserialize)]
    struct Whole(#[serde(deserialize_with = "crate::games::whole")] i64);
    Ok(Option::<Whole>::deserialize(d)?.map(|w| w.0))
}

fn storage(e: StoreError) -> ApiError {
    ApiError::storage(e.to_string())
}

fn decode(field: &str, text: &str, max: usize) -> Result<Vec<u8>, ApiError> {
    let bytes = B64
        .decode(text)
        .map_err(|_| ApiError::invalid("bad-blob", &format!("{field} is not base64")))?;
    if bytes.len() > max {
        return Err(ApiError::invalid(
            "blob-too-large",
            &format!("{field} is larger than {max} bytes"),
        ));
    }
    Ok(bytes)
}

fn hash32(field: &str, text: &str) -> Result<Hash, ApiError> {
    let bytes = decode(field, text, 32)?;
    <[u8; 32]>::try_from(bytes.as_slice())
        .map_err(|_| ApiError::invalid("bad-blob", &format!("{field} must be 32 bytes")))
}

/// A slot or entry name: 1 to 64 of `A-Z a-z 0-9 - _`.
fn name_ok(text: &str) -> bool {
    (1..=64).contains(&text.len())
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

fn pairing_id(text: &str) -> Result<String, ApiError> {
    let id = auth::normalize_code(text);
    if id.len() == 4 && id.bytes().all(|b| auth::CROCKFORD.contains(&b)) {
        Ok(id)
    } else {
        Err(ApiError::invalid(
            "bad-pairing-id",
            "a pairing id is 4 characters of Crockford base32",
        ))
    }
}

fn info(d: &StoredDevice) -> DeviceInfo {
    DeviceInfo {
        device_id: d.device_id.clone(),
        name: B64.encode(&d.name),
        linked_at: d.linked_at,
        unlinked_at: d.unlinked_at,
    }
}

/// A device's token checked: the library and the device it speaks for.
#[derive(Debug)]
pub struct Caller {
    pub library_id: String,
    pub device_id: String,
}

impl Libraries {
    /// The libraries kept in `store`.
    pub fn new(store: Arc<dyn Store>, clock: Clock) -> Libraries {
        Libraries { store, clock }
    }

    fn now(&self) -> i64 {
        (self.clock)()
    }

    /// The device a bearer token speaks for; refused once the device is unlinked.
    pub async fn authorize(&self, token: Option<&str>) -> Result<Caller, ApiError> {
        let token = token.ok_or_else(|| {
            ApiError::unauthorized("missing-token", "send Authorization: Bearer <token>")
        })?;
        let device = self
            .store
            .device(auth::hash(token))
            .await
            .map_err(storage)?
            .ok_or_else(|| ApiError::unauthorized("unknown-token", "this token is not valid"))?;
        if device.unlinked_at.is_some() {
            return Err(ApiError::unauthorized(
                "device-unlinked",
                "this device was unlinked from its library",
            ));
        }
        Ok(Caller {
            library_id: device.library_id,
            device_id: device.device_id,
        })
    }

    /// Starts a library with its first device.
    pub async fn create(&self, req: NewLibrary) -> Result<Entered, ApiError> {
        let name = decode("device_name", &req.device_name, MAX_SMALL_BLOB)?;
        let library_id = auth::new_game_id();
        let device_id = auth::new_game_id();
        let token = auth::new_token();
        let now = self.now();
        self.store
            .commit(vec![
                Write::Library {
                    id: library_id.clone(),
                    at: now,
                },
                Write::Device {
                    library_id: library_id.clone(),
                    device_id: device_id.clone(),
                    token_hash: auth::hash(&token),
                    name,
                    at: now,
                },
            ])
            .await
            .map_err(storage)?;
        Ok(Entered {
            library_id,
            device_id,
            token,
            envelope: None,
        })
    }

    /// The library's devices, linked and unlinked, and its newest change number.
    pub async fn describe(&self, caller: &Caller) -> Result<serde_json::Value, ApiError> {
        let devices = self
            .store
            .devices(&caller.library_id)
            .await
            .map_err(storage)?;
        let (_, seq) = self
            .store
            .entries(&caller.library_id, i64::MAX, 1)
            .await
            .map_err(storage)?;
        Ok(serde_json::json!({
            "library_id": caller.library_id,
            "device_id": caller.device_id,
            "seq": seq,
            "devices": devices.iter().map(info).collect::<Vec<_>>(),
        }))
    }

    /// Entries written after change `after`.
    pub async fn read(
        &self,
        caller: &Caller,
        after: i64,
        limit: Option<u32>,
    ) -> Result<serde_json::Value, ApiError> {
        if after < 0 {
            return Err(ApiError::invalid("bad-after", "after must be at least 0"));
        }
        let limit = limit
            .map_or(DEFAULT_READ, |l| l as usize)
            .clamp(1, MAX_READ);
        let (entries, seq) = self
            .store
            .entries(&caller.library_id, after, limit)
            .await
            .map_err(storage)?;
        let more = entries.len() == limit && entries.last().is_some_and(|e| e.seq < seq);
        let entries: Vec<EntryOut> = entries
            .into_iter()
            .map(|e| EntryOut {
                slot: e.slot,
                entry: e.entry,
                seq: e.seq,
                blob: B64.encode(e.blob),
            })
            .collect();
        Ok(serde_json::json!({ "entries": entries, "seq": seq, "more": more }))
    }

    /// Writes entries, all or none.
    pub async fn write(&self, caller: &Caller, req: WriteEntries) -> Result<usize, ApiError> {
        if req.entries.is_empty() || req.entries.len() > MAX_ENTRIES_PER_WRITE {
            return Err(ApiError::invalid(
                "bad-entries",
                &format!("send 1 to {MAX_ENTRIES_PER_WRITE} entries"),
            ));
        }
        let now = self.now();
        let mut writes = Vec::with_capacity(req.entries.len());
        let mut slots = std::collections::HashSet::new();
        for e in req.entries {
            if !name_ok(&e.slot)
                || !name_ok(&e.entry)
                || e.base.as_deref().is_some_and(|b| !name_ok(b))
            {
                return Err(ApiError::invalid(
                    "bad-entry",
                    "slot, entry and base are 1 to 64 of A-Z a-z 0-9 - _",
                ));
            }
            if !slots.insert(e.slot.clone()) {
                return Err(ApiError::invalid(
                    "bad-entries",
                    "each slot at most once per write",
                ));
            }
            writes.push(Write::Entry {
                library_id: caller.library_id.clone(),
                blob: decode("blob", &e.blob, MAX_BLOB)?,
                slot: e.slot,
                entry: e.entry,
                base: e.base,
                device_id: caller.device_id.clone(),
                at: now,
            });
        }
        let n = writes.len();
        match self.store.commit(writes).await {
            Ok(()) => Ok(n),
            Err(StoreError::Conflict(_)) => Err(ApiError::conflict(
                "entry-conflict",
                "a slot holds a newer entry than the one this write was based on; read and merge",
                None,
            )),
            Err(e) => Err(storage(e)),
        }
    }

    /// Offers a pairing for this device's library.
    pub async fn offer(&self, caller: &Caller, req: Offer) -> Result<i64, ApiError> {
        let id = pairing_id(&req.pairing_id)?;
        let verifier = hash32("verifier", &req.verifier)?;
        let envelope = decode("envelope", &req.envelope, MAX_SMALL_BLOB)?;
        let ttl = req.ttl_seconds.unwrap_or(DEFAULT_PAIRING_SECONDS);
        if !(1..=MAX_PAIRING_SECONDS).contains(&ttl) {
            return Err(ApiError::invalid(
                "bad-ttl",
                &format!("ttl_seconds is 1 to {MAX_PAIRING_SECONDS}"),
            ));
        }
        let now = self.now();
        let expires_at = now + ttl * 1000;
        let writes = vec![
            Write::ForgetPairings { at: now },
            Write::Pairing {
                id,
                library_id: caller.library_id.clone(),
                verifier,
                envelope,
                expires_at,
            },
        ];
        match self.store.commit(writes).await {
            Ok(()) => Ok(expires_at),
            Err(StoreError::Conflict(_)) => Err(ApiError::conflict(
                "pairing-id-taken",
                "another pairing uses this id; pick another code",
                None,
            )),
            Err(e) => Err(storage(e)),
        }
    }

    /// Takes up a pairing: the new device enters the library.
    pub async fn pair(&self, req: Pair) -> Result<Entered, ApiError> {
        let wrong = || {
            ApiError::not_found(
                "unknown-pairing",
                "no device offers this pairing code; check it, or make a new one",
            )
        };
        let id = pairing_id(&req.pairing_id)?;
        let proof = hash32("proof", &req.proof)?;
        let name = decode("device_name", &req.device_name, MAX_SMALL_BLOB)?;
        let now = self.now();
        let pairing = self
            .store
            .pairing(&id)
            .await
            .map_err(storage)?
            .ok_or_else(wrong)?;
        if pairing.expires_at <= now {
            return Err(ApiError::gone(
                "pairing-expired",
                "this pairing code has expired; make a new one",
            ));
        }
        if pairing.misses >= MAX_PAIRING_MISSES {
            return Err(wrong());
        }
        let proof_hash: Hash = {
            use sha2::Digest;
            sha2::Sha256::digest(proof).into()
        };
        if !auth::same(&proof_hash, &pairing.verifier) {
            self.store
                .commit(vec![
                    Write::MissPairing { id },
                    Write::ForgetPairings { at: now },
                ])
                .await
                .map_err(storage)?;
            return Err(wrong());
        }
        let linked = self
            .store
            .devices(&pairing.library_id)
            .await
            .map_err(storage)?
            .iter()
            .filter(|d| d.unlinked_at.is_none())
            .count();
        if linked >= MAX_DEVICES {
            return Err(ApiError::invalid(
                "too-many-devices",
                &format!("a library holds at most {MAX_DEVICES} linked devices; unlink one"),
            ));
        }
        let device_id = auth::new_game_id();
        let token = auth::new_token();
        let writes = vec![
            Write::UsePairing { id, at: now },
            Write::Device {
                library_id: pairing.library_id.clone(),
                device_id: device_id.clone(),
                token_hash: auth::hash(&token),
                name,
                at: now,
            },
        ];
        match self.store.commit(writes).await {
            Ok(()) => Ok(Entered {
                library_id: pairing.library_id,
                device_id,
                token,
                envelope: Some(B64.encode(pairing.envelope)),
            }),
            // Used by another device meanwhile, or expired in between.
            Err(StoreError::Conflict(_)) => Err(wrong()),
            Err(e) => Err(storage(e)),
        }
    }

    /// Unlinks a device of the caller's library (itself included).
    pub async fn unlink(&self, caller: &Caller, device_id: &str) -> Result<(), ApiError> {
        let write = Write::Unlink {
            library_id: caller.library_id.clone(),
            device_id: device_id.to_owned(),
            at: self.now(),
        };
        match self.store.commit(vec![write]).await {
            Ok(()) => Ok(()),
            Err(StoreError::Conflict(_)) => Err(ApiError::not_found(
                "unknown-device",
                "no linked device of this library has this id",
            )),
            Err(e) => Err(storage(e)),
        }
    }
}
