//! History: filter, search, delete, open, and import games.

use crate::shell::bind::{handler, handler0};
use crate::shell::ctx::Ctx;
use crate::store::{ComputerFilter, GameId, HistoryFilter, Mode, NewGame, ResultFilter, Standing};
use qiguan_core::AnyMatch;
use qiguan_ui::{FileEntry, HistoryAdapter, ImportProblem, Screen, Texts};
use slint::{ComponentHandle, Model, ModelRc, SharedString, VecModel};
use std::path::{Path, PathBuf};
use std::rc::Rc;

const DAY_MS: i64 = 24 * 60 * 60 * 1000;

pub fn connect(ctx: &Rc<Ctx>) {
    let ui = ctx.ui();
    let a = ui.global::<HistoryAdapter>();
    a.set_rows(ModelRc::from(ctx.history.clone()));
    a.on_filters_changed(handler0(ctx, refresh));
    a.on_open(handler(ctx, |ctx, id: i32| open(ctx, GameId(id as i64))));
    a.on_delete(handler(ctx, |ctx, id: i32| {
        if let Err(e) = ctx.with_store(|store| store.delete(GameId(id as i64))) {
            crate::shell::bind::show_error(ctx, &e.to_string());
        }
        refresh(ctx);
    }));
    a.on_import(handler0(ctx, import));
    a.on_open_files(handler0(ctx, open_files));
    a.on_file_chosen(handler(ctx, |ctx, row: i32| {
        if let Ok(row) = usize::try_from(row) {
            file_chosen(ctx, row);
        }
    }));
    a.on_folder_up(handler0(ctx, folder_up));
}

/// Returns the filter the screen's controls describe, `now` being the current time.
pub fn filter_of(a: &HistoryAdapter<'_>, now: i64) -> HistoryFilter {
    HistoryFilter {
        // 0: every game; then the games in the registry's order.
        kind: usize::try_from(a.get_game_filter() - 1)
            .ok()
            .and_then(|i| crate::games::GAMES.get(i))
            .map(|entry| entry.kind),
        // As the screen lists them: 0 any, 1 unfinished, 2 you won, 3 you lost, 4 drawn, then
        // won by each side of the game chosen.
        result: match a.get_result_filter() {
            1 => Some(ResultFilter::Unfinished),
            2 => Some(ResultFilter::YouWon),
            3 => Some(ResultFilter::YouLost),
            4 => Some(ResultFilter::Draw),
            n => u8::try_from(n - 5).ok().map(ResultFilter::WonBy),
        },
        mode: match a.get_mode_filter() {
            1 => Some(Mode::PassAndPlay),
            2 => Some(Mode::Imported),
            3 => Some(Mode::Correspondence),
            _ => None,
        },
        // 4: against the computer, narrowed by the side it played and its level.
        computer: (a.get_mode_filter() == 4).then(|| ComputerFilter {
            seat: u8::try_from(a.get_computer_side_filter() - 1).ok(),
            level: u8::try_from(a.get_level_filter()).ok().filter(|&n| n > 0),
        }),
        since: match a.get_date_filter() {
            1 => Some(start_of_today(now)),
            2 => Some(now - 7 * DAY_MS),
            3 => Some(now - 30 * DAY_MS),
            _ => None,
        },
        search: a.get_search().to_string(),
        // 0: any opening; then the classes A to E. Only where Xiangqi games are listed (all
        // games, or Xiangqi: the first in the registry), as the screen offers it.
        opening_class: (0..=1)
            .contains(&a.get_game_filter())
            .then(|| a.get_opening_filter())
            .and_then(|n| u8::try_from(n - 1).ok())
            .filter(|&n| n < 5)
            .map(|n| char::from(b'A' + n)),
    }
}

fn start_of_today(now: i64) -> i64 {
    use chrono::{Local, TimeZone};
    Local
        .timestamp_millis_opt(now)
        .single()
        .and_then(|t| t.date_naive().and_hms_opt(0, 0, 0))
        .and_then(|t| Local.from_local_datetime(&t).earliest())
        .map_or(now - DAY_MS, |t| t.timestamp_millis())
}

/// Re-runs the query behind the list.
/// How many sides the result filter offers for the game chosen (none for all games):
/// Aeroplane chess's four colours, the other games' two seats.
fn sides(a: &HistoryAdapter<'_>) -> i32 {
    match usize::try_from(a.get_game_filter() - 1)
        .ok()
        .and_then(|i| crate::games::GAMES.get(i))
    {
        None => 0,
        Some(entry) => entry.most_seats,
    }
}

/// Shows the history: the game filter's choices in the current language, then the games.
pub fn show(ctx: &Rc<Ctx>) {
    let ui = ctx.ui();
    let texts = ui.global::<Texts>();
    let names: Vec<SharedString> = std::iter::once(texts.invoke_all_games())
        .chain(
            crate::games::GAMES
                .iter()
                .map(|e| texts.invoke_game_name(e.kind.as_str().into())),
        )
        .collect();
    ui.global::<HistoryAdapter>()
        .set_game_names(ModelRc::new(VecModel::from(names)));
    refresh(ctx);
}

pub fn refresh(ctx: &Rc<Ctx>) {
    let ui = ctx.ui();
    let a = ui.global::<HistoryAdapter>();
    // A side's win chosen for one game does not carry over to another game or to all games
    // (their sides differ).
    if a.get_result_filter() >= 5 && a.get_result_filter() >= 5 + sides(&a) {
        a.set_result_filter(0);
    }
    let filter = filter_of(&a, ctx.now());
    match ctx.history.refresh(&filter) {
        Ok(n) => a.set_total(n as i32),
        Err(e) => crate::shell::bind::show_error(ctx, &e.to_string()),
    }
}

/// Opens a game: an unfinished pass-and-play game on the board, anything else in replay.
fn open(ctx: &Rc<Ctx>, id: GameId) {
    let summary = ctx.with_store(|store| store.summaries(&[id]));
    match summary.as_deref() {
        Ok([s]) if s.result.is_none() && s.mode == Mode::PassAndPlay => crate::games::open(ctx, id),
        Ok([_]) => crate::games::review(ctx, id, true),
        Ok(_) => refresh(ctx),
        Err(e) => crate::shell::bind::show_error(ctx, &e.to_string()),
    }
}

/// Reads the pasted text, stores it as an imported game and opens it in replay.
fn import(ctx: &Rc<Ctx>) {
    let ui = ctx.ui();
    let a = ui.global::<HistoryAdapter>();
    let text = a.get_import_text();
    match import_bytes(ctx, text.as_bytes()) {
        Ok(id) => {
            a.set_import_error(ImportProblem::default());
            a.set_import_text("".into());
            a.set_show_import(false);
            refresh(ctx);
            crate::games::review(ctx, id, false);
        }
        Err(e) => a.set_import_error(e),
    }
}

/// Reads a game (pasted text or a file's bytes) with each game's importer in turn, stores it
/// as an imported game and returns its id; nothing is stored when it cannot be read.
pub(crate) fn import_bytes(ctx: &Rc<Ctx>, bytes: &[u8]) -> Result<GameId, ImportProblem> {
    // Each game that has a notation tries the input; the first that reads it wins.
    let mut parsed = Err(problem("empty"));
    for read in crate::games::GAMES.iter().filter_map(|e| e.import) {
        parsed = read(bytes);
        if parsed.is_ok() {
            break;
        }
    }
    let imported = parsed?;
    let replayed = AnyMatch::from_record(&imported.record).map_err(|_| problem("unplayable"))?;
    let mut new = NewGame::from_match(&replayed, Mode::Imported, imported.players);
    new.study = imported.study;
    let record = imported.record;
    let standing = Standing::of(&replayed);
    let now = ctx.now();
    ctx.with_store(|store| store.create_game_with(&new, &record.actions, &standing, now))
        .map_err(|_| problem("storage"))
}

/// The largest file the import reads: far above any game file (an XQF game of a thousand
/// moves is under 10 kB), well below what would stall a phone.
const MAX_FILE: u64 = 4 << 20;

/// The file names the import lists: the game files Xiangqi programs write, and text.
const GAME_FILES: [&str; 6] = ["xqf", "pgn", "txt", "ubb", "fen", "dhtmlxq"];

/// Where the file list starts: the folder it showed last, else where the replay's exports go
/// (the download folder, or the data folder's exports once there are any), else the home
/// folder, else the data folder.
fn first_folder(ctx: &Ctx) -> PathBuf {
    let ui = ctx.ui();
    let last = PathBuf::from(ui.global::<HistoryAdapter>().get_files_folder().as_str());
    if last.is_dir() {
        return last;
    }
    let exports = crate::shell::bind::exports_folder(ctx);
    if exports.is_dir() {
        return exports;
    }
    directories::UserDirs::new()
        .map(|d| d.home_dir().to_owned())
        .filter(|p| p.is_dir())
        .unwrap_or_else(|| ctx.data_dir.clone())
}

/// Opens the file list on its first folder.
fn open_files(ctx: &Rc<Ctx>) {
    let folder = first_folder(ctx);
    show_folder(ctx, &folder);
    ctx.ui().global::<HistoryAdapter>().set_show_files(true);
}

/// Lists a folder: its folders, then the game files in it, each by name (hidden ones left out).
fn show_folder(ctx: &Ctx, folder: &Path) {
    let ui = ctx.ui();
    let a = ui.global::<HistoryAdapter>();
    a.set_files_folder(folder.display().to_string().into());
    a.set_files_problem(ImportProblem::default());
    a.set_files_up(folder.parent().is_some());
    match list_folder(folder) {
        Ok(entries) => {
            a.set_files_unreadable(false);
            a.set_files(ModelRc::new(VecModel::from(entries)));
        }
        Err(_) => {
            a.set_files_unreadable(true);
            a.set_files(ModelRc::default());
        }
    }
}

/// A folder's sub-folders and game files, each sorted by name.
pub(crate) fn list_folder(folder: &Path) -> std::io::Result<Vec<FileEntry>> {
    let mut folders = Vec::new();
    let mut files = Vec::new();
    for entry in std::fs::read_dir(folder)? {
        let Ok(entry) = entry else { continue };
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        let Ok(meta) = std::fs::metadata(entry.path()) else {
            continue;
        };
        if meta.is_dir() {
            folders.push(name);
        } else if is_game_file(&name) {
            files.push(name);
        }
    }
    let by_name = |a: &String, b: &String| a.to_lowercase().cmp(&b.to_lowercase()).then(a.cmp(b));
    folders.sort_by(by_name);
    files.sort_by(by_name);
    let entry = |folder: bool| {
        move |name: String| FileEntry {
            name: name.into(),
            folder,
        }
    };
    Ok(folders
        .into_iter()
        .map(entry(true))
        .chain(files.into_iter().map(entry(false)))
        .collect())
}

fn is_game_file(name: &str) -> bool {
    Path::new(name)
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| GAME_FILES.iter().any(|g| e.eq_ignore_ascii_case(g)))
}

/// A row of the file list tapped: a folder opens, a file is imported and opened in replay.
fn file_chosen(ctx: &Rc<Ctx>, row: usize) {
    let ui = ctx.ui();
    let a = ui.global::<HistoryAdapter>();
    let Some(entry) = a.get_files().row_data(row) else {
        return;
    };
    let folder = PathBuf::from(a.get_files_folder().as_str());
    let path = folder.join(entry.name.as_str());
    if entry.folder {
        show_folder(ctx, &path);
        return;
    }
    match import_file(ctx, &path) {
        Ok(id) => {
            a.set_show_files(false);
            a.set_show_import(false);
            a.set_import_error(ImportProblem::default());
            refresh(ctx);
            crate::games::review(ctx, id, false);
        }
        Err(problem) => {
            // The list stays on screen, the file's name over the reason.
            a.set_files_problem_file(entry.name);
            a.set_files_problem(problem);
        }
    }
}

/// Imports the game in a file: read whole (up to [`MAX_FILE`]), its format told from its bytes.
pub(crate) fn import_file(ctx: &Rc<Ctx>, path: &Path) -> Result<GameId, ImportProblem> {
    use std::io::Read;
    let mut bytes = Vec::new();
    let read = std::fs::File::open(path).and_then(|f| f.take(MAX_FILE + 1).read_to_end(&mut bytes));
    if read.is_err() {
        return Err(problem("unreadable"));
    }
    if bytes.len() as u64 > MAX_FILE {
        return Err(problem("too-big"));
    }
    import_bytes(ctx, &bytes).map_err(|p| match p.code.as_str() {
        // Text that is no game at all: in a file, say which files the import reads.
        "syntax" | "empty" => problem("not-a-game"),
        _ => p,
    })
}

/// Imports the game files given on the command line ("Open with Qiguan"): the last one read
/// opens in replay; one that cannot be read shows in the import's file list of its folder,
/// with its reason.
pub(crate) fn open_given(ctx: &Rc<Ctx>, paths: &[PathBuf]) {
    let mut opened = None;
    let mut failed = None;
    for path in paths {
        match import_file(ctx, path) {
            Ok(id) => opened = Some(id),
            Err(problem) => failed = Some((path, problem)),
        }
    }
    if let Some(id) = opened {
        crate::games::review(ctx, id, false);
    }
    if let Some((path, problem)) = failed {
        ctx.go(Screen::History);
        let folder = path.parent().filter(|p| p.is_dir()).map(Path::to_path_buf);
        show_folder(ctx, &folder.unwrap_or_else(|| first_folder(ctx)));
        let ui = ctx.ui();
        let a = ui.global::<HistoryAdapter>();
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        a.set_files_problem_file(name.into());
        a.set_files_problem(problem);
        a.set_show_import(true);
        a.set_show_files(true);
    }
}

/// The folder above the one shown.
fn folder_up(ctx: &Rc<Ctx>) {
    let ui = ctx.ui();
    let folder = PathBuf::from(ui.global::<HistoryAdapter>().get_files_folder().as_str());
    if let Some(parent) = folder.parent() {
        show_folder(ctx, parent);
    }
}

/// An import problem of this kind (see `ImportProblem` in history.slint).
fn problem(code: &str) -> ImportProblem {
    ImportProblem {
        code: code.into(),
        ..ImportProblem::default()
    }
}
