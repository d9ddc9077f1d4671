//! Navigation between screens: forward with a way back, back, and the game on screen
//! remembered so that a restart can bring it back.

use crate::games;
use crate::shell::ctx::Ctx;
use crate::store::GameId;
use qiguan_ui::{Nav, Screen};
use slint::ComponentHandle;
use std::rc::Rc;

/// The setting that names the game on screen (empty when none is).
const RESUME_KEY: &str = "resume-game";

impl Ctx {
    /// Shows `screen`, remembering where to go back to.
    pub(crate) fn go(self: &Rc<Self>, screen: Screen) {
        let ui = self.ui();
        let current = ui.global::<Nav>().get_screen();
        if current != screen {
            self.back_stack.borrow_mut().push(current);
        }
        self.show(screen);
    }

    /// Shows `screen` with nothing to go back to but home.
    pub(crate) fn reset_to(self: &Rc<Self>, screen: Screen) {
        *self.back_stack.borrow_mut() = if screen == Screen::Home {
            vec![]
        } else {
            vec![Screen::Home]
        };
        self.show(screen);
    }

    /// Goes back one screen (home when there is nothing to go back to).
    pub(crate) fn back(self: &Rc<Self>) {
        let previous = self.back_stack.borrow_mut().pop().unwrap_or(Screen::Home);
        self.show(previous);
    }

    fn show(self: &Rc<Self>, screen: Screen) {
        // Only a game's own screen keeps the sync worker watching its game.
        if games::on_screen(screen).is_none() {
            self.send(crate::sync::Command::Watch(None));
        }
        self.remember_screen(screen);
        if let Some(entry) = games::on_screen(screen) {
            // The screens of several games share globals (GameSession): show this game's.
            (entry.refresh)(self);
        }
        match screen {
            Screen::Online => super::online::refresh(self),
            Screen::Home => super::home::refresh(self),
            Screen::History => super::history::show(self),
            Screen::Settings => super::settings::refresh(self),
            Screen::Devices => super::devices::refresh(self),
            Screen::Statistics => super::stats::refresh(self),
            Screen::Rules => super::rules::refresh(self),
            _ => {}
        }
        self.ui().global::<Nav>().set_screen(screen);
    }

    /// Remembers the game on screen (or that none is), so that a restart can bring it back.
    fn remember_screen(&self, screen: Screen) {
        let game = games::on_screen(screen).and_then(|entry| (entry.shown)(self));
        let value = game.map_or_else(String::new, |id| id.0.to_string());
        let _ = self.with_store(|store| {
            if store.setting(RESUME_KEY)?.as_deref() != Some(value.as_str()) {
                store.set_setting(RESUME_KEY, &value)?;
            }
            Ok(())
        });
    }

    /// The game that was on screen when the app stopped, if it is still there.
    pub(crate) fn game_to_resume(&self) -> Option<GameId> {
        let id = self
            .with_store(|store| store.setting(RESUME_KEY))
            .ok()
            .flatten()
            .and_then(|v| v.parse::<i64>().ok())
            .map(GameId)?;
        self.with_store(|store| store.summaries(&[id]))
            .is_ok_and(|rows| !rows.is_empty())
            .then_some(id)
    }

    /// Handles what the sync worker reported since the last call.
    pub(crate) fn drain_sync(self: &Rc<Self>) {
        let events: Vec<_> = match self.sync_events.borrow().as_ref() {
            Some(rx) => rx.try_iter().collect(),
            None => return,
        };
        for event in events {
            super::online::handle(self, event);
        }
    }
}
