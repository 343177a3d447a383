//! lower-to-autollvm's Rust side on blocks written in the shim's protocol.

use hydride::synth::cache::Cache;
use hydride::synth::grammar::{Grammar, Target};
use hydride::synth::lower::{lower_block, Options, Ref};
use hydride::synth::search::Limits;

const SEP: &str = "\u{1f}";

/// One protocol line: index, name, operands, operand types, results, result types, attributes.
fn line(
    index: usize,
    name: &str,
    operands: &[usize],
    types: &[&str],
    result: usize,
    ty: &str,
    attrs: &[&str],
) -> String {
    let list = |xs: &[&str]| xs.iter().map(|x| format!("{x}{SEP}")).collect::<String>();
    let ops: Vec<String> = operands.iter().map(|o| o.to_string()).collect();
    format!("{index}\t{name}\t{}\t{}\t{result}\t{ty}{SEP}\t{}\t0\n", ops.join(" "), list(types), list(attrs))
}

/// `trunc(min(max(ext a + ext b, lo), hi))` over 32 x i16, values 0 and 1 the inputs.
fn clamp_add(lo: i64) -> String {
    let (w, n) = ("vector<32xi32>", "vector<32xi16>");
    [
        line(0, "arith.constant", &[], &[], 2, w, &[&format!("value=dense<{lo}> : {w}")]),
        line(1, "arith.constant", &[], &[], 3, w, &[&format!("value=dense<32767> : {w}")]),
        line(2, "arith.extsi", &[0], &[n], 4, w, &[]),
        line(3, "arith.extsi", &[1], &[n], 5, w, &[]),
        line(4, "arith.addi", &[4, 5], &[w, w], 6, w, &[]),
        line(5, "arith.maxsi", &[6, 2], &[w, w], 7, w, &[]),
        line(6, "arith.minsi", &[7, 3], &[w, w], 8, w, &[]),
        line(7, "arith.trunci", &[8], &[w], 9, n, &[]),
        line(8, "func.return", &[9], &[n], 10, "none", &[]),
    ]
    .concat()
}

fn options(dir: &std::path::Path) -> Options {
    options_for(Target::X86Avx512, dir)
}

fn options_for(target: Target, dir: &std::path::Path) -> Options {
    Options { cache: Cache::new(Some(dir)), limits: Limits { target, ..Default::default() }, max_ops: 16 }
}

#[test]
fn a_clamped_add_becomes_a_saturating_add() {
    let grammar = Grammar::embedded().expect("the embedded class database loads");
    let dir = tempfile::tempdir().unwrap();
    let plan = lower_block(&clamp_add(-32768), grammar, &options(dir.path())).unwrap();
    assert_eq!(plan.rewrites.len(), 1, "{plan:?}");
    let r = &plan.rewrites[0];
    assert_eq!((r.root, r.ops.len(), r.ops[0].op.as_str()), (7, 1, "autollvm.adds_epi"));
    let inputs = vec![(Ref::Value(0), "vector<32xi16>".to_string()), (Ref::Value(1), "vector<32xi16>".to_string())];
    assert_eq!(r.ops[0].operands, inputs);
    // The memo gives the same plan.
    assert_eq!(lower_block(&clamp_add(-32768), grammar, &options(dir.path())).unwrap(), plan);
}

#[test]
fn a_clamp_off_by_one_is_left_alone_with_a_reason() {
    let grammar = Grammar::embedded().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let plan = lower_block(&clamp_add(-32767), grammar, &options(dir.path())).unwrap();
    assert!(plan.rewrites.is_empty(), "{plan:?}");
    assert!(plan.remarks.iter().any(|(op, why)| *op == 7 && why.contains("left unchanged")), "{plan:?}");
}

#[test]
fn unknown_targets_and_malformed_blocks_are_errors() {
    assert!(Target::parse("x86-avx512").is_ok());
    assert!(Target::parse("x86-avx2").is_ok());
    assert_eq!(Target::parse("native"), Ok(Target::Native));
    assert!(Target::parse("riscv").unwrap_err().contains("unknown target"));
    let grammar = Grammar::embedded().unwrap();
    let dir = tempfile::tempdir().unwrap();
    assert!(lower_block("0\tarith.addi\n", grammar, &options(dir.path())).is_err());
}

#[test]
fn an_avx2_target_uses_no_avx512_instruction() {
    // 256-bit clamped add: vpaddsw ymm exists in AVX2; the 512-bit form does not.
    let grammar = Grammar::embedded().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let wide = clamp_add(-32768);
    let plan = lower_block(&wide, grammar, &options_for(Target::X86Avx2, dir.path())).unwrap();
    assert!(plan.rewrites.is_empty(), "{plan:?}");
    let narrow = wide.replace("vector<32xi32>", "vector<16xi32>").replace("vector<32xi16>", "vector<16xi16>");
    let plan = lower_block(&narrow, grammar, &options_for(Target::X86Avx2, dir.path())).unwrap();
    assert_eq!(plan.rewrites.len(), 1, "{plan:?}");
    let c =
        grammar.candidates.iter().find(|c| c.class_op == plan.rewrites[0].ops[0].op && c.result.bits() == 256).unwrap();
    assert!(Target::X86Avx2.allows(&c.cpuid), "{:?}", c.cpuid);
}

#[test]
fn native_is_what_this_host_executes() {
    let host = dialectgen::isa::x86::host::Host::get();
    let grammar = Grammar::embedded().unwrap();
    let allowed: Vec<_> = grammar.candidates.iter().filter(|c| Target::Native.allows(&c.cpuid)).collect();
    assert!(!allowed.is_empty());
    for c in &grammar.candidates {
        assert_eq!(Target::Native.allows(&c.cpuid), host.executes(&c.cpuid), "{} needs {:?}", c.intrinsic, c.cpuid);
    }
    // Without VNNI in the host's features, no VNNI instruction is a candidate.
    if !host.has("avx512_vnni") {
        assert!(allowed.iter().all(|c| !c.cpuid.iter().any(|f| f.contains("VNNI"))));
    }
    assert_eq!(Target::Native.name(), format!("native={}", host.x86_target()));
}

#[test]
fn a_window_out_of_time_is_left_alone_and_not_memoized() {
    let grammar = Grammar::embedded().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut hurried = options(dir.path());
    hurried.limits.window_ms = 0;
    let plan = lower_block(&clamp_add(-32768), grammar, &hurried).unwrap();
    assert!(plan.rewrites.is_empty(), "{plan:?}");
    assert!(plan.remarks.iter().any(|(_, why)| why.contains("time limit")), "{plan:?}");
    // With time, the same window is found: nothing was memoized.
    let plan = lower_block(&clamp_add(-32768), grammar, &options(dir.path())).unwrap();
    assert_eq!(plan.rewrites.len(), 1, "{plan:?}");
}
