//! Qiguan's Xiangqi engine: iterative deepening over a principal-variation search with a
//! transposition table, quiescence over captures (and every evasion when in check), null-move
//! pruning, late-move reductions, killer and history ordering, check extensions and
//! mate-distance scores. It stops on a flag, a deadline or a node count, and for a node count
//! alone it is deterministic.
//!
//! Repetition follows the rules core: a return to a position seen earlier (on the search's
//! path or in the game) is judged as the rules judge a repeated cycle — perpetual check or
//! chase loses, anything else draws — so the engine never walks into a losing repetition and
//! plays for a win when the opponent's only way out is a forbidden one. At the root the rules
//! core itself checks each move, so a move that would end the game there is scored exactly.

pub mod eval;
mod levels;
pub mod nnue;
mod tt;
pub mod tune;

pub use levels::{LEVELS, Level};

use super::board::{Color, Move, Square};
use super::movegen::{Exposure, MoveList};
use super::position::{Position, Undo, splitmix};
use super::repetition::{CycleVerdict, judge_cycle};
use super::state::{Xiangqi, seat_of};
use crate::game::Rules;
use nnue::{Accumulator, Network};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tt::{Bound, Table};

/// The score of being mated now; a mate `n` plies away scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// Scores beyond this (in either sign) are mates.
const MATE_BOUND: i32 = MATE - 1_000;
/// A win by the repetition rules (the opponent must break off or lose), `ply` away: scored
/// as a mate that far away, so that a lost side prefers the longest way to lose, whether by
/// mate or by the rules, and a winning side the shortest.
const RULE_WIN: i32 = MATE;
/// The deepest a search goes.
pub const MAX_PLY: usize = 128;
const INF: i32 = MATE + 1;
/// No move (a null move on the path, an empty table slot).
const NONE: Move = Move::new(sq(0), sq(0));

const fn sq(i: usize) -> Square {
    match Square::from_index(i) {
        Some(s) => s,
        None => panic!("off the board"),
    }
}

/// A score as engines report it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns of an uncrossed soldier, from the side to move's point of view.
    Cp(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

impl Score {
    fn from_internal(v: i32) -> Score {
        if v > MATE_BOUND {
            Score::Mate((MATE - v + 1) / 2)
        } else if v < -MATE_BOUND {
            Score::Mate(-((MATE + v) / 2))
        } else {
            Score::Cp(v)
        }
    }
}

/// When a search stops.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// The deepest iteration.
    pub depth: Option<u32>,
    /// Stop after about this many nodes (checked every 1,024 nodes; the search then ends
    /// deterministically).
    pub nodes: Option<u64>,
    /// Stop after this long.
    pub time: Option<Duration>,
    /// How many of the best moves to report each iteration, each with its score and line
    /// (UCI's MultiPV); 0 or 1: the best only.
    pub lines: usize,
}

/// One finished iteration, as reported while the search runs.
#[derive(Clone, Debug)]
pub struct Info {
    /// The line's rank among the best moves, from 1 (the best; see [`Limits::lines`]).
    pub multipv: usize,
    /// The iteration's nominal depth.
    pub depth: u32,
    /// The deepest ply reached.
    pub seldepth: u32,
    /// The best move's score.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// The principal variation, best move first.
    pub pv: Vec<Move>,
}

impl Info {
    /// Nodes per second so far.
    pub fn nps(&self) -> u64 {
        let ms = self.time.as_millis().max(1) as u64;
        self.nodes * 1000 / ms
    }
}

/// The search's answer.
#[derive(Clone, Debug)]
pub struct Found {
    /// The move to play; `None` only when there is no legal move (or the game is over).
    pub best: Option<Move>,
    /// The reply it expects.
    pub ponder: Option<Move>,
    /// The best move's score.
    pub score: Score,
    /// The last finished iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
}

/// How the engine plays: everything a level changes.
#[derive(Clone, Debug)]
pub struct Style {
    /// Search captures to the end at the leaves (without: a capture two plies deep is
    /// missed, as a beginner misses it).
    pub quiescence: bool,
    /// At most this much (±) is added to each root move's score, deterministically from the
    /// seed: a weaker player's misjudgement, not a random move.
    pub noise: i32,
    /// Varies the misjudgements from game to game.
    pub seed: u64,
}

impl Default for Style {
    fn default() -> Self {
        Style {
            quiescence: true,
            noise: 0,
            seed: 0,
        }
    }
}

/// A Xiangqi engine: keeps its transposition table and move-ordering history between
/// searches of one game.
#[derive(Debug)]
pub struct Engine {
    tt: Table,
    stop: Arc<AtomicBool>,
    /// Whether perpetual chase loses (the game's option).
    chase_loses: bool,
    /// The network that evaluates; `None`: the hand-written evaluation ([`eval`]).
    net: Option<Arc<Network>>,
    /// Threads a full-strength search uses (1: deterministic for a node budget).
    threads: usize,
}

impl Engine {
    /// An engine with a transposition table of about `hash_mb` MiB.
    pub fn new(hash_mb: usize) -> Engine {
        Engine {
            tt: Table::new(hash_mb),
            stop: Arc::new(AtomicBool::new(false)),
            chase_loses: true,
            // The embedded net is checked by a test; were it unreadable, the hand-written
            // evaluation plays.
            net: nnue::embedded().ok(),
            threads: 1,
        }
    }

    /// Searches on this many threads from now on (at least 1). With more than one the
    /// search is no longer deterministic; the levels with misjudgements use one.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.clamp(1, 256);
    }

    /// How many threads a search uses.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Evaluates with this network from now on (`None`: the hand-written evaluation).
    pub fn use_net(&mut self, net: Option<Arc<Network>>) {
        self.net = net;
    }

    /// Evaluates with the network in this file (`classical`: the hand-written evaluation,
    /// `embedded`: the engine's own net).
    pub fn use_net_file(&mut self, path: &str) -> Result<(), String> {
        if path == "classical" {
            self.net = None;
            return Ok(());
        }
        if path == "embedded" {
            self.net = Some(nnue::embedded().map_err(|e| e.to_string())?);
            return Ok(());
        }
        let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
        let net = Network::from_bytes(&bytes).map_err(|e| e.to_string())?;
        self.net = Some(Arc::new(net));
        Ok(())
    }

    /// The network it evaluates with, if any.
    pub fn net(&self) -> Option<&Arc<Network>> {
        self.net.as_ref()
    }

    /// Resizes the transposition table (and clears it).
    pub fn set_hash(&mut self, hash_mb: usize) {
        self.tt = Table::new(hash_mb);
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
    }

    /// The flag that stops a running search from another thread. Whoever sets it clears it
    /// before the next search (a stop that arrives before its search starts still counts).
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// Stops on `flag` from now on (a flag the caller made before the engine, so that a
    /// search can be stopped before it even starts).
    pub fn use_stop_flag(&mut self, flag: Arc<AtomicBool>) {
        self.stop = flag;
    }

    /// Searches the game's position within `limits`, reporting each finished iteration.
    pub fn search(
        &mut self,
        game: &Xiangqi,
        limits: &Limits,
        style: &Style,
        mut report: impl FnMut(&Info),
    ) -> Found {
        self.chase_loses = game.options().perpetual_chase_loses;
        self.tt.new_search();
        // The weaker levels' misjudgements are one thread's; helpers only at full judgement.
        let helpers = if style.noise == 0 {
            self.threads.saturating_sub(1)
        } else {
            0
        };
        if helpers == 0 {
            return self.search_main(game, limits, style, None, &mut report);
        }
        let done = AtomicBool::new(false);
        let shared = AtomicU64::new(0);
        let engine = &*self;
        std::thread::scope(|scope| {
            for id in 0..helpers {
                let (done, shared) = (&done, &shared);
                scope.spawn(move || engine.helper(game, style, done, shared, id));
            }
            let found = engine.search_main(game, limits, style, Some(&shared), &mut report);
            done.store(true, Ordering::Relaxed);
            found
        })
    }

    /// A helper thread of a search on several (lazy SMP): searches the same root, deepening
    /// on its own (every second helper one ply ahead), sharing only the table, until the main
    /// thread is done. Its results reach the main thread through the table.
    fn helper(
        &self,
        game: &Xiangqi,
        style: &Style,
        done: &AtomicBool,
        shared: &AtomicU64,
        id: usize,
    ) {
        let limits = Limits::default();
        let mut s = Searcher::new(self, game, &limits, style, Instant::now());
        s.done = Some(done);
        s.shared_nodes = Some(shared);
        s.can_stop = true;
        let mut roots = s.root_moves(game);
        if roots.is_empty() {
            return;
        }
        let mut score = 0;
        for depth in (1 + id % 2)..=(MAX_PLY - 8) {
            let depth = depth as i32;
            let v = if depth >= 5 {
                s.aspiration(&mut roots, depth, score)
            } else {
                s.root(&mut roots, depth, -INF, INF)
            };
            if s.stopped {
                break;
            }
            score = v;
            roots.sort_by_key(|r| -r.score);
        }
    }

    /// The main thread's iterative deepening: it alone reports and decides.
    fn search_main(
        &self,
        game: &Xiangqi,
        limits: &Limits,
        style: &Style,
        shared: Option<&AtomicU64>,
        report: &mut dyn FnMut(&Info),
    ) -> Found {
        let started = Instant::now();
        let mut s = Searcher::new(self, game, limits, style, started);
        s.shared_nodes = shared;
        let roots = s.root_moves(game);
        let mut found = Found {
            best: roots.first().map(|r| r.mv),
            ponder: None,
            score: Score::Cp(0),
            depth: 0,
            nodes: 0,
        };
        if roots.is_empty() || game.outcome().is_some() {
            found.best = None;
            return found;
        }
        let mut roots = roots;
        Searcher::set_noise(&mut roots, style, game.position().hash());
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 8)
            .clamp(1, MAX_PLY as u32 - 8);
        let mut score = 0;
        for depth in 1..=max_depth {
            let result = if depth >= 5 && style.noise == 0 {
                s.aspiration(&mut roots, depth as i32, score)
            } else {
                s.root(&mut roots, depth as i32, -INF, INF)
            };
            if s.stopped {
                // A move that beat the last iteration's best before the stop came (searched to
                // the end: `root` moves such a move first and stops before keeping an
                // unfinished search's score) is the better choice, as in Stockfish.
                if style.noise == 0 && found.best != Some(roots[0].mv) {
                    found.best = Some(roots[0].mv);
                    found.score = Score::from_internal(roots[0].score);
                    found.ponder = s.pv_from(roots[0].mv).get(1).copied();
                }
                break;
            }
            score = result;
            roots.sort_by_key(|r| -r.score);
            // The next best moves, each searched with a full window among the moves not
            // ranked yet, so that each score is exact (with noise every score already is).
            let lines = limits.lines.clamp(1, roots.len());
            let mut ranked = 1;
            for k in 1..lines {
                if style.noise == 0 {
                    s.root(&mut roots[k..], depth as i32, -INF, INF);
                    if s.stopped {
                        break;
                    }
                    roots[k..].sort_by_key(|r| -r.score);
                }
                ranked = k + 1;
            }
            // A later line's search may score its move above an earlier one's (search
            // instability): the lines are shown in the order of their scores.
            roots[1..ranked].sort_by_key(|r| -r.score);
            let best = roots[0].clone();
            found.best = Some(best.mv);
            found.score = Score::from_internal(best.score);
            found.depth = depth;
            let pv = s.pv_from(best.mv);
            found.ponder = pv.get(1).copied();
            s.can_stop = true;
            report(&Info {
                multipv: 1,
                depth,
                seldepth: s.seldepth as u32,
                score: found.score,
                nodes: s.all_nodes(),
                time: started.elapsed(),
                pv,
            });
            for (k, line) in roots.iter().enumerate().take(ranked).skip(1) {
                let pv = s.pv_from(line.mv);
                report(&Info {
                    multipv: k + 1,
                    depth,
                    seldepth: s.seldepth as u32,
                    score: Score::from_internal(line.score),
                    nodes: s.all_nodes(),
                    time: started.elapsed(),
                    pv,
                });
            }
            if s.stopped {
                break;
            }
            // A forced mate found needs no deeper look; nor does a single move.
            if roots.len() == 1 && limits.depth.is_none() && limits.nodes.is_none() {
                break;
            }
            if best.score.abs() > MATE_BOUND && (MATE - best.score.abs()) < depth as i32 {
                break;
            }
        }
        found.nodes = s.all_nodes();
        found
    }
}

/// A root move and its score from the last iteration.
#[derive(Clone, Debug)]
struct Root {
    mv: Move,
    score: i32,
    /// Fixed by the rules (the game ends with this move): not searched.
    fixed: Option<i32>,
    noise: i32,
}

struct Searcher<'a> {
    pos: Position,
    /// Positions from the game's last capture onwards, then the search's path.
    hashes: Vec<u64>,
    /// `moves[i]` led from `hashes[i]` to `hashes[i + 1]` (`NONE`: a null move).
    moves: Vec<Move>,
    psq: i32,
    /// The network, and its accumulators along the search's path: `accs[top]` is the current
    /// position's (the slots above are reused, not freed).
    net: Option<Arc<Network>>,
    accs: Vec<Accumulator>,
    top: usize,
    tt: &'a Table,
    stop: &'a AtomicBool,
    /// A helper thread's second flag: the main thread has finished.
    done: Option<&'a AtomicBool>,
    /// Nodes of every thread, counted 1,024 at a time (for reports).
    shared_nodes: Option<&'a AtomicU64>,
    chase_loses: bool,
    killers: [[Move; 2]; MAX_PLY + 1],
    history: Box<[[i32; 90]; 16]>,
    nodes: u64,
    seldepth: usize,
    stopped: bool,
    /// The first iteration always finishes, so that there is a move to play.
    can_stop: bool,
    deadline: Option<Instant>,
    node_limit: Option<u64>,
    quiescence: bool,
}

impl<'a> Searcher<'a> {
    fn new(
        engine: &'a Engine,
        game: &Xiangqi,
        limits: &Limits,
        style: &Style,
        started: Instant,
    ) -> Searcher<'a> {
        let pos = game.position().clone();
        // Only positions since the last capture can repeat.
        let (all_hashes, all_moves) = game.path();
        let keep = (pos.halfmove_clock() as usize).min(all_moves.len());
        let from = all_moves.len() - keep;
        let hashes: Vec<u64> = all_hashes[from..].to_vec();
        let moves: Vec<Move> = all_moves[from..].to_vec();
        let net = engine.net.clone();
        let accs = match &net {
            Some(net) => vec![net.refresh(&pos); MAX_PLY + 16],
            None => Vec::new(),
        };
        Searcher {
            psq: eval::material(&pos),
            net,
            accs,
            top: 0,
            pos,
            hashes,
            moves,
            tt: &engine.tt,
            stop: &engine.stop,
            done: None,
            shared_nodes: None,
            chase_loses: engine.chase_loses,
            killers: [[NONE; 2]; MAX_PLY + 1],
            history: Box::new([[0; 90]; 16]),
            nodes: 0,
            seldepth: 0,
            stopped: false,
            can_stop: false,
            deadline: limits.time.map(|t| started + t),
            node_limit: limits.nodes,
            quiescence: style.quiescence,
        }
    }

    /// The legal root moves, each checked by the rules core for an immediate end.
    fn root_moves(&mut self, game: &Xiangqi) -> Vec<Root> {
        let mover = game.position().side_to_move();
        let mut roots = Vec::new();
        for mv in game.position().legal_moves() {
            let mut next = game.clone();
            let fixed = match next.play_move(mv) {
                Ok(_) => next.outcome().map(|o| match o.result {
                    crate::game::GameResult::Win { ref winners } => {
                        if winners.contains(&seat_of(mover)) {
                            MATE - 1
                        } else {
                            -(MATE - 2)
                        }
                    }
                    _ => 0,
                }),
                Err(_) => continue,
            };
            roots.push(Root {
                mv,
                score: -INF,
                fixed,
                noise: 0,
            });
        }
        roots
    }

    fn set_noise(roots: &mut [Root], style: &Style, hash: u64) {
        if style.noise <= 0 {
            return;
        }
        for r in roots {
            let x = splitmix(
                style.seed ^ hash ^ ((r.mv.from.index() as u64) << 8 | r.mv.to.index() as u64),
            );
            let span = 2 * style.noise as u64 + 1;
            r.noise = (x % span) as i32 - style.noise;
        }
    }

    fn aspiration(&mut self, roots: &mut [Root], depth: i32, guess: i32) -> i32 {
        let mut delta = 40;
        let (mut alpha, mut beta) = (guess - delta, guess + delta);
        loop {
            let v = self.root(roots, depth, alpha, beta);
            if self.stopped {
                return v;
            }
            if v <= alpha {
                alpha = (alpha - delta).max(-INF);
            } else if v >= beta {
                beta = (beta + delta).min(INF);
            } else {
                return v;
            }
            delta *= 2;
            if delta > 1000 {
                alpha = -INF;
                beta = INF;
            }
        }
    }

    /// One iteration at the root. With noise (the weaker levels) every move gets an exact
    /// score, so that the noise can reorder them.
    fn root(&mut self, roots: &mut [Root], depth: i32, mut alpha: i32, beta: i32) -> i32 {
        let exact_all = roots.iter().any(|r| r.noise != 0);
        let mut best = -INF;
        for i in 0..roots.len() {
            let mv = roots[i].mv;
            let v = if let Some(fixed) = roots[i].fixed {
                fixed
            } else {
                let undo = self.make(mv);
                let gives_check = self.pos.in_check(self.pos.side_to_move());
                let ext = i32::from(gives_check);
                let v = if exact_all {
                    -self.pvs(depth - 1 + ext, 1, -INF, INF, true)
                } else if i == 0 {
                    -self.pvs(depth - 1 + ext, 1, -beta, -alpha, true)
                } else {
                    let mut v = -self.pvs(depth - 1 + ext, 1, -alpha - 1, -alpha, true);
                    if v > alpha && v < beta {
                        v = -self.pvs(depth - 1 + ext, 1, -beta, -alpha, true);
                    }
                    v
                };
                self.unmake(mv, undo);
                v
            };
            if self.stopped {
                // Keep the last scores of the moves whose search did not finish.
                break;
            }
            let v = v + roots[i].noise;
            roots[i].score = v;
            if v > best {
                best = v;
            }
            if !exact_all && v > alpha {
                alpha = v;
                // The new best first, so that the next iteration starts with it.
                roots[..=i].rotate_right(1);
                let root_hash = self.pos.hash();
                let bound = if v >= beta {
                    Bound::Lower
                } else {
                    Bound::Exact
                };
                self.tt.store(root_hash, mv, tt::to_tt(v, 0), depth, bound);
                if v >= beta {
                    break;
                }
            }
            if self.stopped {
                break;
            }
        }
        if exact_all {
            roots.sort_by_key(|r| -r.score);
        }
        best
    }

    /// The principal variation from the table, starting with `first`.
    fn pv_from(&mut self, first: Move) -> Vec<Move> {
        let mut pv = vec![first];
        let mut p = self.pos.clone();
        p.play_unchecked(first);
        let mut seen = vec![p.hash()];
        while pv.len() < 32 {
            let Some(entry) = self.tt.probe(p.hash()) else {
                break;
            };
            let m = entry.mv;
            if m == NONE || !p.is_legal(m) {
                break;
            }
            p.play_unchecked(m);
            if seen.contains(&p.hash()) {
                pv.push(m);
                break;
            }
            seen.push(p.hash());
            pv.push(m);
        }
        pv
    }

    #[inline]
    fn make(&mut self, m: Move) -> Undo {
        let (from, to) = (m.from.index(), m.to.index());
        let piece = self.pos.board[from] as usize;
        let captured = self.pos.board[to] as usize;
        self.psq += eval::PSQ[piece][to] - eval::PSQ[piece][from] - eval::PSQ[captured][to];
        if let Some(net) = &self.net {
            let top = self.top;
            if top + 1 == self.accs.len() {
                self.accs.push(self.accs[top]);
            }
            let (below, above) = self.accs.split_at_mut(top + 1);
            net.update(&below[top], &mut above[0], &self.pos, m);
            self.top = top + 1;
        }
        self.moves.push(m);
        let undo = self.pos.make(m);
        self.hashes.push(self.pos.hash());
        undo
    }

    #[inline]
    fn unmake(&mut self, m: Move, undo: Undo) {
        self.pos.unmake(m, undo);
        self.hashes.pop();
        self.moves.pop();
        if self.net.is_some() {
            self.top -= 1;
        }
        let (from, to) = (m.from.index(), m.to.index());
        let piece = self.pos.board[from] as usize;
        let captured = undo.captured as usize;
        self.psq -= eval::PSQ[piece][to] - eval::PSQ[piece][from] - eval::PSQ[captured][to];
    }

    fn make_null(&mut self) {
        let side = self.pos.side_to_move();
        self.pos.set_side(side.other());
        self.moves.push(NONE);
        self.hashes.push(self.pos.hash());
    }

    fn unmake_null(&mut self) {
        let side = self.pos.side_to_move();
        self.pos.set_side(side.other());
        self.moves.pop();
        self.hashes.pop();
    }

    /// Nodes searched by every thread (this one's alone when it searches alone).
    fn all_nodes(&self) -> u64 {
        match self.shared_nodes {
            Some(shared) => shared.load(Ordering::Relaxed) + (self.nodes & 1023),
            None => self.nodes,
        }
    }

    /// Checks the clock, the node count and the flag every 1,024 nodes.
    #[inline]
    fn poll(&mut self) {
        if self.nodes & 1023 != 0 {
            return;
        }
        if let Some(shared) = self.shared_nodes {
            shared.fetch_add(1024, Ordering::Relaxed);
        }
        if !self.can_stop {
            return;
        }
        if self.stop.load(Ordering::Relaxed)
            || self.done.is_some_and(|d| d.load(Ordering::Relaxed))
            || self.node_limit.is_some_and(|n| self.nodes >= n)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.stopped = true;
        }
    }

    /// The verdict on a position seen before: on the path since the last capture or null
    /// move, every second ply back.
    fn repetition(&self, ply: usize) -> Option<i32> {
        let n = self.hashes.len() - 1;
        let h = self.hashes[n];
        let mut i = n;
        while i >= 2 {
            if self.moves[i - 1] == NONE || self.moves[i - 2] == NONE {
                return None;
            }
            i -= 2;
            if self.hashes[i] == h {
                let verdict = judge_cycle(&self.pos, &self.moves[i..n], self.chase_loses);
                return Some(match verdict {
                    CycleVerdict::Draw => 0,
                    CycleVerdict::MoverLoses => -(RULE_WIN - ply as i32),
                    CycleVerdict::MoverWins => RULE_WIN - ply as i32,
                });
            }
        }
        None
    }

    fn evaluate(&self) -> i32 {
        match &self.net {
            Some(net) => net.evaluate(&self.accs[self.top], self.pos.side_to_move()),
            None => eval::evaluate(&self.pos, self.psq),
        }
    }

    /// Scores moves for ordering: the table's move, captures (most valuable victim, least
    /// valuable attacker), the killers, then quiet moves by history.
    fn score_moves(&self, list: &MoveList, tt_move: Move, ply: usize, out: &mut [i32; 192]) {
        let b = &self.pos.board;
        for (slot, &m) in out.iter_mut().zip(list.as_slice()) {
            let victim = b[m.to.index()];
            let attacker = b[m.from.index()];
            *slot = if m == tt_move {
                1 << 30
            } else if victim != 0 {
                (1 << 28) + eval::VALUE[(victim & 7) as usize] * 16
                    - eval::VALUE[(attacker & 7) as usize] / 16
            } else if m == self.killers[ply][0] {
                1 << 27
            } else if m == self.killers[ply][1] {
                (1 << 27) - 1
            } else {
                self.history[attacker as usize][m.to.index()]
            };
        }
    }

    /// True if the capture `m` gives up a more valuable piece for a defended one.
    fn bad_capture(&self, m: Move) -> bool {
        let b = &self.pos.board;
        let attacker = eval::VALUE[(b[m.from.index()] & 7) as usize];
        let victim = eval::VALUE[(b[m.to.index()] & 7) as usize];
        attacker > victim + 50
            && self
                .pos
                .attacked_by(m.to.index(), self.pos.side_to_move().other())
    }

    fn pvs(&mut self, depth: i32, ply: usize, mut alpha: i32, mut beta: i32, null_ok: bool) -> i32 {
        if depth <= 0 {
            return if self.quiescence {
                self.qsearch(ply, alpha, beta, 0)
            } else {
                self.evaluate()
            };
        }
        self.nodes += 1;
        self.poll();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if let Some(v) = self.repetition(ply) {
            return v;
        }
        if ply >= MAX_PLY {
            return self.evaluate();
        }
        // Mate-distance pruning.
        alpha = alpha.max(-(MATE - ply as i32));
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        let pv_node = beta - alpha > 1;
        let hash = self.pos.hash();
        let mut tt_move = NONE;
        if let Some(e) = self.tt.probe(hash) {
            tt_move = e.mv;
            if !pv_node && e.depth >= depth {
                let v = tt::from_tt(e.score, ply);
                let hit = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => v >= beta,
                    Bound::Upper => v <= alpha,
                };
                if hit {
                    return v;
                }
            }
        }
        let us = self.pos.side_to_move();
        let in_check = self.pos.in_check(us);
        let stand = if in_check { -INF } else { self.evaluate() };

        // Reverse futility: far enough above beta that no quiet reply brings it back.
        if !pv_node
            && !in_check
            && depth <= 6
            && beta.abs() < MATE_BOUND
            && stand - 90 * depth >= beta
        {
            return stand;
        }

        // Null move: give the opponent a free move; if we are still above beta, a real move
        // would be too. Not in check, not with only soldiers and defenders left (zugzwang).
        if null_ok
            && !pv_node
            && !in_check
            && depth >= 3
            && stand >= beta
            && self.pos.has_attackers(us)
            && major_pieces(&self.pos, us) >= 2
        {
            let r = 2 + depth / 4;
            self.make_null();
            let v = -self.pvs(depth - 1 - r, ply + 1, -beta, -beta + 1, false);
            self.unmake_null();
            if self.stopped {
                return 0;
            }
            if v >= beta {
                return if v > MATE_BOUND { beta } else { v };
            }
        }

        // No table move this deep: search a ply shallower (the table fills for next time).
        let depth = if tt_move == NONE && depth >= 6 {
            depth - 1
        } else {
            depth
        };
        let mut list = MoveList::new();
        self.pos.pseudo_moves(&mut list);
        let mut scores = [0i32; 192];
        self.score_moves(&list, tt_move, ply, &mut scores);
        let count = list.as_slice().len();
        let mut best = -INF;
        let mut best_move = NONE;
        let mut legal = 0;
        let original_alpha = alpha;
        let exposure = Exposure::new(&self.pos, us);
        let futile = !pv_node && !in_check && depth <= 3 && stand + 120 + 100 * depth <= alpha;
        let mut quiets = 0;
        for index in 0..count {
            let m = pick(&mut list, &mut scores, index, count);
            let capture = self.pos.board[m.to.index()] != 0;
            let killer = m == self.killers[ply][0] || m == self.killers[ply][1];
            let test = in_check || exposure.may_expose(m);
            let undo = self.make(m);
            if test && self.pos.in_check(us) {
                self.unmake(m, undo);
                continue;
            }
            legal += 1;
            let gives_check = self.pos.in_check(us.other());
            if !capture {
                quiets += 1;
            }
            // Quiet moves that cannot matter: far below alpha near the leaves, or late in
            // a shallow node's list.
            let late = !pv_node && !in_check && depth <= 3 && quiets > 4 + 3 * depth * depth;
            if legal > 1
                && !capture
                && !gives_check
                && !killer
                && best > -MATE_BOUND
                && (futile || late)
            {
                self.unmake(m, undo);
                continue;
            }
            let ext = i32::from(gives_check);
            let new_depth = depth - 1 + ext;
            let v = if legal == 1 {
                -self.pvs(new_depth, ply + 1, -beta, -alpha, true)
            } else {
                // Late quiet moves are searched shallower first.
                let reduce = if depth >= 3 && index >= 3 && !capture && !in_check && !gives_check {
                    let r = reduction(depth, index);
                    if pv_node { (r - 1).max(0) } else { r }
                } else {
                    0
                };
                let mut v = -self.pvs(new_depth - reduce, ply + 1, -alpha - 1, -alpha, true);
                if v > alpha && reduce > 0 {
                    v = -self.pvs(new_depth, ply + 1, -alpha - 1, -alpha, true);
                }
                if v > alpha && v < beta {
                    v = -self.pvs(new_depth, ply + 1, -beta, -alpha, true);
                }
                v
            };
            self.unmake(m, undo);
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                best_move = m;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        if !capture {
                            let k = &mut self.killers[ply];
                            if k[0] != m {
                                k[1] = k[0];
                                k[0] = m;
                            }
                            let piece = self.pos.board[m.from.index()] as usize;
                            let h = &mut self.history[piece][m.to.index()];
                            *h += depth * depth;
                            if *h > 1 << 20 {
                                for row in self.history.iter_mut() {
                                    for v in row.iter_mut() {
                                        *v /= 2;
                                    }
                                }
                            }
                        }
                        break;
                    }
                }
            }
        }
        if legal == 0 {
            // Checkmated or stalemated: either loses in Xiangqi.
            return -(MATE - ply as i32);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(hash, best_move, tt::to_tt(best, ply), depth, bound);
        best
    }

    /// Captures until the position is quiet (every evasion when in check).
    fn qsearch(&mut self, ply: usize, mut alpha: i32, beta: i32, qply: u32) -> i32 {
        self.nodes += 1;
        self.poll();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY {
            return self.evaluate();
        }
        let us = self.pos.side_to_move();
        let checked = self.pos.in_check(us);
        // Evasions only so deep; past that a position in check stands as it is.
        let in_check = qply < 6 && checked;
        let mut best = -INF;
        let stand = self.evaluate();
        if !in_check {
            if stand >= beta {
                return stand;
            }
            if stand > alpha {
                alpha = stand;
            }
            best = stand;
        }
        let mut all = MoveList::new();
        self.pos.pseudo_moves(&mut all);
        let mut list = MoveList::new();
        let b = &self.pos.board;
        for &m in all.as_slice() {
            if in_check || b[m.to.index()] != 0 {
                list.push_move(m);
            }
        }
        let mut scores = [0i32; 192];
        self.score_moves(&list, NONE, ply.min(MAX_PLY), &mut scores);
        let count = list.as_slice().len();
        let exposure = Exposure::new(&self.pos, us);
        let mut legal = 0;
        for index in 0..count {
            let m = pick(&mut list, &mut scores, index, count);
            let victim = self.pos.board[m.to.index()];
            // Delta pruning: even winning this piece cannot lift the score to alpha; and a
            // capture that gives up more than it wins is left out.
            if !in_check
                && victim != 0
                && (stand + eval::VALUE[(victim & 7) as usize] + 200 <= alpha
                    || self.bad_capture(m))
            {
                continue;
            }
            let test = checked || exposure.may_expose(m);
            let undo = self.make(m);
            if test && self.pos.in_check(us) {
                self.unmake(m, undo);
                continue;
            }
            legal += 1;
            let v = -self.qsearch(ply + 1, -beta, -alpha, qply + 1);
            self.unmake(m, undo);
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        if in_check && legal == 0 {
            return -(MATE - ply as i32);
        }
        best
    }
}

/// Brings the best-scored of the moves from `index` on to `index` and returns it (a lazy
/// selection sort: a cut-off usually comes before the list is sorted).
#[inline]
fn pick(list: &mut MoveList, scores: &mut [i32; 192], index: usize, count: usize) -> Move {
    let mut best = index;
    for i in index + 1..count {
        if scores[i] > scores[best] {
            best = i;
        }
    }
    scores.swap(index, best);
    list.swap(index, best);
    list.as_slice()[index]
}

/// Chariots count 2, horses and cannons 1: what a side has that can still attack.
fn major_pieces(pos: &Position, color: Color) -> u8 {
    use super::board::Kind;
    2 * pos.count(color, Kind::Rook)
        + pos.count(color, Kind::Horse)
        + pos.count(color, Kind::Cannon)
}

/// How many plies a late quiet move is reduced by.
fn reduction(depth: i32, index: usize) -> i32 {
    let d = (depth as f32).ln();
    let i = (index as f32).ln();
    ((0.5 + d * i / 2.2) as i32).clamp(1, depth - 1)
}

#[cfg(test)]
mod tests;
