//! Unsigned division of vector lanes by a constant, as a multiply-high, a
//! rounding average and a shift.
//!
//! The idiom is an average or a scaling by a constant: a box filter's sum
//! divided by its area, a mean over a fixed count, a change of units.
//! LLVM lowers `arith.divui` by a splat constant with a multiply-high; for
//! an odd divisor whose magic needs a bit more than the lanes have it adds
//! that bit back in four operations (`crate::synth::division_magic`). On a
//! target whose offline rules give the `avg_u<e>` idiom one instruction at
//! the register width (`vpavgw`, `vpavgb`, `urhadd`), the quotient is
//! `avg(mulhi(x, m), x) >> s` for some `m` exact over every `x`, where one
//! exists: three operations, written as `arith` ops in the idioms' own
//! spelling so the synthesis finds the instructions by those rules. Where
//! a target has no such rule (an ISA without offline rules), the
//! average's window is not one the search takes, and LLVM's own
//! lowering of the widened sum is longer than its division, so the
//! division is left to LLVM, with a remark. Z3 proves the form
//! the quotient for every dividend of the element type before it is made
//! (`division_magic::prove`); every op of it is lane-wise and its
//! constants splats, so that holds in every lane.
//!
//! A division inside an extend-compute-truncate region that
//! `hydride-in-place-widening` computes on the narrow elements (where the
//! CPU's model prices that cheaper) is left to it: its form has no
//! extension across lanes, which outweighs the two instructions saved here
//! (a 5x5 box filter's sum of extended bytes divided by 25 in 256-bit
//! registers: 27.4 cycles an iteration in place against 77.8 with the
//! division rewritten and the bytes extended, on one CPU's model; see
//! `docs/passes.md`).

use super::build::Builder;
use super::failure::RewriteError;
use super::raw;
use super::read;
use crate::synth::attr::Attr;
use crate::synth::block::Dataflow;
use crate::synth::division_magic::{prove, rounding_average_form, RoundingAverageForm};
use crate::synth::grammar::Grammar;
use crate::synth::idioms;
use crate::synth::lower::{proved_once_by_key, Options};
use crate::synth::types::Ty;
use melior::ir::operation::{OperationLike, OperationResult};
use melior::ir::{BlockLike, Module, OperationRef, ValueLike};
use melior::Context;

/// Rewrites the divisions under `root` that have the form and a target
/// that computes it in three instructions, with a remark on each (and on
/// each that has the form but not the instruction, or not a proof) where
/// `remarks`; how many.
pub fn run<'c>(
    context: &'c Context,
    root: OperationRef<'c, 'c>,
    options: &Options,
    remarks: bool,
) -> Result<usize, RewriteError> {
    let target = options.limits.target;
    let is_division = |op: &OperationRef| op.name().as_string_ref().as_str() == Ok("arith.divui");
    if !raw::nested_ops(root).iter().any(is_division) {
        return Ok(0);
    }
    // Each division with the form, and whether in-place widening takes it
    // (asked only of those: it searches the block's regions).
    let mut divisions = Vec::new();
    for block in raw::nested_blocks(root) {
        let read = read::block(block);
        let flow = Dataflow::new(&read.ops);
        for (pos, op) in read.ops.iter().enumerate() {
            if op.name != "arith.divui" {
                continue;
            }
            let Some((ty, divisor)) = by_constant(read.handles[pos]) else { continue };
            let Some(form) = rounding_average_form(divisor, ty.elem_bits) else { continue };
            let in_place = super::in_place_widening::takes(&flow, pos, options);
            divisions.push((read.handles[pos], ty, divisor, form, in_place));
        }
    }
    let mut rewritten = 0;
    for (op, ty, divisor, form, in_place) in divisions {
        let remark = |text: String| {
            if remarks {
                raw::emit(&op, true, &format!("hydride-divide-by-constant: {text}"));
            }
        };
        let what = format!("u{} lanes divided by {divisor}", ty.elem_bits);
        if in_place {
            remark(format!(
                "{what} left as it is: hydride-in-place-widening computes its region on the narrow elements, \
                 cheaper on the CPU's model"
            ));
            continue;
        }
        if !rounding_average_rule(options, ty.elem_bits)? {
            remark(format!(
                "{what} left to LLVM: {} has no offline rule giving a rounding average of u{} lanes one instruction",
                target.name(),
                ty.elem_bits
            ));
            continue;
        }
        let key = format!(
            "divide-by-constant\nu{} / {divisor} = avg(mulhi(x, {}), x) >> {}",
            ty.elem_bits, form.multiplier, form.shift
        );
        let proof = proved_once_by_key(options, &key, || prove(form, divisor, ty.elem_bits, options.limits.proof_ms));
        if let Err(e) = proof {
            remark(format!("{what} left to LLVM: the rounding-average form is not proved: {e}"));
            continue;
        }
        emit(context, op, &form_function(form, &ty, target.register_bits()))?;
        remark(format!(
            "{what} as a multiply-high by {}, a rounding average with the dividend and a shift right by {} (proved \
             equal)",
            form.multiplier, form.shift
        ));
        rewritten += 1;
    }
    Ok(rewritten)
}

/// The result type and the divisor of a vector division by a splat
/// constant.
fn by_constant(op: OperationRef) -> Option<(Ty, u64)> {
    let ty = read::ty(op.result(0).ok()?.r#type())?;
    let constant = OperationResult::try_from(op.operand(1).ok()?).ok()?.owner();
    if ty.dims.is_empty() || constant.name().as_string_ref().as_str() != Ok("arith.constant") {
        return None;
    }
    let Attr::Elements(values) = read::attr(constant.attribute("value").ok()?) else { return None };
    let first = values.first()?;
    if values.iter().any(|v| v != first) {
        return None;
    }
    // The elements are read signed; the division is unsigned.
    let modulus = num_bigint::BigInt::from(1u64) << ty.elem_bits;
    let unsigned = ((first % &modulus) + &modulus) % &modulus;
    Some((ty, u64::try_from(unsigned).ok()?))
}

/// Whether the target's offline rules compute the rounding average of
/// `bits`-bit lanes at its register width in one instruction: the
/// synthesis then finds it inside the form's window by that rule.
fn rounding_average_rule(options: &Options, bits: u32) -> Result<bool, RewriteError> {
    let target = options.limits.target;
    let idiom = idioms::average(bits, target.register_bits() / bits).name;
    let rules = crate::synth::lower::usable_rules(Grammar::embedded(target.isa())?, target);
    Ok(rules.iter().any(|r| r.idiom == idiom && r.program.matches("found").count() == 1))
}

/// `ty`'s element `value` as MLIR reads a literal of a signless type.
fn element(value: u64, bits: u32) -> i64 {
    let v = value as i64;
    if v >= 1 << (bits - 1) {
        v - (1 << bits)
    } else {
        v
    }
}

/// The form as a function of the dividend: the multiply-high and the
/// average spelt as `crate::synth::idioms` spells them. A 1-D dividend
/// wider than the target's registers is divided one register-sized piece
/// at a time, the quotients concatenated, so each piece's average is the
/// idiom at the width its offline rule has.
fn form_function(form: RoundingAverageForm, ty: &Ty, register_bits: u32) -> String {
    let whole = |bits: u32| bits % register_bits == 0 && (bits / register_bits).is_power_of_two();
    let pieces =
        if ty.dims.len() == 1 && ty.bits() > register_bits && whole(ty.bits()) { ty.bits() / register_bits } else { 1 };
    let piece = Ty { dims: ty.dims.iter().map(|d| d / pieces).collect(), elem_bits: ty.elem_bits };
    let mut body = String::new();
    let mut quotients = Vec::new();
    for k in 0..pieces {
        let dividend = if pieces == 1 {
            "%x".to_string()
        } else {
            let lanes = piece.lanes();
            body += &format!(
                "  %x{k} = vector.extract_strided_slice %x {{offsets = [{}], sizes = [{lanes}], strides = [1]}} : \
                 {ty} to {piece}\n",
                k * lanes
            );
            format!("%x{k}")
        };
        body += &form_body(form, &piece, &dividend, k);
        quotients.push((format!("%r{k}"), piece.clone()));
    }
    // Concatenated pairwise: each shuffle joins two neighbours.
    while quotients.len() > 1 {
        let mut joined = Vec::new();
        for pair in quotients.chunks(2) {
            let [(a, t), (b, _)] = pair else { unreachable!("the pieces are a power of two") };
            let both = Ty { dims: vec![2 * t.lanes()], elem_bits: t.elem_bits };
            let name = format!("{a}_{}", &b[1..]);
            let mask: Vec<String> = (0..both.lanes()).map(|i| i.to_string()).collect();
            body += &format!("  {name} = vector.shuffle {a}, {b} [{}] : {t}, {t}\n", mask.join(", "));
            joined.push((name, both));
        }
        quotients = joined;
    }
    format!("func.func @division(%x: {ty}) -> {ty} {{\n{body}  return {} : {ty}\n}}\n", quotients[0].0)
}

/// The form over `dividend` of type `ty`, its values suffixed with `k`,
/// its quotient `%r<k>`.
fn form_body(form: RoundingAverageForm, ty: &Ty, dividend: &str, k: u32) -> String {
    let e = ty.elem_bits;
    let wide = Ty { dims: ty.dims.clone(), elem_bits: 2 * e };
    let (m, s, x) = (element(form.multiplier, e), form.shift, dividend);
    format!(
        "  %m{k} = arith.constant dense<{m}> : {ty}\n  %xw{k} = arith.extui {x} : {ty} to {wide}\n  \
         %mw{k} = arith.extui %m{k} : {ty} to {wide}\n  %p{k} = arith.muli %xw{k}, %mw{k} : {wide}\n  \
         %e{k} = arith.constant dense<{e}> : {wide}\n  %ph{k} = arith.shrui %p{k}, %e{k} : {wide}\n  \
         %q{k} = arith.trunci %ph{k} : {wide} to {ty}\n  %qw{k} = arith.extui %q{k} : {ty} to {wide}\n  \
         %xa{k} = arith.extui {x} : {ty} to {wide}\n  %sum{k} = arith.addi %qw{k}, %xa{k} : {wide}\n  \
         %one{k} = arith.constant dense<1> : {wide}\n  %up{k} = arith.addi %sum{k}, %one{k} : {wide}\n  \
         %half{k} = arith.shrui %up{k}, %one{k} : {wide}\n  %avg{k} = arith.trunci %half{k} : {wide} to {ty}\n  \
         %s{k} = arith.constant dense<{s}> : {ty}\n  %r{k} = arith.shrui %avg{k}, %s{k} : {ty}\n"
    )
}

/// The form, parsed in the op's context, inlined before the division,
/// which it replaces.
fn emit<'c>(context: &'c Context, op: OperationRef<'c, 'c>, form: &str) -> Result<(), RewriteError> {
    let module = Module::parse(context, form).ok_or(RewriteError::Invariant("the division's form does not parse"))?;
    let function = module.body().first_operation().ok_or(RewriteError::Invariant("the division's form is empty"))?;
    let dividend = op.operand(0)?;
    let quotient = Builder::new(context, op).inline(function, &[dividend])?;
    raw::replace_all_uses(op.result(0)?.into(), quotient);
    raw::erase(op);
    Ok(())
}
