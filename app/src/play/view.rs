//! What the screen shows of a session: [`session_ui`], a pure function of it, handed to the
//! `GameSession` global in one call by [`refresh`], which then lets the game draw its board;
//! and the board helpers every game uses.

use super::session::{GameScreen, Session, slot};
use super::tips;
use super::truth::Source;
use crate::shell::ctx::Ctx;
use crate::shell::format::{game_outcome, minutes_left, strength_code};
use crate::store::{GameId, Phrase, RemoteGame};
use qiguan_core::fair::Verdict;
use qiguan_core::{Action, Actor, Match, RecordEntry, Rules, Seat, Strength, ToAct};
use qiguan_ui::{FairCheck, GameOutcome, GamePhase, GameSession, PhraseLine, Waiting};
use slint::{ComponentHandle, ModelRc, SharedString, VecModel};
use std::cell::RefCell;
use std::rc::Rc;

/// Pushes the session to the screen: what every game shows, then the game's own part.
pub(crate) fn refresh<G: GameScreen>(ctx: &Rc<Ctx>) {
    let guard = slot::<G>(ctx).borrow();
    let Some(s) = guard.as_ref() else { return };
    push(&ctx.ui().global::<GameSession>(), session_ui(s));
    tips::offer(ctx, G::walkthrough(s));
    G::refresh_board(ctx, s, &s.view());
}

/// The models a game's board keeps on the screen: its cells, and the orientation its lines
/// were last drawn for.
pub(crate) struct BoardModel<C: 'static> {
    pub cells: Rc<VecModel<C>>,
    pub drawn_for: RefCell<Option<bool>>,
    /// The game and the last play the board showed (see [`slide_last_play`]).
    pub last_drawn: RefCell<Option<(GameId, String)>>,
}

impl<C: 'static> Default for BoardModel<C> {
    fn default() -> Self {
        BoardModel {
            cells: Rc::new(VecModel::default()),
            drawn_for: RefCell::new(None),
            last_drawn: RefCell::new(None),
        }
    }
}

/// Slides the view's last play on the board (the Motion global) when it is new since the
/// board last showed this game: `play` names it by a key and, when it should slide, its two
/// points' cell indices. The first drawing of a game, a reload or another game shows at once.
pub(crate) fn slide_last_play(
    ctx: &Rc<Ctx>,
    last_drawn: &RefCell<Option<(GameId, String)>>,
    id: GameId,
    play: Option<(String, Option<(usize, usize)>)>,
) {
    let ui = ctx.ui();
    let motion = ui.global::<qiguan_ui::Motion>();
    let key = play.as_ref().map(|(k, _)| k.clone()).unwrap_or_default();
    let before = last_drawn.replace(Some((id, key.clone())));
    let fresh = matches!(&before, Some((was, k)) if *was == id && *k != key);
    match play.and_then(|(_, squares)| squares) {
        Some((from, to)) if fresh => {
            motion.set_from(from as i32);
            motion.set_to(to as i32);
            motion.set_captured(SharedString::default());
            motion.invoke_start();
        }
        _ if fresh || before.as_ref().is_none_or(|(was, _)| *was != id) => motion.invoke_stop(),
        _ => {}
    }
}

/// Slides the view's last event on the board as [`slide_last_play`] does, named by its debug
/// text, between the two cells `cells` gives for it (none: it shows at once); nothing slides in
/// review nor behind the hand-over cover.
pub(crate) fn slide_last_event<G: GameScreen, E: std::fmt::Debug>(
    ctx: &Rc<Ctx>,
    s: &Session<G>,
    board: &RefCell<Option<(GameId, String)>>,
    last: Option<&E>,
    cells: impl FnOnce(&E) -> Option<(usize, usize)>,
) {
    let play = last
        .filter(|_| s.review.is_none() && !s.handover)
        .map(|event| (format!("{event:?}"), cells(event)));
    slide_last_play(ctx, board, s.id, play);
}

/// In review: the finished game replayed to the action on screen, from its record.
pub(crate) fn reviewed<G: GameScreen>(s: &Session<G>) -> Option<Match<G>> {
    let (at, game) = (s.review?, s.local()?);
    let mut record = game.record();
    record.actions.truncate(at);
    Match::from_record(&record).ok()
}

/// What every game's screen shows of its session.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct SessionUi {
    pub phase: GamePhase,
    pub viewer: i32,
    pub to_move: i32,
    pub seat_colours: Vec<i32>,
    pub names: Vec<String>,
    pub computer: Vec<bool>,
    pub outcome: GameOutcome,
    pub review_ply: i32,
    pub review_plies: i32,
    pub can_offer_draw: bool,
    pub can_answer_draw: bool,
    pub can_undo: bool,
    /// Why the last tap made no move (a code the screen translates), or empty.
    pub refusal: &'static str,
    pub hides_pieces: bool,
    pub can_resign: bool,
    pub draw_offered_by: i32,
    /// The seat that declined the viewer's draw offer, until the viewer acts again; -1.
    pub draw_declined_by: i32,
    /// The viewer's seat is this device's player's own (against the computer, or by
    /// correspondence): the screen says "you".
    pub personal: bool,
    /// A person plays the computer on this device in a game with hints.
    pub offers_hints: bool,
    pub online: bool,
    pub waiting: Waiting,
    pub invite: String,
    /// A correspondence game: when the seat to act must have acted (Unix ms), as last heard.
    pub deadline: Option<i64>,
    /// A correspondence game with another person in it: phrases may be sent.
    pub can_say: bool,
    pub phrases: Vec<PhraseLine>,
    /// The computer on this device is working out its move.
    pub thinking: bool,
    /// Each seat's computer level (0: a person, or a computer without levels).
    pub levels: Vec<i32>,
    /// Each seat's computer strength where the game has three (see
    /// [`crate::shell::format::strength_code`]).
    pub strengths: Vec<SharedString>,
    /// A hint may be asked for; one is being worked out.
    pub can_hint: bool,
    pub hinting: bool,
    /// The finished game's chance, checked.
    pub fair: FairCheck,
}

/// What the screen shows of a session: a pure function of it, for tests to call.
pub(crate) fn session_ui<G: GameScreen>(s: &Session<G>) -> SessionUi {
    let over = s.outcome().is_some();
    // Nothing to offer or resign for a computer's seat, nor once it is over.
    let acting = !over && s.computer(s.viewer).is_none();
    let legal = if acting { s.legal() } else { Vec::new() };
    SessionUi {
        phase: s.phase(),
        viewer: s.viewer.index() as i32,
        to_move: match s.to_act() {
            ToAct::Seat(seat) => seat.index() as i32,
            _ => -1,
        },
        seat_colours: G::seat_colours(s),
        names: s.players.clone(),
        computer: s.seats().map(|seat| s.computer(seat).is_some()).collect(),
        outcome: game_outcome(s.outcome().as_ref()),
        review_ply: s.review.unwrap_or(0) as i32,
        review_plies: s.version() as i32,
        can_offer_draw: legal.contains(&Action::OfferDraw),
        can_answer_draw: s.answerer().is_some(),
        can_undo: s.can_undo(),
        refusal: s.refusal.unwrap_or_default(),
        hides_pieces: G::HIDES_PIECES,
        can_resign: legal.contains(&Action::Resign),
        draw_offered_by: draw_offered_by(s),
        draw_declined_by: draw_declined_by(s),
        personal: personal(s),
        offers_hints: G::HINTS
            && s.remote.is_none()
            && s.seats().any(|seat| s.computer(seat).is_some())
            && s.computer(s.viewer).is_none(),
        online: s.remote.is_some(),
        waiting: waiting(&s.source, s.remote.as_ref(), s.viewer, G::deployed_first(s)),
        invite: s
            .remote
            .as_ref()
            .and_then(|r| r.invite_code.clone())
            .unwrap_or_default(),
        deadline: s.remote.as_ref().and_then(|r| r.deadline),
        can_say: s.remote.is_some()
            && s.seats()
                .any(|seat| seat != s.viewer && s.computer(seat).is_none()),
        phrases: lines(&s.phrases),
        thinking: s.computer_thinking(),
        levels: levels(s),
        strengths: s
            .seats()
            .map(|seat| s.computer(seat).map_or("", strength_code).into())
            .collect(),
        can_hint: s.can_hint(),
        hinting: s.hinting.is_some() && s.person_to_act(),
        fair: fair_check(s),
    }
}

/// The seat whose draw offer stands (the viewer's own while it waits to be sent), or -1.
fn draw_offered_by<G: GameScreen>(s: &Session<G>) -> i32 {
    match s.source.draw_offer() {
        Some(offer) => offer.by.index() as i32,
        None if s.source.offer_pending() => s.viewer.index() as i32,
        None => -1,
    }
}

/// The seat that declined the viewer's draw offer, until the viewer acts again, or -1.
fn draw_declined_by<G: GameScreen>(s: &Session<G>) -> i32 {
    s.local()
        .map(|game| declined_offer(&game.record().actions, s.viewer))
        .unwrap_or(s.declined_by)
        .map_or(-1, |seat| seat.index() as i32)
}

/// The viewer's seat is this device's player's own (against the computer, or by
/// correspondence): the screen says "you".
fn personal<G: GameScreen>(s: &Session<G>) -> bool {
    s.remote.is_some()
        || (s.seats().filter(|&seat| s.computer(seat).is_none()).count() == 1
            && s.computer(s.viewer).is_none())
}

/// Each seat's computer level (0: a person, or a computer without levels).
fn levels<G: GameScreen>(s: &Session<G>) -> Vec<i32> {
    s.seats()
        .map(|seat| match s.computer(seat) {
            Some(Strength::Level(n)) => i32::from(n),
            _ => 0,
        })
        .collect()
}

/// Whether a finished game's rolls (or deal) came from the seed its authority committed to
/// at the start, checked against the revealed seed (see [`qiguan_core::fair`]). Nothing to
/// show while the game goes on, nor for a game without chance.
pub(crate) fn fair_check<G: GameScreen>(s: &Session<G>) -> FairCheck {
    let none = FairCheck::default();
    let Some(game) = s.local().filter(|g| g.outcome().is_some()) else {
        return none;
    };
    if !game.game().has_chance() {
        return none;
    }
    if let Some((version, check)) = s.fair_check.borrow().as_ref()
        && *version == game.version()
    {
        return check.clone();
    }
    let deal = G::DEALS;
    let check = match qiguan_core::fair::verify(&game.record()) {
        Verdict::NoChance => none,
        Verdict::Checked { draws } => FairCheck {
            state: 1,
            draws: draws as i32,
            failed_draw: 0,
            deal,
        },
        Verdict::Unverifiable => FairCheck {
            state: 2,
            deal,
            ..none
        },
        Verdict::Failed(f) => FairCheck {
            state: 3,
            failed_draw: f.draw.unwrap_or(0) as i32,
            deal,
            ..none
        },
        Verdict::Pending { .. } => FairCheck {
            state: 4,
            deal,
            ..none
        },
    };
    *s.fair_check.borrow_mut() = Some((game.version(), check.clone()));
    check
}

/// The seat that declined `viewer`'s last draw offer, explicitly or by moving on, if the
/// viewer has not acted since (a declined offer is news until then).
pub(crate) fn declined_offer(actions: &[RecordEntry], viewer: Seat) -> Option<Seat> {
    let (offer, decline, accept) = (
        Action::<String>::OfferDraw.to_string(),
        Action::<String>::DeclineDraw.to_string(),
        Action::<String>::AcceptDraw.to_string(),
    );
    let mut open = false;
    let mut declined = None;
    for entry in actions {
        let Actor::Seat(seat) = entry.by else {
            continue;
        };
        let text = entry.action.as_str();
        if seat == viewer {
            declined = None;
            if text == offer {
                open = true;
            }
        } else if open && text != offer && text != accept {
            // An answer other than accepting, or a move: the offer is declined.
            open = false;
            declined = Some(seat);
        } else if text == decline {
            open = false;
        }
    }
    declined
}

fn push(a: &GameSession<'_>, ui: SessionUi) {
    let strings = |v: Vec<String>| -> ModelRc<SharedString> {
        ModelRc::new(VecModel::from(
            v.into_iter().map(SharedString::from).collect::<Vec<_>>(),
        ))
    };
    a.set_phase(ui.phase);
    a.set_viewer(ui.viewer);
    a.set_to_move(ui.to_move);
    a.set_seat_colours(ModelRc::new(VecModel::from(ui.seat_colours)));
    a.set_names(strings(ui.names));
    a.set_computer(ModelRc::new(VecModel::from(ui.computer)));
    a.set_outcome(ui.outcome);
    a.set_review_ply(ui.review_ply);
    a.set_review_plies(ui.review_plies);
    a.set_can_offer_draw(ui.can_offer_draw);
    a.set_can_answer_draw(ui.can_answer_draw);
    a.set_can_undo(ui.can_undo);
    a.set_refusal(ui.refusal.into());
    a.set_hides_pieces(ui.hides_pieces);
    a.set_can_resign(ui.can_resign);
    a.set_draw_offered_by(ui.draw_offered_by);
    a.set_draw_declined_by(ui.draw_declined_by);
    a.set_personal(ui.personal);
    a.set_offers_hints(ui.offers_hints);
    a.set_online(ui.online);
    a.set_waiting(ui.waiting);
    a.set_invite(ui.invite.into());
    a.set_can_say(ui.can_say);
    a.set_phrases(ModelRc::new(VecModel::from(ui.phrases)));
    a.set_thinking(ui.thinking);
    a.set_levels(ModelRc::new(VecModel::from(ui.levels)));
    a.set_strengths(ModelRc::new(VecModel::from(ui.strengths)));
    a.set_can_hint(ui.can_hint);
    a.set_hinting(ui.hinting);
    a.set_fair(ui.fair);
    if !ui.can_say {
        a.set_choosing_phrase(false);
    }
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64);
    a.set_minutes_left(minutes_left(ui.deadline, now));
}

/// What a correspondence game on screen waits for: the opponent to join, this seat's action
/// to reach the server, the opponent's deployment, the opponent's move, or nothing.
/// `deployed_first`: the game is still deploying and this seat has deployed.
pub(crate) fn waiting<G: Rules>(
    source: &Source<G>,
    remote: Option<&RemoteGame>,
    viewer: Seat,
    deployed_first: bool,
) -> Waiting {
    let over = source.outcome().is_some();
    match remote {
        None => Waiting::Nothing,
        Some(r) if r.invite_code.is_some() => Waiting::Join,
        Some(_) if !source.pending().is_empty() => Waiting::Sending,
        Some(_) if deployed_first => Waiting::Deploy,
        Some(_) if source.to_act() == ToAct::Chance => Waiting::Sending,
        Some(_) if !over && !source.to_act().includes(Actor::Seat(viewer)) => Waiting::Turn,
        Some(_) => Waiting::Nothing,
    }
}

/// The phrases as the screen shows them.
pub(crate) fn lines(phrases: &[Phrase]) -> Vec<PhraseLine> {
    phrases.iter().map(phrase_line).collect()
}

/// A phrase as the screen shows it.
pub(crate) fn phrase_line(p: &Phrase) -> PhraseLine {
    PhraseLine {
        seat: i32::from(p.seat),
        phrase: p.phrase.as_str().into(),
        sent: p.sent,
    }
}
