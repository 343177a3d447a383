"""The C harness of one kernel: inputs from a fixed xorshift stream, the
scalar reference, every path run on the same inputs in one process, each
path's outputs compared with the reference, then timed. Each repetition
times every path once, in the order of `paths` and reversed in every other
repetition, so a drift of the host's speed weighs on all paths alike. Per
path it reports the median time over the repetitions and the median, over
the repetitions, of its time divided by the last path's in the same
repetition: the ratio of measurements taken a few milliseconds apart,
which a noisy host disturbs less than it does the ratio of two medians.

A path is called one of three ways: `memref` (an MLIR function: each memref
expanded to pointer, pointer, offset, size, stride), `plain` (a C function
taking the arrays) or `halide` (an AOT Halide function taking one
halide_buffer_t per argument, described in the suite's terms by its
manifest entry)."""

from dataclasses import dataclass, field

import suite

HALIDE_CODES = {0: "halide_type_int", 1: "halide_type_uint"}


@dataclass
class Path:
    tag: str  # llvm, clang, halide, hydride
    symbol: str
    convention: str  # memref, plain, halide
    halide_args: list = field(default_factory=list)  # manifest "args" for halide


def array_name(k, a, tag):
    return f"{a}_{tag}" if a in k.outputs else a


def declaration(k, path):
    if path.convention == "memref":
        return f"void {path.symbol}({', '.join('void *, void *, int64_t, int64_t, int64_t' for _ in k.params)});"
    if path.convention == "plain":
        return f"void {path.symbol}({', '.join('void *' for _ in k.params)});"
    return f"int {path.symbol}({', '.join('struct halide_buffer_t *' for _ in path.halide_args)});"


def call(k, path):
    if path.convention == "memref":
        return f"{path.symbol}({', '.join(f'MR({array_name(k, a, path.tag)}, {n})' for a, _, n in k.params)})"
    if path.convention == "plain":
        return f"{path.symbol}({', '.join(array_name(k, a, path.tag) for a, _, _ in k.params)})"
    return f"{path.symbol}({', '.join(f'&hb_{i}' for i in range(len(path.halide_args)))})"


def halide_buffers(k, path):
    """halide_buffer_t declarations over the harness's arrays."""
    lines = []
    for i, arg in enumerate(path.halide_args):
        dims = ", ".join(f"{{{lo}, {extent}, {stride}, 0}}" for lo, extent, stride in arg["dims"])
        array = f"{arg['array']}_{path.tag}" if arg.get("output") else arg["array"]
        lines += [f"  halide_dimension_t hd_{i}[] = {{{dims}}};",
                  f"  struct halide_buffer_t hb_{i}; memset(&hb_{i}, 0, sizeof hb_{i});",
                  f"  hb_{i}.host = (uint8_t *)({array} + {arg['offset']});",
                  f"  hb_{i}.type.code = {HALIDE_CODES[arg['code']]}; hb_{i}.type.bits = {arg['bits']}; hb_{i}.type.lanes = 1;",
                  f"  hb_{i}.dimensions = {len(arg['dims'])}; hb_{i}.dim = hd_{i};"]
    return lines


def harness(k, paths, reps, timed=True, reference=True):
    """C source: prints `<tag> <ok> <median ns> <median ratio>` per path,
    the ratio to the last path's time in the same repetition (see the
    module doc); exits non-zero if any path differs. Untimed (a target run
    under qemu, whose time is not performance), the time printed is 0, with
    no ratio, and the program uses no floating
    point, so it links on targets without a floating-point runtime. Without
    `reference` (a program traced for its cost per call), the paths are
    called once each and nothing is compared."""
    ref_args = ", ".join(f"{a}{'_ref' if a in k.outputs else ''}" for a, _, _ in k.params)
    halide = any(p.convention == "halide" for p in paths)
    c = ["#include <stdint.h>", "#include <stdio.h>", "#include <stdlib.h>", "#include <string.h>", "#include <time.h>"]
    if halide:
        c.append('#include "HalideRuntime.h"')
    c += ["#define MR(p, n) (void *)(p), (void *)(p), (int64_t)0, (int64_t)(n), (int64_t)1", *[declaration(k, p) for p in paths], k.c_reference,
          "static uint64_t state = 0x9e3779b97f4a7c15ull;",
          "static uint64_t next(void) { state ^= state << 13; state ^= state >> 7; state ^= state << 17; return state; }",
          "static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e9 + t.tv_nsec; }",
          "static int cmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }",
          "int main(void) {"]
    for a, bits, n in k.params:
        t = suite.C_TYPE[bits]
        names = [f"{a}_ref"] + [f"{a}_{p.tag}" for p in paths] if a in k.outputs else [a]
        for nm in names:
            c.append(f"  {t} *{nm} = aligned_alloc(64, ({n} * sizeof({t}) + 63) / 64 * 64); memset({nm}, 0, {n} * sizeof({t}));")
        if a not in k.outputs:
            c.append(f"  for (long i = 0; i < {n}; ++i) {a}[i] = ({t})next();")
    for p in paths:
        if p.convention == "halide":
            c += halide_buffers(k, p)
    if not reference:
        c += [f"  {call(k, p)};" for p in paths]
        c += ["  return 0;", "}"]
        return "\n".join(c) + "\n"
    c.append(f"  ref_{k.name}({ref_args});")
    for p in paths:
        c.append(f"  if ({call(k, p)} != 0) {{ fprintf(stderr, \"{p.tag}: the pipeline returned an error\\n\"); return 2; }}"
                 if p.convention == "halide" else f"  {call(k, p)};")
    for p in paths:
        same = " && ".join(f"memcmp({a}_ref, {a}_{p.tag}, {n} * sizeof({suite.C_TYPE[bits]})) == 0"
                           for a, bits, n in k.params if a in k.outputs)
        c.append(f"  int ok_{p.tag} = {same};")
    if not timed:
        c += [f"  printf(\"{p.tag} %d 0\\n\", ok_{p.tag});" for p in paths]
        c += [f"  return !({' && '.join(f'ok_{p.tag}' for p in paths)});", "}"]
        return "\n".join(c) + "\n"
    c.append(f"  enum {{ REPS = {reps}, PATHS = {len(paths)} }}; double t[PATHS][REPS], ratio[PATHS][REPS];")
    # Calls per timed run: enough for about 2 ms of the first path, so short kernels are not timer noise.
    c.append(f"  double c0 = now(); {call(k, paths[0])}; double once = now() - c0;")
    c.append("  long inner = once > 2e6 ? 1 : (long)(2e6 / (once + 1)) + 1;")
    c.append("  for (int r = 0; r < REPS; ++r) {")
    c.append("    for (int s = 0; s < PATHS; ++s) {")
    c.append("      int q = r % 2 ? PATHS - 1 - s : s;")
    c.append("      double t0 = now();")
    c.append("      switch (q) {")
    for i, p in enumerate(paths):
        c.append(f"      case {i}: for (long i = 0; i < inner; ++i) {call(k, p)}; break;")
    c.append("      }")
    c.append("      t[q][r] = (now() - t0) / inner;")
    c.append("    }")
    c.append("    for (int q = 0; q < PATHS; ++q) ratio[q][r] = t[q][r] / t[PATHS - 1][r];")
    c.append("  }")
    c.append("  int all_ok = 1;")
    for i, p in enumerate(paths):
        c.append(f"  qsort(t[{i}], REPS, sizeof(double), cmp); qsort(ratio[{i}], REPS, sizeof(double), cmp);")
        c.append(f"  printf(\"{p.tag} %d %.0f %.6f\\n\", ok_{p.tag}, t[{i}][REPS / 2], ratio[{i}][REPS / 2]); all_ok &= ok_{p.tag};")
    c.append("  return !all_ok;")
    c.append("}")
    return "\n".join(c) + "\n"
