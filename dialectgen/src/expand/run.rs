//! A concrete interpreter of expansions, with MLIR's meaning of each op
//! (a shift by the width or more is poison, a division by zero is
//! undefined): what the generator checks every expansion against the
//! semantics with, before any is compiled.

use super::program::{Expansion, VTy, ValueRef};
use crate::eval::domain::{BvBinOp, BvCmp, Domain};
use crate::eval::Concrete;
use num_bigint::{BigInt, BigUint};
use num_traits::{One, Zero};

/// A lane's bits, or poison.
pub type Lane = Option<BigUint>;

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum RunError {
    #[error("op {index} (`{name}`): {why}")]
    Op { index: usize, name: String, why: String },
    #[error("the result has poison lanes")]
    Poison,
}

fn mask(w: u32) -> BigUint {
    (BigUint::one() << w) - BigUint::one()
}

fn signed(v: &BigUint, w: u32) -> BigInt {
    if w > 0 && v.bit(u64::from(w - 1)) {
        BigInt::from(v.clone()) - (BigInt::one() << w)
    } else {
        BigInt::from(v.clone())
    }
}

fn unsigned(v: &BigInt, w: u32) -> BigUint {
    let m = BigInt::one() << w;
    (((v % &m) + &m) % &m).to_biguint().expect("reduced")
}

/// The integers of an attribute: `dense<…>`, `array<i64: …>` or `[…]`.
fn numbers(text: &str) -> Vec<BigInt> {
    let body = text.split(" : vector").next().unwrap_or(text);
    let body = body.trim_start_matches("dense<").trim_start_matches("array<i64:").trim_end_matches('>');
    body.trim_matches(|c| c == '[' || c == ']' || c == ' ')
        .split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|s| match s.trim() {
            "true" => BigInt::one(),
            "false" => BigInt::zero(),
            n => n.parse().unwrap_or_default(),
        })
        .collect()
}

/// Splits `lanes` of `from` bits into lanes of `to` bits, low first.
fn rebits(lanes: &[Lane], from: u32, to: u32) -> Vec<Lane> {
    let poison = lanes.iter().any(Option::is_none);
    let mut all = BigUint::zero();
    for (i, l) in lanes.iter().enumerate() {
        all |= l.clone().unwrap_or_default() << (i as u32 * from);
    }
    let n = lanes.len() as u32 * from / to;
    (0..n).map(|i| (!poison).then(|| (&all >> (i * to)) & mask(to))).collect()
}

/// Runs `e` on `operands` (each a list of lanes); the result's lanes.
pub fn run(e: &Expansion, operands: &[Vec<BigUint>]) -> Result<Vec<BigUint>, RunError> {
    let mut values: Vec<Vec<Lane>> = Vec::new();
    let get = |values: &Vec<Vec<Lane>>, v: ValueRef| -> Vec<Lane> {
        match v {
            ValueRef::Operand(k) => operands[k].iter().cloned().map(Some).collect(),
            ValueRef::Op(k) => values[k].clone(),
        }
    };
    for (index, op) in e.ops.iter().enumerate() {
        let args: Vec<Vec<Lane>> = op.operands.iter().map(|&v| get(&values, v)).collect();
        let types: Vec<&VTy> = op.operands.iter().map(|&v| e.type_of(v)).collect();
        let fail = |why: &str| RunError::Op { index, name: op.name.to_string(), why: why.to_string() };
        let attr = |n: &str| op.attributes.iter().find(|(a, _)| *a == n).map(|(_, t)| t.clone()).unwrap_or_default();
        let out = one_op(op.name, &args, &types, &op.result, &attr).map_err(|w| fail(&w))?;
        values.push(out);
    }
    let r = get(&values, e.result.ok_or(RunError::Poison)?);
    r.into_iter().collect::<Option<Vec<_>>>().ok_or(RunError::Poison)
}

fn lanewise(args: &[Vec<Lane>], f: impl Fn(&[BigUint]) -> Result<Lane, String>) -> Result<Vec<Lane>, String> {
    (0..args[0].len())
        .map(|i| {
            let lane: Option<Vec<BigUint>> = args.iter().map(|a| a[i].clone()).collect();
            match lane {
                Some(l) => f(&l),
                None => Ok(None),
            }
        })
        .collect()
}

fn one_op(
    name: &str,
    args: &[Vec<Lane>],
    types: &[&VTy],
    result: &VTy,
    attr: &dyn Fn(&str) -> String,
) -> Result<Vec<Lane>, String> {
    let w = types.first().map_or(result.elem, |t| t.elem);
    let rw = result.elem;
    let bin = |op: BvBinOp| move |l: &[BigUint]| Ok(Some(Concrete.binary(op, &l[0], &l[1], w)));
    Ok(match name {
        "arith.constant" => {
            let n = numbers(&attr("value"));
            let lanes = result.lanes() as usize;
            (0..lanes).map(|i| Some(unsigned(&n[if n.len() == 1 { 0 } else { i }], rw))).collect()
        }
        "arith.addi" => lanewise(args, bin(BvBinOp::Add))?,
        "arith.subi" => lanewise(args, bin(BvBinOp::Sub))?,
        "arith.muli" => lanewise(args, bin(BvBinOp::Mul))?,
        "arith.andi" => lanewise(args, bin(BvBinOp::And))?,
        "arith.ori" => lanewise(args, bin(BvBinOp::Or))?,
        "arith.xori" => lanewise(args, bin(BvBinOp::Xor))?,
        "arith.shli" | "arith.shrui" | "arith.shrsi" => {
            let op = match name {
                "arith.shli" => BvBinOp::Shl,
                "arith.shrui" => BvBinOp::LShr,
                _ => BvBinOp::AShr,
            };
            lanewise(args, |l| Ok((l[1] < BigUint::from(w)).then(|| Concrete.binary(op, &l[0], &l[1], w))))?
        }
        "arith.divui" | "arith.remui" | "arith.divsi" | "arith.remsi" => {
            let op = match name {
                "arith.divui" => BvBinOp::UDiv,
                "arith.remui" => BvBinOp::URem,
                "arith.divsi" => BvBinOp::SDiv,
                _ => BvBinOp::SRem,
            };
            lanewise(args, |l| {
                let overflow = name.ends_with("si") && l[0] == BigUint::one() << (w - 1) && l[1] == mask(w);
                if l[1].is_zero() || overflow {
                    return Err("undefined division".into());
                }
                Ok(Some(Concrete.binary(op, &l[0], &l[1], w)))
            })?
        }
        "arith.minui" | "arith.maxui" | "arith.minsi" | "arith.maxsi" => lanewise(args, |l| {
            let less = if name.ends_with("si") { signed(&l[0], w) < signed(&l[1], w) } else { l[0] < l[1] };
            let first = less == name.contains("min");
            Ok(Some(if first { l[0].clone() } else { l[1].clone() }))
        })?,
        "arith.cmpi" => compare(args, w, &attr("predicate"))?,
        "arith.select" => (0..args[0].len())
            .map(|i| match &args[0][i] {
                None => None,
                Some(c) if c.is_zero() => args[2][i].clone(),
                Some(_) => args[1][i].clone(),
            })
            .collect(),
        "arith.extsi" => lanewise(args, |l| Ok(Some(Concrete.sign_extend(&l[0], w, rw - w))))?,
        "arith.extui" => lanewise(args, |l| Ok(Some(l[0].clone())))?,
        "arith.trunci" => lanewise(args, |l| Ok(Some(&l[0] & mask(rw))))?,
        _ => return vector_op(name, args, types, result, attr),
    })
}

fn vector_op(
    name: &str,
    args: &[Vec<Lane>],
    types: &[&VTy],
    result: &VTy,
    attr: &dyn Fn(&str) -> String,
) -> Result<Vec<Lane>, String> {
    let w = types.first().map_or(result.elem, |t| t.elem);
    let rw = result.elem;
    Ok(match name {
        "vector.broadcast" => {
            let n = result.lanes() as usize;
            (0..n).map(|i| args[0][if args[0].len() == 1 { 0 } else { i }].clone()).collect()
        }
        "vector.bitcast" => rebits(&args[0], w, rw),
        "vector.shape_cast" => args[0].clone(),
        "vector.shuffle" => {
            let all: Vec<Lane> = args[0].iter().chain(&args[1]).cloned().collect();
            numbers(&attr("mask")).iter().map(|i| all[usize::try_from(i).unwrap_or(0)].clone()).collect()
        }
        "vector.extract_strided_slice" => {
            let start = numbers(&attr("offsets")).first().and_then(|s| usize::try_from(s).ok()).unwrap_or(0);
            args[0][start..start + result.lanes() as usize].to_vec()
        }
        "vector.extract" => vec![args[0][0].clone()],
        "vector.multi_reduction" => {
            let m = types[0].dims.last().copied().unwrap_or(1) as usize;
            (0..args[1].len())
                .map(|i| {
                    args[0][i * m..(i + 1) * m]
                        .iter()
                        .try_fold(args[1][i].clone()?, |acc, x| Some((acc + x.clone()?) & mask(rw)))
                })
                .collect()
        }
        _ => return Err("not interpreted".into()),
    })
}

/// `arith.cmpi` with its predicate's text (`2 : i64`).
fn compare(args: &[Vec<Lane>], w: u32, predicate: &str) -> Result<Vec<Lane>, String> {
    let code: i64 = predicate.split(':').next().unwrap_or("").trim().parse().map_err(|_| "predicate")?;
    let (op, negate) = match code {
        0 => (BvCmp::Eq, false),
        1 => (BvCmp::Eq, true),
        2 => (BvCmp::Slt, false),
        3 => (BvCmp::Sle, false),
        4 => (BvCmp::Sle, true),
        5 => (BvCmp::Slt, true),
        6 => (BvCmp::Ult, false),
        7 => (BvCmp::Ule, false),
        8 => (BvCmp::Ule, true),
        _ => (BvCmp::Ult, true),
    };
    lanewise(args, |l| {
        let r = Concrete.compare(op, &l[0], &l[1], w);
        Ok(Some(if negate { r ^ BigUint::one() } else { r }))
    })
}
