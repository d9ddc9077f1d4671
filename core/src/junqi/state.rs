//! The Junqi game state in its three modes: secret simultaneous deployment (referee and open),
//! or the authority's face-down deal (flip); moves, flips and battles; the flag shown when the
//! Field Marshal falls; and the ends of the game.

use super::board::{POINTS, Point};
use super::clues::{Fought, Ranks, Trace};
use super::deployment::{Deployment, letter, rank_of_letter};
use super::movegen::{Board, Move, MoveRules, Piece};
use super::pieces::{Battle, BattleRules, Rank, Side, battle};
use super::view::{JunqiEvent, JunqiView};
use crate::game::{
    Actor, Audience, EndReason, GameKind, IllegalMove, Outcome, Rules, SetupError, ToAct, Told,
    Viewer,
};
use crate::seat::Seat;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Who sees what, and how the game starts.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Visibility {
    /// A player never learns an opposing piece's identity (the default).
    #[default]
    Referee,
    /// Every piece is visible to everyone.
    Open,
    /// Flip (翻棋): the authority deals all 50 pieces face down; a turn turns one up or moves
    /// one of your own face-up pieces.
    Flip,
}

/// How flip mode gives each seat its colour.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FlipColours {
    /// The first piece turned up fixes the turner's colour (the default).
    #[default]
    FirstTurn,
    /// Players alternate until one turns up two of the same colour in a row; that colour is
    /// theirs. If the last face-down piece is turned without that happening, its turner takes
    /// its colour.
    TwoInARow,
}

/// House rules (../shared/RULES.md).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(default)]
pub struct JunqiOptions {
    /// Referee (default), open or flip.
    pub visibility: Visibility,
    /// The northern landmine rule: a landmine attacked by anything but an engineer or a bomb
    /// stays.
    pub landmine_stays: bool,
    /// Pieces in camps cannot be attacked.
    pub camps_safe: bool,
    /// Bombs may move into the opponent's headquarters (referee and open modes).
    pub bombs_enter_headquarters: bool,
    /// Plies in a row without a battle (or, in flip mode, a flip) that make a draw; `None`:
    /// the mode's own, 70, or 40 in flip mode.
    pub quiet_plies: Option<u32>,
    /// Flip mode: how colours are given.
    pub flip_colours: FlipColours,
    /// Flip mode: pieces dealt into a headquarters never move (default: they may).
    pub headquarters_locked: bool,
    /// Flip mode: any piece may attack a landmine and dies with it (default); off: only
    /// Engineers and Bombs may attack one.
    pub landmines_attackable: bool,
}

impl Default for JunqiOptions {
    fn default() -> Self {
        JunqiOptions {
            visibility: Visibility::Referee,
            landmine_stays: false,
            camps_safe: true,
            bombs_enter_headquarters: true,
            quiet_plies: None,
            flip_colours: FlipColours::FirstTurn,
            headquarters_locked: false,
            landmines_attackable: true,
        }
    }
}

/// Returns the movement rules these options set.
pub(crate) fn move_rules(options: &JunqiOptions) -> MoveRules {
    options.move_rules()
}

/// Returns the battle rules these options set.
pub(crate) fn battle_rules(options: &JunqiOptions) -> BattleRules {
    options.battle_rules()
}

impl JunqiOptions {
    fn flip(&self) -> bool {
        self.visibility == Visibility::Flip
    }

    fn move_rules(&self) -> MoveRules {
        let flip = self.flip();
        MoveRules {
            camps_safe: self.camps_safe,
            // In flip mode either side's pieces may stand anywhere: no headquarters is "the
            // opponent's".
            bombs_enter_headquarters: self.bombs_enter_headquarters || flip,
            flip,
            landmines_attackable: self.landmines_attackable || !flip,
        }
    }

    fn battle_rules(&self) -> BattleRules {
        BattleRules {
            landmine_stays: self.landmine_stays,
        }
    }

    /// Returns the number of quiet plies that make a draw under these options.
    pub fn quiet_limit(&self) -> u32 {
        self.quiet_plies
            .unwrap_or(if self.flip() { 40 } else { 70 })
    }
}

/// Junqi starts from nothing: both deployments are actions, made in secret.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct JunqiSetup {}

/// A Junqi action: a deployment (`deploy:` and its 25-character text), the authority's deal
/// in flip mode (`deal:` and 100 characters), turning a piece up (`flip:c5`) or a move
/// (`a1a5`).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum JunqiMove {
    /// A seat's secret deployment, in the text of [`Deployment::to_text`].
    Deploy(String),
    /// The authority's deal (flip mode): for each of the 50 points that is not a camp, in
    /// point order (`a0`, `a1`, … `e11`), `s` or `n` for the side and the piece's letter as in
    /// a deployment (`1`–`9`, `B`, `L`, `F`).
    Deal(String),
    /// Turns a face-down piece up (flip mode).
    Flip(Point),
    /// A move or attack.
    Go(Move),
}

impl fmt::Display for JunqiMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JunqiMove::Deploy(text) => write!(f, "deploy:{text}"),
            JunqiMove::Deal(text) => write!(f, "deal:{text}"),
            JunqiMove::Flip(p) => write!(f, "flip:{p}"),
            JunqiMove::Go(m) => m.fmt(f),
        }
    }
}

impl FromStr for JunqiMove {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        let text = text.trim();
        if let Some(layout) = text.strip_prefix("deploy:") {
            Ok(JunqiMove::Deploy(layout.to_owned()))
        } else if let Some(deal) = text.strip_prefix("deal:") {
            Ok(JunqiMove::Deal(deal.to_owned()))
        } else if let Some(point) = text.strip_prefix("flip:") {
            point.parse().map(JunqiMove::Flip)
        } else {
            text.parse().map(JunqiMove::Go)
        }
    }
}

/// The 50 points a flip-mode deal covers, in the order its text lists them.
fn deal_points() -> impl Iterator<Item = Point> {
    Point::all().filter(|p| !p.is_camp())
}

/// Writes a flip-mode deal: the pieces in [`deal_points`] order.
fn deal_text(pieces: &[Piece]) -> String {
    pieces
        .iter()
        .flat_map(|p| {
            [
                if p.side == Side::South { 's' } else { 'n' },
                letter(p.rank),
            ]
        })
        .collect()
}

/// Reads a flip-mode deal, checking that it holds both full sets of 25.
fn read_deal(text: &str) -> Result<Vec<(Point, Piece)>, String> {
    let chars: Vec<char> = text.chars().collect();
    let points: Vec<Point> = deal_points().collect();
    if chars.len() != 2 * points.len() {
        return Err(format!(
            "a deal has {} characters, not {}",
            2 * points.len(),
            chars.len()
        ));
    }
    let mut dealt = Vec::with_capacity(points.len());
    for (p, pair) in points.into_iter().zip(chars.chunks(2)) {
        let side = match pair[0] {
            's' => Side::South,
            'n' => Side::North,
            c => return Err(format!("{c:?} is not a side (s or n)")),
        };
        let rank = rank_of_letter(pair[1])
            .ok_or_else(|| format!("{:?} is not a piece (1-9, B, L, F)", pair[1]))?;
        dealt.push((p, Piece { side, rank }));
    }
    for side in [Side::South, Side::North] {
        for rank in Rank::ALL {
            let n = dealt
                .iter()
                .filter(|(_, piece)| *piece == Piece { side, rank })
                .count();
            if n != rank.count() {
                return Err(format!(
                    "the deal has {n} of {side:?}'s {rank:?}, not {}",
                    rank.count()
                ));
            }
        }
    }
    Ok(dealt)
}

/// The 50 pieces of both sides, in a fixed order.
pub(crate) fn full_sets() -> Vec<Piece> {
    [Side::South, Side::North]
        .into_iter()
        .flat_map(|side| {
            Rank::ALL
                .into_iter()
                .flat_map(move |rank| std::iter::repeat_n(Piece { side, rank }, rank.count()))
        })
        .collect()
}

/// Returns the seat that plays a side in referee and open modes (South moves first). In flip
/// mode colours are given by the first flips: see [`Junqi::seat_of_side`].
pub const fn seat_of(side: Side) -> Seat {
    match side {
        Side::South => Seat::FIRST,
        Side::North => Seat::SECOND,
    }
}

/// Returns the side a seat deploys in referee and open modes: the inverse of [`seat_of`].
const fn home_side(seat: Seat) -> Side {
    if seat.index() == 0 {
        Side::South
    } else {
        Side::North
    }
}

/// The authoritative state: every piece's identity. Never serialized; see [`JunqiView`].
#[derive(Clone, Debug)]
pub struct Junqi {
    pub(crate) options: JunqiOptions,
    pub(crate) deployments: [Option<Deployment>; 2],
    pub(crate) board: Board,
    pub(crate) to_move: Seat,
    pub(crate) quiet: u32,
    /// A side whose Field Marshal has fallen shows its flag.
    pub(crate) flag_shown: [bool; 2],
    pub(crate) outcome: Option<Outcome>,
    pub(crate) plies: usize,
    /// The side the first seat plays: fixed from the start, except in flip mode.
    pub(crate) first_seat_side: Option<Side>,
    /// Flip mode: the authority has dealt.
    pub(crate) dealt: bool,
    /// Flip mode: the colour each seat turned up last, while colours are open.
    last_flip: [Option<Side>; 2],
    /// The last move or flip, with the pieces that stood on its points (shown to each viewer
    /// as far as it may know them).
    pub(crate) last: Option<LastPlay>,
    /// Every piece removed in battle, in the order it fell (shown to each viewer as far as it
    /// may know them: the battle panel).
    pub(crate) lost: Vec<Piece>,
    /// What has been seen of the piece on each point (referee and open modes, once both
    /// sides have deployed): see [`super::clues`].
    pub(crate) traces: Vec<Option<Trace>>,
    /// What had been seen of each piece in `lost`, in the same order.
    pub(crate) lost_traces: Vec<Trace>,
}

/// The last move or flip as the authority knows it.
#[derive(Clone, Debug)]
pub(crate) struct LastPlay {
    pub(crate) event: JunqiEvent,
    /// The piece that moved (none for a flip).
    pub(crate) mover: Option<Piece>,
    /// The piece it attacked, if any.
    pub(crate) defender: Option<Piece>,
}

impl Junqi {
    /// Returns true while the seats are still deploying (never in flip mode).
    pub fn deploying(&self) -> bool {
        !self.flip() && self.deployments.iter().any(Option::is_none)
    }

    /// Returns true in flip mode.
    pub fn flip(&self) -> bool {
        self.options.visibility == Visibility::Flip
    }

    /// Returns true in flip mode until the authority has dealt.
    pub fn awaiting_deal(&self) -> bool {
        self.flip() && !self.dealt
    }

    /// Returns the board (every identity: for the authority only).
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Returns the seat to move once the game is under way.
    pub fn seat_to_move(&self) -> Seat {
        self.to_move
    }

    /// Returns the side a seat plays, once known (in flip mode, after the colours are fixed).
    pub fn side_of_seat(&self, seat: Seat) -> Option<Side> {
        let first = self.first_seat_side?;
        match seat.index() {
            0 => Some(first),
            1 => Some(first.other()),
            _ => None,
        }
    }

    /// Returns the seat that plays a side, once known.
    pub fn seat_of_side(&self, side: Side) -> Option<Seat> {
        let first = self.first_seat_side?;
        Some(if side == first {
            Seat::FIRST
        } else {
            Seat::SECOND
        })
    }

    /// Returns the deployment a side has made, if any (for the authority and for reviewing a
    /// finished game).
    pub fn deployment(&self, side: Side) -> Option<&Deployment> {
        self.deployments[side as usize].as_ref()
    }

    /// Returns the options.
    pub fn junqi_options(&self) -> &JunqiOptions {
        &self.options
    }

    /// Returns true if this side's flag has been shown (its Field Marshal fell).
    pub fn flag_shown(&self, side: Side) -> bool {
        self.flag_shown[side as usize]
    }

    fn deploy(&mut self, side: Side, text: &str) -> Result<Vec<Told<JunqiEvent>>, IllegalMove> {
        if self.flip() {
            return Err(IllegalMove::Other(
                "flip mode has no deployment: the authority deals".into(),
            ));
        }
        if self.deployments[side as usize].is_some() {
            return Err(IllegalMove::Other("this side has already deployed".into()));
        }
        let d = Deployment::from_text(side, text).map_err(IllegalMove::Other)?;
        d.validate().map_err(|problems| {
            let list: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
            IllegalMove::Other(list.join("; "))
        })?;
        self.deployments[side as usize] = Some(d);
        if let [Some(a), Some(b)] = &self.deployments {
            self.board = Board::from_deployments(a, b);
            self.traces = Point::all()
                .map(|p| self.board.get(p).map(|_| Trace::new(p)))
                .collect();
        }
        Ok(vec![Told {
            audience: Audience::Everyone,
            event: JunqiEvent::Deployed {
                seat: seat_of(side),
            },
        }])
    }

    fn deal(&mut self, text: &str) -> Result<Vec<Told<JunqiEvent>>, IllegalMove> {
        if !self.awaiting_deal() {
            return Err(IllegalMove::Other("there is nothing to deal".into()));
        }
        let dealt = read_deal(text).map_err(IllegalMove::Other)?;
        let mut board = Board::default();
        for (p, piece) in dealt {
            board.set(p, Some(piece));
            board.set_face_down(p, true);
            if p.is_headquarters() && !self.options.headquarters_locked {
                board.set_free(p, true);
            }
        }
        self.board = board;
        self.dealt = true;
        Ok(vec![Told {
            audience: Audience::Everyone,
            event: JunqiEvent::Dealt,
        }])
    }

    /// Turns a face-down piece up; while colours are open, this may fix them.
    fn turn_up(&mut self, seat: Seat, p: Point) -> Result<Vec<Told<JunqiEvent>>, IllegalMove> {
        if !self.flip() {
            return Err(IllegalMove::Other("only flip mode turns pieces up".into()));
        }
        let piece = match self.board.get(p) {
            None => return Err(IllegalMove::NoPiece),
            Some(_) if !self.board.is_face_down(p) => {
                return Err(IllegalMove::Other("that piece is already face up".into()));
            }
            Some(piece) => piece,
        };
        self.board.set_face_down(p, false);
        if self.first_seat_side.is_none() {
            let seat_side = piece.side;
            let fixes = match self.options.flip_colours {
                FlipColours::FirstTurn => true,
                FlipColours::TwoInARow => {
                    self.last_flip[seat.index()] == Some(seat_side)
                        || self
                            .board
                            .pieces()
                            .all(|(q, _)| !self.board.is_face_down(q))
                }
            };
            self.last_flip[seat.index()] = Some(seat_side);
            if fixes {
                self.first_seat_side = Some(if seat == Seat::FIRST {
                    seat_side
                } else {
                    seat_side.other()
                });
            }
        }
        self.quiet = 0;
        self.end_turn(seat);
        let event = JunqiEvent::Flipped {
            at: p.to_string(),
            side: piece.side,
            rank: piece.rank,
        };
        self.last = Some(LastPlay {
            event: event.clone(),
            mover: None,
            defender: None,
        });
        Ok(vec![Told {
            audience: Audience::Everyone,
            event,
        }])
    }

    fn go(&mut self, seat: Seat, m: Move) -> Result<Vec<Told<JunqiEvent>>, IllegalMove> {
        let side = self.side_of_seat(seat).ok_or_else(|| {
            IllegalMove::Other("turn a piece up first: your colour is not fixed yet".into())
        })?;
        let piece = match self.board.get(m.from) {
            None => return Err(IllegalMove::NoPiece),
            Some(_) if self.board.is_face_down(m.from) => {
                return Err(IllegalMove::Other("that piece lies face down".into()));
            }
            Some(p) if p.side != side => return Err(IllegalMove::NotYourPiece),
            Some(p) => p,
        };
        if !self
            .board
            .targets(m.from, self.options.move_rules())
            .contains(&m.to)
        {
            return Err(IllegalMove::CannotReach);
        }
        let defender = self.board.get(m.to);
        self.follow(m, piece, defender);
        self.board.set(m.from, None);
        let event = match defender {
            None => {
                self.board.set(m.to, Some(piece));
                self.quiet += 1;
                JunqiEvent::Moved { mv: m.to_string() }
            }
            Some(d) => {
                self.quiet = 0;
                let result = battle(piece.rank, d.rank, self.options.battle_rules());
                self.resolve(m, piece, d, result);
                let (attacker_removed, defender_removed) = match result {
                    Battle::AttackerWins | Battle::FlagTaken => (false, true),
                    Battle::DefenderWins => (true, false),
                    Battle::BothRemoved => (true, true),
                };
                // Open and flip modes fight face up; the referee tells nobody.
                let public = self.options.visibility != Visibility::Referee;
                JunqiEvent::Battle {
                    mv: m.to_string(),
                    attacker_removed,
                    defender_removed,
                    attacker: public.then_some(piece.rank),
                    defender: public.then_some(d.rank),
                }
            }
        };
        self.end_turn(seat);
        self.last = Some(LastPlay {
            event: event.clone(),
            mover: Some(piece),
            defender,
        });
        Ok(vec![Told {
            audience: Audience::Everyone,
            event,
        }])
    }

    /// Moves the trace of the piece on `m.from` along, noting what the move showed: that it
    /// moves, and whether only an engineer could have gone there; a battle is noted on both
    /// pieces' traces (`resolve` then retires the fallen ones).
    fn follow(&mut self, m: Move, piece: Piece, defender: Option<Piece>) {
        if self.traces.len() != POINTS {
            return;
        }
        let mut probe = self.board.clone();
        probe.set(
            m.from,
            Some(Piece {
                side: piece.side,
                rank: Rank::Captain,
            }),
        );
        let engineer = !probe
            .targets(m.from, self.options.move_rules())
            .contains(&m.to);
        let mut trace = self.traces[m.from.index()].take();
        if let Some(t) = trace.as_mut() {
            t.moved = true;
            t.engineer |= engineer;
        }
        if let Some(d) = defender {
            let result = battle(piece.rank, d.rank, self.options.battle_rules());
            if let Some(t) = trace.as_mut() {
                t.fights.push(Fought {
                    foe: d.rank,
                    attacked: true,
                    result,
                });
            }
            if let Some(t) = self.traces[m.to.index()].as_mut() {
                t.fights.push(Fought {
                    foe: piece.rank,
                    attacked: false,
                    result,
                });
            }
        }
        // Until `resolve` says otherwise, the mover stands on `m.to` and the defender's trace
        // waits on `m.from`'s slot.
        let defender_trace = std::mem::replace(&mut self.traces[m.to.index()], trace);
        self.traces[m.from.index()] = defender_trace;
    }

    /// Retires the traces of the pieces a battle at `m` removed, in `lost`'s order, and puts
    /// the winner's on `m.to`.
    fn retire(&mut self, m: Move, result: Battle) {
        if self.traces.len() != POINTS {
            return;
        }
        let attacker = self.traces[m.to.index()].take();
        let defender = self.traces[m.from.index()].take();
        let fallen = match result {
            Battle::AttackerWins | Battle::FlagTaken => {
                self.traces[m.to.index()] = attacker;
                vec![defender]
            }
            Battle::DefenderWins => {
                self.traces[m.to.index()] = defender;
                vec![attacker]
            }
            Battle::BothRemoved => vec![attacker, defender],
        };
        self.lost_traces.extend(fallen.into_iter().flatten());
    }

    fn end_turn(&mut self, mover: Seat) {
        self.plies += 1;
        self.to_move = mover.next(2);
        self.judge(mover);
    }

    fn resolve(&mut self, m: Move, attacker: Piece, defender: Piece, result: Battle) {
        let mut removed = Vec::new();
        match result {
            Battle::AttackerWins | Battle::FlagTaken => {
                self.board.set(m.to, Some(attacker));
                removed.push(defender);
            }
            Battle::DefenderWins => removed.push(attacker),
            Battle::BothRemoved => {
                self.board.set(m.to, None);
                removed.extend([attacker, defender]);
            }
        }
        self.lost.extend(&removed);
        self.retire(m, result);
        // Flip mode has no showing of flags: a face-down flag is unknown to its owner too.
        let first_fallen = self.lost_traces.len().saturating_sub(removed.len());
        for (i, piece) in removed.into_iter().enumerate() {
            if piece.rank == Rank::FieldMarshal && !self.flip() {
                self.flag_shown[piece.side as usize] = true;
                // The flag showing tells everyone which piece that was.
                if let Some(t) = self.lost_traces.get_mut(first_fallen + i) {
                    t.marshal = true;
                }
            }
        }
        if result == Battle::FlagTaken
            && let Some(winner) = self.seat_of_side(attacker.side)
        {
            self.outcome = Some(Outcome::win(winner, EndReason::FlagCaptured));
        }
    }

    /// Returns true if this seat has a legal game move: a flip, or a move of its own pieces.
    fn can_act(&self, seat: Seat) -> bool {
        if self.flip() && self.board.pieces().any(|(p, _)| self.board.is_face_down(p)) {
            return true;
        }
        self.side_of_seat(seat)
            .is_some_and(|side| !self.board.moves(side, self.options.move_rules()).is_empty())
    }

    /// Ends the game if the seat now to move cannot act, or the quiet plies ran out.
    fn judge(&mut self, mover: Seat) {
        if self.outcome.is_some() {
            return;
        }
        if !self.can_act(self.to_move) {
            self.outcome = Some(if self.can_act(mover) {
                Outcome::win(mover, EndReason::Stalemate)
            } else {
                Outcome::draw(EndReason::Stalemate)
            });
        } else if self.quiet >= self.options.quiet_limit() {
            self.outcome = Some(Outcome::draw(EndReason::MoveLimit));
        }
    }

    /// Returns the piece's kind if `viewer` may know it: once the game is over, everything;
    /// in flip mode, every face-up piece and no face-down one; otherwise its own pieces, a shown
    /// flag, and everything in open mode.
    pub(crate) fn visible_rank(&self, viewer: Viewer, at: Point, piece: Piece) -> Option<Rank> {
        if self.outcome.is_some() {
            return Some(piece.rank);
        }
        if self.flip() {
            return (!self.board.is_face_down(at)).then_some(piece.rank);
        }
        let own = matches!(viewer, Viewer::Seat(s) if self.side_of_seat(s) == Some(piece.side));
        let revealed = piece.rank == Rank::Flag && self.flag_shown[piece.side as usize];
        (own || revealed || self.options.visibility == Visibility::Open).then_some(piece.rank)
    }

    /// Referee mode: the kinds `viewer` (a seat) can tell the unknown piece of `side` on `at`
    /// can be; `None` for a spectator, in the other modes, or before the deployments.
    pub(crate) fn could_be(&self, viewer: Viewer, at: Point, side: Side) -> Option<Ranks> {
        let Viewer::Seat(seat) = viewer else {
            return None;
        };
        if self.options.visibility != Visibility::Referee || self.side_of_seat(seat) == Some(side) {
            return None;
        }
        let trace = self.traces.get(at.index())?.as_ref()?;
        Some(trace.could_be(side, self.options.battle_rules()))
    }

    /// Referee mode, for a seat: what each lost piece can have been, in `lost`'s order.
    pub(crate) fn lost_clues(&self, viewer: Viewer) -> [Vec<Ranks>; 2] {
        let mut clues: [Vec<Ranks>; 2] = [Vec::new(), Vec::new()];
        let Viewer::Seat(seat) = viewer else {
            return clues;
        };
        let Some(own) = self.side_of_seat(seat) else {
            return clues;
        };
        if self.options.visibility != Visibility::Referee || self.outcome.is_some() {
            return clues;
        }
        for (piece, trace) in self.lost.iter().zip(&self.lost_traces) {
            clues[piece.side as usize].push(if piece.side == own {
                Ranks::only(piece.rank)
            } else {
                trace.could_be(piece.side, self.options.battle_rules())
            });
        }
        clues
    }

    /// Deals from `pick` (which returns a uniform index below its argument): a Fisher–Yates
    /// shuffle of both sets onto the 50 points that are not camps.
    fn shuffled_deal(pick: &mut dyn FnMut(usize) -> usize) -> String {
        let mut pieces = full_sets();
        for i in (1..pieces.len()).rev() {
            let j = pick(i + 1).min(i);
            pieces.swap(i, j);
        }
        deal_text(&pieces)
    }
}

impl Rules for Junqi {
    type Move = JunqiMove;
    type Options = JunqiOptions;
    type Setup = JunqiSetup;
    type View = JunqiView;
    type Event = JunqiEvent;

    const KIND: GameKind = GameKind::Junqi;
    /// Deployments and deals are secret: the record stays with the authority.
    const PUBLIC_ACTIONS: bool = false;

    fn start(options: &JunqiOptions, _setup: Option<&JunqiSetup>) -> Result<Self, SetupError> {
        if options.quiet_plies == Some(0) {
            return Err(SetupError {
                problems: vec!["quiet_plies must be at least 1".into()],
            });
        }
        let flip = options.visibility == Visibility::Flip;
        Ok(Junqi {
            options: options.clone(),
            deployments: [None, None],
            board: Board::default(),
            to_move: Seat::FIRST,
            quiet: 0,
            flag_shown: [false, false],
            outcome: None,
            plies: 0,
            first_seat_side: (!flip).then_some(Side::South),
            dealt: false,
            last_flip: [None, None],
            last: None,
            lost: Vec::new(),
            traces: Vec::new(),
            lost_traces: Vec::new(),
        })
    }

    fn setup(&self) -> JunqiSetup {
        JunqiSetup {}
    }

    fn options(&self) -> &JunqiOptions {
        &self.options
    }

    fn seat_count(&self) -> usize {
        2
    }

    fn to_act(&self) -> ToAct {
        if let Some(outcome) = &self.outcome {
            return ToAct::Over(outcome.clone());
        }
        if self.awaiting_deal() {
            return ToAct::Chance;
        }
        if self.deploying() {
            let seats: Vec<Seat> = [Side::South, Side::North]
                .into_iter()
                .filter(|s| self.deployments[*s as usize].is_none())
                .map(seat_of)
                .collect();
            return ToAct::Seats(seats);
        }
        ToAct::Seat(self.to_move)
    }

    /// During deployment: the classic layouts (any valid deployment is accepted). Then every
    /// flip and move of the seat to move. The authority's deal is not listed: there are too
    /// many; see [`Rules::chance`].
    fn legal_moves(&self, actor: Actor) -> Vec<JunqiMove> {
        let Actor::Seat(seat) = actor else {
            return Vec::new();
        };
        if seat.index() >= 2 || self.outcome.is_some() || self.awaiting_deal() {
            return Vec::new();
        }
        if self.deploying() {
            if self.deployments[home_side(seat) as usize].is_some() {
                return Vec::new();
            }
            return super::deployment::classic_names()
                .filter_map(Deployment::classic)
                .map(|d| JunqiMove::Deploy(d.to_text()))
                .collect();
        }
        if seat != self.to_move {
            return Vec::new();
        }
        let mut list: Vec<JunqiMove> = self
            .board
            .pieces()
            .filter(|(p, _)| self.board.is_face_down(*p))
            .map(|(p, _)| JunqiMove::Flip(p))
            .collect();
        if let Some(side) = self.side_of_seat(seat) {
            list.extend(
                self.board
                    .moves(side, self.options.move_rules())
                    .into_iter()
                    .map(JunqiMove::Go),
            );
        }
        list
    }

    fn play(&mut self, actor: Actor, mv: &JunqiMove) -> Result<Vec<Told<JunqiEvent>>, IllegalMove> {
        let seat = match (actor, mv) {
            (Actor::Authority, JunqiMove::Deal(text)) => return self.deal(text),
            (Actor::Authority, _) => {
                return Err(IllegalMove::Other("the authority only deals".into()));
            }
            (_, JunqiMove::Deal(_)) => {
                return Err(IllegalMove::Other("only the authority deals".into()));
            }
            (Actor::Seat(seat), _) if seat.index() < 2 => seat,
            (Actor::Seat(_), _) => return Err(IllegalMove::Other("no such seat".into())),
        };
        match mv {
            JunqiMove::Deploy(text) => self.deploy(home_side(seat), text),
            JunqiMove::Deal(_) => Err(IllegalMove::Other("only the authority deals".into())),
            JunqiMove::Go(_) | JunqiMove::Flip(_) if self.deploying() => {
                Err(IllegalMove::Other("both sides must deploy first".into()))
            }
            JunqiMove::Flip(p) => self.turn_up(seat, *p),
            JunqiMove::Go(m) => self.go(seat, *m),
        }
    }

    fn view(&self, viewer: Viewer) -> JunqiView {
        JunqiView::of(self, viewer)
    }

    /// Every piece shown, as when the flag is taken.
    fn concluded_view(&self, viewer: Viewer, outcome: &Outcome) -> JunqiView {
        if self.outcome.is_some() {
            return self.view(viewer);
        }
        let mut ended = self.clone();
        ended.outcome = Some(outcome.clone());
        JunqiView::of(&ended, viewer)
    }

    fn has_chance(&self) -> bool {
        self.flip()
    }

    fn chance(&self, pick: &mut dyn FnMut(usize) -> usize) -> Option<JunqiMove> {
        self.awaiting_deal()
            .then(|| JunqiMove::Deal(Self::shuffled_deal(pick)))
    }
}
