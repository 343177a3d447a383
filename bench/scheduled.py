"""The scheduled form of every suite kernel for a target: the same
algorithm, loops and vector width as its Halide pipeline on that target
(both read bench/schedule.py), as MLIR for LLVM's path and for hydride,
beside the direct form bench/suite.py writes. A scheduled kernel keeps the
direct one's name, parameters, C reference and Halide pipeline; only its
MLIR differs.

Forms: `direct` (bench/suite.py's MLIR, one vector step per iteration at
the suite's width) and `scheduled`."""

from dataclasses import replace

import scheduled_layers
import scheduled_maps
import scheduled_rows

FORMS = ("direct", "scheduled")


def chosen(choice):
    """The forms a `--form` choice names: one of FORMS, or "both"."""
    return FORMS if choice == "both" else (choice,)


def stem(target, form):
    """The results' file stem of a target's run in `form`: the direct
    form's is the target's alone."""
    return f"bench-{target}" + ("" if form == "direct" else f"-{form}")

BY_NAME = {
    "average_pool": scheduled_rows.pool,
    "max_pool": scheduled_rows.pool,
    "softmax": scheduled_rows.softmax,
    "l2norm": scheduled_rows.l2norm,
    "depthwise_conv": scheduled_rows.depthwise_conv,
    "mlp_matmul": scheduled_layers.mlp_matmul,
    "conv_nn": scheduled_layers.conv_nn,
    "conv_nn_contract": lambda k, bits: scheduled_layers.conv_nn(k, bits, contract=True),
    "matmul_b1_contract": lambda k, bits: scheduled_layers.matmul(k, bits, contract=True),
}


def scheduled_mlir(k, vector_bits):
    """The MLIR of `k` scheduled as its Halide pipeline is for a target of
    `vector_bits`-bit vectors."""
    if k.name in BY_NAME:
        return BY_NAME[k.name](k, vector_bits)
    if k.dims and "epilogue" in k.dims:
        return scheduled_layers.matmul(k, vector_bits)
    if k.stencil is not None:
        return scheduled_maps.scheduled_map(k, vector_bits)
    raise KeyError(f"no scheduled form for kernel {k.name}")


def in_form(kernels, form, vector_bits):
    """`kernels` in `form` for a target of `vector_bits`-bit vectors."""
    if form == "direct":
        return kernels
    return [replace(k, mlir=scheduled_mlir(k, vector_bits), what=f"{k.what}; scheduled as Halide's") for k in kernels]
