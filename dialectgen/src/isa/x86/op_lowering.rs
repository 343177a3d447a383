//! x86's entries of the lowering table ([`crate::llvm_lowering`]): an
//! intrinsic call with its arguments by operand position and immediate
//! name and a `select` for a mask form, clang's IR (whole, per immediate
//! value, or a template of the immediate), or a data movement by the
//! immediate ([`super::llvm_call`] decides which). Every entry but an
//! intrinsic call is generic IR to synthesis.

use super::llvm_call::LlvmCall;
use crate::llvm_lowering::{Body, GenericIntrinsic, Immediate, OpLowering, Signature, Snippet};

/// The lowering of an op clang lowers as `call` says.
pub fn op_lowering(call: LlvmCall) -> OpLowering {
    let (params, result) = (call.signature.params, call.signature.result);
    let (body, generic_ir) = match (call.snippet, call.movement, call.snippet_per_immediate, call.snippet_of_immediate)
    {
        (Some(text), ..) => (Body::Snippet(Snippet { params, result, text }), true),
        (None, Some(m), ..) => (
            Body::Movement { instruction: m.instruction, elem_bits: m.elem_bits, immediate: m.immediate, result },
            true,
        ),
        (None, None, Some(p), _) => {
            let body = Body::SnippetPerImmediate {
                immediate: Immediate::Named(p.immediate),
                lowest: 0,
                snippets: p
                    .snippets
                    .into_iter()
                    .map(|text| Snippet { params: params.clone(), result: result.clone(), text })
                    .collect(),
                last_holds_up_to: p.last_holds_up_to.map(i64::from),
            };
            (body, true)
        }
        (None, None, None, Some(t)) => {
            let immediate = Immediate::Named(t.immediate);
            (Body::SnippetOfImmediate { immediate, params, result, template: t.template }, true)
        }
        (None, None, None, None) => {
            let generic = sign_of_itself(&call.intrinsic, &result);
            let args = call.args;
            let signature = Signature::Given { params, result };
            (Body::Intrinsic { name: call.intrinsic, args: Some(args), signature, generic }, false)
        }
    };
    OpLowering { body, features: call.cpuid, select: call.select, generic_ir }
}

/// `psign` (SSSE3, AVX2) of a value by itself is its absolute value, `-MIN`
/// being `MIN`: `llvm.abs` with the minimum not poison, as clang's
/// `_mm256_abs_epi16` is, which LLVM's optimizer understands (|a| + |b| is
/// non-negative: `vpminuw` after it where the call hid it). `result` is the
/// call's MLIR result type (`vector<16xi16>`).
fn sign_of_itself(intrinsic: &str, result: &str) -> Option<GenericIntrinsic> {
    let psign = ["llvm.x86.ssse3.psign.", "llvm.x86.avx2.psign."].iter().any(|p| intrinsic.starts_with(p));
    let (lanes, elem) = result.strip_prefix("vector<")?.strip_suffix('>')?.split_once('x')?;
    let elem_bits = elem.strip_prefix('i')?;
    psign.then(|| GenericIntrinsic {
        name: format!("llvm.abs.v{lanes}i{elem_bits}"),
        poison_flag: true,
        of_one_value: true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llvm_lowering::CallArg;

    #[test]
    fn calls_keep_their_argument_plan_and_psign_of_itself_is_abs() {
        let raw = r#"{"intrinsic":"llvm.x86.avx2.psign.w","cpuid":["AVX2"],"signature":{"params":["vector<16xi16>","vector<16xi16>"],"result":"vector<16xi16>"},"args":[{"operand":0},{"operand":1}]}"#;
        let l = op_lowering(serde_json::from_str(raw).unwrap());
        let Body::Intrinsic { args, generic, .. } = &l.body else { panic!("{l:?}") };
        assert_eq!(args.as_deref(), Some(&[CallArg::Operand(0), CallArg::Operand(1)][..]));
        let g = generic.as_ref().unwrap();
        assert_eq!((g.name.as_str(), g.poison_flag, g.of_one_value), ("llvm.abs.v16i16", true, true));
        assert_eq!(l.features, ["AVX2"]);
        assert!(!l.generic_ir);
    }

    #[test]
    fn per_value_ir_starts_at_zero_and_is_generic() {
        let raw = r#"{"cpuid":["AVX512F"],"signature":{"params":["i16"],"result":"i16"},"args":[{"operand":0}],"snippet_per_immediate":{"immediate":"count","snippets":["a","b"],"last_holds_up_to":15}}"#;
        let l = op_lowering(serde_json::from_str(raw).unwrap());
        assert!(l.generic_ir);
        let Body::SnippetPerImmediate { lowest, snippets, last_holds_up_to, .. } = &l.body else { panic!("{l:?}") };
        assert_eq!((*lowest, snippets.len(), *last_holds_up_to), (0, 2, Some(15)));
    }
}
