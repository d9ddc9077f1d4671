//! Renders every screen at phone (360×780) and desktop (1280×800) size with the software
//! renderer into docs/screenshots/. Run: `scripts/screenshots` (or
//! `cargo run -p qiguan-app --example screenshots -- [OUT_DIR]`).

#[path = "../tests/common/mod.rs"]
mod common;

use common::{snapshot, start};
use qiguan_app::settings::Language;
use qiguan_app::ui::{HistoryAdapter, HomeAdapter, Nav, PlayAdapter, ReplayAdapter, Screen};
use slint::ComponentHandle;
use std::path::{Path, PathBuf};

/// Index of a coordinate like "h3" on the board.
fn sq(name: &str) -> i32 {
    let file = (name.as_bytes()[0] - b'a') as i32;
    let rank: i32 = name[1..].parse().expect("a rank");
    (rank - 1) * 9 + file
}

fn play(app: &qiguan_app::App, moves: &[&str]) {
    let a = app.window().global::<PlayAdapter>();
    for m in moves {
        let split = 1 + m[1..]
            .find(|c: char| c.is_ascii_alphabetic())
            .expect("two points");
        a.invoke_cell_clicked(sq(&m[..split]));
        a.invoke_cell_clicked(sq(&m[split..]));
    }
}

const PGN: &str = r#"[Event "Imported example"]
[White "许银川"]
[Black "吕钦"]
[Result "1/2-1/2"]
1. C2=5 H8+7 2. H2+3 R9=8 3. R1=2 H2+3 4. P7+1 P7+1 5. R2+6 C8=9 6. R2=3 C9-1 1/2-1/2
"#;

fn shoot(out: &Path, size: (u32, u32), tag: &str, language: Language) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let app = start(dir.path(), language, size);
    let ui = app.window();
    let name = |screen: &str| out.join(format!("{screen}-{tag}.png"));

    // A finished game (checkmate), an imported one, then an unfinished one in progress.
    ui.global::<HomeAdapter>().invoke_new_game("xiangqi".into());
    snapshot_named(&app, &name("new-game"));
    let ng = ui.global::<qiguan_app::ui::NewGameAdapter>();
    ng.set_red_name("张三".into());
    ng.set_black_name("李四".into());
    ng.invoke_start();
    play(&app, &["b3b5", "a7a6", "b5c5", "f10e9", "c5c10"]);
    snapshot_named(&app, &name("play-end"));
    ui.global::<PlayAdapter>().set_show_end_dialog(false);
    ui.global::<Nav>().invoke_back();

    let h = ui.global::<HistoryAdapter>();
    ui.global::<HomeAdapter>().invoke_history();
    h.set_import_text(PGN.into());
    h.set_show_import(true);
    snapshot_named(&app, &name("history-import"));
    h.invoke_import();
    ui.global::<ReplayAdapter>().invoke_go_to(7);
    snapshot_named(&app, &name("replay"));
    let r = ui.global::<ReplayAdapter>();
    r.set_export_format(1);
    r.set_show_export(true);
    r.invoke_export_changed();
    snapshot_named(&app, &name("replay-export"));
    r.set_show_export(false);
    ui.global::<Nav>().invoke_back();
    ui.global::<Nav>().invoke_back();

    ui.global::<HomeAdapter>().invoke_new_game("xiangqi".into());
    ng.set_red_name("Ann".into());
    ng.set_black_name("Bo".into());
    ng.invoke_start();
    play(
        &app,
        &["h3e3", "h10g8", "h1g3", "i10h10", "i1h1", "b10c8", "e3e7"],
    );
    // Black to move: pick up the cannon on h8 to show where it may go.
    ui.global::<PlayAdapter>().invoke_cell_clicked(sq("h8"));
    snapshot_named(&app, &name("play"));
    ui.global::<PlayAdapter>().invoke_cell_clicked(sq("h8"));
    ui.global::<Nav>().invoke_back();
    snapshot_named(&app, &name("home"));

    ui.global::<HomeAdapter>().invoke_history();
    snapshot_named(&app, &name("history"));
    ui.global::<Nav>().invoke_back();
    ui.global::<HomeAdapter>().invoke_settings();
    snapshot_named(&app, &name("settings"));
    ui.global::<Nav>().invoke_back();
    ui.global::<HomeAdapter>().invoke_about();
    snapshot_named(&app, &name("about"));
    drop(app);

    // A damaged database: the failure screen.
    let broken = tempfile::tempdir().expect("a temporary directory");
    std::fs::write(broken.path().join("qiguan.sqlite"), vec![7u8; 4096]).expect("written");
    let app = start(broken.path(), language, size);
    assert_eq!(app.window().global::<Nav>().get_screen(), Screen::Failure);
    snapshot_named(&app, &name("failure"));
}

fn snapshot_named(app: &qiguan_app::App, path: &Path) {
    snapshot(app, path);
    println!("{}", path.display());
}

fn main() {
    let out = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/screenshots"));
    std::fs::create_dir_all(&out).expect("the output directory");
    shoot(&out, (360, 780), "phone", Language::Chinese);
    shoot(&out, (1280, 800), "desktop", Language::Chinese);
    shoot(&out, (360, 780), "phone-en", Language::English);
    shoot(&out, (1280, 800), "desktop-en", Language::English);
}
