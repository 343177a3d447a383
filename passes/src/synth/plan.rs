//! What the synthesis of a block hands back: the rewrites to make, as new
//! ops reading the block's values or one another, and remarks on what it
//! left alone.

use super::attr::NewAttr;
use super::block::Window;
use super::grammar::Grammar;
use super::program::{Program, Source, StepOp};
use super::types::Ty;
use num_bigint::BigInt;

/// The most windows of a block that get a remark of their own.
pub const MAX_WINDOW_REMARKS: usize = 50;

/// Where an op of a rewrite reads an operand: a value of the block, or an
/// earlier op of the same rewrite.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Ref {
    Value(usize),
    Step(usize),
}

/// One op a rewrite creates.
#[derive(Clone, Debug, PartialEq)]
pub struct NewOp {
    /// `autollvm.add_sat_s`, or `vector.shuffle` for a swizzle.
    pub op: String,
    pub attributes: Vec<(String, NewAttr)>,
    /// Where each operand comes from and the type the op takes it as.
    pub operands: Vec<(Ref, Ty)>,
    pub result: Ty,
}

/// One rewrite: replace op `root` by the last of `ops`.
#[derive(Clone, Debug, PartialEq)]
pub struct Rewrite {
    pub root: usize,
    pub ops: Vec<NewOp>,
    /// The window's ops, to erase once nothing uses them.
    pub window: Vec<usize>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Plan {
    pub rewrites: Vec<Rewrite>,
    /// Ops left unchanged and why.
    pub remarks: Vec<(usize, String)>,
}

impl Plan {
    /// A remark at op `pos` while the block has fewer than
    /// [`MAX_WINDOW_REMARKS`]; past that, counted in `unshown`.
    pub(super) fn remark_capped(&mut self, pos: usize, text: String, unshown: &mut usize) {
        if self.remarks.len() < MAX_WINDOW_REMARKS {
            self.remarks.push((pos, text));
        } else {
            *unshown += 1;
        }
    }
}

/// The ops a program becomes, operands typed as each op takes them.
pub(super) fn new_ops(grammar: &Grammar, program: &Program, window: &Window) -> Vec<NewOp> {
    new_ops_reading(grammar, program, &|l| Ref::Value(window.leaves[l]), 0)
}

/// The ops a program becomes, leaf `l` read from `leaf(l)` and step `k`'s
/// result from the op at `offset + k` of the rewrite.
pub(super) fn new_ops_reading(
    grammar: &Grammar,
    program: &Program,
    leaf: &dyn Fn(usize) -> Ref,
    offset: usize,
) -> Vec<NewOp> {
    let reference = |s: &Source| match s {
        Source::Leaf(l) => leaf(*l),
        Source::Step(k) => Ref::Step(offset + *k),
    };
    program
        .steps
        .iter()
        .map(|s| match &s.op {
            StepOp::Instr { candidate, immediates } => {
                let c = &grammar.candidates[*candidate];
                let mut attributes = c.fixed_attributes.clone();
                attributes.extend(
                    immediates.iter().map(|(n, v)| (n.clone(), NewAttr::Int { value: BigInt::from(*v), bits: 32 })),
                );
                let operands =
                    s.operands.iter().zip(&c.operands).map(|(src, (_, t))| (reference(src), t.clone())).collect();
                NewOp { op: c.class_op.clone(), attributes, operands, result: c.result.clone() }
            }
            StepOp::Swizzle(z) => {
                let ty = |bits: u32| Ty { dims: vec![bits / z.elem_bits], elem_bits: z.elem_bits };
                // vector.shuffle reads two vectors of one type; a one-operand swizzle reads its operand twice.
                let first = reference(&s.operands[0]);
                let second = s.operands.get(1).map(reference).unwrap_or(first);
                NewOp {
                    op: "vector.shuffle".into(),
                    attributes: vec![("mask".into(), NewAttr::I64s(z.mask.iter().map(|m| i64::from(*m)).collect()))],
                    operands: vec![(first, ty(z.operand_bits)), (second, ty(z.operand_bits))],
                    result: ty(z.result_bits()),
                }
            }
        })
        .collect()
}
