//! Recovery: whether synthesis finds each instruction of a target's
//! grammar when the code asks for exactly what the instruction does. Each
//! instruction's expansion ([`dialectgen::expand`]) at an immediate in its
//! range is a function for `lower-to-autollvm`; `scripts/recovery` runs
//! them and judges what comes back.

use crate::synth::grammar::{Candidate, Grammar};
use crate::synth::target::Target;
use crate::table_error::TableError;
use dialectgen::expand::{expand, ExpandError, Input, VTy};
use num_bigint::BigUint;

/// One instruction of a target's grammar, as `scripts/recovery` reads it.
#[derive(serde::Serialize)]
pub struct Probe {
    /// `<isa>/<intrinsic>`.
    pub instruction: String,
    /// Its target dialect op, `hydride_<isa>.<instruction>`.
    pub op: String,
    pub class_op: String,
    /// Machine instructions, as synthesis prices it.
    pub cost: usize,
    /// Its lowering is clang's generic IR: synthesis leaves such code to
    /// LLVM, which selects the instruction itself.
    pub generic: bool,
    /// The immediate the function uses, if the instruction takes one.
    pub immediate: Option<String>,
    /// The function to lower (its expansion), or why there is none.
    pub function: Result<String, String>,
}

fn ty(t: &crate::synth::types::Ty) -> VTy {
    VTy { dims: t.dims.clone(), elem: t.elem_bits }
}

/// The immediates a probe may use, in order: the middle of the values the
/// instruction takes (neither end, where a shift or a rotation may do
/// nothing), then the values nearest it, at most [`IMMEDIATES_TRIED`].
fn immediates(c: &Candidate) -> Vec<BigUint> {
    let Some((lo, hi)) = c.immediate_values() else { return Vec::new() };
    let middle = (lo + hi) / 2;
    let near = (0..).flat_map(|d: i64| [middle - d, middle + d + 1]);
    near.filter(|v| (lo..=hi).contains(v))
        .take(IMMEDIATES_TRIED.min((hi - lo + 1) as usize))
        .map(|v| BigUint::from(v.max(0) as u64))
        .collect()
}

/// Immediates tried for a probe that computes something.
const IMMEDIATES_TRIED: usize = 8;

/// The probe's function at the first of [`immediates`] where its
/// expansion computes something (not one of its operands as it is: `vext`
/// at an offset of a whole vector), and that immediate.
fn function(c: &Candidate, name: &str) -> (Option<BigUint>, Result<String, ExpandError>) {
    let at = |imm: Option<&BigUint>| -> Result<dialectgen::expand::Expansion, ExpandError> {
        let sem = c.semantics();
        let mut inputs: Vec<Option<Input>> = vec![None; sem.args.len()];
        for (k, (pos, _)) in c.operands.iter().enumerate() {
            inputs[*pos] = Some(Input::Operand(k));
        }
        for (pos, _, _) in &c.immediates {
            let v = imm.ok_or_else(|| ExpandError::Unsupported("no immediate value in range".into()))?;
            inputs[*pos] = Some(Input::Number(v.clone()));
        }
        let inputs: Vec<Input> = inputs.into_iter().map(|i| i.unwrap_or(Input::Number(BigUint::default()))).collect();
        let types: Vec<VTy> = c.operands.iter().map(|(_, t)| ty(t)).collect();
        expand(sem, &inputs, &types, &ty(&c.result))
    };
    let candidates = immediates(c);
    if c.immediates.is_empty() || candidates.is_empty() {
        return (None, at(None).map(|e| e.text(name)));
    }
    let computes = |e: &dialectgen::expand::Expansion| !e.ops.is_empty();
    let mut first = None;
    for v in &candidates {
        let e = at(Some(v));
        if e.as_ref().is_ok_and(computes) {
            return (Some(v.clone()), e.map(|e| e.text(name)));
        }
        first.get_or_insert((v.clone(), e));
    }
    let (v, e) = first.expect("a value was tried");
    (Some(v), e.map(|e| e.text(name)))
}

/// Every instruction `target` may use, each with its probe function.
pub fn probes(target: Target) -> Result<Vec<Probe>, TableError> {
    let grammar = Grammar::embedded(target.isa())?;
    let isa = target.isa();
    Ok(grammar
        .candidates
        .iter()
        .filter(|c| c.allowed_on(target))
        .enumerate()
        .map(|(i, c)| {
            let short = dialectgen::design::build::op_name(&c.intrinsic);
            let (immediate, function) = function(c, &format!("probe{i}"));
            Probe {
                instruction: format!("{}/{}", isa.name(), c.intrinsic),
                op: format!("{}.{short}", isa.dialect()),
                class_op: c.class_op.clone(),
                cost: c.cost,
                generic: c.generic,
                immediate: immediate.map(|v| v.to_string()),
                function: function.map_err(|e| e.to_string()),
            }
        })
        .collect())
}
