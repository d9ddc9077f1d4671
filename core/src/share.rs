//! A game as a page shows it to anyone: every position of the game as pictures, with the
//! steps between them. What the page may show is decided here, by the authority's own views:
//! a game with secrets shows each position as a spectator saw it until the game is over, and
//! everything once it is.
//!
//! A [`Sheet`] holds the distinct marks (a piece at a place, the last move's two ends) drawn
//! in the board pictures' pixels, and each position as the list of marks it shows, so that a
//! page draws every mark once and steps through the game by showing and hiding them: the board
//! geometry stays here, in one place, and the page's script knows none of it.

use crate::aeroplane::{Aeroplane, AeroplaneMove, AeroplaneView, Colour, geometry};
use crate::game::{Actor, GameKind, Outcome, Rules, ToAct, Viewer};
use crate::junqi::{Junqi, JunqiEvent, JunqiMove, JunqiView, Point as JunqiPoint, Side};
use crate::matches::Match;
use crate::record::{Record, RecordError};
use crate::sealandair::{Point as SeaPoint, SeaLandAir, SeaLandAirEvent, SeaLandAirView};
use crate::svg::start;
use crate::xiangqi::{Move as XiangqiMove, Position, Square, Xiangqi, XiangqiView};
use crate::{Action, aeroplane, junqi, sealandair, xiangqi};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt::Write;

/// One thing drawn on the board, at `(x, y)` in the board picture's pixels.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Mark {
    /// Across, from the picture's left.
    pub x: f32,
    /// Down, from the picture's top.
    pub y: f32,
    /// What is drawn there.
    pub look: Look,
}

/// What a mark is.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Look {
    /// A piece: its ink is its side (Xiangqi: 0 red, 1 black; Junqi and Sea-land-air: 0 South,
    /// 1 North, 2 no one knows whose; Aeroplane: the colour, 0 red to 3 green); its name is
    /// what is printed on it, `None` when it lies hidden.
    Piece {
        /// Whose it is.
        ink: u8,
        /// What is printed on it.
        name: Option<String>,
    },
    /// Where the last move started.
    From,
    /// Where the last move ended.
    To,
}

/// One step of the game (a move, a roll, a deployment), as the page lists it.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Step {
    /// Who made it (none for the authority's deal).
    pub seat: Option<u8>,
    /// In Chinese (Xiangqi: its Chinese notation, 炮二平五).
    pub zh: String,
    /// In English (Xiangqi: WXF, C2=5).
    pub en: String,
    /// Xiangqi only: the move in coordinates (h3e3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub coordinates: Option<String>,
}

/// A whole game as a page shows it.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Sheet {
    /// Which game.
    pub game: GameKind,
    /// Every distinct mark of every position.
    pub marks: Vec<Mark>,
    /// Each position, by the marks it shows: the start, then one after each step.
    pub frames: Vec<Vec<u32>>,
    /// The steps between the positions (`frames.len() - 1` of them).
    pub steps: Vec<Step>,
    /// How the game ended, if it has.
    pub outcome: Option<Outcome>,
    /// Who acts next (or the outcome).
    pub to_act: ToAct,
    /// Whether pieces are hidden: a game with secrets, still going on.
    pub hidden: bool,
    /// How many actions the record holds (a page following the game waits for more).
    pub version: usize,
}

/// The board picture's size in pixels for each game.
pub fn board_size(game: GameKind) -> (f64, f64) {
    match game {
        GameKind::Xiangqi => xiangqi::picture::SIZE,
        GameKind::Junqi => junqi::picture::SIZE,
        GameKind::SeaLandAir => sealandair::picture::SIZE,
        GameKind::Aeroplane => aeroplane::picture::SIZE,
    }
}

impl Sheet {
    /// The game a record describes, as anyone may see it: everything when the game hides
    /// nothing or is over; otherwise each position as a spectator saw it.
    pub fn of(record: &Record) -> Result<Sheet, RecordError> {
        match record.game {
            GameKind::Xiangqi => build::<Xiangqi>(record),
            GameKind::Junqi => build::<Junqi>(record),
            GameKind::SeaLandAir => build::<SeaLandAir>(record),
            GameKind::Aeroplane => build::<Aeroplane>(record),
        }
    }

    /// Checks a sheet that came from elsewhere (a device's upload): every position names
    /// marks it has, one position more than steps, marks on the board with a side the game
    /// has, and sizes bounded. Says what is wrong.
    pub fn check(&self) -> Result<(), String> {
        const MAX_MARKS: usize = 20_000;
        const MAX_STEPS: usize = 5_000;
        const MAX_NAME: usize = 8;
        const MAX_WORDS: usize = 200;
        if self.marks.len() > MAX_MARKS || self.steps.len() > MAX_STEPS {
            return Err(format!("at most {MAX_MARKS} marks and {MAX_STEPS} steps"));
        }
        if self.frames.len() != self.steps.len() + 1 {
            return Err("one position more than steps is needed".into());
        }
        let inks = match self.game {
            GameKind::Xiangqi => 2,
            GameKind::Junqi | GameKind::SeaLandAir => 3,
            GameKind::Aeroplane => 4,
        };
        let (width, height) = board_size(self.game);
        for (i, mark) in self.marks.iter().enumerate() {
            let inside =
                (0.0..=width as f32).contains(&mark.x) && (0.0..=height as f32).contains(&mark.y);
            let fits = match &mark.look {
                Look::Piece { ink, name } => {
                    *ink < inks && name.as_ref().is_none_or(|n| n.chars().count() <= MAX_NAME)
                }
                Look::From | Look::To => true,
            };
            if !inside || !fits {
                return Err(format!("mark {i} is not one this game's board can show"));
            }
        }
        let marks = self.marks.len() as u32;
        for (i, frame) in self.frames.iter().enumerate() {
            if frame.len() > 400 || frame.iter().any(|&m| m >= marks) {
                return Err(format!("position {i} names marks the sheet does not have"));
            }
        }
        for (i, step) in self.steps.iter().enumerate() {
            let long = |t: &str| t.chars().count() > MAX_WORDS;
            if long(&step.zh)
                || long(&step.en)
                || step.coordinates.as_deref().is_some_and(long)
                || step
                    .seat
                    .is_some_and(|s| usize::from(s) >= crate::seat::MAX_SEATS)
            {
                return Err(format!("step {} is too long or names no seat", i + 1));
            }
        }
        if self.version < self.steps.len() {
            return Err("the version counts fewer actions than the steps".into());
        }
        Ok(())
    }

    /// The position after `step` steps as an SVG picture. With `every_mark`, every mark of
    /// the game is drawn, those of other positions with `display="none"` and each as a group
    /// with the id `m<index>` (what a page's script shows and hides); without, only the
    /// position's own (a picture for a preview). With `english`, the board's own words
    /// (hangars, airports) are English; piece names are Chinese either way.
    pub fn svg(&self, step: usize, every_mark: bool, title: &str, english: bool) -> String {
        let (width, height) = board_size(self.game);
        let mut out = String::new();
        start(&mut out, width, height);
        let _ = writeln!(out, "<title>{}</title>", escape(title));
        match self.game {
            GameKind::Xiangqi => xiangqi::picture::draw_board(&mut out),
            GameKind::Junqi => junqi::picture::draw_board(&mut out),
            GameKind::SeaLandAir => sealandair::picture::draw_board(&mut out, english),
            GameKind::Aeroplane => aeroplane::picture::draw_board(&mut out, english),
        }
        let shown: Vec<u32> = self
            .frames
            .get(step.min(self.frames.len().saturating_sub(1)))
            .cloned()
            .unwrap_or_default();
        // The last move's marks first, so that pieces stand on them; on the tile boards (Junqi,
        // Sea-land-air), whose tiles can crowd a point's neighbours, they go round the tiles.
        let order = match self.game {
            GameKind::Junqi | GameKind::SeaLandAir => [false, true],
            _ => [true, false],
        };
        for last in order {
            for (i, mark) in self.marks.iter().enumerate() {
                if matches!(mark.look, Look::Piece { .. }) == last {
                    continue;
                }
                let on = shown.contains(&(i as u32));
                if !on && !every_mark {
                    continue;
                }
                if every_mark {
                    let hide = if on { "" } else { r#" display="none""# };
                    let _ = writeln!(out, r#"<g id="m{i}"{hide}>"#);
                }
                self.draw(&mut out, mark);
                if every_mark {
                    out.push_str("</g>\n");
                }
            }
        }
        out.push_str("</svg>\n");
        out
    }

    fn draw(&self, out: &mut String, mark: &Mark) {
        let at = (f64::from(mark.x), f64::from(mark.y));
        match &mark.look {
            Look::Piece { ink, name } => {
                let name = name.as_deref().map(escape);
                match self.game {
                    GameKind::Xiangqi => xiangqi::picture::draw_piece(
                        out,
                        at,
                        *ink == 0,
                        name.as_deref().unwrap_or(""),
                    ),
                    GameKind::Junqi => {
                        let side = [Some(Side::South), Some(Side::North)]
                            .get(usize::from(*ink))
                            .copied()
                            .flatten();
                        junqi::picture::draw_piece(out, at, side, name.as_deref());
                    }
                    GameKind::SeaLandAir => {
                        sealandair::picture::draw_piece(out, at, *ink == 1, name.as_deref());
                    }
                    GameKind::Aeroplane => aeroplane::picture::draw_plane(
                        out,
                        at,
                        Colour::from_index(usize::from(*ink)),
                        name.as_deref().unwrap_or(""),
                    ),
                }
            }
            Look::From | Look::To => {
                let dash = if mark.look == Look::From {
                    r#" stroke-dasharray="4 3""#
                } else {
                    ""
                };
                let style = format!(r##"fill="none" stroke="#e08a00" stroke-width="3"{dash}"##);
                let (x, y) = at;
                let _ = match self.game {
                    GameKind::Xiangqi => {
                        writeln!(out, r#"<circle cx="{x:.1}" cy="{y:.1}" r="19" {style}/>"#)
                    }
                    GameKind::Aeroplane => {
                        writeln!(out, r#"<circle cx="{x:.1}" cy="{y:.1}" r="12" {style}/>"#)
                    }
                    GameKind::Junqi | GameKind::SeaLandAir => {
                        let (w, h) = if self.game == GameKind::Junqi {
                            (54.0, 34.0)
                        } else {
                            (40.0, 28.0)
                        };
                        writeln!(
                            out,
                            r#"<rect x="{:.1}" y="{:.1}" width="{w}" height="{h}" rx="6" {style}/>"#,
                            x - w / 2.0,
                            y - h / 2.0
                        )
                    }
                };
            }
        }
    }
}

/// Escapes text for HTML and SVG.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// What a game draws of a view, and how it names a step.
trait Drawn: Rules {
    /// The marks of a view: its pieces and the last move's ends.
    fn marks(view: &Self::View) -> Vec<Mark>;
    /// The step a move made, told from the views before and after it; `None` for a move that
    /// changes nothing anyone sees (asking for a roll).
    fn step(before: &Self::View, after: &Self::View, mv: &Self::Move, by: Actor) -> Option<Step>;
}

fn build<G: Drawn>(record: &Record) -> Result<Sheet, RecordError> {
    let whole = Match::<G>::from_record(record)?;
    let outcome = whole.outcome();
    let mut start = record.clone();
    start.actions.clear();
    start.fair = None;
    let mut game = Match::<G>::from_record(&start)?;
    // Once a game with secrets is over, every position shows everything; until then, what a
    // spectator saw. The authority's own views decide both.
    let see = |m: &Match<G>| match &outcome {
        Some(o) if !G::PUBLIC_ACTIONS => m.game().concluded_view(Viewer::Spectator, o),
        _ => m.view(Viewer::Spectator).game,
    };
    let mut marks = Vec::new();
    let mut index: HashMap<String, u32> = HashMap::new();
    let mut frame = |view: &G::View| -> Vec<u32> {
        G::marks(view)
            .into_iter()
            .map(|mark| {
                let key = format!("{:.1},{:.1},{:?}", mark.x, mark.y, mark.look);
                *index.entry(key).or_insert_with(|| {
                    marks.push(mark);
                    (marks.len() - 1) as u32
                })
            })
            .collect()
    };
    let mut before = see(&game);
    let mut frames = vec![frame(&before)];
    let mut steps = Vec::new();
    for (index, entry) in record.actions.iter().enumerate() {
        let bad = |reason: String| RecordError::BadAction {
            index,
            action: entry.action.clone(),
            reason,
        };
        let action: Action<G::Move> = entry
            .action
            .parse()
            .map_err(|e: <G::Move as std::str::FromStr>::Err| bad(e.to_string()))?;
        game.apply(entry.by, &action)
            .map_err(|e| bad(e.to_string()))?;
        let Action::Play(mv) = &action else {
            continue;
        };
        let after = see(&game);
        if let Some(step) = G::step(&before, &after, mv, entry.by) {
            steps.push(step);
            frames.push(frame(&after));
        }
        before = after;
    }
    Ok(Sheet {
        game: G::KIND,
        marks,
        frames,
        steps,
        hidden: !G::PUBLIC_ACTIONS && outcome.is_none(),
        outcome,
        to_act: whole.to_act(),
        version: record.actions.len(),
    })
}

fn mark((x, y): (f64, f64), look: Look) -> Mark {
    Mark {
        x: x as f32,
        y: y as f32,
        look,
    }
}

fn seat_of(by: Actor) -> Option<u8> {
    match by {
        Actor::Seat(s) => Some(s.index() as u8),
        Actor::Authority => None,
    }
}

impl Drawn for Xiangqi {
    fn marks(view: &XiangqiView) -> Vec<Mark> {
        let mut out = Vec::new();
        if let Some(last) = view
            .moves
            .last()
            .and_then(|m| m.parse::<XiangqiMove>().ok())
        {
            out.push(mark(xiangqi::picture::centre(last.from), Look::From));
            out.push(mark(xiangqi::picture::centre(last.to), Look::To));
        }
        if let Ok(pos) = Position::from_fen(&view.fen) {
            for sq in Square::all() {
                if let Some(piece) = pos.piece_at(sq) {
                    let ink = u8::from(piece.color() != xiangqi::Color::Red);
                    let name =
                        xiangqi::notation::chinese_name(piece.color(), piece.kind()).to_string();
                    out.push(mark(
                        xiangqi::picture::centre(sq),
                        Look::Piece {
                            ink,
                            name: Some(name),
                        },
                    ));
                }
            }
        }
        out
    }

    fn step(before: &XiangqiView, _: &XiangqiView, mv: &XiangqiMove, by: Actor) -> Option<Step> {
        let pos = Position::from_fen(&before.fen).ok()?;
        Some(Step {
            seat: seat_of(by),
            zh: xiangqi::notation::to_chinese(&pos, *mv),
            en: xiangqi::notation::to_wxf(&pos, *mv),
            coordinates: Some(mv.to_string()),
        })
    }
}

/// Junqi's and Sea-land-air's side names, as the app says them: the south side's pieces are
/// red, the north side's blue.
fn side_words(side: Side) -> (&'static str, &'static str) {
    match side {
        Side::South => ("红方", "Red"),
        Side::North => ("蓝方", "Blue"),
    }
}

/// A battle's result in words, Chinese and English.
fn battle_words(
    at: &str,
    attacker: Option<&str>,
    defender: Option<&str>,
    attacker_removed: bool,
    defender_removed: bool,
) -> (String, String) {
    let a = attacker.unwrap_or("？");
    let d = defender.unwrap_or("？");
    let zh = match (attacker_removed, defender_removed) {
        (true, true) => "同归于尽",
        (false, true) => "吃子",
        (true, false) => "被吃",
        (false, false) => "不分胜负",
    };
    // Piece names stay Chinese in English too, as on the app's boards.
    let (ea, ed) = (attacker.unwrap_or("?"), defender.unwrap_or("?"));
    let en = match (attacker_removed, defender_removed) {
        (true, true) => format!("{at}: {ea} and {ed} are both removed"),
        (false, true) => format!("{at}: {ea} takes {ed}"),
        (true, false) => format!("{at}: {ea} is taken by {ed}"),
        (false, false) => format!("{at}: {ea} meets {ed}, both stay"),
    };
    (format!("{at} {a}×{d} {zh}"), en)
}

impl Drawn for Junqi {
    fn marks(view: &JunqiView) -> Vec<Mark> {
        let centre = |at: &str| at.parse::<JunqiPoint>().ok().map(junqi::picture::centre);
        let mut out = Vec::new();
        if let Some(last) = &view.last {
            let mv = match &last.event {
                JunqiEvent::Moved { mv } | JunqiEvent::Battle { mv, .. } => Some(mv),
                _ => None,
            };
            if let Some(JunqiMove::Go(m)) = mv.and_then(|mv| mv.parse::<JunqiMove>().ok()) {
                out.push(mark(junqi::picture::centre(m.from), Look::From));
                out.push(mark(junqi::picture::centre(m.to), Look::To));
            }
        }
        for piece in &view.pieces {
            if let Some(at) = centre(&piece.at) {
                let look = Look::Piece {
                    ink: piece.side as u8,
                    name: piece.rank.map(|r| r.chinese().to_string()),
                };
                out.push(mark(at, look));
            }
        }
        for at in view.face_down.iter().filter_map(|p| centre(p)) {
            out.push(mark(at, Look::Piece { ink: 2, name: None }));
        }
        out
    }

    fn step(_: &JunqiView, after: &JunqiView, mv: &JunqiMove, by: Actor) -> Option<Step> {
        let seat = seat_of(by);
        let side = |s: u8| after.colours.get(usize::from(s)).copied().flatten();
        let (zh, en) = match (mv, after.last.as_ref().map(|l| &l.event)) {
            (JunqiMove::Deploy(_), _) => match seat.and_then(side) {
                Some(s) => {
                    let (zh, en) = side_words(s);
                    (format!("{zh}布阵"), format!("{en} deploys"))
                }
                None => ("布阵".into(), "Deploys".into()),
            },
            (JunqiMove::Deal(_), _) => (
                "发牌：棋子全部扣放".into(),
                "The pieces are dealt face down".into(),
            ),
            (_, Some(JunqiEvent::Flipped { at, rank, .. })) => (
                format!("翻 {at} {}", rank.chinese()),
                format!("Turns {at}: {}", rank.chinese()),
            ),
            (_, Some(JunqiEvent::Moved { mv })) => (mv_words(mv), mv_words(mv)),
            (
                _,
                Some(JunqiEvent::Battle {
                    mv,
                    attacker_removed,
                    defender_removed,
                    attacker,
                    defender,
                }),
            ) => {
                let last = after.last.as_ref();
                let known = |seen: Option<junqi::Rank>, piece: Option<&junqi::SeenPiece>| {
                    seen.or(piece.and_then(|p| p.rank)).map(|r| r.chinese())
                };
                battle_words(
                    &mv_words(mv),
                    known(*attacker, last.and_then(|l| l.mover.as_ref())),
                    known(*defender, last.and_then(|l| l.defender.as_ref())),
                    *attacker_removed,
                    *defender_removed,
                )
            }
            _ => (mv.to_string(), mv.to_string()),
        };
        Some(Step {
            seat,
            zh,
            en,
            coordinates: None,
        })
    }
}

/// A move's text `a1a5` as `a1–a5` (Junqi), or Sea-land-air's `a1-a3`, `a4*a7` as they are.
fn mv_words(mv: &str) -> String {
    if mv.contains(['-', '*']) {
        return mv.replace('-', "–");
    }
    // Junqi's points are a letter and one or two digits: split before the second letter.
    match mv
        .char_indices()
        .skip(1)
        .find(|(_, c)| c.is_ascii_alphabetic())
    {
        Some((i, _)) => format!("{}–{}", &mv[..i], &mv[i..]),
        None => mv.to_string(),
    }
}

impl Drawn for SeaLandAir {
    fn marks(view: &SeaLandAirView) -> Vec<Mark> {
        let centre = |at: &str| at.parse::<SeaPoint>().ok().map(sealandair::picture::centre);
        let mut out = Vec::new();
        if let Some(last) = &view.last {
            let mv = match &last.event {
                SeaLandAirEvent::Moved { mv }
                | SeaLandAirEvent::Battle { mv, .. }
                | SeaLandAirEvent::Retreated { mv, .. } => Some(mv.as_str()),
                _ => None,
            };
            if let Some((from, to)) = mv.and_then(|mv| mv.split_once(['-', '*']))
                && let (Some(a), Some(b)) = (centre(from), centre(to))
            {
                out.push(mark(a, Look::From));
                out.push(mark(b, Look::To));
            }
        }
        // Pieces sharing a point (aircraft on an airport) stand side by side.
        let mut at_point: HashMap<&str, usize> = HashMap::new();
        for piece in &view.pieces {
            let Some((x, y)) = centre(&piece.at) else {
                continue;
            };
            let n = at_point.entry(piece.at.as_str()).or_default();
            let shift = *n as f64 * 10.0;
            *n += 1;
            let look = Look::Piece {
                ink: piece.side as u8,
                name: piece.kind.map(|k| k.short().to_string()),
            };
            out.push(mark((x + shift, y + shift), look));
        }
        out
    }

    fn step(
        _: &SeaLandAirView,
        after: &SeaLandAirView,
        mv: &<SeaLandAir as Rules>::Move,
        by: Actor,
    ) -> Option<Step> {
        let seat = seat_of(by);
        let deploys = matches!(mv, sealandair::SeaLandAirMove::Deploy(_));
        let (zh, en) = match after.last.as_ref().map(|l| &l.event) {
            _ if deploys => {
                let side = seat.map(|s| side_words(if s == 0 { Side::South } else { Side::North }));
                match side {
                    Some((zh, en)) => (format!("{zh}布阵"), format!("{en} deploys")),
                    None => ("布阵".into(), "Deploys".into()),
                }
            }
            Some(SeaLandAirEvent::Moved { mv }) => (mv_words(mv), mv_words(mv)),
            Some(SeaLandAirEvent::Retreated { mv, shot_down }) => {
                let mv = mv_words(mv);
                if *shot_down {
                    (
                        format!("{mv} 返航被击落"),
                        format!("{mv}: shot down retreating"),
                    )
                } else {
                    (format!("{mv} 返航"), format!("{mv}: retreats"))
                }
            }
            Some(SeaLandAirEvent::Battle {
                mv,
                attacker_removed,
                defender_removed,
                attacker,
                defender,
                ..
            }) => {
                let last = after.last.as_ref();
                let known = |seen: Option<sealandair::Kind>, p: Option<&sealandair::SeenPiece>| {
                    seen.or(p.and_then(|p| p.kind)).map(|k| k.chinese())
                };
                battle_words(
                    &mv_words(mv),
                    known(*attacker, last.and_then(|l| l.mover.as_ref())),
                    known(*defender, last.and_then(|l| l.defender.as_ref())),
                    *attacker_removed,
                    *defender_removed,
                )
            }
            _ => (mv.to_string(), mv.to_string()),
        };
        Some(Step {
            seat,
            zh,
            en,
            coordinates: None,
        })
    }
}

/// Aeroplane colours' names, Chinese and English.
fn colour_words(c: Colour) -> (&'static str, &'static str) {
    (c.chinese(), ["Red", "Yellow", "Blue", "Green"][c.index()])
}

impl Drawn for Aeroplane {
    fn marks(view: &AeroplaneView) -> Vec<Mark> {
        let mut out = Vec::new();
        if let Some(plan) = &view.last_move
            && let (Some(&c), Some(&p)) = (
                view.table.colours.get(plan.seat.index()),
                plan.planes.first(),
            )
        {
            let at = |spot| {
                aeroplane::picture::cell_centre(geometry::spot_cell(c, spot, usize::from(p)))
            };
            out.push(mark(at(plan.from), Look::From));
            out.push(mark(at(plan.to()), Look::To));
        }
        // Planes sharing a cell (a stack, or planes of two colours on a safe square) stand a
        // little apart.
        let mut at_cell: HashMap<(i32, i32), usize> = HashMap::new();
        for (seat, planes) in view.table.planes.iter().enumerate() {
            let Some(&c) = view.table.colours.get(seat) else {
                continue;
            };
            for (p, &spot) in planes.iter().enumerate() {
                let cell = geometry::spot_cell(c, spot, p);
                let (x, y) = aeroplane::picture::cell_centre(cell);
                let n = at_cell
                    .entry(((x * 2.0) as i32, (y * 2.0) as i32))
                    .or_default();
                let shift = *n as f64 * 5.0;
                *n += 1;
                let name = if spot == aeroplane::Spot::GOAL {
                    "✓".to_string()
                } else {
                    (p + 1).to_string()
                };
                out.push(mark(
                    (x + shift, y - shift),
                    Look::Piece {
                        ink: c.index() as u8,
                        name: Some(name),
                    },
                ));
            }
        }
        out
    }

    fn step(
        before: &AeroplaneView,
        after: &AeroplaneView,
        mv: &AeroplaneMove,
        by: Actor,
    ) -> Option<Step> {
        let turn = before.turn;
        let colour = before.table.colours.get(turn.index()).copied()?;
        let (czh, cen) = colour_words(colour);
        let (zh, en) = match mv {
            AeroplaneMove::Roll => return None,
            AeroplaneMove::Die(v) => (format!("{czh}方掷出 {v}"), format!("{cen} rolls {v}")),
            AeroplaneMove::Plane(p) | AeroplaneMove::Stack(p) => {
                let stack = matches!(mv, AeroplaneMove::Stack(_));
                let (mut zh, mut en) = if stack {
                    (
                        format!("{czh}方 {} 号机带叠子走", p + 1),
                        format!("{cen} stack {}", p + 1),
                    )
                } else {
                    (
                        format!("{czh}方 {} 号机", p + 1),
                        format!("{cen} plane {}", p + 1),
                    )
                };
                if let Some(plan) = &after.last_move {
                    if plan.from == aeroplane::Spot::Hangar {
                        zh.push_str(" 起飞");
                        en.push_str(" takes off");
                    }
                    if plan.flew() {
                        zh.push_str(" 飞捷径");
                        en.push_str(", flies the shortcut");
                    }
                    if !plan.captured.is_empty() {
                        let n = plan.captured.len();
                        zh.push_str(&format!(" 击落 {n} 架"));
                        en.push_str(&format!(
                            ", sends {n} plane{} home",
                            if n == 1 { "" } else { "s" }
                        ));
                    }
                }
                (zh, en)
            }
        };
        Some(Step {
            seat: match by {
                Actor::Authority => Some(turn.index() as u8),
                _ => seat_of(by),
            },
            zh,
            en,
            coordinates: None,
        })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a failed unwrap is a failed test
    use super::*;
    use crate::AnyMatch;
    use crate::junqi::{Deployment, JunqiOptions, Rank, Visibility};
    use crate::seat::Seat;

    /// Plays a game of `kind` with its computer (or the first legal action) for `plies`
    /// actions, the authority resolving chance from a fixed seed.
    fn played(kind: GameKind, options: serde_json::Value, plies: usize) -> AnyMatch {
        let mut game = AnyMatch::new(kind, &options, &serde_json::Value::Null).unwrap();
        let mut pick = crate::matches::seeded_pick(7);
        for n in 0..plies {
            let actor = match game.to_act() {
                ToAct::Seat(s) => Actor::Seat(s),
                ToAct::Seats(s) => Actor::Seat(s[0]),
                ToAct::Chance => {
                    game.resolve_chance(&mut pick).unwrap();
                    continue;
                }
                ToAct::Over(_) => break,
            };
            let Actor::Seat(seat) = actor else {
                unreachable!()
            };
            let action = game
                .computer_action(seat, crate::Strength::Easy, n as u64)
                .unwrap_or_else(|| game.legal_actions(actor)[0].clone());
            game.apply_text(actor, &action).unwrap();
        }
        game
    }

    fn shown_names(sheet: &Sheet, frame: usize) -> Vec<String> {
        sheet.frames[frame]
            .iter()
            .filter_map(|&i| match &sheet.marks[i as usize].look {
                Look::Piece { name: Some(n), .. } => Some(n.clone()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_xiangqi_sheet_shows_each_position_and_names_each_move_three_ways() {
        let mut game: Match<Xiangqi> = Match::new(&Default::default(), None).unwrap();
        for mv in ["h3e3", "h10g8", "h1g3", "i10h10", "e3e7"] {
            let seat = game.view(Viewer::Spectator).game.side_to_move;
            game.apply_text(Actor::Seat(seat), mv).unwrap();
        }
        let sheet = Sheet::of(&game.record()).unwrap();
        assert_eq!(sheet.frames.len(), 6);
        assert_eq!(sheet.steps[0].zh, "炮二平五");
        assert_eq!(sheet.steps[0].en, "C2=5");
        assert_eq!(sheet.steps[0].coordinates.as_deref(), Some("h3e3"));
        assert_eq!(sheet.steps[1].zh, "马8进7");
        assert_eq!(sheet.steps[1].seat, Some(1));
        // 32 pieces and the last move's two ends, until the cannon takes a soldier.
        assert_eq!(sheet.frames[0].len(), 32);
        assert_eq!(sheet.frames[4].len(), 34);
        assert_eq!(shown_names(&sheet, 5).len(), 31);
        // The cannon stands on e3 after the first move and on e7 after the fifth.
        let at = |frame: usize, sq: &str| {
            let (file, rank) = (
                sq.as_bytes()[0] - b'a',
                sq[1..].parse::<usize>().unwrap() - 1,
            );
            let (x, y) = xiangqi::picture::centre(Square::new(usize::from(file), rank).unwrap());
            sheet.frames[frame].iter().any(|&i| {
                let m = &sheet.marks[i as usize];
                (f64::from(m.x), f64::from(m.y)) == (x as f32 as f64, y as f32 as f64)
                    && matches!(&m.look, Look::Piece { name: Some(n), ink: 0 } if n == "炮")
            })
        };
        assert!(at(1, "e3") && !at(1, "h3"));
        assert!(at(0, "h3") && !at(0, "e3"));
        assert!(at(5, "e7"));
        assert!(!sheet.hidden);
        assert_eq!(sheet.version, 5);
        sheet.check().unwrap();
        // The page's picture: every mark once, those of other positions hidden.
        let svg = sheet.svg(1, true, "t", false);
        assert_eq!(svg.matches("<g id=\"m").count(), sheet.marks.len());
        assert_eq!(
            svg.matches("display=\"none\"").count(),
            sheet.marks.len() - sheet.frames[1].len()
        );
    }

    #[test]
    fn a_junqi_game_in_referee_mode_shows_no_hidden_piece_until_it_is_over() {
        let options = serde_json::to_value(JunqiOptions {
            visibility: Visibility::Referee,
            ..Default::default()
        })
        .unwrap();
        let mut game = AnyMatch::new(GameKind::Junqi, &options, &serde_json::Value::Null).unwrap();
        for (seat, side, seed) in [(0, Side::South, 3), (1, Side::North, 4)] {
            let text = Deployment::random(side, seed).to_text();
            game.apply_text(
                Actor::Seat(Seat::new(seat).unwrap()),
                &format!("deploy:{text}"),
            )
            .unwrap();
        }
        for n in 0..60 {
            let ToAct::Seat(seat) = game.to_act() else {
                break;
            };
            let action = game
                .computer_action(seat, crate::Strength::Easy, n)
                .unwrap();
            game.apply_text(Actor::Seat(seat), &action).unwrap();
        }
        let record = game.record();
        let sheet = Sheet::of(&record).unwrap();
        assert!(sheet.hidden && sheet.outcome.is_none());
        // No rank's name in any mark, step or picture (the flag shows once its commander
        // falls: that is everyone's to know).
        let ranks = [
            Rank::FieldMarshal,
            Rank::General,
            Rank::Brigadier,
            Rank::Engineer,
            Rank::Landmine,
            Rank::Bomb,
        ];
        for frame in 0..sheet.frames.len() {
            for name in shown_names(&sheet, frame) {
                assert_eq!(name, Rank::Flag.chinese(), "frame {frame} shows {name}");
            }
            let svg = sheet.svg(frame, true, "", false);
            for rank in ranks {
                assert!(!svg.contains(rank.chinese()), "{}", rank.chinese());
            }
        }
        let words = serde_json::to_string(&sheet.steps).unwrap();
        for rank in ranks {
            assert!(!words.contains(rank.chinese()), "{words}");
        }
        // Once it is over every position shows every piece, the first after deployment too.
        game.apply_text(Actor::Seat(Seat::FIRST), "resign").unwrap();
        let over = Sheet::of(&game.record()).unwrap();
        assert!(!over.hidden && over.outcome.is_some());
        assert_eq!(over.frames.len(), sheet.frames.len());
        assert_eq!(shown_names(&over, 2).len(), 50);
        over.check().unwrap();
    }

    #[test]
    fn every_game_played_at_random_makes_a_sheet_that_holds_together() {
        let games = [
            (GameKind::Xiangqi, serde_json::Value::Null, 40),
            (
                GameKind::Junqi,
                serde_json::json!({"visibility": "open"}),
                40,
            ),
            (
                GameKind::Junqi,
                serde_json::json!({"visibility": "flip"}),
                40,
            ),
            (GameKind::SeaLandAir, serde_json::Value::Null, 40),
            (GameKind::Aeroplane, serde_json::json!({"seats": 4}), 120),
        ];
        for (kind, options, plies) in games {
            let game = played(kind, options, plies);
            let sheet = Sheet::of(&game.record()).unwrap();
            sheet.check().unwrap_or_else(|e| panic!("{kind:?}: {e}"));
            assert!(sheet.steps.len() > 5, "{kind:?}");
            for frame in 0..sheet.frames.len() {
                let svg = sheet.svg(frame, false, "", false);
                assert!(
                    svg.starts_with("<svg") && svg.ends_with("</svg>\n"),
                    "{kind:?}"
                );
            }
            // Through JSON, as an upload travels.
            let again: Sheet =
                serde_json::from_str(&serde_json::to_string(&sheet).unwrap()).unwrap();
            assert_eq!(again, sheet);
        }
    }

    #[test]
    fn a_sheet_that_does_not_hold_together_is_refused() {
        let game = played(GameKind::Xiangqi, serde_json::Value::Null, 6);
        let sheet = Sheet::of(&game.record()).unwrap();
        let mut bad = sheet.clone();
        bad.frames[2].push(bad.marks.len() as u32);
        assert!(bad.check().is_err());
        let mut bad = sheet.clone();
        bad.frames.pop();
        assert!(bad.check().is_err());
        let mut bad = sheet.clone();
        bad.marks[0].x = -50.0;
        assert!(bad.check().is_err());
        let mut bad = sheet.clone();
        bad.marks
            .push(mark((10.0, 10.0), Look::Piece { ink: 5, name: None }));
        assert!(bad.check().is_err());
        let mut bad = sheet;
        bad.marks.push(mark(
            (10.0, 10.0),
            Look::Piece {
                ink: 0,
                name: Some("<script>".into()),
            },
        ));
        assert!(bad.check().is_ok(), "eight characters fit");
        let svg = bad.svg(0, true, "", false);
        assert!(!svg.contains("<script>") && svg.contains("&lt;script&gt;"));
    }
}
