"""Scheduled MLIR of the kernels over rows and channels (bench/schedule.py):
2x2 pooling and softmax's integer parts at the natural u8 width, squared
L2 norms L2NORM_ROWS rows per step (each row one vector reduction), and
the depthwise convolution DEPTHWISE_VECTORS natural i32 vectors of
channels per step, the channel groups unrolled."""

import schedule
from scheduled_maps import vector_loops


def pool(k, vector_bits):
    d = k.dims
    kind = k.name.split("_")[0]
    lanes = schedule.natural_lanes(vector_bits, 8)
    vt, wt = f"vector<{lanes}xi8>", f"vector<{lanes}xi16>"
    if kind == "max":
        body = [f"%m1 = arith.maxui %e0, %o0 : {vt}", f"%m2 = arith.maxui %e1, %o1 : {vt}",
                f"%r = arith.maxui %m1, %m2 : {vt}"]
    else:
        body = [f"%w{i} = arith.extui {v} : {vt} to {wt}" for i, v in enumerate(["%e0", "%e1", "%o0", "%o1"])]
        # The columns' pairs summed first, as the Halide pipeline writes it.
        body += [f"%two = arith.constant dense<2> : {wt}", f"%s1 = arith.addi %w0, %w1 : {wt}",
                 f"%s2 = arith.addi %w2, %w3 : {wt}", f"%s3 = arith.addi %s1, %s2 : {wt}",
                 f"%s4 = arith.addi %s3, %two : {wt}", f"%s5 = arith.shrui %s4, %two : {wt}",
                 f"%r = arith.trunci %s5 : {wt} to {vt}"]
    width, x_end = d["width"], d["x_end"]
    loops, used = vector_loops("    ", 0, x_end, lanes, [
        "%x2 = arith.muli %xs, %c2 : index", "%i0 = arith.addi %r0, %x2 : index", "%i1 = arith.addi %r1, %x2 : index",
        f"%l0 = vector.load %src[%i0] : memref<?xi8>, vector<{2 * lanes}xi8>",
        f"%l1 = vector.load %src[%i1] : memref<?xi8>, vector<{2 * lanes}xi8>",
        f"%e0, %o0 = vector.deinterleave %l0 : vector<{2 * lanes}xi8> -> {vt}",
        f"%e1, %o1 = vector.deinterleave %l1 : vector<{2 * lanes}xi8> -> {vt}", *body,
        "%oi = arith.addi %orow, %xs : index", f"vector.store %r, %dst[%oi] : memref<?xi8>, {vt}"])
    consts = sorted({0, 1, 2, d["out_height"], width, d["out_width"], *used})
    lines = [f"func.func @{k.name}(%src: memref<?xi8>, %dst: memref<?xi8>) {{"]
    lines += [f"  %c{v} = arith.constant {v} : index" for v in consts]
    lines += [f"  scf.for %y = %c0 to %c{d['out_height']} step %c1 {{",
              "    %y2 = arith.muli %y, %c2 : index",
              f"    %r0 = arith.muli %y2, %c{width} : index",
              f"    %r1 = arith.addi %r0, %c{width} : index",
              f"    %orow = arith.muli %y, %c{d['out_width']} : index", *loops, "  }", "  return", "}"]
    return "\n".join(lines) + "\n"


def softmax(k, vector_bits):
    """The row maximum in `lanes` partial maxima (rfactor), combined once;
    then max - x at the same width."""
    d = k.dims
    lanes = schedule.natural_lanes(vector_bits, 8)
    while d["n"] % lanes:
        lanes //= 2
    vt = f"vector<{lanes}xi8>"
    return f"""func.func @{k.name}(%x: memref<?xi8>, %out: memref<?xi8>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %step = arith.constant {lanes} : index
  %rows = arith.constant {d['rows']} : index
  %n = arith.constant {d['n']} : index
  %zero = arith.constant dense<0> : {vt}
  scf.for %r = %c0 to %rows step %c1 {{
    %row = arith.muli %r, %n : index
    %mv = scf.for %k = %c0 to %n step %step iter_args(%m = %zero) -> ({vt}) {{
      %i = arith.addi %row, %k : index
      %v = vector.load %x[%i] : memref<?xi8>, {vt}
      %m2 = arith.maxui %m, %v : {vt}
      scf.yield %m2 : {vt}
    }}
    %mx = vector.reduction <maxui>, %mv : {vt} into i8
    %mb = vector.broadcast %mx : i8 to {vt}
    scf.for %k = %c0 to %n step %step {{
      %i = arith.addi %row, %k : index
      %v = vector.load %x[%i] : memref<?xi8>, {vt}
      %d = arith.subi %mb, %v : {vt}
      vector.store %d, %out[%i] : memref<?xi8>, {vt}
    }}
  }}
  return
}}
"""


def l2norm(k, vector_bits):
    """L2NORM_ROWS rows per step; each row's squares summed by one vector
    reduction over the whole row (Halide's atomic vectorized update)."""
    d = k.dims
    n, per = d["n"], schedule.L2NORM_ROWS
    lines = [f"func.func @{k.name}(%x: memref<?xi16>, %out: memref<?xi32>) {{",
             "  %c0 = arith.constant 0 : index", f"  %step = arith.constant {per} : index",
             f"  %rows = arith.constant {d['rows']} : index", f"  %n = arith.constant {n} : index"]
    lines += [f"  %c{i} = arith.constant {i} : index" for i in range(1, per)]
    lines += ["  scf.for %r = %c0 to %rows step %step {"]
    for i in range(per):
        lines += [f"    %r{i} = arith.addi %r, %c{i} : index",
                  f"    %row{i} = arith.muli %r{i}, %n : index",
                  f"    %v{i} = vector.load %x[%row{i}] : memref<?xi16>, vector<{n}xi16>",
                  f"    %e{i} = arith.extsi %v{i} : vector<{n}xi16> to vector<{n}xi32>",
                  f"    %sq{i} = arith.muli %e{i}, %e{i} : vector<{n}xi32>",
                  f"    %t{i} = vector.reduction <add>, %sq{i} : vector<{n}xi32> into i32",
                  f"    memref.store %t{i}, %out[%r{i}] : memref<?xi32>"]
    lines += ["  }", "  return", "}"]
    return "\n".join(lines) + "\n"


def depthwise_conv(k, vector_bits):
    """Channels in groups of DEPTHWISE_VECTORS natural i32 vectors, the
    groups unrolled; the nine taps unrolled and summed in order. The
    weights, the same for every pixel, are loaded and extended once before
    the loops, as Halide's compiled loops hold them (its buffers do not
    alias, so it hoists them; an MLIR memref carries no such promise to
    LLVM)."""
    d = k.dims
    h, w, c = d["h"], d["w"], d["c"]
    oh, ow = h - 2, w - 2
    v = min(c, schedule.DEPTHWISE_VECTORS * schedule.natural_lanes(vector_bits, 32))
    lines = [f"func.func @{k.name}(%A: memref<?xi8>, %W: memref<?xi8>, %out: memref<?xi32>) {{",
             "  %c0 = arith.constant 0 : index", "  %c1 = arith.constant 1 : index",
             f"  %nc = arith.constant {c} : index", f"  %oh = arith.constant {oh} : index",
             f"  %ow = arith.constant {ow} : index", f"  %w = arith.constant {w} : index"]
    offsets = sorted({((t // 3) * w + t % 3) * c + g for t in range(9) for g in range(0, c, v)}
                     | {t * c + g for t in range(9) for g in range(0, c, v)} | set(range(0, c, v)))
    lines += [f"  %o{o} = arith.constant {o} : index" for o in offsets]
    for g in range(0, c, v):
        for t in range(9):
            n = f"{g}_{t}"
            lines += [f"  %wv{n} = vector.load %W[%o{t * c + g}] : memref<?xi8>, vector<{v}xi8>",
                      f"  %we{n} = arith.extsi %wv{n} : vector<{v}xi8> to vector<{v}xi32>"]
    lines += ["  scf.for %y = %c0 to %oh step %c1 {", "    scf.for %x = %c0 to %ow step %c1 {",
              "      %ir = arith.muli %y, %w : index", "      %ip = arith.addi %ir, %x : index",
              "      %pb = arith.muli %ip, %nc : index", "      %orow = arith.muli %y, %ow : index",
              "      %op = arith.addi %orow, %x : index", "      %ob = arith.muli %op, %nc : index"]
    for g in range(0, c, v):
        sums = []
        for t in range(9):
            a_off = ((t // 3) * w + t % 3) * c + g
            n = f"{g}_{t}"
            lines += [f"      %ai{n} = arith.addi %pb, %o{a_off} : index",
                      f"      %a{n} = vector.load %A[%ai{n}] : memref<?xi8>, vector<{v}xi8>",
                      f"      %ae{n} = arith.extui %a{n} : vector<{v}xi8> to vector<{v}xi32>",
                      f"      %p{n} = arith.muli %ae{n}, %we{n} : vector<{v}xi32>"]
            if sums:
                lines.append(f"      %s{n} = arith.addi {sums[-1]}, %p{n} : vector<{v}xi32>")
                sums.append(f"%s{n}")
            else:
                sums.append(f"%p{n}")
        lines += [f"      %oi{g} = arith.addi %ob, %o{g} : index",
                  f"      vector.store {sums[-1]}, %out[%oi{g}] : memref<?xi32>, vector<{v}xi32>"]
    lines += ["    }", "  }", "  return", "}"]
    return "\n".join(lines) + "\n"
