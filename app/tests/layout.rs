//! Every screen, at phone and desktop size and in both languages: nothing a player can read
//! or press sticks out of the window sideways (except on a zoomed board, which pans), every
//! text fits its box (none cut off, elided or wrapped past its height: the UI's `Label` says
//! so while `TextFit.check` is on), and everything pressable is at least 44 px tall. The board's points are excepted: nine columns
//! on a 360 px phone leave 40 px, and the whole point is the touch area (Sea-land-air's board
//! zooms for bigger ones). Aeroplane chess's planes that can move are buttons 44 px across,
//! though a square is 24 px on a phone.

mod common;

use i_slint_backend_testing::{AccessibleRole, ElementHandle, ElementQuery};
use qiguan_app::settings::Language;
use qiguan_app::ui::TextFit;
use slint::ComponentHandle;

fn is_board_point(label: &str) -> bool {
    let b = label.as_bytes();
    let named = (2..=3).contains(&b.len())
        && (b'a'..=b'i').contains(&b[0])
        && label[1..].parse::<u8>().is_ok();
    // Sea-land-air's stopping dots, airports and rail bridge.
    let sea_land_air = label.parse::<qiguan_core::sealandair::Point>().is_ok();
    named || sea_land_air
}

fn check(size: (u32, u32), language: Language) -> Vec<String> {
    let mut problems = Vec::new();
    common::tour(size, language, |app, screen| {
        app.window().global::<TextFit>().set_check(true);
        let elements = ElementQuery::from_root(app.window())
            .match_descendants()
            .find_all();
        let board = panned_board(&elements, size);
        let on_board = |pos: slint::LogicalPosition, sz: slint::LogicalSize| {
            board.is_some_and(|(b, bs)| {
                pos.x >= b.x - 0.5
                    && pos.x + sz.width <= b.x + bs.width + 0.5
                    && pos.y >= b.y - 0.5
                    && pos.y + sz.height <= b.y + bs.height + 0.5
            })
        };
        let mut seen = 0;
        for e in elements {
            let Some(role) = e.accessible_role() else {
                continue;
            };
            if matches!(role, AccessibleRole::None) || e.computed_opacity() <= 0.0 {
                continue;
            }
            let label = e.accessible_label().unwrap_or_default().to_string();
            let (pos, sz) = (e.absolute_position(), e.size());
            if sz.width <= 0.0 || sz.height <= 0.0 {
                continue;
            }
            seen += 1;
            if e.accessible_description().as_deref() == Some("does not fit") {
                problems.push(format!(
                    "{screen} {size:?} {language:?}: text {label:?} does not fit its {:.0}×{:.0} box",
                    sz.width, sz.height
                ));
            }
            let outside = pos.x < -0.5 || pos.x + sz.width > size.0 as f32 + 0.5;
            if outside && !on_board(pos, sz) {
                problems.push(format!(
                    "{screen} {size:?}: {role:?} {label:?} spans x {:.0}..{:.0}",
                    pos.x,
                    pos.x + sz.width
                ));
            }
            // The rules pages quote notation, file formats and the names of other programs
            // as they are written (`[Variant "Xiangqi"]`, Fairy-Stockfish): not checked.
            if language == Language::Chinese
                && !screen.starts_with("rules")
                && let Some(latin) = latin_words(&label)
            {
                problems.push(format!(
                    "{screen}: Latin text {latin:?} in {role:?} {label:?}"
                ));
            }
            // And the English interface has no Chinese but the pieces' names (they are what
            // the pieces are called in any language), the river's inscription and the name
            // of the language to switch to.
            if language == Language::English
                && !screen.starts_with("rules")
                && let Some(chinese) = chinese_words(screen, &label)
            {
                problems.push(format!(
                    "{screen}: Chinese {chinese:?} in {role:?} {label:?}"
                ));
            }
            let pressable = matches!(role, AccessibleRole::Button | AccessibleRole::Checkbox);
            if pressable && sz.height < 43.5 && !is_board_point(&label) {
                problems.push(format!(
                    "{screen} {size:?}: {role:?} {label:?} is {:.0} px tall",
                    sz.height
                ));
            }
        }
        if seen < 5 {
            problems.push(format!("{screen} {size:?}: only {seen} elements found"));
        }
    });
    problems
}

/// A board zoomed wider than the window is panned: it and what is on it may run past the
/// window's sides (its Flickable clips them). Returns its place and size, if there is one.
fn panned_board(
    elements: &[ElementHandle],
    size: (u32, u32),
) -> Option<(slint::LogicalPosition, slint::LogicalSize)> {
    elements.iter().find_map(|e| {
        let label = e.accessible_label().unwrap_or_default();
        let groupbox = matches!(e.accessible_role(), Some(AccessibleRole::Groupbox));
        (groupbox && (label == "Board" || label == "棋盘") && e.size().width > size.0 as f32)
            .then(|| (e.absolute_position(), e.size()))
    })
}

/// The Latin words of a text shown in the Chinese interface, other than what is Latin in any
/// language: the tour's player names, board points (`e6`), move notation (`h3e3`, `C8+2`),
/// invite codes, paths and addresses, and the names of the program, its licences and the
/// notations. `None` when there are none.
fn latin_words(text: &str) -> Option<String> {
    const ALLOWED: &[&str] = &[
        // The tour's players.
        "Ann",
        "Bo",
        "Cy",
        "Di",
        // Names of the program, its parts and licences, and of notations.
        "Qiguan",
        "Sans",
        "Noto",
        "CJK",
        "SC",
        "SIL",
        "OFL",
        "MIT",
        "Apache",
        "PGN",
        "FEN",
        "WXF",
        "ICCS",
        // Game files by their extensions, and a file's size.
        "XQF",
        "TXT",
        "UBB",
        "MB",
        "xqf",
        "pgn",
        // Slint's own attribution (AboutSlint, which its licence asks for) is in English.
        "MadeWithSlint",
        "Version",
        "Slint",
        // The language choice names itself.
        "English",
    ];
    // Paths and addresses are what they are in any language.
    let words: Vec<&str> = text
        .split_whitespace()
        .filter(|w| !w.contains('/'))
        .collect();
    let text = words.join(" ");
    let bad: Vec<&str> = text
        .split(|c: char| !(c.is_ascii_alphanumeric() || "+-=.".contains(c)))
        .filter(|w| w.chars().any(|c| c.is_ascii_alphabetic()))
        .filter(|w| !ALLOWED.contains(w) && !is_notation(w) && !is_opening_code(w))
        .collect();
    (!bad.is_empty()).then(|| bad.join(" "))
}

/// An opening's ECCO-style code (`C02`) or class letter (`C`), Latin in either language as
/// ECCO writes them.
fn is_opening_code(word: &str) -> bool {
    let mut chars = word.chars();
    chars.next().is_some_and(|c| ('A'..='E').contains(&c))
        && matches!(word.len(), 1 | 3)
        && chars.all(|c| c.is_ascii_digit())
}

/// The Chinese characters of a text shown in the English interface on this screen, other
/// than what is Chinese in any language: the pieces' names (Xiangqi's, Junqi's, Sea-land-air's,
/// as core names them), the river's inscription, the marks printed on Sea-land-air's board
/// (explained in its legend), each game's emblem on its tile and hand-over card, the app's
/// name, 中文 (the language choice names itself), the Chinese notation's sample among the
/// notations in Settings, and the names the tour's players and devices were given. `None`
/// when there are none.
fn chinese_words(screen: &str, text: &str) -> Option<String> {
    use qiguan_core::{junqi, sealandair};
    const EMBLEMS: &[&str] = &["帅", "军", "飞", "海", "海陆空"];
    if EMBLEMS.contains(&text) || (screen == "settings" && text == "炮二平五  马8进7") {
        return None;
    }
    let mut allowed: Vec<&str> = vec![
        "楚",
        "河",
        "汉",
        "漢",
        "界",
        "中文",
        "棋馆",
        "张三",
        "李四",
        "许银川",
        "吕钦",
        "书房电脑",
        "小米手机",
    ];
    if screen.starts_with("sealandair") {
        allowed.extend(["城", "炮", "兵", "海", "港", "桥"]);
    }
    allowed.extend(junqi::Rank::ALL.iter().map(|r| r.chinese()));
    allowed.extend(sealandair::Kind::ALL.iter().map(|k| k.chinese()));
    allowed.extend(sealandair::Kind::ALL.iter().map(|k| k.short()));
    // Xiangqi's pieces, in the simplified characters the board uses and the traditional ones
    // of Chinese notation.
    let xiangqi = "帅将仕士相象马车炮兵卒帥將傌馬俥車砲";
    let chars: Vec<String> = xiangqi.chars().map(String::from).collect();
    allowed.extend(chars.iter().map(String::as_str));
    // The longest names first, so that 战列舰 goes before 战列.
    allowed.sort_by_key(|a| std::cmp::Reverse(a.chars().count()));
    let mut rest = text.to_string();
    for a in allowed {
        rest = rest.replace(a, " ");
    }
    let cjk = |c: char| {
        ('\u{2e80}'..='\u{9fff}').contains(&c)
            || ('\u{f900}'..='\u{faff}').contains(&c)
            || ('\u{ff00}'..='\u{ffef}').contains(&c)
    };
    let bad: String = rest.chars().filter(|&c| cjk(c)).collect();
    (!bad.is_empty()).then_some(bad)
}

/// A board point or a move in coordinates (`e6`, `h3e3`), WXF (`C8+2`, `P1=2`), an invite
/// code (`ABCDE-FGHJK`) or pairing code (`ABCD-EFGH-JKMN`), a version or file name (`0.1.0`), or one of Sea-land-air's named
/// points (the airports and the rail bridge).
fn is_notation(w: &str) -> bool {
    let point = |s: &str| {
        let mut c = s.chars();
        matches!(c.next(), Some('a'..='s'))
            && !c.as_str().is_empty()
            && c.all(|d| d.is_ascii_digit())
    };
    let halves = (2..w.len()).any(|i| w.is_char_boundary(i) && point(&w[..i]) && point(&w[i..]));
    let wxf = w.len() == 4
        && w.starts_with(|c: char| "KAEBHNRCP".contains(c))
        && w[2..3].chars().all(|c| "+-=.".contains(c));
    let code = w.len() == 11
        && w.as_bytes()[5] == b'-'
        && w.chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-');
    // A device pairing code (`ABCD-EFGH-JKMN`).
    let pairing = w.len() == 14
        && w.as_bytes()[4] == b'-'
        && w.as_bytes()[9] == b'-'
        && w.chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-');
    let dotted = w.contains('.') && w.split('.').all(|p| !p.is_empty());
    let named = ["sw", "se", "nw", "ne", "br"].contains(&w);
    point(w) || halves || wxf || code || pairing || dotted || named
}

#[test]
fn every_screen_fits_a_phone_in_both_languages() {
    let mut problems = check((360, 780), Language::Chinese);
    problems.extend(check((360, 780), Language::English));
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_screen_fits_a_desktop_window() {
    let mut problems = check((1280, 800), Language::English);
    problems.extend(check((1280, 800), Language::Chinese));
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
