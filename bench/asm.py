"""Hot loops in assembly and their llvm-mca cost."""

import re
import subprocess

LLVM = "/usr/lib/llvm-22/bin"
# Vector registers of x86 (xmm/ymm/zmm), AArch64 (v0-v31, q/d views) and Hexagon HVX (v0-v31, w pairs).
VECTOR_REGISTER = re.compile(r"%[xyz]mm\d|\bv\d+(\.\d*[bhsd])?\b|\bq\d+\b|\bw\d+\b|\bv\d+:\d+\b")
# Comments: `//` (AArch64, Hexagon), `#` alone or before a space (x86; `#4` is an AArch64 immediate).
COMMENT = re.compile(r"//.*|(^|\s)#(\s.*|$)")
# An x86 assembler pseudo-prefix before a mnemonic (`{vex} vpdpwssd`: AVX-VNNI's VEX
# form, `{evex}`, `{disp32}`, `{load}`, …): a word in braces, then space. A Hexagon
# packet's brace is alone or followed by a space.
X86_PSEUDO_PREFIX = re.compile(r"^\{[a-z][a-z0-9]*\}(?=\s)")
BRANCH = re.compile(r"^(j\w*|b(\.\w+)?|cbn?z|tbn?z|(if \(.*\) )?jump(:\w+)?)\b")


def opens_packet(line):
    """Whether `line` opens a Hexagon packet: it starts with a brace that is
    not an x86 pseudo-prefix."""
    return line.startswith("{") and not X86_PSEUDO_PREFIX.match(line)


def packet_brace(insn):
    """`insn` without the braces of a Hexagon packet around it; an x86
    pseudo-prefix (`{vex}`) at its start and a write mask or zeroing
    (`{%k1}`, `{z}`) at its end stay."""
    insn = insn.strip()
    if opens_packet(insn):
        insn = insn[1:].strip()
    if insn.endswith("}") and not re.search(r"\{[^{}]*\}$", insn):
        insn = insn[:-1].strip()
    return insn


def loops(asm):
    """The blocks that branch back to their own label, or end a Hexagon
    hardware loop (`:endloopN`), each as its list of packets (a Hexagon
    packet `{ … }` is one; elsewhere every instruction is its own)."""
    found, current, label, packet = [], [], None, None
    for line in asm.splitlines():
        m = re.match(r"^(\.?LBB\w+):", line)
        if m:
            label, current, packet = m.group(1), [], None
            continue
        t = COMMENT.sub("", line).strip()
        if not t or t.startswith(".") or label is None:
            continue
        endloop = re.search(r":endloop\d", t)
        t = re.sub(r":endloop\d", "", t).strip()
        if opens_packet(t):
            packet = []
            current.append(packet)
        for insn in (packet_brace(i) for i in t.split(";")):
            if not insn:
                continue
            if packet is not None:
                packet.append(insn)
            else:
                current.append([insn])
        if t.endswith("}"):
            packet = None
        if endloop or (BRANCH.match(t.strip("{} ")) and re.search(rf"(^|[\s,]){re.escape(label)}$", t.strip("{} "))):
            found.append((label, [p for p in current if p]))
    return found


def hot_packets(asm):
    """The innermost loop that does the vector work, as packets: of the
    self-looping blocks, the one with the most instructions on vector
    registers, then the densest in them, then the last (the body follows its
    preheader), so a scalar remainder loop or an outer loop is not taken."""
    best, best_score = [], None
    for _, packets in loops(asm):
        body = [i for p in packets for i in p]
        vector = sum(1 for i in body if VECTOR_REGISTER.search(i))
        score = (vector, vector / len(body))
        if best_score is None or score >= best_score:
            best, best_score = packets, score
    return best


def hot_loop(asm):
    """The hot loop's instructions (see hot_packets)."""
    return [i for p in hot_packets(asm) for i in p]


class McaError(Exception):
    pass


def mca_cycles(loop, cpu, triple=None, mattr=None):
    """llvm-mca's cycles per iteration of the loop on `cpu` (100 iterations;
    `mattr`: features beyond or short of the CPU's own); NaN for no loop,
    McaError if llvm-mca fails on one."""
    if not loop:
        return float("nan")
    args = [f"{LLVM}/llvm-mca", f"-mcpu={cpu}", "-iterations=100"] + ([f"-mtriple={triple}"] if triple else [])
    args += [f"-mattr={mattr}"] if mattr else []
    p = subprocess.run(args, input="\n".join(loop) + "\n", capture_output=True, text=True)
    m = re.search(r"Total Cycles:\s+(\d+)", p.stdout)
    if p.returncode != 0 or not m:
        raise McaError(f"llvm-mca -mcpu={cpu} failed (exit {p.returncode}): {p.stderr[-2000:]}")
    return int(m.group(1)) / 100


def cycles_per_iteration(asm, mca_cpu, triple=None):
    """The hot loop's cost: llvm-mca cycles on `mca_cpu`, or, where llvm-mca
    has no model (mca_cpu None: Hexagon), its packets (an in-order VLIW core
    issues at most one packet a cycle)."""
    if mca_cpu is None:
        packets = hot_packets(asm)
        return float(len(packets)) if packets else float("nan")
    return mca_cycles(hot_loop(asm), mca_cpu, triple)
