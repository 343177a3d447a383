//! The AArch64 CPUs whose costs `hydride gen` records
//! (`generated/arm/cpu-costs.json`): Neoverse N1, V1, N2, V2 and
//! Cortex-A78. Each is priced with the grammar's extensions (dot product,
//! i8mm, as `aarch64-neon-dotprod-i8mm` uses them) on its own model; an
//! instruction its model lacks is not priced there.

use crate::cpu_costs::asm::CommentStyle;
use crate::cpu_costs::set::CpuSet;

/// The extensions beyond the CPU's own that the grammar's instructions use.
const EXTENSIONS: &str = "+v8.6a,+dotprod,+i8mm,+sha3,+rdm";

pub const CPUS: CpuSet = CpuSet {
    triple: "aarch64-linux-gnu",
    cpus: &["neoverse-n1", "neoverse-v1", "neoverse-n2", "neoverse-v2", "cortex-a78"],
    clang_flags: |cpu| {
        vec!["--target=aarch64-linux-gnu".into(), format!("-mcpu={cpu}+i8mm+dotprod+sha3+rdm"), "-ffreestanding".into()]
    },
    mattr: |_| EXTENSIONS.into(),
    c_header: "#include <arm_neon.h>",
    comments: CommentStyle::Slashes,
    narrower: &[],
    load: "ldr q0, [x0]",
    store: "str q0, [x0]",
};
