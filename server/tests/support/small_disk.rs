//! A small disk of a test's own, for full-disk fault tests: a tmpfs mounted on a temporary
//! directory (unmounted when dropped), and a file that fills it. Shared by the server's and the
//! app's tests.

#![allow(dead_code)] // each test crate that includes this uses its own part

use std::process::{Command, Stdio};

/// A small disk (an 8 MB tmpfs); `None` where this process may not mount one (not root): a
/// full-disk test then says so and checks nothing.
pub struct SmallDisk(tempfile::TempDir);

impl SmallDisk {
    pub fn new() -> Option<SmallDisk> {
        let dir = tempfile::tempdir().ok()?;
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=8m", "tmpfs"])
            .arg(dir.path())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        mounted.then_some(SmallDisk(dir))
    }

    /// Where the disk is mounted.
    pub fn path(&self) -> &std::path::Path {
        self.0.path()
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(self.0.path()).status();
    }
}

/// Fills the disk that holds `path` with a file there: written until the disk refuses more.
pub fn fill_disk(path: &std::path::Path) {
    use std::io::Write;
    let mut file = std::fs::File::create(path).expect("the filler file");
    for chunk in [65536, 4096, 512, 1] {
        let bytes = vec![0u8; chunk];
        while file.write_all(&bytes).is_ok() {}
    }
    let _ = file.sync_all();
}
