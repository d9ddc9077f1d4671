//! The server's word written into the local history: records, seat views and phrases, and
//! the check of an action queued on a game with secrets.

use super::wire::now;
use super::{ServerView, SyncError, new_action_id};
use crate::store::{GameId, OutboxEntry, Phrase, RemoteGame, Standing, Store};
use qiguan_core::{AnyMatch, Record, RecordEntry};

/// Keeps the phrases a view carries; true if any was new, with those the other seats sent
/// (news for the screen, see [`super::Correspondence::take_heard`]).
pub(super) fn hear(
    store: &mut Store,
    remote: &RemoteGame,
    view: &ServerView,
) -> Result<(bool, Vec<(GameId, Phrase)>), SyncError> {
    if view.said.is_empty() {
        return Ok((false, Vec::new()));
    }
    let said: Vec<(usize, u8, String, i64)> = view
        .said
        .iter()
        .map(|s| (s.seq, s.seat, s.phrase.clone(), s.at))
        .collect();
    let new = store.hear_phrases(remote.game_id, &said)?;
    let any = !new.is_empty();
    let heard = new
        .into_iter()
        .filter(|p| p.seat != remote.seat)
        .map(|p| (remote.game_id, p))
        .collect();
    Ok((any, heard))
}

pub(super) fn mirror_game(
    store: &mut Store,
    remote: &RemoteGame,
    view: &ServerView,
) -> Result<bool, SyncError> {
    let id = remote.game_id;
    let held = seat_view(store, id)?;
    let Some(server) = view.actions.clone() else {
        return mirror_view(store, remote, held, view);
    };
    if held.is_some() {
        // The game with secrets is over and its record has come: it replaces the view.
        let game = replay(view, &server)?;
        for entry in store.outbox()?.iter().filter(|e| e.game_id == id) {
            store.unqueue(entry.id)?;
        }
        store.update_remote(id, view.deadline, view.your_turn)?;
        let standing = Standing::of(&game);
        store.replace_actions(id, 0, &server, &standing, now())?;
        store.set_seat_view(id, None, &standing, now())?;
        store.set_fair(id, view.fair.as_ref())?;
        return Ok(true);
    }
    let local = store.load(id)?.record.actions;
    let pending: Vec<OutboxEntry> = store
        .outbox()?
        .into_iter()
        .filter(|e| e.game_id == id)
        .collect();
    let confirmed = local.len().saturating_sub(pending.len());
    store.update_remote(id, view.deadline, view.your_turn)?;
    // The last seat taken starts the game: that is news even with no new action.
    let started = view.seats_filled.iter().all(|f| *f) && remote.invite_code.is_some();
    if started {
        store.clear_invite(id)?;
    }
    // The server's commitment, its draws and, once over, its seed (see qiguan_core::fair).
    if view.fair.is_some() {
        store.set_fair(id, view.fair.as_ref())?;
    }
    let agrees = server.len() >= confirmed && server[..confirmed] == local[..confirmed];
    if agrees && server.len() == confirmed {
        return Ok(started);
    }
    // The server has moved on: its record wins, and queued actions made on the older
    // position are dropped (the server would refuse them as stale).
    for entry in &pending {
        store.unqueue(entry.id)?;
    }
    let game = replay(view, &server)?;
    let from = if agrees { confirmed } else { 0 };
    store.replace_actions(id, from, &server[from..], &Standing::of(&game), now())?;
    Ok(true)
}

/// Keeps the server's newer view of a game with secrets. Queued actions stay queued: the
/// next flush sends them, and the server refuses any the view has overtaken.
pub(super) fn mirror_view(
    store: &mut Store,
    remote: &RemoteGame,
    held: Option<ServerView>,
    view: &ServerView,
) -> Result<bool, SyncError> {
    let id = remote.game_id;
    store.update_remote(id, view.deadline, view.your_turn)?;
    let joined = view.seats_filled.iter().all(|f| *f);
    if joined && remote.invite_code.is_some() {
        store.clear_invite(id)?;
    }
    let same = held.as_ref().is_some_and(|h| {
        h.version == view.version
            && h.seats_filled == view.seats_filled
            && h.legal_actions == view.legal_actions
    });
    if same {
        return Ok(false);
    }
    if held.as_ref().is_some_and(|h| h.version > view.version) {
        // An older answer (a long poll that crossed an action): keep the newer view.
        return Ok(false);
    }
    let mut kept = view.clone();
    kept.applied_version = None;
    // Phrases are kept in their own table.
    kept.said.clear();
    kept.said_seq = None;
    let json = serde_json::to_string(&kept).map_err(|e| SyncError::Protocol(e.to_string()))?;
    store.set_seat_view(id, Some(&json), &view.standing(), now())?;
    Ok(true)
}

/// Reads the kept view of a game with secrets.
pub fn seat_view(store: &Store, id: GameId) -> Result<Option<ServerView>, SyncError> {
    match store.seat_view(id)? {
        None => Ok(None),
        Some(json) => serde_json::from_str(&json)
            .map(Some)
            .map_err(|e| SyncError::Protocol(format!("the kept view of game {}: {e}", id.0))),
    }
}

/// Checks an action on a game with secrets against the kept view and queues it for the
/// server. While a move, deployment or resignation waits, nothing more may be queued (the view
/// no longer says what is legal); a draw offer or answer may be followed by a move.
pub fn queue_hidden(
    store: &mut Store,
    id: GameId,
    view: &ServerView,
    action: &str,
) -> Result<(), SyncError> {
    let pending: Vec<String> = store
        .outbox()?
        .into_iter()
        .filter(|e| e.game_id == id)
        .map(|e| e.action)
        .collect();
    check_hidden(view, &pending, action)?;
    store.queue_only(
        id,
        view.version + pending.len(),
        action.trim(),
        &new_action_id(),
        now(),
    )?;
    Ok(())
}

/// Whether `action` may be queued on a game with secrets whose actions `pending` wait for the
/// server: nothing after a move, deployment or resignation (the view no longer says what is
/// legal), not the same draw offer or answer twice, and only what the view allows.
pub fn check_hidden(view: &ServerView, pending: &[String], action: &str) -> Result<(), SyncError> {
    if pending
        .iter()
        .any(|a| !qiguan_core::action::is_draw_talk(a))
    {
        return Err(SyncError::Illegal(qiguan_core::ActionError::NotYourTurn));
    }
    if pending.iter().any(|a| a == action.trim()) {
        return Err(SyncError::Illegal(
            qiguan_core::ActionError::DrawAlreadyOffered,
        ));
    }
    view.allows(action)
}

pub(super) fn replay(view: &ServerView, actions: &[RecordEntry]) -> Result<AnyMatch, SyncError> {
    let record = Record {
        format: qiguan_core::RECORD_FORMAT,
        game: view.game,
        options: view.options.clone(),
        setup: view.setup.clone(),
        actions: actions.to_vec(),
        fair: view.fair.clone(),
    };
    AnyMatch::from_record(&record).map_err(|e| SyncError::Protocol(e.to_string()))
}
