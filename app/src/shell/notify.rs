//! Desktop notifications: a correspondence move that arrives while the window is in the
//! background is told by the desktop (its notification area), so that a game played over days
//! does not wait for the player to look. On screen, the board itself shows the move.
//!
//! [`Notifier`] keeps what it was asked to tell (tests read it through
//! [`crate::App::notifications`]) and, in the app, hands it to the desktop on a thread of its
//! own (the desktop's service may take a moment to answer).

use std::cell::{Cell, RefCell};

/// One notification: its title and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    pub title: String,
    pub body: String,
}

#[derive(Default, Debug)]
pub struct Notifier {
    /// Show notifications on the desktop too (the app); tests only keep them.
    device: Cell<bool>,
    sent: RefCell<Vec<Notice>>,
    /// Each game's actions when it was last told, so that one move is told once.
    told: RefCell<std::collections::HashMap<i64, usize>>,
}

impl Notifier {
    /// Tells `notice`, unless the window has the player's attention: whether `window` is the
    /// active one (where nothing can say, as on Android, it counts as focused: nothing is told
    /// twice).
    pub fn tell(&self, window: &slint::Window, notice: Notice) {
        if self.focused(window) {
            return;
        }
        self.sent.borrow_mut().push(notice.clone());
        if self.device.get() {
            show(notice);
        }
    }

    fn focused(&self, window: &slint::Window) -> bool {
        #[cfg(not(target_os = "android"))]
        {
            // Slint's own record of whether the window is the active one, which its winit
            // backend keeps from the window system's focus events. (winit's accessor would
            // say the same, but Slint's `unstable-winit-030` feature links Wayland's client
            // as well as X11's: README, "Binary size".)
            i_slint_core::window::WindowInner::from_pub(window).active()
        }
        #[cfg(target_os = "android")]
        {
            let _ = window;
            true
        }
    }

    /// Tells the desktop too (the app), not only the list tests read.
    pub fn use_desktop(&self, desktop: bool) {
        self.device.set(desktop);
    }

    /// Whether game `game` at `plies` actions is news (not told at that count or later), and
    /// notes it as told.
    pub fn news(&self, game: i64, plies: usize) -> bool {
        let mut told = self.told.borrow_mut();
        let news = told.get(&game).is_none_or(|&n| plies > n);
        told.insert(game, plies);
        news
    }

    /// What was told so far.
    pub fn sent(&self) -> Vec<Notice> {
        self.sent.borrow().clone()
    }
}

#[cfg(not(target_os = "android"))]
fn show(notice: Notice) {
    std::thread::spawn(move || {
        // No notification service (a bare window manager): nothing to tell it with, and the
        // board shows the move when the player comes back.
        let _ = notify_rust::Notification::new()
            .appname("Qiguan")
            .summary(&notice.title)
            .body(&notice.body)
            .show();
    });
}

#[cfg(target_os = "android")]
fn show(_notice: Notice) {}
