"""Map kernels (image filters, element-wise layers): the suite's expression
lowered to a Halide expression over (x, y), with the schedules a Halide
programmer writes: vectorized at the output type's natural width; box blur,
binomial blur and dilation written separably, their horizontal pass kept in
a sliding window of rows; intrinsics where the definition is one
(saturating add)."""

import halide as hl
import schedule
import suite

from args import Pipeline, image, vector_size

x, y = hl.Var("x"), hl.Var("y")


def u(bits):
    return hl.UInt(bits)


def s(bits):
    return hl.Int(bits)


class Lowering:
    """The suite's expression tuples as Halide expressions. Every value is
    held, as in the C reference, as the unsigned bit pattern of its width;
    signed operations reinterpret."""

    def __init__(self, stencil, inputs):
        self.stencil, self.inputs, self.memo = stencil, inputs, {}

    def width(self, e):
        return suite.width(e, self.stencil.arrays)

    def __call__(self, e):
        if e not in self.memo:
            self.memo[e] = self.lower(e)
        return self.memo[e]

    def lower(self, e):
        kind = e[0]
        if kind == "tap":
            dx, dy = self.stencil.tap_xy(e[2])
            return self.inputs[e[1]][x + dx, y + dy]
        if kind == "const":
            return hl.cast(u(e[2]), e[1] % (1 << e[2]))
        if kind == "ext":
            v, src = self(e[1]), self.width(e[1])
            if e[3]:
                return hl.reinterpret(u(e[2]), hl.cast(s(e[2]), hl.reinterpret(s(src), v)))
            return hl.cast(u(e[2]), v)
        if kind == "trunc":
            return hl.cast(u(e[2]), self(e[1]))
        a, b, w = self(e[1]), self(e[2]), self.width(e)
        signed = lambda f: hl.reinterpret(u(w), f(hl.reinterpret(s(w), a), hl.reinterpret(s(w), b)))
        return {
            "addi": lambda: a + b,
            "subi": lambda: a - b,
            "muli": lambda: a * b,
            "maxui": lambda: hl.max(a, b),
            "minui": lambda: hl.min(a, b),
            "maxsi": lambda: signed(hl.max),
            "minsi": lambda: signed(hl.min),
            "shrui": lambda: a >> b,
            "shrsi": lambda: hl.reinterpret(u(w), hl.reinterpret(s(w), a) >> b),
            "divui": lambda: a / b,
        }[kind]()


def views(kernel, p):
    """The input parameters and the output's dimensions of a map kernel."""
    st = kernel.stencil
    inputs = {name: p.param(name, u(bits), image(st.cols, st.rows, st.stride)) for name, bits in st.arrays.items()}
    r = st.radius
    out_dims = [(r, st.x_end - r, 1), (r, st.rows - 2 * r, st.stride)]
    return inputs, out_dims, r * st.stride + r


def schedule_rows(out, horizontal, target):
    """The output vectorized along x; the horizontal pass computed a row at a
    time into a sliding window kept for each strip of output rows
    (bench/schedule.py)."""
    v = vector_size(target, out.type())
    yo, yi = hl.Var("yo"), hl.Var("yi")
    out.split(y, yo, yi, schedule.STRIP_ROWS).vectorize(x, v)
    # The horizontal pass at the output's lane count, so both stages step together. On Hexagon its
    # last vector is predicated rather than shifted inwards: Halide 21 otherwise reads the widened
    # rows in the wrong lane order (hvx_interleave_bug/README.md).
    tail = hl.TailStrategy.GuardWithIf if target.arch == hl.TargetArch.Hexagon else hl.TailStrategy.Auto
    horizontal.store_at(out, yo).compute_at(out, yi).vectorize(x, v, tail)


class Pass:
    """One pass of a separable filter as Lowering reads a stencil: its
    arrays and the (dx, dy) of a flat tap offset."""

    def __init__(self, arrays, stride):
        self.arrays, self.stride = arrays, stride

    def tap_xy(self, offset):
        return suite.Stencil.tap_xy(self, offset)


def separable(kernel, target, form):
    """out = vertical(h), h = horizontal(src), as bench/schedule.py describes
    them: the pass along x once per row, the pass along y over it."""
    p = Pipeline()
    inputs, out_dims, offset = views(kernel, p)
    h = hl.Func("horizontal")
    h[x, y] = Lowering(Pass(form.horizontal_arrays(), form.stride), inputs)(form.horizontal)
    out = hl.Func(kernel.name)
    out[x, y] = Lowering(Pass(form.vertical_arrays(), form.stride), {"h": h})(form.vertical)
    schedule_rows(out, h, target)
    p.output(out, kernel.stencil.out, out_dims, offset)
    return p


def direct(kernel, target, intrinsic=None):
    """The definition as written, vectorized along x at the output's width."""
    p = Pipeline()
    inputs, out_dims, offset = views(kernel, p)
    out = hl.Func(kernel.name)
    out[x, y] = intrinsic(inputs) if intrinsic else Lowering(kernel.stencil, inputs)(kernel.stencil.expr)
    out.vectorize(x, vector_size(target, out.type()))
    p.output(out, kernel.stencil.out, out_dims, offset)
    return p


INTRINSIC = {
    # The saturating u8 add is Halide's saturating_add.
    "add": lambda inputs: hl.saturating_add(inputs["a"][x, y], inputs["b"][x, y]),
}


def stencil_pipeline(kernel, target):
    form = schedule.separable(kernel)
    if form is not None:
        return separable(kernel, target, form)
    return direct(kernel, target, INTRINSIC.get(kernel.name))
