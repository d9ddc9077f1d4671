//! The board screen: pass-and-play Xiangqi. Every action is stored before it is shown.

use super::registry::{GameEntry, OnlineChoice};
use super::replay::ReplaySession;
use super::{handler, handler0, handler2, result_code, show_error};
use crate::board_view::{self, Marks, check_square, move_rows, notate, sync};
use crate::ctx::Ctx;
use crate::ctx::Sessions;
use crate::online::Command;
use crate::settings::Orientation;
use crate::store::{GameId, Mode, NewGame, RemoteGame, Standing, StoreError};
use qiguan_core::xiangqi::{Color, Move, Square, Xiangqi, XiangqiOptions, seat_of};
use qiguan_core::{Action, Actor, AnyMatch, GameKind, Match, Record, Seat, ToAct};
use qiguan_ui::{BoardCell, MoveRow, NewGameAdapter, PlayAdapter, Screen};
use slint::{ComponentHandle, ModelRc, VecModel};
use std::cell::RefCell;
use std::rc::Rc;

/// A game on the board.
pub struct PlaySession {
    id: GameId,
    game: Match<Xiangqi>,
    players: [String; 2],
    selected: Option<Square>,
    pending: Option<Move>,
    manual_flip: bool,
    /// The server link of a correspondence game: only this seat moves, through the outbox.
    remote: Option<RemoteGame>,
    cells: Rc<VecModel<BoardCell>>,
    moves: Rc<VecModel<MoveRow>>,
}

/// Xiangqi in the registry of games: played on the board screen, looked back on in replay.
pub(crate) const ENTRY: GameEntry = GameEntry {
    kind: GameKind::Xiangqi,
    screen: Screen::Play,
    connect: |ctx| {
        connect(ctx);
        super::replay::connect(ctx);
    },
    sessions: || {
        vec![
            Sessions::slot::<PlaySession>(),
            Sessions::slot::<ReplaySession>(),
        ]
    },
    open,
    review: super::replay::open,
    shown: |ctx| slot(ctx).borrow().as_ref().map(|s| s.id),
    refresh,
    reload_if_open,
    set_sync_status,
    start: start_chosen,
    session_call: |_, _| {},
    online: |a, side| OnlineChoice::two_people(chosen_options(a), side),
};

pub fn connect(ctx: &Rc<Ctx>) {
    let ui = ctx.ui();
    let a = ui.global::<PlayAdapter>();
    a.on_cell_clicked(handler(ctx, |ctx, i: i32| cell_clicked(ctx, i)));
    a.on_cell_dragged(handler2(ctx, |ctx, from: i32, to: i32| {
        cell_dragged(ctx, from, to)
    }));
    a.on_undo(handler0(ctx, undo));
    a.on_resign(handler0(ctx, |ctx| {
        if let Some(seat) = acting_seat(ctx) {
            act(ctx, Actor::Seat(seat), Action::Resign);
        }
    }));
    a.on_offer_draw(handler0(ctx, |ctx| {
        if let Some(seat) = acting_seat(ctx) {
            act(ctx, Actor::Seat(seat), Action::OfferDraw);
        }
    }));
    a.on_accept_draw(handler0(ctx, |ctx| answer_draw(ctx, Action::AcceptDraw)));
    a.on_decline_draw(handler0(ctx, |ctx| answer_draw(ctx, Action::DeclineDraw)));
    a.on_flip(handler0(ctx, |ctx| {
        if let Some(s) = slot(ctx).borrow_mut().as_mut() {
            s.manual_flip = !s.manual_flip;
        }
        refresh(ctx);
    }));
    a.on_confirm_move(handler0(ctx, |ctx| {
        let pending = slot(ctx)
            .borrow_mut()
            .as_mut()
            .and_then(|s| s.pending.take());
        if let Some(m) = pending {
            play_move(ctx, m);
        }
    }));
    a.on_cancel_move(handler0(ctx, |ctx| {
        if let Some(s) = slot(ctx).borrow_mut().as_mut() {
            s.pending = None;
            s.selected = None;
        }
        refresh(ctx);
    }));
    a.on_review(handler0(ctx, |ctx| {
        let id = slot(ctx).borrow().as_ref().map(|s| s.id);
        ctx.ui().global::<PlayAdapter>().set_show_end_dialog(false);
        if let Some(id) = id {
            super::replay::open(ctx, id, true);
        }
    }));
    a.on_new_game(handler0(ctx, |ctx| {
        ctx.ui().global::<PlayAdapter>().set_show_end_dialog(false);
        ctx.reset_to(Screen::Home);
        super::new_game::open(ctx, GameKind::Xiangqi);
    }));
}

/// Returns the options chosen on the New game screen.
fn chosen_options(adapter: &NewGameAdapter<'_>) -> XiangqiOptions {
    XiangqiOptions {
        perpetual_chase_loses: adapter.get_chase_loses(),
        move_limit: adapter
            .get_move_limit_on()
            .then(|| adapter.get_move_limit().clamp(20, 400) as u32),
    }
}

/// Starts the game New game chose: two people at the board.
fn start_chosen(ctx: &Rc<Ctx>, adapter: &NewGameAdapter<'_>) {
    let options = chosen_options(adapter);
    let players = vec![
        adapter.get_red_name().trim().to_owned(),
        adapter.get_black_name().trim().to_owned(),
    ];
    match Match::new(&options, None) {
        Ok(game) => start_match(ctx, game, players, Mode::PassAndPlay),
        Err(e) => show_error(ctx, &e.to_string()),
    }
}

/// Stores a new match and opens it on the board; home is what "back" leads to.
pub(crate) fn start_match(ctx: &Rc<Ctx>, game: Match<Xiangqi>, players: Vec<String>, mode: Mode) {
    let any = AnyMatch::Xiangqi(game);
    let new = NewGame::from_match(&any, mode, players);
    let now = ctx.now();
    match ctx.with_store(|store| store.create_game(&new, now)) {
        Ok(id) => {
            ctx.reset_to(Screen::Home);
            open(ctx, id);
        }
        Err(e) => show_error(ctx, &e.to_string()),
    }
}

/// Loads a stored game and puts it on the board.
pub fn open(ctx: &Rc<Ctx>, id: GameId) {
    match load(ctx, id) {
        Ok(session) => {
            *slot(ctx).borrow_mut() = Some(session);
            let ui = ctx.ui();
            let a = ui.global::<PlayAdapter>();
            a.set_show_end_dialog(false);
            a.set_confirm_resign(false);
            a.set_game_id(id.0 as i32);
            a.set_sync_status("".into());
            refresh(ctx);
            ctx.go(Screen::Play);
            if slot(ctx)
                .borrow()
                .as_ref()
                .is_some_and(|s| s.remote.is_some())
            {
                ctx.send(Command::Watch(Some(id)));
                ctx.send(Command::Flush);
            }
        }
        Err(e) => show_error(ctx, &e.to_string()),
    }
}

fn load(ctx: &Rc<Ctx>, id: GameId) -> Result<PlaySession, StoreError> {
    let loaded = super::load_xiangqi(ctx, id)?;
    let remote = ctx.with_store(|store| store.remote(id))?;
    Ok(PlaySession {
        remote,
        id,
        game: loaded.game,
        players: loaded.players,
        selected: None,
        pending: None,
        manual_flip: false,
        cells: Rc::new(VecModel::default()),
        moves: Rc::new(VecModel::default()),
    })
}

/// Returns the seat that resigns or offers a draw from this screen: this device's seat in a
/// correspondence game, the side to move in pass-and-play.
fn acting_seat(ctx: &Rc<Ctx>) -> Option<Seat> {
    let mine = slot(ctx)
        .borrow()
        .as_ref()
        .and_then(|s| s.remote.as_ref().and_then(|r| Seat::new(r.seat)));
    mine.or_else(|| seat_to_move(ctx))
}

/// Reloads the open game from the store if the sync worker changed it.
pub fn reload_if_open(ctx: &Rc<Ctx>, ids: &[GameId]) {
    let Some((id, flip)) = slot(ctx).borrow().as_ref().map(|s| (s.id, s.manual_flip)) else {
        return;
    };
    if !ids.contains(&id) {
        return;
    }
    let was_over = slot(ctx)
        .borrow()
        .as_ref()
        .is_some_and(|s| s.game.outcome().is_some());
    if let Ok(mut session) = load(ctx, id) {
        session.manual_flip = flip;
        let over = session.game.outcome().is_some();
        *slot(ctx).borrow_mut() = Some(session);
        refresh(ctx);
        if over && !was_over {
            ctx.ui().global::<PlayAdapter>().set_show_end_dialog(true);
        }
    }
}

/// Shows whether the open correspondence game's moves have reached the server.
pub fn set_sync_status(ctx: &Rc<Ctx>, online: bool, pending: usize) {
    let Some(status) = super::sync_status(online, pending) else {
        return refresh(ctx);
    };
    ctx.ui()
        .global::<PlayAdapter>()
        .set_sync_status(status.into());
}

fn seat_to_move(ctx: &Rc<Ctx>) -> Option<Seat> {
    match slot(ctx).borrow().as_ref()?.game.to_act() {
        ToAct::Seat(seat) => Some(seat),
        _ => None,
    }
}

fn cell_clicked(ctx: &Rc<Ctx>, index: i32) {
    let Some(sq) = usize::try_from(index).ok().and_then(Square::from_index) else {
        return;
    };
    let chosen = {
        let mut guard = slot(ctx).borrow_mut();
        let Some(s) = guard.as_mut() else { return };
        if s.game.outcome().is_some() || s.pending.is_some() {
            return;
        }
        let pos = s.game.game().position();
        let mover = seat_of(pos.side_to_move()).index();
        if s.remote.as_ref().is_some_and(|r| mover != r.seat as usize) {
            return;
        }
        let own = pos
            .piece_at(sq)
            .is_some_and(|p| p.color() == pos.side_to_move());
        match s.selected {
            Some(from) if from != sq && pos.is_legal(Move::new(from, sq)) => {
                Some(Move::new(from, sq))
            }
            Some(from) if from == sq => {
                s.selected = None;
                None
            }
            _ => {
                s.selected = own.then_some(sq);
                None
            }
        }
    };
    match chosen {
        Some(m) => choose_move(ctx, m),
        None => refresh(ctx),
    }
}

fn cell_dragged(ctx: &Rc<Ctx>, from: i32, to: i32) {
    let square = |i: i32| usize::try_from(i).ok().and_then(Square::from_index);
    let (Some(from), Some(to)) = (square(from), square(to)) else {
        if let Some(s) = slot(ctx).borrow_mut().as_mut() {
            s.selected = None;
        }
        refresh(ctx);
        return;
    };
    let legal = {
        let mut guard = slot(ctx).borrow_mut();
        let Some(s) = guard.as_mut() else { return };
        if s.game.outcome().is_some() || s.pending.is_some() {
            return;
        }
        let mover = seat_of(s.game.game().position().side_to_move()).index();
        if s.remote.as_ref().is_some_and(|r| mover != r.seat as usize) {
            return;
        }
        let legal = s.game.game().position().is_legal(Move::new(from, to));
        if !legal {
            let pos = s.game.game().position();
            let own = pos
                .piece_at(from)
                .is_some_and(|p| p.color() == pos.side_to_move());
            s.selected = own.then_some(from);
        }
        legal
    };
    if legal {
        choose_move(ctx, Move::new(from, to));
    } else {
        refresh(ctx);
    }
}

/// Plays a chosen move, or holds it for confirmation when the player asked for that.
fn choose_move(ctx: &Rc<Ctx>, m: Move) {
    if ctx.settings.borrow().confirm_moves {
        if let Some(s) = slot(ctx).borrow_mut().as_mut() {
            s.pending = Some(m);
            s.selected = Some(m.from);
        }
        refresh(ctx);
    } else {
        play_move(ctx, m);
    }
}

fn play_move(ctx: &Rc<Ctx>, m: Move) {
    let Some(seat) = seat_to_move(ctx) else {
        return;
    };
    act(ctx, Actor::Seat(seat), Action::Play(m));
}

fn answer_draw(ctx: &Rc<Ctx>, answer: Action<Move>) {
    let offerer = slot(ctx)
        .borrow()
        .as_ref()
        .and_then(|s| s.game.draw_offer().map(|o| o.by));
    if let Some(by) = offerer {
        let online = slot(ctx)
            .borrow()
            .as_ref()
            .is_some_and(|s| s.remote.is_some());
        let answerer = acting_seat(ctx)
            .filter(|_| online)
            .unwrap_or_else(|| Seat::new(1 - by.index() as u8).unwrap_or(Seat::SECOND));
        act(ctx, Actor::Seat(answerer), answer);
    }
}

/// Applies an action to a copy of the match, writes it, and only then shows it.
fn act(ctx: &Rc<Ctx>, actor: Actor, action: Action<Move>) {
    let (id, next, online) = {
        let guard = slot(ctx).borrow();
        let Some(s) = guard.as_ref() else { return };
        let mut next = s.game.clone();
        if let Err(e) = next.apply(actor, &action) {
            drop(guard);
            show_error(ctx, &e.to_string());
            return;
        }
        (s.id, next, s.remote.is_some())
    };
    let Some(entry) = next.actions().last().cloned() else {
        return;
    };
    let standing = standing(&next);
    let now = ctx.now();
    // A correspondence move goes to the outbox in the same transaction, then to the server.
    let written = ctx.with_store(|store| {
        if online {
            let cid = crate::sync::new_action_id();
            store.queue_action(id, next.version() - 1, &entry, &standing, &cid, now)
        } else {
            store.append_action(id, next.version() - 1, &entry, &standing, now)
        }
    });
    if let Err(e) = written {
        show_error(ctx, &e.to_string());
        return;
    }
    let over = next.outcome().is_some();
    if let Some(s) = slot(ctx).borrow_mut().as_mut() {
        s.game = next;
        s.selected = None;
        s.pending = None;
    }
    refresh(ctx);
    if online {
        ctx.ui()
            .global::<PlayAdapter>()
            .set_sync_status("sending".into());
        ctx.send(Command::Flush);
    }
    if over {
        ctx.ui().global::<PlayAdapter>().set_show_end_dialog(true);
    }
}

fn standing(game: &Match<Xiangqi>) -> Standing {
    Standing::new(game.actions(), game.outcome())
}

/// Takes back the last action (pass-and-play only: both players are at the table).
fn undo(ctx: &Rc<Ctx>) {
    let (id, record) = {
        let guard = slot(ctx).borrow();
        let Some(s) = guard.as_ref() else { return };
        if s.remote.is_some() {
            return;
        }
        let mut record: Record = s.game.record();
        if record.actions.pop().is_none() {
            return;
        }
        (s.id, record)
    };
    let previous: Match<Xiangqi> = match Match::from_record(&record) {
        Ok(game) => game,
        Err(e) => {
            show_error(ctx, &e.to_string());
            return;
        }
    };
    let standing = standing(&previous);
    let now = ctx.now();
    let written = ctx.with_store(|store| store.truncate(id, record.actions.len(), &standing, now));
    if let Err(e) = written {
        show_error(ctx, &e.to_string());
        return;
    }
    if let Some(s) = slot(ctx).borrow_mut().as_mut() {
        s.game = previous;
        s.selected = None;
        s.pending = None;
    }
    ctx.ui().global::<PlayAdapter>().set_show_end_dialog(false);
    refresh(ctx);
}

/// Pushes the session's state to the screen.
pub fn refresh(ctx: &Rc<Ctx>) {
    let settings = *ctx.settings.borrow();
    let guard = slot(ctx).borrow();
    let Some(s) = guard.as_ref() else { return };
    let game = s.game.game();
    let pos = game.position();
    let moves: Vec<Move> = game.moves().collect();
    let marks = marks(s, moves.last().copied());
    sync(&s.cells, board_view::cells(pos, &marks));
    sync(
        &s.moves,
        move_rows(game.start_position(), &moves, settings.notation),
    );

    let to_move = match s.game.to_act() {
        ToAct::Seat(seat) => seat.index() as i32,
        _ => -1,
    };
    let base_flip = match (&s.remote, settings.orientation) {
        (Some(r), _) => r.seat == 1,
        (None, Orientation::RedBottom) => false,
        (None, Orientation::BlackBottom) => true,
        (None, Orientation::SideToMove) => pos.side_to_move() == Color::Black,
    };
    let outcome = s.game.outcome();
    let side = Actor::Seat(
        s.remote
            .as_ref()
            .and_then(|r| Seat::new(r.seat))
            .unwrap_or_else(|| seat_of(pos.side_to_move())),
    );
    let ui = ctx.ui();
    let a = ui.global::<PlayAdapter>();
    a.set_cells(ModelRc::from(s.cells.clone()));
    a.set_moves(ModelRc::from(s.moves.clone()));
    a.set_last_ply(moves.len() as i32 - 1);
    a.set_flipped(base_flip != s.manual_flip);
    a.set_red_name(s.players[0].clone().into());
    a.set_black_name(s.players[1].clone().into());
    a.set_to_move(to_move);
    a.set_in_check(marks.check.is_some() && outcome.is_none());
    a.set_can_undo(s.remote.is_none() && !s.game.actions().is_empty());
    a.set_online(s.remote.is_some());
    a.set_my_seat(s.remote.as_ref().map_or(-1, |r| r.seat as i32));
    if let Some(status) = correspondence_status(s, to_move) {
        a.set_sync_status(status.into());
    }
    a.set_draw_offer_by(s.game.draw_offer().map_or(-1, |o| o.by.index() as i32));
    a.set_can_offer_draw(s.game.legal_actions(side).contains(&Action::OfferDraw));
    a.set_result(result_code(outcome.as_ref().map(|o| &o.result)).into());
    a.set_reason(outcome.map(|o| o.reason.as_str()).unwrap_or("").into());
    a.set_pending_move(
        s.pending
            .map(|m| notate(pos, m, settings.notation))
            .unwrap_or_default()
            .into(),
    );
}

/// The board's marks: the selected piece and where it may go (or the move waiting to be
/// confirmed), the last move, and a king in check.
fn marks(s: &PlaySession, last: Option<Move>) -> Marks {
    let pos = s.game.game().position();
    let targets: Vec<Square> = match (s.pending, s.selected) {
        (Some(pending), _) => vec![pending.to],
        (None, Some(from)) => pos
            .legal_moves()
            .into_iter()
            .filter(|m| m.from == from)
            .map(|m| m.to)
            .collect(),
        (None, None) => Vec::new(),
    };
    Marks {
        selected: s.selected,
        targets,
        last,
        check: check_square(pos),
    }
}

/// What a correspondence game waits for: the opponent to join, or to move (`None` for a game
/// on this device).
fn correspondence_status(s: &PlaySession, to_move: i32) -> Option<&'static str> {
    let r = s.remote.as_ref()?;
    Some(if r.invite_code.is_some() {
        "joining"
    } else if s.game.outcome().is_none() && to_move != r.seat as i32 {
        "waiting"
    } else {
        ""
    })
}

/// The PlaySession slot in the context.
fn slot(ctx: &Ctx) -> &RefCell<Option<PlaySession>> {
    ctx.session()
}
