//! The C-level view of an intrinsic that the test harness needs.

use crate::sema::ir::{ArgKind, Semantics};
use crate::isa::x86::guide::GuideEntry;

#[derive(Clone, Debug)]
pub struct CArg {
    pub c_type: String,
    pub width: u32,
}

#[derive(Clone, Debug)]
pub struct CallSignature {
    pub name: String,
    pub args: Vec<CArg>,
    pub ret_c_type: String,
    pub ret_width: u32,
    pub imm_index: Option<usize>,
    pub imm_values: Option<Vec<u32>>,
}

impl CallSignature {
    pub fn new(entry: &GuideEntry, sema: &Semantics) -> CallSignature {
        // The guide's MSVC spellings, as GCC/Clang headers name them.
        let c_type = |t: &str| match t.trim_start_matches("const ").trim() {
            "__int64" => "long long".to_string(),
            "unsigned __int64" => "unsigned long long".to_string(),
            "__int32" => "int".to_string(),
            "__int16" => "short".to_string(),
            "__int8" => "char".to_string(),
            other => other.to_string(),
        };
        let imm_index = sema.args.iter().position(|a| a.kind == ArgKind::Immediate);
        CallSignature {
            name: entry.name.clone(),
            args: entry
                .params
                .iter()
                .zip(&sema.args)
                .map(|(p, a)| CArg { c_type: c_type(&p.c_type), width: a.width })
                .collect(),
            ret_c_type: c_type(&entry.ret.c_type),
            ret_width: sema.result.width,
            imm_index,
            imm_values: imm_index.map(|_| super::cases::immediate_values(super::cases::FULL_IMMEDIATE_BITS)),
        }
    }

    /// Bytes of the non-immediate arguments in one input record.
    pub fn input_bytes(&self) -> u32 {
        self.args.iter().enumerate().filter(|(i, _)| Some(*i) != self.imm_index).map(|(_, a)| a.width / 8).sum()
    }
}
