//! One session for every game's screen: open, load, act (stored before it shows, or queued for
//! the server), the computer's turn, whose view shows and the hand-over screen, draw offers,
//! resignation, undo, review, reload after the sync worker changed the game, and the sync line.
//! A game supplies only what is its own through [`GameScreen`]: its board, how a tap becomes a
//! move, its New game options and its computer. The games with secrets add their deployment
//! and battle banner through [`super::secret`].
//!
//! What the screen shows of the session is computed by [`session_ui`], a pure function, and
//! handed to the `GameSession` global in one call.

use super::choices;
use super::search::{Search, Thinking};
use super::truth::{Seen, Source};
use crate::shell::ctx::Ctx;
use crate::shell::sound::Sound;
use crate::store::{GameId, RemoteGame};
use qiguan_core::{Action, Actor, Match, MatchView, Outcome, Rules, Seat, Strength, ToAct};
use qiguan_ui::{AppWindow, FairCheck, GamePhase, Screen};
use serde::de::DeserializeOwned;
use slint::Timer;
use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

/// What a game brings to the shared session: its board, how a tap becomes a move, its New
/// game options and its computer. Everything else (storing, the outbox, whose turn shows, draws,
/// resignation, undo, review, the end) is the session's.
pub(crate) trait GameScreen:
    Rules<View: DeserializeOwned, Move: Send> + Sized + 'static
{
    /// What the screen keeps of its own (its models, and state between taps).
    type Board: Default + 'static;
    /// A place on the board a tap selects.
    type Spot: Copy + PartialEq + 'static;
    /// What a player arranges before play starts (a deployment).
    type Draft: Clone + 'static;
    /// The screen it is played on.
    const SCREEN: Screen;
    /// Pieces are hidden while the game runs; the end shows them all.
    const HIDES_PIECES: bool = false;
    /// Its chance is a deal of hidden pieces (Junqi's flip form), not dice: the fairness
    /// check says "deal".
    const DEALS: bool = false;
    /// Two people at one device may take back the last move.
    const UNDO: bool = false;
    /// How long a computer player on this device waits before each action, so that people
    /// can follow it (`None`: it answers at once, with the person's action).
    const COMPUTER_PAUSE: Option<Duration> = None;

    /// The options New game chose.
    fn chosen_options(ui: &AppWindow) -> Self::Options;

    /// The start New game chose, where the game lets a player set one up (none: the usual).
    fn chosen_setup(_ui: &AppWindow) -> Option<Self::Setup> {
        None
    }
    /// The players' names and each seat's computer player New game chose.
    fn chosen_seats(ui: &AppWindow) -> (Vec<String>, Vec<Option<Strength>>) {
        choices::two_seats(ui)
    }
    /// A tap on the board's cell `index` while the viewer may act: the move it completes, if
    /// any (else it changes the selection or the draft).
    fn tap(ctx: &Rc<Ctx>, session: &mut Session<Self>, index: i32) -> Option<Self::Move>;
    /// The first-game walkthrough the screen offers now, if any (see [`super::tips`]).
    fn walkthrough(_session: &Session<Self>) -> Option<&'static str> {
        None
    }
    /// Whether one seat may see something the other may not right now (a hand-over screen
    /// goes up between two people at one device).
    fn has_secrets(_session: &Session<Self>) -> bool {
        false
    }
    /// Each seat's colour as the screens name it (0 red, 1 blue, 2 black; -1 not known yet).
    fn seat_colours(session: &Session<Self>) -> Vec<i32>;
    /// After the viewer is settled (a new turn, a reload): the game's own state follows it.
    fn settled(_session: &mut Session<Self>) {}
    /// The viewer has sent what it arranged and waits for the other seat's.
    fn deployed_first(_session: &Session<Self>) -> bool {
        false
    }
    /// The computer's answer to a draw offer.
    fn computer_accepts_draw(_view: &Self::View, _seat: Seat) -> bool {
        false
    }
    /// The move a person on this device would have no choice about, to be played for them
    /// (a setting).
    fn only_move(_session: &Session<Self>) -> Option<Self::Move> {
        None
    }
    /// The computer's move, from its seat's view only.
    fn computer_move(
        _view: &Self::View,
        _seat: Seat,
        _options: &Self::Options,
        _strength: Strength,
    ) -> Option<Self::Move> {
        None
    }
    /// The computer's move worked out on a thread of its own, for a game whose computer
    /// searches for a while (Xiangqi's engine): the search, which stops early when its flag
    /// is set. `None`: [`GameScreen::computer_move`] answers at once, on the UI thread.
    fn computer_search(
        _view: &Self::View,
        _seat: Seat,
        _options: &Self::Options,
        _strength: Strength,
    ) -> Option<Search<Self::Move>> {
        None
    }
    /// The game suggests moves (a hint) and takes back both moves against the computer: its
    /// Hint and Undo buttons keep their places there.
    const HINTS: bool = false;
    /// The move the game would suggest to the person to act (a hint), worked out on a thread
    /// of its own; `None` for a game that gives no hints.
    fn hint_search(_session: &Session<Self>) -> Option<Search<Self::Move>> {
        None
    }
    /// Opens the review of a stored game on a screen of its own; false when the review is
    /// the session's (the same screen, stepping through the actions).
    fn review_elsewhere(_ctx: &Rc<Ctx>, _id: GameId) -> bool {
        false
    }
    /// Draws the game's own part of the screen (its board and panels), from the viewer's view.
    fn refresh_board(ctx: &Rc<Ctx>, session: &Session<Self>, view: &Self::View);
    /// The deployment controls were used (games that deploy).
    fn arrange(_ctx: &Rc<Ctx>, _what: Arrange) {}
    /// What the viewer hears of the change from one of its views to the next (a move, a
    /// capture, a battle, check, the die), if anything. The end's sound is the session's.
    fn sound(_before: &Self::View, _after: &Self::View) -> Option<Sound> {
        None
    }
}

/// What the players ask of the session through the `GameSession` global.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Call {
    HandoverDone,
    Undo,
    Resign,
    OfferDraw,
    AnswerDraw(bool),
    Arrange(Arrange),
    Review,
    ReviewStep(i32),
    /// A preset phrase to the other seats (core's `phrase::PHRASES`).
    Say(&'static str),
    /// The person to act asks for a suggested move.
    Hint,
}

/// The deployment controls' calls (the `Deployment` global).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Arrange {
    Random,
    Ready,
}

/// A game on its screen.
pub(crate) struct Session<G: GameScreen> {
    pub id: GameId,
    pub source: Source<G>,
    /// Each seat's player's name.
    pub players: Vec<String>,
    /// Each seat's computer player on this device, if any.
    pub computers: Vec<Option<Strength>>,
    /// The server link of a correspondence game.
    pub remote: Option<RemoteGame>,
    /// The seat whose view is on the screen.
    pub viewer: Seat,
    /// The hand-over screen is up: nothing of the board shows.
    pub handover: bool,
    pub selected: Option<G::Spot>,
    /// The viewer's deployment being arranged.
    pub draft: Option<G::Draft>,
    /// In review: the number of actions shown.
    pub review: Option<usize>,
    /// The viewer's view just before the computer answered its play (so the screen can still
    /// tell what that play did), and whose view it was.
    pub before_reply: Option<(Seat, G::View)>,
    /// Why the viewer's last tap made no move, when the game can say (a code).
    pub refusal: Option<&'static str>,
    pub board: G::Board,
    /// Paces the computer's actions and the moves made for a person.
    pub timer: Timer,
    /// A correspondence game's newest preset phrases, oldest first.
    pub phrases: Vec<crate::store::Phrase>,
    /// The computer's search for its move, while it runs.
    pub thinking: Option<Thinking>,
    /// The search for a hint, while it runs.
    pub hinting: Option<Thinking>,
    /// The hint found for the game after so many actions (`None`: no move to suggest).
    pub hint: Option<(usize, Option<G::Move>)>,
    /// A correspondence game whose record the server keeps: the seat that declined the
    /// viewer's draw offer, seen when a reload brought the offer's end (a game whose record is
    /// on this device says so from its record: [`declined_offer`]).
    pub declined_by: Option<Seat>,
    /// The check of the finished game's chance, for the record of so many actions (checking
    /// replays the whole game: once per record, not once per screen refresh).
    pub fair_check: RefCell<Option<(usize, FairCheck)>>,
}

impl<G: GameScreen> Session<G> {
    pub fn local(&self) -> Option<&Match<G>> {
        self.source.local()
    }

    pub fn seen(&self) -> Option<&Seen<G>> {
        self.source.seen()
    }

    pub fn options(&self) -> G::Options {
        self.source.options()
    }

    /// What `seat` may know (a correspondence game knows only its own seat's view).
    pub fn match_view(&self, seat: Seat) -> MatchView<G::View> {
        self.source.match_view(seat)
    }

    /// What the viewer may know.
    pub fn view(&self) -> G::View {
        self.match_view(self.viewer).game
    }

    pub fn to_act(&self) -> ToAct {
        self.source.to_act()
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.source.outcome()
    }

    pub fn version(&self) -> usize {
        self.source.version()
    }

    /// The viewer's actions now.
    pub fn legal(&self) -> Vec<Action<G::Move>> {
        self.source.legal(self.viewer)
    }

    /// The viewer's moves now (no draw offers or resignation).
    pub fn legal_moves(&self) -> Vec<G::Move> {
        self.legal()
            .into_iter()
            .filter_map(|a| match a {
                Action::Play(m) => Some(m),
                _ => None,
            })
            .collect()
    }

    /// The viewer may move now.
    pub fn viewer_to_act(&self) -> bool {
        self.outcome().is_none() && self.to_act().includes(Actor::Seat(self.viewer))
    }

    /// Every seat.
    pub fn seats(&self) -> impl Iterator<Item = Seat> + use<G> {
        (0..self.players.len()).filter_map(|i| Seat::new(i as u8))
    }

    /// The computer player of a seat on this device, if it has one.
    pub fn computer(&self, seat: Seat) -> Option<Strength> {
        self.computers.get(seat.index()).copied().flatten()
    }

    /// The seat a computer on this device plays now, if any (the server plays its own
    /// computers in a correspondence game).
    pub fn computer_to_act(&self) -> Option<(Seat, Strength)> {
        if self.remote.is_some() {
            return None;
        }
        let game = self.local()?;
        self.seats().find_map(|seat| {
            let strength = self.computer(seat)?;
            let actor = Actor::Seat(seat);
            let due = game.to_act().includes(actor)
                || game.legal_actions(actor).contains(&Action::AcceptDraw);
            due.then_some((seat, strength))
        })
    }

    /// The computer on this device is working out its move.
    pub fn computer_thinking(&self) -> bool {
        self.thinking
            .as_ref()
            .is_some_and(|t| t.at == self.version())
            && self.computer_to_act().is_some()
    }

    /// The hint for the game as it stands, once found.
    pub fn current_hint(&self) -> Option<G::Move> {
        match &self.hint {
            Some((at, mv)) if *at == self.version() && self.person_to_act() => mv.clone(),
            _ => None,
        }
    }

    /// A hint may be asked for: a person on this device to act in a game of this device's
    /// own, no hint shown or being found for this position.
    pub fn can_hint(&self) -> bool {
        self.remote.is_none()
            && self.person_to_act()
            && self.hinting.is_none()
            && self
                .hint
                .as_ref()
                .is_none_or(|(at, _)| *at != self.version())
            && G::hint_search(self).is_some()
    }

    /// Stops searches for a position the game has left (after a move, an undo), and forgets
    /// a hint for it.
    pub(crate) fn forget_stale_searches(&mut self) {
        let now = self.version();
        if self.thinking.as_ref().is_some_and(|t| t.at != now) {
            self.thinking = None;
        }
        if self.hinting.as_ref().is_some_and(|t| t.at != now) {
            self.hinting = None;
        }
        if self.hint.as_ref().is_some_and(|(at, _)| *at != now) {
            self.hint = None;
        }
    }

    /// The viewer is a person on this device who may act now.
    pub fn person_to_act(&self) -> bool {
        self.review.is_none() && self.viewer_to_act() && self.computer(self.viewer).is_none()
    }

    /// The seat this device always shows: the one person's against the computer, its own in a
    /// correspondence game; none when people pass the device.
    pub fn fixed_seat(&self) -> Option<Seat> {
        if let Some(r) = &self.remote {
            return Seat::new(r.seat);
        }
        let mut people = self.seats().filter(|&seat| self.computer(seat).is_none());
        match (people.next(), people.next()) {
            (Some(person), None) if self.computers.iter().any(Option::is_some) => Some(person),
            _ => None,
        }
    }

    /// The seat that may answer a standing draw offer from this screen: the viewer; in
    /// pass-and-play of a game that hides no pieces, whichever player it is (both are at the
    /// table). Where pieces are hidden the answer waits for the answerer's turn at the device.
    pub fn answerer(&self) -> Option<Seat> {
        if self.outcome().is_some() {
            return None;
        }
        let can = |seat: Seat| self.source.legal(seat).contains(&Action::AcceptDraw);
        if can(self.viewer) {
            return Some(self.viewer);
        }
        let open_table = self.fixed_seat().is_none() && !G::HIDES_PIECES;
        self.seats().find(|&seat| open_table && can(seat))
    }

    /// Whether the last action may be taken back: two people at one device, nothing hidden,
    /// the game not over (taking back the winning move would reopen a finished game).
    pub fn can_undo(&self) -> bool {
        G::UNDO
            && self.remote.is_none()
            && self.review.is_none()
            && self.outcome().is_none()
            && self.local().is_some_and(|g| !g.actions().is_empty())
    }

    /// What the screen shows: the hand-over cover, review, the end, deployment or play.
    pub fn phase(&self) -> GamePhase {
        if self.handover {
            GamePhase::Handover
        } else if self.review.is_some() {
            GamePhase::Review
        } else if self.outcome().is_some() {
            GamePhase::Over
        } else if self.draft.is_some() {
            GamePhase::Deploy
        } else {
            GamePhase::Play
        }
    }
}

impl<G: GameScreen> Session<G> {
    /// A session of a game as loaded, showing its first view, nothing selected or arranged.
    pub(crate) fn new(id: GameId, loaded: super::truth::Loaded<G>) -> Session<G> {
        Session {
            id,
            source: loaded.source,
            players: loaded.players,
            computers: loaded.computers,
            remote: loaded.remote,
            viewer: loaded.viewer,
            handover: false,
            selected: None,
            draft: None,
            review: None,
            before_reply: None,
            refusal: None,
            board: G::Board::default(),
            timer: Timer::default(),
            phrases: Vec::new(),
            thinking: None,
            hinting: None,
            hint: None,
            declined_by: None,
            fair_check: RefCell::new(None),
        }
    }
}

/// The session slot of game `G`.
pub(crate) fn slot<G: GameScreen>(ctx: &Ctx) -> &RefCell<Option<Session<G>>> {
    ctx.session()
}

/// The stored game the session of `G` holds, if any.
pub(crate) fn shown<G: GameScreen>(ctx: &Ctx) -> Option<GameId> {
    slot::<G>(ctx).borrow().as_ref().map(|s| s.id)
}
