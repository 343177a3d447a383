//! Lane-prefix screening: rejecting a candidate on a few of its lanes.
//!
//! Most instructions compute their result in one loop, a lane per trip.
//! Screening asks whether an instruction gives the window's value on one
//! sample, and almost every candidate does not; the first lanes say so as
//! well as all of them, at a fraction of the interpreter's time (a 512-bit
//! instruction of 16-bit lanes runs 32 trips; its first four say no).
//!
//! A candidate's plan is found on first use, from its semantics alone: the
//! fewest trips of the first top-level loop (else of the last, the earlier
//! ones run in full: a sum of absolute differences takes the differences
//! into a temporary first) that write at least [`SCREENED_BITS`] result
//! bits, and which bits those are: the interpreter notes the result bits
//! the cut loop writes (an accumulating form copies its accumulator into
//! the result before the loop; those bits do not count). The plan is kept
//! only if the written bits are the same on four inputs (two random, all
//! zeros, all ones) and hold the full run's values there on the random
//! ones, and if they are at most a quarter of the result: a narrower
//! instruction (a 128-bit one) is cheap to run whole, cheaper than
//! making its plan. Screening with a plan compares those bits only. It is
//! a filter: what passes is still run in full on every sample and proved,
//! so a plan never lets a wrong program through, and a candidate without
//! one is screened in full.

use dialectgen::eval::{Concrete, Machine};
use dialectgen::sema::ir::Semantics;
use dialectgen::validate::cases::{random_bits, Rng};
use num_bigint::BigUint;

/// Result bits a prefix writes at least.
pub const SCREENED_BITS: u64 = 64;

/// Trips tried for a prefix, fewest first.
const TRIPS: [i64; 5] = [1, 2, 4, 8, 16];

/// How an instruction is screened on its first lanes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LanePrefix {
    /// The top-level loop cut short (0 is the first); those before it run in full.
    pub nth: usize,
    /// Its trips run.
    pub trips: i64,
    /// The result bits those trips write.
    pub written: BigUint,
}

impl LanePrefix {
    /// Whether `got`, the prefix's result, agrees with `want` on the written bits.
    pub fn agrees(&self, got: &BigUint, want: &BigUint) -> bool {
        (got & &self.written) == (want & &self.written)
    }
}

/// The prefix plan of `sema`, if it has one worth using (see the module
/// comment). Immediates are arguments like the others here, so a plan
/// holds whatever immediate the candidate is given.
pub fn plan(sema: &Semantics) -> Option<LanePrefix> {
    let width = sema.result.width;
    // A quarter of the result is at least the bits screened only from 256 bits up.
    if u64::from(width) < 4 * SCREENED_BITS {
        return None;
    }
    let mut rng = Rng::new(0x1a7e_5c4e_e9b1_f00d);
    // Two random inputs, all zeros and all ones: a write that depends on an
    // input (a compress's mask) shows as bits written on one and not another.
    let mut inputs: Vec<Vec<BigUint>> =
        (0..2).map(|_| sema.args.iter().map(|a| random_bits(&mut rng, a.width)).collect()).collect();
    inputs.push(sema.args.iter().map(|_| BigUint::default()).collect());
    inputs.push(sema.args.iter().map(|a| (BigUint::from(1u8) << a.width) - 1u8).collect());
    let full: Vec<BigUint> =
        inputs[..2].iter().map(|args| Machine::new(&mut Concrete, sema).run(args).ok()).collect::<Option<_>>()?;
    // The first loop, else the last: a temporary made in full by earlier
    // loops (a sum of absolute differences) and the result by the last.
    let loops = sema.top_level_loops();
    let mut choices = vec![0];
    if loops > 1 {
        choices.push(loops - 1);
    }
    choices.into_iter().find_map(|nth| plan_at(sema, nth, &inputs, &full))
}

/// The plan cutting short top-level loop `nth`, checked on `inputs` (the
/// first two of which `full` holds the full results).
fn plan_at(sema: &Semantics, nth: usize, inputs: &[Vec<BigUint>], full: &[BigUint]) -> Option<LanePrefix> {
    let width = sema.result.width;
    for trips in TRIPS {
        let mut written: Option<BigUint> = None;
        for (k, args) in inputs.iter().enumerate() {
            let (got, here) = Machine::new(&mut Concrete, sema).run_prefix(args, nth, trips).ok()?;
            if written.as_ref().is_some_and(|w| *w != here) {
                return None;
            }
            if full.get(k).is_some_and(|f| (&got & &here) != (f & &here)) {
                return None;
            }
            written = Some(here);
        }
        let written = written?;
        let count = written.count_ones();
        if count * 4 > u64::from(width) {
            return None;
        }
        if count >= SCREENED_BITS {
            return Some(LanePrefix { nth, trips, written });
        }
    }
    None
}
