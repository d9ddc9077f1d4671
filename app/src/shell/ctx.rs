//! The context every screen works through: the window, the store, the settings, the sync
//! worker, and the sessions of the screens. It names no screen: each screen keeps its session in
//! a slot of its own type, which the screens' registry creates ([`Sessions`]).

use crate::shell::history_model::{HistoryModel, RowOf};
use crate::shell::settings::Settings;
use crate::store::storage::GameStorage;
use crate::store::{DB_FILE, Store, StoreError};
use qiguan_ui::{AppWindow, Screen};
use std::any::Any;
use std::cell::{RefCell, RefMut};
use std::path::PathBuf;
use std::rc::Rc;

/// What every screen shares.
pub struct Ctx {
    pub(crate) ui: slint::Weak<AppWindow>,
    pub(crate) store: Rc<RefCell<Option<Store>>>,
    pub(crate) data_dir: PathBuf,
    pub(crate) settings: RefCell<Settings>,
    pub(crate) history: Rc<HistoryModel>,
    /// The screens' sessions, one slot per session type.
    sessions: Sessions,
    /// The correspondence server's address (a setting).
    pub(crate) server: RefCell<String>,
    /// Settings' check of a server address typed: waits for the typing to pause; the
    /// address last sent to be checked.
    pub(crate) server_probe: slint::Timer,
    pub(crate) probed: RefCell<String>,
    /// The sync worker and what it reports; none when the history could not be opened.
    pub(crate) worker: RefCell<Option<crate::sync::Worker>>,
    pub(crate) sync_events: RefCell<Option<std::sync::mpsc::Receiver<crate::sync::Event>>>,
    pub(crate) back_stack: RefCell<Vec<Screen>>,
    /// Where the sounds go.
    pub(crate) speaker: crate::shell::sound::Speaker,
    pub(crate) notifier: crate::shell::notify::Notifier,
    /// Replies of work running on other threads (a computer's search).
    pub(crate) replies: crate::shell::thinking::Replies<Ctx>,
    /// The game whose share dialog is open (its link is being made, shown or withdrawn).
    pub(crate) sharing: std::cell::Cell<Option<crate::store::GameId>>,
    /// The platform's share sheet, if it has one (Android).
    pub(crate) system_share: RefCell<Option<crate::sync::share::SystemShare>>,
}

impl std::fmt::Debug for Ctx {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Ctx({})", self.data_dir.display())
    }
}

/// One slot per screen session type, each empty until its screen opens something. The set of
/// slots is fixed when the context is made, so a slot can be lent out for as long as the
/// context lives.
pub(crate) struct Sessions(Vec<Box<dyn Any>>);

impl Sessions {
    /// Slots for these session types (see [`Sessions::slot`]).
    pub fn new(slots: Vec<Box<dyn Any>>) -> Sessions {
        Sessions(slots)
    }

    /// An empty slot for sessions of type `T`.
    pub fn slot<T: 'static>() -> Box<dyn Any> {
        Box::new(RefCell::new(None::<T>))
    }
}

impl Ctx {
    pub(crate) fn new(
        ui: slint::Weak<AppWindow>,
        store: Option<Store>,
        data_dir: PathBuf,
        settings: Settings,
        sessions: Sessions,
        rows: RowOf,
        speaker: crate::shell::sound::Speaker,
    ) -> Ctx {
        let store = Rc::new(RefCell::new(store));
        Ctx {
            ui,
            history: Rc::new(HistoryModel::new(store.clone(), rows)),
            store,
            data_dir,
            settings: RefCell::new(settings),
            sessions,
            server: RefCell::new(String::new()),
            server_probe: slint::Timer::default(),
            probed: RefCell::default(),
            worker: RefCell::default(),
            sync_events: RefCell::default(),
            back_stack: RefCell::default(),
            speaker,
            notifier: crate::shell::notify::Notifier::default(),
            replies: crate::shell::thinking::Replies::default(),
            sharing: std::cell::Cell::default(),
            system_share: RefCell::default(),
        }
    }

    /// Plays a sound, if the player has sounds on (Settings).
    pub(crate) fn play_sound(&self, sound: crate::shell::sound::Sound) {
        if self.settings.borrow().sound {
            self.speaker.play(sound);
        }
    }

    /// Returns the window (which exists for as long as the app does).
    pub(crate) fn ui(&self) -> AppWindow {
        // The window outlives every callback that reaches here.
        self.ui
            .upgrade()
            .expect("the window is alive while its callbacks run")
    }

    /// The session of type `T` (a screen's), empty when its screen has nothing open.
    pub(crate) fn session<T: 'static>(&self) -> &RefCell<Option<T>> {
        self.sessions
            .0
            .iter()
            .find_map(|slot| slot.downcast_ref::<RefCell<Option<T>>>())
            .expect("every screen's session type has a slot (games::sessions)")
    }

    /// Runs `f` with the open store; fails when the history could not be opened.
    pub(crate) fn with_store<T>(
        &self,
        f: impl FnOnce(&mut Store) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        match self.store.borrow_mut().as_mut() {
            Some(store) => f(store),
            None => Err(StoreError::Io {
                path: self.data_dir.join(DB_FILE),
                detail: "the history is not open".into(),
            }),
        }
    }

    /// The store, as the game screens use it ([`GameStorage`]); an error to show when the
    /// history could not be opened.
    pub(crate) fn games(&self) -> Result<RefMut<'_, dyn GameStorage>, String> {
        RefMut::filter_map(self.store.borrow_mut(), |store| {
            store.as_mut().map(|s| s as &mut dyn GameStorage)
        })
        .map_err(|_| {
            StoreError::Io {
                path: self.data_dir.join(DB_FILE),
                detail: "the history is not open".into(),
            }
            .to_string()
        })
    }

    /// Sends a command to the sync worker, if it runs.
    pub(crate) fn send(&self, command: crate::sync::Command) {
        if let Some(worker) = self.worker.borrow().as_ref() {
            worker.send(command);
        }
    }

    /// Returns the time now in Unix milliseconds.
    pub(crate) fn now(&self) -> i64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis() as i64)
            .unwrap_or(0)
    }
}

impl crate::shell::thinking::Host for Ctx {
    fn replies(&self) -> &crate::shell::thinking::Replies<Ctx> {
        &self.replies
    }
}

impl Ctx {
    /// Runs the replies of finished work, oldest first.
    pub(crate) fn drain_replies(self: &Rc<Self>) {
        crate::shell::thinking::drain(self);
    }

    /// How many pieces of work have been started whose replies have not run yet.
    pub(crate) fn thinking_in_flight(&self) -> usize {
        self.replies.in_flight()
    }
}
