//! PGN: the exact text written, what is read from other tools' PGN, and round trips.

use qiguan_core::xiangqi::pgn::{MoveFormat, PgnError, read_game, write_pgn};
use qiguan_core::xiangqi::{Move, Position, START_FEN, Xiangqi, XiangqiOptions};
use qiguan_core::{AnyMatch, EndReason, GameResult, Match, Record};

fn game(moves: &[&str]) -> Match<Xiangqi> {
    let mut g: Match<Xiangqi> =
        Match::new(&XiangqiOptions::default(), None).expect("the start position");
    for m in moves {
        let seat = match g.to_act() {
            qiguan_core::ToAct::Seat(s) => s,
            other => panic!("{other:?}"),
        };
        g.apply_text(qiguan_core::Actor::Seat(seat), m)
            .expect("a legal move");
    }
    g
}

const MATE: [&str; 5] = ["b3b5", "a7a6", "b5c5", "f10e9", "c5c10"];

#[test]
fn a_finished_game_is_written_in_wxf_with_the_variant_tag_and_result() {
    let pgn = write_pgn(
        &game(&MATE),
        &[
            ("Event", "Test".into()),
            ("White", "张三".into()),
            ("Black", "李\"四".into()),
        ],
        MoveFormat::Wxf,
    );
    assert_eq!(
        pgn,
        "[Event \"Test\"]\n[White \"张三\"]\n[Black \"李\\\"四\"]\n[Result \"1-0\"]\n\
         [Variant \"Xiangqi\"]\n[Format \"WXF\"]\n\n\
         1. C8+2 P1+1 2. C8=7 A6+5 3. C7+5 {checkmate} 1-0\n"
    );
    let coordinates = write_pgn(&game(&MATE), &[], MoveFormat::Coordinates);
    assert!(
        coordinates.ends_with("\n1. b3b5 a7a6 2. b5c5 f10e9 3. c5c10 {checkmate} 1-0\n"),
        "{coordinates}"
    );
    assert!(!coordinates.contains("Format"));
}

#[test]
fn an_unfinished_game_from_a_set_position_carries_its_fen_and_starts_with_black() {
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 1";
    let setup = qiguan_core::xiangqi::XiangqiSetup { fen: fen.into() };
    let mut g: Match<Xiangqi> = Match::new(&XiangqiOptions::default(), Some(&setup)).unwrap();
    g.apply_text(qiguan_core::Actor::Seat(qiguan_core::Seat::SECOND), "h10g8")
        .unwrap();
    let pgn = write_pgn(&g, &[], MoveFormat::Wxf);
    assert!(
        pgn.contains("[SetUp \"1\"]\n[FEN \"") && pgn.contains(fen),
        "{pgn}"
    );
    assert!(pgn.contains("[Result \"*\"]"));
    assert!(pgn.ends_with("\n1... H8+7 *\n"), "{pgn}");
    let back = read_game(&pgn).unwrap();
    assert_eq!(back.fen, fen);
    assert_eq!(back.moves, ["h10g8".parse::<Move>().unwrap()]);
}

#[test]
fn pgn_from_other_tools_is_read_in_every_notation() {
    // Chinese moves with full-width digits, comments, a variation, NAGs and glued numbers.
    let chinese = "[Game \"Chinese Chess\"]\n[Red \"胡荣华\"]\n[Black \"杨官璘\"]\n[Result \"0-1\"]\n\
        1. 炮二平五 {中炮} 马８进７ (1... 炮8平5 2. 马二进三) 2.马二进三 $1 车９平８!? \
        3. 车一平二 ; a line comment\n 马２进３ 0-1";
    let g = read_game(chinese).unwrap();
    let moves: Vec<String> = g.moves.iter().map(|m| m.to_string()).collect();
    assert_eq!(moves, ["h3e3", "h10g8", "h1g3", "i10h10", "i1h1", "b10c8"]);
    assert_eq!(g.players(), ["胡荣华".to_owned(), "杨官璘".to_owned()]);
    assert_eq!(g.result, "0-1");
    assert_eq!(g.fen, START_FEN);

    let iccs = "[Format \"ICCS\"]\n1. H2-E2 H9-G7 2. h0-g2 *";
    let moves: Vec<String> = read_game(iccs)
        .unwrap()
        .moves
        .iter()
        .map(|m| m.to_string())
        .collect();
    assert_eq!(moves, ["h3e3", "h10g8", "h1g3"]);

    let wxf = "1. C2.5 H8+7 2. H2+3 *";
    assert_eq!(read_game(wxf).unwrap().moves.len(), 3);
}

#[test]
fn a_result_the_moves_do_not_reach_is_kept_as_resignation_or_agreed_draw() {
    let won = read_game("[Result \"0-1\"]\n1. C2=5 H8+7 0-1").unwrap();
    let record = won.to_record(&XiangqiOptions::default()).unwrap();
    let replayed = AnyMatch::from_record(&record).unwrap();
    let qiguan_core::ToAct::Over(outcome) = replayed.to_act() else {
        panic!("the game is over");
    };
    assert_eq!(outcome.reason, EndReason::Resignation);
    assert_eq!(
        outcome.result,
        GameResult::Win {
            winners: vec![qiguan_core::Seat::SECOND]
        }
    );

    let drawn = read_game("1. C2=5 H8+7 1/2-1/2").unwrap();
    let record: Record = drawn.to_record(&XiangqiOptions::default()).unwrap();
    let qiguan_core::ToAct::Over(outcome) = AnyMatch::from_record(&record).unwrap().to_act() else {
        panic!("the game is over");
    };
    assert_eq!(outcome.reason, EndReason::DrawAgreed);

    let mated = read_game(&write_pgn(&game(&MATE), &[], MoveFormat::Wxf)).unwrap();
    let record = mated.to_record(&XiangqiOptions::default()).unwrap();
    assert_eq!(record.actions.len(), 5, "a mate needs no added resignation");
}

#[test]
fn a_bare_fen_is_a_position_with_no_moves() {
    let g = read_game("  4k4/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1\n").unwrap();
    assert!(g.moves.is_empty());
    assert_eq!(Position::from_fen(&g.fen).unwrap().to_fen(), g.fen);
}

#[test]
fn bad_input_says_what_and_where() {
    assert_eq!(read_game("  \n"), Err(PgnError::Empty));
    match read_game("1. C2=5 H8+7 2. C5+9 *") {
        Err(PgnError::Move { ply, text, .. }) => assert_eq!((ply, text.as_str()), (3, "C5+9")),
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        read_game("1. C2=5 {unclosed"),
        Err(PgnError::Syntax(_))
    ));
    assert!(matches!(
        read_game("1. C2=5 (H8+7"),
        Err(PgnError::Syntax(_))
    ));
    assert!(matches!(
        read_game("[Event \"x\"\n1. C2=5"),
        Err(PgnError::Syntax(_))
    ));
    assert!(matches!(
        read_game("[FEN \"9/9/9 w\"]\n*"),
        Err(PgnError::Fen(_))
    ));
    let message = read_game("1. 马二进四 *").unwrap_err().to_string();
    assert!(message.contains("move 1"), "{message}");
}

/// Plays `n` pseudo-random games and checks both export formats read back to the same game.
#[test]
fn random_games_round_trip_through_both_formats() {
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..40 {
        let mut g: Match<Xiangqi> = Match::new(&XiangqiOptions::default(), None).unwrap();
        for _ in 0..120 {
            let pos = g.game().position().clone();
            let legal = pos.legal_moves();
            if legal.is_empty() || g.outcome().is_some() {
                break;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let m = legal[(seed % legal.len() as u64) as usize];
            let seat = qiguan_core::xiangqi::seat_of(pos.side_to_move());
            g.apply(
                qiguan_core::Actor::Seat(seat),
                &qiguan_core::Action::Play(m),
            )
            .unwrap();
        }
        let moves: Vec<Move> = g.game().moves().collect();
        for format in [MoveFormat::Wxf, MoveFormat::Coordinates] {
            let text = write_pgn(&g, &[], format);
            let back = read_game(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(back.moves, moves, "{text}");
            let record = back.to_record(&XiangqiOptions::default()).unwrap();
            let replayed: Match<Xiangqi> = Match::from_record(&record).unwrap();
            assert_eq!(replayed.outcome(), g.outcome(), "{text}");
        }
    }
}
