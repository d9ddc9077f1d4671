//! [`AnyMatch`]: one runtime type over every game, for the app and the server.

use crate::aeroplane::Aeroplane;
use crate::aeroplane::bot::{self, Strength};
use crate::game::{Actor, GameKind, Outcome, Rules, SetupError, ToAct, Viewer};
use crate::junqi::Junqi;
use crate::matches::{ActionError, Match};
use crate::record::{Record, RecordEntry, RecordError};
use crate::sealandair::SeaLandAir;
use crate::seat::Seat;
use crate::xiangqi::Xiangqi;

/// A match of any game. Everything crosses this boundary as text or JSON, so code that
/// stores or sends games need not know which game it holds.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum AnyMatch {
    /// A Xiangqi match.
    Xiangqi(Match<Xiangqi>),
    /// A Junqi match.
    Junqi(Match<Junqi>),
    /// An Aeroplane chess match.
    Aeroplane(Match<Aeroplane>),
    /// A Sea-land-air battle chess match.
    SeaLandAir(Match<SeaLandAir>),
}

/// Runs the same expression on whichever match is inside.
macro_rules! each {
    ($value:expr, $m:ident => $body:expr) => {
        match $value {
            AnyMatch::Xiangqi($m) => $body,
            AnyMatch::Junqi($m) => $body,
            AnyMatch::Aeroplane($m) => $body,
            AnyMatch::SeaLandAir($m) => $body,
        }
    };
}

impl AnyMatch {
    /// Starts a match of this game from JSON options and setup (`null` for the defaults).
    pub fn new(
        game: GameKind,
        options: &serde_json::Value,
        setup: &serde_json::Value,
    ) -> Result<Self, SetupError> {
        fn decode<T: serde::de::DeserializeOwned>(
            v: &serde_json::Value,
            what: &str,
        ) -> Result<Option<T>, SetupError> {
            if v.is_null() {
                return Ok(None);
            }
            serde_json::from_value(v.clone())
                .map(Some)
                .map_err(|e| SetupError {
                    problems: vec![format!("bad {what}: {e}")],
                })
        }
        match game {
            GameKind::Xiangqi => {
                let options = decode(options, "options")?.unwrap_or_default();
                let setup = decode(setup, "setup")?;
                Ok(AnyMatch::Xiangqi(Match::new(&options, setup.as_ref())?))
            }
            GameKind::Junqi => {
                let options = decode(options, "options")?.unwrap_or_default();
                let setup = decode(setup, "setup")?;
                Ok(AnyMatch::Junqi(Match::new(&options, setup.as_ref())?))
            }
            GameKind::Aeroplane => {
                let options = decode(options, "options")?.unwrap_or_default();
                let setup = decode(setup, "setup")?;
                Ok(AnyMatch::Aeroplane(Match::new(&options, setup.as_ref())?))
            }
            GameKind::SeaLandAir => {
                let options = decode(options, "options")?.unwrap_or_default();
                let setup = decode(setup, "setup")?;
                Ok(AnyMatch::SeaLandAir(Match::new(&options, setup.as_ref())?))
            }
        }
    }

    /// Replays a record of any game.
    pub fn from_record(record: &Record) -> Result<Self, RecordError> {
        match record.game {
            GameKind::Xiangqi => Ok(AnyMatch::Xiangqi(Match::from_record(record)?)),
            GameKind::Junqi => Ok(AnyMatch::Junqi(Match::from_record(record)?)),
            GameKind::Aeroplane => Ok(AnyMatch::Aeroplane(Match::from_record(record)?)),
            GameKind::SeaLandAir => Ok(AnyMatch::SeaLandAir(Match::from_record(record)?)),
        }
    }

    /// Returns which game this is.
    pub fn kind(&self) -> GameKind {
        match self {
            AnyMatch::Xiangqi(_) => GameKind::Xiangqi,
            AnyMatch::Junqi(_) => GameKind::Junqi,
            AnyMatch::Aeroplane(_) => GameKind::Aeroplane,
            AnyMatch::SeaLandAir(_) => GameKind::SeaLandAir,
        }
    }

    /// Returns the actions as `viewer` may see them, if the game lets them be shown.
    pub fn actions_seen_by(&self, viewer: Viewer) -> Option<Vec<RecordEntry>> {
        each!(self, m => m.actions_seen_by(viewer).map(<[RecordEntry]>::to_vec))
    }

    /// Returns the outcome, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        each!(self, m => m.outcome())
    }

    /// Returns how many seats the game has.
    pub fn seat_count(&self) -> usize {
        each!(self, m => m.game().seat_count())
    }

    /// Returns how many actions have been applied.
    pub fn version(&self) -> usize {
        each!(self, m => m.version())
    }

    /// Returns who must act next, or the outcome.
    pub fn to_act(&self) -> ToAct {
        each!(self, m => m.to_act())
    }

    /// Lists the actions this actor may take, in their text form.
    pub fn legal_actions(&self, actor: Actor) -> Vec<String> {
        each!(self, m => m.legal_actions(actor).iter().map(|a| a.to_string()).collect())
    }

    /// Parses and applies an action. A refused action changes nothing.
    pub fn apply_text(&mut self, actor: Actor, action: &str) -> Result<(), ActionError> {
        each!(self, m => m.apply_text(actor, action).map(|_| ()))
    }

    /// Plays every authority action now due (a deal, a die), drawing with `pick`, and returns
    /// the record entries added.
    pub fn resolve_chance(
        &mut self,
        pick: &mut dyn FnMut(usize) -> usize,
    ) -> Result<Vec<RecordEntry>, ActionError> {
        each!(self, m => m.resolve_chance(pick))
    }

    /// Makes the match deal its chance from `dealer` (see [`Match::deal_with`]).
    pub fn deal_with(&mut self, dealer: crate::fair::Dealer) -> Result<(), String> {
        each!(self, m => m.deal_with(dealer))
    }

    /// Plays every authority action now due from the dealer's seed and these contributions
    /// (see [`Match::resolve_chance_fairly`]).
    pub fn resolve_chance_fairly(
        &mut self,
        contributions: &[String],
    ) -> Result<Vec<RecordEntry>, ActionError> {
        each!(self, m => m.resolve_chance_fairly(contributions))
    }

    /// Applies a chance action drawn before with these contributions (see
    /// [`Match::apply_drawn`]).
    pub fn apply_drawn(
        &mut self,
        text: &str,
        contributions: Vec<String>,
    ) -> Result<(), ActionError> {
        each!(self, m => m.apply_drawn(text, contributions))
    }

    /// Whether the authority resolves chance in this game (dice, a flip-mode deal): such a game
    /// commits to a seed when it is created.
    pub fn has_chance(&self) -> bool {
        each!(self, m => m.game().has_chance())
    }

    /// The scheme's public part (see [`Match::fairness`]).
    pub fn fairness(&self) -> Option<crate::fair::Fairness> {
        each!(self, m => m.fairness())
    }

    /// Checks a record's chance actions against `dealer`, replaying it as its own game.
    pub(crate) fn check_draws(
        record: &Record,
        dealer: &crate::fair::Dealer,
    ) -> Result<(), crate::fair::Failure> {
        match record.game {
            GameKind::Xiangqi => Match::<Xiangqi>::check_draws(record, dealer),
            GameKind::Junqi => Match::<Junqi>::check_draws(record, dealer),
            GameKind::Aeroplane => Match::<Aeroplane>::check_draws(record, dealer),
            GameKind::SeaLandAir => Match::<SeaLandAir>::check_draws(record, dealer),
        }
    }

    /// Whether the authority can fill seats of this game with computer players.
    pub fn has_computer_players(kind: GameKind) -> bool {
        matches!(
            kind,
            GameKind::Aeroplane | GameKind::Xiangqi | GameKind::Junqi | GameKind::SeaLandAir
        )
    }

    /// Whether this game's computer players come at `strength`: Aeroplane chess's at easy
    /// or strong; Xiangqi's engine at any of its levels (the other names stand for levels,
    /// see [`Strength::engine_level`]); Junqi's and Sea-land-air's at easy, normal or hard
    /// (strong, as stored before those existed, plays as easy).
    pub fn computer_plays_at(kind: GameKind, strength: Strength) -> bool {
        match kind {
            GameKind::Aeroplane => matches!(strength, Strength::Easy | Strength::Strong),
            GameKind::Xiangqi => true,
            GameKind::Junqi | GameKind::SeaLandAir => !matches!(strength, Strength::Level(_)),
        }
    }

    /// The computer's action for `seat`, in text form, when that seat must act and this game
    /// has computer players (see [`AnyMatch::has_computer_players`]). The computer decides from
    /// the seat's own view; `seed` gives its choices their chance.
    pub fn computer_action(&self, seat: Seat, strength: Strength, seed: u64) -> Option<String> {
        match self {
            AnyMatch::Aeroplane(m) if m.to_act().includes(Actor::Seat(seat)) => {
                bot::choose(&m.view(Viewer::Seat(seat)).game, seat, strength, seed)
                    .map(|mv| mv.to_string())
            }
            // The engine with a node budget: the same view, level and seed give the same move.
            AnyMatch::Xiangqi(m) => seat_computer(m, seat, strength, seed),
            // From the seat's view only: its own pieces and the clues it has seen. The search
            // has a node budget, so the same view, strength and seed give the same action.
            AnyMatch::Junqi(m) => seat_computer(m, seat, strength, seed),
            AnyMatch::SeaLandAir(m) => seat_computer(m, seat, strength, seed),
            _ => None,
        }
    }

    /// Returns what this viewer may know, as JSON.
    pub fn view_json(&self, viewer: Viewer) -> serde_json::Value {
        each!(self, m => serde_json::to_value(m.view(viewer)).unwrap_or_default())
    }

    /// Returns the record so far.
    pub fn record(&self) -> Record {
        each!(self, m => m.record())
    }
}

/// The computer's action for `seat` when it must act, decided from that seat's view alone.
fn seat_computer<G: crate::game::Computer>(
    m: &Match<G>,
    seat: Seat,
    strength: Strength,
    seed: u64,
) -> Option<String>
where
    G::Move: std::fmt::Display,
{
    if !m.to_act().includes(Actor::Seat(seat)) {
        return None;
    }
    let game = m.game();
    G::computer_move(
        &game.view(Viewer::Seat(seat)),
        seat,
        game.options(),
        strength,
        seed,
    )
    .map(|mv| mv.to_string())
}

#[cfg(test)]
mod junqi_computer_tests {
    use super::*;

    #[test]
    fn a_junqi_computer_deploys_first() {
        let mut game = AnyMatch::new(
            GameKind::Junqi,
            &serde_json::json!({}),
            &serde_json::json!(null),
        )
        .unwrap_or_else(|e| panic!("{e:?}"));
        let action = game.computer_action(Seat::SECOND, Strength::Hard, 5);
        assert!(
            action.as_deref().is_some_and(|a| a.starts_with("deploy:")),
            "{action:?}"
        );
        let action = action.unwrap_or_default();
        game.apply_text(Actor::Seat(Seat::SECOND), &action)
            .unwrap_or_else(|e| panic!("{e:?}"));
    }
}
