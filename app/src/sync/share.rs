//! Sharing a game: a link to its page for anyone, on a companion server (`/g/{link}`; the
//! page itself is the server's, docs/protocol.md "Shared games"). A correspondence game is
//! shared from the server's own copy, by its seat; a game kept only on this device is
//! uploaded: its record when nothing in it is secret, else only what a spectator sees of it
//! (core's sheet, made here with the code the server uses). The link, and an upload's key
//! that withdraws it, are kept on the device (`shares` table).

use crate::store::{GameId, KeptShare, StoredGame};
use crate::sync::{Correspondence, SyncError};
use qiguan_core::share::Sheet;
use serde_json::{Value, json};

/// The platform's own way to pass a link to another app (Android's share sheet), given to the
/// app by the platform's entry point (`qiguan-android`); the desktop has none and copies the
/// link instead. It is called with the sheet's title and the link, and says whether the sheet
/// opened.
#[derive(Clone)]
pub struct SystemShare(std::sync::Arc<SendText>);

/// Opens a share sheet titled by the first text over the second.
type SendText = dyn Fn(&str, &str) -> Result<(), String> + Send + Sync;

impl SystemShare {
    /// A share sheet that `send(title, link)` opens.
    pub fn new(send: impl Fn(&str, &str) -> Result<(), String> + Send + Sync + 'static) -> Self {
        SystemShare(std::sync::Arc::new(send))
    }

    /// Opens the sheet with `title` over `link`.
    pub fn send(&self, title: &str, link: &str) -> Result<(), String> {
        (self.0)(title, link)
    }
}

impl std::fmt::Debug for SystemShare {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SystemShare")
    }
}

/// Why a game could not be shared or its link withdrawn. Its [`ShareError::code`] is what the
/// screen says.
#[derive(Debug)]
pub enum ShareError {
    /// No server address in Settings (a game kept on this device needs one to go to).
    NoServer,
    /// The server could not be reached, or refused.
    Sync(SyncError),
}

impl ShareError {
    /// A stable code for the screen: `no-server`, or the sync error's.
    pub fn code(&self) -> String {
        match self {
            ShareError::NoServer => "no-server".into(),
            ShareError::Sync(e) => e.code(),
        }
    }
}

impl From<SyncError> for ShareError {
    fn from(e: SyncError) -> Self {
        ShareError::Sync(e)
    }
}

impl From<crate::store::StoreError> for ShareError {
    fn from(e: crate::store::StoreError) -> Self {
        ShareError::Sync(SyncError::from(e))
    }
}

/// What is uploaded of a game kept on this device: its record (which the page's download and
/// the app's import read) when nothing in it is secret, else what a spectator sees; with the
/// players' names.
pub fn upload_body(game: &StoredGame) -> Result<Value, SyncError> {
    let sheet = Sheet::of(&game.record).map_err(|e| SyncError::Protocol(e.to_string()))?;
    let names = &game.summary.players;
    Ok(if sheet.hidden {
        json!({"sheet": sheet, "names": names})
    } else {
        json!({"record": game.record, "names": names})
    })
}

/// The game's link: the one kept, or a new one made on the game's server (a correspondence
/// game) or on `server` (the address in Settings, for a game kept on this device).
pub async fn share(
    engine: &mut Correspondence,
    id: GameId,
    server: Option<&str>,
    now: i64,
) -> Result<KeptShare, ShareError> {
    if let Some(kept) = engine.store().kept_share(id)? {
        return Ok(kept);
    }
    let kept = match engine.store().remote(id)? {
        Some(remote) => {
            let shared = engine
                .client()
                .share_game(&remote.server, &remote.remote_id, &remote.token)
                .await?;
            KeptShare {
                server: remote.server,
                link: shared.id,
                key: None,
            }
        }
        None => {
            let server = server
                .map(|s| s.trim_end_matches('/').to_owned())
                .filter(|s| !s.is_empty())
                .ok_or(ShareError::NoServer)?;
            let game = engine.store().load(id)?;
            let shared = engine
                .client()
                .upload_share(&server, &upload_body(&game)?)
                .await?;
            let kept = KeptShare {
                server,
                link: shared.id,
                key: shared.key,
            };
            let actions = engine.store().action_count(id)?;
            engine.store_mut().keep_share(id, &kept, now)?;
            engine.store_mut().note_sent(id, actions)?;
            return Ok(kept);
        }
    };
    engine.store_mut().keep_share(id, &kept, now)?;
    Ok(kept)
}

/// Sends each game this device uploaded that changed since (a move, its end) to its page,
/// so that the page follows it as it follows a correspondence game. A link the server no
/// longer has (withdrawn from elsewhere, or lost) is forgotten; anything else (offline) is
/// tried again the next time. Returns the games sent.
pub async fn send_changed_uploads(engine: &mut Correspondence) -> Result<Vec<GameId>, SyncError> {
    let mut sent = Vec::new();
    for upload in engine.store().changed_uploads()? {
        let (Ok(game), Some(key)) = (engine.store().load(upload.id), upload.share.key.as_deref())
        else {
            continue;
        };
        let body = upload_body(&game)?;
        let answer = engine
            .client()
            .update_share(&upload.share.server, &upload.share.link, key, &body)
            .await;
        match answer {
            Ok(_) => {
                engine.store_mut().note_sent(upload.id, upload.actions)?;
                sent.push(upload.id);
            }
            // The server no longer has the link (withdrawn from elsewhere, or lost).
            Err(SyncError::Refused {
                status: 404 | 410, ..
            }) => engine.store_mut().forget_share(upload.id)?,
            // Refused as it stands (too large, say): not sent again until it changes.
            Err(SyncError::Refused { .. }) => {
                engine.store_mut().note_sent(upload.id, upload.actions)?;
            }
            Err(e) => return Err(e),
        }
    }
    Ok(sent)
}

/// Withdraws the game's link (its page answers 410 Gone from then on) and forgets it. A link
/// the server no longer knows is forgotten too.
pub async fn withdraw(engine: &mut Correspondence, id: GameId) -> Result<(), ShareError> {
    let Some(kept) = engine.store().kept_share(id)? else {
        return Ok(());
    };
    let token = match &kept.key {
        Some(key) => key.clone(),
        None => match engine.store().remote(id)? {
            Some(remote) => remote.token,
            // The seat is gone from this device: nothing can withdraw it from here.
            None => {
                return Err(ShareError::Sync(SyncError::Protocol(
                    "no seat token".into(),
                )));
            }
        },
    };
    match engine
        .client()
        .withdraw_share(&kept.server, &kept.link, &token)
        .await
    {
        Ok(()) => {}
        Err(SyncError::Refused {
            status: 404 | 410, ..
        }) => {}
        Err(e) => return Err(e.into()),
    }
    engine.store_mut().forget_share(id)?;
    Ok(())
}
