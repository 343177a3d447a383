//! What each `hydride_arm` and `hydride_hvx` op becomes in LLVM: the
//! intrinsic clang-22 emits for it (`generated/arm/llvm-lowerings.json`,
//! `generated/hvx/llvm-intrinsics.json`), or for ARM one generic LLVM
//! instruction over its two operands, or clang's whole function for the
//! intrinsic (a snippet). Read by `convert-hydride-<isa>-to-llvm` and by
//! synthesis, which uses only instructions that have one.

use crate::synth::target::{arm_features, Isa};
use crate::synth::types::Ty;
/// LLVM instructions over two operands of one type that clang emits for
/// ARM intrinsics, emitted directly (the generator records no snippet for them).
use dialectgen::isa::arm::lowering::DIRECT_BINARY_OPS as BINARY;
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

#[derive(serde::Deserialize)]
struct ArmEntry {
    #[serde(default)]
    llvm_intrinsics: Vec<String>,
    #[serde(default)]
    llvm_ops: Vec<String>,
    #[serde(default)]
    signature: Option<ArmSignature>,
    #[serde(default)]
    snippet: Option<ArmSnippet>,
    #[serde(default)]
    snippet_per_immediate: Option<ArmSnippetPerImmediate>,
    #[serde(default)]
    snippet_of_immediate: Option<ImmediateTemplate>,
    #[serde(default)]
    binary: Option<String>,
}

#[derive(serde::Deserialize)]
struct ArmSnippetPerImmediate {
    lowest: i64,
    snippets: Vec<ArmSnippet>,
}

#[derive(serde::Deserialize)]
struct ArmSnippet {
    params: Vec<String>,
    result: String,
    text: String,
}

#[derive(serde::Deserialize)]
struct ArmSignature {
    params: Vec<String>,
    result: String,
}

fn arm_call(raw: &str) -> Option<TargetCall> {
    let e: ArmEntry = serde_json::from_str(raw).ok()?;
    match (e.llvm_intrinsics.as_slice(), e.llvm_ops.as_slice()) {
        ([name], []) => {
            let s = e.signature?;
            Some(TargetCall::Intrinsic {
                name: name.clone(),
                params: Some(s.params.iter().map(|p| Ty::parse(p)).collect::<Option<_>>()?),
                result: Some(Ty::parse(&s.result)?),
                features: arm_features(name),
            })
        }
        // A shift by an immediate is one `shl` too, of a constant: its IR per value applies.
        _ if e.binary.as_ref().is_some_and(|op| BINARY.contains(&op.as_str())) => {
            Some(TargetCall::Binary { op: e.binary? })
        }
        _ => {
            // The extensions are those of the intrinsics it calls.
            let mut features = vec!["neon".to_string()];
            for f in e.llvm_intrinsics.iter().flat_map(|name| arm_features(name)) {
                if !features.contains(&f) {
                    features.push(f);
                }
            }
            let generic = e.llvm_intrinsics.is_empty();
            let typed = |s: ArmSnippet| -> Option<(Vec<Ty>, Ty, String)> {
                Some((s.params.iter().map(|p| Ty::parse(p)).collect::<Option<_>>()?, Ty::parse(&s.result)?, s.text))
            };
            if let Some(per) = e.snippet_per_immediate {
                let snippets = per.snippets.into_iter().map(typed).collect::<Option<_>>()?;
                return Some(TargetCall::SnippetPerImmediate { lowest: per.lowest, snippets, features, generic });
            }
            if let Some(template) = e.snippet_of_immediate {
                let params = template.params.iter().map(|p| Ty::parse(p)).collect::<Option<_>>()?;
                let result = Ty::parse(&template.result)?;
                return Some(TargetCall::SnippetOfImmediate { params, result, template, features, generic });
            }
            let (params, result, text) = typed(e.snippet?)?;
            Some(TargetCall::Snippet { params, result, text, features, generic })
        }
    }
}

fn hvx_call(raw: &str) -> Option<TargetCall> {
    let name: String = serde_json::from_str(raw).ok()?;
    Some(TargetCall::Intrinsic { name, params: None, result: None, features: vec!["hvx".into()] })
}

/// Lowerings per target op name (`hydride_arm.vdotq_s32`), each read on
/// first use.
pub struct TargetCalls {
    isa: Isa,
    /// FNV-1a of the table's text (part of the grammar's version).
    pub version: u64,
    calls: HashMap<&'static str, (&'static str, OnceLock<Option<TargetCall>>)>,
}

impl TargetCalls {
    pub fn parse(isa: Isa, json: &'static str) -> Result<TargetCalls, String> {
        let entries = crate::lines::index(json).map_err(|e| format!("{} LLVM lowering table: {e}", isa.name()))?;
        Ok(TargetCalls {
            isa,
            version: crate::synth::cache::fnv(json),
            calls: entries.into_iter().map(|(op, v)| (op, (v, OnceLock::new()))).collect(),
        })
    }

    /// The table of `isa` (ARM or HVX) built into the plugin.
    pub fn embedded(isa: Isa) -> Result<&'static TargetCalls, String> {
        static ARM: OnceLock<Result<TargetCalls, String>> = OnceLock::new();
        static HVX: OnceLock<Result<TargetCalls, String>> = OnceLock::new();
        let table = match isa {
            Isa::Arm => ARM
                .get_or_init(|| TargetCalls::parse(Isa::Arm, include_str!("../../generated/arm/llvm-lowerings.json"))),
            Isa::Hvx => HVX
                .get_or_init(|| TargetCalls::parse(Isa::Hvx, include_str!("../../generated/hvx/llvm-intrinsics.json"))),
            Isa::X86 => return Err("x86 ops lower through the LLVM call table (llvm_calls)".into()),
        };
        table.as_ref().map_err(Clone::clone)
    }

    /// The lowering of `op`; `None` if it has none hydride emits.
    pub fn get(&self, op: &str) -> Option<&TargetCall> {
        let (raw, parsed) = self.calls.get(op)?;
        parsed
            .get_or_init(|| match self.isa {
                Isa::Arm => arm_call(raw),
                _ => hvx_call(raw),
            })
            .as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arm_entries_read_as_calls_or_binary_ops() {
        let dot = arm_call(r#"{"llvm_intrinsics":["llvm.aarch64.neon.usdot.v4i32.v16i8"],"signature":{"params":["vector<4xi32>","vector<16xi8>","vector<16xi8>"],"result":"vector<4xi32>"}}"#).unwrap();
        assert_eq!(dot.features(), vec!["neon".to_string(), "i8mm".to_string()]);
        assert_eq!(arm_call(r#"{"llvm_ops":["add"],"binary":"add"}"#), Some(TargetCall::Binary { op: "add".into() }));
        // One generic op that is not over the two operands (`vmvnq_s8`: an
        // `xor` with all ones) is no binary op without the generator's word.
        assert_eq!(arm_call(r#"{"llvm_ops":["xor"]}"#), None);
        assert_eq!(arm_call(r#"{"llvm_ops":["lshr","trunc"]}"#), None);
        assert_eq!(arm_call(r#"{"llvm_intrinsics":["llvm.aarch64.neon.sabd.v4i16"],"llvm_ops":["add"]}"#), None);
        // Clang's whole function, when recorded, is the lowering of the rest.
        let text = "llvm.func @snippet(%arg0: vector<4xi16>, %arg1: vector<4xi16>, %arg2: vector<4xi16>) -> vector<4xi16> {\n  %0 = llvm.call_intrinsic \"llvm.aarch64.neon.sabd.v4i16\"(%arg1, %arg2) : (vector<4xi16>, vector<4xi16>) -> vector<4xi16>\n  %1 = llvm.add %0, %arg0 : vector<4xi16>\n  llvm.return %1 : vector<4xi16>\n}";
        let entry = serde_json::json!({
            "llvm_intrinsics": ["llvm.aarch64.neon.sabd.v4i16"],
            "llvm_ops": ["add"],
            "snippet": {"params": ["vector<4xi16>", "vector<4xi16>", "vector<4xi16>"], "result": "vector<4xi16>", "text": text}
        });
        let Some(TargetCall::Snippet { params, generic, features, .. }) = arm_call(&entry.to_string()) else {
            panic!("no snippet read")
        };
        assert_eq!((params.len(), generic, features), (3, false, vec!["neon".to_string()]));
        let widen = serde_json::json!({
            "llvm_ops": ["shufflevector", "sext"],
            "snippet": {"params": ["vector<8xi16>"], "result": "vector<4xi32>", "text": "llvm.func @snippet() {}"}
        });
        assert!(matches!(arm_call(&widen.to_string()), Some(TargetCall::Snippet { generic: true, .. })));
        // One snippet per value of the immediate, from its smallest value.
        let one =
            serde_json::json!({"params": ["vector<8xi16>", "vector<8xi16>"], "result": "vector<8xi16>", "text": "t"});
        let per_value = serde_json::json!({
            "llvm_intrinsics": ["llvm.aarch64.neon.srshl.v8i16"],
            "llvm_ops": ["add"],
            "snippet_per_immediate": {"lowest": 1, "snippets": [one.clone(), one]}
        });
        let Some(TargetCall::SnippetPerImmediate { lowest, snippets, generic, .. }) = arm_call(&per_value.to_string())
        else {
            panic!("no snippets per value read")
        };
        assert_eq!((lowest, snippets.len(), generic), (1, 2, false));
    }

    #[test]
    fn target_named_generic_intrinsics_are_recognized() {
        assert_eq!(generic_intrinsic("llvm.aarch64.neon.abs.v8i16"), Some(("llvm.abs.v8i16".into(), true)));
        assert_eq!(generic_intrinsic("llvm.aarch64.neon.uqsub.v16i8"), Some(("llvm.usub.sat.v16i8".into(), false)));
        assert_eq!(generic_intrinsic("llvm.aarch64.neon.sqadd.i32"), Some(("llvm.sadd.sat.i32".into(), false)));
        assert_eq!(generic_intrinsic("llvm.aarch64.neon.smax.v4f32"), None);
        assert_eq!(generic_intrinsic("llvm.aarch64.neon.sqdmulh.v8i16"), None);
        assert_eq!(generic_intrinsic("llvm.aarch64.neon.usdot.v4i32.v16i8"), None);
    }

    #[test]
    fn hvx_values_pass_as_words() {
        let call = hvx_call(r#""llvm.hexagon.V6.vaddb.128B""#).unwrap();
        let v = Ty::parse("vector<128xi8>").unwrap();
        let (params, result) = call.signature(&[v.clone(), v.clone()], &v).unwrap();
        assert_eq!(params[0].to_string(), "vector<32xi32>");
        assert_eq!(result.to_string(), "vector<32xi32>");
        assert!(call.signature(&[Ty::parse("vector<128xi1>").unwrap()], &v).is_none());
    }
}
