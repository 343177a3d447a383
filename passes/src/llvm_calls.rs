//! The LLVM call or generic-IR snippet each target op becomes
//! (`generated/x86/llvm-calls.json`),
//! for `convert-hydride-x86-to-llvm` (`crate::ir::to_llvm`).

use dialectgen::isa::x86::llvm_call::LlvmCall;
use std::collections::HashMap;
use std::sync::OnceLock;

/// Calls per target op name (`hydride_x86.mm512_dpbusd_epi32`), each read
/// from its JSON text the first time it is asked for.
pub struct CallTable {
    /// FNV-1a of the table's text (part of the grammar's version).
    pub version: u64,
    calls: HashMap<&'static str, (&'static str, OnceLock<Option<LlvmCall>>)>,
}

impl CallTable {
    pub fn parse(json: &'static str) -> Result<CallTable, String> {
        let entries = crate::lines::index(json).map_err(|e| format!("LLVM call table: {e}"))?;
        Ok(CallTable {
            version: crate::synth::cache::fnv(json),
            calls: entries.into_iter().map(|(op, v)| (op, (v, OnceLock::new()))).collect(),
        })
    }

    /// The table built into the plugin.
    pub fn embedded() -> Result<&'static CallTable, String> {
        static TABLE: OnceLock<Result<CallTable, String>> = OnceLock::new();
        TABLE
            .get_or_init(|| CallTable::parse(include_str!("../../generated/x86/llvm-calls.json")))
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The call of `op`; `None` if it has none (or its entry does not read).
    pub fn get(&self, op: &str) -> Option<&LlvmCall> {
        let (raw, parsed) = self.calls.get(op)?;
        parsed.get_or_init(|| serde_json::from_str(raw).ok()).as_ref()
    }

    pub fn len(&self) -> usize {
        self.calls.len()
    }

    pub fn is_empty(&self) -> bool {
        self.calls.is_empty()
    }
}
