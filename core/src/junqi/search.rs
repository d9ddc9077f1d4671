//! A Junqi computer that reasons about hidden pieces: it draws complete boards consistent with
//! everything its seat has seen ([`Belief`]), searches each as if it saw everything (alpha-beta
//! a few plies deep), and plays the move with the best average over the boards — perfect
//! information Monte Carlo, as card-game programs do. It decides from its seat's view alone; a
//! seed and a node budget fix its answer, so that an authority's replays stay exact.

use super::belief::Belief;
use super::board::{POINTS, Point, graph};
use super::movegen::{Board, Move, MoveRules, Piece};
use super::pieces::{Battle, BattleRules, Rank, Side, battle};
use super::view::JunqiView;
use crate::rng::Rng;
use std::sync::OnceLock;

/// How hard the computer thinks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Effort {
    /// Boards drawn at most.
    pub samples: usize,
    /// Plies searched on each board (1: its own move only).
    pub depth: u32,
    /// Positions searched at most over all boards (at least one board is always searched).
    pub nodes: u64,
}

impl Effort {
    /// The normal computer.
    pub const NORMAL: Effort = Effort {
        samples: 8,
        depth: 2,
        nodes: 40_000,
    };
    /// The hard computer: at most about a second a move on one core of a phone.
    pub const HARD: Effort = Effort {
        samples: 48,
        depth: 2,
        nodes: 400_000,
    };
}

/// What the search needs of the game's rules.
#[derive(Clone, Copy, Debug)]
pub struct Rules {
    /// How pieces move.
    pub moves: MoveRules,
    /// How battles end.
    pub battles: BattleRules,
}

/// A won game, in the scores' units.
const WIN: i32 = 1_000_000;

/// Chooses a move for `side` from its view, or `None` when the view holds no belief (flip
/// mode, before the deployments) or the side cannot move.
pub fn choose(
    view: &JunqiView,
    side: Side,
    rules: Rules,
    effort: Effort,
    seed: u64,
) -> Option<Move> {
    let belief = Belief::of(view, side)?;
    let roots = belief.board.moves(side, rules.moves);
    if roots.len() <= 1 {
        return roots.first().copied();
    }
    let mut totals = vec![0i64; roots.len()];
    let mut search = Search {
        rules,
        nodes: 0,
        side,
    };
    let samples = if belief.unknown.is_empty() {
        1
    } else {
        effort.samples.max(1)
    };
    for k in 0..samples {
        if k > 0 && search.nodes >= effort.nodes {
            break;
        }
        let sample = belief.sample(seed.wrapping_add(k as u64 * 0x9e37_79b9));
        let board = belief.board_with(&sample);
        for (i, &m) in roots.iter().enumerate() {
            let mut after = board.clone();
            let value = match play(&mut after, m, rules.battles) {
                Some(Battle::FlagTaken) => WIN,
                _ if effort.depth <= 1 => evaluate(&after, side),
                _ => -search.negamax(&after, side.other(), effort.depth - 1, 1, -WIN, WIN),
            };
            totals[i] += i64::from(value);
        }
    }
    // Ties go to a seeded choice, so that the computer does not always open alike.
    let mut rng = Rng::new(seed ^ 0x7469_6573);
    let best = totals.iter().copied().max()?;
    let tied: Vec<usize> = (0..roots.len()).filter(|&i| totals[i] == best).collect();
    Some(roots[tied[rng.below(tied.len())]])
}

struct Search {
    rules: Rules,
    nodes: u64,
    /// The side the computer plays (the evaluation is symmetric; kept for clarity).
    #[allow(dead_code)]
    side: Side,
}

impl Search {
    /// The value of `board` for `to_move`, searched `depth` plies.
    fn negamax(
        &mut self,
        board: &Board,
        to_move: Side,
        depth: u32,
        ply: i32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if depth == 0 {
            return evaluate(board, to_move);
        }
        let mut moves = board.moves(to_move, self.rules.moves);
        if moves.is_empty() {
            // A side that cannot move loses.
            return -WIN + ply;
        }
        // Attacks first: they decide most.
        moves.sort_by_key(|m| board.get(m.to).is_none());
        let mut best = -WIN;
        for m in moves {
            let mut after = board.clone();
            let value = match play(&mut after, m, self.rules.battles) {
                Some(Battle::FlagTaken) => WIN - ply,
                _ => -self.negamax(&after, to_move.other(), depth - 1, ply + 1, -beta, -alpha),
            };
            best = best.max(value);
            alpha = alpha.max(value);
            if alpha >= beta {
                break;
            }
        }
        best
    }
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
        let mut table = vec![[u8::MAX; POINTS]; POINTS];
        for (from, row) in table.iter_mut().enumerate() {
            row[from] = 0;
            let mut queue = std::collections::VecDeque::from([from]);
            while let Some(p) = queue.pop_front() {
                let d = row[p];
                let mut next: Vec<usize> = g.links(p).iter().map(|l| l.to).collect();
                if g.on_rail(p) {
                    next.extend(g.rail_slides(p, |_| false));
                }
                for q in next {
                    if row[q] == u8::MAX {
                        row[q] = d + 1;
                        queue.push_back(q);
                    }
                }
            }
        }
        table
    });
    u32::from(table[a.index()][b.index()])
}

static DISTANCES: OnceLock<Vec<[u8; POINTS]>> = OnceLock::new();

/// The value of a board that shows every piece, for `side`: material (an engineer is worth
/// more once few are left and the other side still has landmines), the danger to each flag
/// from the other side's mobile pieces near it, and a little for advancing.
pub(crate) fn evaluate(board: &Board, side: Side) -> i32 {
    let mut score = [0i32; 2];
    let mut flags: [Option<Point>; 2] = [None, None];
    let mut engineers = [0i32; 2];
    let mut landmines = [0i32; 2];
    let mut mobile: [Vec<Point>; 2] = [Vec::new(), Vec::new()];
    for (p, Piece { side: s, rank }) in board.pieces() {
        let i = s as usize;
        score[i] += worth(rank);
        match rank {
            Rank::Flag => flags[i] = Some(p),
            Rank::Engineer => engineers[i] += 1,
            Rank::Landmine => landmines[i] += 1,
            _ => {}
        }
        if !rank.immobile() && !p.is_headquarters() {
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
            let a = choose(&view, side, rules(), Effort::NORMAL, 11);
            let b = choose(&view, side, rules(), Effort::NORMAL, 11);
            assert_eq!(a, b);
            let m = a.unwrap_or_else(|| panic!("no move"));
            game.apply_text(Actor::Seat(seat), &m.to_string())
                .unwrap_or_else(|e| panic!("{m}: {e:?}"));
        }
    }
}
