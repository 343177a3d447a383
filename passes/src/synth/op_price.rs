//! Generic ops priced on a CPU ([`Cpu`]): each `arith` op as the LLVM
//! operation it becomes at its type (`dialectgen::cpu_costs::generic`),
//! a vector wider than the CPU's table holds split into equal pieces, as
//! LLVM splits it. What a rewrite that chooses between forms compares.

use super::attr::Attr;
use super::block::{BlockOp, Dataflow};
use super::target::Cpu;
use dialectgen::cpu_costs::generic::{self, conversion_key, key};
use dialectgen::cpu_costs::Price;

/// Cycles of `new_ops`, a new form over values of `outer` (read by its
/// ops, computed by none of them), on `cpu`: as [`cycles`], with the ops
/// of `outer` that define those values seen first, so that a load is
/// folded into what reads it as in `outer`.
pub fn cycles_of_new_form(cpu: Cpu, outer: &Dataflow, new_ops: &[BlockOp]) -> Option<f64> {
    let defined: std::collections::HashSet<usize> = new_ops.iter().flat_map(|o| o.results.iter().copied()).collect();
    let mut read: Vec<usize> =
        new_ops.iter().flat_map(|o| o.operands.iter().copied()).filter(|v| !defined.contains(v)).collect();
    read.sort_unstable();
    read.dedup();
    let mut ops: Vec<BlockOp> =
        read.iter().filter_map(|&v| outer.defining_op(v)).map(|d| outer.ops[d].clone()).collect();
    ops.dedup_by_key(|o| o.results.clone());
    let first = ops.len();
    ops.extend(new_ops.iter().cloned());
    for (i, o) in ops.iter_mut().enumerate() {
        o.index = i;
    }
    let flow = Dataflow::new(&ops);
    cycles(cpu, &flow, ops[first..].iter())
}

/// Cycles per run of `ops` together on `cpu` (constants and bit casts
/// free), or `None` if the CPU has no table or an op has no price. A
/// product of an extended vector by a constant (see [`extended_product`])
/// is priced as the one unit LLVM selects it as.
pub fn cycles<'a>(cpu: Cpu, flow: &Dataflow, ops: impl IntoIterator<Item = &'a BlockOp>) -> Option<f64> {
    cycles_with(cpu, flow, ops, Vec::new())
}

/// As [`cycles`], with `more` (priced apart: spills, say) run beside the ops.
pub fn cycles_with<'a>(
    cpu: Cpu,
    flow: &Dataflow,
    ops: impl IntoIterator<Item = &'a BlockOp>,
    more: Vec<Price>,
) -> Option<f64> {
    let ops: Vec<&BlockOp> = ops.into_iter().collect();
    let positions: Vec<usize> =
        ops.iter().filter_map(|op| op.results.first().and_then(|r| flow.defining_op(*r))).collect();
    let mut fused: Vec<usize> = Vec::new();
    let mut prices: Vec<Price> = more;
    for op in &ops {
        if let Some((p, parts)) = extended_product(cpu, flow, op, &positions) {
            prices.push(p);
            fused.extend(parts);
        }
        if let Some((p, parts)) = dot_product(cpu, flow, op, &positions) {
            prices.push(p);
            fused.extend(parts);
        }
    }
    for op in ops {
        let pos = op.results.first().and_then(|r| flow.defining_op(*r));
        if pos.is_some_and(|p| fused.contains(&p)) {
            continue;
        }
        if let Some(p) = price(cpu, flow, op)? {
            prices.push(p);
        }
    }
    cpu.throughput(&prices)
}

/// `ext(x) * c` with the product `op` and the extension among `positions`,
/// the extension read only by the product, `c` a splat constant that is
/// no shift and add ([`by_shifts`]): its price
/// as one unit (`zext_mul v16i8 v16i32`, the load folded in where `x` is
/// loaded), with the positions of the product and the extension. LLVM
/// selects the two knowing the wide lanes' high bits are the extension's
/// (`vpmaddwd` where the product fits 16-bit lanes, `umull`).
fn extended_product(cpu: Cpu, flow: &Dataflow, op: &BlockOp, positions: &[usize]) -> Option<(Price, [usize; 2])> {
    if op.name != "arith.muli" {
        return None;
    }
    let mul = flow.defining_op(*op.results.first()?)?;
    let (&a, &b) = (op.operands.first()?, op.operands.get(1)?);
    let (extended, weight) = match (splat(flow, b), splat(flow, a)) {
        (Some(w), _) => (a, w),
        (None, Some(w)) => (b, w),
        (None, None) => return None,
    };
    if flow.readers(extended) != [mul] || by_shifts(weight) {
        return None;
    }
    let ext = flow.defining_op(extended).filter(|e| positions.contains(e))?;
    let (conversion, (lanes, from), (_, to)) = extension(&flow.ops[ext])?;
    let loaded = if flow.loaded(*flow.ops[ext].operands.first()?) { "_load" } else { "" };
    let form = format!("{conversion}{loaded}_mul");
    let price = split(cpu, lanes, |l| conversion_key(&form, l, from, to))?;
    Some((price, [mul, ext]))
}

/// `op`'s LLVM extension (`zext`, `sext`) if it is one, with the lanes and
/// element bits it extends from and to.
fn extension(op: &BlockOp) -> Option<(&'static str, (u32, u32), (u32, u32))> {
    let kind = match op.name.as_str() {
        "arith.extui" => "zext",
        "arith.extsi" => "sext",
        _ => return None,
    };
    Some((kind, lanes_bits(op.operand_types.first())?, lanes_bits(op.result_types.first())?))
}

/// An extension or truncation: `None` where `op` is neither. LLVM folds a
/// load into the extension of what it reads, and a store into the
/// truncation it writes.
fn conversion(cpu: Cpu, flow: &Dataflow, op: &BlockOp) -> Option<Option<Option<Price>>> {
    let conversion = match op.name.as_str() {
        "arith.extui" => "zext",
        "arith.extsi" => "sext",
        "arith.trunci" => "trunc",
        _ => return None,
    };
    let Some(((lanes, from), (_, to))) = lanes_bits(op.operand_types.first()).zip(lanes_bits(op.result_types.first()))
    else {
        return Some(None);
    };
    let loaded = conversion != "trunc" && op.operands.first().is_some_and(|v| flow.loaded(*v));
    let stored = conversion == "trunc" && op.results.first().is_some_and(|r| flow.only_stored(*r));
    let form = match (loaded, stored) {
        (true, _) => format!("{conversion}_load"),
        (_, true) => "trunc_store".to_string(),
        _ => conversion.to_string(),
    };
    Some(split(cpu, lanes, |l| conversion_key(&form, l, from, to)).map(Some))
}

/// A `vector.shuffle`, priced by its mask's pattern ([`shuffle`]).
fn shuffle_op(cpu: Cpu, op: &BlockOp) -> Option<Price> {
    let (lanes, bits) = lanes_bits(op.operand_types.first())?;
    let mask: Vec<u32> = match op.attribute("mask")? {
        Attr::Ints(m) => m.iter().map(|&k| u32::try_from(k).ok()).collect::<Option<_>>()?,
        _ => return None,
    };
    shuffle(cpu, op.operands.len(), lanes, bits, &mask)
}

/// The lanes and element bits of a type.
fn lanes_bits(t: Option<&Option<super::types::Ty>>) -> Option<(u32, u32)> {
    let t = t?.as_ref()?;
    Some((t.dims.iter().product(), t.elem_bits))
}

/// The op's price: `Some(None)` where it is free, `None` where unknown.
fn price(cpu: Cpu, flow: &Dataflow, op: &BlockOp) -> Option<Option<Price>> {
    let name = op.name.as_str();
    if matches!(name, "arith.constant" | "vector.bitcast" | "vector.shape_cast") {
        return Some(None);
    }
    if let Some(p) = conversion(cpu, flow, op) {
        return p;
    }
    if let Some(p) = memory_access(cpu, flow, op) {
        return p;
    }
    if name == "vector.shuffle" {
        return shuffle_op(cpu, op).map(Some);
    }
    if name == "vector.multi_reduction" {
        return multi_reduction(cpu, op).map(Some);
    }
    if name == "vector.deinterleave" {
        // Both halves at once; LLVM may fold the load it reads (`ld2`).
        let (lanes, bits) = lanes_bits(op.operand_types.first())?;
        let loaded = op.operands.first().is_some_and(|v| flow.loaded(*v));
        let form = if loaded { "deinterleave_load" } else { "deinterleave" };
        return split(cpu, lanes, |l| key(form, l, bits)).map(Some);
    }
    let llvm = match name {
        "arith.addi" => "add",
        "arith.subi" => "sub",
        "arith.muli" => "mul",
        "arith.andi" => "and",
        "arith.ori" => "or",
        "arith.xori" => "xor",
        "arith.shli" => "shl",
        "arith.shrui" => "lshr",
        "arith.shrsi" => "ashr",
        "arith.maxsi" => "smax",
        "arith.minsi" => "smin",
        "arith.maxui" => "umax",
        "arith.minui" => "umin",
        "arith.select" => "select",
        "arith.divui" => "udiv",
        "arith.divsi" => "sdiv",
        "arith.remui" => "urem",
        "arith.remsi" => "srem",
        "arith.cmpi" => {
            let predicate = op.attribute("predicate").and_then(Attr::int).and_then(|p| u32::try_from(p).ok())?;
            // eq ne | slt sle sgt sge | ult ule ugt uge: each costs as its
            // family's one priced predicate (operands swapped, or negated).
            let family = match predicate {
                0 | 1 => "icmp_eq",
                2..=5 => "icmp_sgt",
                _ => "icmp_ugt",
            };
            let (lanes, bits) = lanes_bits(op.operand_types.first())?;
            return split(cpu, lanes, |l| key(family, l, bits)).map(Some);
        }
        _ => return None,
    };
    let (lanes, bits) = lanes_bits(op.result_types.first())?;
    let by_constant = dialectgen::cpu_costs::generic::BY_CONSTANT.contains(&llvm)
        && op.operands.get(1).is_some_and(|v| splat(flow, *v).is_some());
    let op_key = if by_constant { format!("{llvm}_const") } else { llvm.to_string() };
    split(cpu, lanes, |l| key(&op_key, l, bits)).map(Some)
}

/// A vector load or store alone (`load v16i8`, `store v16i8`), priced
/// with its memory access: `None` where `op` is neither; free where what
/// it loads is only extended or deinterleaved (LLVM folds the load into
/// those, whose price holds it), or what it stores is a truncation's
/// (likewise).
fn memory_access(cpu: Cpu, flow: &Dataflow, op: &BlockOp) -> Option<Option<Option<Price>>> {
    let folds = |p: &usize| matches!(flow.ops[*p].name.as_str(), "arith.extui" | "arith.extsi" | "vector.deinterleave");
    let (access, ty) = match op.name.as_str() {
        "vector.load" => {
            let r = *op.results.first()?;
            let readers = flow.readers(r);
            if !readers.is_empty() && readers.iter().all(folds) {
                return Some(Some(None));
            }
            ("load", op.result_types.first()?.as_ref())
        }
        "vector.store" => {
            let v = *op.operands.first()?;
            if flow.defining_op(v).is_some_and(|d| flow.ops[d].name == "arith.trunci") {
                return Some(Some(None));
            }
            ("store", op.operand_types.first()?.as_ref())
        }
        _ => return None,
    };
    let Some(t) = ty else { return Some(None) };
    Some(split(cpu, t.dims.iter().product(), |l| key(access, l, t.elem_bits)).map(Some))
}

/// `registers` registers of `register_bits` spilled and reloaded once
/// each: a store and a load of each (of `elem_bits` elements).
pub fn spills(cpu: Cpu, registers: u32, register_bits: u32, elem_bits: u32) -> Option<Vec<Price>> {
    let lanes = register_bits / elem_bits;
    let store = cpu.generic(&key("store", lanes, elem_bits))?;
    let load = cpu.generic(&key("load", lanes, elem_bits))?;
    Some((0..registers).flat_map(|_| [store.clone(), load.clone()]).collect())
}

/// A shuffle of `operands` vectors of `lanes` x `i<bits>` by `mask`, if
/// its pattern is priced (`dialectgen::cpu_costs::shuffles`).
pub fn shuffle(cpu: Cpu, operands: usize, lanes: u32, bits: u32, mask: &[u32]) -> Option<Price> {
    let pattern = dialectgen::cpu_costs::shuffles::pattern_of(operands, lanes, bits, mask)?;
    cpu.generic(&generic::shuffle_key(pattern, lanes, bits)).cloned()
}

/// `vector.multi_reduction <add>` over the inner dimension of groups of 2
/// or 4: the groups' strided sums (a dot product of extended lanes is
/// priced as one unit, [`dot_product`]).
fn multi_reduction(cpu: Cpu, op: &BlockOp) -> Option<Price> {
    if op.attribute("kind").and_then(Attr::kind) != Some("add") {
        return None;
    }
    let grouped = op.operand_types.first()?.as_ref()?;
    let [_, k] = grouped.dims[..] else { return None };
    let lanes: u32 = grouped.dims.iter().product();
    cpu.generic(&key(&format!("sum_groups{k}"), lanes, grouped.elem_bits)).cloned()
}

/// `op`, a `vector.multi_reduction <add>` of `ext(a) * ext(b)` reshaped
/// into groups (each part read by the next alone, all among
/// `positions`): its price as one unit (`dot_zext_sext v64i8 v16i32`,
/// which LLVM may select as one multiply-add, `vpmaddwd`), with the
/// positions of the parts it holds.
fn dot_product(cpu: Cpu, flow: &Dataflow, op: &BlockOp, positions: &[usize]) -> Option<(Price, Vec<usize>)> {
    if op.name != "vector.multi_reduction" || op.attribute("kind").and_then(Attr::kind) != Some("add") {
        return None;
    }
    let groups: u32 = op.result_types.first()?.as_ref()?.dims.iter().product();
    let only = |v: usize| {
        let d = flow.defining_op(v)?;
        (flow.readers(v).len() == 1 && positions.contains(&d)).then_some(d)
    };
    let reshape = only(*op.operands.first()?)?;
    let product = only(*flow.ops[reshape].operands.first()?)?;
    if flow.ops[reshape].name != "vector.shape_cast" || flow.ops[product].name != "arith.muli" {
        return None;
    }
    let extended = |v: usize| {
        let p = only(v)?;
        Some((p, extension(&flow.ops[p])?))
    };
    let mut x = extended(*flow.ops[product].operands.first()?)?;
    let mut y = extended(*flow.ops[product].operands.get(1)?)?;
    if x.1 .0 == "sext" && y.1 .0 == "zext" {
        std::mem::swap(&mut x, &mut y);
    }
    let ((pa, (ea, from, (_, to))), (pb, (eb, ..))) = (x, y);
    let price = cpu.generic(&generic::dot_key((ea, eb), from, (groups, to)))?;
    let reduction = flow.defining_op(*op.results.first()?)?;
    Some((price.clone(), vec![reduction, reshape, product, pa, pb]))
}

/// A rewrite's choice between the form as it is (`old` cycles) and a new
/// one (`new`) on `cpu`, named `new_form` in remarks: `None` where the
/// model does not price both; `Ok(the remark's tail)` where the new form
/// is cheaper; `Err(why not)` otherwise.
pub fn verdict(cpu: Cpu, old: Option<f64>, new: Option<f64>, new_form: &str) -> Option<Result<String, String>> {
    judged(cpu, (old, new), new_form, |new, old| new < old)
}

/// As [`verdict`], taking the new form where it is no dearer: for a form
/// whose gain the throughput model cannot see (fewer spills, off the
/// busiest ports).
pub fn verdict_no_dearer(
    cpu: Cpu,
    old: Option<f64>,
    new: Option<f64>,
    new_form: &str,
) -> Option<Result<String, String>> {
    judged(cpu, (old, new), new_form, |new, old| new <= old)
}

fn judged(
    cpu: Cpu,
    (old, new): (Option<f64>, Option<f64>),
    new_form: &str,
    takes: impl Fn(f64, f64) -> bool,
) -> Option<Result<String, String>> {
    let (old, new, on) = (old?, new?, cpu.describe());
    Some(if takes(new, old) {
        Ok(format!(" ({new:.2} cycles {new_form}, {old:.2} as it is, on {on})"))
    } else {
        Err(format!("{new:.2} cycles {new_form}, {old:.2} cycles as it is, on {on}"))
    })
}

/// The price of `lanes` lanes: the table's entry, or of half as many twice, …
fn split(cpu: Cpu, lanes: u32, key_of: impl Fn(u32) -> String) -> Option<Price> {
    let mut pieces = 1;
    while pieces <= lanes {
        if lanes % pieces == 0 {
            if let Some(p) = cpu.generic(&key_of(lanes / pieces)) {
                return Some(p.times(pieces));
            }
        }
        pieces *= 2;
    }
    None
}

/// Whether a product by `weight` is one LLVM computes by a shift (and
/// an add or a subtraction): `±2^n` or `±(2^n ± 1)`. Priced apart, as
/// `mul_const` (priced at 3) has it.
fn by_shifts(weight: &num_bigint::BigInt) -> bool {
    // A negative weight is the same shifts and a negation.
    let Ok(c) = u64::try_from(weight.magnitude().clone()) else { return false };
    c.is_power_of_two() || (c + 1).is_power_of_two() || c.checked_sub(1).is_some_and(u64::is_power_of_two)
}

/// The element of `value`, a constant with every element the same.
fn splat<'f>(flow: &'f Dataflow, value: usize) -> Option<&'f num_bigint::BigInt> {
    match flow.constant(value).and_then(|c| c.attribute("value")) {
        Some(Attr::Elements(xs)) => xs.first().filter(|first| xs.iter().all(|x| x == *first)),
        Some(Attr::Int(x)) => Some(x),
        _ => None,
    }
}
