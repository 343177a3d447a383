//! What each `hydride_arm` and `hydride_hvx` op becomes in LLVM: the
//! intrinsic clang-22 emits for it (`generated/arm/llvm-lowerings.json`,
//! `generated/hvx/llvm-intrinsics.json`), or for ARM one generic LLVM
//! instruction over its two operands, or clang's whole function for the
//! intrinsic (a snippet). Read by `convert-hydride-<isa>-to-llvm` and by
//! synthesis, which uses only instructions that have one.

use crate::synth::types::Ty;
use dialectgen::llvm_snippet::ImmediateTemplate;
use std::collections::HashMap;
use std::sync::OnceLock;

/// One op's LLVM lowering.
#[derive(Clone, Debug, PartialEq)]
pub enum TargetCall {
    /// `llvm.call_intrinsic @name`: the op's operands, then its immediates
    /// (attributes, in the op's order), as `params` (HVX: every vector as
    /// 32-bit words, every scalar as `i32`; see [`TargetCall::signature`]).
    Intrinsic { name: String, params: Option<Vec<Ty>>, result: Option<Ty>, features: Vec<String> },
    /// `llvm.<op>` over the op's two operands, of the result's type.
    Binary { op: String },
    /// Clang's IR for the intrinsic, an `llvm.func` inlined at the op: its
    /// parameters are the op's operands (bitcast), its result the op's.
    /// `generic` when it calls no target intrinsic (`sext`, `add`, …).
    Snippet { params: Vec<Ty>, result: Ty, text: String, features: Vec<String>, generic: bool },
    /// Clang's IR for each value of the op's one immediate (from `lowest`
    /// up), each a snippet over the op's operands.
    SnippetPerImmediate { lowest: i64, snippets: Vec<(Vec<Ty>, Ty, String)>, features: Vec<String>, generic: bool },
    /// Clang's IR with the op's one immediate in its place, a snippet over
    /// the op's operands (typed by `params` and `result`).
    SnippetOfImmediate {
        params: Vec<Ty>,
        result: Ty,
        template: ImmediateTemplate,
        features: Vec<String>,
        generic: bool,
    },
}

/// AArch64 intrinsics that are LLVM's generic intrinsics under a target
/// name: lane-wise, of one type, the same function (LLVM's AArch64 backend
/// selects both to the same instruction). `true`: the generic one takes a
/// trailing `i1 false` (`llvm.abs`: the minimum is not poison).
const ARM_GENERIC: &[(&str, &str, bool)] = &[
    ("abs", "abs", true),
    ("smax", "smax", false),
    ("smin", "smin", false),
    ("umax", "umax", false),
    ("umin", "umin", false),
    ("sqadd", "sadd.sat", false),
    ("uqadd", "uadd.sat", false),
    ("sqsub", "ssub.sat", false),
    ("uqsub", "usub.sat", false),
];

/// The generic LLVM intrinsic that `intrinsic` (`llvm.aarch64.neon.smax.v8i16`)
/// is under a target name (`llvm.smax.v8i16`), and whether it takes a
/// trailing `i1 false`. Emitting it keeps LLVM's optimizer reasoning about
/// the value (known bits, ranges) after hydride's rewrite, as it does on
/// LLVM's own path: `min(|x| + |y|, 255)` narrowed stays one `uqxtn` when
/// the absolute values are `llvm.abs`, not an opaque call.
pub fn generic_intrinsic(intrinsic: &str) -> Option<(String, bool)> {
    let rest = intrinsic.strip_prefix("llvm.aarch64.neon.")?;
    let (base, ty) = rest.split_once('.')?;
    if ty.contains('.') || ty.contains('f') {
        return None;
    }
    let (_, generic, flag) = ARM_GENERIC.iter().find(|(n, _, _)| *n == base)?;
    Some((format!("llvm.{generic}.{ty}"), *flag))
}

impl TargetCall {
    /// The extensions the op needs on its ISA's targets.
    pub fn features(&self) -> Vec<String> {
        match self {
            TargetCall::Intrinsic { features, .. } => features.clone(),
            TargetCall::Binary { .. } => vec!["neon".into()],
            TargetCall::Snippet { features, .. }
            | TargetCall::SnippetPerImmediate { features, .. }
            | TargetCall::SnippetOfImmediate { features, .. } => features.clone(),
        }
    }

    /// Parameter and result types of the intrinsic for an op with these
    /// operand (then immediate) and result types.
    pub fn signature(&self, args: &[Ty], result: &Ty) -> Option<(Vec<Ty>, Ty)> {
        let TargetCall::Intrinsic { params, result: r, .. } = self else { return None };
        match (params, r) {
            (Some(p), Some(r)) => Some((p.clone(), r.clone())),
            _ => Some((args.iter().map(hvx_word_type).collect::<Option<_>>()?, hvx_word_type(result)?)),
        }
    }
}

/// An HVX value as its intrinsics take it: vectors as `<N x i32>`, scalars
/// and every value of at most 32 bits (a scalar register: `V6_extractw`
/// gives an `i32`, never a `<1 x i32>`) as `i32`; predicates are not
/// modelled.
fn hvx_word_type(t: &Ty) -> Option<Ty> {
    if t.dims.is_empty() || t.bits() <= 32 {
        return (t.elem_bits <= 32).then(|| Ty { dims: Vec::new(), elem_bits: 32 });
    }
    (t.elem_bits > 1 && t.bits() % 32 == 0).then(|| Ty { dims: vec![t.bits() / 32], elem_bits: 32 })
}

/// Lowerings per target op name (`hydride_arm.vdotq_s32`), each read on
/// first use.
pub struct TargetCalls {
    /// Reads one entry of the table (the ISA's own format).
    read: fn(&str) -> Option<TargetCall>,
    /// FNV-1a of the table's text (part of the grammar's version).
    pub version: u64,
    calls: HashMap<&'static str, (&'static str, OnceLock<Option<TargetCall>>)>,
}

impl TargetCalls {
    /// The table of `isa` (its name, for errors), each entry read by `read`.
    pub fn parse(isa: &str, json: &'static str, read: fn(&str) -> Option<TargetCall>) -> Result<TargetCalls, String> {
        let entries = crate::lines::index(json).map_err(|e| format!("{isa} LLVM lowering table: {e}"))?;
        Ok(TargetCalls {
            read,
            version: crate::synth::cache::fnv(json),
            calls: entries.into_iter().map(|(op, v)| (op, (v, OnceLock::new()))).collect(),
        })
    }

    /// The lowering of `op`; `None` if it has none hydride emits.
    pub fn get(&self, op: &str) -> Option<&TargetCall> {
        let (raw, parsed) = self.calls.get(op)?;
        parsed.get_or_init(|| (self.read)(raw)).as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn target_named_generic_intrinsics_are_recognized() {
        assert_eq!(generic_intrinsic("llvm.aarch64.neon.abs.v8i16"), Some(("llvm.abs.v8i16".into(), true)));
        assert_eq!(generic_intrinsic("llvm.aarch64.neon.uqsub.v16i8"), Some(("llvm.usub.sat.v16i8".into(), false)));
        assert_eq!(generic_intrinsic("llvm.aarch64.neon.sqadd.i32"), Some(("llvm.sadd.sat.i32".into(), false)));
        assert_eq!(generic_intrinsic("llvm.aarch64.neon.smax.v4f32"), None);
        assert_eq!(generic_intrinsic("llvm.aarch64.neon.sqdmulh.v8i16"), None);
        assert_eq!(generic_intrinsic("llvm.aarch64.neon.usdot.v4i32.v16i8"), None);
    }
}
