"""Random `func.func`s over the integer `arith` ops and the `vector` ops the
window semantics cover, for differential testing of the lowering.

A program takes one to four vectors and returns one; its arguments and
result have 8-, 16-, 32- or 64-bit elements (they cross memory in the
harness), the values inside any width from 1 to 64 bits, every vector at
most 2048 bits. Constants favour edge values: 0, 1, all ones, the signed
minimum and maximum, powers of two, shift amounts at the width's end.

Programs are biased toward the idioms the grammar matches (extend,
multiply and reduce; clamp then truncate; rounding averages; high halves of
products; absolute differences; interleaves), so that rewrites fire, with
random ops between them. Nothing a program computes is undefined: divisors
are made nonzero (and, signed, positive), shift amounts are reduced below
the width, so LLVM's path and hydride's must agree on every input.
"""

import random
from dataclasses import dataclass, field

MAX_BITS = 2048
BOUNDARY_BITS = (8, 16, 32, 64)
LANE_WISE = ["addi", "subi", "muli", "andi", "ori", "xori", "maxsi", "maxui", "minsi", "minui"]
PREDICATES = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
REDUCTIONS = ["add", "mul", "minsi", "maxsi", "minui", "maxui", "and", "or", "xor"]


@dataclass(frozen=True)
class VT:
    lanes: int
    bits: int

    def __str__(self):
        return f"vector<{self.lanes}xi{self.bits}>"

    @property
    def elem(self):
        return f"i{self.bits}"


def boundary_bits(bits):
    """The memory width an element of `bits` crosses the harness in."""
    return next(b for b in BOUNDARY_BITS if b >= bits)


def fits(t):
    return t.lanes >= 1 and 1 <= t.bits <= 64 and t.lanes * boundary_bits(t.bits) <= MAX_BITS


def signed(value, bits):
    """`value` mod 2^bits as MLIR prints an integer of that width."""
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value


@dataclass
class Program:
    name: str
    args: list  # VT per argument
    lines: list  # body lines, without the return
    result: str
    result_type: VT
    idioms: list = field(default_factory=list)
    types: dict = field(default_factory=dict)  # every value's VT, arguments included

    def mlir(self):
        params = ", ".join(f"%a{i}: {t}" for i, t in enumerate(self.args))
        body = "\n".join(f"  {line}" for line in self.lines)
        return (f"func.func @{self.name}({params}) -> {self.result_type} {{\n{body}\n"
                f"  return {self.result} : {self.result_type}\n}}\n")


class Builder:
    """A program under construction: its values by type."""

    def __init__(self, rng, name, max_args=4, min_bits=64):
        self.rng = rng
        self.min_bits = min_bits
        self.name = name
        self.max_args = max_args
        self.args = []
        self.lines = []
        self.values = []  # (name, VT), in order
        self.count = 0
        self.idioms = []

    # -- values -------------------------------------------------------------

    def fresh(self):
        self.count += 1
        return f"%v{self.count}"

    def emit(self, text, t):
        name = self.fresh()
        self.lines.append(f"{name} = {text}")
        self.values.append((name, t))
        return name

    def arg(self, t):
        assert t.bits in BOUNDARY_BITS and fits(t)
        name = f"%a{len(self.args)}"
        self.args.append(t)
        self.values.append((name, t))
        return name

    def edge(self, bits):
        r = self.rng
        choice = r.randrange(8)
        if choice == 0:
            return 0
        if choice == 1:
            return 1
        if choice == 2:
            return (1 << bits) - 1
        if choice == 3:
            return 1 << (bits - 1)
        if choice == 4:
            return (1 << (bits - 1)) - 1
        if choice == 5:
            return 1 << r.randrange(bits)
        return r.getrandbits(bits)

    def constant(self, t, values=None):
        if values is None:
            if self.rng.random() < 0.7:
                values = [self.edge(t.bits)] * t.lanes
            else:
                values = [self.edge(t.bits) for _ in range(t.lanes)]
        if t.bits == 1:
            items = ["true" if v & 1 else "false" for v in values]
        else:
            items = [str(signed(v, t.bits)) for v in values]
        text = items[0] if len(set(items)) == 1 else "[" + ", ".join(items) + "]"
        return self.emit(f"arith.constant dense<{text}> : {t}", t)

    def value(self, t, fresh_ok=True):
        """A value of type `t`: an existing one, a new argument, or a constant."""
        have = [n for n, vt in self.values if vt == t]
        r = self.rng.random()
        if have and r < 0.75:
            return self.rng.choice(have)
        if fresh_ok and t.bits in BOUNDARY_BITS and len(self.args) < self.max_args and r < 0.9:
            return self.arg(t)
        if have:
            return self.rng.choice(have)
        return self.constant(t)

    def any_value(self):
        return self.rng.choice(self.values)

    # -- ops ----------------------------------------------------------------

    def binary(self, op, a, b, t):
        return self.emit(f"arith.{op} {a}, {b} : {t}", t)

    def splat(self, value, t):
        return self.constant(t, [value] * t.lanes)

    def ext(self, a, t, bits, signed_=None):
        kind = ("extsi" if signed_ else "extui") if signed_ is not None else self.rng.choice(["extsi", "extui"])
        nt = VT(t.lanes, bits)
        return self.emit(f"arith.{kind} {a} : {t} to {nt}", nt), nt

    def trunc(self, a, t, bits):
        nt = VT(t.lanes, bits)
        return self.emit(f"arith.trunci {a} : {t} to {nt}", nt), nt

    def shift_amount(self, b, t):
        """`b` reduced below the width (or a constant amount)."""
        if self.rng.random() < 0.5:
            w = t.bits
            return self.splat(self.rng.choice([0, 1, w - 1, w // 2, self.rng.randrange(w)]), t)
        return self.binary("remui", b, self.splat(t.bits, t), t)

    def nonzero(self, b, t, positive):
        if positive:
            b = self.binary("shrui", b, self.splat(1, t), t)
        return self.binary("ori", b, self.splat(1, t), t)

    def random_op(self, current=None):
        """One random op, most often on `current` (a value and its type),
        else on any value; its result."""
        r = self.rng
        name, t = current if current and r.random() < 0.8 else self.any_value()
        kind = r.choice(["lane", "lane", "lane", "div", "shift", "select", "ext", "trunc", "shuffle", "interleave",
                         "bitcast", "slice", "reduce", "multi_reduce", "extended"])
        if kind == "lane" or t.bits == 1:
            if t.bits == 1:
                op = r.choice(["andi", "ori", "xori"])
            else:
                op = r.choice(LANE_WISE)
            return self.binary(op, name, self.value(t), t), t
        if kind == "div" and t.bits >= 2:
            op = r.choice(["divui", "remui", "divsi", "remsi", "ceildivsi", "floordivsi"])
            b = self.nonzero(self.value(t), t, positive=op not in ("divui", "remui"))
            return self.binary(op, name, b, t), t
        if kind == "shift":
            op = r.choice(["shli", "shrui", "shrsi"])
            return self.binary(op, name, self.shift_amount(self.value(t), t), t), t
        if kind == "select":
            c = self.emit(f"arith.cmpi {r.choice(PREDICATES)}, {name}, {self.value(t)} : {t}", VT(t.lanes, 1))
            return self.emit(f"arith.select {c}, {self.value(t)}, {self.value(t)} : {VT(t.lanes, 1)}, {t}", t), t
        if kind == "ext":
            wider = [b for b in range(t.bits + 1, 65) if fits(VT(t.lanes, b))]
            if wider:
                bits = r.choice([b for b in wider if b in BOUNDARY_BITS] or wider) if r.random() < 0.7 else r.choice(wider)
                return self.ext(name, t, bits)
        if kind == "trunc" and t.bits > 1:
            bits = r.choice([b for b in (1, 3, 7, 8, 12, 16, 31, 32) if b < t.bits] or [t.bits - 1])
            return self.trunc(name, t, bits)
        if kind == "shuffle":
            other = self.value(t)
            n = t.lanes
            shapes = [
                [i // 2 + (n if i % 2 else 0) for i in range(2 * n)],  # interleave
                [2 * i for i in range(n)],  # even
                [2 * i + 1 for i in range(n)],  # odd
                list(reversed(range(n))),
                [r.randrange(2 * n) for _ in range(n)],
            ]
            mask = [m for m in r.choice(shapes)]
            nt = VT(len(mask), t.bits)
            if fits(nt):
                return self.emit(f"vector.shuffle {name}, {other} [{', '.join(map(str, mask))}] : {t}, {t}", nt), nt
        if kind == "interleave":
            nt = VT(2 * t.lanes, t.bits)
            if fits(nt):
                return self.emit(f"vector.interleave {name}, {self.value(t)} : {t} -> {nt}", nt), nt
            if t.lanes % 2 == 0:
                half = VT(t.lanes // 2, t.bits)
                pair = self.fresh()
                self.lines.append(f"{pair}:2 = vector.deinterleave {name} : {t} -> {half}")
                self.values.append((f"{pair}#0", half))
                self.values.append((f"{pair}#1", half))
                return f"{pair}#{r.randrange(2)}", half
        if kind == "bitcast" and t.bits in BOUNDARY_BITS:
            total = t.lanes * t.bits
            choices = [b for b in BOUNDARY_BITS if total % b == 0 and b != t.bits]
            if choices:
                bits = r.choice(choices)
                nt = VT(total // bits, bits)
                return self.emit(f"vector.bitcast {name} : {t} to {nt}", nt), nt
        if kind == "slice" and t.lanes >= 2:
            size = r.randrange(1, t.lanes)
            offset = r.randrange(t.lanes - size + 1)
            nt = VT(size, t.bits)
            return self.emit(f"vector.extract_strided_slice {name} {{offsets = [{offset}], sizes = [{size}], strides = [1]}}"
                             f" : {t} to {nt}", nt), nt
        if kind == "reduce" and t.bits > 1:
            red = r.choice(REDUCTIONS)
            s = self.fresh()
            self.lines.append(f"{s} = vector.reduction <{red}>, {name} : {t} into {t.elem}")
            nt = VT(r.choice([l for l in (1, 2, 4, 8, 16, t.lanes) if fits(VT(l, t.bits))]), t.bits)
            return self.emit(f"vector.broadcast {s} : {t.elem} to {nt}", nt), nt
        if kind == "multi_reduce" and t.bits > 1:
            groups = [k for k in (2, 4, 8) if t.lanes % k == 0 and t.lanes > k]
            if groups:
                return self.sum_groups(name, t, r.choice(groups), r.choice(["add", "maxui", "minsi", "xor"]))
        if kind == "extended" and t.bits >= 2:
            op = r.choice(["mulsi_extended", "mului_extended"])
            pair = self.fresh()
            self.lines.append(f"{pair}:2 = arith.{op} {name}, {self.value(t)} : {t}")
            self.values.append((f"{pair}#0", t))
            self.values.append((f"{pair}#1", t))
            return f"{pair}#{r.randrange(2)}", t
        return self.binary(r.choice(LANE_WISE) if t.bits > 1 else "xori", name, self.value(t), t), t

    def sum_groups(self, name, t, k, kind="add", acc=None):
        """`name`'s lanes combined in groups of `k` (shape_cast + multi_reduction)."""
        groups = VT(t.lanes // k, t.bits)
        shaped = self.fresh()
        self.lines.append(f"{shaped} = vector.shape_cast {name} : {t} to vector<{groups.lanes}x{k}x{t.elem}>")
        if acc is None:
            acc = self.value(groups) if kind == "add" and self.rng.random() < 0.5 else self.splat(
                {"add": 0, "xor": 0, "maxui": 0, "minsi": (1 << (t.bits - 1)) - 1}[kind], groups)
        return self.emit(f"vector.multi_reduction <{kind}>, {shaped}, {acc} [1] : vector<{groups.lanes}x{k}x{t.elem}>"
                         f" to {groups}", groups), groups

    # -- idioms -------------------------------------------------------------

    def idiom(self):
        """One computation of the kind the grammar matches; its result."""
        r = self.rng
        which = r.choice(["saturate", "average", "mulhi", "dot", "madd", "absdiff", "clamp_trunc", "shifted_product",
                          "interleave"])
        self.idioms.append(which)
        bits = r.choice([8, 8, 16, 16, 32])
        # Vectors of at least a register (min_bits), with room to widen 4x;
        # for wide registers, 2x where 4x does not fit.
        def lane_counts(room):
            return [l for l in (4, 8, 16, 32, 64, 128) if fits(VT(l, room * bits)) and l * bits >= self.min_bits]
        lanes = r.choice(lane_counts(4) or (self.min_bits > 64 and lane_counts(2)) or [2])
        t = VT(lanes, bits)
        sg = r.random() < 0.5
        wide_bits = r.choice([2 * bits, 2 * bits, 4 * bits, 64]) if bits < 64 else 64
        if not fits(VT(lanes, wide_bits)):
            wide_bits = 2 * bits
        if which in ("saturate", "clamp_trunc"):
            a, wt = self.ext(self.value(t), t, wide_bits, sg)
            if which == "saturate":
                b, _ = self.ext(self.value(t), t, wide_bits, sg)
                a = self.binary(r.choice(["addi", "subi"]), a, b, wt)
            lo, hi = ((-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if sg else (0, (1 << bits) - 1))
            a = self.binary("maxsi", a, self.splat(lo, wt), wt)
            a = self.binary("minsi", a, self.splat(hi, wt), wt)
            return self.trunc(a, wt, bits)
        if which == "average":
            a, wt = self.ext(self.value(t), t, wide_bits, sg)
            b, _ = self.ext(self.value(t), t, wide_bits, sg)
            s = self.binary("addi", a, b, wt)
            s = self.binary("addi", s, self.splat(r.choice([0, 1]), wt), wt)
            s = self.binary("shrsi" if sg else "shrui", s, self.splat(1, wt), wt)
            return self.trunc(s, wt, bits)
        if which in ("mulhi", "shifted_product"):
            a, wt = self.ext(self.value(t), t, wide_bits, sg)
            b, _ = self.ext(self.value(t), t, wide_bits, r.random() < 0.5)
            p = self.binary("muli", a, b, wt)
            if r.random() < 0.4:
                p = self.binary("addi", p, self.splat(1 << (bits - 2), wt), wt)
            amount = bits if which == "mulhi" else r.choice([bits - 1, bits, 1, 3])
            p = self.binary("shrsi" if sg else "shrui", p, self.splat(amount, wt), wt)
            return self.trunc(p, wt, bits)
        if which in ("dot", "madd"):
            k = 4 if which == "dot" else 2
            if lanes % k or lanes == k:
                lanes = 16 * k
            t = VT(lanes, 8 if which == "dot" else 16)
            acc_bits = 32
            if not fits(VT(lanes, acc_bits)):
                t = VT(MAX_BITS // acc_bits, t.bits)
            a, wt = self.ext(self.value(t), t, acc_bits, r.random() < 0.5)
            b, _ = self.ext(self.value(t), t, acc_bits, r.random() < 0.5)
            p = self.binary("muli", a, b, wt)
            return self.sum_groups(p, wt, k, "add")
        if which == "absdiff":
            a, b = self.value(t), self.value(t)
            mx = self.binary("maxsi" if sg else "maxui", a, b, t)
            mn = self.binary("minsi" if sg else "minui", a, b, t)
            return self.binary("subi", mx, mn, t), t
        # interleave
        a, b = self.value(t), self.value(t)
        n = t.lanes
        mask = [i // 2 + (n if i % 2 else 0) for i in range(n)]
        return self.emit(f"vector.shuffle {a}, {b} [{', '.join(map(str, mask))}] : {t}, {t}", t), t

    def finish(self, name, t):
        """Returns `name` (extended to a width that crosses memory)."""
        if t.bits not in BOUNDARY_BITS:
            name, t = self.ext(name, t, boundary_bits(t.bits))
        return Program(self.name, self.args, self.lines, name, t, self.idioms, dict(self.values))


def generate(seed, index, min_bits=64):
    """Program `index` of the stream `seed`, its vectors mostly at least
    `min_bits` wide (a target's register: smaller ones a target of wide
    registers leaves to LLVM)."""
    rng = random.Random(f"{seed}/{index}")
    b = Builder(rng, f"p{index}", min_bits=min_bits)
    result = None
    for _ in range(rng.choice([1, 1, 2, 3])):
        if rng.random() < 0.75:
            result = b.idiom()
        else:
            lanes, bits = rng.choice([8, 16, 32, 64]), rng.choice([8, 16, 32])
            t = VT(max(lanes, min_bits // bits), bits)
            result = b.random_op((b.value(t), t))
        for _ in range(rng.choice([0, 0, 1, 2, 4])):
            result = b.random_op(result)
    return b.finish(*result)
