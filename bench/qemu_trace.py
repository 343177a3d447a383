"""The dynamic cost of one call of each path, for targets run under
qemu-user: the program runs once with qemu's block trace (`-d
in_asm,exec,nochain`), every executed translation block is counted, each
block is priced statically, and a path's cost is the sum over the blocks in
its own code (the input sections of its object files, from the linker's
map) of executions times price. Paths whose loops cover different numbers
of elements per iteration (Halide's schedules, clang's unrolling) are then
compared on the same work: one call on the suite's arrays.

A block's price is what the hot-loop figures use: llvm-mca cycles on the
target's named core (the block repeated, in steady state, together with the
blocks qemu split it from), or on Hexagon, which llvm-mca does not model,
its packets. Calls into code outside a
path's objects (the C library, Halide's runtime) are not counted.
qemu's own time is never a figure.
"""

import collections
import os
import re
import subprocess

from asm import LLVM, McaError

# A block executed: `Trace 0: <host> [<flags>/<guest pc>/<flags>/<cflags>] <symbol>`.
TRACE = re.compile(r"^Trace \d+: \S+ \[[0-9a-f]+/([0-9a-f]+)/")
# An instruction of a translated block (`-d in_asm`): `0x<address>:  <encoding> <text>`.
INSTRUCTION = re.compile(r"^0x([0-9a-f]+):\s")


def object_text(map_file, objects):
    """Per object file (as named in the link), the address ranges of its
    code, from lld's map (`-Wl,-Map=`): every input section `.text*`."""
    wanted = {os.path.abspath(o): o for o in objects}
    ranges = collections.defaultdict(list)
    with open(map_file) as f:
        for line in f:
            m = re.match(r"^\s*([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)\s+\d+\s+(\S+):\((\.text[^)]*)\)\s*$", line)
            if not m:
                continue
            path = os.path.abspath(m.group(3))
            if path in wanted and int(m.group(2), 16):
                lo = int(m.group(1), 16)
                ranges[wanted[path]].append((lo, lo + int(m.group(2), 16)))
    return ranges


def run_traced(runner, exe, timeout):
    """Runs `exe` under qemu with the block trace, streamed through a pipe.
    Returns (the program's CompletedProcess, executions per block start,
    each translated block's instructions as (address, qemu's text))."""
    read_end, write_end = os.pipe()
    proc = subprocess.Popen([*runner, "-d", "in_asm,exec,nochain", "-D", f"/dev/fd/{write_end}", exe],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, pass_fds=(write_end,))
    os.close(write_end)
    executed, blocks, current = collections.Counter(), {}, None
    with os.fdopen(read_end, "r", errors="replace") as log:
        traces = collections.Counter()
        for line in log:
            if line[0] == "T":
                traces[line] += 1  # the whole line is the key: parsed once per distinct block
                current = None
            elif line.startswith("IN:"):
                current = []
            elif current is not None:
                m = INSTRUCTION.match(line)
                if m:
                    current.append((int(m.group(1), 16), line[m.end():]))
                elif not line.strip() and current:
                    blocks.setdefault(current[0][0], current)
                    current = None
    out, err = proc.communicate(timeout=timeout)
    for line, n in traces.items():
        m = TRACE.match(line)
        if m:
            executed[int(m.group(1), 16)] += n
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err), executed, blocks


def disassembly(exe):
    """Address → instruction text of every instruction in `exe`, as
    llvm-objdump prints it."""
    text = subprocess.run([f"{LLVM}/llvm-objdump", "-d", "--no-show-raw-insn", "--no-print-imm-hex", exe],
                          capture_output=True, text=True, check=True).stdout
    lines = {}
    for line in text.splitlines():
        m = re.match(r"^\s*([0-9a-f]+):\s+(.*)$", line)
        if m:
            lines[int(m.group(1), 16)] = m.group(2).strip()
    return lines


def for_mca(text):
    """An objdump instruction as llvm-mca's assembler reads it: a branch's
    target address (and its `<symbol+offset>`) becomes a label."""
    text = re.sub(r"\s*<[^>]*>\s*$", "", text)
    return re.sub(r"^(b(\.\w+)?|bl|cbn?z\s+\w+,|tbn?z\s+\w+,\s*#\d+,)\s*(0x)?[0-9a-f]+$", r"\1 target", text)


BRANCH = re.compile(r"^(b|bl|br|blr|ret|cbn?z|tbn?z|svc|brk|b\.\w+)\b")


def fall_through(blocks, lines):
    """For each block that qemu ended without a branch (at a page boundary or
    its size limit), the block that continues it."""
    follows = {}
    for start, insns in blocks.items():
        last, _ = insns[-1]
        nxt = last + 4
        if nxt in blocks and not BRANCH.match(lines.get(last, "b")):
            follows[start] = nxt
    return follows


def block_prices(blocks, executed, exe, mca_cpu, triple):
    """The cost of the executed blocks: executions times a static price,
    llvm-mca cycles per repetition on `mca_cpu` or packets where `mca_cpu`
    is None (Hexagon). Returns {block start: cost}. A block that qemu split
    without a branch (a loop body across a page boundary) is priced with
    the blocks that continue it, as the code runs: priced alone, a part of
    a loop would carry dependences the whole does not."""
    if not blocks:
        return {}
    if mca_cpu is None:  # qemu-hexagon shows each packet's first instruction after `{`
        return {start: executed[start] * sum(1 for _, text in insns if "{" in text) for start, insns in blocks.items()}
    lines = disassembly(exe)
    follows = fall_through(blocks, lines)
    # Executions of a block that came from the blocks running into it (qemu
    # may have several: a loop's preheader and its head both run into the
    # rest of the body), already priced with theirs.
    run_into = collections.Counter()
    for a, b in follows.items():
        run_into[b] += executed[a]

    def run_from(start):
        addresses, seen = [], set()
        while start is not None and start not in seen:
            seen.add(start)
            addresses += [a for a, _ in blocks[start]]
            start = follows.get(start)
        return addresses

    source = []
    order = sorted(blocks)
    for start in order:
        source.append(f"// LLVM-MCA-BEGIN b{start:x}")
        source += [for_mca(lines[a]) for a in run_from(start) if a in lines]
        source.append("// LLVM-MCA-END")
    args = [f"{LLVM}/llvm-mca", f"-mcpu={mca_cpu}", "-iterations=100", "-all-views=false", "-summary-view"]
    if triple:
        args.append(f"-mtriple={triple}")
    p = subprocess.run(args, input="\n".join(source) + "\n", capture_output=True, text=True)
    if p.returncode != 0:
        raise McaError(f"llvm-mca -mcpu={mca_cpu} failed on the traced blocks (exit {p.returncode}): {p.stderr[-2000:]}")
    cycles = [int(c) / 100 for c in re.findall(r"Total Cycles:\s+(\d+)", p.stdout)]
    if len(cycles) != len(order):
        raise McaError(f"llvm-mca priced {len(cycles)} of {len(order)} traced blocks")
    price = dict(zip(order, cycles))
    # A run entered at its head is priced whole; entries past the head (a rotated loop's first
    # iteration) at the price of the rest of the run.
    return {start: max(0, executed[start] - run_into[start]) * price[start] for start in order}


def cost_per_call(runner, exe, map_file, path_objects, mca_cpu, triple, timeout):
    """Runs the harness traced; returns (its CompletedProcess, {path tag:
    dynamic cost of its call}), `path_objects` mapping a tag to the object
    files of its code. The harness calls each path once."""
    proc, executed, blocks = run_traced(runner, exe, timeout)
    ranges = object_text(map_file, [o for objs in path_objects.values() for o in objs])
    owner = {}
    for tag, objs in path_objects.items():
        for o in objs:
            if not ranges.get(o):
                raise McaError(f"the linker map has no code of {o}")
            for lo, hi in ranges[o]:
                owner[(lo, hi)] = tag

    def tag_of(pc):
        for (lo, hi), tag in owner.items():
            if lo <= pc < hi:
                return tag
        return None

    mine = {pc: tag_of(pc) for pc in executed}
    mine = {pc: tag for pc, tag in mine.items() if tag is not None}
    missing = [pc for pc in mine if pc not in blocks]
    if missing:
        raise McaError(f"{len(missing)} executed blocks were never shown translated (first at {missing[0]:#x})")
    priced = block_prices({pc: blocks[pc] for pc in mine}, executed, exe, mca_cpu, triple)
    costs = {tag: 0.0 for tag in path_objects}
    for pc, tag in mine.items():
        costs[tag] += priced[pc]
    return proc, costs
