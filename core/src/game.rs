//! The contract every game implements, and the vocabulary the app and server share.

use crate::seat::Seat;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fmt::{self, Debug, Display};
use std::str::FromStr;

/// Names a game, as stored in records and sent over the wire.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum GameKind {
    /// Xiangqi, Chinese chess (象棋).
    Xiangqi,
    /// Junqi, land battle chess (军棋).
    Junqi,
    /// Aeroplane chess (飞行棋).
    Aeroplane,
    /// Sea-land-air battle chess (海陆空战棋).
    SeaLandAir,
}

impl GameKind {
    /// Every game, in the order the app lists them.
    pub const ALL: [GameKind; 4] = [
        GameKind::Xiangqi,
        GameKind::Junqi,
        GameKind::Aeroplane,
        GameKind::SeaLandAir,
    ];

    /// Returns the stable text name (`xiangqi`).
    pub fn as_str(self) -> &'static str {
        match self {
            GameKind::Xiangqi => "xiangqi",
            GameKind::Junqi => "junqi",
            GameKind::Aeroplane => "aeroplane",
            GameKind::SeaLandAir => "sea-land-air",
        }
    }
}

impl Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for GameKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "xiangqi" => Ok(GameKind::Xiangqi),
            "junqi" => Ok(GameKind::Junqi),
            "aeroplane" => Ok(GameKind::Aeroplane),
            "sea-land-air" => Ok(GameKind::SeaLandAir),
            _ => Err(format!("unknown game `{s}`")),
        }
    }
}

/// Who performs an action: a seat, or the authority (the referee that deals and rolls dice).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Actor {
    /// A player at the table.
    Seat(Seat),
    /// The authority: the server in a correspondence game, this device in pass-and-play.
    Authority,
}

/// The compact text form stores use: the seat's number (`0`), or `authority`.
impl Display for Actor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Actor::Seat(seat) => write!(f, "{}", seat.index()),
            Actor::Authority => f.write_str("authority"),
        }
    }
}

impl FromStr for Actor {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        if text == "authority" {
            return Ok(Actor::Authority);
        }
        let n: u8 = text
            .parse()
            .map_err(|_| format!("not an actor: {text:?}"))?;
        Seat::new(n)
            .map(Actor::Seat)
            .ok_or_else(|| format!("no seat {n}"))
    }
}

/// Who is looking: a seat sees its own secrets, a spectator sees only what is public.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Viewer {
    /// The player in this seat.
    Seat(Seat),
    /// Someone with no seat.
    Spectator,
}

/// Says who must act before the game can go on.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind", content = "who")]
pub enum ToAct {
    /// One seat moves.
    Seat(Seat),
    /// Several seats act secretly and at once (Junqi deployment); lists those still to act.
    Seats(Vec<Seat>),
    /// The authority must resolve chance (roll a die, deal) by playing one of its legal moves.
    Chance,
    /// The game has ended.
    Over(Outcome),
}

impl ToAct {
    /// Returns true if this actor is among those who must act now.
    pub fn includes(&self, actor: Actor) -> bool {
        match (self, actor) {
            (ToAct::Seat(s), Actor::Seat(a)) => *s == a,
            (ToAct::Seats(list), Actor::Seat(a)) => list.contains(&a),
            (ToAct::Chance, Actor::Authority) => true,
            _ => false,
        }
    }
}

/// How a game ended: who won (or a draw, or finishing places) and why.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Outcome {
    /// The result.
    pub result: GameResult,
    /// Why the game ended.
    pub reason: EndReason,
}

impl Outcome {
    /// Builds a win for one seat.
    pub fn win(winner: Seat, reason: EndReason) -> Self {
        Outcome {
            result: GameResult::Win {
                winners: vec![winner],
            },
            reason,
        }
    }

    /// Builds a draw.
    pub fn draw(reason: EndReason) -> Self {
        Outcome {
            result: GameResult::Draw,
            reason,
        }
    }

    /// Returns the winning seats (empty for a draw; the first place for a ranking).
    pub fn winners(&self) -> Vec<Seat> {
        match &self.result {
            GameResult::Win { winners } => winners.clone(),
            GameResult::Draw => Vec::new(),
            GameResult::Ranking { order } => order.first().copied().into_iter().collect(),
        }
    }
}

/// The result part of an [`Outcome`].
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum GameResult {
    /// These seats won; every other seat lost.
    Win {
        /// The winners.
        winners: Vec<Seat>,
    },
    /// Nobody won.
    Draw,
    /// Finishing places, first place first (Aeroplane chess).
    Ranking {
        /// Seats in finishing order.
        order: Vec<Seat>,
    },
}

/// Why a game ended. Shared by all games so that history and the server can show it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum EndReason {
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// The side to move is not in check and has no legal move (a loss in Xiangqi).
    Stalemate,
    /// A side repeated the position by checking every move, and loses.
    PerpetualCheck,
    /// A side repeated the position by chasing a piece every move, and loses.
    PerpetualChase,
    /// A position occurred for the third time with no one to blame.
    Repetition,
    /// Neither side has a piece that can cross the river.
    NoAttackers,
    /// The agreed number of plies passed without a capture.
    MoveLimit,
    /// A seat resigned.
    Resignation,
    /// The players agreed a draw.
    DrawAgreed,
    /// A seat let its deadline pass and the opponent claimed the win.
    Timeout,
    /// The flag was taken (Junqi).
    FlagCaptured,
    /// Every seat but the last brought all its planes home (Aeroplane chess).
    AllHome,
}

impl EndReason {
    /// Returns the stable text name (`perpetual-check`).
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::PerpetualCheck => "perpetual-check",
            EndReason::PerpetualChase => "perpetual-chase",
            EndReason::Repetition => "repetition",
            EndReason::NoAttackers => "no-attackers",
            EndReason::MoveLimit => "move-limit",
            EndReason::Resignation => "resignation",
            EndReason::DrawAgreed => "draw-agreed",
            EndReason::Timeout => "timeout",
            EndReason::FlagCaptured => "flag-captured",
            EndReason::AllHome => "all-home",
        }
    }
}

/// Says why a game move is illegal. Shared by all games; `code()` is stable for clients.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "code", content = "detail")]
#[non_exhaustive]
pub enum IllegalMove {
    /// There is no piece on the starting point.
    NoPiece,
    /// The piece on the starting point belongs to someone else.
    NotYourPiece,
    /// The piece cannot move that way.
    CannotReach,
    /// The move would leave (or put) the mover's own king in check, or face the kings.
    SelfCheck,
    /// The move is not among the legal moves for another reason, described here.
    Other(String),
}

impl IllegalMove {
    /// Returns the stable machine-readable code.
    pub fn code(&self) -> &'static str {
        match self {
            IllegalMove::NoPiece => "no-piece",
            IllegalMove::NotYourPiece => "not-your-piece",
            IllegalMove::CannotReach => "cannot-reach",
            IllegalMove::SelfCheck => "self-check",
            IllegalMove::Other(_) => "illegal",
        }
    }
}

impl Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::NoPiece => f.write_str("there is no piece on that point"),
            IllegalMove::NotYourPiece => f.write_str("that piece is not yours"),
            IllegalMove::CannotReach => f.write_str("that piece cannot move there"),
            IllegalMove::SelfCheck => f.write_str("that move leaves your own general in check"),
            IllegalMove::Other(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for IllegalMove {}

/// Says why a game cannot start from the given options and setup.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SetupError {
    /// Every problem found, not just the first.
    pub problems: Vec<String>,
}

impl Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid setup: {}", self.problems.join("; "))
    }
}

impl std::error::Error for SetupError {}

/// Pairs an event with the seats allowed to learn it.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct Told<E> {
    /// Who learns it.
    pub audience: Audience,
    /// What happened.
    pub event: E,
}

/// Who may learn an event.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Audience {
    /// Every seat and every spectator.
    Everyone,
    /// Only these seats.
    Seats(Vec<Seat>),
}

impl Audience {
    /// Returns true if this viewer may learn the event.
    pub fn admits(&self, viewer: Viewer) -> bool {
        match (self, viewer) {
            (Audience::Everyone, _) => true,
            (Audience::Seats(seats), Viewer::Seat(s)) => seats.contains(&s),
            (Audience::Seats(_), Viewer::Spectator) => false,
        }
    }
}

/// The rules of one game: what the [`Match`](crate::Match) wrapper drives.
///
/// A `Rules` value is the full, authoritative state. It deliberately does not implement
/// `Serialize`: what leaves the authority is [`Rules::view`], never the state itself.
pub trait Rules: Sized + Clone + Debug {
    /// A game move, with a stable text form (`Display` / `FromStr`).
    type Move: Clone + PartialEq + Debug + Display + FromStr<Err: Display>;
    /// House rules; `Default` is the standard game.
    type Options: Clone + Default + PartialEq + Debug + Serialize + DeserializeOwned;
    /// The initial position or deal, as stored in a record.
    type Setup: Clone + PartialEq + Debug + Serialize + DeserializeOwned;
    /// What one viewer may know.
    type View: Clone + Debug + Serialize;
    /// What happened in one move, to be told to its audience.
    type Event: Clone + Debug + Serialize;

    /// The game this is.
    const KIND: GameKind;
    /// Whether every action may be shown to every seat as recorded (no hidden information).
    /// Games with secrets set this to false; their records stay with the authority.
    const PUBLIC_ACTIONS: bool = true;

    /// Starts a game from options and an optional setup (`None`: the standard start).
    fn start(options: &Self::Options, setup: Option<&Self::Setup>) -> Result<Self, SetupError>;
    /// Returns the setup this game started from, so a record can replay it.
    fn setup(&self) -> Self::Setup;
    /// Returns the options this game is played under.
    fn options(&self) -> &Self::Options;
    /// Returns how many seats play.
    fn seat_count(&self) -> usize;
    /// Returns who must act next, or the outcome.
    fn to_act(&self) -> ToAct;
    /// Lists the moves this actor may make now (empty when it is not their turn).
    fn legal_moves(&self, actor: Actor) -> Vec<Self::Move>;
    /// Plays a move, returning what each audience learns, or why it is illegal.
    fn play(
        &mut self,
        actor: Actor,
        mv: &Self::Move,
    ) -> Result<Vec<Told<Self::Event>>, IllegalMove>;
    /// Returns what this viewer may know.
    fn view(&self, viewer: Viewer) -> Self::View;
    /// What `viewer` may know once the match has ended other than by a move (a resignation,
    /// an agreed draw, a timeout): games with secrets show everything then, as when a move
    /// ends them. The default is [`Rules::view`].
    fn concluded_view(&self, viewer: Viewer, outcome: &Outcome) -> Self::View {
        let _ = outcome;
        self.view(viewer)
    }
    /// Whether the authority resolves chance in this game (dice, a deal): such a game commits
    /// to a seed when it begins (see [`crate::fair`]).
    fn has_chance(&self) -> bool {
        false
    }
    /// When [`ToAct::Chance`]: the authority's move, drawn with `pick`, which returns a uniform
    /// index below its argument (the authority supplies the randomness: a CSPRNG on the
    /// server). `None` when there is nothing to resolve.
    fn chance(&self, pick: &mut dyn FnMut(usize) -> usize) -> Option<Self::Move> {
        let _ = pick;
        None
    }
    /// Returns the outcome when this seat resigns. The default suits two-seat games.
    fn resignation(&self, seat: Seat) -> Outcome {
        let winners = Seat::all(self.seat_count())
            .filter(|s| *s != seat)
            .collect();
        Outcome {
            result: GameResult::Win { winners },
            reason: EndReason::Resignation,
        }
    }
}

/// A game's computer player. It decides from its seat's view only, as a person would, so that
/// the authority can run it without showing it anything more.
pub trait Computer: Rules {
    /// The computer's action in `seat` (a move, a deployment or a roll), or `None` when the
    /// seat has nothing to do. `seed` breaks ties and gives weaker players their whims; the
    /// authority supplies it and records the result like any move.
    fn computer_move(
        view: &Self::View,
        seat: Seat,
        options: &Self::Options,
        strength: crate::Strength,
        seed: u64,
    ) -> Option<Self::Move>;
    /// Whether the computer in `seat` accepts the draw offered to it.
    fn accepts_draw(_view: &Self::View, _seat: Seat) -> bool {
        false
    }
}
