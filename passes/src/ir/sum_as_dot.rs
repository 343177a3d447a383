//! Sums as dot products: a sum of groups of extended elements
//! (`vector.multi_reduction <add>` over the last dimension of a
//! `vector.shape_cast` of an `arith.extui`/`arith.extsi`) is the dot product
//! of those elements with ones. Written so, before synthesis, the search
//! can give it a dot-product instruction (`vpdpbusd`, `udot`, `vrmpy`),
//! which reads the ones as a constant operand; where the target has none,
//! LLVM drops the product by one. The ones are extended the other way
//! (unsigned elements times signed ones, the form the mixed-sign dot
//! products take). Each rewrite is proved equal to the sum with Z3 first.
//!
//! Where the target says so (`Tuning::pair_sums_as_dot`), the same holds
//! for a pair sum of bytes spelt by lanes: the even and the odd elements of
//! one vector (`vector.deinterleave`), extended and added, are its pairwise
//! dot product with ones, `vpmaddubsw(x, 1)`, one instruction where LLVM
//! masks, shifts and adds (a 2x2 average pool's columns). Elsewhere the
//! pairs stay sums, for a target that adds them with one pairwise widening
//! add as they are.

use super::build::{self, Builder};
use super::failure::RewriteError;
use super::raw;
use super::read::{self, ReadBlock};
use crate::synth::attr::Attr;
use crate::synth::block::{BlockOp, Dataflow, Window};
use crate::synth::lower::{proved_once, Options};
use crate::synth::types::Ty;
use melior::ir::operation::OperationLike;
use melior::ir::{Attribute, OperationRef, Value, ValueLike};
use melior::Context;
use num_bigint::BigInt;

/// Z3's budget for one rewrite's proof, in milliseconds.
const PROOF_MS: u32 = 2_000;

/// Rewrites the sums under `root` (pair sums where the target's tuning asks,
/// `Tuning::pair_sums_as_dot`), with a remark
/// on each rewritten or left unproved where `remarks`; how many.
pub fn run<'c>(
    context: &'c Context,
    root: OperationRef<'c, 'c>,
    options: &Options,
    remarks: bool,
) -> Result<usize, RewriteError> {
    let (proof_ms, target) = (options.limits.proof_ms, options.limits.target);
    let blocks = raw::nested_blocks(root);
    let mut rewritten = 0;
    for block in blocks {
        let read = read::block(block);
        let flow = Dataflow::new(&read.ops);
        for pos in 0..read.ops.len() {
            let remark = |text: String| {
                if remarks {
                    raw::emit(&read.handles[pos], true, &format!("hydride-sum-as-dot: {text}"));
                }
            };
            if target.isa().tuning().pair_sums_as_dot {
                if let Some(pair) = PairSum::find(&flow, pos) {
                    let (dot, dot_window) = pair.as_dot(&flow);
                    let dot_flow = Dataflow::new(&dot);
                    let proof = proved_once(options, "pair sum as dot", &flow, &pair.window, || {
                        crate::synth::proof::windows_equal(
                            (&flow, &pair.window),
                            (&dot_flow, &dot_window),
                            PROOF_MS.min(proof_ms),
                        )
                    });
                    match proof {
                        Ok(()) => {
                            remark(format!(
                                "the even and odd elements of a {} added as its pairwise dot product with ones \
                                 (proved equal)",
                                pair.whole
                            ));
                            pair.emit(context, &read)?;
                            rewritten += 1;
                        }
                        Err(e) => remark(format!("pair sum left as it is: not proved equal to a dot product: {e}")),
                    }
                    continue;
                }
            }
            let Some(sum) = Sum::find(&flow, pos) else { continue };
            let dot = sum.as_dot(&flow);
            let dot_flow = Dataflow::new(&dot);
            let dot_window = dot_flow.close((0..dot.len()).collect(), dot.len() - 1);
            let proof = proved_once(options, "sum as dot", &flow, &sum.window, || {
                crate::synth::proof::windows_equal(
                    (&flow, &sum.window),
                    (&dot_flow, &dot_window),
                    PROOF_MS.min(proof_ms),
                )
            });
            match proof {
                Ok(()) => {
                    remark(format!(
                        "a sum of groups of extended elements of a {} written as their dot product with ones \
                         (proved equal)",
                        sum.narrow
                    ));
                    emit(context, &read, &sum)?;
                    rewritten += 1;
                }
                Err(e) => remark(format!("sum left as it is: not proved equal to a dot product: {e}")),
            }
        }
    }
    Ok(rewritten)
}

/// A sum of groups of extended elements: the extension, the reshape and
/// the reduction (in block order), reading the narrow elements and the
/// accumulator.
struct Sum {
    window: Window,
    extension: usize,
    reshape: usize,
    narrow: Ty,
    wide: Ty,
}

impl Sum {
    fn find(flow: &Dataflow, pos: usize) -> Option<Sum> {
        let op = &flow.ops[pos];
        if op.name != "vector.multi_reduction" || op.operands.len() != 2 {
            return None;
        }
        let grouped = op.operand_types[0].clone()?;
        let last = u32::try_from(grouped.dims.len().checked_sub(1)?).ok()?;
        let kind = matches!(op.attribute("kind"), Some(Attr::Kind(k)) if k == "add");
        let dims = matches!(op.attribute("reduction_dims"), Some(Attr::Ints(d)) if d == &[i64::from(last)]);
        if !kind || !dims || grouped.dims.len() != 2 || !matches!(grouped.dims[1], 2 | 4) {
            return None;
        }
        let only_reader = |v: usize, reader: usize| flow.readers(v) == [reader];
        let reshape = flow.defining_op(op.operands[0])?;
        let cast = &flow.ops[reshape];
        if cast.name != "vector.shape_cast" || !only_reader(op.operands[0], pos) {
            return None;
        }
        let extension = flow.defining_op(cast.operands[0])?;
        let ext = &flow.ops[extension];
        if !matches!(ext.name.as_str(), "arith.extui" | "arith.extsi") || !only_reader(cast.operands[0], reshape) {
            return None;
        }
        let (narrow, wide) = (ext.operand_types[0].clone()?, ext.result_types[0].clone()?);
        if narrow.dims.len() != 1 {
            return None;
        }
        let window = flow.close([extension, reshape, pos].into_iter().collect(), pos);
        Some(Sum { window, extension, reshape, narrow, wide })
    }

    /// The dot-product form as ops of the synthesizer's dataflow, over the
    /// same inputs (the narrow elements, the accumulator).
    fn as_dot(&self, flow: &Dataflow) -> Vec<BlockOp> {
        let mut fresh = fresh_values(flow);
        let ext = &flow.ops[self.extension];
        let ones = fresh();
        let ones_wide = fresh();
        let product = fresh();
        let mut ops = vec![
            new_op("arith.constant", vec![], vec![(ones, self.narrow.clone())], vec![("value", self.ones())]),
            new_op(
                other_extension(&ext.name),
                vec![(ones, self.narrow.clone())],
                vec![(ones_wide, self.wide.clone())],
                vec![],
            ),
            ext.clone(),
            new_op(
                "arith.muli",
                vec![(ext.results[0], self.wide.clone()), (ones_wide, self.wide.clone())],
                vec![(product, self.wide.clone())],
                vec![],
            ),
        ];
        let mut cast = flow.ops[self.reshape].clone();
        cast.operands = vec![product];
        ops.push(cast);
        ops.push(flow.ops[self.window.root].clone());
        for (i, op) in ops.iter_mut().enumerate() {
            op.index = i;
        }
        ops
    }

    fn ones(&self) -> Attr {
        Attr::Elements(vec![BigInt::from(1); self.narrow.lanes() as usize])
    }
}

/// `ext(even(x)) + ext(odd(x))`: the two extensions and the add (in block
/// order), reading the even and the odd elements of one deinterleave.
struct PairSum {
    window: Window,
    /// The extensions of the even and of the odd elements.
    extensions: [usize; 2],
    /// The deinterleaved vector's type.
    whole: Ty,
    half: Ty,
    wide: Ty,
}

impl PairSum {
    fn find(flow: &Dataflow, pos: usize) -> Option<PairSum> {
        let op = &flow.ops[pos];
        if op.name != "arith.addi" || op.operands.len() != 2 || op.operands[0] == op.operands[1] {
            return None;
        }
        let extension = |v: usize| -> Option<(usize, usize)> {
            let e = flow.defining_op(v)?;
            let ext = &flow.ops[e];
            (matches!(ext.name.as_str(), "arith.extui" | "arith.extsi") && flow.readers(v) == [pos])
                .then(|| (e, ext.operands[0]))
        };
        let ((e0, h0), (e1, h1)) = (extension(op.operands[0])?, extension(op.operands[1])?);
        if flow.ops[e0].name != flow.ops[e1].name {
            return None;
        }
        let split = flow.defining_op(h0)?;
        let d = &flow.ops[split];
        if d.name != "vector.deinterleave" || flow.defining_op(h1) != Some(split) || d.results.len() != 2 {
            return None;
        }
        let extensions = if d.results[0] == h0 && d.results[1] == h1 {
            [e0, e1]
        } else if d.results[0] == h1 && d.results[1] == h0 {
            [e1, e0]
        } else {
            return None;
        };
        let (whole, half) = (d.operand_types[0].clone()?, d.result_types[0].clone()?);
        let wide = op.result_types[0].clone()?;
        // Bytes into 16-bit lanes: the pairwise multiply-add of bytes.
        if whole.dims.len() != 1 || half.elem_bits != 8 || wide.elem_bits != 16 {
            return None;
        }
        let window = flow.close([e0, e1, pos].into_iter().collect(), pos);
        Some(PairSum { window, extensions, whole, half, wide })
    }

    /// The dot-product form over the same inputs (the even and the odd
    /// elements, in the window's leaf order) and its window.
    fn as_dot(&self, flow: &Dataflow) -> (Vec<BlockOp>, Window) {
        let mut fresh = fresh_values(flow);
        let (ones, even_ones, odd_ones) = (fresh(), fresh(), fresh());
        let ones_elements = Attr::Elements(vec![BigInt::from(1); self.whole.lanes() as usize]);
        let mut ops = vec![
            new_op("arith.constant", vec![], vec![(ones, self.whole.clone())], vec![("value", ones_elements)]),
            new_op(
                "vector.deinterleave",
                vec![(ones, self.whole.clone())],
                vec![(even_ones, self.half.clone()), (odd_ones, self.half.clone())],
                vec![],
            ),
        ];
        // The extensions in block order, so the leaves come in the same order.
        let mut in_order = self.extensions;
        in_order.sort_unstable();
        ops.extend(in_order.iter().map(|&e| flow.ops[e].clone()));
        let mut products = Vec::new();
        for (e, half_ones) in self.extensions.iter().zip([even_ones, odd_ones]) {
            let ext = &flow.ops[*e];
            let (ones_wide, product) = (fresh(), fresh());
            ops.push(new_op(
                other_extension(&ext.name),
                vec![(half_ones, self.half.clone())],
                vec![(ones_wide, self.wide.clone())],
                vec![],
            ));
            ops.push(new_op(
                "arith.muli",
                vec![(ext.results[0], self.wide.clone()), (ones_wide, self.wide.clone())],
                vec![(product, self.wide.clone())],
                vec![],
            ));
            products.push((product, self.wide.clone()));
        }
        let sum = fresh();
        ops.push(new_op("arith.addi", products, vec![(sum, self.wide.clone())], vec![]));
        for (i, op) in ops.iter_mut().enumerate() {
            op.index = i;
        }
        let window = Dataflow::new(&ops).close((0..ops.len()).collect(), ops.len() - 1);
        (ops, window)
    }

    /// The ones, their halves extended, the products and their sum before
    /// the add, which they replace.
    fn emit<'c>(&self, context: &'c Context, read: &ReadBlock<'c, '_>) -> Result<(), RewriteError> {
        let add = read.handles[self.window.root];
        let b = Builder::new(context, add);
        let ones_attr = build::parsed_attribute(context, &format!("dense<1> : {}", self.whole))?;
        let ones = b.create("arith.constant", &[], &[("value", ones_attr)], build::mlir_type(context, &self.whole))?;
        let half = build::mlir_type(context, &self.half);
        let halves = b.create_results("vector.deinterleave", &[ones], &[], &[half, half])?;
        let wide = build::mlir_type(context, &self.wide);
        let mut products = Vec::new();
        for (e, half_ones) in self.extensions.iter().zip(halves) {
            let ext = read.handles[*e];
            let name = ext.name().as_string_ref().as_str().unwrap_or_default().to_string();
            let ones_wide = b.create(other_extension(&name), &[half_ones], &[], wide)?;
            let extended: Value = ext.result(0)?.into();
            products.push(b.create("arith.muli", &[extended, ones_wide], &[], wide)?);
        }
        let sum = b.create("arith.addi", &products, &[], wide)?;
        let result = add.result(0)?;
        raw::replace_all_uses(result.into(), sum);
        raw::erase(add);
        Ok(())
    }
}

/// Value numbers no op of `flow` uses, one per call.
fn fresh_values(flow: &Dataflow) -> impl FnMut() -> usize {
    let mut next = flow.ops.iter().flat_map(|o| o.results.iter().chain(&o.operands)).max().map_or(0, |m| m + 1);
    move || {
        next += 1;
        next - 1
    }
}

fn other_extension(name: &str) -> &'static str {
    if name == "arith.extui" {
        "arith.extsi"
    } else {
        "arith.extui"
    }
}

fn new_op(name: &str, operands: Vec<(usize, Ty)>, results: Vec<(usize, Ty)>, attributes: Vec<(&str, Attr)>) -> BlockOp {
    BlockOp {
        index: 0,
        name: name.to_string(),
        operands: operands.iter().map(|(v, _)| *v).collect(),
        operand_types: operands.into_iter().map(|(_, t)| Some(t)).collect(),
        results: results.iter().map(|(v, _)| *v).collect(),
        result_types: results.into_iter().map(|(_, t)| Some(t)).collect(),
        attributes: attributes.into_iter().map(|(n, a)| (n.to_string(), a)).collect(),
        has_regions: false,
        unmodelled_vectors: Vec::new(),
    }
}

/// The product by ones before the reshape, a new reshape and reduction
/// reading it; the old ones erased.
fn emit<'c>(context: &'c Context, read: &ReadBlock<'c, '_>, sum: &Sum) -> Result<(), RewriteError> {
    let reduction = read.handles[sum.window.root];
    let reshape = read.handles[sum.reshape];
    let extended: Value = read.handles[sum.extension].result(0)?.into();
    let b = Builder::new(context, reduction);
    let ones_text = format!("dense<1> : {}", sum.narrow);
    let ones_attr = build::parsed_attribute(context, &ones_text)?;
    let ones = b.create("arith.constant", &[], &[("value", ones_attr)], build::mlir_type(context, &sum.narrow))?;
    let ext_name = read.handles[sum.extension].name().as_string_ref().as_str().unwrap_or_default().to_string();
    let wide = build::mlir_type(context, &sum.wide);
    let ones_wide = b.create(other_extension(&ext_name), &[ones], &[], wide)?;
    let product = b.create("arith.muli", &[extended, ones_wide], &[], wide)?;
    let grouped = reshape.result(0)?;
    let cast = b.create("vector.shape_cast", &[product], &[], grouped.r#type())?;
    let acc = reduction.operand(1)?;
    let attributes: Vec<(String, Attribute)> =
        reduction.attributes().map(|(n, a)| (n.as_string_ref().as_str().unwrap_or_default().to_string(), a)).collect();
    let named: Vec<(&str, Attribute)> = attributes.iter().map(|(n, a)| (n.as_str(), *a)).collect();
    let result = reduction.result(0)?;
    let new = b.create("vector.multi_reduction", &[cast, acc], &named, result.r#type())?;
    raw::replace_all_uses(result.into(), new);
    raw::erase(reduction);
    raw::erase(reshape);
    Ok(())
}
