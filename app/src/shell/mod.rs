//! What every part shares: the context ([`ctx::Ctx`]: the window, the store, the sync worker,
//! each game screen's session slot), background work and its replies on the UI thread, the
//! binding helpers, the player's settings, sounds, notifications and randomness. Nothing here
//! names a game or a screen.

pub mod bind;
pub mod ctx;
pub mod format;
pub mod history_model;
pub mod notify;
pub mod random;
pub mod settings;
pub mod sound;
pub mod thinking;
