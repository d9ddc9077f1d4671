//! Tests of the shared session (in a file of their own: they play particular games).

use super::*;
use qiguan_core::junqi::{Junqi, JunqiOptions, Visibility};
use qiguan_core::xiangqi::{Xiangqi, XiangqiOptions};
use qiguan_core::{EndReason, GameResult};

/// A session of this game, on this device unless `remote`.
fn session<G: GameScreen>(game: Match<G>, computer: Option<Seat>) -> Session<G> {
    let mut computers = vec![None, None];
    if let Some(seat) = computer {
        computers[seat.index()] = Some(Strength::Strong);
    }
    let loaded = hidden::Loaded {
        source: Source::Local(Box::new(game)),
        players: vec!["甲".into(), String::new()],
        computers,
        remote: None,
        viewer: Seat::FIRST,
    };
    Session::new(GameId(1), loaded)
}

/// A Junqi game on this device, dealt, with the computer in `computer`.
fn junqi(visibility: Visibility, computer: Option<Seat>) -> Session<Junqi> {
    let options = JunqiOptions {
        visibility,
        ..JunqiOptions::default()
    };
    let mut game = Match::<Junqi>::new(&options, None).expect("a new game");
    game.resolve_chance(&mut |_| 0).expect("the deal");
    session(game, computer)
}

/// A Xiangqi game after `moves`, two people at the device.
fn xiangqi(moves: &[&str]) -> Session<Xiangqi> {
    let mut game = Match::<Xiangqi>::new(&XiangqiOptions::default(), None).expect("a game");
    for m in moves {
        let seat = match game.to_act() {
            ToAct::Seat(seat) => seat,
            other => panic!("{other:?}"),
        };
        let action = Action::Play(m.parse().expect("a move"));
        game.apply(Actor::Seat(seat), &action).expect("legal");
    }
    let mut s = session(game, None);
    settle_viewer(&mut s, true);
    s
}

#[test]
fn xiangqi_at_one_device_passes_the_view_and_lets_either_player_answer_a_draw() {
    let mut s = xiangqi(&["h3e3"]);
    let ui = session_ui(&s);
    assert_eq!(ui.phase, GamePhase::Play, "no hand-over: nothing is hidden");
    assert_eq!(ui.viewer, 1);
    assert_eq!(ui.seat_colours, vec![0, 2], "Red and Black");
    assert!(ui.can_undo);
    assert!(!ui.hides_pieces);
    let offer = Action::OfferDraw;
    let local = |s: &mut Session<Xiangqi>| match &mut s.source {
        Source::Local(game) => game.apply(Actor::Seat(Seat::SECOND), &offer).map(|_| ()),
        Source::Remote(_) => unreachable!(),
    };
    local(&mut s).expect("Black may offer");
    settle_viewer(&mut s, false);
    assert_eq!(s.viewer, Seat::SECOND, "Black still to move");
    assert_eq!(s.answerer(), Some(Seat::FIRST), "Red answers at the table");
    let ui = session_ui(&s);
    assert!(ui.can_answer_draw);
    assert_eq!(ui.draw_offered_by, 1);

    // Against a server, only this device's seat acts; it cannot take a move back.
    s.remote = Some(RemoteGame {
        seat: 1,
        ..remote()
    });
    assert_eq!(
        s.answerer(),
        None,
        "Black offered; Red is not at this device"
    );
    assert!(!s.can_undo());
    let ui = session_ui(&s);
    assert_eq!(ui.waiting, Waiting::Nothing, "Black to move here");
    let mut s = xiangqi(&["h3e3", "h10g8"]);
    s.remote = Some(RemoteGame {
        seat: 1,
        ..remote()
    });
    settle_viewer(&mut s, false);
    assert_eq!(s.viewer, Seat::SECOND);
    assert_eq!(session_ui(&s).waiting, Waiting::Turn, "Red to move there");
}

/// A correspondence game's link, this device in the first seat.
fn remote() -> RemoteGame {
    RemoteGame {
        game_id: GameId(1),
        server: "https://example.org".into(),
        remote_id: "g".into(),
        seat: 0,
        token: "t".into(),
        invite_code: None,
        days_per_move: 3,
        deadline: None,
        your_turn: true,
    }
}

#[test]
fn two_people_with_secrets_get_the_hand_over_screen_and_the_computer_none() {
    let mut s = junqi(Visibility::Referee, None);
    settle_viewer(&mut s, true);
    assert_eq!(session_ui(&s).phase, GamePhase::Handover);
    s.handover = false;
    let ui = session_ui(&s);
    assert_eq!(ui.phase, GamePhase::Deploy, "a layout to arrange");
    assert_eq!(ui.names, vec!["甲".to_owned(), String::new()]);
    assert_eq!(ui.computer, vec![false, false]);
    assert_eq!(ui.seat_colours, vec![0, 1]);
    assert!(!ui.online);
    assert_eq!(ui.waiting, Waiting::Nothing);

    let mut s = junqi(Visibility::Referee, Some(Seat::SECOND));
    settle_viewer(&mut s, true);
    let ui = session_ui(&s);
    assert_eq!(
        ui.phase,
        GamePhase::Deploy,
        "no hand-over against the computer"
    );
    assert_eq!(ui.computer, vec![false, true]);
}

#[test]
fn flip_mode_has_no_secrets_between_the_players_and_no_colours_yet() {
    let mut s = junqi(Visibility::Flip, None);
    settle_viewer(&mut s, true);
    let ui = session_ui(&s);
    assert_eq!(ui.phase, GamePhase::Play);
    assert_eq!(
        ui.seat_colours,
        vec![-1, -1],
        "colours come with the first flips"
    );
    assert_eq!(ui.to_move, 0);
    assert!(ui.can_resign);
    assert!(ui.can_offer_draw);
    assert!(!ui.can_answer_draw);
    assert_eq!(ui.draw_offered_by, -1);
    s.review = Some(0);
    assert_eq!(session_ui(&s).phase, GamePhase::Review);
}

#[test]
fn a_result_reaches_the_screen_as_one_typed_value() {
    assert_eq!(game_outcome(None).kind, ResultKind::Unfinished);
    let won = Outcome {
        result: GameResult::Win {
            winners: vec![Seat::SECOND],
        },
        reason: EndReason::FlagCaptured,
    };
    let shown = game_outcome(Some(&won));
    assert_eq!(shown.kind, ResultKind::Win);
    assert_eq!(shown.winner, 1);
    assert_eq!(shown.reason, "flag-captured");
    let drawn = Outcome {
        result: GameResult::Draw,
        reason: EndReason::DrawAgreed,
    };
    assert_eq!(game_outcome(Some(&drawn)).kind, ResultKind::Draw);
    let ranked = Outcome {
        result: GameResult::Ranking {
            order: vec![Seat::new(2).expect("seat"), Seat::FIRST],
        },
        reason: EndReason::AllHome,
    };
    assert_eq!(game_outcome(Some(&ranked)).winner, 2);
}

#[test]
fn the_sync_line_is_typed() {
    assert_eq!(hidden::sync_line(true, 0), SyncLine::Current);
    assert_eq!(hidden::sync_line(true, 2), SyncLine::Sending);
    assert_eq!(hidden::sync_line(false, 1), SyncLine::Offline);
    assert_eq!(hidden::sync_line(false, 0), SyncLine::OfflineIdle);
}

#[test]
fn a_finished_game_offers_no_undo() {
    let s = xiangqi(&["b3b5", "a7a6", "b5c5"]);
    assert!(s.can_undo(), "a game in play at one device may take back");
    let s = xiangqi(&["b3b5", "a7a6", "b5c5", "f10e9", "c5c10"]);
    assert!(s.outcome().is_some(), "checkmate");
    assert!(!s.can_undo(), "undo would reopen a finished game");
    assert!(!session_ui(&s).can_undo);
}

#[test]
fn the_flip_mode_board_stays_still_while_the_referee_board_turns_to_the_viewer() {
    use crate::games::junqi::north_at_bottom;
    use qiguan_core::deploy::Side;
    let mut s = junqi(Visibility::Flip, None);
    settle_viewer(&mut s, true);
    let mut north_viewed = false;
    for _ in 0..12 {
        let ToAct::Seat(seat) = s.to_act() else {
            break;
        };
        let action = match &s.source {
            Source::Local(game) => game.legal_actions(Actor::Seat(seat))[0].clone(),
            Source::Remote(_) => unreachable!(),
        };
        if let Source::Local(game) = &mut s.source {
            game.apply(Actor::Seat(seat), &action).expect("legal");
        }
        settle_viewer(&mut s, false);
        north_viewed |= s.side_of(s.viewer) == Some(Side::North);
        assert!(!north_at_bottom(&s), "flip mode turned the board");
    }
    assert!(north_viewed, "the North player had the view at some point");

    let mut s = junqi(Visibility::Referee, None);
    s.viewer = Seat::SECOND;
    assert_eq!(
        north_at_bottom(&s),
        s.side_of(Seat::SECOND) == Some(Side::North),
        "referee mode: the viewer's side at the bottom"
    );
}

#[test]
fn time_left_counts_whole_minutes_and_stops_at_zero() {
    use super::minutes_left;
    let now = 1_000_000_000;
    assert_eq!(minutes_left(None, now), -1, "no deadline");
    assert_eq!(minutes_left(Some(now + 3 * 86_400_000), now), 3 * 1440);
    assert_eq!(minutes_left(Some(now + 119_999), now), 1, "whole minutes");
    assert_eq!(minutes_left(Some(now - 5), now), 0, "past the deadline");
}

/// A declined draw offer is news to the one who offered (issue 36: the offer silently
/// vanished), until they act again; an offer that stands, or one accepted, is not declined.
#[test]
fn a_declined_draw_offer_is_told_until_the_offerer_acts() {
    let entry = |seat: Seat, action: &str| RecordEntry {
        by: Actor::Seat(seat),
        action: action.into(),
    };
    let (red, black) = (Seat::FIRST, Seat::SECOND);
    let offered = vec![entry(red, "h3e3"), entry(red, "offer-draw")];
    assert_eq!(declined_offer(&offered, red), None, "the offer stands");
    let mut answered = offered.clone();
    answered.push(entry(black, "decline-draw"));
    assert_eq!(declined_offer(&answered, red), Some(black));
    assert_eq!(
        declined_offer(&answered, black),
        None,
        "not news to the one who declined"
    );
    let mut moved_on = offered.clone();
    moved_on.push(entry(black, "h10g8"));
    assert_eq!(
        declined_offer(&moved_on, red),
        Some(black),
        "moving on declines"
    );
    let mut later = moved_on.clone();
    later.push(entry(red, "h1g3"));
    assert_eq!(
        declined_offer(&later, red),
        None,
        "gone once the offerer moves"
    );
    let mut accepted = offered.clone();
    accepted.push(entry(black, "accept-draw"));
    assert_eq!(declined_offer(&accepted, red), None);
    let dice = vec![
        entry(red, "offer-draw"),
        RecordEntry {
            by: Actor::Authority,
            action: "roll:3".into(),
        },
    ];
    assert_eq!(
        declined_offer(&dice, red),
        None,
        "the authority answers nothing"
    );
}

/// Against the computer, which declines when it is not behind, the screen says so.
#[test]
fn the_computers_declined_offer_shows() {
    let mut game = Match::<Xiangqi>::new(&XiangqiOptions::default(), None).expect("a game");
    let (red, black) = (Actor::Seat(Seat::FIRST), Actor::Seat(Seat::SECOND));
    game.apply_text(red, "h3e3").expect("a move");
    game.apply_text(red, "offer-draw").expect("an offer");
    game.apply_text(black, "decline-draw").expect("declined");
    let s = session(game, Some(Seat::SECOND));
    let ui = session_ui(&s);
    assert_eq!(ui.draw_offered_by, -1);
    assert_eq!(ui.draw_declined_by, 1);
}
