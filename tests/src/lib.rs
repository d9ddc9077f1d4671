//! Helpers for the end-to-end tests: start the real `qiguan-server` binary on 127.0.0.1 with a
//! temporary database, and kill it.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

pub mod browser;

#[path = "../../server/tests/support/testdb.rs"]
mod testdb;
use std::process::{Child, Command, Stdio};
pub use testdb::{TestDb, admin, postgres_wanted};

/// Returns the path of the `qiguan-server` binary that cargo built beside these tests.
pub fn server_binary() -> PathBuf {
    // Test binaries live in target/<profile>/deps; the server binary in target/<profile>.
    let exe = std::env::current_exe().expect("the test binary's path");
    let dir = exe
        .parent()
        .and_then(Path::parent)
        .expect("target/<profile>");
    let bin = dir.join(format!("qiguan-server{}", std::env::consts::EXE_SUFFIX));
    assert!(
        bin.exists(),
        "{} is missing: run `cargo build -p qiguan-server` (cargo test --workspace builds it)",
        bin.display()
    );
    bin
}

/// A running server process.
#[derive(Debug)]
pub struct Server {
    child: Child,
    /// Where it listens.
    pub addr: SocketAddr,
    /// Its base URL.
    pub url: String,
}

impl Server {
    /// Starts the server on `listen` (port 0 for a free one) over the store `db` (what `--db`
    /// takes: a SQLite file or a PostgreSQL URL; see [`TestDb`]).
    pub fn start(db: &str, listen: &str) -> Server {
        let mut child = Command::new(server_binary())
            .args(["--listen", listen, "--db"])
            .arg(db)
            .args(["--ip-rate", "0", "--token-rate", "0"])
            .stdout(Stdio::piped())
            .spawn()
            .expect("the server starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("the server says where it listens");
        let addr: SocketAddr = line
            .trim()
            .strip_prefix("listening on ")
            .and_then(|a| a.parse().ok())
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"));
        Server {
            child,
            addr,
            url: format!("http://{addr}"),
        }
    }

    /// Kills the server with SIGKILL: no shutdown, no flush.
    pub fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Where the end-to-end tests leave what is looked at after them (the share pages' HTML for
/// the validator in `scripts/test`, their screenshots): `target/<profile>/share-pages`.
pub fn artefacts() -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    let dir = exe
        .parent()
        .and_then(Path::parent)
        .expect("target/<profile>")
        .join("share-pages");
    std::fs::create_dir_all(&dir).expect("the artefacts folder");
    dir
}
