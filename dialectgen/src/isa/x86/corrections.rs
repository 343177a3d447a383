//! Reviewed corrections to vendor pseudocode, read from `isa-specs/x86/corrections.yaml`.
//!
//! Each entry names one instruction (mnemonic, matching its VEX/EVEX form
//! too) or one intrinsic, says why, and either overrides element types
//! (`etype`), replaces the operation with our own pseudocode, or excludes it.

use super::guide::GuideEntry;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Correction {
    #[serde(default)]
    pub instruction: Option<String>,
    #[serde(default)]
    pub intrinsic: Option<String>,
    pub reason: String,
    /// Element type per parameter name, e.g. `{ a: SI16 }`.
    #[serde(default)]
    pub etype: BTreeMap<String, String>,
    /// Text substitutions in the vendor pseudocode, applied in order.
    #[serde(default)]
    pub patch: Vec<Patch>,
    /// Replacement pseudocode in the guide's syntax.
    #[serde(default)]
    pub operation: Option<String>,
    #[serde(default)]
    pub exclude: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Patch {
    pub find: String,
    pub replace: String,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Corrections {
    pub corrections: Vec<Correction>,
}

#[derive(Debug, thiserror::Error)]
pub enum CorrectionsError {
    #[error("{path}: {source}")]
    Io { path: String, source: std::io::Error },
    #[error("{path}: {source}")]
    Yaml { path: String, source: crate::yaml::YamlError },
    #[error("{path}: correction #{index} names neither an instruction nor an intrinsic")]
    Unnamed { path: String, index: usize },
}

impl Corrections {
    pub fn load(path: &Path) -> Result<Corrections, CorrectionsError> {
        let p = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| CorrectionsError::Io { path: p.clone(), source })?;
        let c: Corrections =
            crate::yaml::parse(&text).map_err(|source| CorrectionsError::Yaml { path: p.clone(), source })?;
        for (index, corr) in c.corrections.iter().enumerate() {
            if corr.instruction.is_none() && corr.intrinsic.is_none() {
                return Err(CorrectionsError::Unnamed { path: p, index });
            }
        }
        Ok(c)
    }

    /// Corrections that match none of `entries`: stale after a spec update.
    pub fn unused<'a>(&'a self, entries: &[&GuideEntry]) -> Vec<&'a Correction> {
        self.corrections
            .iter()
            .filter(|c| !entries.iter().any(|e| self.matching(e).any(|m| std::ptr::eq(m, *c))))
            .collect()
    }

    /// The corrections that apply to `entry`, in file order.
    pub fn matching<'a>(&'a self, entry: &'a GuideEntry) -> impl Iterator<Item = &'a Correction> + 'a {
        self.corrections.iter().filter(move |c| {
            if let Some(name) = &c.intrinsic {
                return *name == entry.name;
            }
            let Some(mnemonic) = &c.instruction else { return false };
            entry.instructions.iter().any(|i| {
                let n = i.name.to_ascii_uppercase();
                n == *mnemonic || n.strip_prefix('V') == Some(mnemonic.as_str())
            })
        })
    }
}
