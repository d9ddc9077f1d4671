//! The player's preferences, kept in the store's settings table.

use crate::store::{Store, StoreError};

/// The interface language.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Language {
    /// 中文 (simplified Chinese).
    Chinese,
    /// English (the texts as written in the .slint files).
    English,
}

/// How moves are written in move lists.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Notation {
    /// 炮二平五.
    Chinese,
    /// C2=5.
    Wxf,
    /// h3e3.
    Coordinates,
}

/// Which side of the board is at the bottom.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Orientation {
    /// Red at the bottom.
    RedBottom,
    /// Black at the bottom.
    BlackBottom,
    /// The side to move at the bottom: pass-and-play across a table.
    SideToMove,
}

/// All preferences.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Settings {
    /// Interface language.
    pub language: Language,
    /// Move notation.
    pub notation: Notation,
    /// Board orientation.
    pub orientation: Orientation,
    /// Ask before each move is played.
    pub confirm_moves: bool,
    /// When a person has one possible move (a roll of the die often leaves one), play it.
    pub auto_move: bool,
    /// Sounds for moves, captures, check, battles, the die and the end.
    pub sound: bool,
    /// First-game tips: a walkthrough of a screen's controls the first time it needs one.
    pub tips: bool,
}

impl Settings {
    /// Returns the defaults: the system's language if it is Chinese, else English; the
    /// notation players of that language read (Chinese, or WXF in English books and sites);
    /// Red at the bottom; no confirmation.
    pub fn defaults(system_language: Language) -> Settings {
        Settings {
            language: system_language,
            notation: match system_language {
                Language::Chinese => Notation::Chinese,
                Language::English => Notation::Wxf,
            },
            orientation: Orientation::RedBottom,
            confirm_moves: false,
            auto_move: true,
            sound: true,
            tips: true,
        }
    }

    /// Reads the stored preferences, falling back to `defaults` for any not stored or not
    /// understood (a newer build's value, say).
    pub fn load(store: &Store, defaults: Settings) -> Result<Settings, StoreError> {
        let mut s = defaults;
        if let Some(v) = store.setting("language")? {
            s.language = match v.as_str() {
                "zh" => Language::Chinese,
                "en" => Language::English,
                _ => s.language,
            };
        }
        if let Some(v) = store.setting("notation")? {
            s.notation = match v.as_str() {
                "chinese" => Notation::Chinese,
                "wxf" => Notation::Wxf,
                "coordinates" => Notation::Coordinates,
                _ => s.notation,
            };
        }
        if let Some(v) = store.setting("orientation")? {
            s.orientation = match v.as_str() {
                "red-bottom" => Orientation::RedBottom,
                "black-bottom" => Orientation::BlackBottom,
                "side-to-move" => Orientation::SideToMove,
                _ => s.orientation,
            };
        }
        if let Some(v) = store.setting("confirm-moves")? {
            s.confirm_moves = v == "true";
        }
        if let Some(v) = store.setting("auto-move")? {
            s.auto_move = v == "true";
        }
        if let Some(v) = store.setting("sound")? {
            s.sound = v != "false";
        }
        if let Some(v) = store.setting("tips")? {
            s.tips = v != "false";
        }
        Ok(s)
    }

    /// Stores every preference.
    pub fn save(&self, store: &mut Store) -> Result<(), StoreError> {
        store.set_setting("language", self.language_code())?;
        let notation = match self.notation {
            Notation::Chinese => "chinese",
            Notation::Wxf => "wxf",
            Notation::Coordinates => "coordinates",
        };
        store.set_setting("notation", notation)?;
        let orientation = match self.orientation {
            Orientation::RedBottom => "red-bottom",
            Orientation::BlackBottom => "black-bottom",
            Orientation::SideToMove => "side-to-move",
        };
        store.set_setting("orientation", orientation)?;
        store.set_setting(
            "confirm-moves",
            if self.confirm_moves { "true" } else { "false" },
        )?;
        store.set_setting("auto-move", if self.auto_move { "true" } else { "false" })?;
        store.set_setting("sound", if self.sound { "true" } else { "false" })?;
        store.set_setting("tips", if self.tips { "true" } else { "false" })
    }

    /// Returns the bundled-translation code: `zh`, or `en` for the untranslated texts.
    pub fn language_code(&self) -> &'static str {
        match self.language {
            Language::Chinese => "zh",
            Language::English => "en",
        }
    }
}

/// Reads the system language from the usual environment variables.
pub fn system_language() -> Language {
    for var in ["LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"] {
        if let Ok(value) = std::env::var(var) {
            if value.is_empty() {
                continue;
            }
            return if value.to_ascii_lowercase().starts_with("zh") {
                Language::Chinese
            } else {
                Language::English
            };
        }
    }
    Language::English
}

/// Why a typed correspondence server address cannot be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddressProblem {
    /// Not a web address (`https://` or `http://`, then a host name).
    NotAnAddress,
    /// An address of something else (a page's query or anchor, a user name and password).
    NotAServer,
}

impl AddressProblem {
    /// The code the settings screen translates.
    pub fn code(self) -> &'static str {
        match self {
            AddressProblem::NotAnAddress => "not-an-address",
            AddressProblem::NotAServer => "not-a-server",
        }
    }
}

/// Checks a typed correspondence server address and returns it as the app keeps it (no
/// surrounding spaces, no trailing slash): `https://` or `http://`, a host, an optional port
/// and path, nothing else.
pub fn server_address(typed: &str) -> Result<String, AddressProblem> {
    let text = typed.trim().trim_end_matches('/');
    let url = reqwest::Url::parse(text).map_err(|_| AddressProblem::NotAnAddress)?;
    if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none_or(str::is_empty) {
        return Err(AddressProblem::NotAnAddress);
    }
    if url.query().is_some()
        || url.fragment().is_some()
        || !url.username().is_empty()
        || url.password().is_some()
    {
        return Err(AddressProblem::NotAServer);
    }
    Ok(text.to_owned())
}

#[cfg(test)]
mod address_tests {
    use super::{AddressProblem, server_address};

    #[test]
    fn only_a_servers_web_address_is_taken() {
        assert_eq!(
            server_address(" https://qiguan.example.org/ "),
            Ok("https://qiguan.example.org".into())
        );
        assert_eq!(
            server_address("http://192.168.1.20:8080"),
            Ok("http://192.168.1.20:8080".into())
        );
        assert_eq!(
            server_address("https://example.org/qiguan"),
            Ok("https://example.org/qiguan".into())
        );
        for bad in [
            "not a url at all",
            "qiguan.example.org",
            "ftp://example.org",
            "http://",
            "",
        ] {
            assert_eq!(
                server_address(bad),
                Err(AddressProblem::NotAnAddress),
                "{bad:?}"
            );
        }
        for bad in ["https://example.org/?game=1", "https://me:pw@example.org"] {
            assert_eq!(
                server_address(bad),
                Err(AddressProblem::NotAServer),
                "{bad:?}"
            );
        }
    }
}
