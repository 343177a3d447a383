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
