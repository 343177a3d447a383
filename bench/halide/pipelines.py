"""Halide 21 pipelines for the benchmark suite (bench/suite.py), one per
kernel, written with the schedules a Halide programmer would give them for
single-threaded code: the target's vector width, sliding windows for
separable filters, rfactor'd dot products whose inner four-element sums
Halide maps to the target's dot instructions, and Halide's saturating,
rounding and widening intrinsics where they fit.

`PIPELINES` maps a kernel name to its builder. A builder takes the kernel
and a `halide.Target` and returns a `Pipeline`: its input parameters and
output functions, each with the C array of the suite it views (`Arg`).
`build.py` compiles them ahead of time; `targets.py` names the targets.
"""

from layers import LAYER_PIPELINES
from rows import ROW_PIPELINES
from stencils import stencil_pipeline

PIPELINES = {**LAYER_PIPELINES, **ROW_PIPELINES}


def pipeline_for(kernel, target):
    """The kernel's Halide pipeline for `target`."""
    if kernel.name in PIPELINES:
        return PIPELINES[kernel.name](kernel, target)
    if kernel.stencil is not None:
        return stencil_pipeline(kernel, target)
    raise KeyError(f"no Halide pipeline for kernel {kernel.name}")
