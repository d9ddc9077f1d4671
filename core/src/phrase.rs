//! The preset phrases players send each other in a correspondence game. There is no free
//! text: a phrase travels as its code, each client shows it in its player's language, and
//! the server (which stores and forwards phrases) has nothing to moderate.

/// Every phrase, by code, in the order a client offers them.
pub const PHRASES: [&str; 9] = [
    "hello",
    "good-move",
    "hurry",
    "thinking",
    "oops",
    "well-played",
    "thanks",
    "rematch",
    "bye",
];

/// Whether `code` is one of the [`PHRASES`].
pub fn is_phrase(code: &str) -> bool {
    PHRASES.contains(&code)
}

/// The phrase in Chinese and English, for messages outside the app's UI (the app's screens
/// translate the code themselves).
pub fn words(code: &str) -> Option<(&'static str, &'static str)> {
    Some(match code {
        "hello" => ("你好", "Hello"),
        "good-move" => ("好棋", "Good move"),
        "hurry" => ("快点吧", "Please hurry"),
        "thinking" => ("让我想想", "Let me think"),
        "oops" => ("失误了", "Oops"),
        "well-played" => ("下得好", "Well played"),
        "thanks" => ("谢谢", "Thanks"),
        "rematch" => ("再来一局", "Another game?"),
        "bye" => ("再见", "Goodbye"),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_phrase_has_words_and_nothing_else_does() {
        for code in PHRASES {
            assert!(is_phrase(code));
            let (zh, en) = words(code).expect(code);
            assert!(!zh.is_empty() && !en.is_empty());
        }
        assert!(!is_phrase("Hello"));
        assert!(!is_phrase("free text"));
        assert_eq!(words("free text"), None);
        let mut sorted = PHRASES.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), PHRASES.len());
    }
}
