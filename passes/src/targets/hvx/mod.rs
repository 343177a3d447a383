//! Hexagon HVX (v66, 128-byte vectors): its targets, tuning and lowering.

use super::isa::{IsaTarget, TargetSpec, Tuning};

pub struct Hvx;

static TARGETS: [TargetSpec; 1] = [TargetSpec {
    // 1024-bit vectors.
    name: "hexagon-hvx128",
    help: "HVX v66, 128-byte vectors",
    resolved: || "hexagon-hvx128".into(),
    register_bits: || 1024,
    vector_registers: || 32,
    allows: |features| !features.is_empty() && features.iter().all(|f| f == "hvx"),
    // Priced by packets: no CPU models.
    default_cpu: String::new,
}];

impl IsaTarget for Hvx {
    fn name(&self) -> &'static str {
        "hvx"
    }

    fn title(&self) -> &'static str {
        "Hexagon HVX"
    }

    fn default_target(&self) -> &'static str {
        "hexagon-hvx128"
    }

    fn targets(&self) -> &'static [TargetSpec] {
        &TARGETS
    }

    /// Column extrema (one `valign` per inner column): 0.91x at 3x3 in
    /// packets, 1.05x at 5x5, 1.35x at 7x7, so from 5 taps wide.
    /// Deinterleaved extrema on max_pool: 154 -> 146 packets. The widening
    /// multiply-accumulates take pairs in the halves of a register pair; the
    /// plain count of LLVM's chains is what its pairs bear out (gaussian3x3:
    /// 31 -> 28 packets).
    fn tuning(&self) -> Tuning {
        Tuning {
            column_extrema_from_taps: 5,
            deinterleave_free_with_load: false,
            widening_crosses_lanes: false,
            pair_sums_as_dot: false,
            even_odd_identities: false,
            llvm_extends_and_factors: false,
            llvm_factors_weights: false,
            pairs_in_halves: true,
            lanewise_widening_macs: false,
        }
    }

    fn dialect_irdl(&self) -> &'static str {
        include_str!("../../../../generated/hvx/hydride_hvx.irdl.mlir")
    }

    fn lowering(&self) -> &'static str {
        include_str!("../../../../generated/hvx/llvm-lowering.json")
    }
}

#[cfg(test)]
mod cpu_tests {
    use crate::synth::target::{Target, UnknownCpu};

    #[test]
    fn hvx_has_no_cpu_models_and_refuses_a_cpu() {
        let hvx = Target::named("hexagon-hvx128").cpu("").unwrap();
        assert!(!hvx.is_priced() && hvx.name().is_empty());
        assert!(matches!(Target::named("hexagon-hvx128").cpu("znver4"), Err(UnknownCpu::NoModels { .. })));
    }
}
