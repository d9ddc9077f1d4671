//! Qiguan, the program: wires the Slint UI to the rules core and keeps the local history.
//!
//! [`init`] builds the window and returns the [`App`], so that tests can drive it with Slint's
//! testing backend; [`run`] is what the `qiguan` binary calls.

mod app;
mod games;
pub mod library;
mod play;
mod screens;
mod shell;
pub mod store;
pub mod sync;

pub use app::{App, AppOptions, default_data_dir, init, run, run_with};
pub use qiguan_ui as ui;
pub use shell::{history_model, notify, settings, sound};
pub use sync::share;
