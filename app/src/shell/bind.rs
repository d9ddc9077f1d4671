//! Binding helpers every part shares: handlers that hold the context weakly, a model kept in
//! step with new rows, and the error dialog.

use super::ctx::Ctx;
use qiguan_ui::Nav;
use slint::{ComponentHandle, Model, VecModel};
use std::rc::{Rc, Weak};

/// Makes `model` hold `rows`, touching only the rows that changed, so that the view keeps
/// its elements (and its scroll position) instead of rebuilding them.
pub(crate) fn sync<T: Clone + PartialEq + 'static>(model: &VecModel<T>, rows: Vec<T>) {
    let old = model.row_count();
    for (i, row) in rows.iter().enumerate() {
        if i < old {
            if model.row_data(i).as_ref() != Some(row) {
                model.set_row_data(i, row.clone());
            }
        } else {
            model.push(row.clone());
        }
    }
    for i in (rows.len()..old).rev() {
        model.remove(i);
    }
}

/// Shows a problem over the current screen.
/// Where exports go, and where the import's file list looks first: the user's download
/// folder, else a folder of the data directory.
pub(crate) fn exports_folder(ctx: &Ctx) -> std::path::PathBuf {
    directories::UserDirs::new()
        .and_then(|d| d.download_dir().map(|p| p.to_owned()))
        .filter(|p| p.is_dir())
        .unwrap_or_else(|| ctx.data_dir.join("exports"))
}

pub fn show_error(ctx: &Rc<Ctx>, text: &str) {
    let mut code = error_code(text);
    // SQLite says only "disk I/O error" when a write is refused; a data folder that takes no
    // new file is one the player can mend (allow writing there), so it is named as such.
    if code == "storage-io" && !crate::store::takes_files(&ctx.data_dir) {
        code = "storage-read-only";
    }
    ctx.ui().global::<Nav>().set_error(code.into());
}

/// What the error dialog shows for a failure's text: a storage failure the player can do
/// something about (a full disk, a data folder that cannot be written) as its code, which the
/// dialog says in the player's language; anything else as it is.
fn error_code(text: &str) -> &str {
    let lower = text.to_lowercase();
    if lower.contains("disk is full") || lower.contains("no space left") {
        "storage-full"
    } else if lower.contains("readonly database") || lower.contains("read-only file system") {
        "storage-read-only"
    } else if lower.contains("disk i/o error") {
        "storage-io"
    } else {
        text
    }
}

/// Wraps a handler so that it holds the context weakly (the window owns the handlers, the
/// context points back at the window). `handler0` for callbacks without arguments,
/// `handler` for one, `handler2` for two.
pub(crate) fn handler0(ctx: &Rc<Ctx>, f: impl Fn(&Rc<Ctx>) + 'static) -> impl Fn() + 'static {
    let weak: Weak<Ctx> = Rc::downgrade(ctx);
    move || {
        if let Some(ctx) = weak.upgrade() {
            f(&ctx);
        }
    }
}

pub(crate) fn handler<A>(ctx: &Rc<Ctx>, f: impl Fn(&Rc<Ctx>, A) + 'static) -> impl Fn(A) + 'static {
    let weak: Weak<Ctx> = Rc::downgrade(ctx);
    move |arg| {
        if let Some(ctx) = weak.upgrade() {
            f(&ctx, arg);
        }
    }
}

pub(crate) fn handler2<A, B>(
    ctx: &Rc<Ctx>,
    f: impl Fn(&Rc<Ctx>, A, B) + 'static,
) -> impl Fn(A, B) + 'static {
    let weak: Weak<Ctx> = Rc::downgrade(ctx);
    move |a, b| {
        if let Some(ctx) = weak.upgrade() {
            f(&ctx, a, b);
        }
    }
}

#[cfg(test)]
mod error_tests {
    use super::error_code;

    #[test]
    fn storage_failures_a_player_can_mend_become_codes() {
        for (text, code) in [
            ("database error: database or disk is full", "storage-full"),
            ("I/O: No space left on device (os error 28)", "storage-full"),
            (
                "database error: attempt to write a readonly database",
                "storage-read-only",
            ),
            ("database error: disk I/O error", "storage-io"),
            ("the game could not be found", "the game could not be found"),
        ] {
            assert_eq!(error_code(text), code, "{text}");
        }
    }
}
