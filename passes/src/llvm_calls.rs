//! The LLVM call each target op becomes (`generated/x86/llvm-calls.json`),
//! for `convert-hydride-x86-to-llvm` (`crate::ir::to_llvm`).

use dialectgen::isa::x86::llvm_call::LlvmCall;
use std::collections::HashMap;
use std::sync::OnceLock;

/// Calls per target op name (`hydride_x86.mm512_dpbusd_epi32`).
pub struct CallTable {
    calls: HashMap<String, LlvmCall>,
}

impl CallTable {
    pub fn parse(json: &str) -> Result<CallTable, String> {
        let mut raw: HashMap<String, serde_json::Value> =
            serde_json::from_str(json).map_err(|e| format!("LLVM call table: {e}"))?;
        raw.remove("_generated_by");
        let calls = raw
            .into_iter()
            .map(|(op, v)| serde_json::from_value(v).map(|c| (op, c)))
            .collect::<Result<_, _>>()
            .map_err(|e| format!("LLVM call table: {e}"))?;
        Ok(CallTable { calls })
    }

    /// The table built into the plugin.
    pub fn embedded() -> Result<&'static CallTable, String> {
        static TABLE: OnceLock<Result<CallTable, String>> = OnceLock::new();
        TABLE
            .get_or_init(|| CallTable::parse(include_str!("../../generated/x86/llvm-calls.json")))
            .as_ref()
            .map_err(Clone::clone)
    }

    pub fn get(&self, op: &str) -> Option<&LlvmCall> {
        self.calls.get(op)
    }

    pub fn len(&self) -> usize {
        self.calls.len()
    }

    pub fn is_empty(&self) -> bool {
        self.calls.is_empty()
    }
}
