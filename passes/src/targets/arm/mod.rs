//! AArch64 Advanced SIMD (NEON): its targets, tuning and lowering.

use super::isa::{IsaTarget, OfflineRules, TargetSpec, Tuning};

pub struct Arm;

/// Whether every feature is one of `allowed` (and there is one).
fn only(features: &[String], allowed: &[&str]) -> bool {
    !features.is_empty() && features.iter().all(|f| allowed.contains(&f.as_str()))
}

static TARGETS: [TargetSpec; 2] = [
    TargetSpec {
        // 128-bit vectors.
        name: "aarch64-neon",
        help: "Armv8.0 Advanced SIMD",
        resolved: || "aarch64-neon".into(),
        register_bits: || 128,
        vector_registers: || 32,
        allows: |features| only(features, &["neon"]),
        default_cpu: || "neoverse-n1".into(),
    },
    TargetSpec {
        // `sdot`, `usdot`, `smmla`, …; rdm is in v8.1.
        name: "aarch64-neon-dotprod-i8mm",
        help: "Armv8.6 with dot product and i8mm",
        resolved: || "aarch64-neon-dotprod-i8mm".into(),
        register_bits: || 128,
        vector_registers: || 32,
        allows: |features| only(features, &["neon", "rdm", "dotprod", "i8mm"]),
        default_cpu: || "neoverse-v1".into(),
    },
];

impl IsaTarget for Arm {
    fn name(&self) -> &'static str {
        "arm"
    }

    fn title(&self) -> &'static str {
        "Arm NEON"
    }

    fn default_target(&self) -> &'static str {
        "aarch64-neon-dotprod-i8mm"
    }

    fn targets(&self) -> &'static [TargetSpec] {
        &TARGETS
    }

    /// Column extrema (one `tbl` per inner column): 1.2-4.7x fewer cycles
    /// on dilate 3x3 to 7x7. A deinterleaved row is `ld2`, free with its
    /// load; the full-width form pays `uzp1`/`uzp2` (max_pool: 52 -> 54).
    fn tuning(&self) -> Tuning {
        Tuning {
            column_extrema_from_taps: 1,
            deinterleave_free_with_load: true,
            widening_crosses_lanes: false,
            pair_sums_as_dot: false,
            even_odd_identities: false,
            llvm_extends_and_factors: false,
            llvm_factors_weights: true,
            pairs_in_halves: false,
            lanewise_widening_macs: true,
        }
    }

    fn cpu_costs(&self) -> Option<&'static str> {
        Some(include_str!("../../../../generated/arm/cpu-costs.json"))
    }

    /// Idioms at NEON's width, searched at both targets.
    fn offline_rules(&self) -> Option<OfflineRules> {
        Some(OfflineRules {
            widths: &[128],
            targets: &["aarch64-neon", "aarch64-neon-dotprod-i8mm"],
            generated: include_str!("../../../../generated/arm/rules.json"),
        })
    }

    fn dialect_irdl(&self) -> &'static str {
        include_str!("../../../../generated/arm/hydride_arm.irdl.mlir")
    }

    fn lowering(&self) -> &'static str {
        include_str!("../../../../generated/arm/llvm-lowering.json")
    }
}

#[cfg(test)]
mod cpu_tests {
    use crate::synth::target::Target;

    #[test]
    fn each_target_defaults_to_a_priced_cpu() {
        assert_eq!(Target::named("aarch64-neon").cpu("").unwrap().name(), "neoverse-n1");
        let v1 = Target::named("aarch64-neon-dotprod-i8mm").cpu("").unwrap();
        assert_eq!(v1.name(), "neoverse-v1");
        assert!(v1.instruction("vusdotq_s32").is_some_and(|p| p.instructions == 1));
    }
}
