"""Kernels over rows: 2x2 pooling (strided loads), softmax's integer parts
(a row maximum, then a broadcast subtraction) and squared L2 norms (a
widening multiply-reduce)."""

import halide as hl

from args import Pipeline, image, vector_size

x, y, lane = hl.Var("x"), hl.Var("y"), hl.Var("lane")


def pool(kernel, target):
    d = kernel.dims
    p = Pipeline()
    src = p.param("src", hl.UInt(8), image(d["width"], d["height"]))
    a, b = src[2 * x, 2 * y], src[2 * x + 1, 2 * y]
    c, e = src[2 * x, 2 * y + 1], src[2 * x + 1, 2 * y + 1]
    out = hl.Func(kernel.name)
    if kernel.name == "max_pool":
        out[x, y] = hl.max(hl.max(a, b), hl.max(c, e))
    else:
        # (a + b + c + d + 2) >> 2 in u16, narrowed; the columns' pairs summed first (Halide 21's
        # Hexagon backend fails on the row-major order: "halide.hexagon.add_2mpy.vub.ub not found").
        out[x, y] = hl.u8(((hl.u16(a) + hl.u16(c)) + (hl.u16(b) + hl.u16(e)) + 2) >> 2)
    out.vectorize(x, vector_size(target, hl.UInt(8)))
    p.output(out, "dst", [(0, d["x_end"], 1), (0, d["out_height"], d["out_width"])])
    return p


def row_reduction(name, init, length, step, combine, target, type):
    """r(y) = combine over k < length of step(k, y): `lanes` partial results
    updated with whole vectors (rfactor), combined across lanes once."""
    lanes = vector_size(target, type)
    while length % lanes:
        lanes //= 2
    k = hl.RDom([(0, lanes), (0, length // lanes)], name + "_k")
    red = hl.Func(name)
    red[y] = init
    red[y] = combine(red[y], step(k.y * lanes + k.x, y))
    return red, k, lanes


def schedule_row_reduction(red, k, consumer, at):
    intm = red.update().rfactor(k.x, lane)
    intm.compute_at(consumer, at).vectorize(lane)
    intm.update().vectorize(lane)
    red.compute_at(consumer, at)
    red.update().atomic().vectorize(k.x)


def softmax(kernel, target):
    d = kernel.dims
    p = Pipeline()
    xs = p.param("x", hl.UInt(8), image(d["n"], d["rows"]))
    m, k, _ = row_reduction("row_max", hl.u8(0), d["n"], lambda kk, yy: xs[kk, yy], hl.max, target, hl.UInt(8))
    out = hl.Func("softmax")
    out[x, y] = m[y] - xs[x, y]
    out.vectorize(x, vector_size(target, hl.UInt(8)))
    schedule_row_reduction(m, k, out, y)
    p.output(out, "out", image(d["n"], d["rows"]))
    return p


def l2norm(kernel, target):
    """out(y) = sum of x^2 over the row, each square as i32, summed in u32: a
    row is a few vectors, so its whole reduction is one vectorized (atomic)
    reduce, four rows per step."""
    d = kernel.dims
    p = Pipeline()
    xs = p.param("x", hl.Int(16), image(d["n"], d["rows"]))
    k = hl.RDom([(0, d["n"])], "l2norm_k")
    out = hl.Func("l2norm")
    out[y] = hl.u32(0)
    out[y] += hl.u32(hl.widening_mul(xs[k.x, y], xs[k.x, y]))
    yi = hl.Var("yi")
    out.update().split(y, y, yi, 4).atomic().vectorize(k.x).unroll(yi)
    p.output(out, "out", [(0, d["rows"], 1)])
    return p


ROW_PIPELINES = {"average_pool": pool, "max_pool": pool, "softmax": softmax, "l2norm": l2norm}
