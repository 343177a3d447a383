//! How each target op becomes LLVM: what clang emits for its intrinsic. This
//! is the table `convert-hydride-x86-to-llvm` reads.
//!
//! - An instruction clang lowers to exactly one LLVM intrinsic (plus a
//!   `select` for an AVX-512 mask form) is a call of that intrinsic; its
//!   immediates become constant arguments.
//! - Any other instruction without immediates is a snippet: clang's IR for
//!   it (`add`, `zext`, `shufflevector`, intrinsic calls, …) as an
//!   LLVM-dialect function, which the pass inlines.
//! - What is left has no entry: instructions whose IR depends on their
//!   immediates and is not one intrinsic call, and IR that is not one block
//!   of pure operations.

use crate::classify::engine::{ClassMember, SimilarityClass};
use crate::classify::mask::Masking;
use crate::design::build::{op_name, target_names};
use crate::isa::x86::lowering::{IntrinsicSignature, Lowering};
use crate::llvm_ir::CallSource;
use crate::llvm_snippet::Snippet;
use crate::sema::ir::{ArgKind, Semantics};
use serde::Serialize;
use std::collections::BTreeMap;

/// One argument of the intrinsic call.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CallArg {
    /// Operand `k` of the target op.
    Operand(usize),
    /// The target op's immediate attribute of this name.
    Immediate(String),
}

/// What a result element with a clear mask bit becomes.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Otherwise {
    Zero,
    /// Operand `k` of the target op (pass-through or the operation's own).
    Operand(usize),
}

#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct MaskSelect {
    /// The mask operand of the target op.
    pub mask: usize,
    /// Result elements under the mask and their width in bits.
    pub elements: u32,
    pub elem_width: u32,
    pub otherwise: Otherwise,
}

#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct LlvmCall {
    /// The intrinsic called; empty for a snippet.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub intrinsic: String,
    /// CPUID features the instruction needs (`AVX2`, `AVX512BW`, …).
    #[serde(default)]
    pub cpuid: Vec<String>,
    /// MLIR types of the intrinsic's parameters and result.
    pub signature: IntrinsicSignature,
    pub args: Vec<CallArg>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub select: Option<MaskSelect>,
    /// Clang's IR as `llvm.func @snippet(…)`, whose parameters are `args`
    /// (with the types of `signature`): inlined in place of a call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snippet: Option<String>,
}

impl LlvmCall {
    /// The entry of an instruction without immediates that clang lowers to
    /// the pure IR of `snippet`, if the snippet's parameters are the op's
    /// operands.
    fn of_snippet(s: &Semantics, snippet: &Snippet, cpuid: Vec<String>) -> Option<LlvmCall> {
        if s.args.iter().any(|a| a.kind == ArgKind::Immediate) || snippet.params.len() != s.args.len() {
            return None;
        }
        Some(LlvmCall {
            intrinsic: String::new(),
            cpuid,
            signature: IntrinsicSignature { params: snippet.params.clone(), result: snippet.result.clone() },
            args: (0..s.args.len()).map(CallArg::Operand).collect(),
            select: None,
            snippet: Some(snippet.text.clone()),
        })
    }
}

/// `{"hydride_x86.<op>": call}` for every instruction with a one-intrinsic
/// lowering or a snippet.
pub fn llvm_calls(
    target_dialect: &str,
    classes: &[SimilarityClass],
    semantics: &[Semantics],
    lowerings: &BTreeMap<String, Lowering>,
    cpuids: &BTreeMap<String, Vec<String>>,
) -> BTreeMap<String, LlvmCall> {
    let by_name: BTreeMap<&str, &Semantics> = semantics.iter().map(|s| (s.name.as_str(), s)).collect();
    let mut out = BTreeMap::new();
    for m in classes.iter().flat_map(|c| &c.members) {
        let (Some(s), Some(lowering)) = (by_name.get(m.intrinsic.as_str()), lowerings.get(&m.intrinsic)) else {
            continue;
        };
        let cpuid = cpuids.get(&m.intrinsic).cloned().unwrap_or_default();
        let call = intrinsic_call(m, s, lowering, cpuid.clone())
            .or_else(|| lowering.snippet.as_ref().and_then(|snippet| LlvmCall::of_snippet(s, snippet, cpuid)));
        if let Some(call) = call {
            out.insert(format!("{target_dialect}.{}", op_name(&m.intrinsic)), call);
        }
    }
    out
}

/// The call of the one LLVM intrinsic clang lowers member `m` to (with a
/// select for a mask form), if that is all clang emits for it.
fn intrinsic_call(m: &ClassMember, s: &Semantics, lowering: &Lowering, cpuid: Vec<String>) -> Option<LlvmCall> {
    let ([intrinsic], Some(signature)) = (lowering.llvm_intrinsics.as_slice(), lowering.intrinsic_signature.clone())
    else {
        return None;
    };
    let masked = m.masking != Masking::None;
    // A mask form is the unmasked intrinsic and a select, with a
    // shufflevector taking the mask's low bits when it has more bits
    // than elements; a plain form is the intrinsic alone.
    let narrow_mask = m.mask.is_some_and(|s| s.mask_width > s.elements);
    let allowed = |o: &String| o == "select" || (o == "shufflevector" && narrow_mask);
    let fits = if masked {
        lowering.llvm_ops.iter().all(allowed) && lowering.llvm_ops.iter().any(|o| o == "select")
    } else {
        lowering.llvm_ops.is_empty()
    };
    if !fits || intrinsic.contains(".mask.") {
        return None;
    }
    // Operand index of each C argument of the target op.
    let mut operand_of = vec![None; s.args.len()];
    let mut next = 0;
    for (i, a) in s.args.iter().enumerate() {
        if a.kind != ArgKind::Immediate {
            operand_of[i] = Some(next);
            next += 1;
        }
    }
    let names = target_names(s);
    let n = m.arg_order.len();
    let mask_arg = masked.then(|| m.arg_order[n - 1]);
    let passthrough_arg = (m.masking == Masking::Merge).then(|| m.arg_order[n - 2]);
    // The call's arguments as clang passes them, which need not be the C
    // intrinsic's order (`_mm512_shrdv_epi16(a, b, c)` is `llvm.fshr(b, a,
    // c)`): each parameter of the IR is the target op's operand of that
    // position (immediates are no parameters); each constant must be an
    // immediate, compiled as 1, taken in order. Anything else (a constant
    // clang derived from an immediate, a flag of the intrinsic's own) is no
    // plain call, and the instruction gets a snippet or no entry.
    let mask_operand = mask_arg.and_then(|i| operand_of[i]);
    let mut immediates = (0..s.args.len()).filter(|i| operand_of[*i].is_none());
    let args: Vec<CallArg> = lowering
        .call_sources
        .as_ref()?
        .iter()
        .map(|source| match source {
            CallSource::Param(p) if *p < next && Some(*p) != mask_operand => Some(CallArg::Operand(*p)),
            CallSource::Constant(text) if compiled_immediate(text) => {
                immediates.next().map(|i| CallArg::Immediate(names[&i].clone()))
            }
            _ => None,
        })
        .collect::<Option<_>>()?;
    if immediates.next().is_some() {
        return None;
    }
    let select = match (m.masking, m.mask, mask_arg) {
        (Masking::None, _, _) => None,
        (masking, Some(shape), Some(mask)) => {
            let otherwise = match masking {
                Masking::Zero => Otherwise::Zero,
                Masking::Merge => Otherwise::Operand(operand_of[passthrough_arg?]?),
                Masking::MergeOperand(k) => Otherwise::Operand(operand_of[m.arg_order[k]]?),
                Masking::None => unreachable!(),
            };
            Some(MaskSelect {
                mask: operand_of[mask]?,
                elements: shape.elements,
                elem_width: shape.elem_width,
                otherwise,
            })
        }
        _ => return None,
    };
    (args.len() == signature.params.len()).then(|| LlvmCall {
        intrinsic: intrinsic.clone(),
        cpuid,
        signature,
        args,
        select,
        snippet: None,
    })
}

/// Whether a constant argument is an immediate as `lowering` compiles them
/// (`1`, a scalar).
fn compiled_immediate(text: &str) -> bool {
    matches!(text.split_whitespace().collect::<Vec<_>>().as_slice(), [t, "1"] if t.starts_with('i'))
}

/// How many instructions the table covers, and why the rest have no entry
/// (the `llvm_lowering` part of the x86 report).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Coverage {
    pub instructions: usize,
    /// A call of one LLVM intrinsic (with a select for a mask form).
    pub intrinsic_call: usize,
    /// Clang's generic IR, inlined.
    pub generic_ir: usize,
    /// No entry, by reason.
    pub none: BTreeMap<String, usize>,
}

pub fn coverage(
    target_dialect: &str,
    semantics: &[Semantics],
    lowerings: &BTreeMap<String, Lowering>,
    calls: &BTreeMap<String, LlvmCall>,
) -> Coverage {
    let mut c = Coverage { instructions: semantics.len(), ..Coverage::default() };
    for s in semantics {
        match calls.get(&format!("{target_dialect}.{}", op_name(&s.name))) {
            Some(call) if call.snippet.is_some() => c.generic_ir += 1,
            Some(_) => c.intrinsic_call += 1,
            None => {
                let reason = match lowerings.get(&s.name) {
                    None => "clang does not compile the intrinsic alone",
                    Some(_) if s.args.iter().any(|a| a.kind == ArgKind::Immediate) => {
                        "IR depends on an immediate and is not one intrinsic call"
                    }
                    Some(l) if l.snippet.is_none() => "IR is not one block of pure operations",
                    Some(_) => "IR does not take the op's operands",
                };
                *c.none.entry(reason.to_string()).or_default() += 1;
            }
        }
    }
    c
}
