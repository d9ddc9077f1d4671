//! One session for the screens of the games with secrets (Junqi, Sea-land-air): open, load,
//! act (stored before it shows, or queued for the server), the computer's turn, whose view
//! shows and the hand-over screen, draw offers, resignation, review, reload after the sync
//! worker changed the game, and the sync line. A game supplies only what is its own through
//! [`SecretGame`]: its board, how a deployment starts, and its computer.
//!
//! What the screen shows of the session is computed by [`session_ui`], a pure function, and
//! handed to the `GameSession` global in one call.

use super::hidden::{self, Seen, Source};
use super::registry::{GameEntry, OnlineChoice};
use crate::ctx::{Ctx, Sessions};
use crate::online::Command;
use crate::random::os_pick;
use crate::store::{GameId, Mode, NewGame, RemoteGame, Standing};
use qiguan_core::deploy::{Deploys, Fight};
use qiguan_core::junqi::Side;
use qiguan_core::{Action, Actor, GameResult, Match, MatchView, Outcome, Seat, ToAct, Viewer};
use qiguan_ui::{
    Battle, BattleBanner, GameOutcome, GamePhase, GameSession, NewGameAdapter, ResultKind, Screen,
    SyncLine, Waiting,
};
use serde::de::DeserializeOwned;
use slint::{ComponentHandle, ModelRc, SharedString, VecModel};
use std::cell::RefCell;
use std::rc::Rc;

/// What a game with secrets brings to the shared session.
pub(crate) trait SecretGame: Deploys<View: DeserializeOwned> + Sized + 'static {
    /// What the screen keeps of its own (its models).
    type Board: Default + 'static;
    /// The screen it is played on.
    const SCREEN: Screen;

    /// The options New game chose.
    fn chosen_options(a: &NewGameAdapter<'_>) -> Self::Options;
    /// A tap at `p` in play: the move it completes, if any (else it changes the selection).
    fn tap_play(session: &mut Session<Self>, p: Self::Point) -> Option<Self::Move>;
    /// Whether one seat may see something the other may not right now (a hand-over screen
    /// goes up between two people at one device).
    fn has_secrets(session: &Session<Self>) -> bool;
    /// The deployment a seat starts arranging from.
    fn first_draft(session: &Session<Self>, seat: Seat) -> Option<Self::Deployment>;
    /// The computer's answer to a draw offer.
    fn computer_accepts_draw(view: &Self::View, seat: Seat) -> bool;
    /// The computer's move, from its seat's view only.
    fn computer_move(view: &Self::View, seat: Seat, options: &Self::Options) -> Option<Self::Move>;
    /// What the banner over the board says of the last play.
    fn banner(session: &Session<Self>, view: &Self::View) -> BannerUi;
    /// Draws the game's own part of the screen (its board and panels), from the viewer's view.
    fn refresh_board(ctx: &Rc<Ctx>, session: &Session<Self>, view: &Self::View);
}

/// A game with secrets on its screen.
pub(crate) struct Session<G: SecretGame> {
    pub id: GameId,
    pub source: Source<G>,
    pub players: [String; 2],
    /// The seat the computer plays, if any.
    pub computer: Option<Seat>,
    /// The server link of a correspondence game.
    pub remote: Option<RemoteGame>,
    /// The seat whose view is on the screen.
    pub viewer: Seat,
    /// The hand-over screen is up: nothing of the board shows.
    pub handover: bool,
    pub selected: Option<G::Point>,
    /// The viewer's deployment being arranged.
    pub draft: Option<G::Deployment>,
    /// In review: the number of actions shown.
    pub review: Option<usize>,
    /// The last play whose banner has been shown, and to which seat (a new one shows when
    /// either differs).
    pub shown: RefCell<Option<(Seat, G::Seen)>>,
    pub board: G::Board,
}

impl<G: SecretGame> Session<G> {
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

    pub fn deploying(&self) -> bool {
        G::view_deploying(&self.view())
    }

    /// The side `seat` plays, as far as the viewer's view tells.
    pub fn side_of(&self, seat: Seat) -> Option<Side> {
        G::view_side(&self.view(), seat)
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

    /// The viewer's deployment waiting for the server, if any.
    pub fn pending_deployment(&self) -> Option<G::Deployment> {
        let side = self.side_of(self.viewer)?;
        self.source
            .pending()
            .iter()
            .find_map(|text| match text.parse::<Action<G::Move>>() {
                Ok(Action::Play(mv)) => G::layout_of(&mv, side)?.ok(),
                _ => None,
            })
    }

    /// The seat this device always shows: the person's against the computer, its own in a
    /// correspondence game; none in pass-and-play.
    pub fn fixed_seat(&self) -> Option<Seat> {
        self.computer
            .map(|bot| bot.next(2))
            .or_else(|| self.remote.as_ref().and_then(|r| Seat::new(r.seat)))
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

/// The registry entry of a game with secrets: the shared session does everything but connect
/// the game's own controls.
pub(crate) const fn entry<G: SecretGame>(connect: fn(&Rc<Ctx>)) -> GameEntry {
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
    }
}

/// Starts a game on this device with what New game chose: two people, or one against the
/// computer.
fn start_chosen<G: SecretGame>(ctx: &Rc<Ctx>, a: &NewGameAdapter<'_>) {
    let (players, computer) = super::new_game::two_seats(a);
    if let Err(e) = start::<G>(ctx, &G::chosen_options(a), players, computer) {
        super::show_error(ctx, &e);
    }
}

fn online_choice<G: SecretGame>(a: &NewGameAdapter<'_>, side: u8) -> OnlineChoice {
    OnlineChoice::two_people(G::chosen_options(a), side)
}

/// Starts a new game on this device: stores it with what this device dealt as the authority
/// (the operating system's randomness), lets the computer deploy, and opens it.
pub(crate) fn start<G: SecretGame>(
    ctx: &Rc<Ctx>,
    options: &G::Options,
    players: Vec<String>,
    computer: Option<Seat>,
) -> Result<GameId, String> {
    let mut game: Match<G> = Match::new(options, None).map_err(|e| e.to_string())?;
    let dealt = game
        .resolve_chance(&mut os_pick)
        .map_err(|e| e.to_string())?;
    let mode = computer.map_or(Mode::PassAndPlay, |s| Mode::Computer(s.index() as u8));
    let new = NewGame::from_record(&game.record(), mode, players);
    let standing = Standing::new(&dealt, game.outcome());
    let now = ctx.now();
    let id = ctx
        .with_store(|store| store.create_game_with(&new, &dealt, &standing, now))
        .map_err(|e| e.to_string())?;
    ctx.reset_to(Screen::Home);
    open::<G>(ctx, id);
    Ok(id)
}

fn sessions<G: SecretGame>() -> Vec<Box<dyn std::any::Any>> {
    vec![Sessions::slot::<Session<G>>()]
}

fn open_to_review<G: SecretGame>(ctx: &Rc<Ctx>, id: GameId, _at_end: bool) {
    open::<G>(ctx, id);
}

fn shown<G: SecretGame>(ctx: &Ctx) -> Option<GameId> {
    slot::<G>(ctx).borrow().as_ref().map(|s| s.id)
}

/// The session slot of game `G`.
pub(crate) fn slot<G: SecretGame>(ctx: &Ctx) -> &RefCell<Option<Session<G>>> {
    ctx.session()
}

/// What the players ask of the session through the `GameSession` global.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Call {
    HandoverDone,
    Resign,
    OfferDraw,
    AnswerDraw(bool),
    Review,
    ReviewStep(i32),
    NewGame,
}

/// Handles a call from the `GameSession` global for the game on screen.
fn call<G: SecretGame>(ctx: &Rc<Ctx>, call: Call) {
    match call {
        Call::HandoverDone => {
            if let Some(s) = slot::<G>(ctx).borrow_mut().as_mut() {
                s.handover = false;
            }
        }
        Call::Resign => return viewer_acts::<G>(ctx, Action::Resign),
        Call::OfferDraw => return viewer_acts::<G>(ctx, Action::OfferDraw),
        Call::AnswerDraw(true) => return viewer_acts::<G>(ctx, Action::AcceptDraw),
        Call::AnswerDraw(false) => return viewer_acts::<G>(ctx, Action::DeclineDraw),
        Call::Review => {
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
        Call::NewGame => {
            ctx.ui().global::<GameSession>().set_show_end_dialog(false);
            ctx.reset_to(Screen::Home);
            return super::new_game::open(ctx, G::KIND);
        }
    }
    refresh::<G>(ctx);
}

/// Loads a stored game and shows it: behind the hand-over screen if it has secrets.
pub(crate) fn open<G: SecretGame>(ctx: &Rc<Ctx>, id: GameId) {
    match load::<G>(ctx, id) {
        Ok(mut session) => {
            run_computer(ctx, &mut session);
            settle_viewer(&mut session, true);
            let online = session.remote.is_some();
            *slot::<G>(ctx).borrow_mut() = Some(session);
            let ui = ctx.ui();
            let a = ui.global::<GameSession>();
            a.set_show_end_dialog(false);
            a.set_confirm_resign(false);
            a.set_sync_line(SyncLine::Current);
            refresh::<G>(ctx);
            ctx.go(G::SCREEN);
            if online {
                ctx.send(Command::Watch(Some(id)));
                ctx.send(Command::Flush);
            }
        }
        Err(e) => super::show_error(ctx, &e),
    }
}

fn load<G: SecretGame>(ctx: &Rc<Ctx>, id: GameId) -> Result<Session<G>, String> {
    let loaded = hidden::load::<G>(ctx, id)?;
    Ok(Session {
        id,
        source: loaded.source,
        players: loaded.players,
        computer: loaded.computer,
        remote: loaded.remote,
        viewer: loaded.viewer,
        handover: false,
        selected: None,
        draft: None,
        review: None,
        shown: RefCell::new(None),
        board: G::Board::default(),
    })
}

/// Reloads the open game if the sync worker changed it, keeping a deployment being arranged.
pub(crate) fn reload_if_open<G: SecretGame>(ctx: &Rc<Ctx>, ids: &[GameId]) {
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
            session.shown = old.shown;
            session.draft = old.draft;
            session.selected = old.selected;
            session.board = old.board;
            settle_viewer(&mut session, false);
            let over = session.outcome().is_some();
            *slot::<G>(ctx).borrow_mut() = Some(session);
            if over && !was_over {
                ctx.ui().global::<GameSession>().set_show_end_dialog(true);
            }
            refresh::<G>(ctx);
        }
        Err(e) => {
            *slot::<G>(ctx).borrow_mut() = Some(old);
            super::show_error(ctx, &e);
        }
    }
}

/// Shows whether the open correspondence game's actions have reached the server.
pub(crate) fn set_sync_status<G: SecretGame>(ctx: &Rc<Ctx>, online: bool, pending: usize) {
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
fn settle_viewer<G: SecretGame>(s: &mut Session<G>, opening: bool) {
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
    }
    let deployed = G::view_deployed(&s.view(), next) || s.pending_deployment().is_some();
    if !s.deploying() || deployed {
        s.draft = None;
    } else if s.draft.is_none() {
        s.draft = G::first_draft(s, next);
    }
}

/// Lets the computer act for as long as it is due, storing each action: it answers a draw
/// offer, then deploys or moves. It decides from its seat's view only.
fn run_computer<G: SecretGame>(ctx: &Rc<Ctx>, s: &mut Session<G>) {
    let Some(bot_seat) = s.computer else { return };
    for _ in 0..4 {
        let Some(game) = s.local() else { return };
        let actor = Actor::Seat(bot_seat);
        let view = game.game().view(Viewer::Seat(bot_seat));
        let answerable = game.legal_actions(actor).contains(&Action::AcceptDraw);
        let action = if answerable {
            if G::computer_accepts_draw(&view, bot_seat) {
                Action::AcceptDraw
            } else {
                Action::DeclineDraw
            }
        } else {
            if !game.to_act().includes(actor) {
                return;
            }
            match G::computer_move(&view, bot_seat, game.game().options()) {
                Some(mv) => Action::Play(mv),
                None => return,
            }
        };
        if let Err(e) = hidden::store_and_apply(ctx, s.id, &mut s.source, actor, &action) {
            super::show_error(ctx, &e);
            return;
        }
        s.selected = None;
    }
}

/// A player's action: stored (or queued for the server), then the computer's answer, then
/// shown.
pub(crate) fn act<G: SecretGame>(ctx: &Rc<Ctx>, actor: Actor, action: Action<G::Move>) {
    let Some(mut s) = slot::<G>(ctx).borrow_mut().take() else {
        return;
    };
    let remote = s.seen().is_some();
    let result = if remote {
        hidden::queue_remote(ctx, s.id, &mut s.source, &action).map(|()| s.draft = None)
    } else {
        hidden::store_and_apply(ctx, s.id, &mut s.source, actor, &action)
    };
    if result.is_ok() {
        s.selected = None;
        run_computer(ctx, &mut s);
        settle_viewer(&mut s, false);
    }
    let over = s.outcome().is_some();
    *slot::<G>(ctx).borrow_mut() = Some(s);
    let ui = ctx.ui();
    let a = ui.global::<GameSession>();
    match result {
        Err(e) => super::show_error(ctx, &e),
        Ok(()) if over => a.set_show_end_dialog(true),
        Ok(()) if remote => a.set_sync_line(SyncLine::Sending),
        Ok(()) => {}
    }
    refresh::<G>(ctx);
}

/// The viewer sends the deployment it arranged, if it is complete and legal.
pub(crate) fn deploy_ready<G: SecretGame>(ctx: &Rc<Ctx>) {
    let chosen = slot::<G>(ctx)
        .borrow()
        .as_ref()
        .and_then(|s| G::deploy(s.draft.as_ref()?).ok());
    if let Some(mv) = chosen {
        viewer_acts::<G>(ctx, Action::Play(mv));
    }
}

/// A tap on the board's cell `index`: it arranges the deployment, selects a piece, or makes
/// the move it completes. Nothing happens behind the hand-over screen, in review or at the end.
pub(crate) fn tap<G: SecretGame>(ctx: &Rc<Ctx>, index: i32) {
    let Some(p) = usize::try_from(index).ok().and_then(G::point) else {
        return;
    };
    let chosen = {
        let mut guard = slot::<G>(ctx).borrow_mut();
        let Some(s) = guard.as_mut() else { return };
        if s.handover || s.review.is_some() || s.outcome().is_some() {
            return;
        }
        if s.draft.is_some() {
            tap_draft(s, p);
            None
        } else {
            G::tap_play(s, p)
        }
    };
    match chosen {
        Some(mv) => viewer_acts::<G>(ctx, Action::Play(mv)),
        None => refresh::<G>(ctx),
    }
}

/// A tap at `p` while a deployment is arranged: tap two of your pieces to swap them.
fn tap_draft<G: SecretGame>(s: &mut Session<G>, p: G::Point) {
    let Some(draft) = s.draft.as_mut() else {
        return;
    };
    match s.selected {
        _ if !G::has_piece(draft, p) => s.selected = None,
        Some(first) if first == p => s.selected = None,
        Some(first) if G::swap(draft, first, p) => s.selected = None,
        _ => s.selected = Some(p),
    }
}

/// The viewer acts: a move chosen on the board, a deployment, a draw offer or resignation.
pub(crate) fn viewer_acts<G: SecretGame>(ctx: &Rc<Ctx>, action: Action<G::Move>) {
    let seat = slot::<G>(ctx).borrow().as_ref().map(|s| s.viewer);
    if let Some(seat) = seat {
        act::<G>(ctx, Actor::Seat(seat), action);
    }
}

/// Pushes the session to the screen: what every game shows, the banner, then the game's own
/// part.
pub(crate) fn refresh<G: SecretGame>(ctx: &Rc<Ctx>) {
    let guard = slot::<G>(ctx).borrow();
    let Some(s) = guard.as_ref() else { return };
    let ui = ctx.ui();
    push(&ui.global::<GameSession>(), session_ui(s));
    let view = s.view();
    push_banner(&ui.global::<BattleBanner>(), s, &view);
    G::refresh_board(ctx, s, &view);
}

/// The banner over the board: the last play as far as the viewer may know it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct BannerUi {
    pub battle: Battle,
    /// Where it happened.
    pub at: String,
    /// The pieces' names ("?" for one the viewer may not know; empty for none).
    pub attacker: String,
    pub defender: String,
    pub attacker_colour: i32,
    /// Junqi's flip mode: the piece just turned up, and its colour.
    pub turned_up: String,
    pub turned_up_colour: i32,
    /// The opposing pieces the viewer's recon plane just revealed.
    pub spotted: i32,
}

impl Default for BannerUi {
    fn default() -> BannerUi {
        BannerUi {
            battle: Battle::NothingToShow,
            at: String::new(),
            attacker: String::new(),
            defender: String::new(),
            attacker_colour: -1,
            turned_up: String::new(),
            turned_up_colour: -1,
            spotted: 0,
        }
    }
}

impl BannerUi {
    /// Whether there is anything to show.
    pub fn has_news(&self) -> bool {
        self.battle != Battle::NothingToShow || !self.turned_up.is_empty() || self.spotted > 0
    }
}

impl From<Fight> for BannerUi {
    fn from(f: Fight) -> BannerUi {
        let battle = match (f.flag_taken, f.sent_home) {
            (true, _) => Battle::Flag,
            (_, true) => Battle::Home,
            _ => match (f.attacker_removed, f.defender_removed) {
                (true, true) => Battle::Both,
                (false, true) => Battle::Won,
                (true, false) => Battle::Lost,
                (false, false) => Battle::NoEffect,
            },
        };
        let [attacker, defender] = f.names;
        BannerUi {
            battle,
            at: f.at,
            attacker,
            defender,
            attacker_colour: f.attacker_side.map_or(-1, |side| side as i32),
            ..BannerUi::default()
        }
    }
}

/// The models a game's board keeps on the screen: its cells, and the orientation its lines
/// were last drawn for.
pub(crate) struct BoardModel<C: 'static> {
    pub cells: Rc<VecModel<C>>,
    pub drawn_for: RefCell<Option<bool>>,
}

impl<C: 'static> Default for BoardModel<C> {
    fn default() -> Self {
        BoardModel {
            cells: Rc::new(VecModel::default()),
            drawn_for: RefCell::new(None),
        }
    }
}

/// In review: the finished game replayed to the action on screen, from its record.
pub(crate) fn reviewed<G: SecretGame>(s: &Session<G>) -> Option<Match<G>> {
    let (at, game) = (s.review?, s.local()?);
    let mut record = game.record();
    record.actions.truncate(at);
    Match::from_record(&record).ok()
}

/// Sets the banner, and raises it when the last play differs from the last one shown to this
/// viewer (a new action, or the other player's view of it after a hand-over).
fn push_banner<G: SecretGame>(a: &BattleBanner<'_>, s: &Session<G>, view: &G::View) {
    let banner = if s.review.is_some() {
        BannerUi::default()
    } else {
        G::banner(s, view)
    };
    a.set_battle(banner.battle);
    a.set_at(banner.at.as_str().into());
    a.set_attacker(banner.attacker.as_str().into());
    a.set_defender(banner.defender.as_str().into());
    a.set_attacker_colour(banner.attacker_colour);
    a.set_turned_up(banner.turned_up.as_str().into());
    a.set_turned_up_colour(banner.turned_up_colour);
    a.set_spotted(banner.spotted);
    let may_show = matches!(s.phase(), GamePhase::Play | GamePhase::Over) && s.review.is_none();
    if may_show && let Some(last) = G::last_play(view) {
        let key = (s.viewer, last.clone());
        if s.shown.borrow().as_ref() != Some(&key) {
            *s.shown.borrow_mut() = Some(key);
            a.set_visible(banner.has_news());
        }
    }
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
    pub can_resign: bool,
    pub draw_offered_by: i32,
    pub online: bool,
    pub waiting: Waiting,
    pub invite: String,
}

/// What the screen shows of a session: a pure function of it, for tests to call.
pub(crate) fn session_ui<G: SecretGame>(s: &Session<G>) -> SessionUi {
    let over = s.outcome().is_some();
    let legal = if over { Vec::new() } else { s.legal() };
    let seats = [Seat::FIRST, Seat::SECOND];
    let deployed_first = s.deploying() && s.draft.is_none();
    SessionUi {
        phase: s.phase(),
        viewer: s.viewer.index() as i32,
        to_move: match s.to_act() {
            ToAct::Seat(seat) => seat.index() as i32,
            _ => -1,
        },
        seat_colours: seats
            .iter()
            .map(|&seat| s.side_of(seat).map_or(-1, |side| side as i32))
            .collect(),
        names: s.players.to_vec(),
        computer: seats.iter().map(|&seat| s.computer == Some(seat)).collect(),
        outcome: game_outcome(s.outcome().as_ref()),
        review_ply: s.review.unwrap_or(0) as i32,
        review_plies: s.version() as i32,
        can_offer_draw: legal.contains(&Action::OfferDraw),
        can_answer_draw: legal.contains(&Action::AcceptDraw),
        can_resign: legal.contains(&Action::Resign),
        draw_offered_by: match s.source.draw_offer() {
            Some(offer) => offer.by.index() as i32,
            None if s.source.offer_pending() => s.viewer.index() as i32,
            None => -1,
        },
        online: s.remote.is_some(),
        waiting: hidden::waiting(&s.source, s.remote.as_ref(), s.viewer, deployed_first),
        invite: s
            .remote
            .as_ref()
            .and_then(|r| r.invite_code.clone())
            .unwrap_or_default(),
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
    a.set_can_resign(ui.can_resign);
    a.set_draw_offered_by(ui.draw_offered_by);
    a.set_online(ui.online);
    a.set_waiting(ui.waiting);
    a.set_invite(ui.invite.into());
}

#[cfg(test)]
mod tests {
    use super::*;
    use qiguan_core::junqi::{Junqi, JunqiOptions, Visibility};
    use qiguan_core::{EndReason, GameResult};

    /// A Junqi game on this device, dealt, with the computer in `computer`.
    fn junqi(visibility: Visibility, computer: Option<Seat>) -> Session<Junqi> {
        let options = JunqiOptions {
            visibility,
            ..JunqiOptions::default()
        };
        let mut game = Match::<Junqi>::new(&options, None).expect("a new game");
        game.resolve_chance(&mut |_| 0).expect("the deal");
        Session {
            id: GameId(1),
            source: Source::Local(Box::new(game)),
            players: ["甲".into(), String::new()],
            computer,
            remote: None,
            viewer: Seat::FIRST,
            handover: false,
            selected: None,
            draft: None,
            review: None,
            shown: RefCell::new(None),
            board: Default::default(),
        }
    }

    #[test]
    fn two_people_with_secrets_get_the_hand_over_screen_and_the_computer_none() {
        let mut s = junqi(Visibility::Referee, None);
        settle_viewer(&mut s, true);
        assert_eq!(session_ui(&s).phase, GamePhase::Handover);
        s.handover = false;
        let ui = session_ui(&s);
        assert_eq!(ui.phase, GamePhase::Deploy, "a layout to arrange");
        assert_eq!(ui.names, vec!["甲".to_owned(), String::new()]);
        assert_eq!(ui.computer, vec![false, false]);
        assert_eq!(ui.seat_colours, vec![0, 1]);
        assert!(!ui.online);
        assert_eq!(ui.waiting, Waiting::Nothing);

        let mut s = junqi(Visibility::Referee, Some(Seat::SECOND));
        settle_viewer(&mut s, true);
        let ui = session_ui(&s);
        assert_eq!(
            ui.phase,
            GamePhase::Deploy,
            "no hand-over against the computer"
        );
        assert_eq!(ui.computer, vec![false, true]);
    }

    #[test]
    fn flip_mode_has_no_secrets_between_the_players_and_no_colours_yet() {
        let mut s = junqi(Visibility::Flip, None);
        settle_viewer(&mut s, true);
        let ui = session_ui(&s);
        assert_eq!(ui.phase, GamePhase::Play);
        assert_eq!(
            ui.seat_colours,
            vec![-1, -1],
            "colours come with the first flips"
        );
        assert_eq!(ui.to_move, 0);
        assert!(ui.can_resign);
        assert!(ui.can_offer_draw);
        assert!(!ui.can_answer_draw);
        assert_eq!(ui.draw_offered_by, -1);
        s.review = Some(0);
        assert_eq!(session_ui(&s).phase, GamePhase::Review);
    }

    #[test]
    fn a_result_reaches_the_screen_as_one_typed_value() {
        assert_eq!(game_outcome(None).kind, ResultKind::Unfinished);
        let won = Outcome {
            result: GameResult::Win {
                winners: vec![Seat::SECOND],
            },
            reason: EndReason::FlagCaptured,
        };
        let shown = game_outcome(Some(&won));
        assert_eq!(shown.kind, ResultKind::Win);
        assert_eq!(shown.winner, 1);
        assert_eq!(shown.reason, "flag-captured");
        let drawn = Outcome {
            result: GameResult::Draw,
            reason: EndReason::DrawAgreed,
        };
        assert_eq!(game_outcome(Some(&drawn)).kind, ResultKind::Draw);
        let ranked = Outcome {
            result: GameResult::Ranking {
                order: vec![Seat::new(2).expect("seat"), Seat::FIRST],
            },
            reason: EndReason::AllHome,
        };
        assert_eq!(game_outcome(Some(&ranked)).winner, 2);
    }

    #[test]
    fn the_sync_line_is_typed() {
        assert_eq!(hidden::sync_line(true, 0), SyncLine::Current);
        assert_eq!(hidden::sync_line(true, 2), SyncLine::Sending);
        assert_eq!(hidden::sync_line(false, 1), SyncLine::Offline);
        assert_eq!(hidden::sync_line(false, 0), SyncLine::OfflineIdle);
    }
}
