//! Which HVX instructions hydride models, and why the others are left out.

use super::data::{Definition, InstrInfo};
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Exclusion {
    /// Vector loads and stores (`vmem`): memory is not modelled.
    LoadStore,
    /// Gather and scatter (`vgather`, `vscatter`): memory.
    GatherScatter,
    /// Introduced in HVX v68 or later: QEMU 7.2 cannot decode them.
    V68OrLater,
    /// No LLVM instruction record gives its operands.
    NoOperandRecord,
}

impl Exclusion {
    pub fn reason(self) -> &'static str {
        match self {
            Exclusion::LoadStore => "vector load or store: memory is not modelled",
            Exclusion::GatherScatter => "gather or scatter: memory is not modelled",
            Exclusion::V68OrLater => "HVX v68 or later: qemu-hexagon 7.2 cannot decode it",
            Exclusion::NoOperandRecord => "no LLVM instruction record gives its operands",
        }
    }
}

/// `None` when the instruction is in scope.
pub fn exclusion(def: &Definition, info: Option<&InstrInfo>) -> Option<Exclusion> {
    if def.has_attrib("A_CVI_GATHER") || def.has_attrib("A_CVI_SCATTER") || def.has_attrib("A_CVI_SCATTER_RELEASE") {
        return Some(Exclusion::GatherScatter);
    }
    if def.has_attrib("A_LOAD") || def.has_attrib("A_STORE") || def.has_attrib("A_CVI_VM") {
        return Some(Exclusion::LoadStore);
    }
    let Some(info) = info else { return Some(Exclusion::NoOperandRecord) };
    match info.version {
        Some(v) if v >= 68 => Some(Exclusion::V68OrLater),
        Some(_) => None,
        None => Some(Exclusion::NoOperandRecord),
    }
}
