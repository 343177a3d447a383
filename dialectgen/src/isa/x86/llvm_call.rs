//! How each target op becomes LLVM: one call of the LLVM intrinsic clang
//! emits for it, with a `select` on the mask for AVX-512 mask forms. This is
//! the table `convert-hydride-x86-to-llvm` reads.
//!
//! Only instructions clang lowers to exactly one LLVM intrinsic (plus a
//! `select` for the mask) get an entry; those clang lowers to generic LLVM
//! IR (`add`, `shufflevector`, …) are left to LLVM's own instruction
//! selection and are not targets of synthesis either.

use crate::classify::engine::SimilarityClass;
use crate::classify::mask::Masking;
use crate::design::build::{op_name, target_names};
use crate::isa::x86::lowering::{IntrinsicSignature, Lowering};
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
    pub intrinsic: String,
    /// CPUID features the instruction needs (`AVX2`, `AVX512BW`, …).
    #[serde(default)]
    pub cpuid: Vec<String>,
    /// MLIR types of the intrinsic's parameters and result.
    pub signature: IntrinsicSignature,
    pub args: Vec<CallArg>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub select: Option<MaskSelect>,
}

/// `{"hydride_x86.<op>": call}` for every instruction with a one-intrinsic lowering.
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
        let [intrinsic] = lowering.llvm_intrinsics.as_slice() else { continue };
        let Some(signature) = lowering.intrinsic_signature.clone() else { continue };
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
            continue;
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
        let args: Vec<CallArg> = (0..s.args.len())
            .filter(|i| Some(*i) != mask_arg && Some(*i) != passthrough_arg)
            .map(|i| match operand_of[i] {
                Some(k) => CallArg::Operand(k),
                None => CallArg::Immediate(names[&i].clone()),
            })
            .collect();
        let select = match (m.masking, m.mask, mask_arg) {
            (Masking::None, _, _) => None,
            (masking, Some(shape), Some(mask)) => {
                let otherwise = match masking {
                    Masking::Zero => Otherwise::Zero,
                    Masking::Merge => {
                        Otherwise::Operand(operand_of[passthrough_arg.expect("merge")].expect("a vector"))
                    }
                    Masking::MergeOperand(k) => Otherwise::Operand(operand_of[m.arg_order[k]].expect("a vector")),
                    Masking::None => unreachable!(),
                };
                Some(MaskSelect {
                    mask: operand_of[mask].expect("the mask is an operand"),
                    elements: shape.elements,
                    elem_width: shape.elem_width,
                    otherwise,
                })
            }
            _ => continue,
        };
        if args.len() != signature.params.len() {
            continue;
        }
        out.insert(
            format!("{target_dialect}.{}", op_name(&m.intrinsic)),
            LlvmCall {
                intrinsic: intrinsic.clone(),
                cpuid: cpuids.get(&m.intrinsic).cloned().unwrap_or_default(),
                signature,
                args,
                select,
            },
        );
    }
    out
}
