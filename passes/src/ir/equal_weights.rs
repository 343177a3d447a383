//! Equal weights factored: a sum of products by constants of zero-extended
//! bytes in lanes wider than 16 bits (`Σ w_k · zext(x_k)`, a 7x7 binomial
//! blur's 49 taps in 32-bit lanes) whose terms share weights is rewritten
//! as `Σ_w w · zext(Σ_{w_k = w} zext(x_k))`, the inner sums in 16-bit lanes.
//!
//! The bytes of a group are added at half the width, so twice as many
//! lanes per register, and each weight is multiplied once: the 7x7 blur's
//! 49 extensions, 45 products and 48 adds in 32-bit lanes become 49
//! extensions and 39 adds in 16-bit lanes, then 10 extensions, 9 products
//! and 9 adds in 32-bit lanes. A chain reads at most
//! [`products::MAX_TERMS`] bytes, so no 16-bit sum of them overflows
//! (64 · 255 < 2^16); the rewrite is proved equal to the chain with Z3
//! before it is made all the same. It is made before synthesis, which
//! then searches the factored form, where it is cheaper: on the target
//! CPU's model where that prices both forms (`cpu=`,
//! `crate::synth::op_price`: each product of an extended byte by a weight
//! that is no shift and add priced as the one unit LLVM selects, an
//! extension and a 16-bit multiply-add), else where it costs fewer
//! instructions in the target's registers. On Ice Lake's model the
//! extensions, on its one shuffle port, bound both forms, and the factored
//! form has ten more (the groups' sums): the chain stays. On Sapphire
//! Rapids' the 512-bit adds and products share that port and one other,
//! and the factored form has fewer of them: it is factored, as on Zen 4's.

use super::build::{self, Builder};
use super::failure::RewriteError;
use super::raw;
use super::read::{self, ReadBlock};
use crate::synth::attr::Attr;
use crate::synth::block::{BlockOp, Dataflow, Window};
use crate::synth::lower::{proved_once, Options};
use crate::synth::op_price;
use crate::synth::products::{self, LinearForm};
use crate::synth::proof::{sums_equal_reading, windows_equal, LeafElements};
use crate::synth::target::Cpu;
use crate::synth::types::Ty;
use melior::ir::operation::OperationLike;
use melior::ir::{OperationRef, Value};
use melior::Context;
use num_bigint::BigInt;
use std::collections::BTreeSet;

/// Z3's budget for one rewrite's proof, in milliseconds.
const PROOF_MS: u32 = 4_000;

/// The width the groups' bytes are added at.
const GROUP_BITS: u32 = 16;

/// Factors the chains under `root` for registers of `register_bits`, with
/// a remark on each chain factored or not proved where `remarks`; how many
/// were rewritten.
pub fn run<'c>(
    context: &'c Context,
    root: OperationRef<'c, 'c>,
    options: &Options,
    remarks: bool,
) -> Result<usize, RewriteError> {
    let (proof_ms, register_bits) = (options.limits.proof_ms, options.limits.target.register_bits());
    let mut rewritten = 0;
    for block in raw::nested_blocks(root) {
        let read = read::block(block);
        let flow = Dataflow::new(&read.ops);
        let mut consumed: BTreeSet<usize> = BTreeSet::new();
        // From the last op back: a chain's last add comes after its other
        // ops, so the first root found holds the whole chain.
        for pos in (0..read.ops.len()).rev() {
            if consumed.contains(&pos) {
                continue;
            }
            let Some(form) = products::linear_form(&flow, pos) else { continue };
            let Some(factored) = Factored::grouped(&form) else { continue };
            consumed.extend(form.ops.iter().copied());
            let what = format!(
                "a sum of {} extended bytes times constant weights ({} distinct)",
                form.terms.len(),
                factored.groups.len()
            );
            let window = flow.close(form.ops.clone(), pos);
            // On the CPU's model where it prices both forms, else by count.
            let verdict = match factored.priced_verdict(options.limits.cpu, &flow, &form, &window) {
                Some(priced) => priced,
                None if factored.fewer_instructions(&form, register_bits) => Ok(format!(
                    " (fewer instructions in {register_bits}-bit registers; not priced on {})",
                    options.limits.cpu.describe()
                )),
                None => Err(format!("no fewer instructions in {register_bits}-bit registers")),
            };
            let verdict = match verdict {
                Ok(v) => v,
                Err(why) => {
                    if remarks {
                        let text = format!("hydride-equal-weights: {what} left unfactored: {why}");
                        raw::emit(&read.handles[pos], true, &text);
                    }
                    continue;
                }
            };
            let proof = proved_once(options, "equal weights", &flow, &window, || {
                if factored.proved(&flow, &form, pos, PROOF_MS.min(proof_ms)) {
                    Ok(())
                } else {
                    Err(String::new())
                }
            });
            if proof.is_ok() {
                if remarks {
                    let text = format!("hydride-equal-weights: {what} factored by weight, each weight's bytes summed in {GROUP_BITS}-bit lanes (proved equal){verdict}");
                    raw::emit(&read.handles[pos], true, &text);
                }
                factored.emit(context, &read, &form, pos)?;
                rewritten += 1;
            } else if remarks {
                let text = format!(
                    "hydride-equal-weights: {what} left unfactored: not proved equal to its factored form within {} ms",
                    PROOF_MS.min(proof_ms)
                );
                raw::emit(&read.handles[pos], true, &text);
            }
        }
    }
    Ok(rewritten)
}

/// A chain's terms grouped by weight, in the order the weights first
/// appear.
struct Factored {
    groups: Vec<(i64, Vec<usize>)>,
    /// The chain's result type and its inputs' type.
    wide: Ty,
    narrow: Ty,
    /// The groups' sums' type.
    group: Ty,
}

impl Factored {
    /// The terms of `form` grouped by weight, where it is a chain the
    /// rewrite takes: bytes in lanes wider than the groups' sums, at most
    /// [`products::MAX_TERMS`] of them.
    fn grouped(form: &LinearForm) -> Option<Factored> {
        if form.input_bits != 8 || form.elem_bits <= GROUP_BITS || form.terms.len() > products::MAX_TERMS {
            return None;
        }
        let mut groups: Vec<(i64, Vec<usize>)> = Vec::new();
        for &(v, w) in &form.terms {
            match groups.iter_mut().find(|(gw, _)| *gw == w) {
                Some((_, members)) => members.push(v),
                None => groups.push((w, vec![v])),
            }
        }
        let lanes = form.lanes;
        Some(Factored {
            groups,
            wide: Ty { dims: vec![lanes], elem_bits: form.elem_bits },
            narrow: Ty { dims: vec![lanes], elem_bits: form.input_bits },
            group: Ty { dims: vec![lanes], elem_bits: GROUP_BITS },
        })
    }

    /// Whether factoring costs fewer instructions than the chain `form` in
    /// registers of `register_bits`: what decides without a CPU's model.
    fn fewer_instructions(&self, form: &LinearForm, register_bits: u32) -> bool {
        let regs = |bits: u32| (form.lanes * bits).div_ceil(register_bits) as usize;
        let (wide_regs, group_regs) = (regs(form.elem_bits), regs(GROUP_BITS));
        let products_of = |weights: &mut dyn Iterator<Item = i64>| weights.filter(|w| *w != 1).count();
        let n = form.terms.len();
        // As it is: an extension, a product (but by 1) and an add per term.
        let chain = wide_regs * (n + products_of(&mut form.terms.iter().map(|t| t.1)) + n - 1);
        // Factored: the extensions and adds of the groups at half the
        // width, then the same per group at the chain's.
        let g = self.groups.len();
        let grouped =
            group_regs * (n + n - g) + wide_regs * (g + products_of(&mut self.groups.iter().map(|(w, _)| *w)) + g - 1);
        grouped < chain
    }

    /// Whether the factored form is cheaper than the chain `form` (its
    /// ops `window`) on `cpu`'s model: the text for the remark, or why
    /// not; `None` where the model does not price both (no table, or a
    /// type it has no entry for).
    fn priced_verdict(
        &self,
        cpu: Cpu,
        flow: &Dataflow,
        form: &LinearForm,
        window: &Window,
    ) -> Option<Result<String, String>> {
        let chain = op_price::cycles(cpu, flow, window.ops.iter().map(|&p| &flow.ops[p]));
        let (factored_ops, _) = self.block_ops(flow, form, true);
        op_price::verdict(cpu, chain, op_price::cycles_of_new_form(cpu, flow, &factored_ops), "factored")
    }

    /// The factored sum as ops of the synthesizer's dataflow over the
    /// chain's inputs (the same value numbers), the last op its result;
    /// and its leaves in the order the ops read them. With `at_group_width`
    /// the groups are summed in 16-bit lanes as the rewrite has them,
    /// otherwise in the chain's lanes.
    fn block_ops(&self, flow: &Dataflow, form: &LinearForm, at_group_width: bool) -> (Vec<BlockOp>, Vec<usize>) {
        let first = flow.ops.iter().flat_map(|o| o.results.iter().chain(&o.operands)).max().map_or(0, |m| m + 1);
        let mut fresh = Fresh(first);
        let mut ops: Vec<BlockOp> = Vec::new();
        let mut leaves: Vec<usize> = Vec::new();
        let mut sum: Option<usize> = None;
        for (w, members) in &self.groups {
            leaves.extend(members);
            let group_sum = self.group_sum(members, at_group_width, &mut fresh, &mut ops);
            let product = if *w == 1 {
                group_sum
            } else {
                let (c, p) = (fresh.next(), fresh.next());
                let value = Attr::Elements(vec![BigInt::from(*w); form.lanes as usize]);
                ops.push(op("arith.constant", &[], (c, &self.wide), vec![("value", value)]));
                ops.push(op("arith.muli", &[(group_sum, &self.wide), (c, &self.wide)], (p, &self.wide), vec![]));
                p
            };
            sum = Some(match sum {
                None => product,
                Some(s) => {
                    let t = fresh.next();
                    ops.push(op("arith.addi", &[(s, &self.wide), (product, &self.wide)], (t, &self.wide), vec![]));
                    t
                }
            });
        }
        for (i, o) in ops.iter_mut().enumerate() {
            o.index = i;
        }
        (ops, leaves)
    }

    /// Appends to `ops` the sum of the extended `members` in the chain's
    /// lanes: added in 16-bit lanes and extended (`at_group_width`), or
    /// extended and added. Its value.
    fn group_sum(&self, members: &[usize], at_group_width: bool, fresh: &mut Fresh, ops: &mut Vec<BlockOp>) -> usize {
        let lanes = if at_group_width && members.len() > 1 { &self.group } else { &self.wide };
        let mut sum: Option<usize> = None;
        for &x in members {
            let z = fresh.next();
            ops.push(op("arith.extui", &[(x, &self.narrow)], (z, lanes), vec![]));
            sum = Some(match sum {
                None => z,
                Some(s) => {
                    let t = fresh.next();
                    ops.push(op("arith.addi", &[(s, lanes), (z, lanes)], (t, lanes), vec![]));
                    t
                }
            });
        }
        let sum = sum.unwrap_or_default();
        if lanes == &self.wide {
            return sum;
        }
        let e = fresh.next();
        ops.push(op("arith.extui", &[(sum, &self.group)], (e, &self.wide), vec![]));
        e
    }

    /// Whether the rewrite computes what the chain `form` ending at `root`
    /// computes, in two parts, by Z3 within `ms` each:
    /// - the chain equals the groups' products summed, the groups summed in
    ///   the chain's lanes (a ring identity: Z3's simplifier as a sum of
    ///   monomials, where a bit-blasted query of 49 terms runs out of time);
    /// - a group's sum in 16-bit lanes, extended, equals its sum in the
    ///   chain's lanes: one query per group size, each group of that size
    ///   being the same window over other inputs.
    ///
    /// The rewrite is the first with each group's sum replaced by the
    /// second's equal.
    fn proved(&self, flow: &Dataflow, form: &LinearForm, root: usize, ms: u32) -> bool {
        let window = flow.close(form.ops.clone(), root);
        let (ops, leaves) = self.block_ops(flow, form, false);
        let new_flow = Dataflow::new(&ops);
        let new_window = new_flow.close((0..ops.len()).collect(), ops.len() - 1);
        let source = |v: &usize| leaves.iter().position(|l| l == v).map(|source| LeafElements { source, first: 0 });
        let (Some(own), Some(theirs)) = (
            window.leaves.iter().map(source).collect::<Option<Vec<_>>>(),
            new_window.leaves.iter().map(source).collect::<Option<Vec<_>>>(),
        ) else {
            return false;
        };
        if sums_equal_reading((flow, &window, &own), (&new_flow, &new_window, &theirs), ms).is_err() {
            return false;
        }
        let sizes: BTreeSet<usize> = self.groups.iter().map(|(_, m)| m.len()).filter(|m| *m > 1).collect();
        sizes.into_iter().all(|m| {
            let inputs: Vec<usize> = (0..m).collect();
            let sum_at = |narrow: bool| {
                let mut ops = Vec::new();
                self.group_sum(&inputs, narrow, &mut Fresh(m), &mut ops);
                for (i, o) in ops.iter_mut().enumerate() {
                    o.index = i;
                }
                ops
            };
            let (narrow, wide) = (sum_at(true), sum_at(false));
            let (nf, wf) = (Dataflow::new(&narrow), Dataflow::new(&wide));
            let nw = nf.close((0..narrow.len()).collect(), narrow.len() - 1);
            let ww = wf.close((0..wide.len()).collect(), wide.len() - 1);
            windows_equal((&nf, &nw), (&wf, &ww), ms).is_ok()
        })
    }

    /// The factored sum before the chain's last op, which it replaces; the
    /// chain's ops nothing reads any more erased (its constants stay for
    /// the canonicalizer).
    fn emit<'c>(
        &self,
        context: &'c Context,
        read: &ReadBlock<'c, '_>,
        form: &LinearForm,
        root: usize,
    ) -> Result<(), RewriteError> {
        let anchor = read.handles[root];
        let b = Builder::new(context, anchor);
        let (group, wide) = (build::mlir_type(context, &self.group), build::mlir_type(context, &self.wide));
        let mut sum: Option<Value> = None;
        for (w, members) in &self.groups {
            // As `group_sum` has it: a lone byte extended to the chain's lanes at once.
            let lanes = if members.len() > 1 { group } else { wide };
            let mut group_sum: Option<Value> = None;
            for &x in members {
                let z = b.create("arith.extui", &[read.values[x]], &[], lanes)?;
                group_sum = Some(match group_sum {
                    None => z,
                    Some(s) => b.create("arith.addi", &[s, z], &[], lanes)?,
                });
            }
            let Some(group_sum) = group_sum else { continue };
            let e = if members.len() > 1 { b.create("arith.extui", &[group_sum], &[], wide)? } else { group_sum };
            let product = if *w == 1 {
                e
            } else {
                let text = format!("dense<{w}> : {}", self.wide);
                let attr = build::parsed_attribute(context, &text)?;
                let c = b.create("arith.constant", &[], &[("value", attr)], wide)?;
                b.create("arith.muli", &[e, c], &[], wide)?
            };
            sum = Some(match sum {
                None => product,
                Some(s) => b.create("arith.addi", &[s, product], &[], wide)?,
            });
        }
        let sum = sum.ok_or(RewriteError::Invariant("a chain without terms"))?;
        let result = anchor.result(0)?;
        raw::replace_all_uses(result.into(), sum);
        // Users before what they read: the chain's ops in reverse block order.
        for &p in form.ops.iter().rev() {
            let handle = read.handles[p];
            if read.ops[p].name == "arith.constant" {
                continue;
            }
            let unused = (0..handle.result_count()).all(|i| handle.result(i).is_ok_and(|r| !raw::has_uses(r.into())));
            if unused {
                raw::erase(handle);
            }
        }
        Ok(())
    }
}

/// Value numbers from the first no op uses, one per call.
struct Fresh(usize);

impl Fresh {
    fn next(&mut self) -> usize {
        self.0 += 1;
        self.0 - 1
    }
}

fn op(name: &str, operands: &[(usize, &Ty)], result: (usize, &Ty), attributes: Vec<(&str, Attr)>) -> BlockOp {
    BlockOp {
        index: 0,
        name: name.to_string(),
        operands: operands.iter().map(|(v, _)| *v).collect(),
        operand_types: operands.iter().map(|(_, t)| Some((*t).clone())).collect(),
        results: vec![result.0],
        result_types: vec![Some(result.1.clone())],
        attributes: attributes.into_iter().map(|(n, a)| (n.to_string(), a)).collect(),
        has_regions: false,
        unmodelled_vectors: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `5·a + 5·b + 5·c + 7·d` over bytes in 32-bit lanes, its ops and root.
    fn chain() -> (Vec<BlockOp>, usize) {
        let (bytes, wide) = (Ty { dims: vec![4], elem_bits: 8 }, Ty { dims: vec![4], elem_bits: 32 });
        let mut ops = Vec::new();
        for x in 0..4 {
            ops.push(op("arith.extui", &[(x, &bytes)], (4 + x, &wide), vec![]));
        }
        for (c, w) in [(8, 5), (9, 7)] {
            ops.push(op("arith.constant", &[], (c, &wide), vec![("value", Attr::Elements(vec![BigInt::from(w); 4]))]));
        }
        for (x, c) in [(4, 8), (5, 8), (6, 8), (7, 9)] {
            ops.push(op("arith.muli", &[(x, &wide), (c, &wide)], (x + 6, &wide), vec![]));
        }
        ops.push(op("arith.addi", &[(10, &wide), (11, &wide)], (14, &wide), vec![]));
        ops.push(op("arith.addi", &[(14, &wide), (12, &wide)], (15, &wide), vec![]));
        ops.push(op("arith.addi", &[(15, &wide), (13, &wide)], (16, &wide), vec![]));
        for (i, o) in ops.iter_mut().enumerate() {
            o.index = i;
        }
        let root = ops.len() - 1;
        (ops, root)
    }

    #[test]
    fn factors_where_it_pays_and_proves_the_groups_sums_fit() {
        let (ops, root) = chain();
        let flow = Dataflow::new(&ops);
        let form = products::linear_form(&flow, root).expect("a sum of products");
        // 128-bit registers: the 32-bit lanes fill one, as the 16-bit sums do; nothing saved.
        let mut factored = Factored::grouped(&form).expect("bytes in 32-bit lanes");
        assert!(!factored.fewer_instructions(&form, 128));
        assert!(factored.fewer_instructions(&form, 64), "factored where 32-bit lanes take two registers");
        assert_eq!(factored.groups, vec![(5, vec![0, 1, 2]), (7, vec![3])]);
        assert!(factored.proved(&flow, &form, root, 4_000));
        // Three bytes add up to 765: 10-bit sums hold them, 9-bit sums do not, and the proof sees it.
        factored.group.elem_bits = 10;
        assert!(factored.proved(&flow, &form, root, 4_000));
        factored.group.elem_bits = 9;
        assert!(!factored.proved(&flow, &form, root, 4_000));
    }
}
