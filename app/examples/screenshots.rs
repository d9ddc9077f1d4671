//! Renders every screen at phone (360×780) and desktop (1280×800) size with the software
//! renderer into docs/screenshots/, in Chinese and English. Run: `scripts/screenshots` (or
//! `cargo run -p qiguan-app --example screenshots -- [OUT_DIR]`).

#[path = "../tests/common/mod.rs"]
mod common;

use qiguan_app::settings::Language;
use qiguan_app::ui::{HomeAdapter, OnlineAdapter};
use slint::ComponentHandle;
use slint::platform::WindowEvent;
use std::path::{Path, PathBuf};

/// A phone with a 32 px status bar and a 24 px gesture bar: Home, then the correspondence
/// screen with the on-screen keyboard (300 px) open on the join code field. The bars and the
/// keyboard, which the system draws, are painted over the picture in grey.
fn phone_with_system_ui(out: &Path, tag: &str, language: Language) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let app = common::start(dir.path(), language, (360, 780));
    let shot = |name: &str, keyboard: u32| {
        let path = out.join(format!("{name}-{tag}.png"));
        common::snapshot(&app, &path);
        // The keyboard, when up, covers the gesture bar too.
        let covered = if keyboard > 0 {
            780 - keyboard
        } else {
            780 - 24
        };
        cover(&path, &[(0, 32), (covered, 780)]);
        println!("{}", path.display());
    };
    common::simulate_phone(&app, 32.0, 24.0, 0.0);
    shot("home-insets", 0);
    let ui = app.window();
    ui.global::<HomeAdapter>().invoke_online();
    ui.global::<OnlineAdapter>().set_code("q3vwd-8hz1k".into());
    ui.window().dispatch_event(WindowEvent::PointerScrolled {
        position: slint::LogicalPosition::new(180.0, 400.0),
        delta_x: 0.0,
        delta_y: -3000.0,
    });
    let label = match language {
        Language::Chinese => "邀请码",
        _ => "Invite code",
    };
    common::one(&app, label).mock_single_click(slint::platform::PointerEventButton::Left);
    common::simulate_phone(&app, 32.0, 24.0, 300.0);
    shot("online-keyboard", 300);
}

/// Paints the rows `from..to` of a PNG grey (what the system draws over the app).
fn cover(path: &Path, bands: &[(u32, u32)]) {
    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(path).expect("the PNG"),
    ));
    let mut reader = decoder.read_info().expect("a PNG header");
    let mut data = vec![0; reader.output_buffer_size().expect("a size")];
    let info = reader.next_frame(&mut data).expect("the PNG data");
    let (width, height) = (info.width, info.height);
    for &(from, to) in bands {
        for y in from.min(height)..to.min(height) {
            for x in 0..width {
                let i = ((y * width + x) * 4) as usize;
                data[i..i + 4].copy_from_slice(&[60, 60, 66, 255]);
            }
        }
    }
    let file = std::fs::File::create(path).expect("the PNG can be written");
    let mut encoder = png::Encoder::new(file, width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().expect("a PNG header");
    writer.write_image_data(&data).expect("the PNG data");
}

fn main() {
    let out = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/screenshots"));
    std::fs::create_dir_all(&out).expect("the output directory");
    for (size, tag, language) in [
        ((360, 780), "phone", Language::Chinese),
        ((1280, 800), "desktop", Language::Chinese),
        ((360, 780), "phone-en", Language::English),
        ((1280, 800), "desktop-en", Language::English),
    ] {
        common::tour(size, language, |app, screen| {
            let path = out.join(format!("{screen}-{tag}.png"));
            common::snapshot(app, &path);
            println!("{}", path.display());
        });
        if size.0 == 360 {
            phone_with_system_ui(&out, tag, language);
        }
    }
}
