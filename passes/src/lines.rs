//! The generated tables are JSON objects written one entry per line
//! (`"name": value,`). Indexing them by line costs a scan of the text, not a
//! JSON parse: a process parses only the entries it reads.

use serde_json::value::RawValue;

/// The entries of a JSON object, keys without their quotes and values as
/// JSON text, keys starting with `_` (`_generated_by`) left out: indexed by
/// line when the object is written one entry per line, else read as JSON.
pub fn index(text: &'static str) -> Result<Vec<(&'static str, &'static str)>, serde_json::Error> {
    if let Some(entries) = entries(text) {
        return Ok(entries);
    }
    let map: std::collections::HashMap<&'static str, &'static RawValue> = serde_json::from_str(text)?;
    Ok(map.into_iter().filter(|(key, _)| !key.starts_with('_')).map(|(key, v)| (key, v.get())).collect())
}

/// The entries of an object written one per line, or `None` when the text
/// is not in that shape: the first line opens the object (and may hold an
/// entry, `{"_generated_by": …,`, which is left out), the object closes on a
/// line of its own.
fn entries(text: &'static str) -> Option<Vec<(&'static str, &'static str)>> {
    let mut lines = text.lines();
    if !lines.next()?.starts_with('{') {
        return None;
    }
    let mut out = Vec::new();
    let mut closed = false;
    for line in lines {
        if closed {
            return None;
        }
        let line = line.trim_end();
        if line == "}" {
            closed = true;
            continue;
        }
        let line = line.strip_suffix(',').unwrap_or(line);
        let rest = line.strip_prefix('"')?;
        let end = rest.find('"')?;
        let key = &rest[..end];
        if key.contains('\\') {
            return None;
        }
        let value = rest[end + 1..].strip_prefix(':')?.trim_start();
        if value.is_empty() {
            return None;
        }
        if !key.starts_with('_') {
            out.push((key, value));
        }
    }
    closed.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::{entries, index};

    #[test]
    fn one_entry_per_line_is_indexed() {
        let text = "{\"_generated_by\": \"x\",\n\"a.b\": [1, 2],\n\"c\": {\"d\": \"}\"}\n}";
        assert_eq!(entries(text), Some(vec![("a.b", "[1, 2]"), ("c", "{\"d\": \"}\"}")]));
    }

    #[test]
    fn other_shapes_are_not_guessed() {
        assert_eq!(entries("{\"a\": 1, \"b\": 2}"), None);
        assert_eq!(entries("[1, 2]"), None);
        assert_eq!(entries("{\"_g\": 1,\n\"a\": 1,\n"), None);
    }

    #[test]
    fn other_shapes_are_read_as_json() {
        let mut got = index("{\"_g\": 0, \"a\": [1], \"b\": 2}").unwrap();
        got.sort();
        assert_eq!(got, vec![("a", "[1]"), ("b", "2")]);
        assert!(index("{\"a\": ").is_err());
    }
}
