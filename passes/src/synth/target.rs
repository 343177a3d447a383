//! The targets `lower-to-autollvm` knows: which ISA's instructions it may
//! use, and which of them. The named targets compile anywhere
//! (cross-compiling needs no hardware); `native` is what this host executes.
//! Both are handles into the registry of `crate::targets`, where each ISA
//! says what its targets are.

use crate::llvm_lowering::LoweringTable;
use crate::table_error::TableError;
pub use crate::targets::Tuning;
pub use crate::targets::{Cpu, UnknownCpu};
use crate::targets::{IsaTarget, TargetSpec, MAX_ISAS, REGISTRY};
use std::sync::OnceLock;

/// An instruction set with a dialect: the `isa/` prefix of class members
/// and the `hydride_<isa>` dialect (an entry of the registry).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Isa(u8);

impl std::fmt::Debug for Isa {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl Isa {
    /// Every ISA, in registration order.
    pub fn all() -> impl Iterator<Item = Isa> {
        (0..REGISTRY.len()).map(|i| Isa(i as u8))
    }

    /// Its place in the registry.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// What the ISA's folder says of it.
    pub fn of(self) -> &'static dyn IsaTarget {
        REGISTRY[self.index()]
    }

    /// Its folder's name under `targets/` (and `generated/`).
    pub fn name(self) -> &'static str {
        self.of().name()
    }

    /// `hydride_<name>`.
    pub fn dialect(self) -> String {
        dialectgen::classify::cross_isa::dialect_of(self.name())
    }

    pub fn parse(name: &str) -> Option<Isa> {
        Isa::all().find(|i| i.name() == name)
    }

    /// The registered ISA of this name (for tools and tests that name one).
    ///
    /// # Panics
    /// If none is registered under `name`.
    pub fn named(name: &str) -> Isa {
        Isa::parse(name).unwrap_or_else(|| panic!("no ISA named '{name}' is registered"))
    }

    /// How its vendor names its vector instructions, for `--help`.
    pub fn title(self) -> &'static str {
        self.of().title()
    }

    /// What the rewrites around synthesis need to know of the ISA.
    pub fn tuning(self) -> Tuning {
        self.of().tuning()
    }

    /// The target its `hydride-<isa>-to-llvm` pipeline lowers for unless told.
    pub fn default_target(self) -> &'static str {
        self.of().default_target()
    }

    /// Its ops' lowerings to LLVM, built into the plugin.
    pub fn lowering_table(self) -> Result<&'static LoweringTable, TableError> {
        static TABLES: [OnceLock<Result<LoweringTable, TableError>>; MAX_ISAS] = [const { OnceLock::new() }; MAX_ISAS];
        TABLES[self.index()]
            .get_or_init(|| LoweringTable::parse(self.name(), self.of().lowering()))
            .as_ref()
            .map_err(Clone::clone)
    }
}

/// A target: an ISA and one of its [`TargetSpec`]s.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Target {
    isa: Isa,
    spec: u8,
}

impl std::fmt::Debug for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.spec().name)
    }
}

/// The `target` option's `--help`: every target name `parse` accepts.
/// A `target` option naming no registered target.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown target '{name}' (known: {known})")]
pub struct UnknownTarget {
    pub name: String,
    /// The registered targets' names, as the error lists them.
    pub known: String,
}

pub fn target_help() -> &'static str {
    crate::targets::target_help()
}

/// The `cpu` option's `--help`.
pub fn cpu_help() -> &'static str {
    crate::targets::cpu_help()
}

impl Target {
    /// Every target of every ISA, in registration order.
    pub fn all() -> impl Iterator<Item = Target> {
        Isa::all().flat_map(|isa| (0..isa.of().targets().len()).map(move |spec| Target { isa, spec: spec as u8 }))
    }

    /// Its place among its ISA's targets (below `isa().of().targets().len()`).
    pub fn index(self) -> usize {
        usize::from(self.spec)
    }

    fn spec(self) -> &'static TargetSpec {
        &self.isa.of().targets()[self.index()]
    }

    pub fn parse(text: &str) -> Result<Target, UnknownTarget> {
        Target::all()
            .find(|t| t.spec().name == text)
            .ok_or_else(|| UnknownTarget { name: text.to_string(), known: crate::targets::target_names() })
    }

    /// The registered target of this name (for tools and tests that name one).
    ///
    /// # Panics
    /// If none is registered under `name`.
    pub fn named(name: &str) -> Target {
        Target::parse(name).unwrap_or_else(|e| panic!("{e}"))
    }

    /// The ISA whose instructions the target uses.
    pub fn isa(self) -> Isa {
        self.isa
    }

    /// What the target is: `native` with what it means on this host
    /// (`native=<target>`), else the named target. Part of every cache key.
    pub fn name(self) -> String {
        (self.spec().resolved)()
    }

    /// The width of the target's vector registers, in bits: what a
    /// contraction is split to fit before synthesis.
    pub fn register_bits(self) -> u32 {
        (self.spec().register_bits)()
    }

    /// How many vector registers the target has.
    pub fn vector_registers(self) -> u32 {
        (self.spec().vector_registers)()
    }

    /// The CPU `option` names for it (empty: the target's default CPU,
    /// `native`: this host's, as LLVM names it).
    pub fn cpu(self, option: &str) -> Result<Cpu, UnknownCpu> {
        let spec = self.spec();
        Cpu::resolve(self.isa.of(), self.isa.index(), spec.name, option, &(spec.default_cpu)())
    }

    /// Whether an instruction of the target's ISA needing these features
    /// (as its lowering table names them) runs on it.
    pub fn allows(self, features: &[String]) -> bool {
        (self.spec().allows)(features)
    }
}

#[cfg(test)]
mod tests {
    use super::Target;

    /// Every target has its own name and its ISA's index.
    #[test]
    fn every_target_parses_back_from_its_name() {
        for t in Target::all() {
            let named = Target::parse(&format!("{t:?}")).unwrap();
            assert_eq!(named, t);
            assert!(t.index() < t.isa().of().targets().len());
        }
    }
}
