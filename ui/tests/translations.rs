//! Every @tr string in the .slint files has a Chinese translation with the same placeholders.

use std::collections::HashMap;
use std::path::Path;

/// Every .slint file under `dir`, its folders included.
fn slint_files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).expect("ui/ui exists") {
        let path = entry.expect("readable entry").path();
        if path.is_dir() {
            files.extend(slint_files(&path));
        } else if path.extension().is_some_and(|e| e == "slint") {
            files.push(path);
        }
    }
    files
}

fn tr_strings() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("ui");
    let mut found = Vec::new();
    for path in slint_files(&dir) {
        let text = std::fs::read_to_string(&path).expect("readable .slint");
        for (i, _) in text.match_indices("@tr(\"") {
            let rest = &text[i + 5..];
            let mut end = 0;
            let bytes = rest.as_bytes();
            while end < bytes.len()
                && !(bytes[end] == b'"' && (end == 0 || bytes[end - 1] != b'\\'))
            {
                end += 1;
            }
            found.push(rest[..end].to_owned());
        }
    }
    found
}

fn po() -> HashMap<String, String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("lang/zh/LC_MESSAGES/qiguan-ui.po");
    let text = std::fs::read_to_string(path).expect("the zh .po file exists");
    let mut map = HashMap::new();
    let mut msgid = None;
    for line in text.lines() {
        if let Some(id) = line.strip_prefix("msgid \"") {
            msgid = Some(id.trim_end_matches('"').to_owned());
        } else if let Some(s) = line.strip_prefix("msgstr \"")
            && let Some(id) = msgid.take()
        {
            map.insert(id, s.trim_end_matches('"').to_owned());
        }
    }
    map
}

#[test]
fn every_interface_string_has_a_chinese_translation_with_the_same_placeholders() {
    let po = po();
    let strings = tr_strings();
    assert!(
        strings.len() > 100,
        "found only {} @tr strings",
        strings.len()
    );
    let mut problems = Vec::new();
    for s in &strings {
        match po.get(s).filter(|t| !t.is_empty()) {
            None => problems.push(format!(
                "untranslated: {s:?} (run scripts/update-translations)"
            )),
            Some(t) if t.matches("{}").count() != s.matches("{}").count() => {
                problems.push(format!("placeholders differ: {s:?} -> {t:?}"))
            }
            _ => {}
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
