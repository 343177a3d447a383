//! lower-to-autollvm's planning on blocks read from MLIR.

use hydride::synth::block::BlockOp;
use hydride::synth::cache::Cache;
use hydride::synth::grammar::{Grammar, Target};
use hydride::synth::lower::{lower_block, Options, Ref};
use hydride::synth::search::Limits;
use hydride::synth::target::Isa;
use hydride::synth::types::Ty;

mod common;

/// `trunc(min(max(ext a + ext b, lo), hi))` over 32 x i16 (`lanes` lanes):
/// the arguments are values 0 and 2, the truncation op 7.
fn clamp_add(lo: i64, lanes: u32) -> Vec<BlockOp> {
    let (w, n) = (format!("vector<{lanes}xi32>"), format!("vector<{lanes}xi16>"));
    let mlir = format!(
        "func.func @f(%a: {n}, %b: {n}) -> {n} {{
  %0 = arith.extsi %a : {n} to {w}
  %1 = arith.extsi %b : {n} to {w}
  %lo = arith.constant dense<{lo}> : {w}
  %hi = arith.constant dense<32767> : {w}
  %2 = arith.addi %0, %1 : {w}
  %3 = arith.maxsi %2, %lo : {w}
  %4 = arith.minsi %3, %hi : {w}
  %5 = arith.trunci %4 : {w} to {n}
  return %5 : {n}
}}"
    );
    common::function_blocks(&mlir).remove(0)
}

fn options(dir: &std::path::Path) -> Options {
    options_for(Target::named("x86-avx512"), dir)
}

fn options_for(target: Target, dir: &std::path::Path) -> Options {
    Options {
        cache: Cache::new(Some(dir), Some([3; 32])),
        limits: Limits { target, ..Default::default() },
        max_ops: 16,
        cone_ops: 4096,
        block_ms: 20_000,
        by_rules: Default::default(),
    }
}

#[test]
fn a_clamped_add_becomes_a_saturating_add() {
    let grammar = Grammar::embedded(Isa::named("x86")).expect("the embedded class database loads");
    let dir = tempfile::tempdir().unwrap();
    let plan = lower_block(&clamp_add(-32768, 32), grammar, &options(dir.path()));
    assert_eq!(plan.rewrites.len(), 1, "{plan:?}");
    let r = &plan.rewrites[0];
    assert_eq!((r.root, r.ops.len(), r.ops[0].op.as_str()), (7, 1, "autollvm.add_sat_s"));
    let t = Ty { dims: vec![32], elem_bits: 16 };
    let inputs = vec![(Ref::Value(0), t.clone()), (Ref::Value(2), t)];
    assert_eq!(r.ops[0].operands, inputs);
    // An offline rule gave it (no search); the memo gives the same rewrite.
    assert!(plan.remarks[0].1.contains("1 rewritten (1 by a rule"), "{plan:?}");
    let again = lower_block(&clamp_add(-32768, 32), grammar, &options(dir.path()));
    assert_eq!(again.rewrites, plan.rewrites);
    assert!(again.remarks[0].1.contains("1 rewritten (0 by a rule"), "{again:?}");
}

#[test]
fn a_clamp_off_by_one_is_left_alone_with_a_reason() {
    let grammar = Grammar::embedded(Isa::named("x86")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let plan = lower_block(&clamp_add(-32767, 32), grammar, &options(dir.path()));
    assert!(plan.rewrites.is_empty(), "{plan:?}");
    assert!(plan.remarks.iter().any(|(op, why)| *op == 7 && why.contains("left unchanged")), "{plan:?}");
}

#[test]
fn unknown_targets_are_errors() {
    assert!(Target::parse("x86-avx512").is_ok());
    assert!(Target::parse("x86-avx2").is_ok());
    assert_eq!(Target::parse("native"), Ok(Target::named("native")));
    let unknown = Target::parse("riscv").unwrap_err();
    assert_eq!(unknown.name, "riscv");
    assert!(unknown.to_string().starts_with("unknown target 'riscv' (known: "), "{unknown}");
}

#[test]
fn an_avx2_target_uses_no_avx512_instruction() {
    // 256-bit clamped add: vpaddsw ymm exists in AVX2; the 512-bit form does
    // not, and the 512-bit window is cut into two 256-bit pieces instead.
    let grammar = Grammar::embedded(Isa::named("x86")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let plan = lower_block(&clamp_add(-32768, 32), grammar, &options_for(Target::named("x86-avx2"), dir.path()));
    assert_eq!(plan.rewrites.len(), 1, "{plan:?}");
    let class_ops: Vec<_> = plan.rewrites[0].ops.iter().filter(|o| o.op.starts_with("autollvm.")).collect();
    assert_eq!(class_ops.len(), 2, "{plan:?}");
    for o in class_ops {
        assert_eq!(o.result.bits(), 256, "{o:?}");
        let c = grammar.candidates.iter().find(|c| c.class_op == o.op && c.result.bits() == 256).unwrap();
        assert!(Target::named("x86-avx2").allows(&c.cpuid), "{:?}", c.cpuid);
    }
    let plan = lower_block(&clamp_add(-32768, 16), grammar, &options_for(Target::named("x86-avx2"), dir.path()));
    assert_eq!(plan.rewrites.len(), 1, "{plan:?}");
    let c =
        grammar.candidates.iter().find(|c| c.class_op == plan.rewrites[0].ops[0].op && c.result.bits() == 256).unwrap();
    assert!(Target::named("x86-avx2").allows(&c.cpuid), "{:?}", c.cpuid);
}

#[test]
fn native_is_what_this_host_executes() {
    let host = dialectgen::isa::x86::host::Host::get();
    let grammar = Grammar::embedded(Isa::named("x86")).unwrap();
    let allowed: Vec<_> = grammar.candidates.iter().filter(|c| Target::named("native").allows(&c.cpuid)).collect();
    assert!(!allowed.is_empty());
    for c in &grammar.candidates {
        assert_eq!(
            Target::named("native").allows(&c.cpuid),
            host.executes(&c.cpuid),
            "{} needs {:?}",
            c.intrinsic,
            c.cpuid
        );
    }
    // Without VNNI in the host's features, no VNNI instruction is a candidate.
    if !host.has("avx512_vnni") {
        assert!(allowed.iter().all(|c| !c.cpuid.iter().any(|f| f.contains("VNNI"))));
    }
    assert_eq!(Target::named("native").name(), format!("native={}", host.x86_target()));
}

#[test]
fn a_window_out_of_time_is_left_alone_and_not_memoized() {
    let grammar = Grammar::embedded(Isa::named("x86")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut hurried = options(dir.path());
    hurried.limits.window_ms = 0;
    let plan = lower_block(&clamp_add(-32768, 32), grammar, &hurried);
    assert!(plan.rewrites.is_empty(), "{plan:?}");
    assert!(plan.remarks.iter().any(|(_, why)| why.contains("time limit")), "{plan:?}");
    // With time, the same window is found: nothing was memoized.
    let plan = lower_block(&clamp_add(-32768, 32), grammar, &options(dir.path()));
    assert_eq!(plan.rewrites.len(), 1, "{plan:?}");
}

#[test]
fn arm_and_hvx_targets_use_their_own_instructions() {
    let dir = tempfile::tempdir().unwrap();
    // 128-bit clamped add on NEON: sqadd; 1024-bit on HVX: vaddhsat.
    for (target, lanes, intrinsic) in
        [(Target::named("aarch64-neon"), 8, "vqaddq_s16"), (Target::named("hexagon-hvx128"), 64, "V6_vaddhsat")]
    {
        let grammar = Grammar::embedded(target.isa()).unwrap();
        assert!(grammar.candidates.iter().all(|c| target.allows(&c.cpuid) || c.cpuid.iter().any(|f| f != "neon")));
        let plan = lower_block(&clamp_add(-32768, lanes), grammar, &options_for(target, dir.path()));
        assert_eq!(plan.rewrites.len(), 1, "{target:?}: {plan:?}");
        let op = &plan.rewrites[0].ops[0];
        let used = grammar
            .candidates
            .iter()
            .find(|c| c.class_op == op.op && c.result == op.result && c.fixed_attributes == op.attributes)
            .unwrap();
        assert_eq!(used.intrinsic, intrinsic, "{target:?}");
    }
    // Dot product and i8mm instructions are not Armv8.0's.
    let arm = Grammar::embedded(Isa::named("arm")).unwrap();
    let usdot = arm.candidates.iter().find(|c| c.intrinsic == "vusdotq_s32").expect("usdot is a candidate");
    assert!(!Target::named("aarch64-neon").allows(&usdot.cpuid));
    assert!(Target::named("aarch64-neon-dotprod-i8mm").allows(&usdot.cpuid));
}

/// A memo entry with a valid tag that names a wrong program (as a fault in
/// hydride could write one) is not applied: the hit is checked against its
/// window on fresh samples, the window searched and proved again, and the
/// entry replaced.
#[test]
fn a_wrong_program_in_the_memo_is_not_applied() {
    let grammar = Grammar::embedded(Isa::named("x86")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let plan = lower_block(&clamp_add(-32768, 32), grammar, &options(dir.path()));
    assert_eq!(plan.rewrites[0].ops[0].op, "autollvm.add_sat_s", "{plan:?}");
    let cache = Cache::new(Some(dir.path()), Some([3; 32]));
    let mut planted = 0;
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        let (key, result) = (v["key"].as_str().unwrap(), v["result"].as_str().unwrap());
        if result.contains("_mm512_adds_epi16") {
            cache.put(key, &result.replace("_mm512_adds_epi16", "_mm512_subs_epi16"));
            planted += 1;
        }
    }
    assert_eq!(planted, 1, "the saturating add's entry is in the memo");
    let again = lower_block(&clamp_add(-32768, 32), grammar, &options(dir.path()));
    assert_eq!(again.rewrites, plan.rewrites);
    let replaced = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .any(|t| t.contains("_mm512_adds_epi16"));
    assert!(replaced, "the wrong entry is replaced by the proved one");
}

#[test]
fn the_grammar_holds_shifts_and_movements_by_an_immediate() {
    let grammar = Grammar::embedded(Isa::named("x86")).unwrap();
    let find = |name: &str| grammar.candidates.iter().find(|c| c.intrinsic.ends_with(name));
    // A shift by an immediate is a call of the intrinsic clang emits with the
    // immediate as a parameter; its immediate is solved for.
    let shift = find("_mm512_srai_epi16").expect("vpsraw by an immediate is a candidate");
    assert!(!shift.generic && shift.immediates.len() == 1);
    // A data movement by an immediate lowers to a shufflevector: generic IR.
    let shuffle = find("_mm512_shuffle_epi32").expect("vpshufd is a candidate");
    assert!(shuffle.generic && shuffle.immediates.len() == 1);
    let with_immediates = grammar.candidates.iter().filter(|c| !c.immediates.is_empty()).count();
    let generic = grammar.candidates.iter().filter(|c| c.generic).count();
    eprintln!(
        "x86 grammar: {} instructions, {} with an immediate, {} generic IR",
        grammar.candidates.len(),
        with_immediates,
        generic
    );
}

mod lane_prefix {
    //! Instructions screened on their first lanes (`synth::lane_prefix`).

    use dialectgen::eval::{Concrete, Machine};
    use dialectgen::validate::cases::{random_bits, Rng};
    use hydride::synth::grammar::{instruction_semantics, Grammar};
    use hydride::synth::lane_prefix::{plan, SCREENED_BITS};
    use hydride::synth::target::Isa;
    use num_bigint::BigUint;

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
