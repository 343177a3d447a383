"""The benchmark kernel suite: each kernel written once as a small expression
over its inputs, from which this module emits both the MLIR function
(memrefs, scf loops, vector/arith bodies at the AVX-512 width) and the
scalar C reference that checks its outputs.

Kernels are written from their definitions (image filters, pooling,
quantized neural-network layers); sizes are the ones the Hydride, MISAAL
and Rake papers use: 1920x1080 u8 images, model layers of a few hundred
to a few thousand elements.
"""

import re
from dataclasses import dataclass

WIDTH, HEIGHT = 1920, 1080
VECTOR_BITS = 512

C_TYPE = {8: "uint8_t", 16: "uint16_t", 32: "uint32_t", 64: "uint64_t"}


# ---------------------------------------------------------------- expressions
# A node is a tuple; every value has an element width in bits and is held in
# C as its bit pattern in an unsigned type, so wrap-around matches MLIR.

def tap(array, offset=0):
    return ("tap", array, offset)


def const(value, bits):
    return ("const", value, bits)


def ext(e, bits, signed=False):
    return ("ext", e, bits, signed)


def trunc(e, bits):
    return ("trunc", e, bits)


def op(name, a, b):
    return (name, a, b)


def add(*xs):
    out = xs[0]
    for x in xs[1:]:
        out = op("addi", out, x)
    return out


def sub(a, b):
    return op("subi", a, b)


def mul(a, b):
    return op("muli", a, b)


def smax(a, b):
    return op("maxsi", a, b)


def smin(a, b):
    return op("minsi", a, b)


def umax(a, b):
    return op("maxui", a, b)


def umin(a, b):
    return op("minui", a, b)


def shr_u(a, b):
    return op("shrui", a, b)


def shr_s(a, b):
    return op("shrsi", a, b)


def div_u(a, b):
    return op("divui", a, b)


def width(e, arrays):
    kind = e[0]
    if kind == "tap":
        return arrays[e[1]]
    if kind == "const":
        return e[2]
    if kind in ("ext", "trunc"):
        return e[2]
    return width(e[1], arrays)


def widest(e, arrays):
    kind = e[0]
    if kind in ("tap", "const"):
        return width(e, arrays)
    if kind in ("ext", "trunc"):
        return max(e[2], widest(e[1], arrays))
    return max(widest(e[1], arrays), widest(e[2], arrays))


class Mlir:
    """Emits SSA lines for an expression at `lanes` lanes."""

    def __init__(self, lanes, arrays, base):
        self.lanes, self.arrays, self.base = lanes, arrays, base
        self.lines, self.memo, self.n = [], {}, 0

    def fresh(self):
        self.n += 1
        return f"%v{self.n}"

    def ty(self, bits):
        return f"vector<{self.lanes}xi{bits}>"

    def emit(self, e):
        if e in self.memo:
            return self.memo[e]
        kind, v = e[0], self.fresh()
        if kind == "tap":
            array, offset = e[1], e[2]
            idx = self.base
            if offset:
                idx = self.fresh()
                self.lines.append(f"{idx} = arith.addi {self.base}, %off{self.offset_name(offset)} : index")
            self.lines.append(f"{v} = vector.load %{array}[{idx}] : memref<?xi{self.arrays[array]}>, {self.ty(self.arrays[array])}")
        elif kind == "const":
            self.lines.append(f"{v} = arith.constant dense<{e[1]}> : {self.ty(e[2])}")
        elif kind == "ext":
            x = self.emit(e[1])
            f = "extsi" if e[3] else "extui"
            self.lines.append(f"{v} = arith.{f} {x} : {self.ty(width(e[1], self.arrays))} to {self.ty(e[2])}")
        elif kind == "trunc":
            x = self.emit(e[1])
            self.lines.append(f"{v} = arith.trunci {x} : {self.ty(width(e[1], self.arrays))} to {self.ty(e[2])}")
        else:
            a, b = self.emit(e[1]), self.emit(e[2])
            self.lines.append(f"{v} = arith.{kind} {a}, {b} : {self.ty(width(e, self.arrays))}")
        self.memo[e] = v
        return v

    @staticmethod
    def offset_name(offset):
        return f"{'m' if offset < 0 else 'p'}{abs(offset)}"


class C:
    """Emits scalar C statements for an expression at element `index`:
    one temporary per node, each holding its bit pattern unsigned."""

    def __init__(self, arrays, index):
        self.arrays, self.index = arrays, index
        self.lines, self.memo, self.n = [], {}, 0

    def emit(self, e):
        if e in self.memo:
            return self.memo[e]
        kind, arrays = e[0], self.arrays
        w = width(e, arrays)
        t, s = C_TYPE[w], f"int{w}_t"
        if kind == "tap":
            value = f"{e[1]}[{self.index} + ({e[2]})]"
        elif kind == "const":
            value = f"({t}){e[1]}ll"
        elif kind == "ext":
            x, src = self.emit(e[1]), width(e[1], arrays)
            value = f"({t})({s})(int{src}_t){x}" if e[3] else f"({t}){x}"
        elif kind == "trunc":
            value = f"({t}){self.emit(e[1])}"
        else:
            a, b = self.emit(e[1]), self.emit(e[2])
            value = {
                "addi": f"({t})((uint64_t){a} + (uint64_t){b})",
                "subi": f"({t})((uint64_t){a} - (uint64_t){b})",
                "muli": f"({t})((uint64_t){a} * (uint64_t){b})",
                "maxsi": f"({s}){a} > ({s}){b} ? {a} : {b}",
                "minsi": f"({s}){a} < ({s}){b} ? {a} : {b}",
                "maxui": f"{a} > {b} ? {a} : {b}",
                "minui": f"{a} < {b} ? {a} : {b}",
                "shrui": f"({t})({a} >> {b})",
                "shrsi": f"({t})(({s}){a} >> {b})",
                "divui": f"({t})({a} / {b})",
            }[kind]
        self.n += 1
        name = f"t{self.n}"
        self.lines.append(f"{t} {name} = {value};")
        self.memo[e] = name
        return name


# -------------------------------------------------------------------- kernels

@dataclass
class Kernel:
    name: str
    family: str
    mlir: str  # one func.func
    c_reference: str  # `static void ref_<name>(...)` with the same parameters
    params: list  # (name, elem bits, elements) of each memref, outputs last
    outputs: list  # names of output arrays
    what: str = ""
    stencil: "Stencil" = None  # map kernels: the definition they were emitted from
    dims: dict = None  # hand-written kernels: their sizes by name (for other implementations of them)


@dataclass
class Stencil:
    """A map kernel's definition: out[y*stride + x] = expr over the rows
    [radius, rows - radius) and columns [radius, x_end); taps are flat offsets
    (dy*stride + dx) into the input arrays."""
    expr: tuple
    arrays: dict  # input name -> element bits
    out: str
    rows: int
    cols: int
    stride: int
    radius: int
    x_end: int

    def tap_xy(self, offset):
        """(dx, dy) of a flat tap offset."""
        dy = round(offset / self.stride)
        return offset - dy * self.stride, dy


def map_kernel(name, family, what, arrays, out, expr, rows, cols, radius=0, row_stride=None):
    """out[y*S + x] = expr for y in [radius, rows-radius), x in [radius,
    radius + lanes*k) (the largest whole number of vectors), S the row stride."""
    stride = row_stride or cols
    bits = widest(expr, arrays)
    lanes = VECTOR_BITS // bits
    x_end = radius + ((cols - 2 * radius) // lanes) * lanes
    taps = sorted({t[2] for t in walk(expr) if t[0] == "tap" and t[2] != 0})
    m = Mlir(lanes, arrays, "%base")
    result = m.emit(expr)
    out_bits = width(expr, arrays)
    sizes = {a: stride * rows for a in arrays}
    sizes[out] = stride * rows
    params = [(a, arrays[a], sizes[a]) for a in arrays] + [(out, out_bits, sizes[out])]
    sig = ", ".join(f"%{a}: memref<?xi{b}>" for a, b, _ in params)
    lines = [f"func.func @{name}({sig}) {{"]
    lines += [
        f"  %lo_y = arith.constant {radius} : index",
        f"  %hi_y = arith.constant {rows - radius} : index",
        f"  %lo_x = arith.constant {radius} : index",
        f"  %hi_x = arith.constant {x_end} : index",
        "  %one = arith.constant 1 : index",
        f"  %step = arith.constant {lanes} : index",
        f"  %stride = arith.constant {stride} : index",
    ]
    for t in taps:
        lines.append(f"  %off{m.offset_name(t)} = arith.constant {t} : index")
    lines.append("  scf.for %y = %lo_y to %hi_y step %one {")
    lines.append("    %row = arith.muli %y, %stride : index")
    lines.append("    scf.for %x = %lo_x to %hi_x step %step {")
    lines.append("      %base = arith.addi %row, %x : index")
    lines += [f"      {l}" for l in m.lines]
    lines.append(f"      vector.store {result}, %{out}[%base] : memref<?xi{out_bits}>, vector<{lanes}xi{out_bits}>")
    lines += ["    }", "  }", "  return", "}"]
    cparams = ", ".join(f"{'' if a == out else 'const '}{C_TYPE[b]} *{a}" for a, b, _ in params)
    c = [f"static void ref_{name}({cparams}) {{"]
    c.append(f"  for (long y = {radius}; y < {rows - radius}; ++y)")
    c.append(f"    for (long x = {radius}; x < {x_end}; ++x) {{")
    c.append(f"      long i = y * {stride} + x;")
    body = C(arrays, "i")
    result_c = body.emit(expr)
    c += [f"      {l}" for l in body.lines]
    c.append(f"      {out}[i] = {result_c};")
    c += ["    }", "}"]
    stencil = Stencil(expr, dict(arrays), out, rows, cols, stride, radius, x_end)
    return Kernel(name, family, "\n".join(lines) + "\n", "\n".join(c) + "\n", params, [out], what, stencil)


def walk(e):
    yield e
    if e[0] in ("tap", "const"):
        return
    if e[0] in ("ext", "trunc"):
        yield from walk(e[1])
        return
    yield from walk(e[1])
    yield from walk(e[2])


def window(radius, fn):
    return [fn(dy, dx) for dy in range(-radius, radius + 1) for dx in range(-radius, radius + 1)]


def img(dy, dx, bits=None):
    t = tap("src", dy * WIDTH + dx)
    return ext(t, bits) if bits else t


def image_kernel(name, family, what, expr, radius):
    return map_kernel(name, family, what, {"src": 8}, "dst", expr, HEIGHT, WIDTH, radius)


def dilate(k):
    r = k // 2
    taps = window(r, img)
    e = taps[0]
    for t in taps[1:]:
        e = umax(e, t)
    return image_kernel(f"dilate{k}x{k}", "image", f"max over a {k}x{k} window (u8)", e, r)


def box_blur(k):
    r = k // 2
    s = add(*window(r, lambda dy, dx: img(dy, dx, 16)))
    e = trunc(div_u(s, const(k * k, 16)), 8)
    return image_kernel(f"box_blur{k}x{k}", "image", f"mean of a {k}x{k} window, truncated (u8, u16 sums)", e, r)


def binomial(k):
    row = [1]
    for _ in range(k - 1):
        row = [a + b for a, b in zip([0] + row, row + [0])]
    return row


def gaussian(k):
    r = k // 2
    w = binomial(k)
    total = sum(w) ** 2
    bits = 16 if 255 * total + total // 2 < 65536 else 32
    terms = []
    for dy in range(-r, r + 1):
        for dx in range(-r, r + 1):
            c = w[dy + r] * w[dx + r]
            t = img(dy, dx, bits)
            terms.append(t if c == 1 else mul(t, const(c, bits)))
    shift = total.bit_length() - 1
    e = trunc(shr_u(add(*terms, const(total // 2, bits)), const(shift, bits)), 8)
    return image_kernel(f"gaussian{k}x{k}", "image", f"binomial {k}x{k} blur with rounding (u8, u{bits} sums)", e, r)


def sobel(k):
    r = k // 2
    if k == 3:
        smooth, diff = [1, 2, 1], [-1, 0, 1]
    else:
        smooth, diff = [1, 4, 6, 4, 1], [-1, -2, 0, 2, 1]

    def conv(wy, wx):
        pos, neg = [], []
        for dy in range(-r, r + 1):
            for dx in range(-r, r + 1):
                c = wy[dy + r] * wx[dx + r]
                if c == 0:
                    continue
                t = img(dy, dx, 16)
                t = t if abs(c) == 1 else mul(t, const(abs(c), 16))
                (pos if c > 0 else neg).append(t)
        return sub(add(*pos), add(*neg))

    def absolute(x):
        return smax(x, sub(const(0, 16), x))

    gx, gy = conv(smooth, diff), conv(diff, smooth)
    e = trunc(smin(add(absolute(gx), absolute(gy)), const(255, 16)), 8)
    return image_kernel(f"sobel{k}x{k}", "image", f"|Gx| + |Gy| of the {k}x{k} Sobel operator, saturated (u8, i16)", e, r)


def median3x3():
    # The 19-exchange median-of-9 network (Paeth / Devillard's opt_med9).
    p = window(1, img)
    pairs = [(1, 2), (4, 5), (7, 8), (0, 1), (3, 4), (6, 7), (1, 2), (4, 5), (7, 8), (0, 3), (5, 8), (4, 7),
             (3, 6), (1, 4), (2, 5), (4, 7), (4, 2), (6, 4), (4, 2)]
    for a, b in pairs:
        p[a], p[b] = umin(p[a], p[b]), umax(p[a], p[b])
    return image_kernel("median3x3", "image", "median of a 3x3 window (u8, min/max network)", p[4], 1)


def conv3x3a16():
    weights = [[1, -2, 3], [-4, 12, -4], [3, -2, 1]]  # sum 8
    terms = []
    for dy in range(-1, 2):
        for dx in range(-1, 2):
            t = ext(tap("src", dy * WIDTH + dx), 16)
            terms.append(mul(t, const(weights[dy + 1][dx + 1], 16)))
    s = shr_s(add(*terms), const(3, 16))
    e = trunc(smin(smax(s, const(0, 16)), const(255, 16)), 8)
    return image_kernel("conv3x3a16", "image", "3x3 convolution with i16 accumulators, >>3, saturated to u8", e, 1)


def elementwise():
    n = 1 << 16
    a8, b8 = tap("a"), tap("b")
    add_sat = trunc(umin(add(ext(a8, 16), ext(tap("b"), 16)), const(255, 16)), 8)
    a16, b16 = ext(tap("a"), 32, True), ext(tap("b"), 32, True)
    mulhrs = trunc(shr_s(add(mul(a16, b16), const(1 << 14, 32)), const(15, 32)), 16)
    return [
        map_kernel("add", "nn", "saturating u8 add of two tensors", {"a": 8, "b": 8}, "out", add_sat, 1, n),
        map_kernel("mul", "nn", "quantized i16 multiply: (a*b + 2^14) >> 15", {"a": 16, "b": 16}, "out", mulhrs, 1, n),
    ]


# ------------------------------------------------------- hand-written kernels
# Loops with reductions, strided access or scalar epilogues: MLIR and C
# written side by side.

def pool(kind):
    ow, oh = WIDTH // 2, HEIGHT // 2
    lanes = 64
    if kind == "max":
        body = """      %m1 = arith.maxui %e0, %o0 : vector<64xi8>
      %m2 = arith.maxui %e1, %o1 : vector<64xi8>
      %r = arith.maxui %m1, %m2 : vector<64xi8>"""
        c = "uint8_t m1 = a > b ? a : b, m2 = c2 > d ? c2 : d; dst[y * %d + x] = m1 > m2 ? m1 : m2;" % ow
    else:
        body = """      %w0 = arith.extui %e0 : vector<64xi8> to vector<64xi16>
      %w1 = arith.extui %o0 : vector<64xi8> to vector<64xi16>
      %w2 = arith.extui %e1 : vector<64xi8> to vector<64xi16>
      %w3 = arith.extui %o1 : vector<64xi8> to vector<64xi16>
      %two = arith.constant dense<2> : vector<64xi16>
      %s1 = arith.addi %w0, %w1 : vector<64xi16>
      %s2 = arith.addi %w2, %w3 : vector<64xi16>
      %s3 = arith.addi %s1, %s2 : vector<64xi16>
      %s4 = arith.addi %s3, %two : vector<64xi16>
      %s5 = arith.shrui %s4, %two : vector<64xi16>
      %r = arith.trunci %s5 : vector<64xi16> to vector<64xi8>"""
        c = "dst[y * %d + x] = (uint8_t)((a + b + c2 + d + 2) >> 2);" % ow
    x_end = (ow // lanes) * lanes
    mlir = f"""func.func @{kind}_pool(%src: memref<?xi8>, %dst: memref<?xi8>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %oh = arith.constant {oh} : index
  %xe = arith.constant {x_end} : index
  %step = arith.constant {lanes} : index
  %w = arith.constant {WIDTH} : index
  %ow = arith.constant {ow} : index
  scf.for %y = %c0 to %oh step %c1 {{
    %y2 = arith.muli %y, %c2 : index
    %r0 = arith.muli %y2, %w : index
    %r1 = arith.addi %r0, %w : index
    %orow = arith.muli %y, %ow : index
    scf.for %x = %c0 to %xe step %step {{
      %x2 = arith.muli %x, %c2 : index
      %i0 = arith.addi %r0, %x2 : index
      %i1 = arith.addi %r1, %x2 : index
      %l0 = vector.load %src[%i0] : memref<?xi8>, vector<128xi8>
      %l1 = vector.load %src[%i1] : memref<?xi8>, vector<128xi8>
      %e0, %o0 = vector.deinterleave %l0 : vector<128xi8> -> vector<64xi8>
      %e1, %o1 = vector.deinterleave %l1 : vector<128xi8> -> vector<64xi8>
{body}
      %oi = arith.addi %orow, %x : index
      vector.store %r, %dst[%oi] : memref<?xi8>, vector<64xi8>
    }}
  }}
  return
}}
"""
    ref = f"""static void ref_{kind}_pool(const uint8_t *src, uint8_t *dst) {{
  for (long y = 0; y < {oh}; ++y)
    for (long x = 0; x < {x_end}; ++x) {{
      const uint8_t *p = src + 2 * y * {WIDTH} + 2 * x;
      uint8_t a = p[0], b = p[1], c2 = p[{WIDTH}], d = p[{WIDTH} + 1];
      {c}
    }}
}}
"""
    what = "2x2 max pooling, stride 2 (u8)" if kind == "max" else "2x2 average pooling with rounding, stride 2 (u8, u16 sums)"
    return Kernel(f"{kind}_pool", "nn", mlir, ref, [("src", 8, WIDTH * HEIGHT), ("dst", 8, ow * oh)], ["dst"], what,
                  dims={"width": WIDTH, "height": HEIGHT, "out_width": ow, "out_height": oh, "x_end": x_end})


def dot_step():
    """Bytes of u8 (and i8) the dot-product loops take per step: one vector
    register's worth at the suite's width, summed 4 at a time into i32 lanes."""
    return VECTOR_BITS // 8


def dot_loop(acc, a_index, w_index, k_len, a="%A", w="%W", indent="      "):
    """scf.for over k in steps of dot_step() elements (`%cdot`): acc += 4-way
    dot of u8 a and i8 w."""
    step = dot_step()
    lanes = step // 4
    return f"""{indent}%zero_acc = arith.constant dense<0> : vector<{lanes}xi32>
{indent}%{acc} = scf.for %k = %c0 to %klen step %cdot iter_args(%acc_i = %zero_acc) -> (vector<{lanes}xi32>) {{
{indent}  %ai = arith.addi {a_index}, %k : index
{indent}  %wi = arith.addi {w_index}, %k : index
{indent}  %av = vector.load {a}[%ai] : memref<?xi8>, vector<{step}xi8>
{indent}  %wv = vector.load {w}[%wi] : memref<?xi8>, vector<{step}xi8>
{indent}  %ae = arith.extui %av : vector<{step}xi8> to vector<{step}xi32>
{indent}  %we = arith.extsi %wv : vector<{step}xi8> to vector<{step}xi32>
{indent}  %p = arith.muli %ae, %we : vector<{step}xi32>
{indent}  %p4 = vector.shape_cast %p : vector<{step}xi32> to vector<{lanes}x4xi32>
{indent}  %s = vector.multi_reduction <add>, %p4, %acc_i [1] : vector<{lanes}x4xi32> to vector<{lanes}xi32>
{indent}  scf.yield %s : vector<{lanes}xi32>
{indent}}}
"""


EPILOGUES = {
    # name: (MLIR lines from %y (sum + bias, i32) to the result, the result's
    # name, C statement from y to r, extra memref)
    "bias": ("", "%y", "r = y;", None),
    "relu": ("      %z = arith.constant 0 : i32\n      %r = arith.maxsi %y, %z : i32", "%r", "r = y > 0 ? y : 0;", None),
    # Integer GELU approximation (hard-swish form, fixed point 2^8): y * clamp(y + 768, 0, 1536) / 1536.
    "gelu": ("""      %c768 = arith.constant 768 : i32
      %c1536 = arith.constant 1536 : i32
      %z = arith.constant 0 : i32
      %t0 = arith.addi %y, %c768 : i32
      %t1 = arith.maxsi %t0, %z : i32
      %t2 = arith.minsi %t1, %c1536 : i32
      %y64 = arith.extsi %y : i32 to i64
      %t64 = arith.extsi %t2 : i32 to i64
      %pr = arith.muli %y64, %t64 : i64
      %d = arith.constant 1536 : i64
      %q = arith.divsi %pr, %d : i64
      %r = arith.trunci %q : i64 to i32""", "%r",
             "{ int32_t t = y + 768; t = t < 0 ? 0 : t; t = t > 1536 ? 1536 : t; r = (int32_t)(((int64_t)y * t) / 1536); }", None),
    "add": ("      %res = memref.load %R[%oi] : memref<?xi32>\n      %r = arith.addi %y, %res : i32", "%r", "r = y + R[oi];", "R"),
}


def layer_mlir(tag, a, w, bias, batch, n_out, k_len, tail):
    """Loops over batch rows `b` and outputs `n`: `%y = dot(a[b], w[n]) + bias[n]`
    (u8 x i8 -> i32), `%oi = b * n_out + n`, then the `tail` lines. Needs
    `%c0`, `%c1`, `%cdot` (dot_step()); `tag` keeps two layers' bounds apart."""
    return f"""  %nb{tag} = arith.constant {batch} : index
  %nn{tag} = arith.constant {n_out} : index
  scf.for %b = %c0 to %nb{tag} step %c1 {{
    %klen = arith.constant {k_len} : index
    %arow = arith.muli %b, %klen : index
    %orow = arith.muli %b, %nn{tag} : index
    scf.for %n = %c0 to %nn{tag} step %c1 {{
      %wrow = arith.muli %n, %klen : index
{dot_loop("acc", "%arow", "%wrow", k_len, a, w)}      %sum = vector.reduction <add>, %acc : vector<{dot_step() // 4}xi32> into i32
      %bn = memref.load {bias}[%n] : memref<?xi32>
      %oi = arith.addi %orow, %n : index
      %y = arith.addi %sum, %bn : i32
{tail}
    }}
  }}
"""


def layer_c(a, w, bias, batch, n_out, k_len, tail):
    """The scalar reference of `layer_mlir`: `y` and `oi` for the `tail` statement."""
    return f"""  for (long b = 0; b < {batch}; ++b)
    for (long n = 0; n < {n_out}; ++n) {{
      int32_t s = 0;
      for (long k = 0; k < {k_len}; ++k) s += (int32_t){a}[b * {k_len} + k] * (int32_t)(int8_t){w}[n * {k_len} + k];
      int32_t y = (int32_t)((uint32_t)s + {bias}[n]);
      long oi = b * {n_out} + n;
      {tail}
    }}
"""


def matmul(name, what, batch, n_out, k_len, epilogue="bias", family="nn"):
    """out[b][n] = epilogue(sum_k A[b][k] * W[n][k] + bias[n]) (u8 x i8 -> i32)."""
    epi, result, c_body, extra = EPILOGUES[epilogue]
    params = [("A", 8, batch * k_len), ("W", 8, n_out * k_len), ("bias", 32, n_out)]
    if extra:
        params.append((extra, 32, batch * n_out))
    params.append(("out", 32, batch * n_out))
    sig = ", ".join(f"%{p}: memref<?xi{b}>" for p, b, _ in params)
    tail = (epi + "\n" if epi else "") + f"      memref.store {result}, %out[%oi] : memref<?xi32>"
    mlir = f"""func.func @{name}({sig}) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cdot = arith.constant {dot_step()} : index
{layer_mlir("", "%A", "%W", "%bias", batch, n_out, k_len, tail)}  return
}}
"""
    cparams = ", ".join(f"{'' if p == 'out' else 'const '}{C_TYPE[b]} *{p}" for p, b, _ in params)
    c_tail = c_body + " out[oi] = (uint32_t)r;"
    ref = f"""static void ref_{name}({cparams}) {{
{layer_c("A", "W", "bias", batch, n_out, k_len, "int32_t r; " + c_tail)}}}
"""
    return Kernel(name, family, mlir, ref, params, ["out"], what,
                  dims={"batch": batch, "n_out": n_out, "k": k_len, "epilogue": epilogue})


def mlp_matmul():
    """Two layers: h = u8(clamp(relu(A W1 + b1) >> 8)), out = h W2 + b2."""
    b, n1, k1, n2 = 4, 256, 1024, 256
    params = [("A", 8, b * k1), ("W1", 8, n1 * k1), ("b1", 32, n1), ("W2", 8, n2 * n1), ("b2", 32, n2),
              ("H", 8, b * n1), ("out", 32, b * n2)]
    sig = ", ".join(f"%{p}: memref<?xi{w}>" for p, w, _ in params)
    requantize = """      %r0 = arith.maxsi %y, %zero : i32
      %r1 = arith.shrsi %r0, %c8 : i32
      %r2 = arith.minsi %r1, %c255 : i32
      %h = arith.trunci %r2 : i32 to i8
      memref.store %h, %H[%oi] : memref<?xi8>"""
    mlir = f"""func.func @mlp_matmul({sig}) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cdot = arith.constant {dot_step()} : index
  %zero = arith.constant 0 : i32
  %c8 = arith.constant 8 : i32
  %c255 = arith.constant 255 : i32
{layer_mlir("1", "%A", "%W1", "%b1", b, n1, k1, requantize)}\
{layer_mlir("2", "%H", "%W2", "%b2", b, n2, n1, "      memref.store %y, %out[%oi] : memref<?xi32>")}  return
}}
"""
    ref = f"""static void ref_mlp_matmul(const uint8_t *A, const uint8_t *W1, const uint32_t *b1, const uint8_t *W2,
                           const uint32_t *b2, uint8_t *H, uint32_t *out) {{
{layer_c("A", "W1", "b1", b, n1, k1, "y = y > 0 ? y : 0; y >>= 8; y = y < 255 ? y : 255; H[oi] = (uint8_t)y;")}\
{layer_c("H", "W2", "b2", b, n2, n1, "out[oi] = (uint32_t)y;")}}}
"""
    return Kernel("mlp_matmul", "mlp", mlir, ref, params, ["H", "out"], "two quantized layers: matmul+bias+relu, requantize to u8, matmul+bias (batch 4)",
                  dims={"batch": b, "n1": n1, "k1": k1, "n2": n2})


def l2norm():
    rows, n = 8192, 64
    mlir = f"""func.func @l2norm(%x: memref<?xi16>, %out: memref<?xi32>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %rows = arith.constant {rows} : index
  %n = arith.constant {n} : index
  scf.for %r = %c0 to %rows step %c1 {{
    %row = arith.muli %r, %n : index
    %zero = arith.constant dense<0> : vector<16xi32>
    %acc = scf.for %k = %c0 to %n step %c32 iter_args(%a = %zero) -> (vector<16xi32>) {{
      %i = arith.addi %row, %k : index
      %v = vector.load %x[%i] : memref<?xi16>, vector<32xi16>
      %e = arith.extsi %v : vector<32xi16> to vector<32xi32>
      %sq = arith.muli %e, %e : vector<32xi32>
      %sq2 = vector.shape_cast %sq : vector<32xi32> to vector<16x2xi32>
      %s = vector.multi_reduction <add>, %sq2, %a [1] : vector<16x2xi32> to vector<16xi32>
      scf.yield %s : vector<16xi32>
    }}
    %t = vector.reduction <add>, %acc : vector<16xi32> into i32
    memref.store %t, %out[%r] : memref<?xi32>
  }}
  return
}}
"""
    ref = f"""static void ref_l2norm(const uint16_t *x, uint32_t *out) {{
  for (long r = 0; r < {rows}; ++r) {{
    uint32_t s = 0;
    for (long k = 0; k < {n}; ++k) {{ int32_t v = (int16_t)x[r * {n} + k]; s += (uint32_t)(v * v); }}
    out[r] = s;
  }}
}}
"""
    return Kernel("l2norm", "nn", mlir, ref, [("x", 16, rows * n), ("out", 32, rows)], ["out"], "squared L2 norm of each 64-element i16 row (i32)",
                  dims={"rows": rows, "n": n})


def softmax():
    rows, n = 4096, 256
    mlir = f"""func.func @softmax(%x: memref<?xi8>, %out: memref<?xi8>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %rows = arith.constant {rows} : index
  %n = arith.constant {n} : index
  scf.for %r = %c0 to %rows step %c1 {{
    %row = arith.muli %r, %n : index
    %zero = arith.constant dense<0> : vector<64xi8>
    %mv = scf.for %k = %c0 to %n step %c64 iter_args(%m = %zero) -> (vector<64xi8>) {{
      %i = arith.addi %row, %k : index
      %v = vector.load %x[%i] : memref<?xi8>, vector<64xi8>
      %m2 = arith.maxui %m, %v : vector<64xi8>
      scf.yield %m2 : vector<64xi8>
    }}
    %mx = vector.reduction <maxui>, %mv : vector<64xi8> into i8
    %mb = vector.broadcast %mx : i8 to vector<64xi8>
    scf.for %k = %c0 to %n step %c64 {{
      %i = arith.addi %row, %k : index
      %v = vector.load %x[%i] : memref<?xi8>, vector<64xi8>
      %d = arith.subi %mb, %v : vector<64xi8>
      vector.store %d, %out[%i] : memref<?xi8>, vector<64xi8>
    }}
  }}
  return
}}
"""
    ref = f"""static void ref_softmax(const uint8_t *x, uint8_t *out) {{
  for (long r = 0; r < {rows}; ++r) {{
    uint8_t m = 0;
    for (long k = 0; k < {n}; ++k) m = x[r * {n} + k] > m ? x[r * {n} + k] : m;
    for (long k = 0; k < {n}; ++k) out[r * {n} + k] = (uint8_t)(m - x[r * {n} + k]);
  }}
}}
"""
    return Kernel("softmax", "nn", mlir, ref, [("x", 8, rows * n), ("out", 8, rows * n)], ["out"],
                  "softmax's integer parts: row maximum, then max - x (u8; the exponential table is left out)",
                  dims={"rows": rows, "n": n})


def conv_nn():
    """NHWC 3x3 convolution, 64 input channels (u8) x 64 filters (i8) -> i32."""
    h, w, c, o = 34, 34, 64, 64
    oh, ow = h - 2, w - 2
    taps = 9 * c
    mlir = f"""func.func @conv_nn(%A: memref<?xi8>, %W: memref<?xi8>, %bias: memref<?xi32>, %out: memref<?xi32>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
  %c9 = arith.constant 9 : index
  %oh = arith.constant {oh} : index
  %ow = arith.constant {ow} : index
  %no = arith.constant {o} : index
  %w = arith.constant {w} : index
  %ntaps = arith.constant {taps} : index
  scf.for %y = %c0 to %oh step %c1 {{
    scf.for %x = %c0 to %ow step %c1 {{
      %pix = arith.muli %y, %ow : index
      %pix2 = arith.addi %pix, %x : index
      %obase = arith.muli %pix2, %no : index
      scf.for %f = %c0 to %no step %c1 {{
        %wbase = arith.muli %f, %ntaps : index
        %zero = arith.constant dense<0> : vector<16xi32>
        %acc = scf.for %t = %c0 to %c9 step %c1 iter_args(%a = %zero) -> (vector<16xi32>) {{
          %dy = arith.divui %t, %c3 : index
          %dx = arith.remui %t, %c3 : index
          %yy = arith.addi %y, %dy : index
          %xx = arith.addi %x, %dx : index
          %ir = arith.muli %yy, %w : index
          %ip = arith.addi %ir, %xx : index
          %ai = arith.muli %ip, %c64 : index
          %tw = arith.muli %t, %c64 : index
          %wi = arith.addi %wbase, %tw : index
          %av = vector.load %A[%ai] : memref<?xi8>, vector<64xi8>
          %wv = vector.load %W[%wi] : memref<?xi8>, vector<64xi8>
          %ae = arith.extui %av : vector<64xi8> to vector<64xi32>
          %we = arith.extsi %wv : vector<64xi8> to vector<64xi32>
          %p = arith.muli %ae, %we : vector<64xi32>
          %p4 = vector.shape_cast %p : vector<64xi32> to vector<16x4xi32>
          %s = vector.multi_reduction <add>, %p4, %a [1] : vector<16x4xi32> to vector<16xi32>
          scf.yield %s : vector<16xi32>
        }}
        %sum = vector.reduction <add>, %acc : vector<16xi32> into i32
        %bn = memref.load %bias[%f] : memref<?xi32>
        %r = arith.addi %sum, %bn : i32
        %oi = arith.addi %obase, %f : index
        memref.store %r, %out[%oi] : memref<?xi32>
      }}
    }}
  }}
  return
}}
"""
    ref = f"""static void ref_conv_nn(const uint8_t *A, const uint8_t *W, const uint32_t *bias, uint32_t *out) {{
  for (long y = 0; y < {oh}; ++y)
    for (long x = 0; x < {ow}; ++x)
      for (long f = 0; f < {o}; ++f) {{
        int32_t s = 0;
        for (long t = 0; t < 9; ++t)
          for (long ch = 0; ch < {c}; ++ch)
            s += (int32_t)A[((y + t / 3) * {w} + x + t % 3) * {c} + ch] * (int32_t)(int8_t)W[f * {taps} + t * {c} + ch];
        out[(y * {ow} + x) * {o} + f] = (uint32_t)s + bias[f];
      }}
}}
"""
    params = [("A", 8, h * w * c), ("W", 8, o * taps), ("bias", 32, o), ("out", 32, oh * ow * o)]
    return Kernel("conv_nn", "nn", mlir, ref, params, ["out"], "NHWC 3x3 convolution, 64 u8 channels x 64 i8 filters, i32 out",
                  dims={"h": h, "w": w, "c": c, "o": o})


def depthwise_conv():
    """3x3 depthwise convolution, NHWC, 64 channels: u8 x i8 -> i32 per channel."""
    h, w, c = 66, 66, 64
    oh, ow = h - 2, w - 2
    lines = []
    for t in range(9):
        dy, dx = divmod(t, 3)
        lines.append(f"""        %ai{t} = arith.addi %pbase, %off{t} : index
        %wi{t} = arith.addi %cg, %woff{t} : index
        %a{t} = vector.load %A[%ai{t}] : memref<?xi8>, vector<16xi8>
        %w{t} = vector.load %W[%wi{t}] : memref<?xi8>, vector<16xi8>
        %ae{t} = arith.extui %a{t} : vector<16xi8> to vector<16xi32>
        %we{t} = arith.extsi %w{t} : vector<16xi8> to vector<16xi32>
        %p{t} = arith.muli %ae{t}, %we{t} : vector<16xi32>""")
    sums = ["%p0"]
    for t in range(1, 9):
        lines.append(f"        %s{t} = arith.addi {sums[-1]}, %p{t} : vector<16xi32>")
        sums.append(f"%s{t}")
    consts = "\n".join(f"  %off{t} = arith.constant {((t // 3) * w + t % 3) * c} : index\n  %woff{t} = arith.constant {t * c} : index"
                       for t in range(9))
    mlir = f"""func.func @depthwise_conv(%A: memref<?xi8>, %W: memref<?xi8>, %out: memref<?xi32>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %nc = arith.constant {c} : index
  %oh = arith.constant {oh} : index
  %ow = arith.constant {ow} : index
  %w = arith.constant {w} : index
{consts}
  scf.for %y = %c0 to %oh step %c1 {{
    scf.for %x = %c0 to %ow step %c1 {{
      %ir = arith.muli %y, %w : index
      %ip = arith.addi %ir, %x : index
      %pb = arith.muli %ip, %nc : index
      %orow = arith.muli %y, %ow : index
      %op = arith.addi %orow, %x : index
      %ob = arith.muli %op, %nc : index
      scf.for %cg = %c0 to %nc step %c16 {{
        %pbase = arith.addi %pb, %cg : index
{chr(10).join(lines)}
        %oi = arith.addi %ob, %cg : index
        vector.store {sums[-1]}, %out[%oi] : memref<?xi32>, vector<16xi32>
      }}
    }}
  }}
  return
}}
"""
    ref = f"""static void ref_depthwise_conv(const uint8_t *A, const uint8_t *W, uint32_t *out) {{
  for (long y = 0; y < {oh}; ++y)
    for (long x = 0; x < {ow}; ++x)
      for (long ch = 0; ch < {c}; ++ch) {{
        int32_t s = 0;
        for (long t = 0; t < 9; ++t)
          s += (int32_t)A[((y + t / 3) * {w} + x + t % 3) * {c} + ch] * (int32_t)(int8_t)W[t * {c} + ch];
        out[(y * {ow} + x) * {c} + ch] = (uint32_t)s;
      }}
}}
"""
    params = [("A", 8, h * w * c), ("W", 8, 9 * c), ("out", 32, oh * ow * c)]
    return Kernel("depthwise_conv", "nn", mlir, ref, params, ["out"], "3x3 depthwise convolution, NHWC, 64 channels (u8 x i8 -> i32)",
                  dims={"h": h, "w": w, "c": c})


DOT_BODY = re.compile(
    r"(?P<i> *)%ae = arith\.extui (?P<a>%\w+) : vector<(?P<n>\d+)xi8> to vector<\d+xi32>\n"
    r" *%we = arith\.extsi (?P<w>%\w+) : vector<\d+xi8> to vector<\d+xi32>\n"
    r" *%p = arith\.muli %ae, %we : vector<\d+xi32>\n"
    r" *%p4 = vector\.shape_cast %p : vector<\d+xi32> to vector<(?P<l>\d+)x4xi32>\n"
    r" *%s = vector\.multi_reduction <add>, %p4, (?P<acc>%\w+) \[1\] : vector<\d+x4xi32> to vector<\d+xi32>\n")


def contract_twin(k):
    """`k` with its 4-way dot products written as linalg vectorization hands
    them to the backend: the loaded bytes reshaped to lanes x 4, extended,
    and one `vector.contract` (lanes parallel, the 4 reduced) into the
    accumulator, in place of multiply, shape_cast and multi_reduction. The
    same function, so the same reference and Halide pipeline."""
    def contract(m):
        i, n, lanes = m["i"], m["n"], m["l"]
        return (f"{i}%a2 = vector.shape_cast {m['a']} : vector<{n}xi8> to vector<{lanes}x4xi8>\n"
                f"{i}%w2 = vector.shape_cast {m['w']} : vector<{n}xi8> to vector<{lanes}x4xi8>\n"
                f"{i}%ae = arith.extui %a2 : vector<{lanes}x4xi8> to vector<{lanes}x4xi32>\n"
                f"{i}%we = arith.extsi %w2 : vector<{lanes}x4xi8> to vector<{lanes}x4xi32>\n"
                f"{i}%s = vector.contract {{indexing_maps = [affine_map<(m, k) -> (m, k)>, affine_map<(m, k) -> (m, k)>, "
                f"affine_map<(m, k) -> (m)>], iterator_types = [\"parallel\", \"reduction\"], kind = #vector.kind<add>}} "
                f"%ae, %we, {m['acc']} : vector<{lanes}x4xi32>, vector<{lanes}x4xi32> into vector<{lanes}xi32>\n")
    name = f"{k.name}_contract"
    mlir, count = DOT_BODY.subn(contract, k.mlir)
    assert count == 1, f"{k.name}: {count} dot-product bodies"
    return Kernel(name, k.family, mlir.replace(f"@{k.name}(", f"@{name}("),
                  k.c_reference.replace(f"ref_{k.name}(", f"ref_{name}("), k.params, k.outputs,
                  f"{k.what}, as vector.contract", dims=k.dims)


def all_kernels():
    ks = [sobel(3), sobel(5)]
    ks += [dilate(k) for k in (3, 5, 7)]
    ks += [box_blur(k) for k in (3, 5, 7)]
    ks.append(median3x3())
    ks += [gaussian(k) for k in (3, 5, 7)]
    ks += [l2norm(), conv_nn(), conv3x3a16(), depthwise_conv(), pool("average"), pool("max")]
    ks.append(matmul("fully_connected", "fully connected layer: 2048 u8 inputs x 1000 i8 outputs + bias (i32)", 1, 1000, 2048))
    ks += elementwise()
    ks.append(softmax())
    for b in (1, 2, 4):
        ks.append(matmul(f"matmul_b{b}", f"quantized matmul, batch {b}: u8 [{b}x1024] x i8 [1024x256] (i32)", b, 256, 1024))
    for e in ("bias", "relu", "gelu", "add"):
        ks.append(matmul(f"mlp_{e}", f"matmul + bias{'' if e == 'bias' else ' + ' + e} (batch 4, 1024 -> 256)", 4, 256, 1024, e, "mlp"))
    ks.append(mlp_matmul())
    # The layers as linalg vectorization writes them (vector.contract tiles).
    ks += [contract_twin(k) for k in ks if k.name in ("matmul_b1", "conv_nn")]
    return ks
