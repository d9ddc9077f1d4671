//! Secrets: seat tokens (128-bit random, kept only as SHA-256 hashes), invite codes (separate,
//! short, single use) and game ids.

use base64::Engine;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// A SHA-256 hash of a token or invite code: what the server stores and looks up.
pub type Hash = [u8; 32];

/// Returns `n` bytes from the operating system's random source.
fn random<const N: usize>() -> [u8; N] {
    let mut bytes = [0u8; N];
    // Failing to read the OS's random source leaves no safe way to go on.
    getrandom::fill(&mut bytes).expect("the operating system's random source works");
    bytes
}

/// Returns a uniform index below `n` from the operating system's CSPRNG: the server's dealer
/// and dice.
pub fn pick(n: usize) -> usize {
    qiguan_core::uniform_index(n, || u64::from_le_bytes(random::<8>()))
}

/// Returns a 256-bit seed from the operating system's CSPRNG: what a game's chance is drawn
/// from (see `qiguan_core::fair`).
pub fn random_seed() -> [u8; 32] {
    random::<32>()
}

/// Returns 64 bits from the operating system's CSPRNG: the choices of the server's computer
/// players.
pub fn seed() -> u64 {
    u64::from_le_bytes(random::<8>())
}

/// Makes a new seat token: 128 random bits, URL-safe base64 (22 characters).
pub fn new_token() -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(random::<16>())
}

/// Crockford's base32: no I, L, O or U, so codes read aloud and typed by hand survive.
pub const CROCKFORD: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/// Makes an invite code: 10 Crockford base32 characters (50 bits) shown as `ABCDE-FGHJK`.
/// Unguessable at the rate limits the server enforces, and used once.
pub fn new_invite_code() -> String {
    let bytes = random::<10>();
    let chars: String = bytes
        .iter()
        .map(|b| CROCKFORD[(b & 31) as usize] as char)
        .collect();
    format!("{}-{}", &chars[..5], &chars[5..])
}

/// Normalises a typed invite code: case, dashes and spaces ignored; O read as 0, I and L as 1.
pub fn normalize_code(code: &str) -> String {
    code.chars()
        .filter(|c| !matches!(c, '-' | ' ' | '\t'))
        .map(|c| match c.to_ascii_uppercase() {
            'O' => '0',
            'I' | 'L' => '1',
            other => other,
        })
        .collect()
}

/// Makes a game id: 12 lowercase base32 characters.
pub fn new_game_id() -> String {
    random::<12>()
        .iter()
        .map(|b| (CROCKFORD[(b & 31) as usize] as char).to_ascii_lowercase())
        .collect()
}

/// Hashes a secret for storage and lookup.
pub fn hash(secret: &str) -> Hash {
    Sha256::digest(secret.as_bytes()).into()
}

/// Compares two hashes in constant time.
pub fn same(a: &Hash, b: &Hash) -> bool {
    a.ct_eq(b).into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_and_codes_have_their_shapes_and_differ() {
        let (a, b) = (new_token(), new_token());
        assert_eq!(a.len(), 22);
        assert_ne!(a, b);
        let code = new_invite_code();
        assert_eq!(code.len(), 11);
        assert_eq!(&code[5..6], "-");
        assert!(
            code.chars()
                .all(|c| c == '-' || CROCKFORD.contains(&(c as u8)))
        );
        assert_eq!(new_game_id().len(), 12);
    }

    #[test]
    fn typed_codes_are_forgiving() {
        assert_eq!(normalize_code("abcde-fghjk"), "ABCDEFGHJK");
        assert_eq!(normalize_code(" o1il0 "), "01110");
        assert!(same(&hash("x"), &hash("x")));
        assert!(!same(&hash("x"), &hash("y")));
    }
}
