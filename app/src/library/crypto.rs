//! The library's cryptography, all from RustCrypto's crates: nothing here is made up.
//!
//! - The library key: 256 random bits from the operating system, made on the first device.
//! - Two subkeys by HKDF-SHA-256: one seals entries, one names slots.
//! - An entry is sealed with XChaCha20-Poly1305 under a random 192-bit nonce (random nonces of
//!   that size never repeat in practice), authenticated together with the library, slot and
//!   entry it belongs to: the server cannot move a blob to another slot or library unseen.
//! - A slot's name is HMAC-SHA-256 of what it holds (`g:<game uid>`, `s:<setting>`) under the
//!   naming key, cut to 128 bits: the server can tell two writes of one slot apart from two
//!   slots, and nothing more.
//! - A pairing code (12 Crockford base32 characters, 60 bits) is stretched with Argon2id
//!   (19 MiB, 2 passes: OWASP's minimum) into a sealing key and a proof. The server keeps the
//!   proof's SHA-256 and the library key sealed with the sealing key; the code itself and the
//!   proof's preimage never reach it before the joining device sends the proof.

use argon2::{Algorithm, Argon2, Params, Version};
use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

/// A library key.
pub type Key = [u8; 32];

const NONCE: usize = 24;
const LABEL: &str = "qiguan-library-v1";

/// Bytes from the operating system's random source. Without one there is no safe key or
/// nonce: the caller reports the error and nothing is sealed.
pub fn random<const N: usize>() -> Result<[u8; N], String> {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes).map_err(|e| format!("no randomness from the system: {e}"))?;
    Ok(bytes)
}

/// Why a blob could not be opened.
#[derive(Debug, PartialEq, Eq)]
pub struct Unsealed;

impl std::fmt::Display for Unsealed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the data does not open with this library's key (damaged or not ours)")
    }
}

fn subkey(key: &Key, what: &str) -> Key {
    let mut out = [0u8; 32];
    hkdf::Hkdf::<Sha256>::new(None, key)
        .expand(format!("{LABEL} {what}").as_bytes(), &mut out)
        // 32 bytes is far below HKDF-SHA-256's limit of 8160.
        .unwrap_or_default();
    out
}

fn seal_with(key: &Key, aad: &[u8], plain: &[u8]) -> Result<Vec<u8>, String> {
    let nonce = random::<NONCE>()?;
    let cipher = XChaCha20Poly1305::new(&(*key).into());
    let sealed = cipher
        .encrypt(&XNonce::from(nonce), Payload { msg: plain, aad })
        .map_err(|_| "sealing failed".to_owned())?;
    let mut out = Vec::with_capacity(NONCE + sealed.len());
    out.extend_from_slice(&nonce);
    out.extend_from_slice(&sealed);
    Ok(out)
}

fn open_with(key: &Key, aad: &[u8], blob: &[u8]) -> Result<Vec<u8>, Unsealed> {
    if blob.len() < NONCE {
        return Err(Unsealed);
    }
    let (nonce, sealed) = blob.split_at(NONCE);
    let nonce: [u8; NONCE] = nonce.try_into().map_err(|_| Unsealed)?;
    XChaCha20Poly1305::new(&(*key).into())
        .decrypt(&XNonce::from(nonce), Payload { msg: sealed, aad })
        .map_err(|_| Unsealed)
}

/// A library's keys, derived from its key.
#[derive(Clone)]
pub struct Keys {
    seal: Key,
    names: Key,
}

impl std::fmt::Debug for Keys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Keys(..)")
    }
}

impl Keys {
    /// The subkeys of a library key.
    pub fn new(key: &Key) -> Keys {
        Keys {
            seal: subkey(key, "seal"),
            names: subkey(key, "names"),
        }
    }

    /// The slot that holds `item`: 32 hex digits.
    pub fn slot(&self, item: &str) -> String {
        let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(&self.names)
            .expect("HMAC takes a key of any length");
        mac.update(item.as_bytes());
        hex(&mac.finalize().into_bytes()[..16])
    }

    fn entry_aad(library: &str, slot: &str, entry: &str) -> Vec<u8> {
        format!("{LABEL}|{library}|{slot}|{entry}").into_bytes()
    }

    /// Seals an entry of `slot` in `library`.
    pub fn seal_entry(
        &self,
        library: &str,
        slot: &str,
        entry: &str,
        plain: &[u8],
    ) -> Result<Vec<u8>, String> {
        seal_with(&self.seal, &Self::entry_aad(library, slot, entry), plain)
    }

    /// Opens an entry, which must have been sealed for this library, slot and entry id.
    pub fn open_entry(
        &self,
        library: &str,
        slot: &str,
        entry: &str,
        blob: &[u8],
    ) -> Result<Vec<u8>, Unsealed> {
        open_with(&self.seal, &Self::entry_aad(library, slot, entry), blob)
    }

    /// Seals a device's name (as the first device gives it when it starts the library).
    pub fn seal_name(&self, name: &str) -> Result<Vec<u8>, String> {
        seal_with(
            &self.seal,
            format!("{LABEL}|device").as_bytes(),
            name.as_bytes(),
        )
    }

    /// Opens a device's name.
    pub fn open_name(&self, blob: &[u8]) -> Result<String, Unsealed> {
        let plain = open_with(&self.seal, format!("{LABEL}|device").as_bytes(), blob)?;
        String::from_utf8(plain).map_err(|_| Unsealed)
    }
}

/// Lower-case hex.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Crockford's base32, as the server's codes use.
const CROCKFORD: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/// Characters in a pairing code; the first [`PAIRING_ID_LEN`] are its id, which the server sees.
pub const PAIRING_CODE_LEN: usize = 12;
/// Characters of the pairing id.
pub const PAIRING_ID_LEN: usize = 4;

/// A fresh pairing code, as typed: `ABCD-EFGH-JKMN`.
pub fn new_pairing_code() -> Result<String, String> {
    let bytes = random::<PAIRING_CODE_LEN>()?;
    let chars: String = bytes
        .iter()
        .map(|b| CROCKFORD[usize::from(b & 31)] as char)
        .collect();
    Ok(format!("{}-{}-{}", &chars[..4], &chars[4..8], &chars[8..]))
}

/// A typed code in its one spelling: case, spaces and dashes ignored, O read as 0, I and L as
/// 1; `None` unless it is 12 characters of Crockford base32.
pub fn normalize_code(typed: &str) -> Option<String> {
    let code: String = typed
        .chars()
        .filter(|c| !matches!(c, '-' | ' ' | '\t'))
        .map(|c| match c.to_ascii_uppercase() {
            'O' => '0',
            'I' | 'L' => '1',
            other => other,
        })
        .collect();
    (code.len() == PAIRING_CODE_LEN && code.bytes().all(|b| CROCKFORD.contains(&b))).then_some(code)
}

/// What a pairing code gives: the key that seals the library key, and the proof.
pub struct Stretched {
    /// Seals the library key for the trip through the server.
    pub seal: Key,
    /// Sent by the joining device; the server keeps only its SHA-256.
    pub proof: [u8; 32],
}

impl std::fmt::Debug for Stretched {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Stretched(..)")
    }
}

impl Stretched {
    /// Stretches a normalized code (see [`normalize_code`]) with Argon2id.
    pub fn from_code(code: &str) -> Result<Stretched, String> {
        let id = &code[..PAIRING_ID_LEN.min(code.len())];
        let salt = Sha256::digest(format!("{LABEL} pairing {id}").as_bytes());
        let params = Params::new(
            Params::DEFAULT_M_COST,
            Params::DEFAULT_T_COST,
            Params::DEFAULT_P_COST,
            Some(64),
        )
        .map_err(|e| e.to_string())?;
        let mut out = [0u8; 64];
        Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
            .hash_password_into(code.as_bytes(), &salt[..16], &mut out)
            .map_err(|e| e.to_string())?;
        let mut seal = [0u8; 32];
        let mut proof = [0u8; 32];
        seal.copy_from_slice(&out[..32]);
        proof.copy_from_slice(&out[32..]);
        Ok(Stretched { seal, proof })
    }

    /// SHA-256 of the proof: what the offering device gives the server.
    pub fn verifier(&self) -> [u8; 32] {
        Sha256::digest(self.proof).into()
    }

    /// Seals what the joining device needs (the library key and where it lives).
    pub fn seal(&self, plain: &[u8]) -> Result<Vec<u8>, String> {
        seal_with(&self.seal, format!("{LABEL}|pairing").as_bytes(), plain)
    }

    /// Opens it on the joining device.
    pub fn open(&self, blob: &[u8]) -> Result<Vec<u8>, Unsealed> {
        open_with(&self.seal, format!("{LABEL}|pairing").as_bytes(), blob)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_opens_only_with_its_key_library_slot_and_id() {
        let keys = Keys::new(&[1; 32]);
        let blob = keys.seal_entry("lib", "slot", "e1", b"a game").unwrap();
        assert_eq!(
            keys.open_entry("lib", "slot", "e1", &blob).unwrap(),
            b"a game"
        );
        assert!(
            !blob.windows(6).any(|w| w == b"a game"),
            "the text is not in the blob"
        );
        for (lib, slot, entry) in [
            ("other", "slot", "e1"),
            ("lib", "s2", "e1"),
            ("lib", "slot", "e2"),
        ] {
            assert_eq!(keys.open_entry(lib, slot, entry, &blob), Err(Unsealed));
        }
        assert_eq!(
            Keys::new(&[2; 32]).open_entry("lib", "slot", "e1", &blob),
            Err(Unsealed)
        );
        let mut bent = blob.clone();
        let last = bent.len() - 1;
        bent[last] ^= 1;
        assert_eq!(keys.open_entry("lib", "slot", "e1", &bent), Err(Unsealed));
        // A fresh nonce every time: the same text seals differently.
        assert_ne!(
            blob,
            keys.seal_entry("lib", "slot", "e1", b"a game").unwrap()
        );
    }

    #[test]
    fn slot_names_are_stable_per_key_and_say_nothing() {
        let keys = Keys::new(&[1; 32]);
        assert_eq!(keys.slot("g:abc"), keys.slot("g:abc"));
        assert_ne!(keys.slot("g:abc"), keys.slot("g:abd"));
        assert_ne!(keys.slot("g:abc"), Keys::new(&[2; 32]).slot("g:abc"));
        assert_eq!(keys.slot("g:abc").len(), 32);
    }

    #[test]
    fn pairing_codes_are_typed_forgivingly_and_stretch_the_same_on_both_devices() {
        let code = new_pairing_code().unwrap();
        assert_eq!(code.len(), 14);
        let typed = code.to_lowercase().replace('-', " ");
        let normal = normalize_code(&typed).unwrap();
        assert_eq!(normal, code.replace('-', ""));
        assert_eq!(
            normalize_code("abcd-efgh-jkmo").as_deref(),
            Some("ABCDEFGHJKM0")
        );
        assert_eq!(normalize_code("abcd-efgh-jkm"), None);
        assert_eq!(normalize_code("abcd-efgh-jkmu"), None);

        let offered = Stretched::from_code(&normal).unwrap();
        let joined = Stretched::from_code(&normal).unwrap();
        assert_eq!(offered.proof, joined.proof);
        let envelope = offered.seal(b"the library key").unwrap();
        assert_eq!(joined.open(&envelope).unwrap(), b"the library key");
        let wrong = Stretched::from_code("ABCDEFGHJKMN").unwrap();
        assert_ne!(wrong.proof, offered.proof);
        assert_eq!(wrong.open(&envelope), Err(Unsealed));
    }
}
