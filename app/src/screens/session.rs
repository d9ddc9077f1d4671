//! One session for every game's screen: open, load, act (stored before it shows, or queued for
//! the server), the computer's turn, whose view shows and the hand-over screen, draw offers,
//! resignation, undo, review, reload after the sync worker changed the game, and the sync line.
//! A game supplies only what is its own through [`GameScreen`]: its board, how a tap becomes a
//! move, its New game options and its computer. The games with secrets add their deployment
//! and battle banner through [`super::secret`].
//!
//! What the screen shows of the session is computed by [`session_ui`], a pure function, and
//! handed to the `GameSession` global in one call.

use super::hidden::{self, Seen, Source};
use super::registry::{GameEntry, OnlineChoice};
use crate::ctx::{Ctx, Sessions};
use crate::sound::Sound;
use crate::store::{GameId, Mode, NewGame, RemoteGame, Standing};
use crate::sync::Command;
use crate::thinking::{self, Work};
use qiguan_core::Strength;
use qiguan_core::fair::{Dealer, Verdict};
use qiguan_core::{
    Action, Actor, GameResult, Match, MatchView, Outcome, RecordEntry, Rules, Seat, ToAct, Viewer,
};
use qiguan_ui::{
    AppWindow, FairCheck, GameOutcome, GamePhase, GameSession, ResultKind, Screen, SyncLine,
    Waiting,
};
use serde::de::DeserializeOwned;
use slint::{ComponentHandle, ModelRc, SharedString, Timer, TimerMode, VecModel};
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
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
        super::new_game::two_seats(ui)
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

/// A search for a move on a thread of its own: it stops early when its flag is set.
pub(crate) type Search<M> = Box<dyn FnOnce(Arc<AtomicBool>) -> Option<M> + Send>;

/// The computer's move on a thread of its own at normal and hard, which search over boards
/// drawn from the seat's view for a fraction of a second (Junqi, Sea-land-air); `None` at easy,
/// and at the strengths stored before there were three, which answer at once.
pub(crate) fn search_at_strength<G>(
    view: &G::View,
    seat: Seat,
    options: &G::Options,
    strength: Strength,
) -> Option<Search<G::Move>>
where
    G: qiguan_core::Computer,
    G::View: Clone + Send + 'static,
    G::Options: Clone + Send + 'static,
    G::Move: Send + 'static,
{
    if !matches!(strength, Strength::Normal | Strength::Hard) {
        return None;
    }
    let (view, options, seed) = (view.clone(), options.clone(), crate::random::random_seed());
    Some(Box::new(move |_stop| {
        G::computer_move(&view, seat, &options, strength, seed)
    }))
}

/// A search running for the session, for the game as it stood after `at` actions.
#[derive(Debug)]
pub(crate) struct Thinking {
    pub at: usize,
    /// This search's own number: its reply is taken only while it is still the one waited
    /// for (the game may have come back to `at` actions by another way: an undo, a new move).
    token: u64,
    /// Dropping it stops the search.
    _work: Work,
}

impl Thinking {
    /// Starts `search` on its own thread; `reply` gets its token and what it found.
    fn start<M: Send + 'static>(
        ctx: &Rc<Ctx>,
        at: usize,
        search: Search<M>,
        reply: impl FnOnce(&Rc<Ctx>, u64, Option<M>) + Send + 'static,
    ) -> Thinking {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        let token = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let work = thinking::spawn(ctx, move |stop, _| {
            let found = search(stop);
            Box::new(move |ctx: &Rc<Ctx>| reply(ctx, token, found))
        });
        Thinking {
            at,
            token,
            _work: work,
        }
    }

    /// Whether this is the search with `token`.
    fn is(this: &Option<Thinking>, token: u64) -> bool {
        this.as_ref().is_some_and(|t| t.token == token)
    }
}

/// The louder of two sounds: the end, then check, a battle, a capture, the die, a move.
fn louder(a: Option<Sound>, b: Option<Sound>) -> Option<Sound> {
    let rank = |s: &Option<Sound>| match s {
        None => 0,
        Some(Sound::Move | Sound::Message) => 1,
        Some(Sound::Roll) => 2,
        Some(Sound::Capture) => 3,
        Some(Sound::Battle) => 4,
        Some(Sound::Check) => 5,
        Some(Sound::Win | Sound::Lose) => 6,
    };
    if rank(&b) > rank(&a) { b } else { a }
}

/// The end's sound, once a game is over: a win when a person on this device won (or people
/// played each other here), a loss when the computer or the opponent far away did; nothing
/// for a draw.
fn end_sound<G: GameScreen>(s: &Session<G>) -> Option<Sound> {
    let outcome = s.outcome()?;
    let winner = match &outcome.result {
        GameResult::Win { winners } => winners.first().copied()?,
        GameResult::Ranking { order } => order.first().copied()?,
        GameResult::Draw => return None,
    };
    let people_here: Vec<Seat> = s
        .seats()
        .filter(|&seat| s.computer(seat).is_none() && (s.remote.is_none() || seat == s.viewer))
        .collect();
    Some(if people_here.contains(&winner) {
        Sound::Win
    } else {
        Sound::Lose
    })
}

/// Plays what changed from `before` to the session's view now, and the end's sound when the
/// game has just ended.
fn sound_of_change<G: GameScreen>(
    s: &Session<G>,
    before: &G::View,
    was_over: bool,
    also: Option<Sound>,
) -> Option<Sound> {
    let now = s.view();
    let mut sound = louder(also, G::sound(before, &now));
    if !was_over {
        sound = louder(sound, end_sound(s));
    }
    sound
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
    fn forget_stale_searches(&mut self) {
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

/// The registry entry of a game: the shared session does everything but connect the game's
/// own controls.
pub(crate) const fn entry<G: GameScreen>(
    connect: fn(&Rc<Ctx>),
    rules: super::registry::RulesPage,
) -> GameEntry {
    GameEntry {
        kind: G::KIND,
        screen: G::SCREEN,
        connect,
        sessions: sessions::<G>,
        open: open::<G>,
        review: open_to_review::<G>,
        shown: shown::<G>,
        refresh: refresh::<G>,
        reload_if_open: reload_if_open::<G>,
        set_sync_status: set_sync_status::<G>,
        start: start_chosen::<G>,
        online: online_choice::<G>,
        session_call: call::<G>,
        import: None,
        row_codes: |outcome, to_move, _| (outcome, to_move),
        seat_colour: |_, _| None,
        rules,
        hides_pieces: G::HIDES_PIECES,
        computer_levels: false,
        level_in_rows: true,
        most_seats: 2,
    }
}

/// Starts a game on this device with what New game chose: two people, or one against the
/// computer.
fn start_chosen<G: GameScreen>(ctx: &Rc<Ctx>) {
    let ui = ctx.ui();
    let (players, computers) = G::chosen_seats(&ui);
    let setup = G::chosen_setup(&ui);
    if let Err(e) = start_from::<G>(
        ctx,
        &G::chosen_options(&ui),
        setup.as_ref(),
        players,
        computers,
    ) {
        super::show_error(ctx, &e);
    }
}

fn online_choice<G: GameScreen>(ui: &AppWindow, side: u8) -> OnlineChoice {
    OnlineChoice::two_people(G::chosen_options(ui), side)
}

/// Starts a new game on this device, from a start the player set up (none: the usual one):
/// stores it with what this device dealt as the authority (the operating system's
/// randomness), lets the computer deploy, and opens it.
pub(crate) fn start_from<G: GameScreen>(
    ctx: &Rc<Ctx>,
    options: &G::Options,
    setup: Option<&G::Setup>,
    players: Vec<String>,
    computers: Vec<Option<Strength>>,
) -> Result<GameId, String> {
    let mut game: Match<G> = Match::new(options, setup).map_err(|e| e.to_string())?;
    // This device deals and rolls: it commits to a seed before anything is drawn, and draws
    // each deal from every seat's contribution (see qiguan_core::fair).
    let dealer = game
        .game()
        .has_chance()
        .then(|| Dealer::new(crate::random::chance_seed()));
    if let Some(dealer) = &dealer {
        game.deal_with(dealer.clone())?;
    }
    let seats: Vec<String> = (0..game.game().seat_count())
        .map(|_| crate::random::contribution())
        .collect();
    let dealt = crate::random::resolve_chance(&mut game, &seats).map_err(|e| e.to_string())?;
    // One person against the computer is filed as such; two or more people as pass and play.
    let people = computers.iter().filter(|c| c.is_none()).count();
    let mode = match computers.iter().position(Option::is_some) {
        Some(seat) if people <= 1 => Mode::Computer(seat as u8),
        _ => Mode::PassAndPlay,
    };
    let mut new = NewGame::from_record(&game.record(), mode, players);
    new.chance_seed = dealer.as_ref().map(Dealer::seed_hex);
    let standing = Standing::new(&dealt, game.outcome());
    let now = ctx.now();
    let id = ctx
        .games()?
        .create(&new, &dealt, &standing, &computers, now)
        .map_err(|e| e.to_string())?;
    ctx.reset_to(Screen::Home);
    open::<G>(ctx, id);
    Ok(id)
}

fn sessions<G: GameScreen>() -> Vec<Box<dyn std::any::Any>> {
    vec![Sessions::slot::<Session<G>>()]
}

fn open_to_review<G: GameScreen>(ctx: &Rc<Ctx>, id: GameId, _at_end: bool) {
    open::<G>(ctx, id);
}

fn shown<G: GameScreen>(ctx: &Ctx) -> Option<GameId> {
    slot::<G>(ctx).borrow().as_ref().map(|s| s.id)
}

/// The session slot of game `G`.
pub(crate) fn slot<G: GameScreen>(ctx: &Ctx) -> &RefCell<Option<Session<G>>> {
    ctx.session()
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
    NewGame,
    /// A preset phrase to the other seats (core's `phrase::PHRASES`).
    Say(&'static str),
    /// The person to act asks for a suggested move.
    Hint,
    /// A link to the game's page for anyone.
    Share,
}

/// The deployment controls' calls (the `Deployment` global).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Arrange {
    Random,
    Ready,
}

/// Handles a call from the `GameSession` or `Deployment` global for the game on screen.
fn call<G: GameScreen>(ctx: &Rc<Ctx>, call: Call) {
    match call {
        Call::HandoverDone => {
            if let Some(s) = slot::<G>(ctx).borrow_mut().as_mut() {
                s.handover = false;
            }
        }
        Call::Resign => return viewer_acts::<G>(ctx, Action::Resign),
        Call::OfferDraw => return viewer_acts::<G>(ctx, Action::OfferDraw),
        Call::Undo => return undo::<G>(ctx),
        Call::Hint => start_hint::<G>(ctx),
        Call::Share => {
            if let Some(id) = shown::<G>(ctx) {
                super::share::start(ctx, id);
            }
            return;
        }
        Call::Arrange(what) => return G::arrange(ctx, what),
        Call::AnswerDraw(accept) => return answer_draw::<G>(ctx, accept),
        Call::Review => {
            let Some(id) = shown::<G>(ctx) else { return };
            ctx.ui().global::<GameSession>().set_show_end_dialog(false);
            if G::review_elsewhere(ctx, id) {
                return;
            }
            if let Some(s) = slot::<G>(ctx).borrow_mut().as_mut()
                && s.local().is_some()
            {
                s.review = Some(s.version());
                s.selected = None;
            }
        }
        Call::ReviewStep(step) => {
            if let Some(s) = slot::<G>(ctx).borrow_mut().as_mut()
                && let Some(at) = s.review
            {
                let next = at as i64 + step as i64;
                s.review = Some(next.clamp(0, s.version() as i64) as usize);
            }
        }
        Call::Say(phrase) => {
            let said = match slot::<G>(ctx).borrow_mut().as_mut() {
                Some(s) => match s.remote.clone() {
                    Some(remote) => {
                        super::phrases::say(ctx, s.id, &remote, phrase).map(|list| s.phrases = list)
                    }
                    None => Ok(()),
                },
                None => Ok(()),
            };
            if let Err(e) = said {
                super::show_error(ctx, &e);
            }
        }
        Call::NewGame => {
            ctx.ui().global::<GameSession>().set_show_end_dialog(false);
            ctx.reset_to(Screen::Home);
            return super::new_game::open(ctx, G::KIND);
        }
    }
    refresh::<G>(ctx);
}

/// Loads a stored game and shows it: behind the hand-over screen if it has secrets.
pub(crate) fn open<G: GameScreen>(ctx: &Rc<Ctx>, id: GameId) {
    // The computer's search for this game goes on across leaving and coming back.
    let mut thinking = None;
    if let Some(old) = slot::<G>(ctx).borrow_mut().take() {
        old.timer.stop();
        if old.id == id {
            thinking = old.thinking;
        }
    }
    match load::<G>(ctx, id) {
        Ok(mut session) => {
            session.thinking = thinking;
            session.forget_stale_searches();
            run_computer(ctx, &mut session);
            settle_viewer(&mut session, true);
            let online = session.remote.is_some();
            *slot::<G>(ctx).borrow_mut() = Some(session);
            let ui = ctx.ui();
            let a = ui.global::<GameSession>();
            a.set_show_end_dialog(false);
            a.set_confirm_resign(false);
            a.set_sync_line(SyncLine::Current);
            super::secret::clear_panels(&ui);
            refresh::<G>(ctx);
            ctx.go(G::SCREEN);
            schedule::<G>(ctx);
            if online {
                ctx.send(Command::Watch(Some(id)));
                ctx.send(Command::Flush);
            }
        }
        Err(e) => super::show_error(ctx, &e),
    }
}

fn load<G: GameScreen>(ctx: &Rc<Ctx>, id: GameId) -> Result<Session<G>, String> {
    let loaded = hidden::load::<G>(&mut *ctx.games()?, id)?;
    let mut session = Session::new(id, loaded);
    session.phrases = super::phrases::load(ctx, id, session.remote.as_ref());
    Ok(session)
}

impl<G: GameScreen> Session<G> {
    /// A session of a game as loaded, showing its first view, nothing selected or arranged.
    pub(crate) fn new(id: GameId, loaded: hidden::Loaded<G>) -> Session<G> {
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

/// Reloads the open game if the sync worker changed it, keeping a deployment being arranged.
pub(crate) fn reload_if_open<G: GameScreen>(ctx: &Rc<Ctx>, ids: &[GameId]) {
    let Some(id) = shown::<G>(ctx) else { return };
    if !ids.contains(&id) || ctx.ui().global::<qiguan_ui::Nav>().get_screen() != G::SCREEN {
        return;
    }
    let Some(old) = slot::<G>(ctx).borrow_mut().take() else {
        return;
    };
    match load::<G>(ctx, id) {
        Ok(mut session) => {
            let was_over = old.outcome().is_some();
            // What arrived (the opponent's move, a battle's result, the end) sounds as it
            // would at the table; a reload that brought nothing new is silent.
            let sound = (session.version() > old.version())
                .then(|| sound_of_change(&session, &old.view(), was_over, None))
                .flatten();
            // The viewer's draw offer gone with the game going on: declined (a game whose
            // record is on this device says so from its record).
            let offered = old.source.draw_offer().is_some_and(|o| o.by == old.viewer)
                || old.source.offer_pending();
            let gone = session.source.draw_offer().is_none() && !session.source.offer_pending();
            let declined = if session.local().is_none()
                && session.version() > old.version()
                && offered
                && gone
                && session.outcome().is_none()
            {
                session.seats().find(|&seat| seat != session.viewer)
            } else {
                old.declined_by
            };
            session.before_reply = old.before_reply;
            session.draft = old.draft;
            session.selected = old.selected;
            session.board = old.board;
            session.thinking = old.thinking;
            session.hinting = old.hinting;
            session.hint = old.hint;
            session.declined_by = declined;
            session.forget_stale_searches();
            settle_viewer(&mut session, false);
            let over = session.outcome().is_some();
            *slot::<G>(ctx).borrow_mut() = Some(session);
            if over && !was_over {
                ctx.ui().global::<GameSession>().set_show_end_dialog(true);
            }
            refresh::<G>(ctx);
            if let Some(sound) = sound {
                ctx.play_sound(sound);
            }
        }
        Err(e) => {
            *slot::<G>(ctx).borrow_mut() = Some(old);
            super::show_error(ctx, &e);
        }
    }
}

/// Shows whether the open correspondence game's actions have reached the server.
pub(crate) fn set_sync_status<G: GameScreen>(ctx: &Rc<Ctx>, online: bool, pending: usize) {
    let on_screen = ctx.ui().global::<qiguan_ui::Nav>().get_screen() == G::SCREEN;
    let remote = slot::<G>(ctx)
        .borrow()
        .as_ref()
        .is_some_and(|s| s.remote.is_some());
    if on_screen && remote {
        ctx.ui()
            .global::<GameSession>()
            .set_sync_line(hidden::sync_line(online, pending));
    }
}

/// Picks whose view shows: the person's against the computer, this device's seat in a
/// correspondence game, else the seat to act. Raises the hand-over screen when the view passes
/// to the other player and there are secrets.
pub(crate) fn settle_viewer<G: GameScreen>(s: &mut Session<G>, opening: bool) {
    if s.outcome().is_some() {
        s.draft = None;
        return;
    }
    let fixed = s.fixed_seat();
    let next = match (fixed, s.to_act()) {
        (Some(seat), _) => seat,
        (None, ToAct::Seat(seat)) => seat,
        (None, ToAct::Seats(list)) => list.first().copied().unwrap_or(s.viewer),
        (None, _) => s.viewer,
    };
    let changed = next != s.viewer;
    s.viewer = next;
    if fixed.is_none() && G::has_secrets(s) && (changed || opening) {
        s.handover = true;
    }
    if changed {
        s.selected = None;
        s.draft = None;
        s.refusal = None;
    }
    G::settled(s);
}

/// Lets the computer act at once for as long as it is due (unless the game paces it: then
/// [`schedule`] does), storing each action.
fn run_computer<G: GameScreen>(ctx: &Rc<Ctx>, s: &mut Session<G>) {
    if G::COMPUTER_PAUSE.is_some() {
        return;
    }
    s.before_reply = s.computer_to_act().map(|_| (s.viewer, s.view()));
    for _ in 0..8 {
        if !computer_acts(ctx, s) {
            return;
        }
    }
}

/// The computer whose turn it is acts once: it answers a draw offer, else deploys or moves.
/// It decides from its seat's view only. Returns whether it acted.
fn computer_acts<G: GameScreen>(ctx: &Rc<Ctx>, s: &mut Session<G>) -> bool {
    let Some((seat, strength)) = s.computer_to_act() else {
        return false;
    };
    let Some(game) = s.local() else { return false };
    let actor = Actor::Seat(seat);
    let view = game.game().view(Viewer::Seat(seat));
    let action = if game.legal_actions(actor).contains(&Action::AcceptDraw) {
        if G::computer_accepts_draw(&view, seat) {
            Action::AcceptDraw
        } else {
            Action::DeclineDraw
        }
    } else {
        let options = game.game().options();
        if let Some(search) = G::computer_search(&view, seat, options, strength) {
            start_thinking(ctx, s, search);
            return false;
        }
        match G::computer_move(&view, seat, options, strength) {
            Some(mv) => Action::Play(mv),
            None => return false,
        }
    };
    let stored = ctx.games().and_then(|mut store| {
        hidden::store_and_apply(&mut *store, ctx.now(), s.id, &mut s.source, actor, &action)
    });
    if let Err(e) = stored {
        super::show_error(ctx, &e);
        return false;
    }
    ctx.send(Command::SendUploads);
    s.selected = None;
    true
}

/// Starts the computer's search on a thread of its own, unless it already runs for the game
/// as it stands. Its move arrives in [`computer_found`].
fn start_thinking<G: GameScreen>(ctx: &Rc<Ctx>, s: &mut Session<G>, search: Search<G::Move>) {
    let at = s.version();
    if s.thinking.as_ref().is_some_and(|t| t.at == at) {
        return;
    }
    let id = s.id;
    s.thinking = Some(Thinking::start(
        ctx,
        at,
        search,
        move |ctx, token, found| computer_found::<G>(ctx, id, token, found),
    ));
}

/// The computer's search `token` found its move for game `id`: stored, then shown (with its
/// sound and the end, if the game's screen is up). A move from a search no longer waited for
/// (the game changed: an undo, a resignation; or it closed) is dropped.
pub(crate) fn computer_found<G: GameScreen>(
    ctx: &Rc<Ctx>,
    id: GameId,
    token: u64,
    found: Option<G::Move>,
) {
    let Some(mut s) = slot::<G>(ctx).borrow_mut().take() else {
        return;
    };
    let waited = s.id == id
        && Thinking::is(&s.thinking, token)
        && s.thinking.as_ref().is_some_and(|t| t.at == s.version());
    let seat = s.computer_to_act().map(|(seat, _)| seat);
    let (Some(mv), Some(seat), true) = (found, seat, waited) else {
        *slot::<G>(ctx).borrow_mut() = Some(s);
        return;
    };
    s.thinking = None;
    let (before, was_over) = (s.view(), s.outcome().is_some());
    s.before_reply = Some((s.viewer, s.view()));
    let stored = ctx.games().and_then(|mut store| {
        let action = Action::Play(mv);
        hidden::store_and_apply(
            &mut *store,
            ctx.now(),
            id,
            &mut s.source,
            Actor::Seat(seat),
            &action,
        )
    });
    if stored.is_ok() {
        ctx.send(Command::SendUploads);
    }
    let sound = stored
        .is_ok()
        .then(|| sound_of_change(&s, &before, was_over, None))
        .flatten();
    s.selected = None;
    s.forget_stale_searches();
    run_computer(ctx, &mut s);
    settle_viewer(&mut s, false);
    let over = s.outcome().is_some();
    *slot::<G>(ctx).borrow_mut() = Some(s);
    let on_screen = ctx.ui().global::<qiguan_ui::Nav>().get_screen() == G::SCREEN;
    if let Err(e) = stored {
        super::show_error(ctx, &e);
    } else if on_screen {
        if let Some(sound) = sound {
            ctx.play_sound(sound);
        }
        if over {
            ctx.ui().global::<GameSession>().set_show_end_dialog(true);
        }
    }
    refresh::<G>(ctx);
    schedule::<G>(ctx);
}

/// Starts the search for a hint for the person to act; it shows on the board once found.
fn start_hint<G: GameScreen>(ctx: &Rc<Ctx>) {
    let mut guard = slot::<G>(ctx).borrow_mut();
    let Some(s) = guard.as_mut() else { return };
    if !s.can_hint() {
        return;
    }
    let Some(search) = G::hint_search(s) else {
        return;
    };
    let (id, at) = (s.id, s.version());
    s.hinting = Some(Thinking::start(
        ctx,
        at,
        search,
        move |ctx, token, found| {
            update::<G>(ctx, |s| {
                if s.id == id && s.version() == at && Thinking::is(&s.hinting, token) {
                    s.hinting = None;
                    s.hint = Some((at, found));
                }
            });
        },
    ));
}

/// Arms the timer for what happens next without a tap, in a game that paces it: the
/// computer's action, or the only possible move played for a person (a setting).
fn schedule<G: GameScreen>(ctx: &Rc<Ctx>) {
    let guard = slot::<G>(ctx).borrow();
    let Some(s) = guard.as_ref() else { return };
    s.timer.stop();
    if s.review.is_some() || s.outcome().is_some() {
        return;
    }
    let weak = Rc::downgrade(ctx);
    let step = move |computer: bool| {
        move || {
            if let Some(ctx) = weak.upgrade() {
                paced_step::<G>(&ctx, computer);
            }
        }
    };
    if let Some(pause) = G::COMPUTER_PAUSE
        && s.computer_to_act().is_some()
    {
        s.timer.start(TimerMode::SingleShot, pause, step(true));
    } else if ctx.settings.borrow().auto_move && s.person_to_act() && G::only_move(s).is_some() {
        s.timer
            .start(TimerMode::SingleShot, AUTO_MOVE_PAUSE, step(false));
    }
}

/// How long the screen waits before a move made for the player (the only possible one).
const AUTO_MOVE_PAUSE: Duration = Duration::from_millis(900);

/// The timer's step: the computer acts, or the only possible move is played. Nothing happens
/// while the game's screen is not showing: the step waits for the player's return.
fn paced_step<G: GameScreen>(ctx: &Rc<Ctx>, computer: bool) {
    if ctx.ui().global::<qiguan_ui::Nav>().get_screen() != G::SCREEN {
        return;
    }
    if !computer {
        let only = slot::<G>(ctx)
            .borrow()
            .as_ref()
            .filter(|s| s.person_to_act())
            .and_then(G::only_move);
        if let Some(mv) = only {
            viewer_acts::<G>(ctx, Action::Play(mv));
        }
        return;
    }
    let Some(mut s) = slot::<G>(ctx).borrow_mut().take() else {
        return;
    };
    let (before, was_over) = (s.view(), s.outcome().is_some());
    let acted = computer_acts(ctx, &mut s);
    let sound = acted
        .then(|| sound_of_change(&s, &before, was_over, None))
        .flatten();
    if acted {
        settle_viewer(&mut s, false);
    }
    let over = s.outcome().is_some();
    *slot::<G>(ctx).borrow_mut() = Some(s);
    if let Some(sound) = sound {
        ctx.play_sound(sound);
    }
    if over && acted {
        ctx.ui().global::<GameSession>().set_show_end_dialog(true);
    }
    refresh::<G>(ctx);
    schedule::<G>(ctx);
}

/// A player's action: stored (or queued for the server), then the computer's answer, then
/// shown.
pub(crate) fn act<G: GameScreen>(ctx: &Rc<Ctx>, actor: Actor, action: Action<G::Move>) {
    let Some(mut s) = slot::<G>(ctx).borrow_mut().take() else {
        return;
    };
    let remote = s.remote.is_some();
    let (id, now) = (s.id, ctx.now());
    let (before, was_over) = (s.view(), s.outcome().is_some());
    let result = ctx.games().and_then(|mut store| {
        let store = &mut *store;
        if s.seen().is_some() {
            hidden::queue_remote(store, id, &mut s.source, &action).map(|()| s.draft = None)
        } else if remote {
            hidden::queue_local(store, now, id, &mut s.source, actor, &action)
        } else {
            hidden::store_and_apply(store, now, id, &mut s.source, actor, &action)
        }
    });
    if result.is_ok() {
        // To the server; or, for a game kept here, to a page it was shared on.
        ctx.send(if remote {
            Command::Flush
        } else {
            Command::SendUploads
        });
    }
    let mut sound = None;
    if result.is_ok() {
        s.selected = None;
        s.declined_by = None;
        // The player's own action first, then the computer's answer: the louder sounds.
        let mine = sound_of_change(&s, &before, was_over, None);
        let (mid, mid_over) = (s.view(), s.outcome().is_some());
        s.forget_stale_searches();
        run_computer(ctx, &mut s);
        sound = sound_of_change(&s, &mid, mid_over, mine);
        settle_viewer(&mut s, false);
    }
    let over = s.outcome().is_some();
    *slot::<G>(ctx).borrow_mut() = Some(s);
    if let Some(sound) = sound {
        ctx.play_sound(sound);
    }
    let ui = ctx.ui();
    let a = ui.global::<GameSession>();
    match result {
        Err(e) => super::show_error(ctx, &e),
        Ok(()) if over => a.set_show_end_dialog(true),
        Ok(()) if remote => a.set_sync_line(SyncLine::Sending),
        Ok(()) => {}
    }
    refresh::<G>(ctx);
    schedule::<G>(ctx);
}

/// A tap on the board's cell `index`: what it means is the game's ([`GameScreen::tap`]).
pub(crate) fn tap<G: GameScreen>(ctx: &Rc<Ctx>, index: i32) {
    play_with::<G>(ctx, |s| G::tap(ctx, s, index));
}

/// Lets `choose` change the session's selection or draft, and plays the move it returns.
/// Nothing happens behind the hand-over screen, in review or at the end.
pub(crate) fn play_with<G: GameScreen>(
    ctx: &Rc<Ctx>,
    choose: impl FnOnce(&mut Session<G>) -> Option<G::Move>,
) {
    let chosen = {
        let mut guard = slot::<G>(ctx).borrow_mut();
        let Some(s) = guard.as_mut() else { return };
        if s.handover || s.review.is_some() || s.outcome().is_some() {
            return;
        }
        s.refusal = None;
        choose(s)
    };
    match chosen {
        Some(mv) => viewer_acts::<G>(ctx, Action::Play(mv)),
        None => refresh::<G>(ctx),
    }
}

/// Changes the session's own state (a selection, the board's orientation) and draws it.
pub(crate) fn update<G: GameScreen>(ctx: &Rc<Ctx>, change: impl FnOnce(&mut Session<G>)) {
    if let Some(s) = slot::<G>(ctx).borrow_mut().as_mut() {
        change(s);
    }
    refresh::<G>(ctx);
}

/// Answers the standing draw offer, as the seat that may ([`Session::answerer`]).
fn answer_draw<G: GameScreen>(ctx: &Rc<Ctx>, accept: bool) {
    let answerer = slot::<G>(ctx).borrow().as_ref().and_then(Session::answerer);
    let answer = if accept {
        Action::AcceptDraw
    } else {
        Action::DeclineDraw
    };
    if let Some(seat) = answerer {
        act::<G>(ctx, Actor::Seat(seat), answer);
    }
}

/// Takes back the last action (with the computer's answer to it, when it plays): stored
/// first, then shown.
fn undo<G: GameScreen>(ctx: &Rc<Ctx>) {
    let Some(mut s) = slot::<G>(ctx).borrow_mut().take() else {
        return;
    };
    let result = if s.can_undo() {
        take_back(ctx, &mut s)
    } else {
        Ok(())
    };
    *slot::<G>(ctx).borrow_mut() = Some(s);
    match result {
        Err(e) => super::show_error(ctx, &e),
        Ok(()) => ctx.send(Command::SendUploads),
    }
    ctx.ui().global::<GameSession>().set_show_end_dialog(false);
    refresh::<G>(ctx);
}

fn take_back<G: GameScreen>(ctx: &Rc<Ctx>, s: &mut Session<G>) -> Result<(), String> {
    s.before_reply = None;
    let Some(game) = s.local() else {
        return Ok(());
    };
    let computer = |g: &Match<G>| {
        s.seats()
            .any(|seat| s.computer(seat).is_some() && g.to_act().includes(Actor::Seat(seat)))
    };
    let mut len = game.version();
    let previous = loop {
        if len == 0 {
            return Ok(());
        }
        len -= 1;
        let previous: Match<G> = game.rewound(len).map_err(|e| e.to_string())?;
        if len == 0 || !computer(&previous) {
            break previous;
        }
    };
    let standing = Standing::new(previous.actions(), previous.outcome());
    let (id, now) = (s.id, ctx.now());
    ctx.games()?
        .truncate(id, len, &standing, previous.fairness().as_ref(), now)
        .map_err(|e| e.to_string())?;
    s.source = Source::Local(Box::new(previous));
    s.selected = None;
    s.forget_stale_searches();
    settle_viewer(s, false);
    Ok(())
}

/// The viewer acts: a move chosen on the board, a deployment, a draw offer or resignation.
pub(crate) fn viewer_acts<G: GameScreen>(ctx: &Rc<Ctx>, action: Action<G::Move>) {
    let seat = slot::<G>(ctx).borrow().as_ref().map(|s| s.viewer);
    if let Some(seat) = seat {
        act::<G>(ctx, Actor::Seat(seat), action);
    }
}

/// Pushes the session to the screen: what every game shows, then the game's own part.
pub(crate) fn refresh<G: GameScreen>(ctx: &Rc<Ctx>) {
    let guard = slot::<G>(ctx).borrow();
    let Some(s) = guard.as_ref() else { return };
    push(&ctx.ui().global::<GameSession>(), session_ui(s));
    super::tips::offer(ctx, G::walkthrough(s));
    G::refresh_board(ctx, s, &s.view());
}

/// The models a game's board keeps on the screen: its cells, and the orientation its lines
/// were last drawn for.
pub(crate) struct BoardModel<C: 'static> {
    pub cells: Rc<VecModel<C>>,
    pub drawn_for: RefCell<Option<bool>>,
    /// The game and the last play the board showed (see [`slide_last_play`]).
    pub last_drawn: RefCell<Option<(GameId, String)>>,
}

impl<C: 'static> Default for BoardModel<C> {
    fn default() -> Self {
        BoardModel {
            cells: Rc::new(VecModel::default()),
            drawn_for: RefCell::new(None),
            last_drawn: RefCell::new(None),
        }
    }
}

/// Slides the view's last play on the board (the Motion global) when it is new since the
/// board last showed this game: `play` names it by a key and, when it should slide, its two
/// points' cell indices. The first drawing of a game, a reload or another game shows at once.
pub(crate) fn slide_last_play(
    ctx: &Rc<Ctx>,
    last_drawn: &RefCell<Option<(GameId, String)>>,
    id: GameId,
    play: Option<(String, Option<(usize, usize)>)>,
) {
    let ui = ctx.ui();
    let motion = ui.global::<qiguan_ui::Motion>();
    let key = play.as_ref().map(|(k, _)| k.clone()).unwrap_or_default();
    let before = last_drawn.replace(Some((id, key.clone())));
    let fresh = matches!(&before, Some((was, k)) if *was == id && *k != key);
    match play.and_then(|(_, squares)| squares) {
        Some((from, to)) if fresh => {
            motion.set_from(from as i32);
            motion.set_to(to as i32);
            motion.set_captured(SharedString::default());
            motion.invoke_start();
        }
        _ if fresh || before.as_ref().is_none_or(|(was, _)| *was != id) => motion.invoke_stop(),
        _ => {}
    }
}

/// In review: the finished game replayed to the action on screen, from its record.
pub(crate) fn reviewed<G: GameScreen>(s: &Session<G>) -> Option<Match<G>> {
    let (at, game) = (s.review?, s.local()?);
    let mut record = game.record();
    record.actions.truncate(at);
    Match::from_record(&record).ok()
}

/// What every game's screen shows of its session.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct SessionUi {
    pub phase: GamePhase,
    pub viewer: i32,
    pub to_move: i32,
    pub seat_colours: Vec<i32>,
    pub names: Vec<String>,
    pub computer: Vec<bool>,
    pub outcome: GameOutcome,
    pub review_ply: i32,
    pub review_plies: i32,
    pub can_offer_draw: bool,
    pub can_answer_draw: bool,
    pub can_undo: bool,
    /// Why the last tap made no move (a code the screen translates), or empty.
    pub refusal: &'static str,
    pub hides_pieces: bool,
    pub can_resign: bool,
    pub draw_offered_by: i32,
    /// The seat that declined the viewer's draw offer, until the viewer acts again; -1.
    pub draw_declined_by: i32,
    /// The viewer's seat is this device's player's own (against the computer, or by
    /// correspondence): the screen says "you".
    pub personal: bool,
    /// A person plays the computer on this device in a game with hints.
    pub offers_hints: bool,
    pub online: bool,
    pub waiting: Waiting,
    pub invite: String,
    /// A correspondence game: when the seat to act must have acted (Unix ms), as last heard.
    pub deadline: Option<i64>,
    /// A correspondence game with another person in it: phrases may be sent.
    pub can_say: bool,
    pub phrases: Vec<qiguan_ui::PhraseLine>,
    /// The computer on this device is working out its move.
    pub thinking: bool,
    /// Each seat's computer level (0: a person, or a computer without levels).
    pub levels: Vec<i32>,
    /// Each seat's computer strength where the game has three (see
    /// [`super::rows::strength_code`]).
    pub strengths: Vec<SharedString>,
    /// A hint may be asked for; one is being worked out.
    pub can_hint: bool,
    pub hinting: bool,
    /// The finished game's chance, checked.
    pub fair: FairCheck,
}

/// What the screen shows of a session: a pure function of it, for tests to call.
pub(crate) fn session_ui<G: GameScreen>(s: &Session<G>) -> SessionUi {
    let over = s.outcome().is_some();
    // Nothing to offer or resign for a computer's seat, nor once it is over.
    let acting = !over && s.computer(s.viewer).is_none();
    let legal = if acting { s.legal() } else { Vec::new() };
    SessionUi {
        phase: s.phase(),
        viewer: s.viewer.index() as i32,
        to_move: match s.to_act() {
            ToAct::Seat(seat) => seat.index() as i32,
            _ => -1,
        },
        seat_colours: G::seat_colours(s),
        names: s.players.clone(),
        computer: s.seats().map(|seat| s.computer(seat).is_some()).collect(),
        outcome: game_outcome(s.outcome().as_ref()),
        review_ply: s.review.unwrap_or(0) as i32,
        review_plies: s.version() as i32,
        can_offer_draw: legal.contains(&Action::OfferDraw),
        can_answer_draw: s.answerer().is_some(),
        can_undo: s.can_undo(),
        refusal: s.refusal.unwrap_or_default(),
        hides_pieces: G::HIDES_PIECES,
        can_resign: legal.contains(&Action::Resign),
        draw_offered_by: match s.source.draw_offer() {
            Some(offer) => offer.by.index() as i32,
            None if s.source.offer_pending() => s.viewer.index() as i32,
            None => -1,
        },
        draw_declined_by: s
            .local()
            .map(|game| declined_offer(&game.record().actions, s.viewer))
            .unwrap_or(s.declined_by)
            .map_or(-1, |seat| seat.index() as i32),
        personal: s.remote.is_some()
            || (s.seats().filter(|&seat| s.computer(seat).is_none()).count() == 1
                && s.computer(s.viewer).is_none()),
        offers_hints: G::HINTS
            && s.remote.is_none()
            && s.seats().any(|seat| s.computer(seat).is_some())
            && s.computer(s.viewer).is_none(),
        online: s.remote.is_some(),
        waiting: hidden::waiting(&s.source, s.remote.as_ref(), s.viewer, G::deployed_first(s)),
        invite: s
            .remote
            .as_ref()
            .and_then(|r| r.invite_code.clone())
            .unwrap_or_default(),
        deadline: s.remote.as_ref().and_then(|r| r.deadline),
        can_say: s.remote.is_some()
            && s.seats()
                .any(|seat| seat != s.viewer && s.computer(seat).is_none()),
        phrases: super::phrases::lines(&s.phrases),
        thinking: s.computer_thinking(),
        levels: s
            .seats()
            .map(|seat| match s.computer(seat) {
                Some(Strength::Level(n)) => i32::from(n),
                _ => 0,
            })
            .collect(),
        strengths: s
            .seats()
            .map(|seat| {
                s.computer(seat)
                    .map_or("", super::rows::strength_code)
                    .into()
            })
            .collect(),
        can_hint: s.can_hint(),
        hinting: s.hinting.is_some() && s.person_to_act(),
        fair: fair_check(s),
    }
}

/// Whether a finished game's rolls (or deal) came from the seed its authority committed to
/// at the start, checked against the revealed seed (see [`qiguan_core::fair`]). Nothing to
/// show while the game goes on, nor for a game without chance.
pub(crate) fn fair_check<G: GameScreen>(s: &Session<G>) -> FairCheck {
    let none = FairCheck::default();
    let Some(game) = s.local().filter(|g| g.outcome().is_some()) else {
        return none;
    };
    if !game.game().has_chance() {
        return none;
    }
    if let Some((version, check)) = s.fair_check.borrow().as_ref()
        && *version == game.version()
    {
        return check.clone();
    }
    let deal = G::DEALS;
    let check = match qiguan_core::fair::verify(&game.record()) {
        Verdict::NoChance => none,
        Verdict::Checked { draws } => FairCheck {
            state: 1,
            draws: draws as i32,
            failed_draw: 0,
            deal,
        },
        Verdict::Unverifiable => FairCheck {
            state: 2,
            deal,
            ..none
        },
        Verdict::Failed(f) => FairCheck {
            state: 3,
            failed_draw: f.draw.unwrap_or(0) as i32,
            deal,
            ..none
        },
        Verdict::Pending { .. } => FairCheck {
            state: 4,
            deal,
            ..none
        },
    };
    *s.fair_check.borrow_mut() = Some((game.version(), check.clone()));
    check
}

/// The seat that declined `viewer`'s last draw offer, explicitly or by moving on, if the
/// viewer has not acted since (a declined offer is news until then).
pub(crate) fn declined_offer(actions: &[RecordEntry], viewer: Seat) -> Option<Seat> {
    let (offer, decline, accept) = (
        Action::<String>::OfferDraw.to_string(),
        Action::<String>::DeclineDraw.to_string(),
        Action::<String>::AcceptDraw.to_string(),
    );
    let mut open = false;
    let mut declined = None;
    for entry in actions {
        let Actor::Seat(seat) = entry.by else {
            continue;
        };
        let text = entry.action.as_str();
        if seat == viewer {
            declined = None;
            if text == offer {
                open = true;
            }
        } else if open && text != offer && text != accept {
            // An answer other than accepting, or a move: the offer is declined.
            open = false;
            declined = Some(seat);
        } else if text == decline {
            open = false;
        }
    }
    declined
}

/// Whole minutes from `now` to a deadline (both Unix ms): 0 once it has passed, -1 for none.
pub(crate) fn minutes_left(deadline: Option<i64>, now: i64) -> i32 {
    match deadline {
        None => -1,
        Some(d) => ((d - now).max(0) / 60_000).min(i64::from(i32::MAX)) as i32,
    }
}

/// A game's result for the screens: who won, a draw, or not over yet, and why it ended.
pub(crate) fn game_outcome(outcome: Option<&Outcome>) -> GameOutcome {
    let Some(outcome) = outcome else {
        return GameOutcome::default();
    };
    let (kind, winner) = match &outcome.result {
        GameResult::Win { winners } => (
            ResultKind::Win,
            winners.first().map_or(-1, |s| s.index() as i32),
        ),
        GameResult::Ranking { order } => (
            ResultKind::Win,
            order.first().map_or(-1, |s| s.index() as i32),
        ),
        GameResult::Draw => (ResultKind::Draw, -1),
    };
    GameOutcome {
        kind,
        winner,
        reason: outcome.reason.as_str().into(),
    }
}

fn push(a: &GameSession<'_>, ui: SessionUi) {
    let strings = |v: Vec<String>| -> ModelRc<SharedString> {
        ModelRc::new(VecModel::from(
            v.into_iter().map(SharedString::from).collect::<Vec<_>>(),
        ))
    };
    a.set_phase(ui.phase);
    a.set_viewer(ui.viewer);
    a.set_to_move(ui.to_move);
    a.set_seat_colours(ModelRc::new(VecModel::from(ui.seat_colours)));
    a.set_names(strings(ui.names));
    a.set_computer(ModelRc::new(VecModel::from(ui.computer)));
    a.set_outcome(ui.outcome);
    a.set_review_ply(ui.review_ply);
    a.set_review_plies(ui.review_plies);
    a.set_can_offer_draw(ui.can_offer_draw);
    a.set_can_answer_draw(ui.can_answer_draw);
    a.set_can_undo(ui.can_undo);
    a.set_refusal(ui.refusal.into());
    a.set_hides_pieces(ui.hides_pieces);
    a.set_can_resign(ui.can_resign);
    a.set_draw_offered_by(ui.draw_offered_by);
    a.set_draw_declined_by(ui.draw_declined_by);
    a.set_personal(ui.personal);
    a.set_offers_hints(ui.offers_hints);
    a.set_online(ui.online);
    a.set_waiting(ui.waiting);
    a.set_invite(ui.invite.into());
    a.set_can_say(ui.can_say);
    a.set_phrases(ModelRc::new(VecModel::from(ui.phrases)));
    a.set_thinking(ui.thinking);
    a.set_levels(ModelRc::new(VecModel::from(ui.levels)));
    a.set_strengths(ModelRc::new(VecModel::from(ui.strengths)));
    a.set_can_hint(ui.can_hint);
    a.set_hinting(ui.hinting);
    a.set_fair(ui.fair);
    if !ui.can_say {
        a.set_choosing_phrase(false);
    }
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64);
    a.set_minutes_left(minutes_left(ui.deadline, now));
}

#[cfg(test)]
#[path = "session_tests.rs"]
mod tests;
