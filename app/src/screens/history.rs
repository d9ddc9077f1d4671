//! History: filter, search, delete, open, and import games.

use super::{handler, handler0};
use crate::ctx::Ctx;
use crate::store::{ComputerFilter, GameId, HistoryFilter, Mode, NewGame, ResultFilter, Standing};
use qiguan_core::AnyMatch;
use qiguan_ui::{HistoryAdapter, ImportProblem, Texts};
use slint::{ComponentHandle, ModelRc, SharedString, VecModel};
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
            super::show_error(ctx, &e.to_string());
        }
        refresh(ctx);
    }));
    a.on_import(handler0(ctx, import));
}

/// Returns the filter the screen's controls describe, `now` being the current time.
pub fn filter_of(a: &HistoryAdapter<'_>, now: i64) -> HistoryFilter {
    HistoryFilter {
        // 0: every game; then the games in the registry's order.
        kind: usize::try_from(a.get_game_filter() - 1)
            .ok()
            .and_then(|i| super::registry::GAMES.get(i))
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
        .and_then(|i| super::registry::GAMES.get(i))
    {
        None => 0,
        Some(entry) if entry.kind == qiguan_core::GameKind::Aeroplane => 4,
        Some(_) => 2,
    }
}

/// Shows the history: the game filter's choices in the current language, then the games.
pub fn show(ctx: &Rc<Ctx>) {
    let ui = ctx.ui();
    let texts = ui.global::<Texts>();
    let names: Vec<SharedString> = std::iter::once(texts.invoke_all_games())
        .chain(
            super::registry::GAMES
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
        Err(e) => super::show_error(ctx, &e.to_string()),
    }
}

/// Opens a game: an unfinished pass-and-play game on the board, anything else in replay.
fn open(ctx: &Rc<Ctx>, id: GameId) {
    let summary = ctx.with_store(|store| store.summaries(&[id]));
    match summary.as_deref() {
        Ok([s]) if s.result.is_none() && s.mode == Mode::PassAndPlay => {
            super::registry::open(ctx, id)
        }
        Ok([_]) => super::registry::review(ctx, id, true),
        Ok(_) => refresh(ctx),
        Err(e) => super::show_error(ctx, &e.to_string()),
    }
}

/// Reads the pasted PGN or FEN, stores it as an imported game and opens it in replay.
fn import(ctx: &Rc<Ctx>) {
    let ui = ctx.ui();
    let a = ui.global::<HistoryAdapter>();
    let text = a.get_import_text();
    // Each game that has a notation tries the text; the first that reads it wins.
    let mut parsed = Err(problem("empty"));
    for read in super::registry::GAMES.iter().filter_map(|e| e.import) {
        parsed = read(&text);
        if parsed.is_ok() {
            break;
        }
    }
    let imported = match parsed {
        Ok(ok) => ok,
        Err(e) => {
            a.set_import_error(e);
            return;
        }
    };
    let Ok(replayed) = AnyMatch::from_record(&imported.record) else {
        a.set_import_error(problem("unplayable"));
        return;
    };
    let mut new = NewGame::from_match(&replayed, Mode::Imported, imported.players);
    new.study = imported.study;
    let record = imported.record;
    let standing = Standing::of(&replayed);
    let now = ctx.now();
    match ctx.with_store(|store| store.create_game_with(&new, &record.actions, &standing, now)) {
        Ok(id) => {
            a.set_import_error(ImportProblem::default());
            a.set_import_text("".into());
            a.set_show_import(false);
            refresh(ctx);
            super::registry::review(ctx, id, false);
        }
        Err(_) => a.set_import_error(problem("storage")),
    }
}

/// An import problem of this kind (see `ImportProblem` in history.slint).
fn problem(code: &str) -> ImportProblem {
    ImportProblem {
        code: code.into(),
        ..ImportProblem::default()
    }
}
