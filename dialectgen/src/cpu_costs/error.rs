//! What can go wrong pricing an ISA's code.

use std::path::PathBuf;

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
