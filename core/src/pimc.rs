//! Perfect-information Monte Carlo, as card-game programs play: draw complete boards consistent
//! with what a seat has seen, search each as if everything showed (alpha-beta a few plies
//! deep), and take the turn with the best total over the boards. The games with hidden pieces
//! (Junqi, Sea-land-air) plug in a [`Position`]; a seed and a node budget fix the answer, so
//! that an authority's replays stay exact.

use crate::rng::Rng;

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

/// A won game, in the scores' units.
pub const WIN: i32 = 1_000_000;

/// What a turn did, as far as the search cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Taken {
    /// The side that took it won at once (it took the flag).
    Won,
    /// A battle, a flip or whatever else restarts the count of quiet plies.
    Reset,
    /// Nothing that restarts the count.
    Quiet,
}

/// A board that shows every piece, as the search sees it.
pub trait Position: Clone {
    /// A side.
    type Side: Copy;
    /// A turn a side may take.
    type Turn: Copy;

    /// The other side.
    fn other(side: Self::Side) -> Self::Side;
    /// Every turn `side` may take, the likeliest to matter first.
    fn turns(&self, side: Self::Side) -> Vec<Self::Turn>;
    /// Takes a turn.
    fn take(&mut self, side: Self::Side, turn: Self::Turn) -> Taken;
    /// The value of the board for `side`, to move, with no search.
    fn judge(&self, side: Self::Side) -> i32;
}

/// Plies in a row without a battle that draw the game, and how many have gone by at the root.
#[derive(Clone, Copy, Debug)]
pub struct Quiet {
    /// How many have gone by.
    pub plies: u32,
    /// How many draw.
    pub limit: u32,
}

/// Picks the index in `roots` of the turn with the best total over up to `effort.samples`
/// boards from `draw` (one when `hidden` is false: the board says it all); ties go to a seeded
/// choice, so that the computer does not always open alike. `None` when `roots` is empty.
pub fn choose<P: Position>(
    roots: &[P::Turn],
    side: P::Side,
    hidden: bool,
    draw: impl Fn(u64) -> P,
    quiet: Quiet,
    effort: Effort,
    seed: u64,
) -> Option<usize> {
    if roots.len() <= 1 {
        return (!roots.is_empty()).then_some(0);
    }
    let mut totals = vec![0i64; roots.len()];
    let mut search = Search {
        limit: quiet.limit,
        nodes: 0,
    };
    let root = Node {
        depth: effort.depth,
        ply: 0,
        quiet: quiet.plies,
    };
    let samples = if hidden { effort.samples.max(1) } else { 1 };
    for k in 0..samples {
        if k > 0 && search.nodes >= effort.nodes {
            break;
        }
        let board = draw(seed.wrapping_add(k as u64 * 0x9e37_79b9));
        for (i, &t) in roots.iter().enumerate() {
            let mut after = board.clone();
            let taken = after.take(side, t);
            let next = root.after(taken == Taken::Reset);
            let value = match taken {
                Taken::Won => WIN,
                _ if next.quiet >= quiet.limit => 0,
                _ => -search.negamax(&after, P::other(side), next, -WIN, WIN),
            };
            totals[i] += i64::from(value);
        }
    }
    let mut rng = Rng::new(seed ^ 0x7469_6573);
    let best = totals.iter().copied().max()?;
    let tied: Vec<usize> = (0..roots.len()).filter(|&i| totals[i] == best).collect();
    Some(tied[rng.below(tied.len())])
}

struct Search {
    limit: u32,
    nodes: u64,
}

/// Where a search node stands: plies left to search, plies from the root, and plies in a row
/// without a battle (or a flip).
#[derive(Clone, Copy, Debug)]
struct Node {
    depth: u32,
    ply: i32,
    quiet: u32,
}

impl Node {
    /// The node after a turn; `reset`: whether it fought or turned a piece up.
    fn after(self, reset: bool) -> Node {
        Node {
            depth: self.depth.saturating_sub(1),
            ply: self.ply + 1,
            quiet: if reset { 0 } else { self.quiet + 1 },
        }
    }
}

impl Search {
    /// The value of `board` for `to_move` at `node`.
    fn negamax<P: Position>(
        &mut self,
        board: &P,
        to_move: P::Side,
        node: Node,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if node.quiet >= self.limit {
            return 0;
        }
        if node.depth == 0 {
            // A lead fades as the plies without a battle run out towards a draw: the side
            // ahead fights or turns pieces up, the side behind plays for time.
            let value = board.judge(to_move);
            let limit = i64::from(self.limit.max(1));
            let left = limit - i64::from(node.quiet.min(self.limit));
            return (i64::from(value) * (limit + left) / (2 * limit)) as i32;
        }
        let moves = board.turns(to_move);
        if moves.is_empty() {
            // A side that cannot move loses.
            return -WIN + node.ply;
        }
        let mut best = -WIN;
        for m in moves {
            let mut after = board.clone();
            let taken = after.take(to_move, m);
            let value = match taken {
                Taken::Won => WIN - node.ply,
                _ => -self.negamax(
                    &after,
                    P::other(to_move),
                    node.after(taken == Taken::Reset),
                    -beta,
                    -alpha,
                ),
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
