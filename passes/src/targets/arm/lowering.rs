//! How ARM's lowering table (`generated/arm/llvm-lowerings.json`) reads:
//! one intrinsic with its signature, one generic LLVM instruction over two
//! operands, or clang's IR for the intrinsic (per immediate value, or as a
//! template of it).

use super::features::features as arm_features;
use crate::synth::types::Ty;
use crate::target_calls::TargetCall;
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

/// One entry of the table.
pub(crate) fn arm_call(raw: &str) -> Option<TargetCall> {
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
}
