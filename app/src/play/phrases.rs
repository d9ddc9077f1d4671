//! Preset phrases in correspondence games (好棋, 快点吧, 再来一局 …): said from the session's
//! sheet, kept in the store before they show, sent by the sync worker; the opponent's called
//! out over the top bar with a sound when its game is on screen, and by the desktop when the
//! window is in the background. There is no free text.

use crate::shell::ctx::Ctx;
use crate::shell::sound::Sound;
use crate::store::{GameId, Phrase, RemoteGame};
use qiguan_ui::GameSession;
use slint::{ComponentHandle, ModelRc, VecModel};
use std::rc::Rc;

/// How many of a game's newest phrases its screen shows.
pub(crate) const SHOWN: usize = 20;

/// A game's newest phrases (none for a game played on this device alone).
pub(crate) fn load(ctx: &Ctx, id: GameId, remote: Option<&RemoteGame>) -> Vec<Phrase> {
    if remote.is_none() {
        return Vec::new();
    }
    ctx.with_store(|s| s.phrases(id, SHOWN)).unwrap_or_default()
}

/// Connects the sheet: every phrase there is, and saying one (`say` passes it to the game on
/// screen).
pub(crate) fn connect(ctx: &Rc<Ctx>, say: fn(&Rc<Ctx>, &'static str)) {
    let ui = ctx.ui();
    let a = ui.global::<GameSession>();
    let codes: Vec<slint::SharedString> = qiguan_core::phrase::PHRASES
        .iter()
        .map(|&c| c.into())
        .collect();
    a.set_phrase_codes(ModelRc::new(VecModel::from(codes)));
    a.on_say(crate::shell::bind::handler(
        ctx,
        move |ctx, code: slint::SharedString| {
            if let Some(&phrase) = qiguan_core::phrase::PHRASES
                .iter()
                .find(|&&p| p == code.as_str())
            {
                say(ctx, phrase);
            }
        },
    ));
}

/// Keeps a phrase this device's seat says in game `id` (before it shows), asks the worker to
/// send it, and returns the game's phrases as they now stand.
pub(crate) fn say(
    ctx: &Ctx,
    id: GameId,
    remote: &RemoteGame,
    phrase: &str,
) -> Result<Vec<Phrase>, String> {
    let cid = crate::sync::new_action_id();
    let now = ctx.now();
    ctx.with_store(|s| {
        s.queue_phrase(id, remote.seat, phrase, &cid, now)?;
        s.phrases(id, SHOWN)
    })
    .inspect(|_| ctx.send(crate::sync::Command::Flush))
    .map_err(|e| e.to_string())
}

/// The opponents' phrases the sync worker heard: called out over the game's screen with a
/// sound when that game is on screen, and told by the desktop when the window is in the
/// background (once each). `shown`: the game on screen, if any.
pub(crate) fn heard(ctx: &Rc<Ctx>, shown: Option<GameId>, heard: Vec<(GameId, Phrase)>) {
    let ui = ctx.ui();
    let texts = ui.global::<qiguan_ui::Texts>();
    let a = ui.global::<GameSession>();
    let mut sound = false;
    for (id, phrase) in heard {
        if shown == Some(id) {
            a.set_heard(super::view::phrase_line(&phrase));
            a.set_heard_count(a.get_heard_count() + 1);
            sound = true;
        }
        let found = ctx.with_store(|s| s.summaries(&[id]));
        let Some(summary) = found.ok().and_then(|v| v.into_iter().next()) else {
            continue;
        };
        let name = summary
            .players
            .get(usize::from(phrase.seat))
            .cloned()
            .unwrap_or_default();
        let notice = crate::shell::notify::Notice {
            title: texts.invoke_game_name(summary.kind.as_str().into()).into(),
            body: texts
                .invoke_phrase_arrived(phrase.phrase.as_str().into(), name.into())
                .into(),
        };
        ctx.notifier.tell(ui.window(), notice);
    }
    if sound {
        ctx.play_sound(Sound::Message);
    }
}
