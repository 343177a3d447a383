//! How ARM's lowering table (`generated/arm/llvm-lowerings.json`) reads:
//! one intrinsic with its signature, one generic LLVM instruction over two
//! operands, or clang's IR for the intrinsic (per immediate value, or as a
//! template of it). An AArch64 intrinsic that is a generic one under a
//! target name (`neon.abs`, `neon.smax`, `neon.sqadd`, …) is lowered as the
//! generic one (`llvm.abs`, `llvm.smax`, `llvm.sadd.sat`), which LLVM's
//! optimizer understands.

use super::features::features as arm_features;
use crate::llvm_lowering::{Body, GenericIntrinsic, Immediate, OpLowering, Signature};
use crate::synth::types::Ty;
/// LLVM instructions over two operands of one type that clang emits for
/// ARM intrinsics, emitted directly (the generator records no snippet for them).
use dialectgen::isa::arm::lowering::DIRECT_BINARY_OPS as BINARY;
use dialectgen::llvm_snippet::ImmediateTemplate;

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

/// AArch64 intrinsics that are LLVM's generic intrinsics under a target
/// name: lane-wise, of one type, the same function (LLVM's AArch64 backend
/// selects both to the same instruction). `true`: the generic one takes a
/// trailing `i1 false` (`llvm.abs`: the minimum is not poison).
const GENERIC: &[(&str, &str, bool)] = &[
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
/// is under a target name (`llvm.smax.v8i16`). Emitting it keeps LLVM's
/// optimizer reasoning about the value (known bits, ranges) after hydride's
/// rewrite, as it does on LLVM's own path: `min(|x| + |y|, 255)` narrowed
/// stays one `uqxtn` when the absolute values are `llvm.abs`, not an opaque call.
fn generic_intrinsic(intrinsic: &str) -> Option<GenericIntrinsic> {
    let rest = intrinsic.strip_prefix("llvm.aarch64.neon.")?;
    let (base, ty) = rest.split_once('.')?;
    if ty.contains('.') || ty.contains('f') {
        return None;
    }
    let (_, generic, poison_flag) = GENERIC.iter().find(|(n, _, _)| *n == base)?;
    Some(GenericIntrinsic { name: format!("llvm.{generic}.{ty}"), poison_flag: *poison_flag, of_one_value: false })
}

/// One entry of the table.
pub(crate) fn arm_call(raw: &str) -> Option<OpLowering> {
    let e: ArmEntry = serde_json::from_str(raw).ok()?;
    let lowering = |body, features, generic_ir| OpLowering { body, features, select: None, generic_ir };
    match (e.llvm_intrinsics.as_slice(), e.llvm_ops.as_slice()) {
        ([name], []) => {
            let s = e.signature?;
            let signature = Signature::Given {
                params: s.params.iter().map(|p| Ty::parse(p)).collect::<Option<_>>()?,
                result: Ty::parse(&s.result)?,
            };
            let generic = generic_intrinsic(name);
            let body = Body::Intrinsic { name: name.clone(), args: None, signature, generic };
            Some(lowering(body, arm_features(name), false))
        }
        // A shift by an immediate is one `shl` too, of a constant: its IR per value applies.
        _ if e.binary.as_ref().is_some_and(|op| BINARY.contains(&op.as_str())) => {
            Some(lowering(Body::Binary { op: e.binary? }, vec!["neon".into()], false))
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
                let immediate = Immediate::Only;
                let body =
                    Body::SnippetPerImmediate { immediate, lowest: per.lowest, snippets, last_holds_up_to: None };
                return Some(lowering(body, features, generic));
            }
            if let Some(template) = e.snippet_of_immediate {
                let params = template.params.iter().map(|p| Ty::parse(p)).collect::<Option<_>>()?;
                let result = Ty::parse(&template.result)?;
                let body = Body::SnippetOfImmediate { immediate: Immediate::Only, params, result, template };
                return Some(lowering(body, features, generic));
            }
            let (params, result, text) = typed(e.snippet?)?;
            Some(lowering(Body::Snippet { params, result, text }, features, generic))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arm_entries_read_as_calls_or_binary_ops() {
        let dot = arm_call(r#"{"llvm_intrinsics":["llvm.aarch64.neon.usdot.v4i32.v16i8"],"signature":{"params":["vector<4xi32>","vector<16xi8>","vector<16xi8>"],"result":"vector<4xi32>"}}"#).unwrap();
        assert_eq!(dot.features, vec!["neon".to_string(), "i8mm".to_string()]);
        let add = arm_call(r#"{"llvm_ops":["add"],"binary":"add"}"#).unwrap();
        assert_eq!((add.body, add.features), (Body::Binary { op: "add".into() }, vec!["neon".to_string()]));
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
        let Some(OpLowering { body: Body::Snippet { params, .. }, generic_ir, features, .. }) =
            arm_call(&entry.to_string())
        else {
            panic!("no snippet read")
        };
        assert_eq!((params.len(), generic_ir, features), (3, false, vec!["neon".to_string()]));
        let widen = serde_json::json!({
            "llvm_ops": ["shufflevector", "sext"],
            "snippet": {"params": ["vector<8xi16>"], "result": "vector<4xi32>", "text": "llvm.func @snippet() {}"}
        });
        let widen = arm_call(&widen.to_string()).unwrap();
        assert!(matches!(widen.body, Body::Snippet { .. }) && widen.generic_ir);
        // One snippet per value of the immediate, from its smallest value.
        let one =
            serde_json::json!({"params": ["vector<8xi16>", "vector<8xi16>"], "result": "vector<8xi16>", "text": "t"});
        let per_value = serde_json::json!({
            "llvm_intrinsics": ["llvm.aarch64.neon.srshl.v8i16"],
            "llvm_ops": ["add"],
            "snippet_per_immediate": {"lowest": 1, "snippets": [one.clone(), one]}
        });
        let per_value = arm_call(&per_value.to_string()).unwrap();
        let Body::SnippetPerImmediate { lowest, ref snippets, .. } = per_value.body else {
            panic!("no snippets per value read")
        };
        assert_eq!((lowest, snippets.len(), per_value.generic_ir), (1, 2, false));
        assert_eq!(per_value.snippet_at(0), None);
        assert_eq!(per_value.snippet_at(2).map(|(_, t)| t), Some("t"));
    }

    #[test]
    fn target_named_generic_intrinsics_are_recognized() {
        let name = |i: &str| generic_intrinsic(i).map(|g| (g.name, g.poison_flag));
        assert_eq!(name("llvm.aarch64.neon.abs.v8i16"), Some(("llvm.abs.v8i16".into(), true)));
        assert_eq!(name("llvm.aarch64.neon.uqsub.v16i8"), Some(("llvm.usub.sat.v16i8".into(), false)));
        assert_eq!(name("llvm.aarch64.neon.sqadd.i32"), Some(("llvm.sadd.sat.i32".into(), false)));
        assert_eq!(name("llvm.aarch64.neon.smax.v4f32"), None);
        assert_eq!(name("llvm.aarch64.neon.sqdmulh.v8i16"), None);
        assert_eq!(name("llvm.aarch64.neon.usdot.v4i32.v16i8"), None);
    }
}
