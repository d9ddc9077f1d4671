//! First-game tips: the walkthrough a screen offers the first time a player needs it (see
//! ui/ui/tips.slint for the words). Each is shown until finished or skipped once; the
//! Settings switch turns them off, and on again from the start.

use crate::shell::bind::handler;
use crate::shell::ctx::Ctx;
use qiguan_ui::Walkthrough;
use slint::{ComponentHandle, SharedString};
use std::rc::Rc;

/// The setting that marks a walkthrough as seen is this prefix and its key.
pub(crate) const SEEN: &str = "tip-seen:";

pub fn connect(ctx: &Rc<Ctx>) {
    let ui = ctx.ui();
    ui.global::<Walkthrough>()
        .on_finished(handler(ctx, |ctx, key: SharedString| finished(ctx, &key)));
}

/// What the screen now offers: the walkthrough `key`, or none. A walkthrough the player has
/// seen, or any while tips are off, is not shown; one left unfinished (the device changed
/// hands, say) starts again from its first tip the next time.
pub(crate) fn offer(ctx: &Rc<Ctx>, key: Option<&str>) {
    let ui = ctx.ui();
    let w = ui.global::<Walkthrough>();
    let wanted = key.filter(|k| ctx.settings.borrow().tips && !seen(ctx, k));
    let wanted = wanted.unwrap_or_default();
    if w.get_key() != wanted {
        w.set_key(wanted.into());
        w.set_step(0);
    }
}

fn seen(ctx: &Ctx, key: &str) -> bool {
    ctx.with_store(|store| store.setting(&format!("{SEEN}{key}")))
        .ok()
        .flatten()
        .is_some_and(|v| v == "true")
}

fn finished(ctx: &Rc<Ctx>, key: &str) {
    // Not stored (a full disk): it shows again next time, nothing worse.
    let _ = ctx.with_store(|store| store.set_setting(&format!("{SEEN}{key}"), "true"));
    let ui = ctx.ui();
    let w = ui.global::<Walkthrough>();
    w.set_key(SharedString::new());
    w.set_step(0);
}

/// Tips switched on again: every walkthrough shows once more.
pub(crate) fn show_again(ctx: &Rc<Ctx>) {
    let _ = ctx.with_store(|store| {
        for (key, _) in store.settings_with_prefix(SEEN)? {
            store.delete_setting(&format!("{SEEN}{key}"))?;
        }
        Ok(())
    });
}
