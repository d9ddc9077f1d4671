//! The screen shown when the history cannot be opened: says why, writes nothing.

use crate::shell::bind::handler0;
use crate::shell::ctx::Ctx;
use crate::store::set_aside;
use crate::store::{DB_FILE, Store, StoreError};
use qiguan_ui::{FailureAdapter, Nav, Screen};
use slint::ComponentHandle;
use std::rc::Rc;

pub fn connect(ctx: &Rc<Ctx>) {
    let ui = ctx.ui();
    let failure = ui.global::<FailureAdapter>();
    failure.on_quit(handler0(ctx, |ctx| {
        let _ = ctx.ui().hide();
        let _ = slint::quit_event_loop();
    }));
    failure.on_start_fresh(handler0(ctx, start_fresh));
}

/// Shows why the history cannot be opened.
pub fn show(ctx: &Rc<Ctx>, error: &StoreError) {
    let ui = ctx.ui();
    let failure = ui.global::<FailureAdapter>();
    let (kind, path, detail) = match error {
        StoreError::Corrupt { path, detail } => {
            ("corrupt", path.display().to_string(), detail.clone())
        }
        StoreError::TooNew { path, found } => (
            "too-new",
            path.display().to_string(),
            format!("schema {found} > {}", crate::store::SCHEMA_VERSION),
        ),
        StoreError::Io { path, detail } => ("io", path.display().to_string(), detail.clone()),
        other => (
            "io",
            ctx.data_dir.join(DB_FILE).display().to_string(),
            other.to_string(),
        ),
    };
    failure.set_kind(kind.into());
    failure.set_path(path.into());
    failure.set_detail(detail.into());
    failure.set_can_start_fresh(matches!(error, StoreError::Corrupt { .. }));
    ui.global::<Nav>().set_screen(Screen::Failure);
}

/// Renames the damaged file aside (never deletes it) and starts an empty history.
fn start_fresh(ctx: &Rc<Ctx>) {
    let db = ctx.data_dir.join(DB_FILE);
    let result = set_aside(&db, ctx.now())
        .map_err(|e| StoreError::Io {
            path: db.clone(),
            detail: e.to_string(),
        })
        .and_then(|_| Store::open_dir(&ctx.data_dir));
    match result {
        Ok(store) => {
            *ctx.store.borrow_mut() = Some(store);
            ctx.reset_to(Screen::Home);
        }
        Err(e) => show(ctx, &e),
    }
}
