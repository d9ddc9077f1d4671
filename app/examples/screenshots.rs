//! Renders every screen at phone (360×780) and desktop (1280×800) size with the software
//! renderer into docs/screenshots/, in Chinese and English. Run: `scripts/screenshots` (or
//! `cargo run -p qiguan-app --example screenshots -- [OUT_DIR]`).

#[path = "../tests/common/mod.rs"]
mod common;

use qiguan_app::settings::Language;
use std::path::{Path, PathBuf};

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
    }
}
