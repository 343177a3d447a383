//! The JSON tables `hydride gen` writes one entry per line (so a change
//! shows as one line of a diff): lowering tables and class databases.

use crate::gen_options::{GenError, GENERATED_BY};

/// `{"_generated_by": …, "key": value, …}`, one entry per line.
pub fn one_entry_per_line<'a, T: serde::Serialize + 'a>(
    entries: impl IntoIterator<Item = (String, &'a T)>,
) -> Result<String, GenError> {
    let mut out = format!("{{\"_generated_by\": {GENERATED_BY:?}");
    for (key, value) in entries {
        out.push_str(&format!(",\n{key:?}: {}", serde_json::to_string(value)?));
    }
    out.push_str("\n}\n");
    Ok(out)
}

/// A class database: one class per line, each member with what it lowers to.
pub fn class_database<L: serde::Serialize>(
    isa: &str,
    extra: &[(&str, &str)],
    classes: &[crate::classify::engine::SimilarityClass],
    lowering: impl Fn(&str) -> Option<L>,
) -> Result<String, GenError> {
    let mut db = format!("{{\"_generated_by\": {GENERATED_BY:?}, \"isa\": {isa:?}");
    for (k, v) in extra {
        db.push_str(&format!(", {k:?}: {v:?}"));
    }
    db.push_str(", \"classes\": [\n");
    for (i, c) in classes.iter().enumerate() {
        let mut value = serde_json::to_value(c)?;
        if let Some(members) = value.get_mut("members").and_then(|m| m.as_array_mut()) {
            for m in members {
                let name = m["intrinsic"].as_str().unwrap_or_default().to_string();
                m["lowering"] = serde_json::to_value(lowering(&name))?;
            }
        }
        db.push_str(&serde_json::to_string(&value)?);
        db.push_str(if i + 1 < classes.len() { ",\n" } else { "\n" });
    }
    db.push_str("]}\n");
    Ok(db)
}
