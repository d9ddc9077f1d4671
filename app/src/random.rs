//! This device's randomness, for when it is the authority: the deal, the dice, and the computer
//! players' choices.

/// A uniform index below `n` from the operating system's randomness: this device deals.
pub fn os_pick(n: usize) -> usize {
    qiguan_core::uniform_index(n, random_seed)
}

/// 64 random bits for the dealer and the computer player's choices.
pub fn random_seed() -> u64 {
    let mut bytes = [0u8; 8];
    if getrandom::fill(&mut bytes).is_err() {
        // The OS's randomness is missing: the clock still varies the deal.
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        return nanos ^ 0x9e37_79b9_7f4a_7c15;
    }
    u64::from_le_bytes(bytes)
}
