//! A Junqi computer that reasons about hidden pieces: it draws complete boards consistent with
//! everything its seat has seen ([`Belief`]), searches each as if it saw everything (alpha-beta
//! a few plies deep), and plays the move with the best average over the boards — perfect
//! information Monte Carlo, as card-game programs do. It decides from its seat's view alone; a
//! seed and a node budget fix its answer, so that an authority's replays stay exact.

use super::belief::{Belief, FlipBelief};
use super::board::{POINTS, Point, graph};
use super::movegen::{Board, Move, MoveRules, Piece};
use super::pieces::{Battle, BattleRules, Rank, Side, battle};
use super::state::{JunqiMove, Visibility};
use super::view::JunqiView;
use crate::pimc::{self, Position, Quiet, Taken};
use std::sync::OnceLock;

pub use crate::pimc::Effort;

/// The normal computer: its own move on eight boards, each judged with the opponent's best
/// capture in view.
pub const NORMAL: Effort = Effort {
    samples: 8,
    depth: 1,
    nodes: 40_000,
};

/// The hard computer: three plies (its move, the reply, its next move) on up to eight boards,
/// fewer when the position is busy.
pub const HARD: Effort = Effort {
    samples: 8,
    depth: 3,
    nodes: 600_000,
};

/// What the search needs of the game's rules.
#[derive(Clone, Copy, Debug)]
pub struct Rules {
    /// How pieces move.
    pub moves: MoveRules,
    /// How battles end.
    pub battles: BattleRules,
    /// Plies in a row without a battle (or, in flip mode, a flip) that draw the game.
    pub quiet_limit: u32,
}

/// The boards the computer can draw: referee mode's belief about hidden kinds, flip mode's
/// shuffle of what lies face down, or open mode's one board.
enum Boards {
    Referee(Belief),
    Flip(FlipBelief),
}

impl Boards {
    fn of(view: &JunqiView, side: Side) -> Option<Boards> {
        if view.visibility == Visibility::Flip {
            FlipBelief::of(view).map(Boards::Flip)
        } else {
            Belief::of(view, side).map(Boards::Referee)
        }
    }

    /// The board as the seat sees it (placeholders for what it cannot see).
    fn seen(&self) -> &Board {
        match self {
            Boards::Referee(b) => &b.board,
            Boards::Flip(b) => &b.board,
        }
    }

    /// Whether anything is hidden (otherwise one board says it all).
    fn hides(&self) -> bool {
        match self {
            Boards::Referee(b) => !b.unknown.is_empty(),
            Boards::Flip(b) => !b.hidden.is_empty(),
        }
    }

    fn draw(&self, seed: u64) -> Board {
        match self {
            Boards::Referee(b) => b.board_with(&b.sample(seed)),
            Boards::Flip(b) => b.board(seed),
        }
    }
}

/// A turn: turning a face-down piece up (flip mode) or a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Turn {
    Flip(Point),
    Go(Move),
}

/// Every turn `side` may take on `board`.
fn turns(board: &Board, side: Side, rules: MoveRules) -> Vec<Turn> {
    let mut list: Vec<Turn> = Vec::new();
    if rules.flip {
        list.extend(
            board
                .pieces()
                .filter(|(p, _)| board.is_face_down(*p))
                .map(|(p, _)| Turn::Flip(p)),
        );
    }
    list.extend(board.moves(side, rules).into_iter().map(Turn::Go));
    list
}

/// Takes a turn on a board that shows every piece; returns the battle, if there was one.
fn take(board: &mut Board, turn: Turn, rules: BattleRules) -> Option<Battle> {
    match turn {
        Turn::Flip(p) => {
            board.set_face_down(p, false);
            None
        }
        Turn::Go(m) => play(board, m, rules),
    }
}

/// A board that shows every piece, with the game's rules: what the search plays on.
#[derive(Clone)]
struct Full {
    board: Board,
    rules: Rules,
}

impl Position for Full {
    type Side = Side;
    type Turn = Turn;

    fn other(side: Side) -> Side {
        side.other()
    }

    fn turns(&self, side: Side) -> Vec<Turn> {
        let mut moves = turns(&self.board, side, self.rules.moves);
        // Attacks first: they decide most.
        moves.sort_by_key(|t| !matches!(t, Turn::Go(m) if self.board.get(m.to).is_some()));
        moves
    }

    fn take(&mut self, _: Side, turn: Turn) -> Taken {
        match take(&mut self.board, turn, self.rules.battles) {
            Some(Battle::FlagTaken) => Taken::Won,
            Some(_) => Taken::Reset,
            None if matches!(turn, Turn::Flip(_)) => Taken::Reset,
            None => Taken::Quiet,
        }
    }

    fn judge(&self, side: Side) -> i32 {
        evaluate(&self.board, side, self.rules.battles)
            + threat(&self.board, side, self.rules) * 3 / 4
    }
}

/// Chooses a turn for `side` from its view, or `None` when the view gives nothing to draw
/// boards from (before the deployments or the deal) or the side has no turn.
pub fn choose(
    view: &JunqiView,
    side: Side,
    rules: Rules,
    effort: Effort,
    seed: u64,
) -> Option<JunqiMove> {
    let boards = Boards::of(view, side)?;
    let roots = turns(boards.seen(), side, rules.moves);
    let quiet = Quiet {
        plies: view.quiet_plies,
        limit: rules.quiet_limit,
    };
    let pick = pimc::choose(
        &roots,
        side,
        boards.hides(),
        |seed| Full {
            board: boards.draw(seed),
            rules,
        },
        quiet,
        effort,
        seed,
    )?;
    Some(match roots[pick] {
        Turn::Flip(p) => JunqiMove::Flip(p),
        Turn::Go(m) => JunqiMove::Go(m),
    })
}

/// Plays `m` on a board that shows every piece; returns the battle, if there was one.
pub(crate) fn play(board: &mut Board, m: Move, rules: BattleRules) -> Option<Battle> {
    let mover = board.get(m.from)?;
    board.set(m.from, None);
    let Some(defender) = board.get(m.to) else {
        board.set(m.to, Some(mover));
        return None;
    };
    let result = battle(mover.rank, defender.rank, rules);
    match result {
        Battle::AttackerWins | Battle::FlagTaken => board.set(m.to, Some(mover)),
        Battle::DefenderWins => {}
        Battle::BothRemoved => board.set(m.to, None),
    }
    Some(result)
}

/// The most `side`, to move, wins by one attack from where its pieces stand next to opposing
/// face-up pieces (roads only, not the railroad: a quick look, not a search), so that a
/// position with a capture waiting is not judged as if the capture could not happen.
fn threat(board: &Board, side: Side, rules: Rules) -> i32 {
    let g = graph();
    let mut best = 0;
    for (p, piece) in board.pieces() {
        if piece.side != side
            || piece.rank.immobile()
            || board.is_face_down(p)
            || (p.is_headquarters() && !board.is_free(p))
        {
            continue;
        }
        for link in g.links(p.index()) {
            let Some(to) = Point::from_index(link.to) else {
                continue;
            };
            let Some(target) = board.get(to) else {
                continue;
            };
            if target.side == side
                || board.is_face_down(to)
                || target.rank == Rank::Flag
                || (to.is_camp() && rules.moves.camps_safe)
            {
                continue;
            }
            let gain = match battle(piece.rank, target.rank, rules.battles) {
                Battle::AttackerWins => worth(target.rank),
                Battle::BothRemoved => worth(target.rank) - worth(piece.rank),
                _ => 0,
            };
            best = best.max(gain);
        }
    }
    best
}

/// What a piece is worth in trades.
fn worth(rank: Rank) -> i32 {
    match rank {
        Rank::FieldMarshal => 1000,
        Rank::General => 800,
        Rank::MajorGeneral => 550,
        Rank::Brigadier => 400,
        Rank::Colonel => 300,
        Rank::Major => 220,
        Rank::Captain => 150,
        Rank::Lieutenant => 100,
        Rank::Engineer => 200,
        Rank::Bomb => 450,
        Rank::Landmine => 250,
        Rank::Flag => 0,
    }
}

/// The fewest moves between two points on an empty board (a railroad line is one move).
fn distance(a: Point, b: Point) -> u32 {
    let table = DISTANCES.get_or_init(|| {
        let g = graph();
        crate::graph::step_counts(POINTS, |p| {
            let mut next: Vec<usize> = g.links(p).iter().map(|l| l.to).collect();
            if g.on_rail(p) {
                next.extend(g.rail_slides(p, |_| false));
            }
            next
        })
    });
    u32::from(table[a.index()][b.index()])
}

static DISTANCES: OnceLock<Vec<Vec<u8>>> = OnceLock::new();

/// The value of a board that shows every piece, for `side`: material (an engineer is worth
/// more once few are left and the other side still has landmines), the danger to each flag
/// from the other side's mobile pieces near it, and a little for advancing.
pub(crate) fn evaluate(board: &Board, side: Side, rules: BattleRules) -> i32 {
    let mut score = [0i32; 2];
    let mut flags: [Option<Point>; 2] = [None, None];
    let mut engineers = [0i32; 2];
    let mut landmines = [0i32; 2];
    let mut mobile: [Vec<Point>; 2] = [Vec::new(), Vec::new()];
    let mut standing: [Vec<(Point, Rank)>; 2] = [Vec::new(), Vec::new()];
    for (p, Piece { side: s, rank }) in board.pieces() {
        let i = s as usize;
        if board.is_face_down(p) {
            // Not yet in play: worth something to its side, less than when turned up.
            score[i] += worth(rank) / 2;
            if rank == Rank::Landmine {
                landmines[i] += 1;
            }
            continue;
        }
        score[i] += worth(rank);
        if rank != Rank::Flag {
            standing[i].push((p, rank));
        }
        match rank {
            Rank::Flag => flags[i] = Some(p),
            Rank::Engineer => engineers[i] += 1,
            Rank::Landmine => landmines[i] += 1,
            _ => {}
        }
        if !rank.immobile() && (!p.is_headquarters() || board.is_free(p)) {
            mobile[i].push(p);
            score[i] += s.own_row(p.row()) as i32 * 3;
        }
    }
    for i in 0..2 {
        // The last engineers are what digs out the landmines round a flag.
        if landmines[1 - i] > 0 && engineers[i] <= 1 {
            score[i] += engineers[i] * 150;
        }
        if let Some(flag) = flags[i] {
            let danger: i32 = mobile[1 - i]
                .iter()
                .map(|&p| (4 - distance(p, flag) as i32).max(0))
                .map(|d| d * d * 25)
                .sum();
            score[i] -= danger;
        }
        // The hunt: a piece within reach of one that beats it is half lost already.
        for &(t, prey) in &standing[1 - i] {
            let near = mobile[i]
                .iter()
                .filter(|&&p| {
                    board.get(p).is_some_and(|hunter| {
                        battle(hunter.rank, prey, rules) == Battle::AttackerWins
                    })
                })
                .map(|&p| distance(p, t))
                .min();
            if let Some(d) = near.filter(|&d| d < 4) {
                let d = 4 - d as i32;
                score[i] += d * d * worth(prey) / 60;
            }
        }
    }
    let me = side as usize;
    score[me] - score[1 - me]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rules as _;
    use crate::junqi::{Deployment, Junqi, JunqiOptions};
    use crate::{Actor, Match, Seat, ToAct, Viewer};

    fn rules() -> Rules {
        let options = JunqiOptions::default();
        Rules {
            moves: crate::junqi::state::move_rules(&options),
            battles: crate::junqi::state::battle_rules(&options),
            quiet_limit: options.quiet_limit(),
        }
    }

    #[test]
    fn distances_count_a_railroad_line_as_one_move() {
        let a = Point::new(1, 0).unwrap_or_else(|| unreachable!());
        let b = Point::new(10, 0).unwrap_or_else(|| unreachable!());
        assert_eq!(distance(a, b), 1);
        assert_eq!(distance(a, a), 0);
        let hq = Point::new(0, 1).unwrap_or_else(|| unreachable!());
        assert_eq!(
            distance(hq, Point::new(0, 0).unwrap_or_else(|| unreachable!())),
            1
        );
    }

    #[test]
    fn a_search_plays_a_legal_move_and_the_same_one_for_the_same_seed() {
        let mut game: Match<Junqi> =
            Match::new(&JunqiOptions::default(), None).unwrap_or_else(|e| panic!("{e:?}"));
        for (seat, side) in [(Seat::FIRST, Side::South), (Seat::SECOND, Side::North)] {
            let text = Deployment::considered(side, 3).to_text();
            game.apply_text(Actor::Seat(seat), &format!("deploy:{text}"))
                .unwrap_or_else(|e| panic!("{e:?}"));
        }
        for _ in 0..6 {
            let ToAct::Seat(seat) = game.to_act() else {
                break;
            };
            let side = if seat == Seat::FIRST {
                Side::South
            } else {
                Side::North
            };
            let view = game.game().view(Viewer::Seat(seat));
            let a = choose(&view, side, rules(), NORMAL, 11);
            let b = choose(&view, side, rules(), NORMAL, 11);
            assert_eq!(a, b);
            let m = a.unwrap_or_else(|| panic!("no move"));
            assert!(matches!(m, JunqiMove::Go(_)));
            game.apply_text(Actor::Seat(seat), &m.to_string())
                .unwrap_or_else(|e| panic!("{m}: {e:?}"));
        }
    }
}
