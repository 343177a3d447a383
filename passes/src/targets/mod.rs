//! The instruction sets the passes lower to, one folder each
//! (`targets/<isa>/`, as Cranelift's `isa/<arch>/`), each an [`IsaTarget`],
//! and [`REGISTRY`], which lists them. Adding an ISA is its folder and one
//! line there; nothing under `ir/` or `synth/` names an ISA.

mod arm;
mod cpu;
mod hvx;
mod isa;
mod x86;

pub use cpu::{Cpu, UnknownCpu};
pub use isa::{IsaTarget, OfflineRules, TargetSpec, Tuning, MAX_ISAS, MAX_TARGETS};

/// Every ISA, in the order their dialects and passes are registered.
pub static REGISTRY: [&dyn IsaTarget; 3] = [&x86::X86, &arm::Arm, &hvx::Hvx];

/// Every target name of every ISA, comma-separated.
pub fn target_names() -> String {
    REGISTRY.iter().flat_map(|isa| isa.targets()).map(|t| t.name).collect::<Vec<_>>().join(", ")
}

/// The `target` option's `--help`.
pub fn target_help() -> &'static str {
    static HELP: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    HELP.get_or_init(|| {
        let all: Vec<String> =
            REGISTRY.iter().flat_map(|isa| isa.targets()).map(|t| format!("{} ({})", t.name, t.help)).collect();
        let (last, rest) = all.split_last().expect("at least one target");
        format!("Target instruction set: {} or {last}", rest.join(", "))
    })
}

/// The `cpu` option's `--help`: what it means and each target's default.
pub fn cpu_help() -> &'static str {
    static HELP: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    HELP.get_or_init(|| {
        let defaults: Vec<String> = REGISTRY
            .iter()
            .flat_map(|isa| isa.targets())
            .filter(|t| t.name != "native")
            .map(|t| {
                let cpu = (t.default_cpu)();
                format!("{} {}", t.name, if cpu.is_empty() { "none (priced by packets)".into() } else { cpu })
            })
            .collect();
        format!(
            "CPU to price code for, by LLVM's name (as llc -mcpu; 'native': this host's, as hydride host names it). \
             Each rewrite that chooses between forms takes the one cheaper on this CPU's scheduling model. Default: the \
             host's for native; {}",
            defaults.join(", ")
        )
    })
}

#[cfg(test)]
mod tests {
    use super::REGISTRY;

    #[test]
    fn names_are_unique_and_defaults_are_targets_of_their_isa() {
        let mut names: Vec<&str> = REGISTRY.iter().map(|i| i.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), REGISTRY.len());
        let mut targets: Vec<&str> = REGISTRY.iter().flat_map(|i| i.targets()).map(|t| t.name).collect();
        let count = targets.len();
        targets.sort_unstable();
        targets.dedup();
        assert_eq!(targets.len(), count, "a target name is used twice");
        assert!(REGISTRY.len() <= super::MAX_ISAS);
        for isa in REGISTRY {
            assert!(isa.targets().len() <= super::MAX_TARGETS, "{}", isa.name());
            assert!(isa.targets().iter().any(|t| t.name == isa.default_target()), "{}", isa.name());
        }
    }
}
