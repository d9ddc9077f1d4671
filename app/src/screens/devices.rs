//! Linked devices: start a library, offer a pairing code (with its QR code), join with one,
//! the library's devices and unlinking. The sync worker does the talking (its `library`
//! commands); this screen shows what it reports.

use crate::library::{Device, Offer};
use crate::shell::bind::{handler, handler0};
use crate::shell::ctx::Ctx;
use crate::sync::{Command, LibraryCommand, LibraryEvent};
use qiguan_ui::{DeviceRow, DevicesAdapter, Nav, Screen, SettingsAdapter};
use slint::{ComponentHandle, Image, Rgb8Pixel, SharedPixelBuffer, VecModel};
use std::rc::Rc;

/// The setting that keeps this device's name (its own, not shared).
const NAME_KEY: &str = "device-name";

pub fn connect(ctx: &Rc<Ctx>) {
    let ui = ctx.ui();
    ui.global::<SettingsAdapter>()
        .on_devices(handler0(ctx, |ctx| ctx.go(Screen::Devices)));
    let a = ui.global::<DevicesAdapter>();
    a.set_devices(Rc::new(VecModel::<DeviceRow>::default()).into());
    a.on_start(handler0(ctx, |ctx| {
        let (server, name) = where_and_who(ctx);
        if no_server(ctx, &server) {
            return;
        }
        busy(ctx);
        ctx.send(Command::Library(LibraryCommand::Start { server, name }));
    }));
    a.on_join(handler0(ctx, |ctx| {
        let (server, name) = where_and_who(ctx);
        if no_server(ctx, &server) {
            return;
        }
        let code = ctx.ui().global::<DevicesAdapter>().get_code().to_string();
        busy(ctx);
        ctx.send(Command::Library(LibraryCommand::Join {
            server,
            code,
            name,
        }));
    }));
    a.on_make_offer(handler0(ctx, |ctx| {
        busy(ctx);
        ctx.send(Command::Library(LibraryCommand::Offer));
    }));
    a.on_close_offer(handler0(ctx, |ctx| {
        ctx.ui().global::<DevicesAdapter>().set_offer("".into());
    }));
    a.on_unlink(handler(ctx, |ctx, device: slint::SharedString| {
        busy(ctx);
        ctx.send(Command::Library(LibraryCommand::Unlink(device.to_string())));
    }));
    a.on_sync_now(handler0(ctx, |ctx| {
        busy(ctx);
        ctx.send(Command::Library(LibraryCommand::Sync));
    }));
}

/// The server from Settings, and this device's name (kept for next time).
fn where_and_who(ctx: &Rc<Ctx>) -> (String, String) {
    let ui = ctx.ui();
    let a = ui.global::<DevicesAdapter>();
    let name = a.get_device_name().trim().to_owned();
    let name = if name.is_empty() {
        default_name()
    } else {
        name
    };
    let _ = ctx.with_store(|store| store.set_setting(NAME_KEY, &name));
    (ctx.server.borrow().clone(), name)
}

/// Says so when no server is set in Settings (there is nothing to link through).
fn no_server(ctx: &Rc<Ctx>, server: &str) -> bool {
    if server.is_empty() {
        ctx.ui()
            .global::<DevicesAdapter>()
            .set_error("no-server".into());
    }
    server.is_empty()
}

/// A name for a device whose player gave none.
fn default_name() -> String {
    if cfg!(target_os = "android") {
        return "Android".into();
    }
    let host = std::fs::read_to_string("/etc/hostname")
        .ok()
        .map(|h| h.trim().to_owned())
        .filter(|h| !h.is_empty());
    host.unwrap_or_else(|| std::env::consts::OS.to_owned())
}

fn busy(ctx: &Rc<Ctx>) {
    let ui = ctx.ui();
    let a = ui.global::<DevicesAdapter>();
    a.set_busy(true);
    a.set_error("".into());
}

/// Shows the screen's data as stored, and asks the worker where the device stands.
pub fn refresh(ctx: &Rc<Ctx>) {
    let ui = ctx.ui();
    let a = ui.global::<DevicesAdapter>();
    a.set_server(ctx.server.borrow().clone().into());
    let name = ctx
        .with_store(|store| store.setting(NAME_KEY))
        .ok()
        .flatten()
        .unwrap_or_else(default_name);
    a.set_device_name(name.into());
    a.set_error("".into());
    busy(ctx);
    ctx.send(Command::Library(LibraryCommand::Show));
}

/// What the worker reported.
pub fn handle(ctx: &Rc<Ctx>, event: LibraryEvent) {
    let ui = ctx.ui();
    let a = ui.global::<DevicesAdapter>();
    let on_screen = ui.global::<Nav>().get_screen() == Screen::Devices;
    match event {
        LibraryEvent::State {
            server,
            unlinked,
            devices,
        } => {
            a.set_busy(false);
            a.set_state(match (&server, unlinked) {
                (None, _) => 0,
                (Some(_), false) => 1,
                (Some(_), true) => 2,
            });
            if let Some(server) = server {
                a.set_server(server.into());
            }
            show_devices(&a, &devices);
            if unlinked {
                a.set_offer("".into());
            }
        }
        LibraryEvent::Offer(offer) => {
            a.set_busy(false);
            show_offer(&a, &offer);
        }
        LibraryEvent::Progress(done) => {
            a.set_received(done.taken as i32);
            a.set_sent(done.sent as i32);
        }
        LibraryEvent::Synced { at, done } => {
            a.set_busy(false);
            a.set_synced_at(time_of_day(at).into());
            a.set_received(done.taken as i32);
            a.set_sent(done.sent as i32);
            a.set_copies(done.forked as i32);
            if on_screen {
                // A device may have joined or left meanwhile.
                ctx.send(Command::Library(LibraryCommand::Show));
            }
        }
        LibraryEvent::Failed(code) => {
            a.set_busy(false);
            if on_screen {
                a.set_error(code.into());
            }
        }
    }
}

fn show_devices(a: &DevicesAdapter<'_>, devices: &[Device]) {
    let rows: Vec<DeviceRow> = devices
        .iter()
        .map(|d| DeviceRow {
            id: d.device_id.clone().into(),
            name: d.name.clone().into(),
            linked: date(d.linked_at).into(),
            unlinked: d.unlinked_at.map(date).unwrap_or_default().into(),
            this: d.this,
        })
        .collect();
    // A handful of rows: a new model each time.
    a.set_devices(Rc::new(VecModel::from(rows)).into());
}

fn show_offer(a: &DevicesAdapter<'_>, offer: &Offer) {
    a.set_offer(offer.code.clone().into());
    a.set_offer_until(time_of_day(offer.expires_at).into());
    if let Some(qr) = qr_image(&offer.code) {
        a.set_offer_qr(qr);
    }
}

fn local(ms: i64) -> Option<chrono::DateTime<chrono::Local>> {
    chrono::DateTime::from_timestamp_millis(ms).map(|t| t.with_timezone(&chrono::Local))
}

fn date(ms: i64) -> String {
    local(ms).map_or_else(String::new, |t| t.format("%Y-%m-%d").to_string())
}

fn time_of_day(ms: i64) -> String {
    local(ms).map_or_else(String::new, |t| t.format("%H:%M").to_string())
}

/// The code as a QR code: dark modules on white, 6 px each, with the 4-module quiet zone
/// readers need.
pub fn qr_image(code: &str) -> Option<Image> {
    let qr = qrcode::QrCode::new(code.as_bytes()).ok()?;
    let modules = qr.width();
    let colors = qr.to_colors();
    const SCALE: usize = 6;
    const QUIET: usize = 4;
    let side = (modules + 2 * QUIET) * SCALE;
    let mut buffer = SharedPixelBuffer::<Rgb8Pixel>::new(side as u32, side as u32);
    let pixels = buffer.make_mut_slice();
    for (i, px) in pixels.iter_mut().enumerate() {
        let (x, y) = (i % side / SCALE, i / side / SCALE);
        let dark = x >= QUIET
            && y >= QUIET
            && x < modules + QUIET
            && y < modules + QUIET
            && colors[(y - QUIET) * modules + (x - QUIET)] == qrcode::Color::Dark;
        let v = if dark { 0 } else { 255 };
        *px = Rgb8Pixel { r: v, g: v, b: v };
    }
    Some(Image::from_rgb8(buffer))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_qr_code_is_square_with_its_quiet_zone() {
        let image = super::qr_image("ABCD-EFGH-JKMN").expect("a QR code");
        let size = image.size();
        assert_eq!(size.width, size.height);
        // Version 1 (21 modules) plus 4 on each side, 6 px each.
        assert_eq!(size.width, (21 + 8) * 6);
    }
}
