//! A 4-way u8 x s8 dot product into i32 lanes with an accumulator
//! (`vector.multi_reduction <add>` over `arith.muli` of an `arith.extui` and
//! an `arith.extsi` of i8 vectors, grouped by four), on a target without an
//! instruction for it, where the CPU's model prices the new form cheaper
//! (the ISA's tuning, `Tuning::even_odd_identities`, decides where the
//! model prices neither), rewritten as the proved identity `dot4_acc_u8s8xN_even_odd` of the
//! offline rules (`crate::synth::idioms`): two 2-way dot products of
//! 16-bit lanes holding the even and the odd bytes, extended in place by a
//! mask and shifts. These stay `arith` ops (LLVM's `vpand`, `vpsllw`,
//! `vpsrlw`, `vpsraw`);
//! the 2-way dot products are what the offline rules give `vpmaddwd` to.
//! Applied only at the widths the identity was proved for, where the
//! target has no rule for the whole. Wider than the registers, the halves
//! are split into pieces or left to LLVM, which lowers a 2-way dot product
//! of extended i16 lanes to `vpmaddwd` itself.

use super::build::{self, Builder};
use super::failure::RewriteError;
use super::raw;
use super::read;
use crate::synth::grammar::Grammar;
use crate::synth::op_price;
use crate::synth::target::{Cpu, Target};
use crate::synth::types::Ty;
use melior::ir::attribute::DenseI64ArrayAttribute;
use melior::ir::operation::{OperationLike, OperationResult};
use melior::ir::{Attribute, OperationRef, Value, ValueLike};
use melior::Context;

pub fn run<'c>(
    context: &'c Context,
    root: OperationRef<'c, 'c>,
    grammar: &Grammar,
    (target, cpu): (Target, Cpu),
) -> Result<(), RewriteError> {
    let Some(set) = crate::synth::rules::RuleSet::embedded(grammar) else { return Ok(()) };
    let reductions: Vec<OperationRef> = raw::nested_ops(root)
        .into_iter()
        .filter(|op| op.name().as_string_ref().as_str() == Ok("vector.multi_reduction"))
        .collect();
    for op in reductions {
        let Some((a, b, acc, out)) = dot4(op) else { continue };
        let proved = set.equalities.iter().any(|e| e.name == format!("dot4_acc_u8s8x{out}_even_odd"));
        // Where an instruction computes it (vpdpbusd), the search finds it.
        let whole = format!("dot4_acc_u8s8x{out}");
        let direct = crate::synth::lower::usable_rules(grammar, target).iter().any(|r| r.idiom == whole);
        let cheaper = match priced(cpu, out) {
            Some(verdict) => verdict.is_ok(),
            None => target.isa().tuning().even_odd_identities,
        };
        if proved && !direct && cheaper {
            rewrite(context, op, a, b, acc, out)?;
        }
    }
    Ok(())
}

/// The two forms of a dot product into `out` lanes on `cpu`
/// ([`op_price::verdict`]): the bytes' dot product as LLVM computes it
/// (`dot_zext_sext`), against the mask and shifts of 16-bit lanes and the
/// two dot products of those (`dot_sext_sext`, a multiply-add of 16-bit
/// lanes, `vpmaddwd`). `None` where the model prices neither.
fn priced(cpu: Cpu, out: u32) -> Option<Result<String, String>> {
    use dialectgen::cpu_costs::generic::{dot_key, key};
    let price = |k: String| cpu.generic(&k).cloned();
    let bytes = price(dot_key(("zext", "sext"), (4 * out, 8), (out, 32)));
    let halves = || -> Option<Vec<_>> {
        let h = 2 * out;
        let mut p = vec![price(key("and_const", h, 16))?, price(key("lshr_const", h, 16))?];
        p.extend([price(key("shl_const", h, 16))?, price(key("ashr_const", h, 16))?, price(key("ashr_const", h, 16))?]);
        let dot = price(dot_key(("sext", "sext"), (h, 16), (out, 32)))?;
        p.extend([dot.clone(), dot]);
        Some(p)
    };
    let old = bytes.and_then(|b| cpu.throughput([&b]));
    let new = halves().and_then(|p| cpu.throughput(&p));
    op_price::verdict(cpu, old, new, "as even and odd 16-bit lanes")
}

/// The unsigned bytes, the signed bytes, the accumulator and the lane count
/// of a 4-way u8 x s8 dot product into i32 lanes.
fn dot4<'c>(op: OperationRef<'c, 'c>) -> Option<(Value<'c, 'c>, Value<'c, 'c>, Value<'c, 'c>, u32)> {
    let kind = op.attribute("kind").ok().map(read::attr)?;
    let dims = op.attribute("reduction_dims").ok().map(read::attr)?;
    if kind.kind() != Some("add") || dims.ints() != Some(&[1][..]) || op.operand_count() != 2 {
        return None;
    }
    let grouped = op.operand(0).ok()?;
    let acc = op.operand(1).ok()?;
    let gty = read::ty(grouped.r#type())?;
    let aty = read::ty(acc.r#type())?;
    if gty.dims.len() != 2 || gty.dims[1] != 4 || gty.elem_bits != 32 || aty.dims != [gty.dims[0]] {
        return None;
    }
    let reshape = OperationResult::try_from(grouped).ok()?.owner();
    if reshape.name().as_string_ref().as_str() != Ok("vector.shape_cast") {
        return None;
    }
    let product = OperationResult::try_from(reshape.operand(0).ok()?).ok()?.owner();
    if product.name().as_string_ref().as_str() != Ok("arith.muli") {
        return None;
    }
    let (x, xk) = super::split_contract::extension(product.operand(0).ok()?)?;
    let (y, yk) = super::split_contract::extension(product.operand(1).ok()?)?;
    let bytes = |v: Value| read::ty(v.r#type()).is_some_and(|t| t.elem_bits == 8 && t.dims == [4 * gty.dims[0]]);
    if !bytes(x) || !bytes(y) {
        return None;
    }
    match (xk.as_str(), yk.as_str()) {
        ("arith.extui", "arith.extsi") => Some((x, y, acc, gty.dims[0])),
        ("arith.extsi", "arith.extui") => Some((y, x, acc, gty.dims[0])),
        _ => None,
    }
}

fn rewrite<'c>(
    context: &'c Context,
    op: OperationRef<'c, 'c>,
    a: Value<'c, 'c>,
    b: Value<'c, 'c>,
    acc: Value<'c, 'c>,
    out: u32,
) -> Result<(), RewriteError> {
    let bld = Builder::new(context, op);
    let t16 = Ty { dims: vec![2 * out], elem_bits: 16 };
    let t32 = Ty { dims: vec![2 * out], elem_bits: 32 };
    let t2 = Ty { dims: vec![out, 2], elem_bits: 32 };
    let (m16, m32, m2) =
        (build::mlir_type(context, &t16), build::mlir_type(context, &t32), build::mlir_type(context, &t2));
    let eight = build::parsed_attribute(context, &format!("dense<8> : {t16}"))?;
    let k = bld.create("arith.constant", &[], &[("value", eight)], m16)?;
    let a16 = bld.create("vector.bitcast", &[a], &[], m16)?;
    let b16 = bld.create("vector.bitcast", &[b], &[], m16)?;
    let low_byte = build::parsed_attribute(context, &format!("dense<255> : {t16}"))?;
    let mask = bld.create("arith.constant", &[], &[("value", low_byte)], m16)?;
    let a_even = bld.create("arith.andi", &[a16, mask], &[], m16)?;
    let a_odd = bld.create("arith.shrui", &[a16, k], &[], m16)?;
    let shifted_b = bld.create("arith.shli", &[b16, k], &[], m16)?;
    let b_even = bld.create("arith.shrsi", &[shifted_b, k], &[], m16)?;
    let b_odd = bld.create("arith.shrsi", &[b16, k], &[], m16)?;
    let kind = op.attribute("kind")?;
    let dims: Attribute = DenseI64ArrayAttribute::new(context, &[1]).into();
    let dot = |x: Value<'c, 'c>, y: Value<'c, 'c>, into: Value<'c, 'c>| -> Result<Value<'c, 'c>, RewriteError> {
        let xe = bld.create("arith.extsi", &[x], &[], m32)?;
        let ye = bld.create("arith.extsi", &[y], &[], m32)?;
        let p = bld.create("arith.muli", &[xe, ye], &[], m32)?;
        let g = bld.create("vector.shape_cast", &[p], &[], m2)?;
        let reduction = [("kind", kind), ("reduction_dims", dims)];
        Ok(bld.create("vector.multi_reduction", &[g, into], &reduction, acc.r#type())?)
    };
    let even = dot(a_even, b_even, acc)?;
    let sum = dot(a_odd, b_odd, even)?;
    let old: Value = op.result(0)?.into();
    let grouped = op.operand(0)?;
    raw::replace_all_uses(old, sum);
    raw::erase(op);
    // The reshape, product and extensions the dot product no longer reads.
    let kinds = ["arith.extsi", "arith.extui", "vector.shape_cast", "arith.muli"];
    super::contract_elementwise::erase_unused(grouped, &kinds);
    Ok(())
}
