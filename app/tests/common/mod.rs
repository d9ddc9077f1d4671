//! Shared by the UI tests and the screenshot example: a headless Slint platform with the
//! software renderer, an app on a temporary data directory, and helpers to find and press
//! elements by accessible label.
#![allow(dead_code)]

use i_slint_backend_testing::{ElementHandle, TestingBackend, TestingBackendOptions};
use qiguan_app::settings::Language;
use qiguan_app::{App, AppOptions};
use slint::ComponentHandle;
use std::path::Path;

/// Installs the testing platform for this thread, with a real software rasterizer so that
/// snapshots work. Safe to call more than once per thread.
pub fn platform() {
    let _ = slint::platform::set_platform(Box::new(TestingBackend::new(TestingBackendOptions {
        mock_time: true,
        threading: false,
        renderer_name: Some("software".into()),
    })));
}

/// Starts the app on `dir`, in `language`, at the given logical size.
pub fn start(dir: &Path, language: Language, size: (u32, u32)) -> App {
    platform();
    let app = qiguan_app::init(AppOptions {
        data_dir: dir.to_owned(),
        default_language: Some(language),
    })
    .expect("the app starts");
    app.window()
        .window()
        .set_size(slint::PhysicalSize::new(size.0, size.1));
    app.window().show().expect("the window shows");
    app
}

/// Returns the elements with this accessible label.
pub fn all(app: &App, label: &str) -> Vec<ElementHandle> {
    ElementHandle::find_by_accessible_label(app.window(), label).collect()
}

/// Returns the one visible element with this label; panics with what was found otherwise.
pub fn one(app: &App, label: &str) -> ElementHandle {
    let found: Vec<_> = all(app, label)
        .into_iter()
        .filter(|e| e.is_valid() && e.size().width > 0.0)
        .collect();
    match found.len() {
        1 => found.into_iter().next().expect("one element"),
        0 => panic!("no element labelled {label:?}"),
        n => panic!("{n} elements labelled {label:?}"),
    }
}

/// Presses the element with this label (its default accessible action).
pub fn press(app: &App, label: &str) {
    one(app, label).invoke_accessible_default_action();
}

/// Clicks the element with this label with a real pointer event at its centre.
pub fn click(app: &App, label: &str) {
    one(app, label).mock_single_click(slint::platform::PointerEventButton::Left);
}

/// Returns the accessible description of the board point with this coordinate (`h3`).
pub fn point(app: &App, square: &str) -> String {
    one(app, square)
        .accessible_description()
        .unwrap_or_default()
        .to_string()
}

/// Returns the board points whose description says they are a legal destination.
pub fn targets(app: &App) -> Vec<String> {
    let mut found: Vec<String> = (0..90)
        .map(|i| format!("{}{}", (b'a' + (i % 9) as u8) as char, i / 9 + 1))
        .filter(|sq| point(app, sq).contains("legal move") || point(app, sq).contains("可走"))
        .collect();
    found.sort();
    found
}

/// Renders the window and writes it as a PNG.
pub fn snapshot(app: &App, path: &Path) {
    let buffer = app.window().window().take_snapshot().expect("a snapshot");
    let file = std::fs::File::create(path).expect("the PNG can be created");
    let mut encoder = png::Encoder::new(file, buffer.width(), buffer.height());
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().expect("a PNG header");
    writer
        .write_image_data(buffer.as_bytes())
        .expect("the PNG data");
}
