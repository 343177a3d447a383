//! The CPU code is compiled for (`cpu=`): its name, and the cost table its
//! ISA's folder holds for it (`generated/<isa>/cpu-costs.json`, made by
//! `hydride gen` from LLVM's scheduling models through llvm-mca). The
//! rewrites that choose between forms price each on it.

use super::isa::IsaTarget;
use dialectgen::cpu_costs::{CpuCosts, CpuTable, Price};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// A CPU of one ISA, and its prices if the ISA has a table for it.
#[derive(Clone, Copy, Debug)]
pub struct Cpu {
    name: &'static str,
    table: Option<&'static CpuTable>,
    /// The generic operations' prices at the target's features.
    generic: Option<&'static BTreeMap<String, Price>>,
}

/// A `cpu` option the target's ISA has no table for.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UnknownCpu {
    #[error("unknown cpu '{name}' for {isa} (priced: {known})")]
    NotPriced { name: String, isa: &'static str, known: String },
    #[error("cpu '{name}' given, but {isa} has no CPU models (its code is priced by its own rule)")]
    NoModels { name: String, isa: &'static str },
}

/// The ISA's tables, parsed once per process.
fn costs(isa: &'static dyn IsaTarget, index: usize) -> Option<&'static CpuCosts> {
    static TABLES: [OnceLock<Option<CpuCosts>>; super::isa::MAX_ISAS] =
        [const { OnceLock::new() }; super::isa::MAX_ISAS];
    TABLES[index].get_or_init(|| serde_json::from_str(isa.cpu_costs()?).ok()).as_ref()
}

/// `name` kept for the process (a CPU's name lives as long as the options naming it).
fn interned(name: &str) -> &'static str {
    static NAMES: OnceLock<std::sync::Mutex<Vec<&'static str>>> = OnceLock::new();
    let mut names = NAMES.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    if let Some(n) = names.iter().find(|n| **n == name) {
        return n;
    }
    let leaked: &'static str = Box::leak(name.to_string().into_boxed_str());
    names.push(leaked);
    leaked
}

impl Cpu {
    /// The CPU `option` names for `target` of `isa` (registry `index`):
    /// empty is `default` (the target's), `native` this host's CPU as its
    /// ISA's `native` target names it (LLVM's name, or the ISA's correction). A named CPU must have a table; the default and `native`
    /// may lack one (their code is then priced by the ISA's own rules).
    pub fn resolve(
        isa: &'static dyn IsaTarget,
        index: usize,
        target: &str,
        option: &str,
        default: &str,
    ) -> Result<Cpu, UnknownCpu> {
        let table = costs(isa, index);
        let name = match option {
            "" => default.to_string(),
            // The ISA's own `native` target names it (it may correct LLVM's name).
            "native" => isa
                .targets()
                .iter()
                .find(|t| t.name == "native")
                .map_or_else(crate::host_cpu::name, |t| (t.default_cpu)()),
            named => named.to_string(),
        };
        let found = table.and_then(|t| t.cpus.get(&name));
        if found.is_none() && !option.is_empty() && option != "native" {
            return Err(match table {
                Some(t) => UnknownCpu::NotPriced {
                    name,
                    isa: isa.name(),
                    known: t.cpus.keys().cloned().collect::<Vec<_>>().join(", "),
                },
                None => UnknownCpu::NoModels { name, isa: isa.name() },
            });
        }
        // A target narrower than the CPU prices its generic operations as
        // LLVM compiles them at the target's features.
        let generic = found.map(|t| t.generic_at.get(target).unwrap_or(&t.generic));
        Ok(Cpu { name: interned(&name), table: found, generic })
    }

    /// LLVM's name of it (`znver4`, `neoverse-v1`); empty where its ISA has no CPU models.
    pub fn name(self) -> &'static str {
        self.name
    }

    /// Whether it has a table: the rewrites price forms on it.
    pub fn is_priced(self) -> bool {
        self.table.is_some()
    }

    /// What `cpu=` resolved to, for remarks and cache keys.
    pub fn describe(self) -> String {
        match (self.name.is_empty(), self.table.is_some()) {
            (true, _) => "no cpu".into(),
            (false, true) => format!("cpu {}", self.name),
            (false, false) => format!("cpu {} (no cost table)", self.name),
        }
    }

    /// An instruction of the grammar, by intrinsic name, alone on it.
    pub fn instruction(self, intrinsic: &str) -> Option<&'static Price> {
        self.table?.instructions.get(intrinsic)
    }

    /// A generic LLVM operation (`dialectgen::cpu_costs::generic::key`) alone
    /// on it, at the target's features.
    pub fn generic(self, key: &str) -> Option<&'static Price> {
        self.generic?.get(key)
    }

    /// Cycles per run of all of `pieces` (each once), on its ports and
    /// dispatch width; `None` without a table.
    pub fn throughput<'a>(self, pieces: impl IntoIterator<Item = &'a Price>) -> Option<f64> {
        let t = self.table?;
        Some(Price::throughput_of(pieces, t.dispatch_width))
    }
}
