//! Start-up: the command line, the window, the history and the screens, put together.

use crate::screens;
use crate::shell::ctx::Ctx;
use crate::shell::settings::{Language, Settings, system_language};
use crate::store::{DB_FILE, Store};
use qiguan_ui::{AppWindow, Nav, Screen};
use slint::ComponentHandle;
use std::path::PathBuf;
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
    /// Play sounds through the audio device (the app); tests and screenshots only note them.
    pub sound_device: bool,
    /// Tell the desktop when a correspondence move arrives in the background (the app); tests
    /// only note what would be told.
    pub notifications: bool,
    /// Game files to import and open on start ("Open with Qiguan"): each is filed in the
    /// history as an imported game and the last opens in replay.
    pub open: Vec<PathBuf>,
    /// The platform's share sheet, which the share dialog offers beside Copy link (Android's,
    /// from `qiguan-android`); none on the desktop.
    pub system_share: Option<crate::sync::share::SystemShare>,
}

impl AppOptions {
    /// Reads `--data-dir DIR` (or `QIGUAN_DATA_DIR`), falling back to the platform's data
    /// directory. Returns the text to print for `--help` and `--version` as an `Err(Ok)`.
    pub fn from_args(
        args: impl IntoIterator<Item = String>,
    ) -> Result<AppOptions, Result<String, String>> {
        let mut data_dir = std::env::var_os("QIGUAN_DATA_DIR").map(PathBuf::from);
        let mut open = Vec::new();
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
                "--" => open.extend(args.by_ref().map(PathBuf::from)),
                other => {
                    if let Some(dir) = other.strip_prefix("--data-dir=") {
                        data_dir = Some(dir.into());
                    } else if !other.starts_with('-') {
                        open.push(other.into());
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
            sound_device: true,
            notifications: true,
            open,
            system_share: None,
        })
    }
}

const USAGE: &str = "usage: qiguan [--data-dir DIR] [FILE...]

  FILE             a Xiangqi game file to import and open (XQF, PGN, DhtmlXQ or FEN)
  --data-dir DIR   keep the game history in DIR (also: QIGUAN_DATA_DIR)
  --version        print the version";

/// Returns the platform's per-user data directory for Qiguan.
pub fn default_data_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("org", "Qiguan", "qiguan").map(|d| d.data_dir().to_owned())
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
    /// Every sound the app has played (or, without the audio device, would have), for tests.
    pub fn sounds_played(&self) -> Vec<crate::shell::sound::Sound> {
        self.ctx.speaker.played()
    }

    /// Every notification the app has told the desktop (or, without one, would have).
    pub fn notifications(&self) -> Vec<crate::shell::notify::Notice> {
        self.ctx.notifier.sent()
    }

    /// Returns the window, for tests and screenshots.
    pub fn window(&self) -> &AppWindow {
        &self.window
    }

    /// Returns the database path.
    pub fn database_path(&self) -> PathBuf {
        self.ctx.data_dir.join(DB_FILE)
    }

    /// Handles the sync worker's reports and the replies of finished thinking (a computer's
    /// move) now: the running app does this as they arrive; tests with no event loop call it.
    pub fn drain_sync(&self) {
        self.ctx.drain_sync();
        self.ctx.drain_replies();
    }

    /// How many searches (the computer's move, a hint) have been started whose answers have
    /// not been handled yet: tests wait for it to reach 0 (with [`App::drain_sync`]).
    pub fn thinking_in_flight(&self) -> usize {
        self.ctx.thinking_in_flight()
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
    let ctx = Rc::new(Ctx::new(
        window.as_weak(),
        store,
        options.data_dir,
        settings,
        crate::games::sessions(),
        |s| screens::rows::game_row(s, -1),
        crate::shell::sound::Speaker::new(options.sound_device),
    ));
    ctx.notifier.use_desktop(options.notifications);
    window
        .global::<qiguan_ui::ShareAdapter>()
        .set_system_share(options.system_share.is_some());
    *ctx.system_share.borrow_mut() = options.system_share;
    window.global::<qiguan_ui::Texts>().on_initial(|word| {
        let first = word.chars().next().map(char::to_uppercase);
        first.map(String::from_iter).unwrap_or_default().into()
    });
    screens::online::start(&ctx);
    screens::settings::apply_language(&window, &settings);
    screens::settings::show_preferences(&window, &settings);
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
                crate::games::open(&ctx, id);
            }
            if !options.open.is_empty() {
                screens::history::open_given(&ctx, &options.open);
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
    fn game_files_on_the_command_line_are_opened() {
        let open = args(&["a.xqf", "--data-dir", "/tmp/q", "b.pgn"])
            .unwrap()
            .open;
        assert_eq!(open, [PathBuf::from("a.xqf"), PathBuf::from("b.pgn")]);
        // After `--`, even a name that starts with a dash is a file.
        let open = args(&["--", "-odd.xqf"]).unwrap().open;
        assert_eq!(open, [PathBuf::from("-odd.xqf")]);
        assert!(args(&[]).unwrap().open.is_empty());
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
        let kept = crate::store::set_aside(&db, 42).unwrap();
        assert_eq!(kept, dir.path().join("qiguan.sqlite.damaged-42"));
        assert_eq!(std::fs::read(&kept).unwrap(), b"x");
        assert!(dir.path().join("qiguan.sqlite.damaged-42-wal").exists());
        assert!(!db.exists());
    }
}
