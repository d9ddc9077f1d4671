//! Qiguan, the program: wires the Slint UI to the rules core and keeps the local history.
pub mod store;
pub fn run() {}
