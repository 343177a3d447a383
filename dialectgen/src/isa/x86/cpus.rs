//! The x86 CPUs whose costs `hydride gen` records (`generated/x86/cpu-costs.json`):
//! AMD Zen 3 to 5, Intel from Skylake-AVX512 to Emerald Rapids, Alder Lake,
//! Rocket Lake (what LLVM's host detection names some virtualized Xeons),
//! and the generic x86-64-v3 and -v4 levels. Each is compiled for with its
//! own features (`-march=<cpu>`); what it lacks it does not price.

use crate::cpu_costs::asm::CommentStyle;
use crate::cpu_costs::set::CpuSet;

pub const CPUS: CpuSet = CpuSet {
    triple: "x86_64-linux-gnu",
    cpus: &[
        "znver3",
        "znver4",
        "znver5",
        "skylake-avx512",
        "icelake-server",
        "rocketlake",
        "sapphirerapids",
        "emeraldrapids",
        "alderlake",
        "x86-64-v3",
        "x86-64-v4",
    ],
    clang_flags: |cpu| vec![format!("-march={cpu}")],
    mattr: |_| String::new(),
    c_header: "#include <immintrin.h>",
    comments: CommentStyle::Hash,
    narrower: &[("x86-avx2", "-avx512f")],
    load: "vmovdqu (%rdi), %xmm0",
    store: "vmovdqu %xmm0, (%rdi)",
};
