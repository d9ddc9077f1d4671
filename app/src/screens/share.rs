//! The share dialog of the game on screen: asks the sync worker for the game's link (made on
//! the server, or the one kept), shows it to copy, and withdraws it (`crate::sync::share` does the
//! work, on the worker's thread).

use crate::games;
use crate::shell::bind::{handler, handler0};
use crate::shell::ctx::Ctx;
use crate::store::GameId;
use crate::sync::Command;
use qiguan_ui::ShareAdapter;
use slint::ComponentHandle;
use std::rc::Rc;

/// Connects the dialog's callbacks.
pub fn connect(ctx: &Rc<Ctx>) {
    let ui = ctx.ui();
    let a = ui.global::<ShareAdapter>();
    a.on_share(handler0(ctx, |ctx| {
        if let Some(id) = games::shown_game(ctx) {
            start(ctx, id);
        }
    }));
    a.on_withdraw(handler0(ctx, |ctx| {
        if let Some(id) = ctx.sharing.get() {
            ctx.ui().global::<ShareAdapter>().set_state(4);
            ctx.send(Command::Withdraw(id));
        }
    }));
    a.on_settings(handler0(ctx, |ctx| {
        ctx.ui()
            .global::<qiguan_ui::HomeAdapter>()
            .invoke_settings();
    }));
    a.on_send_to(handler(ctx, |ctx, title: slint::SharedString| {
        let ui = ctx.ui();
        let a = ui.global::<ShareAdapter>();
        let sheet = ctx.system_share.borrow().clone();
        if let Some(sheet) = sheet {
            let sent = sheet.send(&title, &a.get_link());
            if let Err(e) = &sent {
                eprintln!("qiguan: the share sheet did not open: {e}");
            }
            a.set_error(if sent.is_ok() { "" } else { "share-sheet" }.into());
        }
    }));
}

/// Opens the dialog for a game and asks for its link.
pub(crate) fn start(ctx: &Rc<Ctx>, id: GameId) {
    let summary = ctx
        .with_store(|store| store.summaries(&[id]))
        .ok()
        .and_then(|rows| rows.into_iter().next());
    let ui = ctx.ui();
    let a = ui.global::<ShareAdapter>();
    a.set_live(summary.as_ref().is_some_and(|s| s.result.is_none()));
    a.set_hides(
        summary
            .as_ref()
            .is_some_and(|s| games::find(s.kind).is_some_and(|e| e.hides_pieces)),
    );
    a.set_link("".into());
    a.set_error("".into());
    a.set_confirming(false);
    a.set_state(1);
    ctx.sharing.set(Some(id));
    ctx.send(Command::Share(id));
}

/// The worker made (or found) the game's link.
pub(crate) fn shown(ctx: &Rc<Ctx>, id: GameId, url: &str) {
    let ui = ctx.ui();
    let a = ui.global::<ShareAdapter>();
    if ctx.sharing.get() == Some(id) && a.get_state() == 1 {
        a.set_link(url.into());
        a.set_state(2);
    }
}

/// The game's link was withdrawn: the dialog closes.
pub(crate) fn withdrawn(ctx: &Rc<Ctx>, id: GameId) {
    let ui = ctx.ui();
    let a = ui.global::<ShareAdapter>();
    if ctx.sharing.get() == Some(id) && a.get_state() == 4 {
        a.set_link("".into());
        a.set_state(0);
        ctx.sharing.set(None);
    }
}

/// Making or withdrawing the link failed: the dialog says why.
pub(crate) fn failed(ctx: &Rc<Ctx>, code: &str) {
    let ui = ctx.ui();
    let a = ui.global::<ShareAdapter>();
    if a.get_state() == 1 || a.get_state() == 4 {
        a.set_error(code.into());
        a.set_state(3);
    }
}
