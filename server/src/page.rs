//! The shared game page, `GET /g/{id}`: HTML written on the server, readable without a
//! script. The board is core's picture of the game ([`Sheet::svg`]) with every mark of every
//! position drawn once; the page's small script steps through the positions by showing and
//! hiding those marks, and follows a game in progress with the server's long poll. Without the
//! script every step is a link (`?ply=N`) that the server draws.

use qiguan_core::share::{Sheet, escape};
use qiguan_core::{EndReason, GameKind, GameResult, Outcome, ToAct};

/// The page's language.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Lang {
    Zh,
    En,
}

impl Lang {
    /// `?lang=` when given, else the browser's first of Chinese and English (English when it
    /// names neither).
    pub fn pick(query: Option<&str>, accept_language: Option<&str>) -> Lang {
        match query {
            Some("zh") => return Lang::Zh,
            Some("en") => return Lang::En,
            _ => {}
        }
        let header = accept_language.unwrap_or("").to_ascii_lowercase();
        let zh = header.find("zh");
        let en = header.find("en");
        match (zh, en) {
            (Some(z), Some(e)) if z < e => Lang::Zh,
            (Some(_), None) => Lang::Zh,
            _ => Lang::En,
        }
    }

    fn code(self) -> &'static str {
        match self {
            Lang::Zh => "zh",
            Lang::En => "en",
        }
    }

    fn t<'a>(self, zh: &'a str, en: &'a str) -> &'a str {
        match self {
            Lang::Zh => zh,
            Lang::En => en,
        }
    }
}

/// How Xiangqi moves are written.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Notation {
    /// 炮二平五
    Chinese,
    /// C2=5
    Wxf,
    /// h3e3
    Coordinates,
}

impl Notation {
    /// `?n=` when given, else Chinese for Chinese readers and WXF for English ones.
    pub fn pick(query: Option<&str>, lang: Lang) -> Notation {
        match query {
            Some("zh") => Notation::Chinese,
            Some("wxf") => Notation::Wxf,
            Some("coords") => Notation::Coordinates,
            _ if lang == Lang::Zh => Notation::Chinese,
            _ => Notation::Wxf,
        }
    }

    fn code(self) -> &'static str {
        match self {
            Notation::Chinese => "zh",
            Notation::Wxf => "wxf",
            Notation::Coordinates => "coords",
        }
    }
}

/// Everything a page shows.
#[derive(Debug)]
pub struct Page<'a> {
    pub id: &'a str,
    pub sheet: &'a Sheet,
    /// Each seat's player's name ("" when not given).
    pub names: &'a [String],
    /// Which seats the computer plays.
    pub computer: &'a [bool],
    /// Whether the JSON record (and for Xiangqi the PGN) may be downloaded.
    pub downloads: bool,
    /// Whether the game goes on on this server (the page follows it).
    pub live: bool,
    pub lang: Lang,
    pub notation: Notation,
    /// The position shown: after this many steps (the last when `None`).
    pub ply: Option<usize>,
    /// Where the server is reached from outside (`https://host`), for the preview's address.
    pub origin: &'a str,
}

/// The game's name.
pub fn game_name(game: GameKind, lang: Lang) -> &'static str {
    match game {
        GameKind::Xiangqi => lang.t("象棋", "Xiangqi"),
        GameKind::Junqi => lang.t("军棋", "Junqi"),
        GameKind::SeaLandAir => lang.t("海陆空", "Sea-land-air battle chess"),
        GameKind::Aeroplane => lang.t("飞行棋", "Aeroplane chess"),
        _ => lang.t("棋局", "Game"),
    }
}

/// What the board's one-character marks mean, where a board has them (Sea-land-air's
/// points), as the app's board gives it.
fn legend(game: GameKind, lang: Lang) -> String {
    match game {
        GameKind::SeaLandAir => format!(
            "<p class=\"note\">{}</p>\n",
            lang.t(
                "城 军旗城 · 炮 炮位 · 兵 兵站 · 海 海军阵地 · 港 港口 · 桥 铁路桥",
                "城 city · 炮 cannon · 兵 army post · 海 navy · 港 port · 桥 rail bridge",
            )
        ),
        _ => String::new(),
    }
}

/// A seat's name in its game (of `seats`), for a player who gave none.
fn seat_name(game: GameKind, seat: usize, seats: usize, lang: Lang) -> String {
    let pick = |zh: [&'static str; 2], en: [&'static str; 2]| {
        lang.t(
            zh.get(seat).copied().unwrap_or("?"),
            en.get(seat).copied().unwrap_or("?"),
        )
        .to_string()
    };
    match game {
        GameKind::Xiangqi => pick(["红方", "黑方"], ["Red", "Black"]),
        // As the app names them: the first seat plays red, the second blue.
        GameKind::Junqi | GameKind::SeaLandAir => pick(["红方", "蓝方"], ["Red", "Blue"]),
        GameKind::Aeroplane => {
            let colours = qiguan_core::aeroplane::board::colours(seats);
            match colours.get(seat) {
                Some(c) => {
                    let english = ["Red", "Yellow", "Blue", "Green"][c.index()];
                    lang.t(&format!("{}方", c.chinese()), english).to_string()
                }
                None => "?".into(),
            }
        }
        _ => format!("{}{}", lang.t("座位 ", "Seat "), seat + 1),
    }
}

/// Each seat's label: the player's name, the seat's name with it.
pub fn players(page: &Page) -> Vec<String> {
    (0..page.names.len())
        .map(|seat| {
            let side = seat_name(page.sheet.game, seat, page.names.len(), page.lang);
            let name = page.names[seat].trim();
            if page.computer.get(seat).copied().unwrap_or(false) {
                format!("{side} · {}", page.lang.t("电脑", "Computer"))
            } else if name.is_empty() {
                side
            } else {
                format!("{side} · {name}")
            }
        })
        .collect()
}

/// How the game stands, in words.
pub fn standing(page: &Page) -> String {
    let lang = page.lang;
    let players = players(page);
    let who = |seat: usize| players.get(seat).cloned().unwrap_or_default();
    match &page.sheet.outcome {
        Some(outcome) => result_words(outcome, lang, &who),
        None => match &page.sheet.to_act {
            ToAct::Seat(s) => format!("{}{}", who(s.index()), lang.t(" 走棋", " to move")),
            ToAct::Seats(_) => lang.t("双方布阵中", "Both sides are deploying").into(),
            ToAct::Chance => lang
                .t("等待掷骰或发牌", "Waiting for the dice or the deal")
                .into(),
            ToAct::Over(outcome) => result_words(outcome, lang, &who),
        },
    }
}

fn result_words(outcome: &Outcome, lang: Lang, who: &dyn Fn(usize) -> String) -> String {
    let reason = reason_words(outcome.reason, lang);
    match &outcome.result {
        GameResult::Win { winners } => {
            let names: Vec<String> = winners.iter().map(|s| who(s.index())).collect();
            format!(
                "{}{}{reason}",
                names.join(lang.t("、", ", ")),
                lang.t(" 胜", " won")
            )
        }
        GameResult::Draw => format!("{}{reason}", lang.t("和棋", "Drawn")),
        GameResult::Ranking { order } => {
            let names: Vec<String> = order
                .iter()
                .enumerate()
                .map(|(i, s)| format!("{}. {}", i + 1, who(s.index())))
                .collect();
            format!("{}{}", names.join(lang.t("；", "; ")), reason)
        }
    }
}

fn reason_words(reason: EndReason, lang: Lang) -> String {
    let (zh, en) = match reason {
        EndReason::Checkmate => ("将死", "checkmate"),
        EndReason::Stalemate => ("困毙", "no legal move"),
        EndReason::PerpetualCheck => ("长将判负", "perpetual check"),
        EndReason::PerpetualChase => ("长捉判负", "perpetual chase"),
        EndReason::Repetition => ("重复局面", "repetition"),
        EndReason::NoAttackers => ("双方无子可攻", "no attacking pieces"),
        EndReason::MoveLimit => ("步数已满", "move limit"),
        EndReason::Resignation => ("认输", "resignation"),
        EndReason::DrawAgreed => ("议和", "draw agreed"),
        EndReason::Timeout => ("超时", "out of time"),
        EndReason::FlagCaptured => ("夺得军旗", "flag captured"),
        EndReason::AllHome => ("全部到达终点", "all planes home"),
        _ => ("", ""),
    };
    match lang {
        _ if zh.is_empty() => String::new(),
        Lang::Zh => format!("（{zh}）"),
        Lang::En => format!(" ({en})"),
    }
}

/// One step's words in the page's language and notation.
fn step_words(page: &Page, step: &qiguan_core::share::Step) -> String {
    if page.sheet.game == GameKind::Xiangqi {
        return match page.notation {
            Notation::Chinese => step.zh.clone(),
            Notation::Wxf => step.en.clone(),
            Notation::Coordinates => step.coordinates.clone().unwrap_or_default(),
        };
    }
    page.lang.t(&step.zh, &step.en).to_string()
}

/// The page's title: the game and its players.
pub fn title(page: &Page) -> String {
    let players = players(page);
    format!(
        "{} · {}",
        game_name(page.sheet.game, page.lang),
        players.join(page.lang.t(" 对 ", " vs "))
    )
}

/// The page's address with these query settings (`ply` left out: the last position).
fn link(page: &Page, ply: Option<usize>, lang: Lang, notation: Notation) -> String {
    let mut out = format!("/g/{}?lang={}", page.id, lang.code());
    if page.sheet.game == GameKind::Xiangqi {
        out.push_str("&amp;n=");
        out.push_str(notation.code());
    }
    if let Some(ply) = ply {
        out.push_str(&format!("&amp;ply={ply}"));
    }
    out
}

const STYLE: &str = include_str!("page.css");
const SCRIPT: &str = include_str!("page.js");

/// The whole page.
pub fn render(page: &Page) -> String {
    let lang = page.lang;
    let sheet = page.sheet;
    let last = sheet.frames.len().saturating_sub(1);
    let ply = page.ply.unwrap_or(last).min(last);
    let title = escape(&title(page));
    let standing = escape(&standing(page));
    let players = players(page);
    let game = game_name(sheet.game, lang);
    let mut out = String::with_capacity(16 * 1024 + sheet.marks.len() * 200);
    let description = format!(
        "{standing} · {} {}",
        sheet.steps.len(),
        lang.t(
            "步",
            if sheet.steps.len() == 1 {
                "step"
            } else {
                "steps"
            }
        )
    );
    out.push_str(&format!(
        r#"<!DOCTYPE html>
<html lang="{html_lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>{title} · {app}</title>
<meta name="description" content="{description}">
<meta property="og:type" content="website">
<meta property="og:site_name" content="{app}">
<meta property="og:title" content="{title}">
<meta property="og:description" content="{description}">
<meta property="og:image" content="{origin}/g/{id}.png">
<meta property="og:image:type" content="image/png">
<meta property="og:image:width" content="{png_w}">
<meta property="og:image:height" content="{png_h}">
<meta property="og:image:alt" content="{alt}">
<meta name="twitter:card" content="summary_large_image">
<meta name="twitter:title" content="{title}">
<meta name="twitter:image" content="{origin}/g/{id}.png">
<style>{STYLE}</style>
</head>
<body class="{kind}">
"#,
        kind = sheet.game.as_str(),
        html_lang = lang.t("zh-Hans", "en"),
        app = lang.t("棋馆", "Qiguan"),
        origin = escape(page.origin),
        id = page.id,
        png_w = crate::shares::png_size(sheet.game).0,
        png_h = crate::shares::png_size(sheet.game).1,
        alt = escape(&format!(
            "{game}: {}",
            lang.t("当前局面", "the position now")
        )),
    ));
    // The header: the game, its players, how it stands, the languages.
    out.push_str(&format!(
        r#"<header>
<div class="top"><p class="app">{app}</p>
<nav class="langs" aria-label="{lang_label}"><a href="{zh}" lang="zh-Hans" hreflang="zh-Hans"{zh_on}>中文</a> <a href="{en}" lang="en" hreflang="en"{en_on}>English</a></nav></div>
<h1>{game}</h1>
<ul class="players">{players}</ul>
<p class="standing" id="standing">{standing}</p>
</header>
"#,
        app = lang.t("棋馆 · 对局分享", "Qiguan · shared game"),
        players = players
            .iter()
            .enumerate()
            .map(|(i, p)| format!(
                r#"<li class="{}">{}</li>"#,
                ink(sheet.game, i, players.len()),
                escape(p)
            ))
            .collect::<String>(),
        lang_label = lang.t("语言", "Language"),
        zh = link(page, page.ply, Lang::Zh, if page.notation == Notation::Wxf { Notation::Chinese } else { page.notation }),
        en = link(page, page.ply, Lang::En, if page.notation == Notation::Chinese { Notation::Wxf } else { page.notation }),
        zh_on = if lang == Lang::Zh { r#" aria-current="true""# } else { "" },
        en_on = if lang == Lang::En { r#" aria-current="true""# } else { "" },
    ));
    // The board and the stepping controls.
    let hidden_note = if sheet.hidden {
        format!(
            r#"<p class="note">{}</p>"#,
            lang.t(
                "对局进行中：暗子保持隐藏，如同观战者所见；终局后全部揭晓。",
                "The game is going on: hidden pieces stay hidden, as a spectator sees them; all is shown once it ends."
            )
        )
    } else {
        String::new()
    };
    out.push_str(&format!(
        r#"<main id="game" data-id="{id}" data-version="{version}" data-live="{live}" data-ply="{ply}" data-last="{last}">
<div class="board {kind}">
{svg}</div>
<nav class="steps" aria-label="{steps_label}">
<a class="step" id="first" href="{first}" title="{first_t}" aria-label="{first_t}">{icon_first}</a>
<a class="step" id="back" href="{back}" title="{back_t}" aria-label="{back_t}">{icon_back}</a>
<span id="where" aria-live="polite">{where_}</span>
<a class="step" id="forward" href="{forward}" title="{forward_t}" aria-label="{forward_t}">{icon_forward}</a>
<a class="step" id="end" href="{end}" title="{end_t}" aria-label="{end_t}">{icon_end}</a>
</nav>
{legend}{hidden_note}"#,
        id = page.id,
        version = sheet.version,
        live = u8::from(page.live),
        kind = sheet.game.as_str(),
        svg = sheet.svg(
            ply,
            true,
            &format!("{game}: {}", where_words(lang, ply, last)),
            lang == Lang::En
        ),
        legend = legend(sheet.game, lang),
        steps_label = lang.t("步进", "Steps"),
        first = link(page, Some(0), lang, page.notation),
        back = link(page, Some(ply.saturating_sub(1)), lang, page.notation),
        forward = link(page, Some((ply + 1).min(last)), lang, page.notation),
        end = link(page, None, lang, page.notation),
        first_t = lang.t("开局", "Start"),
        back_t = lang.t("上一步", "Back"),
        forward_t = lang.t("下一步", "Forward"),
        end_t = lang.t("最新", "Last"),
        where_ = where_words(lang, ply, last),
        icon_first = icon("M6 5h2.5v14H6zM19 5v14L9.5 12z"),
        icon_back = icon("M17 5v14L6 12z"),
        icon_forward = icon("M7 5v14l11-7z"),
        icon_end = icon("M15.5 5H18v14h-2.5zM5 5v14l9.5-7z"),
    ));
    // The steps, each a link to the position after it.
    out.push_str(&format!(
        r#"<section class="moves">
<h2>{}</h2>
"#,
        lang.t("棋谱", "Moves")
    ));
    if sheet.game == GameKind::Xiangqi {
        let choice = |n: Notation, words: &str| {
            let on = if n == page.notation {
                r#" aria-current="true""#
            } else {
                ""
            };
            format!(
                r#"<a href="{}"{on}>{words}</a>"#,
                link(page, page.ply, lang, n)
            )
        };
        out.push_str(&format!(
            r#"<p class="notation">{} {} {} {}</p>
"#,
            lang.t("记谱：", "Notation:"),
            choice(Notation::Chinese, lang.t("中文", "Chinese")),
            choice(Notation::Wxf, "WXF"),
            choice(Notation::Coordinates, lang.t("坐标", "Coordinates")),
        ));
    }
    if sheet.steps.is_empty() {
        out.push_str(&format!(
            "<p>{}</p>\n",
            lang.t("还没有走棋。", "No moves yet.")
        ));
    } else {
        let pairs = sheet.game == GameKind::Xiangqi;
        out.push_str(if pairs {
            r#"<ol id="steps" class="pairs">"#
        } else {
            r#"<ol id="steps">"#
        });
        let link_to = |n: usize, step: &qiguan_core::share::Step| {
            let current = if n == ply {
                r#" class="current" aria-current="step""#
            } else {
                ""
            };
            format!(
                r#"<a href="{href}" data-ply="{n}"{current}>{words}</a>"#,
                href = link(page, Some(n), lang, page.notation),
                words = escape(&step_words(page, step)),
            )
        };
        // Xiangqi's moves in pairs, Red's and Black's, numbered as players number them.
        let per_row = if pairs { 2 } else { 1 };
        for (row, steps) in sheet.steps.chunks(per_row).enumerate() {
            if pairs {
                out.push_str(&format!(r#"<li><span class="n">{}.</span>"#, row + 1));
            } else {
                out.push_str("<li>");
            }
            for (i, step) in steps.iter().enumerate() {
                out.push_str(&link_to(row * per_row + i + 1, step));
            }
            out.push_str("</li>");
        }
        out.push_str("</ol>\n");
    }
    out.push_str("</section>\n");
    // Downloads.
    out.push_str(r#"<section class="downloads">"#);
    out.push_str(&format!("<h2>{}</h2>", lang.t("下载", "Download")));
    if page.downloads {
        if sheet.game == GameKind::Xiangqi {
            out.push_str(&format!(
                r#"<a href="/g/{id}.pgn" download="qiguan-{id}.pgn">PGN</a> "#,
                id = page.id
            ));
        }
        out.push_str(&format!(
            r#"<a href="/g/{id}.json" download="qiguan-{id}.json">{words}</a> "#,
            id = page.id,
            words = lang.t("JSON 棋谱（棋馆可导入）", "JSON record (Qiguan imports it)")
        ));
    } else {
        out.push_str(&format!(
            "<p>{}</p>",
            lang.t(
                "对局结束后可下载完整棋谱。",
                "The whole record can be downloaded once the game is over."
            )
        ));
    }
    out.push_str(&format!(
        r#"<a href="/g/{id}.png">{words}</a>"#,
        id = page.id,
        words = lang.t("局面图片（PNG）", "Picture of the position (PNG)")
    ));
    out.push_str("</section>\n</main>\n");
    // The positions, by the marks each shows, and the step words for the script.
    let frames = serde_json::to_string(&sheet.frames).unwrap_or_else(|_| "[]".into());
    out.push_str(&format!(
        r#"<script type="application/json" id="frames">{}</script>
<script type="application/json" id="words">{}</script>
<script>{SCRIPT}</script>
</body>
</html>
"#,
        frames.replace('<', "\\u003c"),
        serde_json::json!({
            "where": [lang.t("开局", "Start"), lang.t("{n} / {last} 步", "Step {n} of {last}")],
        })
        .to_string()
        .replace('<', "\\u003c"),
    ));
    out
}

/// A step button's picture: one path in a 24 px square.
fn icon(path: &str) -> String {
    format!(
        r#"<svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true"><path d="{path}" fill="currentColor"/></svg>"#
    )
}

/// The CSS class of a seat's ink: its colour in its game.
fn ink(game: GameKind, seat: usize, seats: usize) -> &'static str {
    match game {
        GameKind::Xiangqi => ["ink-red", "ink-black"].get(seat).copied().unwrap_or(""),
        GameKind::Junqi | GameKind::SeaLandAir => {
            ["ink-red", "ink-blue"].get(seat).copied().unwrap_or("")
        }
        GameKind::Aeroplane => qiguan_core::aeroplane::board::colours(seats)
            .get(seat)
            .map_or("", |c| {
                ["ink-red", "ink-yellow", "ink-blue", "ink-green"][c.index()]
            }),
        _ => "",
    }
}

fn where_words(lang: Lang, ply: usize, last: usize) -> String {
    if ply == 0 {
        lang.t("开局", "Start").to_string()
    } else {
        lang.t("{n} / {last} 步", "Step {n} of {last}")
            .replace("{n}", &ply.to_string())
            .replace("{last}", &last.to_string())
    }
}

/// The page of a link that was withdrawn or never existed.
pub fn gone(lang: Lang, withdrawn: bool) -> String {
    let (heading, words) = if withdrawn {
        (
            lang.t("链接已撤回", "Link withdrawn"),
            lang.t(
                "分享这局棋的玩家撤回了这个链接。",
                "The player who shared this game withdrew the link.",
            ),
        )
    } else {
        (
            lang.t("找不到这局棋", "No such game"),
            lang.t(
                "这个链接不对，或者已经失效。",
                "This link is wrong, or no longer works.",
            ),
        )
    };
    format!(
        r#"<!DOCTYPE html>
<html lang="{}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>{heading} · {app}</title>
<style>{STYLE}</style>
</head>
<body>
<header><p class="app">{app}</p><h1>{heading}</h1></header>
<main><p>{words}</p></main>
</body>
</html>
"#,
        lang.t("zh-Hans", "en"),
        app = lang.t("棋馆", "Qiguan"),
    )
}

/// A shared Xiangqi game as PGN (WXF moves), with its players' names.
pub fn pgn(record: &qiguan_core::Record, names: &[String]) -> Option<String> {
    use qiguan_core::xiangqi::Xiangqi;
    use qiguan_core::xiangqi::pgn::{MoveFormat, write_pgn};
    let game = qiguan_core::Match::<Xiangqi>::from_record(record).ok()?;
    let name = |i: usize, side: &str| {
        names
            .get(i)
            .map(|n| n.trim())
            .filter(|n| !n.is_empty())
            .unwrap_or(side)
            .to_string()
    };
    Some(write_pgn(
        &game,
        &[
            ("Event", "Qiguan shared game".into()),
            ("White", name(0, "Red")),
            ("Black", name(1, "Black")),
        ],
        MoveFormat::Wxf,
    ))
}
