//! Which guide entries hydride models: integer vector intrinsics of the
//! supported extensions, without memory access, MMX, KNC or OS intrinsics.

use super::guide::GuideEntry;

/// CPUID flags (as the guide spells them) of the supported extensions.
pub const SUPPORTED_CPUIDS: &[&str] = &[
    "SSE2",
    "SSE3",
    "SSSE3",
    "SSE4.1",
    "SSE4.2",
    "AVX",
    "AVX2",
    "AVX512F",
    "AVX512BW",
    "AVX512DQ",
    "AVX512VL",
    "AVX512CD",
    "AVX512_VNNI",
    "AVX512_VBMI",
    "AVX512_VBMI2",
    "AVX512_BITALG",
    "AVX512VPOPCNTDQ",
    "AVX512IFMA52",
    "AVX_VNNI",
    "AVX-VNNI",
    "GFNI",
];

/// Why an entry is outside the modelled set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Exclusion {
    Extension(String),
    MemoryAccess,
    NoOperation,
    /// A sequence of instructions (no single `<instruction>`).
    NoInstruction,
    Mmx,
    FloatingPoint,
    NoVectorOperand,
}

impl std::fmt::Display for Exclusion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Exclusion::Extension(c) => write!(f, "extension {c} is not modelled"),
            Exclusion::MemoryAccess => f.write_str("memory access"),
            Exclusion::NoOperation => f.write_str("no pseudocode"),
            Exclusion::NoInstruction => f.write_str("instruction sequence, not one instruction"),
            Exclusion::Mmx => f.write_str("MMX operand"),
            Exclusion::FloatingPoint => f.write_str("floating-point operand"),
            Exclusion::NoVectorOperand => f.write_str("no vector or mask operand"),
        }
    }
}

/// The CPUID flag `AVX512F/KNCNI` (shared with Knights Corner) counts as AVX512F.
pub fn normalize_cpuid(c: &str) -> &str {
    c.strip_suffix("/KNCNI").unwrap_or(c)
}

pub fn classify(e: &GuideEntry) -> Result<(), Exclusion> {
    if e.cpuids.is_empty() {
        return Err(Exclusion::Extension("(none)".into()));
    }
    if let Some(c) = e.cpuids.iter().find(|c| !SUPPORTED_CPUIDS.contains(&normalize_cpuid(c))) {
        return Err(Exclusion::Extension(c.clone()));
    }
    let op = e.operation.as_deref().unwrap_or("");
    let memory_category = e.categories.iter().any(|c| matches!(c.as_str(), "Load" | "Store"));
    let types = std::iter::once(&e.ret).chain(&e.params).map(|p| p.c_type.as_str()).collect::<Vec<_>>();
    if memory_category || op.contains("MEM[") || types.iter().any(|t| t.contains('*')) {
        return Err(Exclusion::MemoryAccess);
    }
    if op.trim().is_empty() {
        return Err(Exclusion::NoOperation);
    }
    if e.instructions.is_empty() {
        return Err(Exclusion::NoInstruction);
    }
    if types.contains(&"__m64") {
        return Err(Exclusion::Mmx);
    }
    let fp = |t: &str| {
        matches!(
            t,
            "__m128"
                | "__m256"
                | "__m512"
                | "__m128d"
                | "__m256d"
                | "__m512d"
                | "__m128h"
                | "__m256h"
                | "__m512h"
                | "float"
                | "double"
        )
    };
    if types.iter().any(|t| fp(t)) || e.params.iter().chain([&e.ret]).any(|p| p.etype.starts_with("FP")) {
        return Err(Exclusion::FloatingPoint);
    }
    if !types.iter().any(|t| t.starts_with("__m")) {
        return Err(Exclusion::NoVectorOperand);
    }
    Ok(())
}
