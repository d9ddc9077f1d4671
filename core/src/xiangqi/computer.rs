//! Xiangqi's computer player: the engine at one of its levels, deciding from the seat's view.

use super::engine::{Engine, Level};
use super::{Move, Position, Xiangqi, XiangqiOptions, XiangqiView};
use crate::game::Computer;
use crate::{Seat, Strength};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// The transposition table a computer player searches with, in MiB (small enough for a phone).
pub const COMPUTER_HASH_MB: usize = 16;

/// The game a view shows, replayed from its start with its moves (so that the engine knows
/// the repetitions that reach back into it); `None` when the view does not replay.
pub fn game_of(view: &XiangqiView, options: &XiangqiOptions) -> Option<Xiangqi> {
    let start = Position::from_fen(&view.start_fen).ok()?;
    let mut game = Xiangqi::from_position(options.clone(), start).ok()?;
    for text in &view.moves {
        let mv: Move = text.parse().ok()?;
        game.play_move(mv).ok()?;
    }
    Some(game)
}

/// Searches `game` at `level` until the level's limits or `stop`: the move to play (`None`
/// when the game is over or the side to move has none).
pub fn think(game: &Xiangqi, level: &Level, stop: Arc<AtomicBool>) -> Option<Move> {
    let mut engine = Engine::new(COMPUTER_HASH_MB);
    engine.use_stop_flag(stop);
    engine.set_threads(level.threads);
    engine
        .search(game, &level.limits, &level.style, |_| {})
        .best
}

impl Computer for Xiangqi {
    /// The engine at the strength's level with a node budget in place of its time, so that
    /// an authority replaying the same view, strength and seed gets the same move.
    fn computer_move(
        view: &XiangqiView,
        seat: Seat,
        options: &XiangqiOptions,
        strength: Strength,
        seed: u64,
    ) -> Option<Move> {
        if view.side_to_move != seat {
            return None;
        }
        let game = game_of(view, options)?;
        let level = Level::fixed(strength.engine_level(), seed);
        think(&game, &level, Arc::new(AtomicBool::new(false)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rules;
    use crate::{Match, Viewer};

    #[test]
    fn a_view_replays_to_its_game_and_a_broken_one_does_not() {
        let mut game = Match::<Xiangqi>::new(&XiangqiOptions::default(), None).unwrap();
        for mv in ["h3e3", "h10g8", "h1g3"] {
            game.apply(
                crate::Actor::Seat(super::super::seat_of(game.game().position().side_to_move())),
                &crate::Action::Play(mv.parse().unwrap()),
            )
            .unwrap();
        }
        let view = game.game().view(Viewer::Seat(Seat::SECOND));
        let replayed = game_of(&view, &XiangqiOptions::default()).unwrap();
        assert_eq!(replayed.position().to_fen(), view.fen);
        assert_eq!(replayed.moves().count(), 3);
        let mut broken = view.clone();
        broken.moves.push("a1a9".into());
        assert!(game_of(&broken, &XiangqiOptions::default()).is_none());
    }

    #[test]
    fn the_computer_answers_only_on_its_turn_with_a_legal_move() {
        let fen = "3k5/9/9/9/9/r8/9/9/9/R3K4 w - - 0 1";
        let game =
            Xiangqi::from_position(XiangqiOptions::default(), Position::from_fen(fen).unwrap())
                .unwrap();
        let view = game.view(Viewer::Seat(Seat::FIRST));
        let options = XiangqiOptions::default();
        assert_eq!(
            Xiangqi::computer_move(&view, Seat::SECOND, &options, Strength::Level(5), 1),
            None,
            "not Black's turn"
        );
        for level in [1, 5, 10] {
            let mv =
                Xiangqi::computer_move(&view, Seat::FIRST, &options, Strength::Level(level), 7);
            let mv = mv.expect("a move");
            assert!(game.position().is_legal(mv), "level {level}: {mv}");
        }
    }

    #[test]
    fn a_fixed_level_gives_the_same_move_every_time() {
        let game = Xiangqi::from_position(XiangqiOptions::default(), Position::start()).unwrap();
        let view = game.view(Viewer::Seat(Seat::FIRST));
        let options = XiangqiOptions::default();
        let first = Xiangqi::computer_move(&view, Seat::FIRST, &options, Strength::Level(7), 3);
        assert!(first.is_some());
        for _ in 0..2 {
            assert_eq!(
                Xiangqi::computer_move(&view, Seat::FIRST, &options, Strength::Level(7), 3),
                first
            );
        }
    }
}
