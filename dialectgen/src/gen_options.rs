//! What `hydride gen` is asked to do and how it fails: shared by the neutral
//! pipeline ([`crate::generate`]) and each ISA's part of it ([`crate::isa`]).

use std::path::PathBuf;

/// Written into every generated file's header.
pub const GENERATED_BY: &str = "hydride gen --isa-data <vendor data>";

pub struct GenOptions {
    pub isa_data: PathBuf,
    /// `isa-specs/`: per ISA, reviewed corrections and recorded evidence.
    pub specs_dir: PathBuf,
    /// Validate by execution; without, classify what parses.
    pub validate: bool,
    /// Recorded hardware verdicts to use instead of `isa-specs/<isa>/`'s
    /// (ISAs validated on the host); `no_record` uses none.
    pub record: Option<PathBuf>,
    pub no_record: bool,
    /// Reuse validation verdicts cached here.
    pub cache_dir: Option<PathBuf>,
    pub jobs: Option<usize>,
    pub timeout_ms: u32,
    pub templates: PathBuf,
    pub out: PathBuf,
    pub lit_dir: PathBuf,
    /// The C compiler (clang-22).
    pub compiler: PathBuf,
}

#[derive(Debug, thiserror::Error)]
pub enum GenError {
    #[error("{isa}: {source}")]
    Isa { isa: &'static str, source: Box<dyn std::error::Error + Send + Sync> },
    #[error(transparent)]
    Render(#[from] crate::design::render::RenderError),
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    #[error("writing {path}: {source}")]
    Write { path: String, source: std::io::Error },
    #[error("no vendor data at {} for {} (every registered ISA needs its folder; set --isa-data or HYDRIDE_ISA_DATA)", .dir.display(), .missing.join(", "))]
    MissingVendorData { dir: PathBuf, missing: Vec<&'static str> },
}

impl GenError {
    pub fn isa(isa: &'static str, e: impl std::error::Error + Send + Sync + 'static) -> GenError {
        GenError::Isa { isa, source: Box::new(e) }
    }
}
