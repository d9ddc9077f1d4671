//! Home: games to start, unfinished games to continue.

use super::rows::listed_row;
use crate::shell::bind::{handler, handler0};
use crate::shell::ctx::Ctx;
use crate::store::GameId;
use qiguan_ui::{GameRow, HomeAdapter, Screen};
use slint::{ComponentHandle, ModelRc, VecModel};
use std::rc::Rc;

/// How many unfinished games home lists.
const UNFINISHED_SHOWN: usize = 5;

pub fn connect(ctx: &Rc<Ctx>) {
    let ui = ctx.ui();
    let home = ui.global::<HomeAdapter>();
    home.on_new_game(handler(ctx, |ctx, kind: slint::SharedString| {
        match kind.parse() {
            Ok(kind) => super::new_game::open(ctx, kind),
            Err(e) => crate::shell::bind::show_error(ctx, &e),
        }
    }));
    home.on_continue_game(handler(ctx, |ctx, id: i32| {
        crate::games::open(ctx, GameId(id as i64));
    }));
    home.on_online(handler0(ctx, |ctx| ctx.go(Screen::Online)));
    home.on_history(handler0(ctx, |ctx| ctx.go(Screen::History)));
    home.on_settings(handler0(ctx, |ctx| ctx.go(Screen::Settings)));
    home.on_about(handler0(ctx, |ctx| ctx.go(Screen::About)));
}

/// Reloads the unfinished games.
pub fn refresh(ctx: &Rc<Ctx>) {
    let rows: Vec<GameRow> = ctx
        .with_store(|store| {
            // Correspondence games waiting for this device first; a stable sort keeps the rest
            // newest first.
            let mut summaries = store.unfinished(50)?;
            summaries.sort_by_key(|s| {
                !store
                    .remote(s.id)
                    .ok()
                    .flatten()
                    .is_some_and(|r| r.your_turn)
            });
            summaries.truncate(UNFINISHED_SHOWN);
            Ok(summaries.iter().map(|s| listed_row(store, s)).collect())
        })
        .unwrap_or_default();
    ctx.ui()
        .global::<HomeAdapter>()
        .set_unfinished(ModelRc::new(VecModel::from(rows)));
}
