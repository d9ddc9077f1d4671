//! Qiguan's rules core: the games, their records and what each seat may see. No I/O.
//!
//! # The model
//!
//! Every game implements [`Rules`]. A `Rules` value is the *authoritative* state: it
//! knows every hidden piece and is never serialized. Around it, [`Match`] adds what all
//! games share — resignation, draw offers, the record — and is what the app and the server
//! hold. [`AnyMatch`] wraps a match of any game behind text and JSON.
//!
//! - **Seats.** 2 to 4 [`Seat`]s, numbered in turn order; [`BySeat`] holds one value each.
//! - **Whose turn.** [`ToAct`] is one seat, several seats at once (Junqi's secret
//!   deployment), chance (the [`Actor::Authority`] must roll or deal by playing one of *its*
//!   legal moves, so dice are recorded like any move), or over with an [`Outcome`] (winners,
//!   a draw or finishing places, and an [`EndReason`]).
//! - **Actions.** [`Action`] is a game move or one of `resign`, `offer-draw`,
//!   `accept-draw`, `decline-draw`. Each has a stable text form, which is also its serde
//!   form. [`Match::legal_actions`] lists them; [`Match::apply`] returns what each
//!   [`Audience`] learns, or an [`ActionError`] with a stable [`code`](ActionError::code).
//! - **Views.** [`Match::view`] gives what one [`Viewer`] may know. Only views (and events
//!   filtered by audience) leave the authority.
//! - **Records.** [`Record`] holds game, options, setup and every action in order, with a
//!   format version; [`Match::from_record`] replays it to the same state.
//!
//! # A worked example
//!
//! ```
//! use qiguan_core::{Action, Actor, AnyMatch, EndReason, Match, Record, Seat, ToAct, Viewer};
//! use qiguan_core::xiangqi::{Xiangqi, XiangqiOptions};
//!
//! // Red opens with the central cannon, 炮二平五 (h3e3 in coordinates).
//! let mut game: Match<Xiangqi> = Match::new(&XiangqiOptions::default(), None).unwrap();
//! let red = Actor::Seat(Seat::FIRST);
//! let black = Actor::Seat(Seat::SECOND);
//! game.apply(red, &Action::Play("h3e3".parse().unwrap())).unwrap();
//!
//! // It is Black's turn now; Red acting again is refused and changes nothing.
//! assert_eq!(game.to_act(), ToAct::Seat(Seat::SECOND));
//! let refused = game.apply(red, &Action::Play("e4e5".parse().unwrap()));
//! assert_eq!(refused.unwrap_err().code(), "not-your-turn");
//!
//! // Black answers 马8进7 and offers a draw; Red declines by moving on.
//! game.apply_text(black, "h10g8").unwrap();
//! game.apply_text(black, "offer-draw").unwrap();
//! game.apply_text(red, "h1g3").unwrap();
//! assert!(game.draw_offer().is_none());
//!
//! // What a seat sees is a view, never the state itself.
//! let view = game.view(Viewer::Seat(Seat::FIRST));
//! assert_eq!(view.version, 4);
//! assert_eq!(view.game.moves, ["h3e3", "h10g8", "h1g3"]);
//!
//! // Black resigns; the record replays to the same game, through JSON.
//! game.apply_text(black, "resign").unwrap();
//! assert_eq!(game.outcome().unwrap().reason, EndReason::Resignation);
//! let json = game.record().to_json();
//! let replayed = AnyMatch::from_record(&Record::from_json(&json).unwrap()).unwrap();
//! assert_eq!(replayed.record(), game.record());
//! assert_eq!(replayed.to_act(), game.to_act());
//! ```
#![deny(missing_docs)]

pub mod action;
pub mod aeroplane;
pub mod any;
pub mod deploy;
pub mod fair;
pub mod game;
pub mod graph;
pub mod junqi;
pub mod kinds;
pub mod matches;
pub mod phrase;
pub mod pimc;
pub mod record;
pub(crate) mod rng;
pub mod sealandair;
pub mod seat;
pub mod share;
mod svg;
pub mod xiangqi;

pub use action::Action;
pub use any::AnyMatch;
pub use game::{
    Actor, Audience, Computer, EndReason, GameKind, GameResult, IllegalMove, Outcome, Rules,
    SetupError, ToAct, Told, Viewer,
};
pub use matches::{
    ActionError, DrawOffer, Match, MatchEvent, MatchView, seeded_pick, uniform_index,
};
pub use record::{RECORD_FORMAT, Record, RecordEntry, RecordError};
pub use seat::{BySeat, MAX_SEATS, Seat, Strength};
