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
    /// The normal computer: its own move on eight boards, each judged with the opponent's
    /// best capture in view.
    pub const NORMAL: Effort = Effort {
        samples: 8,
        depth: 1,
        nodes: 40_000,
    };
    /// The hard computer: three plies (its move, the reply, its next move) on up to eight
    /// boards, fewer when the position is busy.
    pub const HARD: Effort = Effort {
        samples: 8,
        depth: 3,
        nodes: 600_000,
    };
}

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

/// A won game, in the scores' units.
const WIN: i32 = 1_000_000;

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
    let as_move = |t: Turn| match t {
        Turn::Flip(p) => JunqiMove::Flip(p),
        Turn::Go(m) => JunqiMove::Go(m),
    };
    if roots.len() <= 1 {
        return roots.first().copied().map(as_move);
    }
    let mut totals = vec![0i64; roots.len()];
    let mut search = Search { rules, nodes: 0 };
    let root = Node {
        depth: effort.depth,
        ply: 0,
        quiet: view.quiet_plies,
    };
    let samples = if boards.hides() {
        effort.samples.max(1)
    } else {
        1
    };
    for k in 0..samples {
        if k > 0 && search.nodes >= effort.nodes {
            break;
        }
        let board = boards.draw(seed.wrapping_add(k as u64 * 0x9e37_79b9));
        for (i, &t) in roots.iter().enumerate() {
            let mut after = board.clone();
            let result = take(&mut after, t, rules.battles);
            let reset = result.is_some() || matches!(t, Turn::Flip(_));
            let next = root.after(reset);
            let value = match result {
                Some(Battle::FlagTaken) => WIN,
                _ if next.quiet >= rules.quiet_limit => 0,
                _ => -search.negamax(&after, side.other(), next, -WIN, WIN),
            };
            totals[i] += i64::from(value);
        }
    }
    // Ties go to a seeded choice, so that the computer does not always open alike.
    let mut rng = Rng::new(seed ^ 0x7469_6573);
    let best = totals.iter().copied().max()?;
    let tied: Vec<usize> = (0..roots.len()).filter(|&i| totals[i] == best).collect();
    Some(as_move(roots[tied[rng.below(tied.len())]]))
}

struct Search {
    rules: Rules,
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
    fn negamax(
        &mut self,
        board: &Board,
        to_move: Side,
        node: Node,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if node.quiet >= self.rules.quiet_limit {
            return 0;
        }
        let (depth, ply) = (node.depth, node.ply);
        if depth == 0 {
            let value = evaluate(board, to_move, self.rules.battles)
                + threat(board, to_move, self.rules) * 3 / 4;
            // A lead fades as the plies without a battle run out towards a draw: the side
            // ahead fights or turns pieces up, the side behind plays for time.
            let limit = i64::from(self.rules.quiet_limit.max(1));
            let left = limit - i64::from(node.quiet.min(self.rules.quiet_limit));
            return (i64::from(value) * (limit + left) / (2 * limit)) as i32;
        }
        let mut moves = turns(board, to_move, self.rules.moves);
        if moves.is_empty() {
            // A side that cannot move loses.
            return -WIN + ply;
        }
        // Attacks first: they decide most.
        moves.sort_by_key(|t| !matches!(t, Turn::Go(m) if board.get(m.to).is_some()));
        let mut best = -WIN;
        for m in moves {
            let mut after = board.clone();
            let result = take(&mut after, m, self.rules.battles);
            let value = match result {
                Some(Battle::FlagTaken) => WIN - ply,
                _ => {
                    let reset = result.is_some() || matches!(m, Turn::Flip(_));
                    -self.negamax(&after, to_move.other(), node.after(reset), -beta, -alpha)
                }
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
            let a = choose(&view, side, rules(), Effort::NORMAL, 11);
            let b = choose(&view, side, rules(), Effort::NORMAL, 11);
            assert_eq!(a, b);
            let m = a.unwrap_or_else(|| panic!("no move"));
            assert!(matches!(m, JunqiMove::Go(_)));
            game.apply_text(Actor::Seat(seat), &m.to_string())
                .unwrap_or_else(|e| panic!("{m}: {e:?}"));
        }
    }
}
