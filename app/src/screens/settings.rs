//! Settings: language, notation, orientation, move confirmation; stored at once.

use crate::shell::bind::handler0;
use crate::shell::ctx::Ctx;
use crate::shell::settings::{Language, Notation, Orientation, Settings};
use qiguan_ui::SettingsAdapter;
use slint::ComponentHandle;
use std::rc::Rc;
use std::time::Duration;

pub fn connect(ctx: &Rc<Ctx>) {
    let ui = ctx.ui();
    ui.global::<SettingsAdapter>()
        .on_changed(handler0(ctx, changed));
}

/// Shows the current settings.
pub fn refresh(ctx: &Rc<Ctx>) {
    let ui = ctx.ui();
    show_preferences(&ui, &ctx.settings.borrow());
    let adapter = ui.global::<SettingsAdapter>();
    adapter.set_server(ctx.server.borrow().clone().into());
    adapter.set_server_problem("".into());
    // The address kept is checked again each time the screen shows.
    ctx.probed.borrow_mut().clear();
    probe_soon(ctx, &ctx.server.borrow().clone(), Duration::ZERO);
}

/// Puts the preferences in the settings' global, which other screens read too (the Xiangqi
/// board numbers Red's files as the notation does): from the start, not only once Settings
/// has been opened.
pub fn show_preferences(ui: &qiguan_ui::AppWindow, s: &Settings) {
    let adapter = ui.global::<SettingsAdapter>();
    adapter.set_language(match s.language {
        Language::Chinese => 0,
        Language::English => 1,
    });
    adapter.set_notation(match s.notation {
        Notation::Chinese => 0,
        Notation::Wxf => 1,
        Notation::Coordinates => 2,
    });
    adapter.set_orientation(match s.orientation {
        Orientation::RedBottom => 0,
        Orientation::BlackBottom => 1,
        Orientation::SideToMove => 2,
    });
    adapter.set_confirm_moves(s.confirm_moves);
    adapter.set_auto_move(s.auto_move);
    adapter.set_sound(s.sound);
    adapter.set_tips(s.tips);
}

/// How long typing must pause before the address typed is checked.
const PROBE_PAUSE: Duration = Duration::from_millis(700);

/// Checks, once typing pauses, that a Qiguan server answers at `server` (the screen says
/// "checking" meanwhile); nothing to check for an empty address or the one checked last.
fn probe_soon(ctx: &Rc<Ctx>, server: &str, pause: Duration) {
    let adapter_ui = ctx.ui();
    let adapter = adapter_ui.global::<SettingsAdapter>();
    if server.is_empty() {
        ctx.server_probe.stop();
        ctx.probed.borrow_mut().clear();
        adapter.set_server_check("".into());
        return;
    }
    if *ctx.probed.borrow() == server {
        return;
    }
    *ctx.probed.borrow_mut() = server.to_owned();
    adapter.set_server_check("checking".into());
    let weak = Rc::downgrade(ctx);
    let server = server.to_owned();
    ctx.server_probe
        .start(slint::TimerMode::SingleShot, pause, move || {
            if let Some(ctx) = weak.upgrade() {
                ctx.send(crate::sync::Command::Probe(server.clone()));
            }
        });
}

/// What answers at an address checked: shown if it is still the address on the screen.
pub fn probed(ctx: &Rc<Ctx>, server: &str, code: &str) {
    if *ctx.probed.borrow() != server {
        return;
    }
    let ui = ctx.ui();
    ui.global::<SettingsAdapter>()
        .set_server_check(if code.is_empty() { "ok" } else { code }.into());
}

fn changed(ctx: &Rc<Ctx>) {
    let ui = ctx.ui();
    let adapter = ui.global::<SettingsAdapter>();
    let s = Settings {
        language: if adapter.get_language() == 0 {
            Language::Chinese
        } else {
            Language::English
        },
        notation: match adapter.get_notation() {
            1 => Notation::Wxf,
            2 => Notation::Coordinates,
            _ => Notation::Chinese,
        },
        orientation: match adapter.get_orientation() {
            1 => Orientation::BlackBottom,
            2 => Orientation::SideToMove,
            _ => Orientation::RedBottom,
        },
        confirm_moves: adapter.get_confirm_moves(),
        auto_move: adapter.get_auto_move(),
        sound: adapter.get_sound(),
        tips: adapter.get_tips(),
    };
    // The correspondence server: kept once it is an address a server can have; until then
    // the screen says what is wrong and the last good one stays.
    let typed = adapter.get_server();
    match crate::shell::settings::server_address(&typed) {
        Ok(server) => {
            adapter.set_server_problem("".into());
            probe_soon(ctx, &server, PROBE_PAUSE);
            if *ctx.server.borrow() != server {
                let _ = ctx.with_store(|store| store.set_setting("server", &server));
                *ctx.server.borrow_mut() = server;
            }
        }
        Err(problem) => {
            ctx.server_probe.stop();
            ctx.probed.borrow_mut().clear();
            adapter.set_server_check("".into());
            adapter.set_server_problem(if typed.trim().is_empty() {
                "".into()
            } else {
                problem.code().into()
            })
        }
    }
    let old = ctx.settings.replace(s);
    if old.language != s.language {
        apply_language(&ctx.ui(), &s);
    }
    if s.tips && !old.tips {
        crate::play::tips::show_again(ctx);
    }
    // A preference that cannot be stored still applies for this run.
    let _ = ctx.with_store(|store| s.save(store));
}

/// Switches the bundled translation, and tells the screens which language is on screen (for
/// the names the Rust side gives in both).
pub fn apply_language(ui: &qiguan_ui::AppWindow, settings: &Settings) {
    let _ = slint::select_bundled_translation(settings.language_code());
    ui.global::<qiguan_ui::Texts>()
        .set_language(settings.language_code().into());
}
