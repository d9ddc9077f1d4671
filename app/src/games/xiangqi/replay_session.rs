//! What a replay holds while it is on screen: the game, the study grown from it, the line and
//! position shown, and the engine's review of it ([`Review`]). The replay screen
//! (`replay.rs`) shows and changes it; the review (`review.rs`) fills in the engine's part.

use crate::shell::ctx::Ctx;
use crate::shell::thinking::Work;
use crate::store::GameId;
use qiguan_core::xiangqi::analysis::Judged;
use qiguan_core::xiangqi::study::{Path, Study};
use qiguan_core::xiangqi::{Move, Position, Square, Xiangqi};
use qiguan_core::{Match, Rules};
use qiguan_ui::{BoardCell, MoveRow};
use slint::VecModel;
use std::cell::RefCell;
use std::rc::Rc;

/// A stored game being replayed.
pub struct ReplaySession {
    pub(super) id: GameId,
    /// The game as it was played.
    pub(super) game: Match<Xiangqi>,
    /// Its moves: what the review judges.
    pub(super) game_moves: Vec<Move>,
    /// The game with what the player tried (its own moves are one line of it).
    pub(super) study: Study,
    /// The line on screen, to its end: the game's, or a variation the player went into.
    pub(super) line: Path,
    /// The line's moves.
    pub(super) moves: Vec<Move>,
    /// How many of them the game played too (the review's judgements hold that far).
    pub(super) shared: usize,
    pub(super) players: [String; 2],
    /// Red and Black: played by the computer (a role, not a name).
    pub(super) computers: [bool; 2],
    pub(super) created_at: i64,
    /// Read from a file or a paste: its result is the file's word, with no reason for it (the
    /// record carries a result as a resignation or an agreed draw).
    pub(super) imported: bool,
    /// Moves shown of the line.
    pub(super) ply: usize,
    /// The piece picked up to try a move.
    pub(super) selected: Option<Square>,
    pub(super) manual_flip: bool,
    pub(super) cells: Rc<VecModel<BoardCell>>,
    pub(super) rows: Rc<VecModel<MoveRow>>,
    /// The engine's review and live line.
    pub(super) review: Review,
}

impl ReplaySession {
    /// Returns the position after `self.ply` moves.
    pub(super) fn position(&self) -> Position {
        self.position_at(self.ply)
    }

    /// Returns the position after `ply` moves of the line shown.
    pub(super) fn position_at(&self, ply: usize) -> Position {
        let mut pos = self.study.start.clone();
        for &m in &self.moves[..ply.min(self.moves.len())] {
            let _ = pos.play(m);
        }
        pos
    }

    /// The point of the study shown.
    pub(super) fn path(&self) -> &[usize] {
        &self.line[..self.ply.min(self.line.len())]
    }

    /// The game as far as the position shown, with its history (for the engine).
    pub(super) fn shown_game(&self) -> Option<Xiangqi> {
        let options = self.game.game().options().clone();
        let mut game = Xiangqi::from_position(options, self.study.start.clone()).ok()?;
        for &m in &self.moves[..self.ply] {
            game.play_move(m).ok()?;
        }
        Some(game)
    }

    /// Shows the line through `path` (its own continuation after it), at `path`.
    pub(super) fn go_into(&mut self, path: &[usize]) {
        self.line = self.study.line_through(path);
        self.ply = path.len();
        self.relined();
    }

    /// Recomputes what follows from the line shown.
    pub(super) fn relined(&mut self) {
        self.moves = self.study.moves_along(&self.line).unwrap_or_default();
        self.shared = self
            .moves
            .iter()
            .zip(&self.game_moves)
            .take_while(|(a, b)| a == b)
            .count();
        self.ply = self.ply.min(self.moves.len());
        self.selected = None;
    }

    /// The game's own moves, as a path (a prefix of it is a move the game played).
    pub(super) fn game_path(&self) -> Path {
        self.study.path_of(&self.game_moves).unwrap_or_default()
    }

    /// Whether the move at `path` is one the game played.
    pub(super) fn played(&self, path: &[usize]) -> bool {
        self.game_path().starts_with(path)
    }

    /// The variation the position shown is in: the path to its first move (none on the
    /// main line).
    pub(super) fn variation(&self) -> Option<&[usize]> {
        let path = self.path();
        let last = path.iter().rposition(|&i| i != 0)?;
        Some(&path[..=last])
    }

    /// What "Delete" takes away at the position shown: the player's variation it is in, or
    /// else the player's moves from where they left the game's (after its last move, say);
    /// none on the game's own moves.
    pub(super) fn deletable(&self) -> Option<Path> {
        if let Some(v) = self.variation().filter(|v| !self.played(v)) {
            return Some(v.to_vec());
        }
        let path = self.path();
        let game = self.game_path();
        let k = (1..=path.len()).find(|&k| !game.starts_with(&path[..k]))?;
        Some(path[..k].to_vec())
    }
}

/// The ReplaySession slot in the context.
pub(super) fn slot(ctx: &Ctx) -> &RefCell<Option<ReplaySession>> {
    ctx.session()
}

/// A replay's review and live line.
#[derive(Default)]
pub(crate) struct Review {
    /// Each position's judgement (index = moves played), as far as the review got.
    pub judged: Vec<Option<Judged>>,
    /// The review while it runs.
    pub(super) running: Option<(u64, Work)>,
    /// The live line: the position (the point of the study shown) it is for, and its search.
    pub(super) live: Option<(Path, u64, Work)>,
    /// The live line's latest finding, for the point shown.
    pub line: Option<(Path, Judged)>,
    /// The engine's second and third choices there, as they come (each for the point shown).
    pub others: [Option<(Path, Judged)>; 2],
    /// The player turned analysis on (and has not turned it off).
    pub on: bool,
}

impl Review {
    /// A review that starts from judgements kept by an earlier one ([`super::review::kept`]).
    pub fn from_kept(judged: Vec<Option<Judged>>) -> Self {
        Review {
            judged,
            ..Review::default()
        }
    }

    /// Whether the whole-game review is still working.
    pub fn running(&self) -> bool {
        self.running.is_some()
    }

    /// Positions judged so far.
    pub fn done(&self) -> usize {
        self.judged.iter().filter(|j| j.is_some()).count()
    }
}
