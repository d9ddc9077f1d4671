//! Links to a game's page that anyone may open (`/g/{id}`): of a correspondence game this
//! server referees, made by one of its seats, or of a game a device uploaded. A link's id is
//! 128 random bits of its own, unrelated to seat tokens and invite codes; the page carries none
//! of those. A seat of the game (or, for an upload, the key its upload returned) withdraws a
//! link; the page then answers 410 Gone.
//!
//! What a page shows comes from core's [`Sheet`]: a game with hidden pieces still going on
//! shows each position as a spectator saw it, through the referee's own views.

use crate::auth::{self, Hash};
use crate::error::ApiError;
use crate::games::Games;
use crate::store::{StoreError, StoredShare, Write};
use lru::LruCache;
use qiguan_core::share::{Sheet, board_size};
use qiguan_core::{GameKind, Record};
use serde::{Deserialize, Serialize};
use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use subtle::ConstantTimeEq;

/// The largest upload accepted, in bytes.
pub const UPLOAD_LIMIT: usize = 512 * 1024;
/// The most players' names an upload may give, and the longest name.
const MAX_NAMES: usize = 4;
const MAX_NAME_CHARS: usize = 40;

/// A link made.
#[derive(Debug, Serialize)]
pub struct Shared {
    /// The link's id: the page is `/g/{id}`.
    pub id: String,
    /// The page's path on this server.
    pub path: String,
    /// For an upload: the key that withdraws the link (send it as the bearer token). Shown
    /// once; the server keeps only its hash.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
}

/// What a device uploads: the game's record, or, for a game with hidden pieces still going
/// on, only what a spectator sees of it (core's sheet, made on the device).
/// `record` and `sheet` arrive as any JSON object and are read here, so that one that is not
/// a record or a sheet is refused as such (422), like one that is but does not hold together.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Upload {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub record: Option<serde_json::Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sheet: Option<serde_json::Value>,
    /// Each seat's player's name ("" for none).
    #[serde(default)]
    pub names: Vec<String>,
}

/// A shared game as its page shows it.
#[derive(Debug)]
pub struct Shown {
    pub sheet: Sheet,
    pub names: Vec<String>,
    pub computer: Vec<bool>,
    /// The record, when nothing in it is secret (downloads).
    pub record: Option<Record>,
    /// The game goes on (on this server, or on the device that uploaded it and sends each
    /// change): the page follows it.
    pub live: bool,
}

/// A preview picture, PNG.
pub type Picture = Arc<Vec<u8>>;

/// The links and their pictures.
pub struct Shares {
    games: Arc<Games>,
    /// Preview pictures by link and version.
    pictures: Mutex<LruCache<(String, usize), Picture>>,
    /// Woken when an upload changes on this server (a page waiting on another server's
    /// change finds it when it next looks: [`RECHECK`]).
    changed: tokio::sync::Notify,
}

/// How often a page waiting on an uploaded game looks again for a change made through
/// another server of the same database.
const RECHECK: Duration = Duration::from_secs(2);

impl std::fmt::Debug for Shares {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Shares")
    }
}

fn storage(e: StoreError) -> ApiError {
    ApiError::storage(e.to_string())
}

fn no_such() -> ApiError {
    ApiError::not_found("unknown-share", "no such shared game")
}

fn withdrawn() -> ApiError {
    ApiError::gone(
        "withdrawn",
        "the player who shared this game withdrew the link",
    )
}

impl Shares {
    pub fn new(games: Arc<Games>) -> Shares {
        Shares {
            games,
            pictures: Mutex::new(LruCache::new(
                NonZeroUsize::new(256).unwrap_or(NonZeroUsize::MIN),
            )),
            changed: tokio::sync::Notify::new(),
        }
    }

    /// The link to a correspondence game for one of its seats: the one already made, or a
    /// new one.
    pub async fn share_game(&self, game_id: &str) -> Result<(Shared, bool), ApiError> {
        let store = self.games.store();
        if let Some(id) = store.share_of_game(game_id).await.map_err(storage)? {
            return Ok((shared(id, None), false));
        }
        // The game must exist and read.
        self.games.record_of(game_id).await?;
        let id = auth::new_token();
        store
            .commit(vec![Write::Share {
                id: id.clone(),
                game_id: Some(game_id.to_owned()),
                upload: None,
                names: "[]".into(),
                key_hash: None,
                at: self.games.time(),
            }])
            .await
            .map_err(storage)?;
        Ok((shared(id, None), true))
    }

    /// A game a device uploaded.
    pub async fn upload(&self, upload: Upload) -> Result<Shared, ApiError> {
        check_upload(&upload)?;
        let (names, body) = stored_upload(upload)?;
        let id = auth::new_token();
        let key = auth::new_token();
        self.games
            .store()
            .commit(vec![Write::Share {
                id: id.clone(),
                game_id: None,
                upload: Some(body),
                names,
                key_hash: Some(auth::hash(&key)),
                at: self.games.time(),
            }])
            .await
            .map_err(storage)?;
        Ok(shared(id, Some(key)))
    }

    /// An uploaded game as it stands now, sent by the device that uploaded it (`key`: what
    /// the upload returned) after each change: the page shows it, and one following the game
    /// moves on (or back, after a take-back). Only the same kind of game goes up under a link.
    pub async fn reshare(
        &self,
        id: &str,
        key: Option<&str>,
        upload: Upload,
    ) -> Result<Shared, ApiError> {
        let share = self.stored(id).await?;
        if share.withdrawn_at.is_some() {
            return Err(withdrawn());
        }
        let key = key.ok_or_else(|| {
            ApiError::unauthorized("missing-token", "send Authorization: Bearer <key>")
        })?;
        let allowed = share
            .key_hash
            .as_ref()
            .is_some_and(|hash| bool::from(auth::hash(key).ct_eq(hash)));
        if !allowed || share.game_id.is_some() {
            return Err(ApiError::forbidden(
                "not-yours",
                "only the key the upload returned sends its game again",
            ));
        }
        check_upload(&upload)?;
        let before = self.shown(id).await?.sheet;
        let (now, _) = read_upload(&upload)?;
        if now.game != before.game {
            return Err(ApiError::invalid(
                "other-game",
                "a link shows one game: send that game as it stands now, not another kind",
            ));
        }
        let (names, body) = stored_upload(upload)?;
        self.games
            .store()
            .commit(vec![Write::Reshare {
                id: id.to_owned(),
                upload: body,
                names,
            }])
            .await
            .map_err(storage)?;
        self.changed.notify_waiters();
        Ok(shared(id.to_owned(), None))
    }

    async fn stored(&self, id: &str) -> Result<StoredShare, ApiError> {
        if id.len() > 64 {
            return Err(no_such());
        }
        self.games
            .store()
            .share(id)
            .await
            .map_err(storage)?
            .ok_or_else(no_such)
    }

    /// Withdraws a link: `token` is a seat token of the shared game, or an upload's key.
    pub async fn withdraw(&self, id: &str, token: Option<&str>) -> Result<(), ApiError> {
        let share = self.stored(id).await?;
        let token = token.ok_or_else(|| {
            ApiError::unauthorized("missing-token", "send Authorization: Bearer <token>")
        })?;
        let allowed = match (&share.game_id, &share.key_hash) {
            (Some(game_id), _) => self
                .games
                .authorize(Some(token), Some(game_id))
                .await
                .is_ok(),
            (None, Some(hash)) => {
                let given: Hash = auth::hash(token);
                bool::from(given.ct_eq(hash))
            }
            (None, None) => false,
        };
        if !allowed {
            return Err(ApiError::forbidden(
                "not-yours",
                "only a seat of the game, or the key the upload returned, withdraws this link",
            ));
        }
        self.games
            .store()
            .commit(vec![Write::Withdraw {
                id: id.to_owned(),
                at: self.games.time(),
            }])
            .await
            .map_err(storage)?;
        if let Ok(mut pictures) = self.pictures.lock() {
            pictures.clear();
        }
        Ok(())
    }

    /// The shared game as its page shows it now.
    pub async fn shown(&self, id: &str) -> Result<Shown, ApiError> {
        let share = self.stored(id).await?;
        if share.withdrawn_at.is_some() {
            return Err(withdrawn());
        }
        if let Some(game_id) = &share.game_id {
            let (record, names, computer) = self.games.record_of(game_id).await?;
            let sheet = Sheet::of(&record).map_err(|_| ApiError::internal())?;
            let open = !sheet.hidden;
            return Ok(Shown {
                live: sheet.outcome.is_none(),
                record: open.then_some(record),
                sheet,
                names,
                computer,
            });
        }
        let upload: Upload = share
            .upload
            .as_deref()
            .and_then(|u| serde_json::from_str(u).ok())
            .ok_or_else(ApiError::internal)?;
        let names: Vec<String> = serde_json::from_str(&share.names).unwrap_or_default();
        let (sheet, record) = read_upload(&upload).map_err(|_| ApiError::internal())?;
        let seats = names.len().max(seat_count(&sheet));
        let mut names = names;
        names.resize(seats, String::new());
        Ok(Shown {
            computer: vec![false; seats],
            names,
            live: sheet.outcome.is_none(),
            sheet,
            record,
        })
    }

    /// Waits until the shared game has more than `after` actions, at most `timeout`; returns
    /// its number of actions (an upload's change is told here by [`Shares::reshare`], or
    /// found by looking again every [`RECHECK`]).
    pub async fn wait(&self, id: &str, after: usize, timeout: Duration) -> Result<usize, ApiError> {
        let share = self.stored(id).await?;
        if share.withdrawn_at.is_some() {
            return Err(withdrawn());
        }
        match &share.game_id {
            Some(game_id) => self.games.wait_version(game_id, after, timeout).await,
            None => {
                let deadline = tokio::time::Instant::now() + timeout;
                loop {
                    // Listening before looking: a change between the two still wakes it.
                    let notified = self.changed.notified();
                    tokio::pin!(notified);
                    notified.as_mut().enable();
                    let version = self.shown(id).await?.sheet.version;
                    let now = tokio::time::Instant::now();
                    if version > after || now >= deadline {
                        return Ok(version);
                    }
                    tokio::select! {
                        () = &mut notified => {}
                        () = tokio::time::sleep(RECHECK.min(deadline - now)) => {}
                    }
                }
            }
        }
    }

    /// The preview picture of the position now, as PNG (cached per version).
    pub async fn picture(&self, id: &str) -> Result<Picture, ApiError> {
        let shown = self.shown(id).await?;
        let key = (id.to_owned(), shown.sheet.version);
        if let Some(png) = self
            .pictures
            .lock()
            .ok()
            .and_then(|mut p| p.get(&key).cloned())
        {
            return Ok(png);
        }
        let sheet = shown.sheet;
        let png = tokio::task::spawn_blocking(move || render_png(&sheet))
            .await
            .map_err(|_| ApiError::internal())?
            .map_err(|e| ApiError::storage(format!("picture: {e}")))?;
        let png = Arc::new(png);
        if let Ok(mut pictures) = self.pictures.lock() {
            pictures.put(key, png.clone());
        }
        Ok(png)
    }
}

/// Checks an upload: at most [`MAX_NAMES`] short names, and either a record with nothing
/// secret in it or a sheet that holds together (422 otherwise).
fn check_upload(upload: &Upload) -> Result<(), ApiError> {
    if upload.names.len() > MAX_NAMES
        || upload
            .names
            .iter()
            .any(|n| n.chars().count() > MAX_NAME_CHARS)
    {
        return Err(ApiError::invalid(
            "bad-names",
            "give at most 4 names of at most 40 characters",
        ));
    }
    match (&upload.record, &upload.sheet) {
        (Some(_), None) => {
            if read_upload(upload)?.0.hidden {
                return Err(ApiError::invalid(
                    "secret-record",
                    "this game has hidden pieces and goes on: upload what a spectator sees (`sheet`), not its record",
                ));
            }
            Ok(())
        }
        (None, Some(_)) => read_upload(upload)?
            .0
            .check()
            .map_err(|e| ApiError::invalid("bad-sheet", &e)),
        _ => Err(ApiError::invalid(
            "record-or-sheet",
            "send either `record` or `sheet`",
        )),
    }
}

/// What an upload shows, and its record when it sent one.
fn read_upload(upload: &Upload) -> Result<(Sheet, Option<Record>), ApiError> {
    match (&upload.record, &upload.sheet) {
        (Some(record), _) => {
            let record = read_record(record)?;
            let sheet =
                Sheet::of(&record).map_err(|e| ApiError::invalid("bad-record", &e.to_string()))?;
            Ok((sheet, Some(record)))
        }
        (None, Some(sheet)) => Ok((read_sheet(sheet)?, None)),
        (None, None) => Err(ApiError::invalid(
            "record-or-sheet",
            "send either `record` or `sheet`",
        )),
    }
}

/// An upload as the store keeps it: the names apart (JSON), and the rest.
fn stored_upload(upload: Upload) -> Result<(String, String), ApiError> {
    let names = serde_json::to_string(&upload.names).unwrap_or_else(|_| "[]".into());
    let body = serde_json::to_string(&Upload {
        names: Vec::new(),
        ..upload
    })
    .map_err(|_| ApiError::internal())?;
    Ok((names, body))
}

/// An upload's record, or why it is none (422 bad-record).
fn read_record(value: &serde_json::Value) -> Result<Record, ApiError> {
    let record: Record = serde_json::from_value(value.clone())
        .map_err(|e| ApiError::invalid("bad-record", &format!("not a game record: {e}")))?;
    if record.format == 0 || record.format > qiguan_core::RECORD_FORMAT {
        return Err(ApiError::invalid(
            "bad-record",
            &format!("record format {} is not supported", record.format),
        ));
    }
    Ok(record)
}

/// An upload's sheet, or why it is none (422 bad-sheet).
fn read_sheet(value: &serde_json::Value) -> Result<Sheet, ApiError> {
    serde_json::from_value(value.clone())
        .map_err(|e| ApiError::invalid("bad-sheet", &format!("not a sheet: {e}")))
}

fn shared(id: String, key: Option<String>) -> Shared {
    Shared {
        path: format!("/g/{id}"),
        id,
        key,
    }
}

/// How many seats a sheet's steps show (at least two).
fn seat_count(sheet: &Sheet) -> usize {
    let most = sheet
        .steps
        .iter()
        .filter_map(|s| s.seat)
        .max()
        .map_or(0, |s| usize::from(s) + 1);
    most.max(2)
}

/// The preview picture's size: the board at twice its size.
pub fn png_size(game: GameKind) -> (u32, u32) {
    let (w, h) = board_size(game);
    ((w * 2.0).round() as u32, (h * 2.0).round() as u32)
}

/// The font the pictures' words are drawn in: the app's own subset of Noto Sans CJK SC,
/// which holds every piece's name and the board's words.
pub const FONT: &[u8] = include_bytes!("../../ui/ui/fonts/QiguanSans-Regular.otf");

/// Draws the sheet's newest position to PNG.
pub fn render_png(sheet: &Sheet) -> Result<Vec<u8>, String> {
    let last = sheet.frames.len().saturating_sub(1);
    render_svg(&sheet.svg(last, false, "", false), png_size(sheet.game))
}

/// Draws an SVG picture of the boards' kind to PNG at `(w, h)` pixels.
fn render_svg(svg: &str, (w, h): (u32, u32)) -> Result<Vec<u8>, String> {
    use resvg::{tiny_skia, usvg};
    let mut fonts = usvg::fontdb::Database::new();
    fonts.load_font_data(FONT.to_vec());
    // The pictures ask for Noto Sans CJK SC, then `sans-serif` (as browsers have them); here
    // the one font there is stands for every generic family, or no word would be drawn.
    for generic in [
        usvg::fontdb::Database::set_sans_serif_family,
        usvg::fontdb::Database::set_serif_family,
        usvg::fontdb::Database::set_monospace_family,
    ] {
        generic(&mut fonts, "Qiguan Sans");
    }
    let options = usvg::Options {
        font_family: "Qiguan Sans".into(),
        fontdb: Arc::new(fonts),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &options).map_err(|e| e.to_string())?;
    let mut pixmap = tiny_skia::Pixmap::new(w, h).ok_or("empty picture")?;
    let size = tree.size();
    let scale = (w as f32 / size.width()).min(h as f32 / size.height());
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap.encode_png().map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The preview draws the pictures' words (piece names, the river, hangars), not blank
    /// tiles: the picture differs from one drawn with every word taken out, in at least as
    /// many pixels as a word's strokes cover.
    #[test]
    fn the_preview_picture_draws_the_words() {
        for kind in [GameKind::Xiangqi, GameKind::Aeroplane] {
            let game = qiguan_core::AnyMatch::new(
                kind,
                &serde_json::Value::Null,
                &serde_json::Value::Null,
            )
            .unwrap();
            let sheet = Sheet::of(&game.record()).unwrap();
            let svg = sheet.svg(0, false, "", false);
            let mut wordless = String::new();
            let mut rest = svg.as_str();
            while let Some(start) = rest.find("<text") {
                wordless.push_str(&rest[..start]);
                let end = rest[start..].find("</text>").unwrap() + start + "</text>".len();
                rest = &rest[end..];
            }
            wordless.push_str(rest);
            assert!(wordless.len() < svg.len(), "{kind:?} has words");
            let size = png_size(kind);
            let pixels = |svg: &str| {
                let png = render_svg(svg, size).unwrap();
                resvg::tiny_skia::Pixmap::decode_png(&png)
                    .unwrap()
                    .data()
                    .to_vec()
            };
            let (with, without) = (pixels(&svg), pixels(&wordless));
            let differ = with
                .chunks(4)
                .zip(without.chunks(4))
                .filter(|(a, b)| a != b)
                .count();
            assert!(differ > 5_000, "{kind:?}: only {differ} pixels show words");
        }
    }
}
