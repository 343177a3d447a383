//! How each target op becomes LLVM: what clang emits for its intrinsic,
//! which [`super::op_lowering`] writes as the op's entry of the lowering
//! table (`crate::llvm_lowering`).
//!
//! - An instruction clang lowers to exactly one LLVM intrinsic (plus a
//!   `select` for an AVX-512 mask form) is a call of that intrinsic; its
//!   immediates become constant arguments. Where clang folds the call for
//!   an immediate of 1, the intrinsic it calls with the immediate as a
//!   parameter counts (the shifts by an immediate).
//! - Any other instruction without immediates is a snippet: clang's IR for
//!   it (`add`, `zext`, `shufflevector`, intrinsic calls, …) as an
//!   LLVM-dialect function, which the pass inlines.
//! - An instruction clang lowers to `shufflevector`s whose masks depend on
//!   the immediate is a data movement (see [`movement`]) when its semantics
//!   move elements for every immediate: the pass builds the mask for the
//!   op's immediate from the semantics and proves it.
//! - An instruction whose immediate has at most 16 values and whose IR is
//!   a snippet for each value (comparisons by a predicate, lane inserts)
//!   gets a snippet per value.
//! - What is left has no entry: other instructions whose IR depends on
//!   their immediates, and IR that is not one block of pure operations.

use crate::classify::engine::{ClassMember, SimilarityClass};
use crate::classify::mask::Masking;
use crate::design::build::{op_name, target_names};
use crate::isa::x86::lowering::{Immediates, IntrinsicSignature, Lowering};
use crate::llvm_ir::CallSource;
use crate::llvm_snippet::Snippet;
use crate::movement::{self, Movement};
use crate::sema::ir::{ArgKind, Semantics};
use serde::Serialize;
use std::collections::BTreeMap;

pub use crate::llvm_lowering::{CallArg, MaskSelect, Otherwise};

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
    /// A data movement by the immediate: a `shufflevector` of the operands
    /// (as vectors of `signature`'s types) whose mask the instruction's
    /// semantics give for the op's immediate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub movement: Option<Movement>,
    /// Clang's IR for each value of the one immediate (`snippets[v]` for
    /// value `v`), each like `snippet`: for instructions whose IR depends on
    /// an immediate of few values.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snippet_per_immediate: Option<SnippetPerImmediate>,
    /// Clang's IR with the one immediate's value in its place, like
    /// `snippet` (for an immediate of many values: rotations, funnel shifts).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snippet_of_immediate: Option<SnippetOfImmediate>,
}

#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct SnippetOfImmediate {
    /// The immediate attribute of the target op.
    pub immediate: String,
    /// The text, and the values it holds for.
    pub template: crate::llvm_snippet::ImmediateTemplate,
}

#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct SnippetPerImmediate {
    /// The immediate attribute of the target op.
    pub immediate: String,
    pub snippets: Vec<String>,
    /// The last snippet is also clang's IR for every larger value the
    /// immediate takes, up to this one (a mask shift by the element count
    /// or more).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_holds_up_to: Option<u32>,
}

impl SnippetPerImmediate {
    /// The IR for value `v`, if one was recorded for it.
    pub fn at(&self, v: u32) -> Option<&str> {
        let last = self.snippets.len().checked_sub(1)?;
        let k = match self.last_holds_up_to {
            Some(top) if v <= top => (v as usize).min(last),
            _ => v as usize,
        };
        self.snippets.get(k).map(String::as_str)
    }

    /// The largest value with IR.
    pub fn top(&self) -> usize {
        self.last_holds_up_to.map_or(self.snippets.len().saturating_sub(1), |top| top as usize)
    }
}

impl LlvmCall {
    /// The entry of an instruction without immediates that clang lowers to
    /// the pure IR of `snippet`, if the snippet's parameters are the op's
    /// operands.
    fn of_snippet(s: &Semantics, snippet: &Snippet, cpuid: Vec<String>) -> Option<LlvmCall> {
        if s.args.iter().any(|a| a.kind == ArgKind::Immediate) || snippet.params.len() != s.args.len() {
            return None;
        }
        let signature = IntrinsicSignature { params: snippet.params.clone(), result: snippet.result.clone() };
        Some(LlvmCall { snippet: Some(snippet.text.clone()), ..LlvmCall::generic_ir(cpuid, signature, s.args.len()) })
    }

    /// An entry of generic IR over the op's first `operands` operands, typed
    /// by `signature`, without the IR (which the caller sets).
    fn generic_ir(cpuid: Vec<String>, signature: IntrinsicSignature, operands: usize) -> LlvmCall {
        LlvmCall {
            intrinsic: String::new(),
            cpuid,
            signature,
            args: (0..operands).map(CallArg::Operand).collect(),
            select: None,
            snippet: None,
            movement: None,
            snippet_per_immediate: None,
            snippet_of_immediate: None,
        }
    }

    /// The entry of an instruction with one immediate whose IR is a
    /// template of the value, if it takes the op's operands.
    fn of_snippet_of_immediate(
        s: &Semantics,
        template: &crate::llvm_snippet::ImmediateTemplate,
        cpuid: Vec<String>,
    ) -> Option<LlvmCall> {
        let (position, _) = s.args.iter().enumerate().find(|(_, a)| a.kind == ArgKind::Immediate)?;
        if template.params.len() + 1 != s.args.len() {
            return None;
        }
        let signature = IntrinsicSignature { params: template.params.clone(), result: template.result.clone() };
        Some(LlvmCall {
            snippet_of_immediate: Some(SnippetOfImmediate {
                immediate: target_names(s)[&position].clone(),
                template: template.clone(),
            }),
            ..LlvmCall::generic_ir(cpuid, signature, template.params.len())
        })
    }

    /// The entry of an instruction with one immediate whose IR clang gives
    /// for each of its few values as a snippet, if every snippet takes the
    /// op's operands with the same types.
    fn of_snippet_per_immediate(
        s: &Semantics,
        snippets: &[Snippet],
        last_holds_up_to: Option<u32>,
        cpuid: Vec<String>,
    ) -> Option<LlvmCall> {
        let (position, _) = s.args.iter().enumerate().find(|(_, a)| a.kind == ArgKind::Immediate)?;
        let first = snippets.first()?;
        let same = snippets.iter().all(|x| x.params == first.params && x.result == first.result);
        if !same || first.params.len() + 1 != s.args.len() {
            return None;
        }
        let signature = IntrinsicSignature { params: first.params.clone(), result: first.result.clone() };
        Some(LlvmCall {
            snippet_per_immediate: Some(SnippetPerImmediate {
                immediate: target_names(s)[&position].clone(),
                snippets: snippets.iter().map(|x| x.text.clone()).collect(),
                last_holds_up_to,
            }),
            ..LlvmCall::generic_ir(cpuid, signature, first.params.len())
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
            .or_else(|| lowering.snippet.as_ref().and_then(|snippet| LlvmCall::of_snippet(s, snippet, cpuid.clone())))
            .or_else(|| movement_call(m, s, lowering, cpuid.clone()))
            .or_else(|| {
                let snippets = lowering.snippet_per_immediate.as_ref()?;
                LlvmCall::of_snippet_per_immediate(s, snippets, lowering.last_snippet_holds_up_to, cpuid.clone())
            })
            .or_else(|| {
                let template = lowering.snippet_of_immediate.as_ref()?;
                LlvmCall::of_snippet_of_immediate(s, template, cpuid)
            });
        if let Some(call) = call {
            out.insert(format!("{target_dialect}.{}", op_name(&m.intrinsic)), call);
        }
    }
    out
}

/// The call of the one LLVM intrinsic clang lowers member `m` to (with a
/// select for a mask form), if that is all clang emits for it: with its
/// immediates compiled as 1, or else with them passed as parameters.
fn intrinsic_call(m: &ClassMember, s: &Semantics, lowering: &Lowering, cpuid: Vec<String>) -> Option<LlvmCall> {
    let compiled = match (lowering.llvm_intrinsics.as_slice(), &lowering.intrinsic_signature, &lowering.call_sources) {
        ([intrinsic], Some(signature), Some(sources)) => {
            Some(CallShape { intrinsic, signature, llvm_ops: &lowering.llvm_ops, sources, immediates: Immediates::One })
        }
        _ => None,
    };
    let with_parameters = lowering.immediate_call.as_ref().map(|c| CallShape {
        intrinsic: &c.intrinsic,
        signature: &c.signature,
        llvm_ops: &c.llvm_ops,
        sources: &c.sources,
        immediates: Immediates::Parameters,
    });
    compiled
        .and_then(|shape| call_of_shape(m, s, &shape, cpuid.clone()))
        .or_else(|| with_parameters.and_then(|shape| call_of_shape(m, s, &shape, cpuid)))
}

/// The one intrinsic call of a compiled function and the rest of its IR.
struct CallShape<'a> {
    intrinsic: &'a String,
    signature: &'a IntrinsicSignature,
    llvm_ops: &'a [String],
    sources: &'a [CallSource],
    immediates: Immediates,
}

fn call_of_shape(m: &ClassMember, s: &Semantics, shape: &CallShape, cpuid: Vec<String>) -> Option<LlvmCall> {
    let (intrinsic, signature, llvm_ops) = (shape.intrinsic, shape.signature.clone(), shape.llvm_ops);
    let masked = m.masking != Masking::None;
    // A mask form is the unmasked intrinsic and a select, with a
    // shufflevector taking the mask's low bits when it has more bits
    // than elements; a plain form is the intrinsic alone.
    let narrow_mask = m.mask.is_some_and(|s| s.mask_width > s.elements);
    let allowed = |o: &String| o == "select" || (o == "shufflevector" && narrow_mask);
    let fits = if masked {
        llvm_ops.iter().all(allowed) && llvm_ops.iter().any(|o| o == "select")
    } else {
        llvm_ops.is_empty()
    };
    if !fits || intrinsic.contains(".mask.") {
        return None;
    }
    let operand_of = s.op_operands_in_c_order();
    let next = operand_of.iter().flatten().count();
    let names = target_names(s);
    let mask_arg = masked.then(|| m.arg_order[m.arg_order.len() - 1]);
    // The call's arguments as clang passes them, which need not be the C
    // intrinsic's order (`_mm512_shrdv_epi16(a, b, c)` is `llvm.fshr(b, a,
    // c)`): each parameter of the IR is the target op's operand of that
    // position (immediates are no parameters); each constant must be an
    // immediate, compiled as 1, taken in order. Anything else (a constant
    // clang derived from an immediate, a flag of the intrinsic's own) is no
    // plain call, and the instruction gets a snippet or no entry. Compiled
    // with the immediates as parameters, immediate `j` is parameter
    // `next + j` and no constant is accepted.
    let mask_operand = mask_arg.and_then(|i| operand_of[i]);
    let immediate_args: Vec<usize> = (0..s.args.len()).filter(|i| operand_of[*i].is_none()).collect();
    let mut used = vec![false; immediate_args.len()];
    let mut in_order = 0;
    let mut immediate = |j: usize| {
        let i = *immediate_args.get(j)?;
        used[j] = true;
        Some(CallArg::Immediate(names[&i].clone()))
    };
    let args: Vec<CallArg> = shape
        .sources
        .iter()
        .map(|source| match (source, shape.immediates) {
            (CallSource::Param(p), _) if *p < next && Some(*p) != mask_operand => Some(CallArg::Operand(*p)),
            (CallSource::Param(p), Immediates::Parameters) if *p >= next => immediate(p - next),
            (CallSource::Constant(text), Immediates::One) if compiled_immediate(text) => {
                in_order += 1;
                immediate(in_order - 1)
            }
            _ => None,
        })
        .collect::<Option<_>>()?;
    if used.contains(&false) {
        return None;
    }
    let select = mask_select(m, s)?;
    (args.len() == signature.params.len()).then(|| LlvmCall {
        intrinsic: intrinsic.clone(),
        cpuid,
        signature,
        args,
        select,
        snippet: None,
        movement: None,
        snippet_per_immediate: None,
        snippet_of_immediate: None,
    })
}

/// The select a mask form makes of the unmasked result (`Some(None)` for a
/// plain form; `None` if the form is not one this can express).
fn mask_select(m: &ClassMember, s: &Semantics) -> Option<Option<MaskSelect>> {
    let operand_of = s.op_operands_in_c_order();
    let n = m.arg_order.len();
    match (m.masking, m.mask) {
        (Masking::None, _) => Some(None),
        (masking, Some(shape)) => {
            let otherwise = match masking {
                Masking::Zero => Otherwise::Zero,
                Masking::Merge => Otherwise::Operand(operand_of[m.arg_order[n - 2]]?),
                Masking::MergeOperand(k) => Otherwise::Operand(operand_of[m.arg_order[k]]?),
                Masking::None => unreachable!(),
            };
            Some(Some(MaskSelect {
                mask: operand_of[m.arg_order[n - 1]]?,
                elements: shape.elements,
                elem_width: shape.elem_width,
                otherwise,
            }))
        }
        _ => None,
    }
}

/// The entry of a data movement by an immediate (see [`movement`]): clang
/// emits only `shufflevector`s (and a mask form's `select`) for it, and for
/// every value of the immediate its semantics move elements that one
/// `shufflevector` can.
fn movement_call(m: &ClassMember, s: &Semantics, lowering: &Lowering, cpuid: Vec<String>) -> Option<LlvmCall> {
    let movable_ir = lowering.llvm_intrinsics.is_empty()
        && lowering.llvm_ops.iter().any(|o| o == "shufflevector")
        && lowering.llvm_ops.iter().all(|o| o == "shufflevector" || (o == "select" && m.masking != Masking::None));
    if !movable_ir {
        return None;
    }
    let select = mask_select(m, s)?;
    let elem_bits = movement::movement_elem_bits(s)?;
    let (position, _) = s.args.iter().enumerate().find(|(_, a)| a.kind == ArgKind::Immediate)?;
    let vector = |width: u32| format!("vector<{}xi{elem_bits}>", width / elem_bits);
    let params: Vec<String> = s
        .args
        .iter()
        .filter(|a| a.kind != ArgKind::Immediate)
        .map(|a| if a.kind == ArgKind::Vector { vector(a.width) } else { format!("i{}", a.width) })
        .collect();
    let operands = params.len();
    let signature = IntrinsicSignature { params, result: vector(s.result.width) };
    Some(LlvmCall {
        select,
        movement: Some(Movement {
            instruction: s.name.clone(),
            elem_bits,
            immediate: target_names(s)[&position].clone(),
        }),
        ..LlvmCall::generic_ir(cpuid, signature, operands)
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
    /// A `shufflevector` whose mask the semantics give for the immediate.
    pub movement: usize,
    /// Clang's generic IR for each value of an immediate of few values.
    pub generic_ir_per_immediate: usize,
    /// Clang's unoptimized IR with the immediate's value in its place.
    pub generic_ir_of_immediate: usize,
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
            Some(call) if call.movement.is_some() => c.movement += 1,
            Some(call) if call.snippet_per_immediate.is_some() => c.generic_ir_per_immediate += 1,
            Some(call) if call.snippet_of_immediate.is_some() => c.generic_ir_of_immediate += 1,
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

#[cfg(test)]
mod snippet_per_immediate_tests {
    use super::SnippetPerImmediate;

    #[test]
    fn the_last_snippet_stands_for_larger_values_up_to_the_top_only() {
        let kshift = SnippetPerImmediate {
            immediate: "count".into(),
            snippets: vec!["a".into(), "b".into(), "zero".into()],
            last_holds_up_to: Some(255),
        };
        assert_eq!(kshift.at(1), Some("b"));
        assert_eq!(kshift.at(2), Some("zero"));
        assert_eq!(kshift.at(255), Some("zero"));
        assert_eq!(kshift.at(256), None);
        assert_eq!(kshift.top(), 255);
        let predicate = SnippetPerImmediate { last_holds_up_to: None, ..kshift };
        assert_eq!(predicate.at(2), Some("zero"));
        assert_eq!(predicate.at(3), None);
        assert_eq!(predicate.top(), 2);
    }
}
