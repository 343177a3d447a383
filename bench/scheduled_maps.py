"""Scheduled MLIR of the map kernels (bench/schedule.py): the definition at
the output type's natural width, the last vector of each row shifted
inwards; separable filters as a horizontal pass into a rolling buffer of
rows and a vertical pass over it."""

import schedule
import suite


class Emitter(suite.Mlir):
    """suite.Mlir whose loads go through `index(array, offset)` (an SSA index
    it emits) and whose names carry `prefix`, so several expressions share
    one function."""

    def __init__(self, lanes, arrays, index, prefix, memref_types=None):
        super().__init__(lanes, arrays, None)
        self.index, self.prefix = index, prefix
        self.memref_types = memref_types or {}

    def fresh(self):
        self.n += 1
        return f"%{self.prefix}{self.n}"

    def emit(self, e):
        if e[0] != "tap" or e in self.memo:
            return super().emit(e)
        array, offset = e[1], e[2]
        idx = self.index(self, array, offset)
        v = self.fresh()
        memref = self.memref_types.get(array, f"memref<?xi{self.arrays[array]}>")
        self.lines.append(f"{v} = vector.load %{array}[{idx}] : {memref}, {self.ty(self.arrays[array])}")
        self.memo[e] = v
        return v


def offset_index(base):
    """Taps at flat offsets from `base`: one addi each."""
    def index(m, array, offset):
        if not offset:
            return base
        i = m.fresh()
        m.lines.append(f"{i} = arith.addi {base}, %c{'m' if offset < 0 else ''}{abs(offset)} : index")
        return i
    return index


def index_constants(values):
    return [f"  %c{'m' if v < 0 else ''}{abs(v)} = arith.constant {v} : index" for v in sorted(set(values))]


def vector_loops(indent, lo, end, lanes, body):
    """Loops over the columns [lo, end) in vectors of `lanes`, `%xs` the
    vector's first column: the whole vectors, then, if the row is not whole
    vectors, the last one shifted inwards to end at `end` (Halide's tail,
    as its loop partitioning leaves it: out of the steady loop). Returns
    the lines and the index constants they use."""
    main_end = lo + (end - lo) // lanes * lanes
    loops = [(lo, main_end)] + ([(end - lanes, end)] if main_end != end else [])
    lines = []
    for first, last in loops:
        lines += [f"{indent}scf.for %xs = %c{first} to %c{last} step %c{lanes} {{"]
        lines += [f"{indent}  {l}" for l in body] + [f"{indent}}}"]
    return lines, {lo, main_end, end - lanes, end, lanes}


def signature(k):
    return ", ".join(f"%{a}: memref<?xi{b}>" for a, b, _ in k.params)


def map_kernel(k, vector_bits):
    """The definition, vectorized at the output's natural width."""
    st = k.stencil
    out_bits = suite.width(st.expr, st.arrays)
    lanes = schedule.natural_lanes(vector_bits, out_bits)
    taps = [t[2] for t in suite.walk(st.expr) if t[0] == "tap"]
    m = Emitter(lanes, st.arrays, offset_index("%base"), "v")
    result = m.emit(st.expr)
    body = ["%base = arith.addi %row, %xs : index", *m.lines,
            f"vector.store {result}, %{st.out}[%base] : memref<?xi{out_bits}>, vector<{lanes}xi{out_bits}>"]
    loops, used = vector_loops("    ", st.radius, st.x_end, lanes, body)
    lines = [f"func.func @{k.name}({signature(k)}) {{"]
    lines += index_constants([0, 1, st.stride, st.radius, st.rows - st.radius, *used, *taps])
    lines += [f"  scf.for %y = %c{st.radius} to %c{st.rows - st.radius} step %c1 {{",
              f"    %row = arith.muli %y, %c{st.stride} : index", *loops, "  }", "  return", "}"]
    return "\n".join(lines) + "\n"


def separable_kernel(k, form, vector_bits):
    """h rows into a rolling buffer of 2r+1 rows per strip of output rows;
    each output row: its newest h row, then the vertical pass over the
    buffer. The loop over a strip starts 2r rows early, so those iterations
    only fill the buffer. As in Halide's allocation, a buffer row starts at
    the first column computed and the buffer is aligned to a vector, so its
    vector loads and stores are aligned."""
    st, r = k.stencil, form.radius
    rows_kept = 2 * r + 1
    out_bits = suite.width(st.expr, st.arrays)
    lanes = schedule.natural_lanes(vector_bits, out_bits)
    hb = form.h_bits
    buffer = f"memref<{rows_kept * st.stride}xi{hb}>"
    lo, hi = st.radius, st.rows - st.radius
    horizontal = Emitter(lanes, {"src": 8}, offset_index("%hbase"), "h")
    h_value = horizontal.emit(form.horizontal)

    def buffer_row(m, array, offset):
        return f"%vbase{offset // st.stride + r}"

    vertical = Emitter(lanes, {"h": hb}, buffer_row, "v", {"h": buffer})
    v_value = vertical.emit(form.vertical)
    h_loops, h_used = vector_loops("      ", lo, st.x_end, lanes, [
        "%hbase = arith.addi %srow, %xs : index", *horizontal.lines, f"%xh = arith.subi %xs, %c{lo} : index",
        "%hi = arith.addi %hrow, %xh : index",
        f"vector.store {h_value}, %h[%hi] : {buffer}, vector<{lanes}xi{hb}>"])
    v_loops, v_used = vector_loops("        ", lo, st.x_end, lanes, [
        f"%xh = arith.subi %xs, %c{lo} : index",
        *[f"%vbase{d + r} = arith.addi %vrow{d + r}, %xh : index" for d in range(-r, r + 1)], *vertical.lines,
        "%oi = arith.addi %orow, %xs : index",
        f"vector.store {v_value}, %{st.out}[%oi] : memref<?xi{out_bits}>, vector<{lanes}xi{out_bits}>"])
    consts = [0, 1, r, 2 * r, rows_kept, st.stride, schedule.STRIP_ROWS, lo, hi, *h_used, *v_used,
              *range(-r, r + 1), *[t[2] for t in suite.walk(form.horizontal) if t[0] == "tap"]]
    lines = [f"func.func @{k.name}({signature(k)}) {{"] + index_constants(consts)
    lines += [f"  %h = memref.alloca() {{alignment = {max(64, lanes * hb // 8)} : i64}} : {buffer}",
              f"  scf.for %ys = %c{lo} to %c{hi} step %c{schedule.STRIP_ROWS} {{",
              f"    %ys_end = arith.addi %ys, %c{schedule.STRIP_ROWS} : index",
              f"    %ye = arith.minsi %ys_end, %c{hi} : index",
              f"    %y_first = arith.subi %ys, %c{2 * r} : index",
              "    scf.for %y = %y_first to %ye step %c1 {",
              f"      %yh = arith.addi %y, %c{r} : index",
              f"      %hslot = arith.remsi %yh, %c{rows_kept} : index",
              f"      %hrow = arith.muli %hslot, %c{st.stride} : index",
              f"      %srow = arith.muli %yh, %c{st.stride} : index", *h_loops,
              "      %ready = arith.cmpi sge, %y, %ys : index",
              "      scf.if %ready {"]
    for d in range(-r, r + 1):
        name = "m" if d < 0 else ""
        lines += [f"        %vy{d + r} = arith.addi %y, %c{name}{abs(d)} : index",
                  f"        %vslot{d + r} = arith.remsi %vy{d + r}, %c{rows_kept} : index",
                  f"        %vrow{d + r} = arith.muli %vslot{d + r}, %c{st.stride} : index"]
    lines += [f"        %orow = arith.muli %y, %c{st.stride} : index", *v_loops,
              "      }", "    }", "  }", "  return", "}"]
    return "\n".join(lines) + "\n"


def scheduled_map(k, vector_bits):
    form = schedule.separable(k)
    return separable_kernel(k, form, vector_bits) if form else map_kernel(k, vector_bits)
