//! The games: one module per game (its [`GameScreen`](crate::play::GameScreen), its own
//! controls and its registry entry `ENTRY`), and [`GAMES`], the registry that navigation, New
//! game, correspondence, the history and the sync worker's reports read. Adding a game means
//! its core module, its module here, its `ui/ui/games/<game>/` folder and one line in
//! [`GAMES`]. What differs between games outside their own screens (the rules page,
//! statistics, list rows, the history's filter, sharing) is a field of its entry
//! ([`GameEntry`]), so no other file names a game.

pub mod aeroplane;
pub mod junqi;
pub mod sealandair;
pub mod xiangqi;

use crate::play::{Call, GameEntry};
use crate::shell::bind::show_error;
use crate::shell::ctx::{Ctx, Sessions};
use crate::store::{GameId, StoreError};
use qiguan_core::GameKind;
use qiguan_ui::Screen;
use slint::ComponentHandle;
use std::rc::Rc;

/// Every game, in the order the screens list them (New game's tabs, the history's filter).
pub(crate) static GAMES: [&GameEntry; 4] = [
    &xiangqi::ENTRY,
    &junqi::ENTRY,
    &aeroplane::ENTRY,
    &sealandair::ENTRY,
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

/// The game whose screen shows now, if a game's screen shows.
pub(crate) fn shown_entry(ctx: &Ctx) -> Option<&'static GameEntry> {
    on_screen(ctx.ui().global::<qiguan_ui::Nav>().get_screen())
}

/// The stored game on the screen that shows now, if a game's screen shows one.
pub(crate) fn shown_game(ctx: &Ctx) -> Option<GameId> {
    shown_entry(ctx).and_then(|e| (e.shown)(ctx))
}

/// Passes a call from the `GameSession` global to the game on screen.
pub(crate) fn session_call(ctx: &Rc<Ctx>, call: Call) {
    if let Some(entry) = shown_entry(ctx) {
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
        Err(e) => show_error(ctx, &e.to_string()),
    }
}

/// Opens a stored game to look back on.
pub(crate) fn review(ctx: &Rc<Ctx>, id: GameId, at_end: bool) {
    match kind_of(ctx, id) {
        Ok(kind) => (entry(kind).review)(ctx, id, at_end),
        Err(e) => show_error(ctx, &e.to_string()),
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
