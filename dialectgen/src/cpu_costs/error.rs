//! What can go wrong pricing an ISA's code.

use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum CostError {
    #[error("cannot run {tool}: {source}")]
    Spawn { tool: String, source: std::io::Error },
    #[error("{tool} failed for -mcpu={cpu}: {message}")]
    Failed { tool: String, cpu: String, message: String },
    #[error("{tool} for -mcpu={cpu} printed no JSON this reader knows: {why}")]
    Output { tool: String, cpu: String, why: String },
    #[error("writing {path}: {source}")]
    Write { path: PathBuf, source: std::io::Error },
}

impl CostError {
    /// `tool` exited with failure for `cpu`: its first error line.
    pub fn failed(tool: &Path, cpu: &str, stderr: &[u8]) -> CostError {
        let stderr = String::from_utf8_lossy(stderr);
        let message = stderr.lines().find(|l| l.contains("error")).unwrap_or("failed").to_string();
        CostError::Failed { tool: tool.display().to_string(), cpu: cpu.into(), message }
    }
}
