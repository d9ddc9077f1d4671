//! The registry entry's type: what one game brings to the app. The games' own list of
//! entries is [`crate::games::GAMES`]; [`entry`] makes the entry of a [`GameScreen`], the shared
//! session doing everything but connect the game's own controls.

use super::choices::OnlineChoice;
use super::controls::call;
use super::lifecycle::{open, reload_if_open, set_sync_status, start_from};
use super::session::{Call, GameScreen, Session, shown};
use super::view::refresh;
use crate::shell::ctx::{Ctx, Sessions};
use crate::store::GameId;
use qiguan_core::{GameKind, Record};
use qiguan_ui::{AppWindow, GameOutcome, ImportProblem, OpeningName, Screen};
use std::any::Any;
use std::rc::Rc;

/// What one game brings to the app.
pub(crate) struct GameEntry {
    pub kind: GameKind,
    /// The screen it is played on.
    pub screen: Screen,
    /// Connects its screens' callbacks (once, at start-up).
    pub connect: fn(&Rc<Ctx>),
    /// Empty slots for its screens' sessions ([`Sessions::slot`]).
    pub sessions: fn() -> Vec<Box<dyn Any>>,
    /// Opens a stored game to play on (a finished one to look at).
    pub open: fn(&Rc<Ctx>, GameId),
    /// Opens a stored game to look back on (`at_end`: at its last action).
    pub review: fn(&Rc<Ctx>, GameId, bool),
    /// The stored game its screen holds, if any.
    pub shown: fn(&Ctx) -> Option<GameId>,
    /// Draws its screen again (when it comes back into view).
    pub refresh: fn(&Rc<Ctx>),
    /// Reloads the game on its screen if the sync worker changed one of these.
    pub reload_if_open: fn(&Rc<Ctx>, &[GameId]),
    /// Shows whether the game on its screen has reached the server (`online`, actions waiting).
    pub set_sync_status: fn(&Rc<Ctx>, bool, usize),
    /// Starts a game on this device with what the New game screen chose.
    pub start: fn(&Rc<Ctx>),
    /// What the New game screen chose, for a correspondence game this device creates in the
    /// seat `side` chose on the correspondence screen.
    pub online: fn(&AppWindow, u8) -> OnlineChoice,
    /// Reads a game pasted or opened in the game's own notation or files (PGN, FEN, XQF) into
    /// a record and its players' names, for the history's import; `None` for a game with no
    /// notation to import.
    pub import: Option<Importer>,
    /// Names an opening stored with a game (Xiangqi's), for list rows; `None` for a game
    /// without named openings.
    pub opening: Option<fn(&str) -> OpeningName>,
    /// How a list row names the winner and the seat to move, where the game names seats
    /// otherwise than by their number (by colour).
    pub row_codes: fn(outcome: GameOutcome, to_move: i32, seats: usize) -> (GameOutcome, i32),
    /// The colour a seat plays, for a game whose seats are named by turn order until play
    /// decides their colours (Junqi's flip mode); `None` where the row's seat names suffice.
    pub seat_colour: fn(&qiguan_core::AnyMatch, qiguan_core::Seat) -> Option<i32>,
    /// What the players ask through the `GameSession` global (draw, resign, undo, review,
    /// hand-over, phrases) while its screen shows.
    pub session_call: fn(&Rc<Ctx>, Call),
    /// Its rules page for players, in both languages (`docs/rules/`).
    pub rules: RulesPage,
    /// It hides pieces until the game ends (the authority referees; a shared page shows a
    /// spectator's view meanwhile).
    pub hides_pieces: bool,
    /// Its computer plays at levels the player picks (statistics count each level apart).
    pub computer_levels: bool,
    /// A list row names the computer's level; false where the game names its computers on
    /// its own board (Aeroplane chess).
    pub level_in_rows: bool,
    /// The most seats a game of it has (the history filters by the seat you played).
    pub most_seats: i32,
}

/// A game's rules page, as `docs/rules/` publishes it: English and Chinese.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RulesPage {
    pub english: &'static str,
    pub chinese: &'static str,
}

/// Reads pasted text or a file's bytes into a game's record and its players' names.
pub(crate) type Importer = fn(&[u8]) -> Result<Imported, ImportProblem>;

/// A game read from pasted text or a file.
pub(crate) struct Imported {
    pub record: Record,
    pub players: Vec<String>,
    /// Its variations and comments, as the replay keeps them (none for a single line).
    pub study: Option<String>,
}

/// The registry entry of a game: the shared session does everything but connect the game's
/// own controls.
pub(crate) const fn entry<G: GameScreen>(connect: fn(&Rc<Ctx>), rules: RulesPage) -> GameEntry {
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
        opening: None,
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
        crate::shell::bind::show_error(ctx, &e);
    }
}

fn online_choice<G: GameScreen>(ui: &AppWindow, side: u8) -> OnlineChoice {
    OnlineChoice::two_people(G::chosen_options(ui), side)
}

fn sessions<G: GameScreen>() -> Vec<Box<dyn Any>> {
    vec![Sessions::slot::<Session<G>>()]
}

fn open_to_review<G: GameScreen>(ctx: &Rc<Ctx>, id: GameId, _at_end: bool) {
    open::<G>(ctx, id);
}
