//! Start-up, the shared context every screen works through, and navigation.

use crate::history_model::HistoryModel;
use crate::screens;
use crate::settings::{Language, Settings, system_language};
use crate::store::{DB_FILE, Store, StoreError};
use qiguan_ui::{AppWindow, Nav, Screen};
use slint::ComponentHandle;
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// How the app starts.
#[derive(Clone, Debug)]
pub struct AppOptions {
    /// Where the database lives.
    pub data_dir: PathBuf,
    /// The language to use when none has been chosen yet (default: the system's).
    pub default_language: Option<Language>,
    /// Start on the game that was on screen when the app last stopped (Android, which may stop
    /// a paused app at any time); otherwise start at Home.
    pub resume: bool,
}

impl AppOptions {
    /// Reads `--data-dir DIR` (or `QIGUAN_DATA_DIR`), falling back to the platform's data
    /// directory. Returns the text to print for `--help` and `--version` as an `Err(Ok)`.
    pub fn from_args(
        args: impl IntoIterator<Item = String>,
    ) -> Result<AppOptions, Result<String, String>> {
        let mut data_dir = std::env::var_os("QIGUAN_DATA_DIR").map(PathBuf::from);
        let mut args = args.into_iter();
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--data-dir" => match args.next() {
                    Some(dir) => data_dir = Some(dir.into()),
                    None => return Err(Err("--data-dir needs a directory".into())),
                },
                "-h" | "--help" => return Err(Ok(USAGE.into())),
                "-V" | "--version" => {
                    return Err(Ok(format!("qiguan {}", env!("CARGO_PKG_VERSION"))));
                }
                other => {
                    if let Some(dir) = other.strip_prefix("--data-dir=") {
                        data_dir = Some(dir.into());
                    } else {
                        return Err(Err(format!("unknown argument {other:?}\n\n{USAGE}")));
                    }
                }
            }
        }
        let data_dir = match data_dir {
            Some(dir) => dir,
            None => default_data_dir()
                .ok_or_else(|| Err("no home directory: pass --data-dir DIR".to_owned()))?,
        };
        Ok(AppOptions {
            data_dir,
            default_language: None,
            resume: false,
        })
    }
}

const USAGE: &str = "usage: qiguan [--data-dir DIR]

  --data-dir DIR   keep the game history in DIR (also: QIGUAN_DATA_DIR)
  --version        print the version
Set SLINT_BACKEND=winit-software to draw without OpenGL.";

/// Returns the platform's per-user data directory for Qiguan.
pub fn default_data_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("org", "Qiguan", "qiguan").map(|d| d.data_dir().to_owned())
}

/// The setting that names the game on screen (empty when none is).
const RESUME_KEY: &str = "resume-game";

/// What every screen shares.
pub struct Ctx {
    pub(crate) ui: slint::Weak<AppWindow>,
    pub(crate) store: Rc<RefCell<Option<Store>>>,
    pub(crate) data_dir: PathBuf,
    pub(crate) settings: RefCell<Settings>,
    pub(crate) history: Rc<HistoryModel>,
    pub(crate) play: RefCell<Option<screens::play::PlaySession>>,
    pub(crate) replay: RefCell<Option<screens::replay::ReplaySession>>,
    pub(crate) junqi: RefCell<Option<screens::junqi::JunqiSession>>,
    pub(crate) aeroplane: RefCell<Option<screens::aeroplane::AeroplaneSession>>,
    pub(crate) sealandair: RefCell<Option<screens::sealandair::SlaSession>>,
    /// The correspondence server's address (a setting).
    pub(crate) server: RefCell<String>,
    /// The sync worker and what it reports; none when the history could not be opened.
    pub(crate) worker: RefCell<Option<crate::online::Worker>>,
    pub(crate) sync_events: RefCell<Option<std::sync::mpsc::Receiver<crate::online::Event>>>,
    back_stack: RefCell<Vec<Screen>>,
}

impl std::fmt::Debug for Ctx {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Ctx({})", self.data_dir.display())
    }
}

impl Ctx {
    /// Returns the window (which exists for as long as the app does).
    pub(crate) fn ui(&self) -> AppWindow {
        // The window outlives every callback that reaches here.
        self.ui
            .upgrade()
            .expect("the window is alive while its callbacks run")
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
        if screen != Screen::Play && screen != Screen::Junqi && screen != Screen::Aeroplane {
            self.send(crate::online::Command::Watch(None));
        }
        self.remember_screen(screen);
        match screen {
            Screen::Online => screens::online::refresh(self),
            Screen::Home => screens::home::refresh(self),
            Screen::History => screens::history::refresh(self),
            Screen::Settings => screens::settings::refresh(self),
            _ => {}
        }
        self.ui().global::<Nav>().set_screen(screen);
    }

    /// Remembers the game on screen (or that none is), so that a restart can bring it back.
    fn remember_screen(&self, screen: Screen) {
        let game = match screen {
            Screen::Play => self.play.borrow().as_ref().map(|s| s.id()),
            Screen::Junqi => self.junqi.borrow().as_ref().map(|s| s.id()),
            Screen::Aeroplane => self.aeroplane.borrow().as_ref().map(|s| s.id()),
            Screen::Sealandair => self.sealandair.borrow().as_ref().map(|s| s.id()),
            _ => None,
        };
        let value = game.map_or_else(String::new, |id| id.0.to_string());
        let _ = self.with_store(|store| {
            if store.setting(RESUME_KEY)?.as_deref() != Some(value.as_str()) {
                store.set_setting(RESUME_KEY, &value)?;
            }
            Ok(())
        });
    }

    /// The game that was on screen when the app stopped, if it is still there.
    fn game_to_resume(&self) -> Option<crate::store::GameId> {
        let id = self
            .with_store(|store| store.setting(RESUME_KEY))
            .ok()
            .flatten()
            .and_then(|v| v.parse::<i64>().ok())
            .map(crate::store::GameId)?;
        self.with_store(|store| store.summaries(&[id]))
            .is_ok_and(|rows| !rows.is_empty())
            .then_some(id)
    }

    /// Sends a command to the sync worker, if it runs.
    pub(crate) fn send(&self, command: crate::online::Command) {
        if let Some(worker) = self.worker.borrow().as_ref() {
            worker.send(command);
        }
    }

    /// Handles what the sync worker reported since the last call.
    pub(crate) fn drain_sync(self: &Rc<Self>) {
        let events: Vec<_> = match self.sync_events.borrow().as_ref() {
            Some(rx) => rx.try_iter().collect(),
            None => return,
        };
        for event in events {
            screens::online::handle(self, event);
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

/// The running app: the window and the context behind it.
pub struct App {
    window: AppWindow,
    ctx: Rc<Ctx>,
}

impl std::fmt::Debug for App {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "App({:?})", self.ctx)
    }
}

impl App {
    /// Returns the window, for tests and screenshots.
    pub fn window(&self) -> &AppWindow {
        &self.window
    }

    /// Returns the database path.
    pub fn database_path(&self) -> PathBuf {
        self.ctx.data_dir.join(DB_FILE)
    }

    /// Handles the sync worker's reports now (the running app does this as they arrive; tests
    /// with no event loop call it).
    pub fn drain_sync(&self) {
        self.ctx.drain_sync();
    }

    /// Shows the window and runs the event loop until it closes.
    pub fn run(self) -> Result<(), slint::PlatformError> {
        self.window.run()
    }
}

/// Creates the window and opens the history. A history that cannot be opened shows the
/// failure screen (the file untouched) instead of failing start-up.
pub fn init(options: AppOptions) -> Result<App, slint::PlatformError> {
    let window = AppWindow::new()?;
    let opened = Store::open_dir(&options.data_dir);
    let default_language = options.default_language.unwrap_or_else(system_language);
    let defaults = Settings::defaults(default_language);
    let (store, failure) = match opened {
        Ok(store) => (Some(store), None),
        Err(e) => (None, Some(e)),
    };
    let settings = store
        .as_ref()
        .and_then(|s| Settings::load(s, defaults).ok())
        .unwrap_or(defaults);
    let store = Rc::new(RefCell::new(store));
    let ctx = Rc::new(Ctx {
        ui: window.as_weak(),
        history: Rc::new(HistoryModel::new(store.clone())),
        store,
        data_dir: options.data_dir,
        settings: RefCell::new(settings),
        play: RefCell::default(),
        replay: RefCell::default(),
        junqi: RefCell::default(),
        aeroplane: RefCell::default(),
        sealandair: RefCell::default(),
        server: RefCell::new(String::new()),
        worker: RefCell::default(),
        sync_events: RefCell::default(),
        back_stack: RefCell::default(),
    });
    screens::online::start(&ctx);
    screens::settings::apply_language(&settings);
    screens::connect(&ctx);
    let weak = Rc::downgrade(&ctx);
    window.global::<Nav>().on_back(move || {
        if let Some(ctx) = weak.upgrade() {
            ctx.back();
        }
    });
    match failure {
        Some(error) => screens::failure::show(&ctx, &error),
        None => {
            // Read before Home is shown, which forgets it.
            let resume = options.resume.then(|| ctx.game_to_resume()).flatten();
            ctx.reset_to(Screen::Home);
            if let Some(id) = resume {
                screens::play::open(&ctx, id);
            }
        }
    }
    Ok(App { window, ctx })
}

/// Runs the app with the command line's options; returns the process exit code.
pub fn run() -> i32 {
    match AppOptions::from_args(std::env::args().skip(1)) {
        Ok(options) => run_with(options),
        Err(Ok(text)) => {
            println!("{text}");
            0
        }
        Err(Err(text)) => {
            eprintln!("qiguan: {text}");
            2
        }
    }
}

/// Runs the app with these options (the platform's entry point chose the data directory);
/// returns the exit code.
pub fn run_with(options: AppOptions) -> i32 {
    let app = match init(options) {
        Ok(app) => app,
        Err(e) => {
            eprintln!("qiguan: cannot open a window: {e}");
            return 1;
        }
    };
    match app.run() {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("qiguan: {e}");
            1
        }
    }
}

/// Renames a damaged database (and its WAL files) aside, keeping it, so a new one can start.
pub(crate) fn set_aside(db: &Path, now: i64) -> std::io::Result<PathBuf> {
    let kept = db.with_extension(format!("sqlite.damaged-{now}"));
    std::fs::rename(db, &kept)?;
    for suffix in ["-wal", "-shm"] {
        let mut side = db.as_os_str().to_owned();
        side.push(suffix);
        let side = PathBuf::from(side);
        if side.exists() {
            let mut to = kept.as_os_str().to_owned();
            to.push(suffix);
            std::fs::rename(&side, PathBuf::from(to))?;
        }
    }
    Ok(kept)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Result<AppOptions, Result<String, String>> {
        AppOptions::from_args(list.iter().map(|s| s.to_string()))
    }

    #[test]
    fn the_data_directory_comes_from_the_command_line() {
        let dir = args(&["--data-dir", "/tmp/q"]).unwrap().data_dir;
        assert_eq!(dir, PathBuf::from("/tmp/q"));
        let dir = args(&["--data-dir=/tmp/r"]).unwrap().data_dir;
        assert_eq!(dir, PathBuf::from("/tmp/r"));
    }

    #[test]
    fn help_version_and_mistakes_are_answered() {
        assert!(matches!(args(&["--help"]), Err(Ok(t)) if t.contains("--data-dir")));
        assert!(matches!(args(&["--version"]), Err(Ok(t)) if t.starts_with("qiguan ")));
        assert!(matches!(args(&["--data-dir"]), Err(Err(_))));
        assert!(matches!(args(&["--colour"]), Err(Err(t)) if t.contains("--colour")));
    }

    #[test]
    fn a_damaged_file_is_renamed_aside_with_its_wal() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join(DB_FILE);
        std::fs::write(&db, b"x").unwrap();
        std::fs::write(dir.path().join("qiguan.sqlite-wal"), b"w").unwrap();
        let kept = set_aside(&db, 42).unwrap();
        assert_eq!(kept, dir.path().join("qiguan.sqlite.damaged-42"));
        assert_eq!(std::fs::read(&kept).unwrap(), b"x");
        assert!(dir.path().join("qiguan.sqlite.damaged-42-wal").exists());
        assert!(!db.exists());
    }
}
