//! Killing the app with SIGKILL in mid-game loses no move that was shown as made.
//!
//! The test re-runs this test binary as a child that plays through the real app code (the
//! testing backend stands in for the window system) and prints a line after each move is on
//! the screen. The parent kills it with SIGKILL right after the last line, then starts the
//! app again on the same data directory and checks every move is back.

mod common;

use common::{all, click, one, point, press, start};
use qiguan_app::settings::Language;
use qiguan_app::ui::{Nav, Screen};
use slint::ComponentHandle;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

const MOVES: [(&str, &str); 6] = [
    ("h3", "e3"),
    ("h10", "g8"),
    ("h1", "g3"),
    ("i10", "h10"),
    ("i1", "h1"),
    ("b10", "c8"),
];
const CHILD_DIR: &str = "QIGUAN_CRASH_CHILD_DIR";

/// The child: plays the moves, reporting each, then waits to be killed.
#[test]
#[ignore = "run by sigkill_mid_game_loses_no_move as a child process"]
fn child_plays_then_waits() {
    let Some(dir) = std::env::var_os(CHILD_DIR) else {
        return;
    };
    let app = start(std::path::Path::new(&dir), Language::English, (360, 780));
    press(&app, "New Xiangqi game");
    press(&app, "Start game");
    for (n, (from, to)) in MOVES.iter().enumerate() {
        click(&app, from);
        click(&app, to);
        assert!(!point(&app, to).is_empty(), "the move is on the board");
        println!("shown {}", n + 1);
    }
    loop {
        std::thread::sleep(std::time::Duration::from_secs(60));
    }
}

#[test]
fn sigkill_mid_game_loses_no_move() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            "--ignored",
            "--exact",
            "child_plays_then_waits",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD_DIR, dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let mut shown = 0;
    for line in BufReader::new(stdout).lines() {
        let line = line.unwrap();
        if let Some(n) = line.strip_prefix("shown ") {
            shown = n.trim().parse().unwrap();
            if shown == MOVES.len() {
                break;
            }
        }
    }
    assert_eq!(shown, MOVES.len(), "the child played every move");
    // std's kill() is SIGKILL on Unix: no destructor, no flush, no clean close.
    child.kill().unwrap();
    let status = child.wait().unwrap();
    assert!(!status.success());

    let app = start(dir.path(), Language::English, (360, 780));
    assert_eq!(app.window().global::<Nav>().get_screen(), Screen::Home);
    press(&app, "Continue game 1");
    assert_eq!(app.window().global::<Nav>().get_screen(), Screen::Xiangqi);
    // In WXF (an English player's notation): Red's H2+3 and Black's are two entries.
    for (text, count) in [
        ("C2=5", 1),
        ("H8+7", 1),
        ("H2+3", 2),
        ("R9=8", 1),
        ("R1=2", 1),
    ] {
        assert_eq!(all(&app, text).len(), count, "{text} is in the move list");
    }
    for empty in ["h3", "i10", "i1", "b10"] {
        assert!(point(&app, empty).is_empty(), "{empty} was left");
    }
    assert!(point(&app, "e3").contains("red 炮"));
    assert!(point(&app, "h10").contains("black 车"));
    assert!(point(&app, "c8").contains("black 马"));
    assert!(one(&app, "Red · to move").is_valid());
}
