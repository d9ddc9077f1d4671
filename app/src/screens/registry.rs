//! The registry of games: one entry per game, which navigation, New game, correspondence, the
//! history and the sync worker's reports all read. Each game's screen module defines its own
//! [`GameEntry`] (`ENTRY`); adding a game means its core module, its screen module, its rules
//! pages and one line in [`GAMES`]. What differs between games outside their own screens (the
//! rules page, statistics, list rows, the history's filter, sharing) is a field here, so no
//! other file names a game.

use super::session::Call;
use crate::ctx::{Ctx, Sessions};
use crate::store::{GameId, StoreError};
use qiguan_core::Strength;
use qiguan_core::{GameKind, Record};
use qiguan_ui::{AppWindow, GameOutcome, ImportProblem, Screen};
use slint::ComponentHandle;
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
    /// How a list row names the winner and the seat to move, where the game names seats
    /// otherwise than by their number (by colour).
    pub row_codes: fn(outcome: GameOutcome, to_move: i32, seats: usize) -> (GameOutcome, i32),
    /// The colour a seat plays, for a game whose seats are named by turn order until play
    /// decides their colours (Junqi's flip mode); `None` where the row's seat names suffice.
    pub seat_colour: fn(&qiguan_core::AnyMatch, qiguan_core::Seat) -> Option<i32>,
    /// What the players ask through the `GameSession` global (draw, resign, undo, review,
    /// hand-over) while its screen shows. Aeroplane chess, whose screen still keeps those
    /// controls on its own adapter, ignores it.
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

/// A correspondence game to create, as chosen on screen.
#[derive(Debug)]
pub(crate) struct OnlineChoice {
    /// The options, as core serializes them for the server.
    pub options: serde_json::Value,
    /// The creator's seat.
    pub seat: u8,
    /// Seats the server's computer plays, at these strengths.
    pub bots: Vec<(u8, Strength)>,
}

impl OnlineChoice {
    /// A game of two people, the creator in `seat`.
    pub fn two_people(options: impl serde::Serialize, seat: u8) -> OnlineChoice {
        OnlineChoice {
            options: serde_json::to_value(options).unwrap_or_default(),
            seat: seat.min(1),
            bots: Vec::new(),
        }
    }
}

/// Every game, in the order the screens list them (New game's tabs, the history's filter).
pub(crate) static GAMES: [&GameEntry; 4] = [
    &super::xiangqi::ENTRY,
    &super::junqi::ENTRY,
    &super::aeroplane::ENTRY,
    &super::sealandair::ENTRY,
];

/// The entry of a kind of game, if this version of the app knows it.
pub(crate) fn find(kind: GameKind) -> Option<&'static GameEntry> {
    GAMES.iter().find(|e| e.kind == kind).copied()
}

/// The entry of a kind of game.
pub(crate) fn entry(kind: GameKind) -> &'static GameEntry {
    GAMES
        .iter()
        .find(|e| e.kind == kind)
        .copied()
        .expect("every kind of game has a registry entry")
}

/// Where a game stands in the screens' lists.
pub(crate) fn index_of(kind: GameKind) -> usize {
    GAMES.iter().position(|e| e.kind == kind).unwrap_or(0)
}

/// The game at a place in the screens' lists (the first game for a place out of range).
pub(crate) fn at(index: i32) -> &'static GameEntry {
    usize::try_from(index)
        .ok()
        .and_then(|i| GAMES.get(i))
        .copied()
        .unwrap_or(GAMES[0])
}

/// The game whose screen this is, if it is a game's screen.
pub(crate) fn on_screen(screen: Screen) -> Option<&'static GameEntry> {
    GAMES.iter().find(|e| e.screen == screen).copied()
}

/// The slots for every game screen's session.
pub(crate) fn sessions() -> Sessions {
    Sessions::new(GAMES.iter().flat_map(|e| (e.sessions)()).collect())
}

/// Passes a call from the `GameSession` global to the game on screen.
pub(crate) fn session_call(ctx: &Rc<Ctx>, call: Call) {
    let screen = ctx.ui().global::<qiguan_ui::Nav>().get_screen();
    if let Some(entry) = on_screen(screen) {
        (entry.session_call)(ctx, call);
    }
}

/// The kind of a stored game.
fn kind_of(ctx: &Rc<Ctx>, id: GameId) -> Result<GameKind, StoreError> {
    ctx.with_store(|store| store.summaries(&[id]))?
        .first()
        .map(|g| g.kind)
        .ok_or(StoreError::NoSuchGame(id))
}

/// Opens a stored game on its game's screen.
pub(crate) fn open(ctx: &Rc<Ctx>, id: GameId) {
    match kind_of(ctx, id) {
        Ok(kind) => (entry(kind).open)(ctx, id),
        Err(e) => super::show_error(ctx, &e.to_string()),
    }
}

/// Opens a stored game to look back on.
pub(crate) fn review(ctx: &Rc<Ctx>, id: GameId, at_end: bool) {
    match kind_of(ctx, id) {
        Ok(kind) => (entry(kind).review)(ctx, id, at_end),
        Err(e) => super::show_error(ctx, &e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_has_one_entry_in_core_order_with_a_screen_of_its_own() {
        let kinds: Vec<GameKind> = GAMES.iter().map(|e| e.kind).collect();
        assert_eq!(kinds, GameKind::ALL);
        for (i, entry) in GAMES.iter().enumerate() {
            assert_eq!(index_of(entry.kind), i);
            assert_eq!(at(i as i32).kind, entry.kind);
            assert_eq!(on_screen(entry.screen).map(|e| e.kind), Some(entry.kind));
        }
        assert_eq!(at(-1).kind, GAMES[0].kind);
        assert_eq!(at(99).kind, GAMES[0].kind);
        assert!(on_screen(Screen::Home).is_none());
    }

    #[test]
    fn every_game_of_core_has_an_entry_and_a_rules_page_in_both_languages() {
        for kind in GameKind::ALL {
            let entry = find(kind).unwrap_or_else(|| panic!("{kind:?} has no registry entry"));
            for page in [entry.rules.english, entry.rules.chinese] {
                assert!(page.starts_with("# "), "{kind:?}'s rules page has no title");
                assert!(page.len() > 1000, "{kind:?}'s rules page is a stub");
            }
            assert_ne!(entry.rules.english, entry.rules.chinese, "{kind:?}");
            assert!((2..=4).contains(&entry.most_seats), "{kind:?}");
        }
    }
}
