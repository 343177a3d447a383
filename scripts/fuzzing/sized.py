"""Programs of a chosen size that trigger each of lower-to-autollvm's
transformations: one instance over `lanes` lanes (wide), or copies of it
over register-sized vectors until the block holds at least `ops` ops
(long). The bounds tests (lit-tests/Lower/bounds/), `scripts/bounds` and
the fuzzer's `--sized` mode read them.

  sized.py IDIOM wide LANES     one instance over vectors of LANES lanes
  sized.py IDIOM long OPS       copies at register width, at least OPS ops
  sized.py --list               the idioms and what each triggers

Every program loads its inputs from `%src` and stores its results to
`%dst`, at offsets from `%i`, as a vectorized loop body does.
"""

import random
import sys


# The memory every program reads and writes, by element width.
SOURCES = {8: "%src", 16: "%src16", 32: "%out"}
DESTINATIONS = {8: "%dst", 16: "%dst16", 32: "%out"}
PARAMS = ("%src: memref<?xi8>, %dst: memref<?xi8>, %src16: memref<?xi16>, %dst16: memref<?xi16>, "
          "%out: memref<?xi32>, %i: index")


class Body:
    """A function body under construction: loads, ops, stores."""

    def __init__(self):
        self.lines = []
        self.count = 0
        self.offsets = {}

    def fresh(self):
        self.count += 1
        return f"%v{self.count}"

    def op(self, text):
        name = self.fresh()
        self.lines.append(f"{name} = {text}")
        return name

    def index(self, offset):
        if offset == 0:
            return "%i"
        if offset not in self.offsets:
            c = self.op(f"arith.constant {offset} : index")
            self.offsets[offset] = self.op(f"arith.addi %i, {c} : index")
        return self.offsets[offset]

    def load(self, lanes, bits, offset):
        memref = SOURCES[bits]
        return self.op(f"vector.load {memref}[{self.index(offset)}] : memref<?xi{bits}>, vector<{lanes}xi{bits}>")

    def store(self, value, lanes, bits, offset):
        memref = DESTINATIONS[bits]
        self.lines.append(f"vector.store {value}, {memref}[{self.index(offset)}] : memref<?xi{bits}>, "
                          f"vector<{lanes}xi{bits}>")

    def splat(self, value, lanes, bits):
        return self.op(f"arith.constant dense<{value}> : vector<{lanes}xi{bits}>")

    def ops(self):
        return sum(1 for line in self.lines)


def vt(lanes, bits):
    return f"vector<{lanes}xi{bits}>"


# Each idiom: (memory element bits, register-sized lanes for `long`, what it
# triggers, emit(body, lanes, base offset)).


def average(b, n, at):
    """Rounding average of u8: extui, addi, addi 1, shrui 1, trunci."""
    x, y = b.load(n, 8, at), b.load(n, 8, at + n)
    w = vt(n, 16)
    xe, ye = b.op(f"arith.extui {x} : {vt(n, 8)} to {w}"), b.op(f"arith.extui {y} : {vt(n, 8)} to {w}")
    s = b.op(f"arith.addi {xe}, {ye} : {w}")
    one = b.splat(1, n, 16)
    s = b.op(f"arith.addi {s}, {one} : {w}")
    s = b.op(f"arith.shrui {s}, {one} : {w}")
    b.store(b.op(f"arith.trunci {s} : {w} to {vt(n, 8)}"), n, 8, at)


def clamped_add(b, n, at):
    """Saturating i16 add through i32: extsi, addi, maxsi, minsi, trunci."""
    x, y = b.load(n, 16, at), b.load(n, 16, at + n)
    w = vt(n, 32)
    xe, ye = b.op(f"arith.extsi {x} : {vt(n, 16)} to {w}"), b.op(f"arith.extsi {y} : {vt(n, 16)} to {w}")
    s = b.op(f"arith.addi {xe}, {ye} : {w}")
    s = b.op(f"arith.maxsi {s}, {b.splat(-32768, n, 32)} : {w}")
    s = b.op(f"arith.minsi {s}, {b.splat(32767, n, 32)} : {w}")
    b.store(b.op(f"arith.trunci {s} : {w} to {vt(n, 16)}"), n, 16, at)


def group_sum(b, n, at):
    """Sum of groups of 4 extended bytes: extui, shape_cast, multi_reduction."""
    x = b.load(n, 8, at)
    w = vt(n, 32)
    e = b.op(f"arith.extui {x} : {vt(n, 8)} to {w}")
    g = b.op(f"vector.shape_cast {e} : {w} to vector<{n // 4}x4xi32>")
    zero = b.splat(0, n // 4, 32)
    r = b.op(f"vector.multi_reduction <add>, {g}, {zero} [1] : vector<{n // 4}x4xi32> to {vt(n // 4, 32)}")
    b.store(r, n // 4, 32, at // 4)


def weighted3(b, n, at):
    """3-tap weighted sum of u8 in u16 (1, 2, 1), shifted by 2, truncated."""
    xs = [b.load(n, 8, at + k) for k in range(3)]
    w = vt(n, 16)
    es = [b.op(f"arith.extui {x} : {vt(n, 8)} to {w}") for x in xs]
    two = b.splat(2, n, 16)
    m = b.op(f"arith.muli {es[1]}, {two} : {w}")
    s = b.op(f"arith.addi {es[0]}, {m} : {w}")
    s = b.op(f"arith.addi {s}, {es[2]} : {w}")
    s = b.op(f"arith.shrui {s}, {two} : {w}")
    b.store(b.op(f"arith.trunci {s} : {w} to {vt(n, 8)}"), n, 8, at)


def pair_sum(b, n, at):
    """The even and odd bytes of one vector, extended to i16 and added."""
    x = b.load(2 * n, 8, at)
    pair = b.fresh()
    b.lines.append(f"{pair}:2 = vector.deinterleave {x} : {vt(2 * n, 8)} -> {vt(n, 8)}")
    w = vt(n, 16)
    e = b.op(f"arith.extui {pair}#0 : {vt(n, 8)} to {w}")
    o = b.op(f"arith.extui {pair}#1 : {vt(n, 8)} to {w}")
    s = b.op(f"arith.addi {e}, {o} : {w}")
    b.store(s, n, 16, at)


def contract(b, n, at):
    """An elementwise vector.contract of extended bytes into i32 groups of 4."""
    x, y = b.load(n, 8, at), b.load(n, 8, at + n)
    g8, g32 = f"vector<{n // 4}x4xi8>", f"vector<{n // 4}x4xi32>"
    xs, ys = b.op(f"vector.shape_cast {x} : {vt(n, 8)} to {g8}"), b.op(f"vector.shape_cast {y} : {vt(n, 8)} to {g8}")
    xe, ye = b.op(f"arith.extui {xs} : {g8} to {g32}"), b.op(f"arith.extsi {ys} : {g8} to {g32}")
    zero = b.splat(0, n // 4, 32)
    r = b.op("vector.contract {indexing_maps = [affine_map<(m, k) -> (m, k)>, affine_map<(m, k) -> (m, k)>, "
             "affine_map<(m, k) -> (m)>], iterator_types = [\"parallel\", \"reduction\"], "
             f"kind = #vector.kind<add>}} {xe}, {ye}, {zero} : {g32}, {g32} into {vt(n // 4, 32)}")
    b.store(r, n // 4, 32, at // 4)


def matmul(b, n, at):
    """A vector.contract of an m x 4 tile of extended bytes (`n` lanes) by a
    4 x 4 one, into an m x 4 tile of i32."""
    k, m, cols = 4, n // 4, 4
    x, y = b.load(n, 8, at), b.load(cols * k, 8, at + n)
    lhs = b.op(f"vector.shape_cast {x} : {vt(n, 8)} to vector<{m}x{k}xi8>")
    rhs = b.op(f"vector.shape_cast {y} : {vt(cols * k, 8)} to vector<{cols}x{k}xi8>")
    le = b.op(f"arith.extui {lhs} : vector<{m}x{k}xi8> to vector<{m}x{k}xi32>")
    re = b.op(f"arith.extsi {rhs} : vector<{cols}x{k}xi8> to vector<{cols}x{k}xi32>")
    zero = b.op(f"arith.constant dense<0> : vector<{m}x{cols}xi32>")
    r = b.op("vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, "
             "affine_map<(m, n, k) -> (m, n)>], iterator_types = [\"parallel\", \"parallel\", \"reduction\"], "
             f"kind = #vector.kind<add>}} {le}, {re}, {zero} : vector<{m}x{k}xi32>, vector<{cols}x{k}xi32> "
             f"into vector<{m}x{cols}xi32>")
    flat = b.op(f"vector.shape_cast {r} : vector<{m}x{cols}xi32> to {vt(m * cols, 32)}")
    b.store(flat, m * cols, 32, at)


def dot4(b, n, at):
    """A 4-way u8 x s8 dot product with an accumulator, into i32 lanes."""
    x, y = b.load(n, 8, at), b.load(n, 8, at + n)
    w = vt(n, 32)
    xe, ye = b.op(f"arith.extui {x} : {vt(n, 8)} to {w}"), b.op(f"arith.extsi {y} : {vt(n, 8)} to {w}")
    p = b.op(f"arith.muli {xe}, {ye} : {w}")
    g = b.op(f"vector.shape_cast {p} : {w} to vector<{n // 4}x4xi32>")
    acc = b.load(n // 4, 32, at // 4)
    r = b.op(f"vector.multi_reduction <add>, {g}, {acc} [1] : vector<{n // 4}x4xi32> to {vt(n // 4, 32)}")
    b.store(r, n // 4, 32, at // 4)


WEIGHTS = [1, 2, 1, 2, 4, 2, 1, 2, 1]


def weights(b, n, at):
    """A 3x3 binomial blur of u8 in i32 lanes: nine extended bytes times
    weights that repeat (1, 2, 4), summed."""
    w = vt(n, 32)
    total = None
    for k, weight in enumerate(WEIGHTS):
        x = b.load(n, 8, at + (k // 3) * 1000 + k % 3)
        e = b.op(f"arith.extui {x} : {vt(n, 8)} to {w}")
        p = e if weight == 1 else b.op(f"arith.muli {e}, {b.splat(weight, n, 32)} : {w}")
        total = p if total is None else b.op(f"arith.addi {total}, {p} : {w}")
    b.store(total, n, 32, at)


def pool(b, n, at):
    """A 2x2 max pool of u8: two rows deinterleaved, the four halves' maximum."""
    rows = [b.load(2 * n, 8, at + k * 4096) for k in range(2)]
    halves = []
    for r in rows:
        pair = b.fresh()
        b.lines.append(f"{pair}:2 = vector.deinterleave {r} : {vt(2 * n, 8)} -> {vt(n, 8)}")
        halves += [f"{pair}#0", f"{pair}#1"]
    m1 = b.op(f"arith.maxui {halves[0]}, {halves[1]} : {vt(n, 8)}")
    m2 = b.op(f"arith.maxui {halves[2]}, {halves[3]} : {vt(n, 8)}")
    b.store(b.op(f"arith.maxui {m1}, {m2} : {vt(n, 8)}"), n, 8, at)


def max3x3(b, n, at):
    """A 3x3 dilation of u8: the maximum of nine taps, rows 1000 apart."""
    taps = [b.load(n, 8, at + r * 1000 + c) for r in (-1, 0, 1) for c in (-1, 0, 1)]
    order = [0, 4, 8, 1, 2, 3, 5, 6, 7]
    m = taps[order[0]]
    for k in order[1:]:
        m = b.op(f"arith.maxui {m}, {taps[k]} : {vt(n, 8)}")
    b.store(m, n, 8, at)


def median(b, n, at):
    """A 3x3 median of u8 by the sorting network of min/max (many live
    values at once), rows 1000 apart."""
    t = vt(n, 8)
    taps = [b.load(n, 8, at + r * 1000 + c) for r in (-1, 0, 1) for c in (-1, 0, 1)]

    def sort3(a, c, d):
        lo1, hi1 = b.op(f"arith.minui {c}, {d} : {t}"), b.op(f"arith.maxui {c}, {d} : {t}")
        lo, mid = b.op(f"arith.minui {a}, {lo1} : {t}"), b.op(f"arith.maxui {a}, {lo1} : {t}")
        mid2, hi = b.op(f"arith.minui {mid}, {hi1} : {t}"), b.op(f"arith.maxui {mid}, {hi1} : {t}")
        return lo, mid2, hi

    rows = [sort3(*taps[3 * r:3 * r + 3]) for r in range(3)]
    lo = b.op(f"arith.maxui {b.op(f'arith.maxui {rows[0][0]}, {rows[1][0]} : {t}')}, {rows[2][0]} : {t}")
    hi = b.op(f"arith.minui {b.op(f'arith.minui {rows[0][2]}, {rows[1][2]} : {t}')}, {rows[2][2]} : {t}")
    mid = sort3(rows[0][1], rows[1][1], rows[2][1])[1]
    b.store(sort3(lo, mid, hi)[1], n, 8, at)


def absdiff(b, n, at):
    """Absolute difference of u8: maxui, minui, subi."""
    x, y = b.load(n, 8, at), b.load(n, 8, at + n)
    t = vt(n, 8)
    mx, mn = b.op(f"arith.maxui {x}, {y} : {t}"), b.op(f"arith.minui {x}, {y} : {t}")
    b.store(b.op(f"arith.subi {mx}, {mn} : {t}"), n, 8, at)


# name: (emit, memory element bits, lanes of one register-sized copy, what it triggers)
IDIOMS = {
    "average": (average, 8, 64, "in-place widening (where widening crosses lanes)"),
    "clamped_add": (clamped_add, 16, 32, "in-place widening (where widening crosses lanes)"),
    "group_sum": (group_sum, 8, 64, "sum as dot"),
    "weighted3": (weighted3, 8, 64, "in-place widening (where widening crosses lanes)"),
    "pair_sum": (pair_sum, 8, 32, "sum as dot, pairs (where pair sums are dot products)"),
    "contract": (contract, 8, 64, "elementwise contraction"),
    "matmul": (matmul, 8, 64, "register-sized contraction tiles"),
    "dot4": (dot4, 8, 64, "even/odd dot product (without a 4-way dot product)"),
    "weights": (weights, 8, 16, "equal weights factored"),
    "pool": (pool, 8, 64, "deinterleaved extrema"),
    "max3x3": (max3x3, 8, 64, "column extrema"),
    "median": (median, 8, 64, "piece order"),
    "absdiff": (absdiff, 8, 64, "synthesis"),
}


def program(idiom, mode, size):
    """The MLIR text of `idiom` at `size` lanes (`wide`) or `size` ops (`long`)."""
    emit, bits, register_lanes, _ = IDIOMS[idiom]
    b = Body()
    if mode == "wide":
        emit(b, size, 0)
    elif mode == "long":
        copy = 0
        while b.ops() < size:
            emit(b, register_lanes, 8 * register_lanes * copy)
            copy += 1
    else:
        raise ValueError(f"mode {mode}: wide or long")
    params = PARAMS
    body = "\n".join(f"  {line}" for line in b.lines)
    return f"func.func @{idiom}_{mode}_{size}({params}) {{\n{body}\n  return\n}}\n"


WIDTHS = [1024, 2048, 4096, 8192, 16384, 32768, 65536]
LENGTHS = [1000, 2500, 5000, 10000]


def random_program(seed, index):
    """Program `index` of the sized stream `seed`: one to three idioms over
    one wide vector width (up to 65,536 lanes), or copies of random idioms
    at register width up to 10,000 ops. Its name says which."""
    rng = random.Random(f"sized/{seed}/{index}")
    b = Body()
    names = list(IDIOMS)
    if rng.random() < 0.5:
        lanes = rng.choice(WIDTHS)
        chosen = rng.sample(names, rng.randint(1, 3))
        for k, idiom in enumerate(chosen):
            IDIOMS[idiom][0](b, lanes, 8 * lanes * k)
        shape = f"wide {lanes} lanes: {', '.join(chosen)}"
    else:
        ops = rng.choice(LENGTHS)
        copy = 0
        while b.ops() < ops:
            emit, _, lanes, _ = IDIOMS[rng.choice(names)]
            emit(b, lanes, 8 * 64 * copy)
            copy += 1
        shape = f"long {b.ops()} ops: {copy} random idioms"
    body = "\n".join(f"  {line}" for line in b.lines)
    return shape, f"func.func @s{index}({PARAMS}) {{\n{body}\n  return\n}}\n"


def main(argv):
    if argv[:1] == ["--list"]:
        for name, (_, _, _, what) in IDIOMS.items():
            print(f"{name}: {what}")
        return 0
    if len(argv) != 3 or argv[0] not in IDIOMS or argv[1] not in ("wide", "long"):
        sys.stderr.write(__doc__)
        return 2
    sys.stdout.write(program(argv[0], argv[1], int(argv[2])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
