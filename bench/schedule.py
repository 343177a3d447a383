"""How each suite kernel is scheduled, said once: the description its Halide
pipeline (bench/halide/) is built from and its scheduled MLIR
(bench/scheduled.py) is emitted from, so the two run the same loops.

- Vector width: the target's natural width for the type the schedule names
  (`natural_lanes`): 128-bit NEON, 256- or 512-bit x86, 1024-bit HVX.
- Separable filters (`Separable`): a horizontal pass along x and a vertical
  pass along y over it; the horizontal pass is computed one row at a time
  into a rolling buffer of rows kept for each strip of `STRIP_ROWS` output
  rows (Halide's `store_at` the strip, `compute_at` the row), so each of its
  rows is computed once per strip.
- Dot products (`DOT_GROUP`): the reduction in groups of four elements
  summed into a vector of i32 lanes (rfactor), the lanes summed once at the
  end; the layers unroll their batch rows, and the convolution
  `CONV_FILTERS` filters, so each loaded vector of the other operand serves
  them all.
- Depthwise convolution: `DEPTHWISE_VECTORS` natural i32 vectors of channels
  per step; squared L2 norms: `L2NORM_ROWS` rows per step, each row one
  vector reduction.
- The last vector of a row is shifted inwards to end at the row's end
  (Halide's default tail), so rows need not be whole vectors.
"""

import re
from dataclasses import dataclass

import suite

STRIP_ROWS = 64
DOT_GROUP = 4
CONV_FILTERS = 4
DEPTHWISE_VECTORS = 4
L2NORM_ROWS = 4


def natural_lanes(vector_bits, bits):
    """Lanes of a `bits`-wide type in one vector of the target."""
    return vector_bits // bits


def row_tap(dx):
    """The horizontal pass's input at column offset `dx`."""
    return suite.tap("src", dx)


def buffer_tap(dy, stride):
    """The vertical pass's input: the horizontal pass's row `dy` away, as a
    flat offset into an image of row stride `stride`."""
    return suite.tap("h", dy * stride)


@dataclass(frozen=True)
class Separable:
    """out = vertical over rows of h, h = horizontal over columns of src."""
    radius: int
    horizontal: tuple  # over row_tap(dx)
    vertical: tuple  # over buffer_tap(dy), the finishing steps included
    h_bits: int  # the element width of h
    stride: int

    def horizontal_arrays(self):
        return {"src": 8}

    def vertical_arrays(self):
        return {"h": self.h_bits}


def _fold(fn, xs):
    out = xs[0]
    for x in xs[1:]:
        out = fn(out, x)
    return out


def dilate(k, stride):
    r = k // 2
    h = _fold(suite.umax, [row_tap(d) for d in range(-r, r + 1)])
    v = _fold(suite.umax, [buffer_tap(d, stride) for d in range(-r, r + 1)])
    return Separable(r, h, v, 8, stride)


def box_blur(k, stride):
    r = k // 2
    h = suite.add(*[suite.ext(row_tap(d), 16) for d in range(-r, r + 1)])
    v = suite.trunc(suite.div_u(suite.add(*[buffer_tap(d, stride) for d in range(-r, r + 1)]),
                                suite.const(k * k, 16)), 8)
    return Separable(r, h, v, 16, stride)


def gaussian(k, stride):
    r = k // 2
    w = suite.binomial(k)
    total = sum(w) ** 2
    bits = 16 if 255 * total + total // 2 < 65536 else 32

    def weighted(taps):
        return suite.add(*[t if w[i] == 1 else suite.mul(t, suite.const(w[i], bits)) for i, t in enumerate(taps)])

    h = weighted([suite.ext(row_tap(d), bits) for d in range(-r, r + 1)])
    shift = total.bit_length() - 1
    v = suite.trunc(suite.shr_u(suite.add(weighted([buffer_tap(d, stride) for d in range(-r, r + 1)]),
                                          suite.const(total // 2, bits)), suite.const(shift, bits)), 8)
    return Separable(r, h, v, bits, stride)


SEPARABLE = {"dilate": dilate, "box_blur": box_blur, "gaussian": gaussian}


def separable(kernel):
    """The separable form of a square image filter `<family><k>x<k>`, or None."""
    m = re.fullmatch(r"([a-z_]+?)(\d)x\d", kernel.name)
    if not m or m.group(1) not in SEPARABLE or kernel.stencil is None:
        return None
    return SEPARABLE[m.group(1)](int(m.group(2)), kernel.stencil.stride)
