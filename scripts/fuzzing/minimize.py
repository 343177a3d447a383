"""Shrinks a failing program while it keeps failing the same way: first the
result moved to the earliest value that still fails (what does not feed it
dropped), then values cut loose one by one (each replaced by a new argument
of its type, or a zero constant where its type cannot be an argument) with
what fed only them dropped."""

import re
from dataclasses import replace

from programs import BOUNDARY_BITS, VT, Program, boundary_bits

USE = re.compile(r"%[A-Za-z0-9_]+(?:#\d+)?")


def defined(line):
    """The names a body line defines (`%v3`, or `%v3#0` and `%v3#1`)."""
    lhs = line.split(" = ", 1)[0]
    m = re.fullmatch(r"(%[A-Za-z0-9_]+):(\d+)", lhs)
    if m:
        return [f"{m.group(1)}#{i}" for i in range(int(m.group(2)))]
    return [lhs]


def used(line):
    return USE.findall(line.split(" = ", 1)[1])


def live(program):
    """`program` without the lines its result does not need."""
    need = {program.result}
    kept = []
    for line in reversed(program.lines):
        names = defined(line)
        if any(n in need for n in names):
            kept.append(line)
            need.update(used(line))
    return replace(program, lines=list(reversed(kept)))


def with_result(program, name):
    t = program.types[name]
    lines = list(program.lines)
    types = dict(program.types)
    if t.bits not in BOUNDARY_BITS:
        wide = VT(t.lanes, boundary_bits(t.bits))
        lines.append(f"%r = arith.extui {name} : {t} to {wide}")
        types["%r"] = wide
        name, t = "%r", wide
    return live(replace(program, lines=lines, result=name, result_type=t, types=types))


def cut(program, name):
    """`name` no longer computed: a new argument (or a zero constant) instead."""
    t = program.types[name]
    base = name.split("#")[0]
    lines = []
    args = list(program.args)
    types = dict(program.types)
    for line in program.lines:
        names = defined(line)
        if name not in names:
            lines.append(line)
            continue
        fresh = f"%c{len(lines)}_{base[1:]}"
        if t.bits in BOUNDARY_BITS and len(args) < 8:
            arg = f"%a{len(args)}"
            args.append(t)
            types[arg] = t
            replacement = arg
        else:
            lines.append(f"{fresh} = arith.constant dense<{'false' if t.bits == 1 else 0}> : {t}")
            types[fresh] = t
            replacement = fresh
        # Other results of the same op stay computed.
        if len(names) > 1:
            lines.append(line)
        rename = re.compile(re.escape(name) + r"(?![0-9#])")
        rest = program.lines[program.lines.index(line) + 1:]
        lines += [rename.sub(replacement, l) for l in rest]
        result = replacement if program.result == name else program.result
        return live(replace(program, lines=lines, args=args, types=types, result=result))
    return program


def minimize(program, fails, budget=60):
    """The smallest program found for which `fails(program)` holds, trying at
    most `budget` candidates."""
    tries = 0
    best = live(program)

    def shrinks(candidate):
        """Whether `candidate` is smaller than the best and still fails (a try)."""
        nonlocal tries
        if len(candidate.lines) >= len(best.lines):
            return False
        tries += 1
        return fails(candidate)

    # The earliest value that still fails as the result.
    names = [n for line in best.lines for n in defined(line) if n != best.result and n in best.types]
    for name in names[:budget // 2]:
        candidate = with_result(best, name)
        if shrinks(candidate):
            best = candidate
            break
    # Cut values loose, first to last, until a pass changes nothing.
    changed = True
    while changed and tries < budget:
        changed = False
        for line in list(best.lines):
            for name in defined(line):
                if name not in best.types or tries >= budget or line not in best.lines:
                    continue
                candidate = cut(best, name)
                if shrinks(candidate):
                    best = candidate
                    changed = True
    return best, tries
