//! Which NEON intrinsics hydride models: integer operations on vector and
//! SIMD scalar registers, one instruction each.

use super::intrinsics::Intrinsic;

/// Why an intrinsic is outside the modelled set.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Exclusion {
    FloatingPoint,
    LoadStore,
    Reinterpret,
    Polynomial,
    Crypto,
    /// `int8x16x2_t` and friends: several registers in one value.
    Aggregate,
    /// Not one instruction (or none named).
    NotOneInstruction,
    /// Takes or returns a general-purpose register value with no SIMD form.
    GeneralRegister,
}

impl Exclusion {
    pub fn key(&self) -> &'static str {
        match self {
            Exclusion::FloatingPoint => "floating_point",
            Exclusion::LoadStore => "load_store",
            Exclusion::Reinterpret => "reinterpret",
            Exclusion::Polynomial => "polynomial",
            Exclusion::Crypto => "crypto",
            Exclusion::Aggregate => "aggregate",
            Exclusion::NotOneInstruction => "not_one_instruction",
            Exclusion::GeneralRegister => "general_register",
        }
    }
}

impl std::fmt::Display for Exclusion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Exclusion::FloatingPoint => "floating-point or bfloat16 type",
            Exclusion::LoadStore => "load or store",
            Exclusion::Reinterpret => "reinterpret cast (no instruction)",
            Exclusion::Polynomial => "polynomial type",
            Exclusion::Crypto => "cryptography",
            Exclusion::Aggregate => "aggregate (x2/x3/x4) type",
            Exclusion::NotOneInstruction => "not exactly one instruction",
            Exclusion::GeneralRegister => "general-purpose register operand",
        })
    }
}

/// `Ok` when `i` is in scope, else the first reason it is not.
pub fn exclusion(i: &Intrinsic) -> Result<(), Exclusion> {
    let types = || std::iter::once(&i.ret).chain(i.args.iter().map(|a| &a.c_type));
    if types().any(|t| t.base == "float" || t.base == "bfloat") {
        return Err(Exclusion::FloatingPoint);
    }
    let top = i.group.split('|').next().unwrap_or("");
    if top == "Load" || top == "Store" || types().any(|t| t.pointer) {
        return Err(Exclusion::LoadStore);
    }
    if i.name.starts_with("vreinterpret") {
        return Err(Exclusion::Reinterpret);
    }
    if types().any(|t| t.base == "poly") {
        return Err(Exclusion::Polynomial);
    }
    if top == "Cryptography" {
        return Err(Exclusion::Crypto);
    }
    if types().any(|t| t.aggregate > 1) {
        return Err(Exclusion::Aggregate);
    }
    if i.instructions.len() != 1 || i.operands.is_empty() {
        return Err(Exclusion::NotOneInstruction);
    }
    let gpr = |r: &str| {
        let r = r.trim();
        matches!(r.chars().next(), Some('R' | 'W' | 'X' | 'r')) && !r.contains('.')
    };
    if i.operands.split(',').any(gpr) {
        return Err(Exclusion::GeneralRegister);
    }
    Ok(())
}
