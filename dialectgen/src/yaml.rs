//! Reading the project's YAML files (corrections, macro tables) with every
//! error located: `serde_yaml` gives no position for some errors (a second
//! document, for one), so those get the line of what caused them.

use serde::de::DeserializeOwned;

/// A YAML file that does not parse into the expected shape.
#[derive(Debug, thiserror::Error)]
#[error("{}{message}", line.map(|l| format!("line {l}: ")).unwrap_or_default())]
pub struct YamlError {
    /// 1-based line of the fault, when one can be named.
    pub line: Option<usize>,
    pub message: String,
}

/// Parses `text` as one YAML document of `T`.
pub fn parse<T: DeserializeOwned>(text: &str) -> Result<T, YamlError> {
    serde_yaml::from_str(text).map_err(|e| {
        let line = e.location().map(|l| l.line()).or_else(|| second_document_line(text)).unwrap_or(1);
        let message = e.to_string();
        // serde_yaml's message often carries "at line L column C" already.
        let line = (!message.contains(&format!("line {line}"))).then_some(line);
        YamlError { line, message }
    })
}

/// The line of a document marker (`---` or `...`) after the first document's
/// content: where a second document begins.
fn second_document_line(text: &str) -> Option<usize> {
    let mut content = false;
    for (k, line) in text.lines().enumerate() {
        let marker = line.starts_with("---") || line.starts_with("...");
        if marker && content {
            return Some(k + 1);
        }
        let t = line.trim();
        content |= !marker && !t.is_empty() && !t.starts_with('#');
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn a_second_document_is_located() {
        let e = parse::<BTreeMap<String, u32>>("# c\na: 1\n---\nb: 2\n").unwrap_err();
        assert_eq!(e.line, Some(3), "{e}");
        assert!(e.to_string().starts_with("line 3: "), "{e}");
    }

    #[test]
    fn serde_locations_are_kept() {
        let e = parse::<BTreeMap<String, u32>>("a: 1\nb: x\n").unwrap_err();
        assert!(e.to_string().contains("line 2"), "{e}");
    }
}
