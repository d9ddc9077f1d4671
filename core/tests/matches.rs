//! The shared match layer: turns, resignation, draw offers, records and views.

use qiguan_core::xiangqi::{Xiangqi, XiangqiOptions, XiangqiSetup};
use qiguan_core::{
    Action, Actor, AnyMatch, EndReason, GameKind, GameResult, Match, MatchEvent, Outcome,
    RECORD_FORMAT, Record, RecordError, Seat, ToAct, Viewer,
};
use serde_json::json;

const RED: Actor = Actor::Seat(Seat::FIRST);
const BLACK: Actor = Actor::Seat(Seat::SECOND);

fn new_game() -> Match<Xiangqi> {
    Match::new(&XiangqiOptions::default(), None).expect("standard start")
}

#[test]
fn refused_actions_have_stable_codes_and_change_nothing() {
    let mut game = new_game();
    let before = game.record();
    let code = |r: Result<_, qiguan_core::ActionError>| {
        r.map(|_| ()).expect_err("should be refused").code()
    };
    assert_eq!(code(game.apply_text(BLACK, "h10g8")), "not-your-turn");
    assert_eq!(code(game.apply_text(RED, "h3h9")), "cannot-reach");
    assert_eq!(code(game.apply_text(RED, "e5e6")), "no-piece");
    assert_eq!(code(game.apply_text(RED, "h10g8")), "not-your-piece");
    assert_eq!(code(game.apply_text(RED, "zz")), "unreadable-action");
    assert_eq!(
        code(game.apply_text(Actor::Authority, "h3e3")),
        "not-your-turn"
    );
    assert_eq!(
        code(game.apply_text(Actor::Authority, "resign")),
        "not-a-seat"
    );
    assert_eq!(
        code(game.apply_text(Actor::Seat(Seat::new(2).expect("seat")), "resign")),
        "no-such-seat"
    );
    assert_eq!(code(game.apply_text(BLACK, "accept-draw")), "no-draw-offer");
    assert_eq!(game.record(), before);
}

#[test]
fn a_move_that_exposes_the_general_is_self_check() {
    // Red's chariot on e2 shields its general from Black's chariot on e9.
    let setup = XiangqiSetup {
        fen: "3k5/4r4/9/9/9/9/9/9/4R4/4K4 w - - 0 1".into(),
    };
    let mut game: Match<Xiangqi> =
        Match::new(&XiangqiOptions::default(), Some(&setup)).expect("valid");
    let err = game
        .apply_text(RED, "e2d2")
        .map(|_| ())
        .expect_err("should be refused");
    assert_eq!(err.code(), "self-check");
}

#[test]
fn resignation_ends_the_game_for_the_other_seat() {
    let mut game = new_game();
    let told = game
        .apply_text(BLACK, "resign")
        .expect("anyone may resign at any time");
    assert!(
        told.iter()
            .any(|t| matches!(t.event, MatchEvent::Resigned { seat } if seat == Seat::SECOND))
    );
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Seat::FIRST, EndReason::Resignation))
    );
    assert_eq!(
        game.apply_text(RED, "h3e3")
            .map(|_| ())
            .expect_err("should be refused")
            .code(),
        "game-over"
    );
    assert!(game.legal_actions(RED).is_empty());
}

#[test]
fn a_draw_offer_can_be_accepted() {
    let mut game = new_game();
    game.apply_text(RED, "offer-draw").expect("offer");
    assert!(game.legal_actions(BLACK).contains(&Action::AcceptDraw));
    assert!(!game.legal_actions(RED).contains(&Action::OfferDraw));
    game.apply_text(BLACK, "accept-draw").expect("accept");
    let outcome = game.outcome().expect("over");
    assert_eq!(outcome.result, GameResult::Draw);
    assert_eq!(outcome.reason, EndReason::DrawAgreed);
}

#[test]
fn a_draw_offer_can_be_declined_and_is_not_repeated_before_moving() {
    let mut game = new_game();
    game.apply_text(RED, "offer-draw").expect("offer");
    game.apply_text(BLACK, "decline-draw").expect("decline");
    assert!(game.draw_offer().is_none());
    let err = game
        .apply_text(RED, "offer-draw")
        .map(|_| ())
        .expect_err("should be refused");
    assert_eq!(err.code(), "draw-already-offered");
    game.apply_text(RED, "h3e3").expect("move");
    game.apply_text(RED, "offer-draw")
        .expect("a new offer after moving");
    game.apply_text(BLACK, "decline-draw").expect("decline");
    // The opponent's move does not count: only the offerer's own.
    game.apply_text(BLACK, "h10g8").expect("move");
    game.apply_text(RED, "offer-draw")
        .map(|_| ())
        .expect_err("red has not moved since its declined offer");
}

#[test]
fn moving_on_declines_the_opponents_offer_but_not_ones_own() {
    let mut game = new_game();
    game.apply_text(RED, "offer-draw").expect("offer");
    game.apply_text(RED, "h3e3")
        .expect("the offerer may move with the offer standing");
    assert!(game.draw_offer().is_some());
    game.apply_text(BLACK, "h10g8").expect("move");
    assert!(game.draw_offer().is_none());
}

#[test]
fn the_view_carries_version_turn_and_position() {
    let mut game = new_game();
    game.apply_text(RED, "h3e3").expect("move");
    let view = serde_json::to_value(game.view(Viewer::Seat(Seat::SECOND))).expect("json");
    assert_eq!(view["version"], 1);
    assert_eq!(view["to_act"], json!({"kind": "seat", "who": 1}));
    assert_eq!(view["game"]["moves"], json!(["h3e3"]));
    assert_eq!(
        view["game"]["fen"],
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"
    );
}

#[test]
fn records_are_versioned_json() {
    let mut game = new_game();
    game.apply_text(RED, "h3e3").expect("move");
    game.apply_text(BLACK, "offer-draw").expect("offer");
    let value: serde_json::Value = serde_json::from_str(&game.record().to_json()).expect("json");
    assert_eq!(value["format"], RECORD_FORMAT);
    assert_eq!(value["game"], "xiangqi");
    assert_eq!(
        value["options"],
        json!({"perpetual_chase_loses": true, "move_limit": null})
    );
    assert_eq!(
        value["actions"],
        json!([{"by": {"seat": 0}, "action": "h3e3"}, {"by": {"seat": 1}, "action": "offer-draw"}])
    );
}

#[test]
fn bad_records_are_refused_with_a_clear_error() {
    let mut newer = new_game().record();
    newer.format = RECORD_FORMAT + 1;
    assert_eq!(
        Record::from_json(&newer.to_json()),
        Err(RecordError::UnsupportedFormat(RECORD_FORMAT + 1))
    );
    assert!(matches!(
        Record::from_json("{"),
        Err(RecordError::Malformed(_))
    ));
    let mut illegal = new_game().record();
    illegal.actions.push(qiguan_core::RecordEntry {
        by: RED,
        action: "h3h9".into(),
    });
    let err = Match::<Xiangqi>::from_record(&illegal).expect_err("should be refused");
    assert!(
        matches!(err, RecordError::BadAction { index: 0, .. }),
        "{err}"
    );
    let mut bad_fen = new_game().record();
    bad_fen.setup = json!({"fen": "9/9 w"});
    assert!(matches!(
        Match::<Xiangqi>::from_record(&bad_fen),
        Err(RecordError::BadStart(_))
    ));
}

#[test]
fn any_match_starts_from_json_and_plays_text() {
    let mut game = AnyMatch::new(
        GameKind::Xiangqi,
        &json!({"move_limit": 120}),
        &serde_json::Value::Null,
    )
    .expect("start");
    assert_eq!(game.kind(), GameKind::Xiangqi);
    assert!(game.legal_actions(RED).contains(&"h3e3".to_string()));
    assert!(game.legal_actions(RED).contains(&"resign".to_string()));
    // Out of turn, a seat may still resign or offer a draw, but not move.
    assert_eq!(game.legal_actions(BLACK), ["resign", "offer-draw"]);
    game.apply_text(RED, "h3e3").expect("move");
    assert_eq!(game.version(), 1);
    assert_eq!(game.to_act(), ToAct::Seat(Seat::SECOND));
    let bad = AnyMatch::new(GameKind::Xiangqi, &json!({"move_limit": "x"}), &json!(null));
    assert!(bad.is_err());
    let zero = AnyMatch::new(GameKind::Xiangqi, &json!({"move_limit": 0}), &json!(null));
    assert!(zero.is_err());
}

#[test]
fn a_game_that_starts_over_says_so() {
    let setup = XiangqiSetup {
        fen: "3k5/9/9/9/9/9/9/9/9/3AK4 w - - 0 1".into(),
    };
    let game: Match<Xiangqi> = Match::new(&XiangqiOptions::default(), Some(&setup)).expect("valid");
    assert_eq!(game.outcome(), Some(Outcome::draw(EndReason::NoAttackers)));
}

#[test]
fn a_timeout_is_claimed_against_the_seat_to_act_and_replays() {
    let mut game: Match<Xiangqi> = Match::new(&XiangqiOptions::default(), None).unwrap();
    let red = Actor::Seat(Seat::FIRST);
    let black = Actor::Seat(Seat::SECOND);
    game.apply_text(red, "h3e3").unwrap();
    // Black is to act: Black cannot claim against itself; the authority is no seat.
    assert_eq!(
        game.apply_text(black, "claim-timeout").unwrap_err().code(),
        "nothing-to-claim"
    );
    assert_eq!(
        game.apply_text(Actor::Authority, "claim-timeout")
            .unwrap_err()
            .code(),
        "not-a-seat"
    );
    game.apply_text(red, "claim-timeout").unwrap();
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.reason, EndReason::Timeout);
    assert_eq!(outcome.winners(), [Seat::FIRST]);
    let replayed: Match<Xiangqi> = Match::from_record(&game.record()).unwrap();
    assert_eq!(replayed.outcome(), game.outcome());
    assert!(
        !game.legal_actions(red).contains(&Action::ClaimTimeout),
        "core keeps no clock"
    );
}

#[test]
fn actors_have_a_compact_text_form_for_stores() {
    for actor in [RED, BLACK, Actor::Authority] {
        assert_eq!(actor.to_string().parse::<Actor>(), Ok(actor));
    }
    assert_eq!(RED.to_string(), "0");
    assert_eq!(Actor::Authority.to_string(), "authority");
    assert!("9".parse::<Actor>().is_err());
    assert!("red".parse::<Actor>().is_err());
}
