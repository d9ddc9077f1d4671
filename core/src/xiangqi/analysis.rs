//! Looking back on a game with the engine: each position's score and best move, and how much
//! each move played gave away — a mistake or a blunder when it gave away much, with the move
//! the engine would have played instead.
//!
//! Scores are kept from Red's side in centipawns (of an uncrossed soldier); a mate counts as
//! [`MATE_CP`] less a little per move, so that a graph of the game stays readable and a
//! quicker mate still scores higher.

use super::engine::{Engine, Limits, Score, Style};
use super::{Color, Move, Xiangqi};
use crate::game::{GameResult, Rules};
use crate::xiangqi::seat_of;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// What a mate counts for in a review (a mate in `n` counts `MATE_CP - n`).
pub const MATE_CP: i32 = 3_000;

/// The engine's look at one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judged {
    /// The score from Red's side, centipawns (mates as [`MATE_CP`]).
    pub red_cp: i32,
    /// The move the engine would play (`None` once the game is over).
    pub best: Option<Move>,
    /// The line it expects, best move first.
    pub pv: Vec<Move>,
    /// How deep it looked.
    pub depth: u32,
}

/// How a move played compares with the engine's choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Judgement {
    /// As good as the engine's move (or within a few centipawns of it).
    Good,
    /// Gave away a little: at least [`INACCURACY`].
    Inaccuracy,
    /// Gave away a piece's worth or a clear advantage: at least [`MISTAKE`].
    Mistake,
    /// Gave away the game or a major piece: at least [`BLUNDER`].
    Blunder,
}

/// Centipawns given away that make a move an inaccuracy.
pub const INACCURACY: i32 = 90;
/// Centipawns given away that make a move a mistake.
pub const MISTAKE: i32 = 180;
/// Centipawns given away that make a move a blunder.
pub const BLUNDER: i32 = 350;

/// One move of the game, judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveReview {
    /// The move played.
    pub played: Move,
    /// The engine's move in the same position.
    pub best: Option<Move>,
    /// Centipawns the move gave away against the engine's choice (0 or more).
    pub loss: i32,
    /// What that amounts to.
    pub judgement: Judgement,
}

/// A score from the side to move's point of view, as Red's centipawns.
pub fn red_cp(score: Score, to_move: Color) -> i32 {
    let cp = match score {
        Score::Cp(cp) => cp.clamp(-(MATE_CP - 100), MATE_CP - 100),
        Score::Mate(n) if n > 0 => MATE_CP - n.min(99),
        Score::Mate(n) => -MATE_CP + (-n).min(99),
    };
    if to_move == Color::Red { cp } else { -cp }
}

/// The score of a finished game's last position, from Red's side.
fn final_cp(game: &Xiangqi) -> Option<i32> {
    let outcome = game.outcome()?;
    Some(match &outcome.result {
        GameResult::Win { winners } if winners.contains(&seat_of(Color::Red)) => MATE_CP,
        GameResult::Win { .. } => -MATE_CP,
        _ => 0,
    })
}

/// Looks at the game's current position within `limits` (stopped early by `stop`; `None`
/// then, unless the game is over, which needs no search).
pub fn judge_position(
    engine: &mut Engine,
    game: &Xiangqi,
    limits: &Limits,
    stop: &Arc<AtomicBool>,
) -> Option<Judged> {
    if let Some(cp) = final_cp(game) {
        return Some(Judged {
            red_cp: cp,
            best: None,
            pv: Vec::new(),
            depth: 0,
        });
    }
    engine.use_stop_flag(stop.clone());
    let to_move = game.position().side_to_move();
    let mut pv = Vec::new();
    let found = engine.search(game, limits, &Style::default(), |info| {
        pv.clone_from(&info.pv)
    });
    if stop.load(Ordering::Relaxed) || found.depth == 0 {
        return None;
    }
    Some(Judged {
        red_cp: red_cp(found.score, to_move),
        best: found.best,
        pv,
        depth: found.depth,
    })
}

/// Judges the move `played` by the side to move in the position `before` was made of, given
/// the engine's look at the position before and after it.
pub fn judge_move(mover: Color, played: Move, before: &Judged, after: &Judged) -> MoveReview {
    let sign = if mover == Color::Red { 1 } else { -1 };
    let raw = sign * (before.red_cp - after.red_cp);
    // The engine's own move loses nothing, whatever a deeper look after it says.
    let loss = if before.best == Some(played) {
        0
    } else {
        raw.max(0)
    };
    let judgement = match loss {
        l if l >= BLUNDER => Judgement::Blunder,
        l if l >= MISTAKE => Judgement::Mistake,
        l if l >= INACCURACY => Judgement::Inaccuracy,
        _ => Judgement::Good,
    };
    MoveReview {
        played,
        best: before.best,
        loss,
        judgement,
    }
}

/// The games after each number of moves, from the start (`0`) to the end: what the review
/// looks at.
pub fn positions(game: &Xiangqi) -> Vec<Xiangqi> {
    let start = game.start_position().clone();
    let Ok(mut replay) = Xiangqi::from_position(game.options().clone(), start) else {
        return Vec::new();
    };
    let mut out = vec![replay.clone()];
    for mv in game.moves() {
        if replay.play_move(mv).is_err() {
            break;
        }
        out.push(replay.clone());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xiangqi::{Position, XiangqiOptions};

    fn game(fen: &str, moves: &[&str]) -> Xiangqi {
        let mut g =
            Xiangqi::from_position(XiangqiOptions::default(), Position::from_fen(fen).unwrap())
                .unwrap();
        for m in moves {
            g.play_move(m.parse().unwrap()).unwrap();
        }
        g
    }

    fn limits() -> Limits {
        Limits {
            depth: Some(4),
            ..Limits::default()
        }
    }

    #[test]
    fn scores_are_read_from_reds_side_and_mates_stay_in_range() {
        assert_eq!(red_cp(Score::Cp(120), Color::Red), 120);
        assert_eq!(red_cp(Score::Cp(120), Color::Black), -120);
        assert_eq!(red_cp(Score::Mate(1), Color::Red), MATE_CP - 1);
        assert_eq!(red_cp(Score::Mate(-2), Color::Red), -MATE_CP + 2);
        assert_eq!(red_cp(Score::Mate(3), Color::Black), -MATE_CP + 3);
        assert!(red_cp(Score::Cp(50_000), Color::Red) < MATE_CP - 99);
    }

    #[test]
    fn leaving_a_chariot_to_be_taken_is_a_blunder_and_the_engines_move_is_named() {
        // The chariots face each other on the a-file, Red to move: taking is best; a pawn
        // move instead leaves Red's chariot to be taken.
        let fen = "2bakab2/9/9/4p4/r8/9/4P4/9/9/R1BAKAB2 w - - 0 1";
        let before = game(fen, &[]);
        let played: Move = "e4e5".parse().unwrap();
        let after = game(fen, &["e4e5"]);
        let stop = Arc::new(AtomicBool::new(false));
        let mut engine = Engine::new(1);
        let b = judge_position(&mut engine, &before, &limits(), &stop).unwrap();
        let a = judge_position(&mut engine, &after, &limits(), &stop).unwrap();
        assert_eq!(b.best, Some("a1a6".parse().unwrap()), "{b:?}");
        assert!(b.red_cp > 500, "{b:?}");
        assert!(a.red_cp < -500, "{a:?}");
        let review = judge_move(Color::Red, played, &b, &a);
        assert_eq!(review.judgement, Judgement::Blunder, "{review:?}");
        assert_eq!(review.best, b.best);

        // The engine's own move gives nothing away.
        let taken = game(fen, &["a1a6"]);
        let t = judge_position(&mut engine, &taken, &limits(), &stop).unwrap();
        let good = judge_move(Color::Red, "a1a6".parse().unwrap(), &b, &t);
        assert_eq!((good.loss, good.judgement), (0, Judgement::Good));
    }

    #[test]
    fn a_finished_game_scores_its_winner_and_a_stopped_search_gives_nothing() {
        // Black is mated: Red's chariots on the ninth and tenth ranks.
        let mated = game("3k5/R8/9/9/9/9/9/9/9/1R2K4 w - - 0 1", &["b1b10"]);
        assert!(mated.outcome().is_some());
        let stop = Arc::new(AtomicBool::new(false));
        let mut engine = Engine::new(1);
        let j = judge_position(&mut engine, &mated, &limits(), &stop).unwrap();
        assert_eq!((j.red_cp, j.best), (MATE_CP, None));

        let open = game(crate::xiangqi::START_FEN, &[]);
        stop.store(true, Ordering::Relaxed);
        assert_eq!(judge_position(&mut engine, &open, &limits(), &stop), None);
    }

    #[test]
    fn positions_run_from_the_start_to_the_end() {
        let g = game(crate::xiangqi::START_FEN, &["h3e3", "h10g8"]);
        let all = positions(&g);
        assert_eq!(all.len(), 3);
        assert_eq!(all[0].moves().count(), 0);
        assert_eq!(all[2].position().to_fen(), g.position().to_fen());
    }
}
