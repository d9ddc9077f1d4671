//! Property tests over random Xiangqi games.

use proptest::prelude::*;
use qiguan_core::xiangqi::notation::{parse_chinese, parse_wxf, to_chinese, to_wxf};
use qiguan_core::xiangqi::{Move, Position, Xiangqi};
use qiguan_core::{Action, Actor, AnyMatch, Match, Record, Rules, ToAct, Viewer};

/// Plays a random game, choosing each move by the next number; stops at the end.
fn random_game(choices: &[u16]) -> Match<Xiangqi> {
    let mut game: Match<Xiangqi> = Match::new(&Default::default(), None).expect("start");
    for &c in choices {
        let ToAct::Seat(seat) = game.to_act() else {
            break;
        };
        let actor = Actor::Seat(seat);
        let moves = game.game().legal_moves(actor);
        if moves.is_empty() {
            break;
        }
        let m = moves[c as usize % moves.len()];
        game.apply(actor, &Action::Play(m))
            .unwrap_or_else(|e| panic!("listed move {m} refused: {e}"));
    }
    game
}

fn choices() -> impl Strategy<Value = Vec<u16>> {
    prop::collection::vec(any::<u16>(), 0..300)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn random_games_never_panic_and_every_listed_move_applies(c in choices()) {
        let game = random_game(&c);
        // Every legal move of the final position applies to a copy of it.
        let pos = game.game().position().clone();
        for m in pos.legal_moves() {
            let mut p = pos.clone();
            prop_assert!(p.play(m).is_ok());
            prop_assert!(!p.in_check(pos.side_to_move()), "{m} leaves the general in check");
        }
    }

    #[test]
    fn fen_round_trips(c in choices()) {
        let game = random_game(&c);
        let fen = game.game().position().to_fen();
        let back = Position::from_fen(&fen);
        prop_assert_eq!(back.as_ref().map(|p| p.to_fen()), Ok(fen));
        prop_assert_eq!(back.map(|p| p.hash()), Ok(game.game().position().hash()));
    }

    #[test]
    fn a_record_replays_to_the_same_game(c in choices(), resign in any::<bool>()) {
        let mut game = random_game(&c);
        if resign && game.outcome().is_none()
            && let ToAct::Seat(seat) = game.to_act() {
                game.apply(Actor::Seat(seat), &Action::Resign).expect("resign");
            }
        let json = game.record().to_json();
        let record = Record::from_json(&json).expect("record parses");
        let replayed = Match::<Xiangqi>::from_record(&record).expect("record replays");
        prop_assert_eq!(replayed.game().position(), game.game().position());
        prop_assert_eq!(replayed.to_act(), game.to_act());
        let any = AnyMatch::from_record(&record).expect("any replays");
        prop_assert_eq!(any.view_json(Viewer::Spectator),
            serde_json::to_value(game.view(Viewer::Spectator)).expect("view serializes"));
    }

    #[test]
    fn every_notation_round_trips(c in choices()) {
        let game = random_game(&c);
        let pos = game.game().position();
        for m in pos.legal_moves() {
            let text = m.to_string();
            prop_assert_eq!(text.parse::<Move>(), Ok(m));
            let wxf = to_wxf(pos, m);
            prop_assert_eq!(parse_wxf(pos, &wxf), Ok(m), "WXF {} in {}", wxf, pos.to_fen());
            let zh = to_chinese(pos, m);
            prop_assert_eq!(parse_chinese(pos, &zh), Ok(m), "Chinese {} in {}", zh, pos.to_fen());
        }
    }

    #[test]
    fn perft_two_agrees_with_the_legal_move_lists(c in prop::collection::vec(any::<u16>(), 0..60)) {
        let game = random_game(&c);
        let mut pos = game.game().position().clone();
        let by_lists: u64 = pos.legal_moves().iter().map(|m| {
            let mut p = pos.clone();
            p.play(*m).expect("legal");
            p.legal_moves().len() as u64
        }).sum();
        prop_assert_eq!(pos.perft(2), by_lists);
    }
}
