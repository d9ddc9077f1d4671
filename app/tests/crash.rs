//! Killing the app with SIGKILL in mid-game loses no move that was shown as made.
//!
//! The test re-runs this test binary as a child that plays through the real app code (the
//! testing backend stands in for the window system) and prints a line after each move is on
//! the screen. The parent kills it with SIGKILL right after the last line, then starts the
//! app again on the same data directory and checks every move is back.
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;
#[path = "../../server/tests/support/small_disk.rs"]
mod small_disk;

use common::{all, click, one, point, press, start};
use qiguan_app::settings::Language;
use qiguan_app::ui::{Nav, Screen};
use slint::ComponentHandle;
use small_disk::{SmallDisk, fill_disk};
use std::io::{BufRead, BufReader};
use std::path::Path;
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
    let app = start(Path::new(&dir), Language::English, (360, 780));
    press(&app, "New Xiangqi game");
    press(&app, "Start game");
    for (n, (from, to)) in MOVES.iter().enumerate() {
        click(&app, from);
        click(&app, to);
        assert!(!point(&app, to).is_empty(), "the move is on the board");
        println!("shown {}", n + 1);
    }
    // Nothing more to do but be killed.
    loop {
        std::thread::park();
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

const FULL_DIR: &str = "QIGUAN_FULL_DISK_CHILD_DIR";
const FILLER: &str = "QIGUAN_FULL_DISK_FILLER";

/// Every point's description: pieces, marks and all.
fn board(app: &qiguan_app::App) -> Vec<String> {
    (0..90)
        .map(|i| {
            point(
                app,
                &format!("{}{}", (b'a' + (i % 9) as u8) as char, i / 9 + 1),
            )
        })
        .collect()
}

/// The child of a storage fault test: plays two moves, then `fault` happens to its storage;
/// the third move is refused (reported) with `message`, the board unchanged; `mend` gives the
/// storage back and the same move goes through; then it waits to be killed.
fn play_through_a_fault(dir: &Path, fault: impl FnOnce(), message: &str, mend: impl FnOnce()) {
    let app = start(dir, Language::English, (360, 780));
    press(&app, "New Xiangqi game");
    press(&app, "Start game");
    for (n, (from, to)) in MOVES.iter().take(2).enumerate() {
        click(&app, from);
        click(&app, to);
        println!("\nshown {}", n + 1);
    }
    fault();
    let before = board(&app);
    let (from, to) = MOVES[2];
    click(&app, from);
    click(&app, to);
    let error = app.window().global::<Nav>().get_error();
    println!("\nrefused {error}");
    assert!(one(&app, message).is_valid(), "the message shown");
    press(&app, "OK");
    // The board as it was, but for the piece still picked up.
    click(&app, from);
    assert_eq!(board(&app), before, "the board is as it was");
    println!("\nunchanged");

    mend();
    click(&app, from);
    click(&app, to);
    assert!(
        point(&app, to).contains("red 马"),
        "the move is on the board"
    );
    println!("\nshown 3");
    // Nothing more to do but be killed.
    loop {
        std::thread::park();
    }
}

/// Runs the child test `name` with `envs`, and returns what it said up to its third move.
fn fault_child(name: &str, envs: &[(&str, &Path)]) -> Vec<String> {
    let mut child = Command::new(std::env::current_exe().unwrap());
    child
        .args([
            "--ignored",
            "--exact",
            name,
            "--nocapture",
            "--test-threads=1",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    for (key, value) in envs {
        child.env(key, value);
    }
    let mut child = child.spawn().unwrap();
    let stdout = child.stdout.take().unwrap();
    let mut said = Vec::new();
    for line in BufReader::new(stdout).lines() {
        let line = line.unwrap();
        if line.starts_with("shown") || line.starts_with("refused") || line == "unchanged" {
            said.push(line.clone());
        }
        if line == "shown 3" {
            break;
        }
    }
    child.kill().unwrap();
    child.wait().unwrap();
    said
}

/// The child: its disk fills up after two moves (see `play_through_a_fault`).
#[test]
#[ignore = "run by a_full_disk_refuses_a_move_and_loses_nothing as a child process"]
fn child_plays_onto_a_full_disk() {
    let (Some(dir), Some(filler)) = (std::env::var_os(FULL_DIR), std::env::var_os(FILLER)) else {
        return;
    };
    let filler = std::path::PathBuf::from(filler);
    play_through_a_fault(
        Path::new(&dir),
        || fill_disk(&filler),
        "Qiguan could not save this: the device's storage is full. Nothing was lost; free some \
         space and try again.",
        || std::fs::remove_file(&filler).unwrap(),
    );
}

/// The app's disk fills up while a move is made (a tmpfs of its own, filled by a file): the
/// move is refused with a message the player can act on, nothing is lost, the board is as it
/// was; with room again the same move is made, and after a SIGKILL every move shown is back.
#[test]
fn a_full_disk_refuses_a_move_and_loses_nothing() {
    let Some(disk) = SmallDisk::new() else {
        eprintln!(
            "a_full_disk_refuses_a_move_and_loses_nothing: not run: cannot mount a tmpfs (needs root)"
        );
        return;
    };
    let dir = disk.path().join("data");
    let said = fault_child(
        "child_plays_onto_a_full_disk",
        &[(FULL_DIR, &dir), (FILLER, &disk.path().join("filler"))],
    );
    assert_eq!(
        said,
        [
            "shown 1",
            "shown 2",
            "refused storage-full",
            "unchanged",
            "shown 3"
        ]
    );
    assert_eq!(
        common::stored_actions(&dir),
        ["h3e3", "h10g8", "h1g3"],
        "every move shown, the refused one once"
    );
}

const LOCKED_DIR: &str = "QIGUAN_LOCKED_FOLDER_CHILD_DIR";

/// Sets or clears the immutable attribute (`chattr +i`/`-i`) of `paths`: on ext4 a file so
/// marked refuses every write, even through a descriptor opened before, and a folder so
/// marked refuses new files, whoever the process is (root included).
fn immutable(on: bool, paths: &[std::path::PathBuf]) -> bool {
    Command::new("chattr")
        .arg(if on { "+i" } else { "-i" })
        .args(paths.iter().filter(|p| p.exists()))
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// The data folder's files: the folder, the database and its write-ahead log. Not the WAL's
/// index (`-shm`): SQLite maps it into memory, where a refused write is a SIGBUS rather than
/// an error (and it is no data of the player's).
fn data_files(dir: &Path) -> Vec<std::path::PathBuf> {
    let db = dir.join("qiguan.sqlite");
    let mut wal = db.clone().into_os_string();
    wal.push("-wal");
    vec![dir.to_owned(), db, std::path::PathBuf::from(wal)]
}

/// Whether marking a file immutable here stops a write through a descriptor already open
/// (ext4 does; tmpfs and some overlay file systems do not), and this process may mark it.
fn immutable_stops_writes(dir: &Path) -> bool {
    use std::io::Write;
    let probe = dir.join("probe");
    std::fs::write(&probe, b"x").unwrap();
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&probe)
        .unwrap();
    let marked = immutable(true, std::slice::from_ref(&probe));
    let refused = marked && file.write_all(b"y").is_err();
    immutable(false, std::slice::from_ref(&probe));
    std::fs::remove_file(&probe).unwrap();
    refused
}

/// The child: its data folder stops taking writes after two moves (see
/// `play_through_a_fault`).
#[test]
#[ignore = "run by a_data_folder_that_refuses_writes_refuses_a_move_and_loses_nothing as a child process"]
fn child_plays_into_a_locked_folder() {
    let Some(dir) = std::env::var_os(LOCKED_DIR) else {
        return;
    };
    let dir = Path::new(&dir);
    play_through_a_fault(
        dir,
        || assert!(immutable(true, &data_files(dir)), "the folder locked"),
        "Qiguan could not save this: its data folder cannot be written to. Nothing was lost; \
         allow writing there and try again.",
        || assert!(immutable(false, &data_files(dir)), "the folder unlocked"),
    );
}

/// Clears the immutable marks however the test ends, so that the folder can be removed.
struct Unlock(std::path::PathBuf);

impl Drop for Unlock {
    fn drop(&mut self) {
        immutable(false, &data_files(&self.0));
    }
}

/// The app's data folder stops taking writes while a move is made (its files and the folder
/// marked immutable, which refuses writes even through the files the app holds open): the move
/// is refused with the message for a folder that cannot be written to, nothing is lost, the
/// board is as it was; once writes are allowed again the same move is made, and after a
/// SIGKILL every move shown is back.
#[test]
fn a_data_folder_that_refuses_writes_refuses_a_move_and_loses_nothing() {
    let root = tempfile::tempdir().unwrap();
    if !immutable_stops_writes(root.path()) {
        eprintln!(
            "a_data_folder_that_refuses_writes_refuses_a_move_and_loses_nothing: not run: \
             this file system (or this user) cannot make a file refuse writes (chattr +i)"
        );
        return;
    }
    let dir = root.path().join("data");
    let _unlock = Unlock(dir.clone());
    let said = fault_child("child_plays_into_a_locked_folder", &[(LOCKED_DIR, &dir)]);
    assert_eq!(
        said,
        [
            "shown 1",
            "shown 2",
            "refused storage-read-only",
            "unchanged",
            "shown 3"
        ]
    );
    assert_eq!(
        common::stored_actions(&dir),
        ["h3e3", "h10g8", "h1g3"],
        "every move shown, the refused one once"
    );
}
