"""The Halide target of each benchmark target: adding a target is a line.

`x86-native` is resolved from the host's (possibly withheld) features by
`for_x86_host`. Cross targets are compiled, never run: their figures are
hot-loop instructions and llvm-mca cycles on the named core.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class HalideTarget:
    halide: str  # Halide's target string (no_runtime is added per pipeline)
    mca_triple: str  # llvm-mca's -mtriple
    mca_cpu: str  # llvm-mca's -mcpu: the core whose model prices the hot loop (None: count packets)


TARGETS = {
    "x86-avx512": HalideTarget("x86-64-linux-tune_znver4-avx512_zen4", "x86_64-linux-gnu", "znver4"),
    "x86-avx2": HalideTarget("x86-64-linux-tune_znver3-avx-avx2-f16c-fma-sse41", "x86_64-linux-gnu", "znver3"),
    # Arm v8.6-A has the dot-product and int8 matrix (i8mm) instructions; Neoverse V1 implements both.
    "aarch64-neon-dotprod-i8mm": HalideTarget("arm-64-linux-arm_dot_prod-armv86a", "aarch64-linux-gnu", "neoverse-v1"),
    # llvm-mca has no Hexagon model (v66 has itineraries only): hot loops are measured in packets.
    "hexagon-hvx128": HalideTarget("hexagon-32-noos-hvx_128-hvx_v66", "hexagon", None),
}


# What Halide's own host detection asks of a CPU for each AVX-512 feature set
# (Halide 21's Target.cpp): Sapphire Rapids adds AVX512-FP16 and AVX-VNNI to
# Zen 4's, which adds VNNI and BF16 to Cannon Lake's.
AVX512_SKYLAKE = {"avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl"}
AVX512_ZEN4 = AVX512_SKYLAKE | {"avx512ifma", "avx512vbmi", "avx512_vnni", "avx512_bf16"}
AVX512_SAPPHIRERAPIDS = AVX512_ZEN4 | {"avx512_fp16", "avx_vnni"}


def for_x86_host(features, mca_cpu):
    """The Halide target for an x86 host with these /proc/cpuinfo flags: the
    widest feature set Halide names that the host has (Halide tunes for AMD
    cores only)."""
    if AVX512_SAPPHIRERAPIDS <= features:
        isa = "avx512_sapphirerapids"
    elif AVX512_ZEN4 <= features:
        isa = "avx512_zen4"
    elif AVX512_SKYLAKE <= features:
        isa = "avx512_skylake"
    elif {"avx2", "fma", "f16c"} <= features:
        isa = "avx-avx2-f16c-fma-sse41"
    elif "sse4_1" in features:
        isa = "sse41"
    else:
        isa = ""
    tune = f"-tune_{mca_cpu}" if mca_cpu.startswith("znver") else ""
    return HalideTarget(f"x86-64-linux{tune}" + (f"-{isa}" if isa else ""), "x86_64-linux-gnu", mca_cpu)
