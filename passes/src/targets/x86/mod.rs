//! x86 (SSE to AVX-512): its targets, tuning and lowering.

use super::isa::{IsaTarget, OfflineRules, TargetSpec, Tuning};
use dialectgen::isa::x86::host::{x86_target_allows, Host};

pub struct X86;

/// The CPU `native` is priced on: LLVM's name of the host, corrected where
/// the host has vector extensions that CPU lacks
/// (`dialectgen::isa::x86::host_cpu`).
fn tuned_native_cpu() -> String {
    dialectgen::isa::x86::host_cpu::identify(&crate::host_cpu::name(), Host::get()).cpu
}

fn native_is_avx512() -> bool {
    Host::get().x86_target().starts_with("x86-avx512")
}

static TARGETS: [TargetSpec; 3] = [
    TargetSpec {
        name: "native",
        help: "the x86 this host executes, less HYDRIDE_WITHHOLD_FEATURES",
        resolved: || format!("native={}", Host::get().x86_target()),
        register_bits: || if native_is_avx512() { 512 } else { 256 },
        vector_registers: || if native_is_avx512() { 32 } else { 16 },
        allows: |features| !features.is_empty() && Host::get().executes(features),
        // As `llc -mcpu=native` resolves it, corrected where the host has
        // vector extensions LLVM's CPU lacks (as `hydride host` reports).
        default_cpu: tuned_native_cpu,
    },
    TargetSpec {
        // Zen 4's extensions (see `x86_target_allows`), priced on Zen 4 unless told.
        name: "x86-avx512",
        help: "all modelled x86",
        resolved: || "x86-avx512".into(),
        register_bits: || 512,
        vector_registers: || 32,
        allows: |features| features.iter().all(|c| x86_target_allows("x86-avx512", c)),
        default_cpu: || "znver4".into(),
    },
    TargetSpec {
        name: "x86-avx2",
        help: "SSE2 to AVX2",
        resolved: || "x86-avx2".into(),
        register_bits: || 256,
        vector_registers: || 16,
        allows: |features| !features.is_empty() && features.iter().all(|c| x86_target_allows("x86-avx2", c)),
        default_cpu: || "x86-64-v3".into(),
    },
];

impl IsaTarget for X86 {
    fn name(&self) -> &'static str {
        "x86"
    }

    fn title(&self) -> &'static str {
        "x86"
    }

    fn default_target(&self) -> &'static str {
        "native"
    }

    fn targets(&self) -> &'static [TargetSpec] {
        &TARGETS
    }

    /// Column extrema: with AVX-512 VBMI (one `vpermt2b` per inner column)
    /// 1.5-3.8x faster on dilate 3x3 to 7x7, AVX2 1.4-3.4x. Deinterleaved
    /// extrema on max_pool's 512-bit rows (hot-loop instructions):
    /// x86-avx2 51 -> 31, x86-avx512 73 -> 48. `vpmovzxbw`/`vpmovwb` cross
    /// 128-bit lanes. Pair sums are `vpmaddubsw`. LLVM's chains extend from
    /// memory and factor weights, as llc's loops show (x86-avx2 gaussian7x7:
    /// its 25 pairs ran 12% slower than LLVM's loop otherwise).
    fn tuning(&self) -> Tuning {
        Tuning {
            column_extrema_from_taps: 1,
            deinterleave_free_with_load: false,
            widening_crosses_lanes: true,
            pair_sums_as_dot: true,
            even_odd_identities: true,
            llvm_extends_and_factors: true,
            llvm_factors_weights: false,
            pairs_in_halves: false,
            lanewise_widening_macs: false,
        }
    }

    fn dialect_irdl(&self) -> &'static str {
        include_str!("../../../../generated/x86/hydride_x86.irdl.mlir")
    }

    fn lowering(&self) -> &'static str {
        include_str!("../../../../generated/x86/llvm-lowering.json")
    }

    /// Idioms at SSE's, AVX2's and AVX-512's widths, searched at both
    /// fixed targets.
    fn cpu_costs(&self) -> Option<&'static str> {
        Some(include_str!("../../../../generated/x86/cpu-costs.json"))
    }

    fn offline_rules(&self) -> Option<OfflineRules> {
        Some(OfflineRules {
            widths: &[128, 256, 512],
            targets: &["x86-avx512", "x86-avx2"],
            generated: include_str!("../../../../generated/x86/rules.json"),
        })
    }
}

#[cfg(test)]
mod cpu_tests {
    // The CPU tables as the x86 targets use them (`crate::targets::Cpu`).
    use crate::synth::target::{Target, UnknownCpu};

    #[test]
    fn named_targets_default_to_a_priced_cpu_and_named_cpus_must_be_priced() {
        let zen4 = Target::named("x86-avx512").cpu("").unwrap();
        assert_eq!(zen4.name(), "znver4");
        assert!(zen4.is_priced());
        assert_eq!(Target::named("x86-avx2").cpu("").unwrap().name(), "x86-64-v3");
        assert!(matches!(Target::named("x86-avx2").cpu("pentium4"), Err(UnknownCpu::NotPriced { .. })));
    }

    #[test]
    fn a_narrower_target_prices_generic_operations_at_its_own_features() {
        // One 512-bit extension on Skylake-AVX512; two 256-bit ones at x86-avx2 there.
        let key = "zext_load v32i8 v32i16";
        let wide = Target::named("x86-avx512").cpu("skylake-avx512").unwrap().generic(key).unwrap();
        let split = Target::named("x86-avx2").cpu("skylake-avx512").unwrap().generic(key).unwrap();
        assert_eq!((wide.instructions, split.instructions), (1, 2));
    }

    #[test]
    fn every_instruction_of_the_grammar_is_priced_on_a_cpu_that_runs_it() {
        let zen4 = Target::named("x86-avx512").cpu("znver4").unwrap();
        for intrinsic in ["_mm512_dpbusd_epi32", "_mm256_maddubs_epi16", "_mm512_packus_epi16"] {
            assert!(zen4.instruction(intrinsic).is_some_and(|p| p.uops > 0), "{intrinsic}");
        }
        let zen3 = Target::named("x86-avx2").cpu("znver3").unwrap();
        assert!(zen3.instruction("_mm512_dpbusd_epi32").is_none(), "Zen 3 has no AVX-512");
        assert!(zen3.instruction("_mm256_maddubs_epi16").is_some());
    }

    /// Why `x86-avx512` computes in 512-bit registers on every CPU that
    /// runs it: by each CPU's model, an instruction's 512-bit form costs
    /// at most two of its 256-bit form (the same bytes), but for
    /// `vpconflictd` on Sapphire and Emerald Rapids, which no `arith` code
    /// asks for. (The VEX and EVEX encodings of one instruction, which LLVM
    /// chooses between, are priced alike: they are one entry.)
    #[test]
    fn no_cpu_of_the_avx512_set_prices_a_512_bit_instruction_above_two_256_bit_ones() {
        use crate::targets::isa::IsaTarget;
        let costs: dialectgen::cpu_costs::CpuCosts =
            serde_json::from_str(super::X86.cpu_costs().expect("x86 has CPU costs")).expect("the table parses");
        let mut pairs = 0;
        for cpu in ["znver4", "znver5", "icelake-server", "rocketlake", "sapphirerapids", "emeraldrapids"] {
            let priced = Target::named("x86-avx512").cpu(cpu).unwrap();
            let table = &costs.cpus[cpu];
            for (name, wide) in &table.instructions {
                let Some(narrow) =
                    name.strip_prefix("_mm512_").and_then(|n| table.instructions.get(&format!("_mm256_{n}")))
                else {
                    continue;
                };
                pairs += 1;
                let (w, n) = (priced.throughput([wide]).unwrap(), priced.throughput([narrow]).unwrap());
                let conflict = name.contains("conflict_epi32") && cpu.ends_with("rapids");
                assert!(w <= 2.0 * n + 1e-9 || conflict, "{name} on {cpu}: {w} cycles, against {n} for 256 bits");
            }
        }
        assert!(pairs > 6 * 700, "{pairs} pairs");
    }
}
