//! Provably fair chance: the authority commits to a secret seed before a game with chance
//! begins, every die and deal is derived from that seed together with the players' own random
//! contributions, and the seed is revealed when the game ends, so that anyone can check every
//! roll. The exact derivation is written down in `docs/protocol.md` ("Provably fair chance"):
//! keep the two in step.
//!
//! - The seed is 32 random bytes; the commitment is the SHA-256 of those bytes, in hex. The
//!   seed is 256 random bits, so the commitment tells nothing about it (and nothing about
//!   any roll), and the authority cannot find a second seed with the same commitment.
//! - Draw `d` (the game's `d`-th chance action, from 0) reads a stream of 64-bit words: block
//!   `b` of the stream is `SHA-256("qiguan-fair-1" ‖ seed ‖ u32(d) ‖ u32(k) ‖ (u32(len c) ‖ c)
//!   for each of the k contributions ‖ u32(b))`, every `u32` big-endian, and gives four words
//!   (its bytes 0–7, 8–15, 16–23, 24–31, each big-endian).
//! - A uniform number below `n` comes from [`crate::uniform_index`] (rejection, no modulo
//!   bias); a die is that below 6, plus one; a deal is the game's own Fisher–Yates shuffle.

use crate::game::Actor;
use crate::record::Record;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::fmt;

/// The name of this scheme, as records and views carry it.
pub const SCHEME: &str = "qiguan-fair-1";

/// The longest contribution a seat may send.
pub const CONTRIBUTION_MAX: usize = 64;

/// The authority's secret: the seed it committed to. Kept by the authority only (the server's
/// store, this device's database in pass-and-play) until the game is over.
#[derive(Clone, PartialEq, Eq)]
pub struct Dealer {
    seed: [u8; 32],
}

/// Never shows the seed: a dealer in a log must not give a game away.
impl fmt::Debug for Dealer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Dealer({})", self.commitment())
    }
}

impl Dealer {
    /// A dealer for this seed (32 bytes from the authority's CSPRNG).
    pub fn new(seed: [u8; 32]) -> Dealer {
        Dealer { seed }
    }

    /// Reads a seed written as 64 hex digits.
    pub fn from_hex(text: &str) -> Result<Dealer, String> {
        let bytes = from_hex(text).ok_or("a seed is 64 hex digits")?;
        let seed: [u8; 32] = bytes.try_into().map_err(|_| "a seed is 64 hex digits")?;
        Ok(Dealer { seed })
    }

    /// The seed as 64 lowercase hex digits: what the record reveals when the game ends.
    pub fn seed_hex(&self) -> String {
        hex(&self.seed)
    }

    /// The commitment: the seed's SHA-256, in hex. Shown to every seat from the start.
    pub fn commitment(&self) -> String {
        hex(&Sha256::digest(self.seed))
    }

    /// The stream of words for draw number `draw` with these contributions.
    pub fn stream(&self, draw: usize, contributions: &[String]) -> Stream {
        let mut prefix = Vec::with_capacity(64 + contributions.len() * 24);
        prefix.extend_from_slice(SCHEME.as_bytes());
        prefix.extend_from_slice(&self.seed);
        prefix.extend_from_slice(&(draw as u32).to_be_bytes());
        prefix.extend_from_slice(&(contributions.len() as u32).to_be_bytes());
        for c in contributions {
            prefix.extend_from_slice(&(c.len() as u32).to_be_bytes());
            prefix.extend_from_slice(c.as_bytes());
        }
        Stream {
            prefix,
            block: 0,
            words: [0; 4],
            used: 4,
        }
    }
}

/// The words one draw reads, block by block (see the module's description).
pub struct Stream {
    prefix: Vec<u8>,
    block: u32,
    words: [u64; 4],
    used: usize,
}

/// Never shows the seed inside the stream's prefix.
impl fmt::Debug for Stream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Stream(block {})", self.block)
    }
}

impl Stream {
    /// The next 64-bit word.
    pub fn word(&mut self) -> u64 {
        if self.used == 4 {
            let mut hasher = Sha256::new();
            hasher.update(&self.prefix);
            hasher.update(self.block.to_be_bytes());
            let digest = hasher.finalize();
            for (i, chunk) in digest.chunks(8).enumerate() {
                let mut word = [0u8; 8];
                word.copy_from_slice(chunk);
                self.words[i] = u64::from_be_bytes(word);
            }
            self.block += 1;
            self.used = 0;
        }
        self.used += 1;
        self.words[self.used - 1]
    }

    /// A uniform number below `n` (0 when `n` is 0 or 1, reading no word).
    pub fn below(&mut self, n: usize) -> usize {
        crate::uniform_index(n, || self.word())
    }
}

/// What a record and a view carry of the scheme: the commitment from the start, each draw's
/// contributions as it happens, and the seed once the game is over.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Fairness {
    /// [`SCHEME`].
    pub scheme: String,
    /// The SHA-256 of the seed, in hex.
    pub commitment: String,
    /// The seed, in hex: only once the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<String>,
    /// Every chance action so far, in order.
    #[serde(default)]
    pub draws: Vec<Draw>,
}

/// One chance action: where it stands in the record and what the seats contributed to it.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Draw {
    /// The action's index in the record.
    pub ply: usize,
    /// The contributions, in order: for a roll the rolling seat's; for a deal each seat's in
    /// seat order. A seat the authority's computer plays contributes the empty string.
    pub contributions: Vec<String>,
}

impl Fairness {
    /// The scheme as it stands before any draw.
    pub fn committed(commitment: String) -> Fairness {
        Fairness {
            scheme: SCHEME.into(),
            commitment,
            seed: None,
            draws: Vec::new(),
        }
    }

    /// Whether this contribution was already used in one of the game's draws.
    pub fn used(&self, contribution: &str) -> bool {
        self.draws
            .iter()
            .any(|d| d.contributions.iter().any(|c| c == contribution))
    }
}

/// Says what is wrong with a seat's contribution, if anything: 1 to [`CONTRIBUTION_MAX`]
/// characters from `A–Z a–z 0–9 - _` (22 characters of URL-safe base64 hold 128 random bits).
pub fn contribution_problem(text: &str) -> Option<&'static str> {
    if text.is_empty() {
        return Some("send a contribution: your own random value for this chance");
    }
    if text.len() > CONTRIBUTION_MAX
        || !text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    {
        return Some("a contribution is 1 to 64 characters from A-Z a-z 0-9 - _");
    }
    None
}

/// What checking a record's chance came to.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Verdict {
    /// The game has no chance actions and no commitment: nothing to check.
    NoChance,
    /// Chance actions without a commitment: a game stored before the scheme.
    Unverifiable,
    /// The game goes on: the seed is not revealed yet. `draws` so far.
    Pending {
        /// Draws so far.
        draws: usize,
    },
    /// Every draw came out of the revealed seed and the contributions.
    Checked {
        /// How many.
        draws: usize,
    },
    /// Something does not check out.
    Failed(Failure),
}

/// Which draw failed and why.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Failure {
    /// The draw's number, from 1, when one draw is at fault.
    pub draw: Option<usize>,
    /// Its index in the record's actions.
    pub ply: Option<usize>,
    /// What is wrong, in English.
    pub what: String,
}

impl Failure {
    fn whole(what: impl Into<String>) -> Verdict {
        Verdict::Failed(Failure {
            draw: None,
            ply: None,
            what: what.into(),
        })
    }
}

/// Checks every chance action of a record against its revealed seed: the commitment, that
/// every authority action has its draw and every draw its action, and that each recorded
/// result is the one the seed and contributions give.
pub fn verify(record: &Record) -> Verdict {
    let chance_plies: Vec<usize> = record
        .actions
        .iter()
        .enumerate()
        .filter(|(_, e)| e.by == Actor::Authority)
        .map(|(i, _)| i)
        .collect();
    let Some(fair) = &record.fair else {
        return if chance_plies.is_empty() {
            Verdict::NoChance
        } else {
            Verdict::Unverifiable
        };
    };
    if fair.scheme != SCHEME {
        return Failure::whole(format!("unknown scheme {:?}", fair.scheme));
    }
    let Some(seed) = &fair.seed else {
        return Verdict::Pending {
            draws: fair.draws.len(),
        };
    };
    let Ok(dealer) = Dealer::from_hex(seed) else {
        return Failure::whole("the revealed seed is not 64 hex digits");
    };
    if dealer.commitment() != fair.commitment {
        return Failure::whole("the revealed seed is not the one committed to at the start");
    }
    for (i, ply) in chance_plies.iter().enumerate() {
        if fair.draws.get(i).map(|d| d.ply) != Some(*ply) {
            return Verdict::Failed(Failure {
                draw: Some(i + 1),
                ply: Some(*ply),
                what: format!("the chance action at {} has no proof", ply + 1),
            });
        }
    }
    if let Some(extra) = fair.draws.get(chance_plies.len()) {
        return Verdict::Failed(Failure {
            draw: Some(chance_plies.len() + 1),
            ply: Some(extra.ply),
            what: "a proof for an action the authority did not take".into(),
        });
    }
    match crate::AnyMatch::check_draws(record, &dealer) {
        Ok(()) => Verdict::Checked {
            draws: chance_plies.len(),
        },
        Err(failure) => Verdict::Failed(failure),
    }
}

/// The failure for draw `draw` (from 0) at `ply`.
pub(crate) fn mismatch(draw: usize, ply: usize, recorded: &str, derived: &str) -> Failure {
    Failure {
        draw: Some(draw + 1),
        ply: Some(ply),
        what: format!("recorded {recorded}, but the seed gives {derived}"),
    }
}

/// The failure for a record that does not replay.
pub(crate) fn unplayable(ply: usize, why: impl fmt::Display) -> Failure {
    Failure {
        draw: None,
        ply: Some(ply),
        what: format!("action {} does not replay: {why}", ply + 1),
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn from_hex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_is_the_documented_hash() {
        // docs/protocol.md's worked example: seed 00 01 … 1f, draw 0, one contribution "abc".
        let seed: [u8; 32] = std::array::from_fn(|i| i as u8);
        let dealer = Dealer::new(seed);
        let mut stream = dealer.stream(0, &["abc".into()]);
        let mut input = b"qiguan-fair-1".to_vec();
        input.extend_from_slice(&seed);
        input.extend_from_slice(&[0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 3]);
        input.extend_from_slice(b"abc");
        input.extend_from_slice(&[0, 0, 0, 0]);
        let block = Sha256::digest(&input);
        let first = u64::from_be_bytes(block[..8].try_into().unwrap_or_default());
        assert_eq!(stream.word(), first);
        assert_eq!(dealer.commitment(), hex(&Sha256::digest(seed)));
        assert_eq!(Dealer::from_hex(&dealer.seed_hex()), Ok(dealer.clone()));
        assert!(!format!("{dealer:?}").contains(&dealer.seed_hex()));
    }

    #[test]
    fn contributions_are_checked() {
        assert!(contribution_problem("").is_some());
        assert!(contribution_problem("a b").is_some());
        assert!(contribution_problem(&"a".repeat(65)).is_some());
        assert_eq!(contribution_problem("Ab-_09"), None);
    }

    #[test]
    fn dice_over_ten_thousand_rolls_pass_a_chi_square_test() {
        // Independent seeds and contributions, as games have: df 5, p = 0.001 at 20.52.
        let mut counts = [0f64; 6];
        for i in 0..10_000u32 {
            let seed: [u8; 32] = Sha256::digest(i.to_be_bytes()).into();
            let contribution = format!("c{i}");
            let die = Dealer::new(seed)
                .stream(i as usize % 300, &[contribution])
                .below(6);
            counts[die] += 1.0;
        }
        let chi2: f64 = counts
            .iter()
            .map(|c| (c - 10_000.0 / 6.0).powi(2))
            .sum::<f64>()
            / (10_000.0 / 6.0);
        assert!(chi2 < 20.52, "χ² {chi2} over {counts:?}");
    }

    use crate::aeroplane::{Aeroplane, AeroplaneOptions};
    use crate::junqi::state::{Junqi, JunqiOptions, Visibility};
    use crate::{Action, Match, Seat, ToAct};

    fn dealer(n: u32) -> Dealer {
        Dealer::new(Sha256::digest(n.to_be_bytes()).into())
    }

    fn flip_deal(n: u32) -> String {
        let options = JunqiOptions {
            visibility: Visibility::Flip,
            ..JunqiOptions::default()
        };
        let mut game: Match<Junqi> = Match::new(&options, None).unwrap_or_else(|e| panic!("{e}"));
        game.deal_with(dealer(n)).unwrap_or_else(|e| panic!("{e}"));
        let dealt = game
            .resolve_chance_fairly(&[format!("a{n}"), format!("b{n}")])
            .unwrap_or_else(|e| panic!("{e}"));
        dealt[0].action.clone()
    }

    /// An Aeroplane game of two seats played by always taking the first legal action, with
    /// the dealer's dice, until `rolls` rolls or the end.
    fn aeroplane(rolls: usize) -> Match<Aeroplane> {
        let mut game: Match<Aeroplane> =
            Match::new(&AeroplaneOptions::default(), None).unwrap_or_else(|e| panic!("{e}"));
        game.deal_with(dealer(7)).unwrap_or_else(|e| panic!("{e}"));
        let mut n = 0;
        while let ToAct::Seat(seat) = game.to_act() {
            let Some(action) = game.legal_actions(Actor::Seat(seat)).into_iter().next() else {
                break;
            };
            let roll = action.to_string() == "roll";
            game.apply(Actor::Seat(seat), &action)
                .unwrap_or_else(|e| panic!("{e}"));
            if roll {
                n += 1;
                game.resolve_chance_fairly(&[format!("roll{n}")])
                    .unwrap_or_else(|e| panic!("{e}"));
                if n == rolls {
                    break;
                }
            }
        }
        game
    }

    #[test]
    fn a_deal_is_the_documented_shuffle_of_the_documented_list() {
        // docs/protocol.md: the list before shuffling, then Fisher–Yates from the last place.
        let side = "1 2 3 3 4 4 5 5 6 6 7 7 7 8 8 8 9 9 9 B B L L L F";
        let mut pieces: Vec<String> = side
            .split(' ')
            .map(|p| format!("s{p}"))
            .chain(side.split(' ').map(|p| format!("n{p}")))
            .collect();
        let mut stream = dealer(1).stream(0, &["a1".into(), "b1".into()]);
        for i in (1..pieces.len()).rev() {
            let j = stream.below(i + 1);
            pieces.swap(i, j);
        }
        assert_eq!(flip_deal(1), format!("deal:{}", pieces.concat()));
    }

    #[test]
    fn deals_place_each_piece_uniformly() {
        // Where South's flag lands over 3,000 deals: 50 places, χ² df 49, p = 0.001 at 85.35.
        let deals = 3000;
        let mut counts = [0f64; 50];
        for n in 0..deals {
            let deal = flip_deal(n);
            let tokens: Vec<&str> = deal.as_bytes()["deal:".len()..]
                .chunks(2)
                .map(|c| std::str::from_utf8(c).unwrap_or_default())
                .collect();
            let place = tokens.iter().position(|t| *t == "sF").unwrap_or(0);
            counts[place] += 1.0;
        }
        let expected = deals as f64 / 50.0;
        let chi2: f64 = counts
            .iter()
            .map(|c| (c - expected).powi(2) / expected)
            .sum();
        assert!(chi2 < 85.35, "χ² {chi2} over {counts:?}");
    }

    #[test]
    fn a_take_back_keeps_the_dealer_and_drops_the_draws_taken_back() {
        let game = aeroplane(6);
        let draws = |m: &Match<Aeroplane>| m.fairness().map_or(0, |f| f.draws.len());
        assert_eq!(draws(&game), 6);
        // Back to just after the third roll's request: three draws remain.
        let third = game.fairness().map_or(0, |f| f.draws[3].ply);
        let mut back = game.rewound(third).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(draws(&back), 3);
        assert_eq!(back.to_act(), ToAct::Chance);
        // Still this device's to deal: the roll is drawn again from the same seed.
        back.resolve_chance_fairly(&["again".into()])
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(draws(&back), 4);
        assert_eq!(
            back.fairness().map(|f| f.commitment),
            game.fairness().map(|f| f.commitment)
        );
    }

    #[test]
    fn a_finished_game_checks_and_a_changed_roll_does_not() {
        let mut game = aeroplane(40);
        let pending = verify(&game.record());
        assert_eq!(pending, Verdict::Pending { draws: 40 });
        // Resigning ends the game: the authority's record now reveals its seed.
        let seat = match game.to_act() {
            ToAct::Seat(seat) => seat,
            _ => Seat::FIRST,
        };
        game.apply(Actor::Seat(seat), &Action::Resign)
            .unwrap_or_else(|e| panic!("{e}"));
        let record = game.record();
        assert_eq!(verify(&record), Verdict::Checked { draws: 40 });
        // The record round-trips through JSON, as the app and the checker script read it.
        let read = Record::from_json(&record.to_json()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(verify(&read), Verdict::Checked { draws: 40 });

        // One roll changed: that draw fails, by number.
        let mut tampered = record.clone();
        let ply = tampered.fair.as_ref().map_or(0, |f| f.draws[9].ply);
        let was = tampered.actions[ply].action.clone();
        tampered.actions[ply].action = if was == "d6" {
            "d5".into()
        } else {
            "d6".into()
        };
        match verify(&tampered) {
            Verdict::Failed(f) => assert_eq!((f.draw, f.ply), (Some(10), Some(ply)), "{f:?}"),
            other => panic!("a changed roll checked: {other:?}"),
        }
        // Another seed than the one committed to.
        let mut other = record.clone();
        if let Some(f) = &mut other.fair {
            f.seed = Some(dealer(8).seed_hex());
        }
        assert!(matches!(verify(&other), Verdict::Failed(_)));
        // A draw left out.
        let mut missing = record.clone();
        if let Some(f) = &mut missing.fair {
            f.draws.remove(3);
        }
        assert!(matches!(verify(&missing), Verdict::Failed(_)));
        // A game from before the scheme.
        let mut older = record;
        older.fair = None;
        assert_eq!(verify(&older), Verdict::Unverifiable);
    }
}
