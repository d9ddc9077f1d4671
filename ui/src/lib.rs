//! Qiguan's user interface: the generated Slint components and adapter globals.
//!
//! This crate holds no game logic; `qiguan-app` feeds the adapters from `qiguan-core`.

#![allow(missing_docs, missing_debug_implementations, unused_qualifications)]
slint::include_modules!();
