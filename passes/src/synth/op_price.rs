//! Generic ops priced on a CPU ([`Cpu`]): each `arith` op as the LLVM
//! operation it becomes at its type (`dialectgen::cpu_costs::generic`),
//! a vector wider than the CPU's table holds split into equal pieces, as
//! LLVM splits it. What a rewrite that chooses between forms compares.

use super::attr::Attr;
use super::block::{BlockOp, Dataflow};
use super::target::Cpu;
use dialectgen::cpu_costs::generic::{conversion_key, key};
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
    let ops: Vec<&BlockOp> = ops.into_iter().collect();
    let positions: Vec<usize> =
        ops.iter().filter_map(|op| op.results.first().and_then(|r| flow.defining_op(*r))).collect();
    let mut fused: Vec<usize> = Vec::new();
    let mut prices: Vec<Price> = Vec::new();
    for op in &ops {
        if let Some((p, parts)) = extended_product(cpu, flow, op, &positions) {
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
    let ext_op = &flow.ops[ext];
    let conversion = match ext_op.name.as_str() {
        "arith.extui" => "zext",
        "arith.extsi" => "sext",
        _ => return None,
    };
    let from = ext_op.operand_types.first()?.as_ref()?;
    let to = ext_op.result_types.first()?.as_ref()?;
    let lanes: u32 = from.dims.iter().product();
    let loaded = if flow.loaded(*ext_op.operands.first()?) { "_load" } else { "" };
    let form = format!("{conversion}{loaded}_mul");
    let price = split(cpu, lanes, |l| conversion_key(&form, l, from.elem_bits, to.elem_bits))?;
    Some((price, [mul, ext]))
}

/// The op's price: `Some(None)` where it is free, `None` where unknown.
fn price(cpu: Cpu, flow: &Dataflow, op: &BlockOp) -> Option<Option<Price>> {
    let lanes_bits = |t: Option<&Option<super::types::Ty>>| -> Option<(u32, u32)> {
        let t = t?.as_ref()?;
        Some((t.dims.iter().product(), t.elem_bits))
    };
    let name = op.name.as_str();
    if matches!(name, "arith.constant" | "vector.bitcast" | "vector.shape_cast") {
        return Some(None);
    }
    if let Some(conversion) = match name {
        "arith.extui" => Some("zext"),
        "arith.extsi" => Some("sext"),
        "arith.trunci" => Some("trunc"),
        _ => None,
    } {
        let (lanes, from) = lanes_bits(op.operand_types.first())?;
        let (_, to) = lanes_bits(op.result_types.first())?;
        // LLVM folds a load into the extension of what it reads, and a
        // store into the truncation it writes.
        let loaded = conversion != "trunc" && op.operands.first().is_some_and(|v| flow.loaded(*v));
        let stored = conversion == "trunc" && op.results.first().is_some_and(|r| flow.only_stored(*r));
        let form = match (loaded, stored) {
            (true, _) => format!("{conversion}_load"),
            (_, true) => "trunc_store".to_string(),
            _ => conversion.to_string(),
        };
        return split(cpu, lanes, |l| conversion_key(&form, l, from, to)).map(Some);
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

/// A rewrite's choice between the form as it is (`old` cycles) and a new
/// one (`new`) on `cpu`, named `new_form` in remarks: `None` where the
/// model does not price both; `Ok(the remark's tail)` where the new form
/// is cheaper; `Err(why not)` otherwise.
pub fn verdict(cpu: Cpu, old: Option<f64>, new: Option<f64>, new_form: &str) -> Option<Result<String, String>> {
    let (old, new, on) = (old?, new?, cpu.describe());
    Some(if new < old {
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
