//! Links the app's program with packed relative relocations (RELR) where that is safe.
//!
//! The program is position-independent, so every pointer stored in its read-only data needs a
//! relocation at start-up: about 50,000 of them (the UI's tables, vtables, strings), 1.2 MB of
//! the binary as 24-byte RELA entries. Packed, they take 14 KB (issue 18; README, "Binary size").
//! glibc loads packed relocations from version 2.36 on (Debian 12, Ubuntu 24.04) and refuses to
//! start a program that has them on older versions, so this is done only when the program is
//! built for the machine that builds it and that machine's glibc is recent enough; a program
//! built elsewhere or for another system is linked as before.

use std::env;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let var = |name: &str| env::var(name).unwrap_or_default();
    let native = var("TARGET") == var("HOST");
    let linux_gnu = var("CARGO_CFG_TARGET_OS") == "linux" && var("CARGO_CFG_TARGET_ENV") == "gnu";
    if native && linux_gnu && glibc().is_some_and(|version| version >= (2, 36)) {
        println!("cargo:rustc-link-arg-bin=qiguan=-Wl,-z,pack-relative-relocs");
    }
}

/// The build machine's glibc version, as `getconf GNU_LIBC_VERSION` gives it ("glibc 2.36").
fn glibc() -> Option<(u32, u32)> {
    let out = Command::new("getconf")
        .arg("GNU_LIBC_VERSION")
        .output()
        .ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    let (major, minor) = text.trim().strip_prefix("glibc ")?.split_once('.')?;
    let minor = minor.split('.').next()?;
    Some((major.parse().ok()?, minor.parse().ok()?))
}
