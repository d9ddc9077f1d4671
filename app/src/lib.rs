//! Qiguan, the program: wires the Slint UI to the rules core and keeps the local history.
//!
//! [`init`] builds the window and returns the [`App`], so that tests can drive it with Slint's
//! testing backend; [`run`] is what the `qiguan` binary calls.

mod app;
mod ctx;
pub mod history_model;
pub mod library;
pub mod notify;
mod random;
pub mod rules;
mod screens;
pub mod settings;
pub mod share;
pub mod sound;
pub mod stats;
pub mod store;
pub mod sync;
mod thinking;

pub use app::{App, AppOptions, default_data_dir, init, run, run_with};
pub use qiguan_ui as ui;
