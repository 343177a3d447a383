"""Writes a large input for the bounds tests of lower-to-autollvm.

  hostile.py wide N   an absolute difference (max - min) over vector<Nxi8>
  hostile.py long N   a straight-line block of N ops on vector<64xi8>, each
                      reading two of the last few values
  hostile.py deep N   one chain of N dependent ops (each reads the previous)
"""
import sys


def wide(n):
    t = f"vector<{n}xi8>"
    return (f"func.func @wide(%a: {t}, %b: {t}) -> {t} {{\n"
            f"  %0 = arith.maxui %a, %b : {t}\n  %1 = arith.minui %a, %b : {t}\n"
            f"  %2 = arith.subi %0, %1 : {t}\n  return %2 : {t}\n}}\n")


OPS = ["arith.addi", "arith.maxui", "arith.subi", "arith.xori", "arith.minsi", "arith.muli", "arith.andi"]


def long(n):
    t = "vector<64xi8>"
    lines = [f"func.func @long(%a: {t}, %b: {t}) -> {t} {{"]
    names = ["%a", "%b"]
    for i in range(n):
        x, y = names[-1 - i % 3], names[-1 - (i * 7) % 5] if len(names) > 5 else names[0]
        lines.append(f"  %v{i} = {OPS[i % len(OPS)]} {x}, {y} : {t}")
        names.append(f"%v{i}")
    lines += [f"  return {names[-1]} : {t}", "}"]
    return "\n".join(lines) + "\n"


def deep(n):
    t = "vector<32xi16>"
    lines = [f"func.func @deep(%a: {t}, %b: {t}) -> {t} {{"]
    prev = "%a"
    for i in range(n):
        lines.append(f"  %v{i} = {OPS[i % len(OPS)]} {prev}, %b : {t}")
        prev = f"%v{i}"
    lines += [f"  return {prev} : {t}", "}"]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    kind, n = sys.argv[1], int(sys.argv[2])
    sys.stdout.write({"wide": wide, "long": long, "deep": deep}[kind](n))
