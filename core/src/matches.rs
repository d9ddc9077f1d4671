//! [`Match`]: a game plus what every game shares — resignation, draw offers, the record.

use crate::action::Action;
use crate::fair::{Dealer, Draw, Failure, Fairness};
use crate::game::{
    Actor, Audience, EndReason, IllegalMove, Outcome, Rules, SetupError, ToAct, Told, Viewer,
};
use crate::record::{RECORD_FORMAT, Record, RecordEntry, RecordError};
use crate::seat::Seat;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A game in progress or finished, as the authority holds it.
///
/// It wraps a [`Rules`] value, adds the actions every game has, and keeps the record.
/// Like the game state, it has no `Serialize`: send [`Match::view`] instead.
#[derive(Clone, Debug)]
pub struct Match<G: Rules> {
    game: G,
    actions: Vec<RecordEntry>,
    draw: Option<DrawOffer>,
    /// Game moves made by each seat, so a declined offer waits for the offerer's next move.
    moves_by: Vec<usize>,
    /// Each seat's own move count when it last offered a draw.
    offered_at: Vec<Option<usize>>,
    ended: Option<Outcome>,
    /// The commitment and draws of provably fair chance, if the authority committed.
    fair: Option<Fairness>,
    /// The authority's secret seed: only where this match is the authority's.
    dealer: Option<Dealer>,
}

/// A standing draw offer.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct DrawOffer {
    /// Who offered.
    pub by: Seat,
    /// Who has accepted so far (in games of more than two seats).
    pub accepted: Vec<Seat>,
}

/// Something that happened, for the seats allowed to learn it.
#[derive(Clone, PartialEq, Debug, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum MatchEvent<E> {
    /// A game move happened; the game's own event says what this viewer may know of it.
    Game {
        /// The game's event.
        event: E,
    },
    /// A seat resigned.
    Resigned {
        /// Who.
        seat: Seat,
    },
    /// A seat let its deadline pass and another claimed the win.
    TimedOut {
        /// Who ran out of time.
        seat: Seat,
    },
    /// A seat offered a draw.
    DrawOffered {
        /// Who.
        seat: Seat,
    },
    /// A seat accepted the draw offer.
    DrawAccepted {
        /// Who.
        seat: Seat,
    },
    /// The draw offer was declined (explicitly, or by moving on).
    DrawDeclined {
        /// Who.
        seat: Seat,
    },
    /// The game ended.
    Ended {
        /// How.
        outcome: Outcome,
    },
}

/// Says why an action was refused. [`ActionError::code`] is stable for clients.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ActionError {
    /// The game is over.
    GameOver,
    /// It is not this actor's turn.
    NotYourTurn,
    /// The seat is not at this table.
    NoSuchSeat,
    /// The game move is illegal, and why.
    Illegal(IllegalMove),
    /// There is no draw offer to answer, or it is this seat's own.
    NoDrawOffer,
    /// A draw offer already stands, or this seat offered already since its last move.
    DrawAlreadyOffered,
    /// Only seats may resign or handle draws.
    NotASeat,
    /// A timeout can be claimed only against one other seat that is to act.
    NothingToClaim,
    /// The action's text could not be read, and why.
    Unreadable(String),
    /// Fair chance was asked of a match whose authority holds no seed.
    NoDealer,
}

impl ActionError {
    /// Returns the stable machine-readable code.
    pub fn code(&self) -> &'static str {
        match self {
            ActionError::GameOver => "game-over",
            ActionError::NotYourTurn => "not-your-turn",
            ActionError::NoSuchSeat => "no-such-seat",
            ActionError::Illegal(why) => why.code(),
            ActionError::NoDrawOffer => "no-draw-offer",
            ActionError::DrawAlreadyOffered => "draw-already-offered",
            ActionError::NotASeat => "not-a-seat",
            ActionError::NothingToClaim => "nothing-to-claim",
            ActionError::Unreadable(_) => "unreadable-action",
            ActionError::NoDealer => "no-dealer",
        }
    }
}

impl fmt::Display for ActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ActionError::GameOver => f.write_str("the game is over"),
            ActionError::NotYourTurn => f.write_str("it is not your turn"),
            ActionError::NoSuchSeat => f.write_str("no such seat in this game"),
            ActionError::Illegal(why) => write!(f, "illegal move: {why}"),
            ActionError::NoDrawOffer => f.write_str("there is no draw offer to answer"),
            ActionError::DrawAlreadyOffered => f.write_str("a draw has already been offered"),
            ActionError::NotASeat => f.write_str("only a player can do that"),
            ActionError::NothingToClaim => {
                f.write_str("a timeout can only be claimed against the seat to act")
            }
            ActionError::NoDealer => f.write_str("this game's authority holds no seed"),
            ActionError::Unreadable(why) => write!(f, "cannot read the action: {why}"),
        }
    }
}

impl std::error::Error for ActionError {}

/// What one viewer may know of a match: the game's view plus the shared state.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct MatchView<V> {
    /// Actions applied so far; the version a client must quote when it acts.
    pub version: usize,
    /// How many of them were the seats' game moves (not draw offers, resignations or the
    /// authority's chance moves).
    #[serde(default)]
    pub moves: usize,
    /// Who must act next, or the outcome.
    pub to_act: ToAct,
    /// The standing draw offer, if any.
    pub draw_offer: Option<DrawOffer>,
    /// The game's own view for this viewer.
    pub game: V,
}

impl<G: Rules> Match<G> {
    /// Starts a match (`setup: None` for the standard start).
    pub fn new(options: &G::Options, setup: Option<&G::Setup>) -> Result<Self, SetupError> {
        Ok(Self::from_game(G::start(options, setup)?))
    }

    /// Wraps a freshly started game (one with moves already played would record wrongly).
    fn from_game(game: G) -> Self {
        let seats = game.seat_count();
        Match {
            game,
            actions: Vec::new(),
            draw: None,
            moves_by: vec![0; seats],
            offered_at: vec![None; seats],
            ended: None,
            fair: None,
            dealer: None,
        }
    }

    /// Makes this match deal its chance from `dealer` ([`Match::resolve_chance_fairly`]):
    /// the commitment goes into views and the record from now on. Refused if the match
    /// already carries another commitment.
    pub fn deal_with(&mut self, dealer: Dealer) -> Result<(), String> {
        match &self.fair {
            Some(fair) if fair.commitment != dealer.commitment() => {
                return Err("the seed is not the one this game committed to".into());
            }
            Some(_) => {}
            None => self.fair = Some(Fairness::committed(dealer.commitment())),
        }
        self.dealer = Some(dealer);
        Ok(())
    }

    /// The scheme's public part: the commitment, every draw, and the seed once the game is
    /// over (revealed only by the authority's own match, which holds it).
    pub fn fairness(&self) -> Option<Fairness> {
        let mut fair = self.fair.clone()?;
        if let Some(dealer) = self.dealer.as_ref().filter(|_| self.outcome().is_some()) {
            fair.seed = Some(dealer.seed_hex());
        }
        Some(fair)
    }

    /// Returns the game's state, for code that runs inside the authority (bots, the app's
    /// own board). Never send it anywhere; send [`Match::view`].
    pub fn game(&self) -> &G {
        &self.game
    }

    /// Returns how many actions have been applied (the state version).
    pub fn version(&self) -> usize {
        self.actions.len()
    }

    /// Returns the actions applied so far, in order.
    pub fn actions(&self) -> &[RecordEntry] {
        &self.actions
    }

    /// Returns the standing draw offer.
    pub fn draw_offer(&self) -> Option<&DrawOffer> {
        self.draw.as_ref()
    }

    /// Returns who must act next, or the outcome.
    pub fn to_act(&self) -> ToAct {
        match &self.ended {
            Some(outcome) => ToAct::Over(outcome.clone()),
            None => self.game.to_act(),
        }
    }

    /// Returns the outcome once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        match self.to_act() {
            ToAct::Over(outcome) => Some(outcome),
            _ => None,
        }
    }

    /// Lists every action this actor may take now: game moves, then the shared actions.
    pub fn legal_actions(&self, actor: Actor) -> Vec<Action<G::Move>> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        let mut list: Vec<_> = self
            .game
            .legal_moves(actor)
            .into_iter()
            .map(Action::Play)
            .collect();
        if let Actor::Seat(seat) = actor {
            if seat.index() >= self.game.seat_count() {
                return Vec::new();
            }
            list.push(Action::Resign);
            match &self.draw {
                None if self.may_offer(seat) => list.push(Action::OfferDraw),
                Some(offer) if offer.by != seat && !offer.accepted.contains(&seat) => {
                    list.push(Action::AcceptDraw);
                    list.push(Action::DeclineDraw);
                }
                _ => {}
            }
        }
        list
    }

    /// When the authority must act ([`ToAct::Chance`]): its action, drawn with `pick` (see
    /// [`Rules::chance`]).
    pub fn chance(&self, pick: &mut dyn FnMut(usize) -> usize) -> Option<Action<G::Move>> {
        if self.to_act() != ToAct::Chance {
            return None;
        }
        self.game.chance(pick).map(Action::Play)
    }

    /// Plays every authority action now due (a deal, a die) from the dealer's seed and these
    /// contributions (see [`crate::fair`]), recording each draw, and returns the record entries
    /// added. Refused without a dealer ([`Match::deal_with`]).
    pub fn resolve_chance_fairly(
        &mut self,
        contributions: &[String],
    ) -> Result<Vec<RecordEntry>, ActionError> {
        let before = self.actions.len();
        loop {
            let (Some(dealer), Some(fair)) = (&self.dealer, &self.fair) else {
                return Err(ActionError::NoDealer);
            };
            let mut stream = dealer.stream(fair.draws.len(), contributions);
            let Some(action) = self.chance(&mut |n| stream.below(n)) else {
                break;
            };
            let ply = self.actions.len();
            self.apply(Actor::Authority, &action)?;
            if let Some(fair) = &mut self.fair {
                fair.draws.push(Draw {
                    ply,
                    contributions: contributions.to_vec(),
                });
            }
        }
        Ok(self.actions[before..].to_vec())
    }

    /// Applies a chance action the authority drew before (read back from its store) with the
    /// contributions it was drawn from, recording the draw.
    pub fn apply_drawn(
        &mut self,
        text: &str,
        contributions: Vec<String>,
    ) -> Result<(), ActionError> {
        let ply = self.actions.len();
        self.apply_text(Actor::Authority, text)?;
        if let Some(fair) = &mut self.fair {
            fair.draws.push(Draw { ply, contributions });
        }
        Ok(())
    }

    /// Plays every authority action now due (a deal, a die), drawing with `pick`, and returns
    /// the record entries added, for the caller to store.
    pub fn resolve_chance(
        &mut self,
        pick: &mut dyn FnMut(usize) -> usize,
    ) -> Result<Vec<RecordEntry>, ActionError> {
        let before = self.actions.len();
        while let Some(action) = self.chance(pick) {
            self.apply(Actor::Authority, &action)?;
        }
        Ok(self.actions[before..].to_vec())
    }

    fn may_offer(&self, seat: Seat) -> bool {
        self.offered_at[seat.index()] != Some(self.moves_by[seat.index()])
    }

    /// Applies an action, returning what each audience learns, or why it was refused.
    /// A refused action changes nothing.
    pub fn apply(
        &mut self,
        actor: Actor,
        action: &Action<G::Move>,
    ) -> Result<Vec<Told<MatchEvent<G::Event>>>, ActionError> {
        if self.outcome().is_some() {
            return Err(ActionError::GameOver);
        }
        if let Actor::Seat(seat) = actor
            && seat.index() >= self.game.seat_count()
        {
            return Err(ActionError::NoSuchSeat);
        }
        let mut told = match action {
            Action::Play(mv) => self.play(actor, mv)?,
            Action::Resign => self.resign(seat_of(actor)?),
            Action::OfferDraw => self.offer_draw(seat_of(actor)?)?,
            Action::AcceptDraw => self.accept_draw(seat_of(actor)?)?,
            Action::DeclineDraw => self.decline_draw(seat_of(actor)?)?,
            Action::ClaimTimeout => self.claim_timeout(seat_of(actor)?)?,
        };
        self.actions.push(RecordEntry {
            by: actor,
            action: action.to_string(),
        });
        if let Some(outcome) = self.outcome() {
            told.push(everyone(MatchEvent::Ended { outcome }));
        }
        Ok(told)
    }

    fn play(
        &mut self,
        actor: Actor,
        mv: &G::Move,
    ) -> Result<Vec<Told<MatchEvent<G::Event>>>, ActionError> {
        if !self.game.to_act().includes(actor) {
            return Err(ActionError::NotYourTurn);
        }
        let events = self.game.play(actor, mv).map_err(ActionError::Illegal)?;
        if let Actor::Seat(seat) = actor {
            self.moves_by[seat.index()] += 1;
        }
        let mut told: Vec<_> = events
            .into_iter()
            .map(|t| Told {
                audience: t.audience,
                event: MatchEvent::Game { event: t.event },
            })
            .collect();
        // Moving on answers a standing offer from someone else with a no.
        if let (Actor::Seat(seat), Some(offer)) = (actor, &self.draw)
            && offer.by != seat
        {
            self.draw = None;
            told.push(everyone(MatchEvent::DrawDeclined { seat }));
        }
        Ok(told)
    }

    fn resign(&mut self, seat: Seat) -> Vec<Told<MatchEvent<G::Event>>> {
        self.ended = Some(self.game.resignation(seat));
        self.draw = None;
        vec![everyone(MatchEvent::Resigned { seat })]
    }

    /// The seat to act timed out: it loses as if it resigned, with the reason `timeout`.
    fn claim_timeout(
        &mut self,
        claimer: Seat,
    ) -> Result<Vec<Told<MatchEvent<G::Event>>>, ActionError> {
        let late = match self.game.to_act() {
            ToAct::Seat(seat) if seat != claimer => seat,
            _ => return Err(ActionError::NothingToClaim),
        };
        let mut outcome = self.game.resignation(late);
        outcome.reason = EndReason::Timeout;
        self.ended = Some(outcome);
        self.draw = None;
        Ok(vec![everyone(MatchEvent::TimedOut { seat: late })])
    }

    fn offer_draw(&mut self, seat: Seat) -> Result<Vec<Told<MatchEvent<G::Event>>>, ActionError> {
        if self.draw.is_some() || !self.may_offer(seat) {
            return Err(ActionError::DrawAlreadyOffered);
        }
        self.offered_at[seat.index()] = Some(self.moves_by[seat.index()]);
        self.draw = Some(DrawOffer {
            by: seat,
            accepted: Vec::new(),
        });
        Ok(vec![everyone(MatchEvent::DrawOffered { seat })])
    }

    fn accept_draw(&mut self, seat: Seat) -> Result<Vec<Told<MatchEvent<G::Event>>>, ActionError> {
        let seats = self.game.seat_count();
        let offer = self.answerable_offer(seat)?;
        offer.accepted.push(seat);
        // Every seat but the offerer must accept.
        if offer.accepted.len() + 1 >= seats {
            self.draw = None;
            self.ended = Some(Outcome::draw(EndReason::DrawAgreed));
        }
        Ok(vec![everyone(MatchEvent::DrawAccepted { seat })])
    }

    fn decline_draw(&mut self, seat: Seat) -> Result<Vec<Told<MatchEvent<G::Event>>>, ActionError> {
        self.answerable_offer(seat)?;
        self.draw = None;
        Ok(vec![everyone(MatchEvent::DrawDeclined { seat })])
    }

    fn answerable_offer(&mut self, seat: Seat) -> Result<&mut DrawOffer, ActionError> {
        match &mut self.draw {
            Some(offer) if offer.by != seat && !offer.accepted.contains(&seat) => Ok(offer),
            _ => Err(ActionError::NoDrawOffer),
        }
    }

    /// Parses an action's text form and applies it.
    pub fn apply_text(
        &mut self,
        actor: Actor,
        text: &str,
    ) -> Result<Vec<Told<MatchEvent<G::Event>>>, ActionError> {
        let action: Action<G::Move> =
            text.parse()
                .map_err(|e: <G::Move as std::str::FromStr>::Err| {
                    ActionError::Unreadable(e.to_string())
                })?;
        self.apply(actor, &action)
    }

    /// Returns what this viewer may know.
    pub fn view(&self, viewer: Viewer) -> MatchView<G::View> {
        MatchView {
            version: self.version(),
            moves: self.moves_by.iter().sum(),
            to_act: self.to_act(),
            draw_offer: self.draw.clone(),
            game: match &self.ended {
                Some(outcome) => self.game.concluded_view(viewer, outcome),
                None => self.game.view(viewer),
            },
        }
    }

    /// Returns the actions as `viewer` may see them: all of them in a game without hidden
    /// information or once the game is over (when nothing is secret any more, so that every
    /// seat can keep the full record for its history); none while a game with secrets goes on
    /// (such games give views and events instead).
    pub fn actions_seen_by(&self, _viewer: Viewer) -> Option<&[RecordEntry]> {
        (G::PUBLIC_ACTIONS || self.outcome().is_some()).then_some(&self.actions[..])
    }

    /// Returns the record of the match so far.
    pub fn record(&self) -> Record {
        Record {
            format: RECORD_FORMAT,
            game: G::KIND,
            options: to_value(self.game.options()),
            setup: to_value(&self.game.setup()),
            actions: self.actions.clone(),
            fair: self.fairness(),
        }
    }

    /// The match as it was after its first `len` actions (a take-back), still the authority's
    /// if this one is.
    pub fn rewound(&self, len: usize) -> Result<Self, RecordError> {
        let mut record = self.record();
        record.actions.truncate(len);
        let mut game = Self::from_record(&record)?;
        if game.dealer.is_none() {
            game.dealer = self.dealer.clone();
        }
        Ok(game)
    }

    /// Replays `record` checking each chance action against the draw `dealer` gives (the
    /// draws' places were checked by [`crate::fair::verify`]).
    pub(crate) fn check_draws(record: &Record, dealer: &Dealer) -> Result<(), Failure> {
        let mut start = record.clone();
        start.actions.clear();
        start.fair = None;
        let mut game = Self::from_record(&start).map_err(|e| crate::fair::unplayable(0, e))?;
        let draws = record.fair.as_ref().map_or(&[][..], |f| &f.draws[..]);
        let mut next = 0;
        for (ply, entry) in record.actions.iter().enumerate() {
            if entry.by == Actor::Authority {
                let contributions = draws.get(next).map_or(&[][..], |d| &d.contributions[..]);
                let mut stream = dealer.stream(next, contributions);
                let derived = game
                    .chance(&mut |n| stream.below(n))
                    .map_or_else(|| "nothing to draw".into(), |a| a.to_string());
                if derived != entry.action {
                    return Err(crate::fair::mismatch(next, ply, &entry.action, &derived));
                }
                next += 1;
            }
            game.apply_text(entry.by, &entry.action)
                .map_err(|e| crate::fair::unplayable(ply, e))?;
        }
        Ok(())
    }

    /// Replays a record to the exact match it describes.
    pub fn from_record(record: &Record) -> Result<Self, RecordError> {
        if record.game != G::KIND {
            return Err(RecordError::WrongGame(record.game));
        }
        let bad_start = |e: String| RecordError::BadStart(e);
        // `null` options or setup stand for the defaults, as in `AnyMatch::new`.
        let options: G::Options = if record.options.is_null() {
            G::Options::default()
        } else {
            serde_json::from_value(record.options.clone()).map_err(|e| bad_start(e.to_string()))?
        };
        let setup: Option<G::Setup> = if record.setup.is_null() {
            None
        } else {
            Some(
                serde_json::from_value(record.setup.clone())
                    .map_err(|e| bad_start(e.to_string()))?,
            )
        };
        let mut game =
            Match::new(&options, setup.as_ref()).map_err(|e| bad_start(e.to_string()))?;
        for (index, entry) in record.actions.iter().enumerate() {
            game.apply_text(entry.by, &entry.action)
                .map_err(|e| RecordError::BadAction {
                    index,
                    action: entry.action.clone(),
                    reason: e.to_string(),
                })?;
        }
        // The record's commitment and draws come with it (those of actions it holds); a
        // revealed seed makes the replay the authority's again.
        game.fair = record.fair.clone().map(|mut f| {
            f.draws.retain(|d| d.ply < record.actions.len());
            f
        });
        game.dealer = record
            .fair
            .as_ref()
            .and_then(|f| Dealer::from_hex(f.seed.as_deref()?).ok())
            .filter(|d| {
                record
                    .fair
                    .as_ref()
                    .is_some_and(|f| f.commitment == d.commitment())
            });
        Ok(game)
    }
}

fn everyone<E>(event: E) -> Told<E> {
    Told {
        audience: Audience::Everyone,
        event,
    }
}

/// Returns the seat behind an actor; the authority cannot resign or answer draws.
fn seat_of(actor: Actor) -> Result<Seat, ActionError> {
    match actor {
        Actor::Seat(seat) => Ok(seat),
        Actor::Authority => Err(ActionError::NotASeat),
    }
}

fn to_value<T: Serialize>(value: &T) -> serde_json::Value {
    // Options and setups are plain data: serializing them cannot fail.
    serde_json::to_value(value).unwrap_or(serde_json::Value::Null)
}

/// Returns a uniform index below `n` from a source of random 64-bit words, without modulo bias
/// (rejection sampling). The authority builds its picker on this with its CSPRNG.
pub fn uniform_index(n: usize, mut random: impl FnMut() -> u64) -> usize {
    if n <= 1 {
        return 0;
    }
    let n = n as u64;
    let zone = u64::MAX - u64::MAX % n;
    loop {
        let x = random();
        if x < zone {
            return (x % n) as usize;
        }
    }
}

/// A picker for [`Match::resolve_chance`] from a seed: reproducible, for tests, bots and
/// benchmarks. Not for dealing real games: the authority uses the operating system's CSPRNG.
pub fn seeded_pick(seed: u64) -> impl FnMut(usize) -> usize {
    let mut state = seed ^ 0x9e37_79b9_7f4a_7c15;
    move |n: usize| {
        // splitmix64
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        if n == 0 { 0 } else { (z % n as u64) as usize }
    }
}
