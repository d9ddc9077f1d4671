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

/// 32 bytes from the operating system's randomness: the seed this device commits to when it is
/// the authority of a game with chance (see `qiguan_core::fair`).
pub fn chance_seed() -> [u8; 32] {
    let mut seed = [0u8; 32];
    for chunk in seed.chunks_mut(8) {
        chunk.copy_from_slice(&random_seed().to_le_bytes());
    }
    seed
}

/// A player's contribution to a roll or deal this device draws for them: 128 random bits as
/// 32 hex digits.
pub fn contribution() -> String {
    format!("{:016x}{:016x}", random_seed(), random_seed())
}

/// Plays every chance action now due in a game this device is the authority of: from its
/// committed seed and `contributions` where it has one (a game stored before fair chance
/// has none and rolls from the operating system's randomness, as it did).
pub fn resolve_chance<G: qiguan_core::Rules>(
    game: &mut qiguan_core::Match<G>,
    contributions: &[String],
) -> Result<Vec<qiguan_core::RecordEntry>, qiguan_core::ActionError> {
    if game.fairness().is_some() {
        game.resolve_chance_fairly(contributions)
    } else {
        game.resolve_chance(&mut os_pick)
    }
}
