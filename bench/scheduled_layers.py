"""Scheduled MLIR of the quantized layers (bench/schedule.py): dot products
of u8 activations and i8 weights in groups of DOT_GROUP bytes summed into
one vector of natural i32 lanes, the lanes summed once per output; the
batch rows of a layer (or CONV_FILTERS filters of the convolution) share
each loaded vector of the other operand, one accumulator each."""

import re

import schedule
import suite


def dot_lanes(vector_bits, length):
    """i32 lanes of the dot product's accumulator: the natural count, halved
    until whole steps of DOT_GROUP bytes per lane cover `length`."""
    lanes = schedule.natural_lanes(vector_bits, 32)
    while length % (schedule.DOT_GROUP * lanes) and lanes > 1:
        lanes //= 2
    return lanes


def dot_step(tag, acc, a_vec, w_ext, lanes, contract, indent):
    """Lines adding the grouped dot product of the loaded bytes `a_vec` (u8)
    and the extended weights `w_ext` into `acc`; its result is `%s{tag}`."""
    return extend(f"%ae{tag}", a_vec, "extui", lanes, contract, indent) + product(tag, acc, f"%ae{tag}", w_ext, lanes,
                                                                                 contract, indent)


def extend(name, vec, how, lanes, contract, indent):
    """`name`: loaded bytes extended (`how`: extui, extsi) to i32, shaped for
    `product`. With `contract`, reshaped to lanes x DOT_GROUP first, as
    linalg vectorization writes a contraction."""
    g, n = schedule.DOT_GROUP, lanes * schedule.DOT_GROUP
    if contract:
        return [f"{indent}{name}_2d = vector.shape_cast {vec} : vector<{n}xi8> to vector<{lanes}x{g}xi8>",
                f"{indent}{name} = arith.{how} {name}_2d : vector<{lanes}x{g}xi8> to vector<{lanes}x{g}xi32>"]
    return [f"{indent}{name} = arith.{how} {vec} : vector<{n}xi8> to vector<{n}xi32>"]


def renamed(lines, suffix, keep):
    """`lines` with every SSA name but those in `keep` given `suffix`."""
    return re.sub(r"%(\w+)", lambda m: m.group(0) if m.group(1) in keep else f"%{m.group(1)}{suffix}", lines)


def layer(tag, a, w, bias, batch, n_out, k_len, tail, vector_bits, contract=False):
    """Outputs n of one layer, each a dot product per batch row b (the rows
    unrolled, one accumulator each, sharing every weight vector), then
    `tail(b)`: lines from `%y_b` (sum + bias, i32) and `%oi_b` (the output
    index). Needs `%c0`, `%c1`."""
    lanes = dot_lanes(vector_bits, k_len)
    step = lanes * schedule.DOT_GROUP
    vt = f"vector<{lanes}xi32>"
    accs = ", ".join(f"%a{b}_i = %zero{tag}" for b in range(batch))
    lines = [f"  %zero{tag} = arith.constant dense<0> : {vt}",
             f"  %klen{tag} = arith.constant {k_len} : index",
             f"  %step{tag} = arith.constant {step} : index",
             f"  %nn{tag} = arith.constant {n_out} : index"]
    lines += [f"  %arow{tag}_{b} = arith.constant {b * k_len} : index" for b in range(batch)]
    lines += [f"  %orow{tag}_{b} = arith.constant {b * n_out} : index" for b in range(batch)]
    lines += [f"  scf.for %n = %c0 to %nn{tag} step %c1 {{",
              f"    %wrow = arith.muli %n, %klen{tag} : index",
              f"    %acc:{batch} = scf.for %k = %c0 to %klen{tag} step %step{tag} iter_args({accs}) -> "
              f"({', '.join([vt] * batch)}) {{",
              "      %wi = arith.addi %wrow, %k : index",
              f"      %wv = vector.load {w}[%wi] : memref<?xi8>, vector<{step}xi8>"]
    lines += extend("%we", "%wv", "extsi", lanes, contract, "      ")
    for b in range(batch):
        lines += [f"      %ai{b} = arith.addi %arow{tag}_{b}, %k : index",
                  f"      %av{b} = vector.load {a}[%ai{b}] : memref<?xi8>, vector<{step}xi8>"]
        lines += dot_step(b, f"%a{b}_i", f"%av{b}", "%we", lanes, contract, "      ")
    lines += [f"      scf.yield {', '.join(f'%s{b}' for b in range(batch))} : {', '.join([vt] * batch)}", "    }",
              f"    %bn = memref.load {bias}[%n] : memref<?xi32>"]
    for b in range(batch):
        lines += [f"    %sum_{b} = vector.reduction <add>, %acc#{b} : {vt} into i32",
                  f"    %y_{b} = arith.addi %sum_{b}, %bn : i32",
                  f"    %oi_{b} = arith.addi %orow{tag}_{b}, %n : index"]
        lines += tail(b)
    lines.append("  }")
    return lines


def epilogue_tail(epilogue):
    """The tail of a matmul's epilogue (suite.EPILOGUES) for batch row b."""
    epi, result, _, extra = suite.EPILOGUES[epilogue]
    keep = {"R", "out"}

    def tail(b):
        text = renamed(epi, f"_{b}", keep) if epi else ""
        res = renamed(result, f"_{b}", keep)
        return ([text] if text else []) + [f"    memref.store {res}, %out[%oi_{b}] : memref<?xi32>"]
    return tail


def matmul(k, vector_bits, contract=False):
    d = k.dims
    sig = ", ".join(f"%{p}: memref<?xi{b}>" for p, b, _ in k.params)
    body = layer("", "%A", "%W", "%bias", d["batch"], d["n_out"], d["k"], epilogue_tail(d["epilogue"]),
                 vector_bits, contract)
    return "\n".join([f"func.func @{k.name}({sig}) {{", "  %c0 = arith.constant 0 : index",
                      "  %c1 = arith.constant 1 : index", *body, "  return", "}"]) + "\n"


def mlp_matmul(k, vector_bits):
    d = k.dims
    b, n1, k1, n2 = d["batch"], d["n1"], d["k1"], d["n2"]
    sig = ", ".join(f"%{p}: memref<?xi{w}>" for p, w, _ in k.params)

    def requantize(i):
        return [f"    %r0_{i} = arith.maxsi %y_{i}, %izero : i32",
                f"    %r1_{i} = arith.shrsi %r0_{i}, %i8 : i32",
                f"    %r2_{i} = arith.minsi %r1_{i}, %i255 : i32",
                f"    %h_{i} = arith.trunci %r2_{i} : i32 to i8",
                f"    memref.store %h_{i}, %H[%oi_{i}] : memref<?xi8>"]

    def store(i):
        return [f"    memref.store %y_{i}, %out[%oi_{i}] : memref<?xi32>"]

    lines = [f"func.func @{k.name}({sig}) {{", "  %c0 = arith.constant 0 : index", "  %c1 = arith.constant 1 : index",
             "  %izero = arith.constant 0 : i32", "  %i8 = arith.constant 8 : i32", "  %i255 = arith.constant 255 : i32"]
    lines += layer("1", "%A", "%W1", "%b1", b, n1, k1, requantize, vector_bits)
    lines += layer("2", "%H", "%W2", "%b2", b, n2, n1, store, vector_bits)
    return "\n".join(lines + ["  return", "}"]) + "\n"


def conv_nn(k, vector_bits, contract=False):
    """out(f, x, y) = bias(f) + the dot product over the 3x3 taps and the
    channels; CONV_FILTERS filters per step share each activation vector.
    Loops as Halide's: taps' rows, taps' columns, channel vectors."""
    d = k.dims
    h, w, ch, fo = d["h"], d["w"], d["c"], d["o"]
    oh, ow = h - 2, w - 2
    taps = 9 * ch
    nf = schedule.CONV_FILTERS
    lanes = dot_lanes(vector_bits, ch)
    step = lanes * schedule.DOT_GROUP
    vt = f"vector<{lanes}xi32>"
    vts = ", ".join([vt] * nf)
    sig = ", ".join(f"%{p}: memref<?xi{b}>" for p, b, _ in k.params)
    lines = [f"func.func @{k.name}({sig}) {{"]
    lines += [f"  %c{v} = arith.constant {v} : index" for v in sorted({0, 1, 2, 3, ch, oh, ow, fo, w, taps, step, nf})]
    lines += [f"  %zero = arith.constant dense<0> : {vt}",
              f"  scf.for %y = %c0 to %c{oh} step %c1 {{",
              f"    scf.for %x = %c0 to %c{ow} step %c1 {{",
              f"      %pix = arith.muli %y, %c{ow} : index",
              "      %pix2 = arith.addi %pix, %x : index",
              f"      %obase = arith.muli %pix2, %c{fo} : index",
              f"      scf.for %f = %c0 to %c{fo} step %c{nf} {{"]
    lines += [f"        %f{i} = arith.addi %f, %c{i} : index" for i in range(nf)]
    lines += [f"        %wb{i} = arith.muli %f{i}, %c{taps} : index" for i in range(nf)]
    zeros = ", ".join(f"%q{i} = %zero" for i in range(nf))
    lines += [f"        %accy:{nf} = scf.for %dy = %c0 to %c3 step %c1 iter_args({zeros}) -> ({vts}) {{",
              "          %yy = arith.addi %y, %dy : index",
              f"          %ir = arith.muli %yy, %c{w} : index",
              f"          %accx:{nf} = scf.for %dx = %c0 to %c3 step %c1 iter_args("
              + ", ".join(f"%r{i} = %q{i}" for i in range(nf)) + f") -> ({vts}) {{",
              "            %xx = arith.addi %x, %dx : index",
              "            %ip = arith.addi %ir, %xx : index",
              f"            %abase = arith.muli %ip, %c{ch} : index",
              "            %t3 = arith.muli %dy, %c3 : index",
              "            %t = arith.addi %t3, %dx : index",
              f"            %tw = arith.muli %t, %c{ch} : index",
              f"            %accc:{nf} = scf.for %ci = %c0 to %c{ch} step %c{step} iter_args("
              + ", ".join(f"%u{i} = %r{i}" for i in range(nf)) + f") -> ({vts}) {{",
              "              %ai = arith.addi %abase, %ci : index",
              f"              %av = vector.load %A[%ai] : memref<?xi8>, vector<{step}xi8>"]
    lines += extend("%ae", "%av", "extui", lanes, contract, "              ")
    for i in range(nf):
        lines += [f"              %wt{i} = arith.addi %wb{i}, %tw : index",
                  f"              %wi{i} = arith.addi %wt{i}, %ci : index",
                  f"              %wv{i} = vector.load %W[%wi{i}] : memref<?xi8>, vector<{step}xi8>"]
        lines += extend(f"%we{i}", f"%wv{i}", "extsi", lanes, contract, "              ")
        lines += product(i, f"%u{i}", "%ae", f"%we{i}", lanes, contract, "              ")
    lines += [f"              scf.yield {', '.join(f'%s{i}' for i in range(nf))} : {vts}", "            }",
              f"            scf.yield {', '.join(f'%accc#{i}' for i in range(nf))} : {vts}", "          }",
              f"          scf.yield {', '.join(f'%accx#{i}' for i in range(nf))} : {vts}", "        }"]
    for i in range(nf):
        lines += [f"        %sum{i} = vector.reduction <add>, %accy#{i} : {vt} into i32",
                  f"        %bn{i} = memref.load %bias[%f{i}] : memref<?xi32>",
                  f"        %o{i} = arith.addi %sum{i}, %bn{i} : i32",
                  f"        %oi{i} = arith.addi %obase, %f{i} : index",
                  f"        memref.store %o{i}, %out[%oi{i}] : memref<?xi32>"]
    lines += ["      }", "    }", "  }", "  return", "}"]
    return "\n".join(lines) + "\n"


def product(tag, acc, a_ext, w_ext, lanes, contract, indent):
    """`%s{tag}`: acc plus the grouped dot product of two extended vectors."""
    g, n = schedule.DOT_GROUP, lanes * schedule.DOT_GROUP
    if contract:
        return [f"{indent}%s{tag} = vector.contract {{indexing_maps = [affine_map<(m, k) -> (m, k)>, "
                f"affine_map<(m, k) -> (m, k)>, affine_map<(m, k) -> (m)>], iterator_types = [\"parallel\", "
                f"\"reduction\"], kind = #vector.kind<add>}} {a_ext}, {w_ext}, {acc} : vector<{lanes}x{g}xi32>, "
                f"vector<{lanes}x{g}xi32> into vector<{lanes}xi32>"]
    return [f"{indent}%p{tag} = arith.muli {a_ext}, {w_ext} : vector<{n}xi32>",
            f"{indent}%p4{tag} = vector.shape_cast %p{tag} : vector<{n}xi32> to vector<{lanes}x{g}xi32>",
            f"{indent}%s{tag} = vector.multi_reduction <add>, %p4{tag}, {acc} [1] : vector<{lanes}x{g}xi32> to vector<{lanes}xi32>"]
