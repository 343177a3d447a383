//! Reviewed corrections to Arm's intrinsics table (`isa-specs/arm/corrections.yaml`).

use serde::Deserialize;
use std::path::{Path, PathBuf};

#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Correction {
    pub intrinsic: String,
    /// Why the entry is corrected.
    pub reason: String,
    /// The instruction the intrinsic really is.
    #[serde(default)]
    pub instruction: Option<String>,
    /// The instruction's operands as they really are (`Vd.8B,Vn.8B,Vm.8B`).
    #[serde(default)]
    pub operands: Option<String>,
    /// Leave the intrinsic out.
    #[serde(default)]
    pub exclude: bool,
}

#[derive(Clone, Debug, Default, Deserialize)]
pub struct Corrections {
    #[serde(default)]
    pub corrections: Vec<Correction>,
}

#[derive(Debug, thiserror::Error)]
pub enum CorrectionsError {
    #[error("{path}: {source}")]
    Read { path: PathBuf, source: std::io::Error },
    #[error("{path}: {source}")]
    Parse { path: PathBuf, source: crate::yaml::YamlError },
}

impl Corrections {
    pub fn load(path: &Path) -> Result<Corrections, CorrectionsError> {
        let text =
            std::fs::read_to_string(path).map_err(|source| CorrectionsError::Read { path: path.into(), source })?;
        crate::yaml::parse(&text).map_err(|source| CorrectionsError::Parse { path: path.into(), source })
    }

    pub fn get(&self, intrinsic: &str) -> Option<&Correction> {
        self.corrections.iter().find(|c| c.intrinsic == intrinsic)
    }
}
