//! Parameter extraction: every number in a canonical instruction becomes a
//! hole `$k`, so instructions that differ only in numbers share a template.

use crate::sema::ir::{Expr, Semantics};
use crate::sema::visit::walk_semantics_mut;
use num_bigint::BigInt;

/// A template (holes `$0, $1, …` for the numbers of the body, zeros for
/// the widths in the signature) and the numbers of one instruction.
#[derive(Clone, Debug, PartialEq)]
pub struct Parameterized {
    pub template: Semantics,
    /// Body holes first, then per argument its width, element width and
    /// decoded immediate bits, then the result's width and element width.
    pub values: Vec<BigInt>,
    /// Identifies the template: equal keys, same template.
    pub key: String,
}

/// How many signature numbers follow the body holes: per argument its width,
/// element width and immediate bits, then the result's width and element width.
pub fn signature_len(args: usize) -> usize {
    3 * args + 2
}

impl Parameterized {
    /// The signature numbers (after the body holes).
    pub fn signature(&self) -> &[BigInt] {
        &self.values[self.values.len() - signature_len(self.template.args.len())..]
    }
}

pub fn hole(k: usize) -> String {
    format!("${k}")
}

/// The number `k` of hole `$k` ([`hole`]'s inverse).
pub fn hole_index(name: &str) -> Option<usize> {
    name.strip_prefix('$').and_then(|k| k.parse().ok())
}

pub fn parameterize(canonical: &Semantics) -> Parameterized {
    let mut t = canonical.clone();
    let mut values = Vec::new();
    walk_semantics_mut(
        &mut t,
        &mut |e: &mut Expr| {
            if let Expr::Int(v) = e {
                let k = values.len();
                values.push(v.clone());
                *e = Expr::Var(hole(k));
            }
        },
        &mut |_| {},
    );
    for a in &mut t.args {
        values.push(BigInt::from(a.width));
        values.push(BigInt::from(a.elem.width));
        values.push(BigInt::from(a.imm_bits.unwrap_or(0)));
        a.width = 0;
        a.elem.width = 0;
        a.imm_bits = a.imm_bits.map(|_| 0);
    }
    values.push(BigInt::from(t.result.width));
    values.push(BigInt::from(t.result.elem.width));
    t.result.width = 0;
    t.result.elem.width = 0;
    t.name = String::new();
    // The values an immediate takes belong to the instruction, not to the template.
    let key_args: Vec<_> = t.args.iter().map(|a| crate::sema::ir::Arg { imm_range: None, ..a.clone() }).collect();
    let key = serde_json::to_string(&(&key_args, &t.result, &t.functions, &t.body)).expect("IR serializes");
    Parameterized { template: t, values, key }
}

/// The instruction a template stands for with these numbers.
pub fn instantiate(template: &Semantics, values: &[BigInt], name: &str) -> Semantics {
    let mut s = template.clone();
    let body_holes = values.len() - signature_len(s.args.len());
    walk_semantics_mut(
        &mut s,
        &mut |e: &mut Expr| {
            if let Expr::Var(v) = e {
                if let Some(k) = hole_index(v) {
                    *e = Expr::Int(values[k].clone());
                }
            }
        },
        &mut |_| {},
    );
    set_signature(&mut s, |k| u32::try_from(&values[body_holes + k]).unwrap_or(0));
    s.name = name.to_string();
    s
}

/// Sets the widths of `s` from signature numbers (`sig(k)` is the `k`th):
/// per argument its width, element width and immediate bits, then the
/// result's width and element width.
pub fn set_signature(s: &mut Semantics, sig: impl Fn(usize) -> u32) {
    for (i, a) in s.args.iter_mut().enumerate() {
        a.width = sig(3 * i);
        a.elem.width = sig(3 * i + 1);
        a.imm_bits = a.imm_bits.map(|_| sig(3 * i + 2));
    }
    let results = 3 * s.args.len();
    s.result.width = sig(results);
    s.result.elem.width = sig(results + 1);
}
