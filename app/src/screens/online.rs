//! Correspondence: create, invite, join, the list of games; and the sync worker's reports.

use super::rows::listed_row;
use crate::shell::bind::{handler, handler0};
use crate::shell::ctx::Ctx;
use crate::store::GameId;
use crate::sync::{Command, Event, Worker};
use qiguan_ui::{GameRow, OnlineAdapter, Screen};
use slint::{ComponentHandle, ModelRc, VecModel};
use std::rc::Rc;

/// Reads the server setting (none until the player gives one: no address would be right for
/// everyone) and starts the sync worker (when the history is open).
pub fn start(ctx: &Rc<Ctx>) {
    let server = ctx
        .with_store(|s| s.setting("server"))
        .ok()
        .flatten()
        .unwrap_or_default();
    *ctx.server.borrow_mut() = server;
    crate::shell::thinking::set_context(ctx);
    if ctx.store.borrow().is_none() {
        return;
    }
    let (worker, events) = Worker::start(ctx.data_dir.clone(), || {
        // Runs on the worker thread: hop to the UI thread, where the context lives.
        crate::shell::thinking::on_ui_thread(|ctx: &Rc<Ctx>| ctx.drain_sync());
    });
    *ctx.worker.borrow_mut() = Some(worker);
    *ctx.sync_events.borrow_mut() = Some(events);
    ctx.send(Command::Flush);
    ctx.send(Command::RefreshAll);
}

pub fn connect(ctx: &Rc<Ctx>) {
    let ui = ctx.ui();
    let a = ui.global::<OnlineAdapter>();
    a.on_create(handler0(ctx, |ctx| {
        let ui = ctx.ui();
        let a = ui.global::<OnlineAdapter>();
        if ctx.server.borrow().is_empty() {
            a.set_error("no-server".into());
            return;
        }
        a.set_busy(true);
        a.set_error("".into());
        let side = a.get_side().clamp(0, 1) as u8;
        let (game, choice) = super::new_game::chosen_online(&ui, side);
        ctx.send(Command::Create {
            server: ctx.server.borrow().clone(),
            game,
            options: choice.options,
            bots: choice.bots,
            seat: choice.seat,
            days_per_move: a.get_days().clamp(1, 14) as i64,
            name: a.get_name().trim().to_owned(),
        });
    }));
    a.on_join(handler0(ctx, |ctx| {
        let ui = ctx.ui();
        let a = ui.global::<OnlineAdapter>();
        if ctx.server.borrow().is_empty() {
            a.set_error("no-server".into());
            return;
        }
        a.set_busy(true);
        a.set_error("".into());
        ctx.send(Command::Join {
            server: ctx.server.borrow().clone(),
            code: a.get_code().trim().to_owned(),
            name: a.get_name().trim().to_owned(),
        });
    }));
    a.on_open(handler(ctx, |ctx, id: i32| {
        crate::games::open(ctx, GameId(id as i64))
    }));
    a.on_refresh(handler0(ctx, |ctx| {
        if ctx.server.borrow().is_empty() {
            ctx.ui()
                .global::<OnlineAdapter>()
                .set_error("no-server".into());
            return;
        }
        ctx.send(Command::Flush);
        ctx.send(Command::RefreshAll);
    }));
    a.on_settings(handler0(ctx, |ctx| ctx.go(Screen::Settings)));
    a.on_dismiss_invite(handler0(ctx, |ctx| {
        ctx.ui().global::<OnlineAdapter>().set_invite("".into());
    }));
}

/// Shows the correspondence games, the seat's turn first, then the nearest deadline.
pub fn refresh(ctx: &Rc<Ctx>) {
    let ui = ctx.ui();
    let a = ui.global::<OnlineAdapter>();
    a.set_server(ctx.server.borrow().clone().into());
    // "Enter a server address first" is old news once there is one.
    if !ctx.server.borrow().is_empty() && a.get_error() == "no-server" {
        a.set_error("".into());
    }
    let rows = ctx
        .with_store(|store| {
            let mut remotes = store.remote_games()?;
            // The invite card goes once its code has been used.
            let shown = a.get_invite();
            let unused = |r: &crate::store::RemoteGame| {
                r.invite_code
                    .as_deref()
                    .is_some_and(|codes| codes.contains(shown.as_str()))
            };
            if !shown.is_empty() && !remotes.iter().any(unused) {
                a.set_invite("".into());
            }
            remotes.sort_by_key(|r| (!r.your_turn, r.deadline.unwrap_or(i64::MAX)));
            let mut rows: Vec<GameRow> = Vec::new();
            for r in remotes {
                if let Some(s) = store.summaries(&[r.game_id])?.first() {
                    rows.push(listed_row(store, s));
                }
            }
            Ok(rows)
        })
        .unwrap_or_default();
    a.set_games(ModelRc::new(VecModel::from(rows)));
}

/// Handles one report from the sync worker.
pub fn handle(ctx: &Rc<Ctx>, event: Event) {
    let ui = ctx.ui();
    let a = ui.global::<OnlineAdapter>();
    match event {
        // Nobody to invite (the server's computer fills the other seats): straight to the
        // board.
        Event::Created { id, code } if code.is_empty() => {
            a.set_busy(false);
            refresh(ctx);
            crate::games::open(ctx, id);
        }
        Event::Created { code, .. } => {
            a.set_busy(false);
            a.set_invite(code.into());
            refresh(ctx);
        }
        Event::Joined { id } => {
            a.set_busy(false);
            a.set_code("".into());
            refresh(ctx);
            crate::games::open(ctx, id);
        }
        Event::Changed(ids) => {
            refresh(ctx);
            for entry in crate::games::GAMES {
                (entry.reload_if_open)(ctx, &ids);
            }
            tell_arrivals(ctx, &ids);
            if ui.global::<qiguan_ui::Nav>().get_screen() == Screen::Home {
                super::home::refresh(ctx);
            }
        }
        Event::Status { online, pending } => {
            a.set_online(online);
            a.set_pending(pending as i32);
            for entry in crate::games::GAMES {
                (entry.set_sync_status)(ctx, online, pending);
            }
        }
        Event::Heard(heard) => {
            crate::play::phrases::heard(ctx, crate::games::shown_game(ctx), heard)
        }
        Event::Library(event) => super::devices::handle(ctx, event),
        Event::Probed { server, code } => super::settings::probed(ctx, &server, &code),
        Event::Shared { id, url } => super::share::shown(ctx, id, &url),
        Event::Unshared { id } => super::share::withdrawn(ctx, id),
        Event::Failed {
            what: "share",
            code,
        } => super::share::failed(ctx, &code),
        Event::Failed { what, code } => {
            a.set_busy(false);
            if what == "sync" {
                a.set_online(false);
            }
            a.set_error(code.into());
        }
    }
}

/// Tells the desktop of each changed correspondence game that now waits for this device
/// (the opponent moved, joined, or the game ended), once per change, while the window is in
/// the background.
fn tell_arrivals(ctx: &Rc<Ctx>, ids: &[GameId]) {
    let ui = ctx.ui();
    let texts = ui.global::<qiguan_ui::Texts>();
    for &id in ids {
        let found = ctx.with_store(|store| {
            let remote = store.remote(id)?;
            let summary = store.summaries(&[id])?.into_iter().next();
            Ok(remote.zip(summary))
        });
        let Ok(Some((remote, summary))) = found else {
            continue;
        };
        // Told at most once per count of actions, and only when it is this device's turn.
        if !ctx.notifier.news(id.0, summary.plies) || !remote.your_turn {
            continue;
        }
        // The opponent's name in a two-seat game; in a bigger one, nobody in particular.
        let others: Vec<&String> = summary
            .players
            .iter()
            .enumerate()
            .filter(|(seat, _)| *seat != usize::from(remote.seat))
            .map(|(_, name)| name)
            .collect();
        let name = match others.as_slice() {
            [one] => one.as_str(),
            _ => "",
        };
        let notice = crate::shell::notify::Notice {
            title: texts.invoke_move_arrived_title().into(),
            body: texts
                .invoke_move_arrived(summary.kind.as_str().into(), name.into())
                .into(),
        };
        ctx.notifier.tell(ui.window(), notice);
    }
}
