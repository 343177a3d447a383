//! ARM's entries of the lowering table ([`crate::llvm_lowering`]): one
//! intrinsic with its signature, one generic LLVM instruction over two
//! operands, or clang's IR for the intrinsic (per immediate value, or as a
//! template of it), with the extensions the intrinsics it calls need. An
//! AArch64 intrinsic that is a generic one under a target name
//! (`neon.abs`, `neon.smax`, `neon.sqadd`, …) is lowered as the generic one
//! (`llvm.abs`, `llvm.smax`, `llvm.sadd.sat`), which LLVM's optimizer
//! understands.

use super::extensions::features;
use super::lowering::{ArmLowering, ArmSnippet, DIRECT_BINARY_OPS};
use crate::llvm_lowering::{Body, GenericIntrinsic, Immediate, OpLowering, Signature, Snippet};

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

/// The lowering of an op clang lowers as `l` says; `None` where hydride
/// emits none (generic operations clang writes without a recorded snippet).
pub fn op_lowering(l: &ArmLowering) -> Option<OpLowering> {
    let lowering = |body, features, generic_ir| OpLowering { body, features, select: None, generic_ir };
    match (l.llvm_intrinsics.as_slice(), l.llvm_ops.as_slice()) {
        ([name], []) if l.signature.is_some() => {
            let s = l.signature.as_ref()?;
            let signature = Signature::Given { params: s.params.clone(), result: s.result.clone() };
            let body = Body::Intrinsic { name: name.clone(), args: None, signature, generic: generic_intrinsic(name) };
            Some(lowering(body, features(name), false))
        }
        // A shift by an immediate is one `shl` too, of a constant: its IR per value applies.
        _ if l.binary.as_ref().is_some_and(|op| DIRECT_BINARY_OPS.contains(&op.as_str())) => {
            Some(lowering(Body::Binary { op: l.binary.clone()? }, vec!["neon".into()], false))
        }
        _ => {
            // The extensions are those of the intrinsics it calls.
            let mut needs = vec!["neon".to_string()];
            for f in l.llvm_intrinsics.iter().flat_map(|name| features(name)) {
                if !needs.contains(&f) {
                    needs.push(f);
                }
            }
            let generic = l.llvm_intrinsics.is_empty();
            let snippet =
                |s: &ArmSnippet| Snippet { params: s.params.clone(), result: s.result.clone(), text: s.text.clone() };
            if let Some(per) = &l.snippet_per_immediate {
                let snippets = per.snippets.iter().map(snippet).collect();
                let body = Body::SnippetPerImmediate {
                    immediate: Immediate::Only,
                    lowest: per.lowest,
                    snippets,
                    last_holds_up_to: None,
                };
                return Some(lowering(body, needs, generic));
            }
            if let Some(template) = &l.snippet_of_immediate {
                let (params, result) = (template.params.clone(), template.result.clone());
                let body =
                    Body::SnippetOfImmediate { immediate: Immediate::Only, params, result, template: template.clone() };
                return Some(lowering(body, needs, generic));
            }
            Some(lowering(Body::Snippet(snippet(l.snippet.as_ref()?)), needs, generic))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llvm_ir::IntrinsicSignature;

    fn snippet(params: &[&str], result: &str, text: &str) -> ArmSnippet {
        ArmSnippet { params: params.iter().map(|p| p.to_string()).collect(), result: result.into(), text: text.into() }
    }

    #[test]
    fn arm_entries_read_as_calls_or_binary_ops() {
        let dot = ArmLowering {
            llvm_intrinsics: vec!["llvm.aarch64.neon.usdot.v4i32.v16i8".into()],
            signature: Some(IntrinsicSignature {
                params: vec!["vector<4xi32>".into(), "vector<16xi8>".into(), "vector<16xi8>".into()],
                result: "vector<4xi32>".into(),
            }),
            ..ArmLowering::default()
        };
        assert_eq!(op_lowering(&dot).unwrap().features, vec!["neon".to_string(), "i8mm".to_string()]);
        let add = ArmLowering { llvm_ops: vec!["add".into()], binary: Some("add".into()), ..ArmLowering::default() };
        let add = op_lowering(&add).unwrap();
        assert_eq!((add.body, add.features), (Body::Binary { op: "add".into() }, vec!["neon".to_string()]));
        // One generic op that is not over the two operands (`vmvnq_s8`: an
        // `xor` with all ones) is no binary op without the generator's word.
        assert_eq!(op_lowering(&ArmLowering { llvm_ops: vec!["xor".into()], ..ArmLowering::default() }), None);
        let sabd = ArmLowering {
            llvm_intrinsics: vec!["llvm.aarch64.neon.sabd.v4i16".into()],
            llvm_ops: vec!["add".into()],
            ..ArmLowering::default()
        };
        assert_eq!(op_lowering(&sabd), None);
        // Clang's whole function, when recorded, is the lowering of the rest.
        let t = "vector<4xi16>";
        let with_ir = ArmLowering { snippet: Some(snippet(&[t, t, t], t, "llvm.func @snippet() {}")), ..sabd };
        let Some(OpLowering { body: Body::Snippet(s), generic_ir, features, .. }) = op_lowering(&with_ir) else {
            panic!("no snippet read")
        };
        assert_eq!((s.params.len(), generic_ir, features), (3, false, vec!["neon".to_string()]));
        let widen = ArmLowering {
            llvm_ops: vec!["shufflevector".into(), "sext".into()],
            snippet: Some(snippet(&["vector<8xi16>"], "vector<4xi32>", "llvm.func @snippet() {}")),
            ..ArmLowering::default()
        };
        let widen = op_lowering(&widen).unwrap();
        assert!(matches!(widen.body, Body::Snippet(_)) && widen.generic_ir);
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
