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
//! instruction (a 128-bit NEON one) is cheap to run whole, cheaper than
//! making its plan. Screening with a plan compares those bits only. It is
//! a filter: what passes is still run in full on every sample and proved,
//! so a plan never lets a wrong program through, and a candidate without
//! one is screened in full.

use dialectgen::eval::{Concrete, Machine};
use dialectgen::sema::ir::Semantics;
use dialectgen::validate::cases::{random_bits, Rng};
use num_bigint::BigUint;

/// Result bits a prefix writes at least.
const SCREENED_BITS: u64 = 64;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::synth::grammar::{instruction_semantics, Grammar};
    use crate::synth::target::Isa;

    #[test]
    fn a_lane_loop_is_screened_on_its_first_lanes() {
        let (sema, _) = instruction_semantics(Isa::named("x86"), "_mm512_add_epi16").unwrap();
        let plan = plan(&sema).expect("a plan for a 512-bit add");
        // Four 16-bit lanes make the 64 bits screened.
        assert_eq!(plan.trips, 4);
        assert_eq!(plan.written, (BigUint::from(1u8) << 64) - 1u8);
        let mut rng = Rng::new(7);
        let (a, b) = (random_bits(&mut rng, 512), random_bits(&mut rng, 512));
        let want = Machine::new(&mut Concrete, &sema).run(&[a.clone(), b.clone()]).unwrap();
        let got = Machine::new(&mut Concrete, &sema).run_prefix(&[a, b], plan.nth, plan.trips).unwrap().0;
        assert!(plan.agrees(&got, &want));
        // A wrong first lane is seen; a wrong last lane is left to the full check.
        assert!(!plan.agrees(&got, &(&want ^ BigUint::from(1u8))));
        assert!(plan.agrees(&got, &(&want ^ (BigUint::from(1u8) << 511))));
    }

    #[test]
    fn a_result_written_by_a_later_loop_is_screened_there() {
        // `psadbw` and `vdbpsadbw` make a temporary in full in a first loop
        // and the result lane by lane in the last.
        for name in ["_mm512_sad_epu8", "_mm512_dbsad_epu8"] {
            let (sema, _) = instruction_semantics(Isa::named("x86"), name).unwrap();
            let plan = plan(&sema).unwrap_or_else(|| panic!("{name} has no plan"));
            assert!(plan.nth > 0, "{name}: {plan:?}");
        }
        // A mask's conversion has no loop at all, and no plan.
        let (sema, _) = instruction_semantics(Isa::named("x86"), "_mm512_mask2int").unwrap();
        assert_eq!(plan(&sema), None);
        // A 512-bit shuffle within 128-bit lanes: the first lane, a quarter.
        let (sema, _) = instruction_semantics(Isa::named("x86"), "_mm512_unpacklo_epi8").unwrap();
        let plan = plan(&sema).unwrap();
        assert_eq!((plan.nth, plan.trips, plan.written.count_ones()), (0, 1, 128));
    }

    /// An accumulating form copies its accumulator into the result before
    /// its loop; only what the loop writes counts, so it has a plan too.
    #[test]
    fn an_accumulating_form_is_screened_on_the_lanes_its_loop_writes() {
        let g = Grammar::embedded(Isa::named("hvx")).unwrap();
        let c = g.candidates.iter().find(|c| c.intrinsic == "V6_vmpybusv_acc").unwrap();
        let plan = plan(c.semantics()).expect("a plan for vmpybusv_acc");
        assert!(plan.written.count_ones() >= SCREENED_BITS && plan.written.count_ones() * 4 <= 2048, "{plan:?}");
    }

    /// On inputs other than those the plans were made on, every plan of the
    /// x86 and HVX grammars keeps the full run's value on its written bits:
    /// screening with it refuses no instruction that computes the value.
    #[test]
    fn every_plan_agrees_with_the_full_run_on_fresh_inputs() {
        for (isa, wide) in [(Isa::named("x86"), 512), (Isa::named("hvx"), 1024)] {
            let grammar = Grammar::embedded(isa).unwrap();
            let mut rng = Rng::new(0x00c0_ffee);
            // Candidates with a result of at least `wide` bits, and how many have a plan.
            let (mut planned, mut total) = (0, 0);
            for c in &grammar.candidates {
                let sema = c.semantics();
                let is_wide = c.result.bits() >= wide;
                total += usize::from(is_wide);
                let Some(p) = plan(sema) else { continue };
                planned += usize::from(is_wide);
                for _ in 0..2 {
                    let args: Vec<BigUint> = sema.args.iter().map(|a| random_bits(&mut rng, a.width)).collect();
                    let Ok(full) = Machine::new(&mut Concrete, sema).run(&args) else { continue };
                    let got = Machine::new(&mut Concrete, sema).run_prefix(&args, p.nth, p.trips).unwrap().0;
                    assert!(p.agrees(&got, &full), "{} ({} trips)", c.intrinsic, p.trips);
                }
            }
            // Most wide instructions are lane loops: the screening that costs.
            assert!(planned * 4 > total * 3, "{isa:?}: {planned} of {total} wide candidates have a plan");
        }
    }
}
