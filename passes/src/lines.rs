//! The generated tables are JSON objects written one entry per line
//! (`"name": value,`). Indexing them by line costs a scan of the text, not a
//! JSON parse: a process parses only the entries it reads.

/// The entries of an object in that shape, keys without their quotes and
/// values as JSON text; `None` when the text is not in that shape (the
/// caller then reads it as JSON). The object closes on a line of its own;
/// the first line (`{"_generated_by": …,`)
/// and keys starting with `_` are left out.
pub fn entries(text: &'static str) -> Option<Vec<(&'static str, &'static str)>> {
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
    use super::entries;

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
}
