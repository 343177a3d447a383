"""Quantized layers: matrix multiplies with their epilogues (fully connected,
matmul, MLP), the two-layer MLP, and convolutions (NHWC, depthwise). u8
activations times i8 weights, i32 sums; sums and biases are added in u32 so
that wrap-around matches the C reference's unsigned arithmetic."""

import operator
from functools import reduce

import halide as hl

from args import Pipeline, vector_size
from dot import Dot

n, b = hl.Var("n"), hl.Var("b")
f, x, y, c = hl.Var("f"), hl.Var("x"), hl.Var("y"), hl.Var("c")


def epilogue(kind, y_u, extra):
    """The result (u32 bits) from y_u = sum + bias (u32)."""
    y_s = hl.reinterpret(hl.Int(32), y_u)
    if kind == "bias":
        return y_u
    if kind == "relu":
        return hl.reinterpret(hl.UInt(32), hl.max(y_s, 0))
    if kind == "gelu":
        t = hl.clamp(hl.reinterpret(hl.Int(32), y_u + 768), 0, 1536)
        return hl.reinterpret(hl.UInt(32), hl.i32(hl.div_round_to_zero(hl.i64(y_s) * hl.i64(t), hl.i64(1536))))
    if kind == "add":
        return y_u + extra[n, b]
    raise KeyError(kind)


def dense(name, a, w, bias, batch, n_out, k, target, finish):
    """Output Func(n, b) = finish(y_u) for one layer."""
    dot = Dot(name + "_dot", [n, b], k, lambda r, kk: hl.i32(a[kk, b]) * hl.i32(w[kk, n]), target)
    out = hl.Func(name)
    out[n, b] = finish(hl.u32(dot.acc[n, b]) + bias[n])
    out.bound(b, 0, batch).reorder(b, n)
    dot.schedule(out, n, b if batch > 1 else None)
    if batch > 1:
        out.unroll(b)
    return out


def matmul(kernel, target):
    d = kernel.dims
    batch, n_out, k = d["batch"], d["n_out"], d["k"]
    p = Pipeline()
    a = p.param("A", hl.UInt(8), [(0, k, 1), (0, batch, k)])
    w = p.param("W", hl.Int(8), [(0, k, 1), (0, n_out, k)])
    bias = p.param("bias", hl.UInt(32), [(0, n_out, 1)])
    extra = p.param("R", hl.UInt(32), [(0, n_out, 1), (0, batch, n_out)]) if d["epilogue"] == "add" else None
    out = dense(kernel.name, a, w, bias, batch, n_out, k, target, lambda y_u: epilogue(d["epilogue"], y_u, extra))
    p.output(out, "out", [(0, n_out, 1), (0, batch, n_out)])
    return p


def mlp_matmul(kernel, target):
    d = kernel.dims
    batch, n1, k1, n2 = d["batch"], d["n1"], d["k1"], d["n2"]
    p = Pipeline()
    a = p.param("A", hl.UInt(8), [(0, k1, 1), (0, batch, k1)])
    w1 = p.param("W1", hl.Int(8), [(0, k1, 1), (0, n1, k1)])
    b1 = p.param("b1", hl.UInt(32), [(0, n1, 1)])
    w2 = p.param("W2", hl.Int(8), [(0, n1, 1), (0, n2, n1)])
    b2 = p.param("b2", hl.UInt(32), [(0, n2, 1)])
    requantize = lambda y_u: hl.u8(hl.min(hl.max(hl.reinterpret(hl.Int(32), y_u), 0) >> 8, 255))
    hidden = dense("mlp_hidden", a, w1, b1, batch, n1, k1, target, requantize)
    out = dense("mlp_out", hidden, w2, b2, batch, n2, n1, target, lambda y_u: y_u)
    p.output(hidden, "H", [(0, n1, 1), (0, batch, n1)])
    p.output(out, "out", [(0, n2, 1), (0, batch, n2)])
    return p


def conv_nn(kernel, target):
    """out(f, x, y) = bias(f) + sum over 3x3 taps and channels; four filters
    per step share each activation vector."""
    d = kernel.dims
    h, w, ch, fo = d["h"], d["w"], d["c"], d["o"]
    oh, ow = h - 2, w - 2
    p = Pipeline()
    a = p.param("A", hl.UInt(8), [(0, ch, 1), (0, w, ch), (0, h, w * ch)])
    wt = p.param("W", hl.Int(8), [(0, 9 * ch, 1), (0, fo, 9 * ch)])
    bias = p.param("bias", hl.UInt(32), [(0, fo, 1)])

    def product(r, kk):
        dx, dy = r[3], r[4]
        return hl.i32(a[kk, x + dx, y + dy]) * hl.i32(wt[kk + ch * (dy * 3 + dx), f])

    dot = Dot("conv_dot", [f, x, y], ch * 9, product, target, groups=(3, 3))
    out = hl.Func("conv_nn")
    out[f, x, y] = hl.u32(dot.acc[f, x, y]) + bias[f]
    fi = hl.Var("fi")
    out.bound(f, 0, fo).split(f, f, fi, 4).reorder(fi, f, x, y).unroll(fi)
    dot.schedule(out, f, f)
    p.output(out, "out", [(0, fo, 1), (0, ow, fo), (0, oh, ow * fo)])
    return p


def depthwise_conv(kernel, target):
    """out(c, x, y) = sum over 3x3 taps of A(c, x+dx, y+dy) * W(c, tap),
    vectorized across channels, the taps unrolled."""
    d = kernel.dims
    h, w, ch = d["h"], d["w"], d["c"]
    oh, ow = h - 2, w - 2
    p = Pipeline()
    a = p.param("A", hl.UInt(8), [(0, ch, 1), (0, w, ch), (0, h, w * ch)])
    wt = p.param("W", hl.Int(8), [(0, ch, 1), (0, 9, ch)])
    out = hl.Func("depthwise_conv")
    terms = [hl.i32(hl.widening_mul(a[c, x + t % 3, y + t // 3], wt[c, t])) for t in range(9)]
    out[c, x, y] = reduce(operator.add, terms)
    v = min(ch, 4 * vector_size(target, hl.Int(32)))
    ci = hl.Var("ci")
    out.bound(c, 0, ch).split(c, c, ci, v).vectorize(ci).unroll(c)
    p.output(out, "out", [(0, ch, 1), (0, ow, ch), (0, oh, ow * ch)])
    return p


LAYER_PIPELINES = {
    "fully_connected": matmul,
    "matmul_b1": matmul, "matmul_b2": matmul, "matmul_b4": matmul,
    "mlp_bias": matmul, "mlp_relu": matmul, "mlp_gelu": matmul, "mlp_add": matmul,
    "mlp_matmul": mlp_matmul,
    "conv_nn": conv_nn,
    # The same layers written with vector.contract (bench/suite.py contract_twin).
    "matmul_b1_contract": matmul, "conv_nn_contract": conv_nn,
    "depthwise_conv": depthwise_conv,
}
