//! Data movements by an immediate: instructions whose result, for each value
//! of their immediate, is a fixed arrangement of their operands' elements and
//! zeros (`_mm512_shuffle_epi32`, `_mm512_alignr_epi8`, `_mm512_bslli_epi128`,
//! `_mm256_blend_epi16`, …).
//!
//! Clang's IR for such an intrinsic is a `shufflevector` whose mask clang
//! computes from the immediate, so the IR compiled for one immediate is no
//! lowering for the others. The mask is read off the instruction's semantics
//! instead: each operand element is given a distinct label, and the result
//! tells where each of its elements comes from. At generation time every
//! immediate value is checked this way (and against random operands); when
//! an op is lowered, the mask for its immediate is derived again and proved
//! equal to the semantics by Z3 before it is used.

use crate::eval::{Concrete, Machine};
use crate::sema::ir::{ArgKind, Semantics};
use crate::validate::cases::{random_bits, Rng};
use num_bigint::BigUint;
use serde::{Deserialize, Serialize};
use z3::ast::BV;

/// How an instruction's immediate arranges its operands' elements.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Movement {
    /// The C intrinsic whose semantics give the arrangement.
    pub instruction: String,
    /// Size of the elements moved.
    pub elem_bits: u32,
    /// The immediate attribute of the target op.
    pub immediate: String,
}

/// Where one result element comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    Zero,
    /// Element `index` of the vector argument at position `arg` of the
    /// semantics.
    Element {
        arg: usize,
        index: u32,
    },
}

/// What may be moved: vector arguments, mask arguments (all ones, so every
/// element is computed) and exactly one immediate, nothing else.
fn shape(sem: &Semantics) -> Option<usize> {
    let mut immediates = sem.args.iter().enumerate().filter(|(_, a)| a.kind == ArgKind::Immediate);
    let (position, _) = immediates.next()?;
    let movable = sem.args.iter().all(|a| matches!(a.kind, ArgKind::Vector | ArgKind::Mask | ArgKind::Immediate));
    (immediates.next().is_none() && movable).then_some(position)
}

/// The arguments of one evaluation: vectors from `vector`, masks all ones,
/// the immediate `imm`.
fn arguments(sem: &Semantics, imm: u32, vector: &mut dyn FnMut(usize, u32) -> BigUint) -> Vec<BigUint> {
    sem.args
        .iter()
        .enumerate()
        .map(|(i, a)| match a.kind {
            ArgKind::Vector => vector(i, a.width),
            ArgKind::Mask => (BigUint::from(1u8) << a.width) - 1u8,
            _ => BigUint::from(imm) & ((BigUint::from(1u8) << a.width) - 1u8),
        })
        .collect()
}

fn element(v: &BigUint, index: u32, elem_bits: u32) -> BigUint {
    (v >> (index * elem_bits)) & ((BigUint::from(1u8) << elem_bits) - 1u8)
}

/// The result `sources` give for the vector arguments `args`.
fn arrange(sources: &[Source], args: &[BigUint], elem_bits: u32) -> BigUint {
    sources.iter().enumerate().fold(BigUint::default(), |acc, (j, s)| match s {
        Source::Zero => acc,
        Source::Element { arg, index } => acc | (element(&args[*arg], *index, elem_bits) << (j as u32 * elem_bits)),
    })
}

/// The arrangement the instruction makes for immediate `imm`, in elements of
/// `elem_bits`, if it is one: read off labelled operands and checked on
/// random operands.
pub fn sources(sem: &Semantics, elem_bits: u32, imm: u32) -> Option<Vec<Source>> {
    shape(sem)?;
    if !sem.result.width.is_multiple_of(elem_bits) {
        return None;
    }
    // Labels 1, 2, … across the vector arguments in order; 0 is a zero.
    let mut labels: Vec<(usize, u32)> = Vec::new();
    for (i, a) in sem.args.iter().enumerate().filter(|(_, a)| a.kind == ArgKind::Vector) {
        if !a.width.is_multiple_of(elem_bits) {
            return None;
        }
        labels.extend((0..a.width / elem_bits).map(|k| (i, k)));
    }
    if elem_bits < 32 && labels.len() >= 1 << elem_bits {
        return None;
    }
    let args = arguments(sem, imm, &mut |i, width| {
        let first = labels.iter().position(|(a, _)| *a == i).expect("every vector argument is labelled");
        (0..width / elem_bits)
            .fold(BigUint::default(), |acc, k| acc | (BigUint::from(first as u32 + k + 1) << (k * elem_bits)))
    });
    let result = Machine::new(&mut Concrete, sem).run(&args).ok()?;
    let sources: Vec<Source> = (0..sem.result.width / elem_bits)
        .map(|j| {
            let label = u32::try_from(element(&result, j, elem_bits)).ok()?;
            match label {
                0 => Some(Source::Zero),
                l => labels.get(l as usize - 1).map(|&(arg, index)| Source::Element { arg, index }),
            }
        })
        .collect::<Option<_>>()?;
    // A computation that happens to give labels on labels gives something
    // else on random operands.
    let mut rng = Rng::new(0x6d6f_7665 ^ u64::from(imm));
    for _ in 0..3 {
        let args = arguments(sem, imm, &mut |_, width| random_bits(&mut rng, width));
        let got = Machine::new(&mut Concrete, sem).run(&args).ok()?;
        if got != arrange(&sources, &args, elem_bits) {
            return None;
        }
    }
    Some(sources)
}

/// Whether one LLVM `shufflevector` makes `sources`: at most two distinct
/// inputs (vector arguments of one width, or zeros as the second).
pub fn one_shuffle(sem: &Semantics, sources: &[Source]) -> bool {
    let mut args: Vec<usize> =
        sources.iter().filter_map(|s| if let Source::Element { arg, .. } = s { Some(*arg) } else { None }).collect();
    args.sort_unstable();
    args.dedup();
    let zeros = sources.contains(&Source::Zero);
    let same_width = args.windows(2).all(|w| sem.args[w[0]].width == sem.args[w[1]].width);
    same_width && args.len() + usize::from(zeros && !args.is_empty()) <= 2
}

/// The widest element size at which every value of the instruction's
/// immediate is a data movement that one `shufflevector` makes.
pub fn movement_elem_bits(sem: &Semantics) -> Option<u32> {
    let position = shape(sem)?;
    let bits = sem.args[position].imm_bits.unwrap_or(8).min(8);
    [64, 32, 16, 8]
        .into_iter()
        .find(|&e| (0..1u32 << bits).all(|imm| sources(sem, e, imm).is_some_and(|s| one_shuffle(sem, &s))))
}

/// Z3's budget for proving one arrangement, in milliseconds.
const PROOF_MS: u32 = 5_000;

/// Whether Z3 proves that, with immediate `imm` (and masks all ones), the
/// instruction computes the arrangement `sources` for all operands.
pub fn proved(sem: &Semantics, elem_bits: u32, imm: u32, sources: &[Source]) -> bool {
    z3::with_z3_config(&z3::Config::new(), || {
        let args: Vec<BV> = sem
            .args
            .iter()
            .enumerate()
            .map(|(i, a)| match a.kind {
                ArgKind::Vector => BV::new_const(format!("v{i}"), a.width),
                ArgKind::Mask => BV::from_i64(-1, a.width),
                _ => BV::from_u64(u64::from(imm), a.width),
            })
            .collect();
        let Ok(got) = crate::eval::typing::formula_over(sem, &args) else { return false };
        let mut want: Option<BV> = None;
        for s in sources {
            let e = match s {
                Source::Zero => BV::from_u64(0, elem_bits),
                Source::Element { arg, index } => args[*arg].extract((index + 1) * elem_bits - 1, index * elem_bits),
            };
            want = Some(match want {
                None => e,
                Some(low) => e.concat(&low),
            });
        }
        let Some(want) = want else { return false };
        let solver = z3::Solver::new();
        let mut params = z3::Params::new();
        params.set_u32("rlimit", PROOF_MS.saturating_mul(crate::classify::proof::RLIMIT_PER_MS));
        params.set_u32("timeout", PROOF_MS.saturating_mul(crate::classify::proof::WALL_CLOCK_FACTOR));
        solver.set_params(&params);
        solver.assert(got.eq(&want).not());
        solver.check() == z3::SatResult::Unsat
    })
}
