#!/usr/bin/env python3
"""Structure check of the sources, with a ratchet.

Measures four things and compares each count with its limit in
scripts/structure-limits.json:

  isa_files_outside_folders  source/config files naming an ISA (x86, arm,
                             hvx, riscv) outside the places allowed to
  functions_over_80          Rust `fn` items longer than 80 lines
  files_over_600             Rust files with more than 600 non-test lines
  module_cycles              strongly connected components of more than one
                             module in each crate's module graph

Exits 1 when a count exceeds its limit. `--update` rewrites the limits with
the measured counts (lowering only, unless `--allow-raise`). Standard library
only (Python 3.11).

Files are those git knows of (tracked, and untracked but not ignored).

ISA names: *.rs, *.cpp, *.h, *.py, *.cfg, *.toml, *.td and extensionless
scripts under scripts/, outside dialectgen/src/isa/<isa>/, passes/src/targets/
<isa>/, isa-specs/, bench/, generated/, docs/, templates/, lit-tests/**/<isa>/,
tests/ directories, README.md and REGISTRATION_FILES. A line names an ISA when
it has x86, avx*, sse*, aarch64, neon, arm, hvx, hexagon, riscv or rvv as a
word or identifier part (see `_isa_hit`); comments count (reported apart).

Rust functions and files: all Rust files but those under tests/ and generated
ones ("DO-NOT-EDIT", "DO NOT EDIT" or "@generated" in the first 5 lines);
#[cfg(test)] items are left out. A function runs from its `fn name` line to
its closing brace; a file's non-test lines are its lines outside #[cfg(test)]
items.

Module cycles: in passes/src and dialectgen/src (binaries under src/bin/ left
out), an edge goes from a file's module to the module named by each `use` and
path in its non-test code that starts with `crate::`, `self::`, `super::`, a
child module or a module brought in by a `use` (reduced to the longest prefix
that is a module file). `mod x;` is not an edge; a child's `super::..` is one
(to its parent), except `super::name` where the parent only imports module
`name` (an edge to that module). Cycles are the strongly connected components of more than one
module (Tarjan). The report also gives, as information, how many would remain
without the edges from modules to their ancestors.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIMITS_FILE = ROOT / "scripts" / "structure-limits.json"

FUNCTION_MAX_LINES = 80
FILE_MAX_LINES = 600

METRICS = ("isa_files_outside_folders", "functions_over_80", "files_over_600", "module_cycles")

# ---------------------------------------------------------------------------
# Files
# ---------------------------------------------------------------------------


def repo_files() -> list[str]:
    """Files git knows of: tracked, plus untracked ones not ignored (a new
    file counts before it is added), that exist in the work tree."""
    out = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    ).stdout.decode("utf-8", "surrogateescape")
    files = sorted({p for p in out.split("\0") if p})
    return [p for p in files if (ROOT / p).is_file()]


def read_text(path: str) -> str | None:
    try:
        data = (ROOT / path).read_bytes()
    except OSError:
        return None
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def parts_of(path: str) -> list[str]:
    return path.split("/")


def is_test_path(path: str) -> bool:
    """Under a `tests/` directory (integration tests and their fixtures)."""
    return "tests" in parts_of(path)[:-1]


GENERATED_MARKERS = ("DO-NOT-EDIT", "DO NOT EDIT", "@generated")


def is_generated(text: str) -> bool:
    head = "\n".join(text.splitlines()[:5])
    return any(m in head for m in GENERATED_MARKERS)


# ---------------------------------------------------------------------------
# Lexing of C-like sources (Rust, C, C++, TableGen)
# ---------------------------------------------------------------------------


@dataclass
class Lexed:
    text: str
    code: str  # comments and string/char literals blanked (newlines kept)
    no_comments: str  # comments blanked only
    line_starts: list[int]

    def line_of(self, offset: int) -> int:
        """1-based line of a character offset."""
        lo, hi = 0, len(self.line_starts)
        while lo + 1 < hi:
            mid = (lo + hi) // 2
            if self.line_starts[mid] <= offset:
                lo = mid
            else:
                hi = mid
        return lo + 1


_INTERESTING = re.compile(r"""//|/\*|"|'|\b(?:br|r)(?=#*")""")
_IDENT_CHAR = re.compile(r"[A-Za-z0-9_]")


def _blank(buf: list[str], start: int, end: int) -> None:
    for k in range(start, end):
        if buf[k] != "\n":
            buf[k] = " "


def lex(text: str, rust: bool = True) -> Lexed:
    """Blanks comments and literals, so that braces, keywords and paths can be
    found by scanning the result. Rust: nested block comments, raw strings
    (r"..", r#".."#, br#".."#), byte literals, and lifetimes/labels ('a),
    which are not char literals."""
    n = len(text)
    code = list(text)
    nocom = list(text)
    i = 0
    while True:
        m = _INTERESTING.search(text, i)
        if not m:
            break
        i = m.start()
        tok = m.group(0)
        if tok == "//":
            j = text.find("\n", i)
            j = n if j < 0 else j
            _blank(code, i, j)
            _blank(nocom, i, j)
            i = j
        elif tok == "/*":
            depth, j = 1, i + 2
            while j < n and depth:
                if rust and text.startswith("/*", j):
                    depth += 1
                    j += 2
                elif text.startswith("*/", j):
                    depth -= 1
                    j += 2
                else:
                    j += 1
            _blank(code, i, j)
            _blank(nocom, i, j)
            i = j
        elif tok in ("r", "br"):
            if not rust or (i > 0 and _IDENT_CHAR.match(text[i - 1])):
                i += len(tok)
                continue
            k = i + len(tok)
            hashes = 0
            while k < n and text[k] == "#":
                hashes += 1
                k += 1
            # k is at the opening quote
            close = '"' + "#" * hashes
            j = text.find(close, k + 1)
            j = n if j < 0 else j + len(close)
            _blank(code, i, j)
            i = j
        elif tok == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            _blank(code, i, j)
            i = j
        else:  # "'"
            if i + 1 < n and text[i + 1] == "\\":
                j = i + 3
                while j < n and text[j] != "'" and text[j] != "\n":
                    j += 1
                j = min(j + 1, n)
                _blank(code, i, j)
                i = j
            elif i + 2 < n and text[i + 2] == "'" and text[i + 1] != "\n":
                _blank(code, i, i + 3)
                i += 3
            elif not rust:
                j = text.find("'", i + 1)
                j = n if j < 0 else j + 1
                _blank(code, i, j)
                i = j
            else:  # lifetime or label
                i += 1
    line_starts = [0] + [k + 1 for k, c in enumerate(text) if c == "\n"]
    return Lexed(text, "".join(code), "".join(nocom), line_starts)


def comment_only_lines(path: str, text: str) -> set[int]:
    """1-based numbers of the lines holding a comment and nothing else."""
    lines = text.splitlines()
    suffix = path.rsplit(".", 1)[-1] if "." in path.rsplit("/", 1)[-1] else ""
    result = set()
    if suffix in ("rs", "cpp", "h", "td", "c"):
        lexed = lex(text, rust=suffix == "rs")
        for no, (raw, kept) in enumerate(zip(lines, lexed.no_comments.splitlines()), 1):
            if raw.strip() and not kept.strip():
                result.add(no)
    else:  # Python, TOML, cfg, shell
        for no, raw in enumerate(lines, 1):
            if raw.lstrip().startswith("#") and not raw.lstrip().startswith("#!"):
                result.add(no)
    return result


def match_close(code: str, open_at: int) -> int:
    """Offset of the brace closing the one at `open_at` (in blanked code)."""
    depth = 0
    for m in re.finditer(r"[{}]", code[open_at:]):
        depth += 1 if m.group(0) == "{" else -1
        if depth == 0:
            return open_at + m.start()
    return len(code) - 1


def item_end(code: str, start: int) -> tuple[int, str]:
    """From `start` (inside an item's header), the offset of the `{` opening its
    body or of the `;` ending it, whichever comes first outside () and []."""
    depth = 0
    for m in re.finditer(r"[()\[\]{};]", code[start:]):
        c = m.group(0)
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif depth <= 0:
            return start + m.start(), c
    return len(code), ""


# ---------------------------------------------------------------------------
# 1. ISA names outside their folders
# ---------------------------------------------------------------------------

ISA_DIRS = ("x86", "arm", "hvx", "riscv")

# Files allowed to name every ISA because they register them: the passes'
# registry of ISA folders (its `mod` lines and its list), and the generator's
# (`mod` lines in isa/mod.rs, the list in isa/registry.rs).
REGISTRATION_FILES: list[str] = [
    "passes/src/targets/mod.rs",
    "dialectgen/src/isa/mod.rs",
    "dialectgen/src/isa/registry.rs",
]

# This check, which has to name the ISAs to find them.
SELF = ("scripts/structure_check.py", "scripts/structure-check")

ISA_SUFFIXES = ("rs", "cpp", "h", "py", "cfg", "toml", "td")


def isa_scanned(path: str) -> bool:
    name = parts_of(path)[-1]
    if "." in name:
        return name.rsplit(".", 1)[1] in ISA_SUFFIXES
    return parts_of(path)[0] == "scripts"  # scripts without extension


def isa_allowed(path: str) -> bool:
    p = parts_of(path)
    if path in REGISTRATION_FILES or path in SELF or p[-1] == "README.md":
        return True
    if p[0] in ("isa-specs", "bench", "generated", "docs", "templates"):
        return True
    if p[:3] == ["dialectgen", "src", "isa"] and len(p) > 4 and p[3] in ISA_DIRS:
        return True
    if p[:3] == ["passes", "src", "targets"] and len(p) > 4 and p[3] in ISA_DIRS:
        return True
    if p[0] == "lit-tests" and any(d in ISA_DIRS for d in p[1:-1]):
        return True
    return is_test_path(path)


# A candidate token, then checked for what is around it (`_isa_hit`).
_ISA_TOKEN = re.compile(
    r"x86|avx\d*|ssse\d+|sse\d*|aarch64|neon|arm|hvx|hexagon|riscv|rvv",
    re.IGNORECASE,
)
# What may follow a token directly (letters included), per token.
_ISA_TAIL = {
    "x86": re.compile(r"[a-z0-9_]*", re.I),  # x86_64, x86intrin
    "avx": re.compile(r"[a-z0-9_]*", re.I),  # avx512bw, avxvnni
    "ssse": re.compile(r"[a-z0-9_]*", re.I),  # ssse3
    "sse": re.compile(r"(?:\d[a-z0-9_]*)?", re.I),  # sse4a, sse4_1; not "ssent"
    "aarch": re.compile(r"[a-z0-9_]*", re.I),
    "neon": re.compile(r""),
    "arm": re.compile(r"(?:64|v\d+[a-z0-9]*|32)?", re.I),  # arm64, armv8a
    "hvx": re.compile(r"(?:v\d+|\d+[a-z]?)?", re.I),  # hvxv68, hvx128b
    "hexagon": re.compile(r"(?:v\d+)?", re.I),
    "riscv": re.compile(r"[a-z0-9_]*", re.I),  # riscv64gcv
    "rvv": re.compile(r""),
}


def _tail_key(token: str) -> str:
    t = token.lower()
    for key in ("x86", "avx", "ssse", "sse", "aarch", "neon", "arm", "hvx", "hexagon", "riscv", "rvv"):
        if t.startswith(key):
            return key
    return t


_ARM_FIELD = re.compile(r"\.(?!(?:json|ya?ml|td|md|mlir|rs|py|c|h|s|ll|txt|xml|asl)\b)[a-z_]")


def _match_arm(line: str, s: int, e: int) -> bool:
    """`arm` as a match (or CASE) arm, not the ISA: `CaseArm`, `MatchArm`,
    "match arm", and a lowercase variable `arm` (`arm.body`, `for arm in`, or
    on a line that also has `arms`)."""
    before = line[:s]
    if re.search(r"(?:Case|Match)$", before) or re.search(r"(?i)match[ -]$", before):
        return True
    if line[s:e] != "arm" or (s > 0 and (line[s - 1].isalnum() or line[s - 1] == "_")):
        return False
    if e < len(line) and (line[e].isalnum() or line[e] == "_"):
        return False
    return bool(
        _ARM_FIELD.match(line, e)
        or re.search(r"\bfor\s+$", before)
        or re.search(r"(?<![A-Za-z0-9_])arms(?![A-Za-z0-9_])", line)
    )


def _isa_hit(line: str, m: re.Match[str]) -> bool:
    """The token stands as a word or as a part of an identifier: preceded by
    neither a letter nor a digit (`_x86`, `::arm`; not `0x86`, `farm`,
    `assert`), or by one when it begins a CamelCase part (`IsaX86`,
    `X86Avx2`), or by `-m` (`-mavx2`); followed by a non-letter, by what that
    ISA's names continue with (`avx512bw`, `armv8`), or by a CamelCase part
    (`ArmFront`, `HVXInstructions`)."""
    tok = m.group(0)
    s, e = m.start(), m.end()
    if tok.lower() == "arm" and _match_arm(line, s, e):
        return False
    if s > 0:
        prev = line[s - 1]
        flag = prev == "m" and line[s - 2 : s - 1] == "-"  # -mavx2, -mhvx
        if prev.isalnum() and not flag:
            camel = tok[0].isupper() and (prev.islower() or prev.isdigit())
            if not camel:
                return False
    tail = _ISA_TAIL[_tail_key(tok)].match(line, e)
    e2 = tail.end() if tail else e
    if e2 < len(line):
        nxt = line[e2]
        if nxt.isalpha():
            last = line[e2 - 1]
            camel = nxt.isupper() and (last.islower() or last.isdigit())
            # an acronym before a capitalised word: HVXInstructions
            camel = camel or (tok.isupper() and nxt.isupper() and line[e2 + 1 : e2 + 2].islower())
            if not camel and e2 == e:
                return False
            if not camel and e2 > e and not tok.lower().startswith(("x86", "avx", "aarch", "riscv")):
                return False
    return True


def isa_lines(text: str) -> list[int]:
    hits = []
    for no, line in enumerate(text.splitlines(), 1):
        if any(_isa_hit(line, m) for m in _ISA_TOKEN.finditer(line)):
            hits.append(no)
    return hits


def measure_isa(files: list[str]) -> list[dict]:
    found = []
    for path in files:
        if not isa_scanned(path) or isa_allowed(path):
            continue
        text = read_text(path)
        if text is None:
            continue
        hits = isa_lines(text)
        if not hits:
            continue
        comments = comment_only_lines(path, text)
        found.append(
            {
                "path": path,
                "lines": len(hits),
                "comment_lines": sum(1 for h in hits if h in comments),
                "first_line": hits[0],
            }
        )
    found.sort(key=lambda f: (-f["lines"], f["path"]))
    return found


# ---------------------------------------------------------------------------
# 2./3. Long functions, large files
# ---------------------------------------------------------------------------

_CFG_TEST = re.compile(r"#\s*\[\s*cfg\s*\(\s*(?:test|all\s*\(\s*test\b[^\]]*\))\s*\)\s*\]")
_CFG_TEST_INNER = re.compile(r"#!\s*\[\s*cfg\s*\(\s*test\s*\)\s*\]")
_ATTR = re.compile(r"\s*#\s*\[")
_ITEM_START = re.compile(
    r"\s*(?:pub(?:\s*\([^)]*\))?\s+)?(?:(?:unsafe|async|const|extern(?:\s+\"[^\"]*\")?)\s+)*"
    r"(mod|fn|impl|use|struct|enum|const|static|type|trait|macro_rules!)\b\s*([A-Za-z_]\w*)?"
)


@dataclass
class RustFile:
    path: str
    lexed: Lexed
    # (first, last) character offsets of #[cfg(test)] items, attribute included
    test_spans: list[tuple[int, int]] = field(default_factory=list)
    test_mod_decls: list[str] = field(default_factory=list)  # `#[cfg(test)] mod x;`
    whole_file_test: bool = False

    def in_test(self, offset: int) -> bool:
        return self.whole_file_test or any(s <= offset <= e for s, e in self.test_spans)


def _skip_attrs(code: str, pos: int) -> int:
    while True:
        m = _ATTR.match(code, pos)
        if not m:
            return pos
        depth = 0
        for k in range(m.end() - 1, len(code)):
            if code[k] == "[":
                depth += 1
            elif code[k] == "]":
                depth -= 1
                if depth == 0:
                    pos = k + 1
                    break
        else:
            return len(code)


def analyse_rust(path: str, text: str) -> RustFile:
    lexed = lex(text, rust=True)
    rf = RustFile(path, lexed)
    code = lexed.code
    if _CFG_TEST_INNER.search(code):
        rf.whole_file_test = True
    for m in _CFG_TEST.finditer(code):
        start = _skip_attrs(code, m.end())
        item = _ITEM_START.match(code, start)
        if not item:
            continue
        at, c = item_end(code, item.end())
        if c == "{":
            rf.test_spans.append((m.start(), match_close(code, at)))
        elif c == ";":
            rf.test_spans.append((m.start(), at))
            if item.group(1) == "mod" and item.group(2):
                rf.test_mod_decls.append(item.group(2))
    return rf


_FN = re.compile(r"(?<![A-Za-z0-9_])fn\s+([A-Za-z_][A-Za-z0-9_]*)")


def long_functions(rf: RustFile) -> list[dict]:
    code = rf.lexed.code
    found = []
    for m in _FN.finditer(code):
        if rf.in_test(m.start()):
            continue
        at, c = item_end(code, m.end())
        if c != "{":
            continue  # declaration without a body
        end = match_close(code, at)
        first, last = rf.lexed.line_of(m.start()), rf.lexed.line_of(end)
        length = last - first + 1
        if length > FUNCTION_MAX_LINES:
            found.append({"path": rf.path, "line": first, "name": m.group(1), "length": length})
    return found


def file_size(rf: RustFile) -> dict:
    total = len(rf.lexed.text.splitlines())
    test_lines: set[int] = set()
    for s, e in rf.test_spans:
        test_lines.update(range(rf.lexed.line_of(s), rf.lexed.line_of(e) + 1))
    non_test = 0 if rf.whole_file_test else total - len(test_lines)
    return {"path": rf.path, "lines": total, "non_test_lines": non_test}


# ---------------------------------------------------------------------------
# 4. Module cycles
# ---------------------------------------------------------------------------

CRATES = ("passes", "dialectgen")


def module_path(rel: str) -> tuple[str, ...] | None:
    """`src`-relative file path to module path; None for binaries."""
    p = rel.split("/")
    if p[0] == "bin" or p == ["main.rs"]:
        return None
    if p == ["lib.rs"]:
        return ()
    if p[-1] == "mod.rs":
        return tuple(p[:-1])
    return tuple(p[:-1]) + (p[-1][:-3],)


def fmt_mod(m: tuple[str, ...]) -> str:
    return "::".join(("crate",) + m)


_USE = re.compile(r"(?<![A-Za-z0-9_$])use\s+([^;]*);")
_USE_TOKEN = re.compile(r"::|[{},*]|[A-Za-z_][A-Za-z0-9_]*")
_PATH = re.compile(r"(?<![A-Za-z0-9_:$])([A-Za-z_][A-Za-z0-9_]*(?:\s*::\s*[A-Za-z_][A-Za-z0-9_]*)+)")
_INLINE_MOD = re.compile(r"(?<![A-Za-z0-9_])mod\s+([A-Za-z_][A-Za-z0-9_]*)\s*\{")


def parse_use_tree(tree: str) -> list[tuple[list[str], str | None, bool]]:
    """`a::{b, c::d as e, f::*}` -> [(path, alias, glob)]."""
    toks = _USE_TOKEN.findall(tree)
    pos = 0

    def peek() -> str | None:
        return toks[pos] if pos < len(toks) else None

    def take() -> str | None:
        nonlocal pos
        t = peek()
        pos += 1
        return t

    def one(prefix: list[str]) -> list[tuple[list[str], str | None, bool]]:
        path = list(prefix)
        if peek() == "::":  # `::std::...`, an extern path
            take()
            path = ["::"]
        while True:
            t = take()
            if t == "{":
                items = []
                while peek() not in ("}", None):
                    items += one(path)
                    if peek() == ",":
                        take()
                take()
                return items
            if t == "*":
                return [(path, None, True)]
            if t is None or not re.match(r"[A-Za-z_]", t):
                return [(path, None, False)] if path else []
            path.append(t)
            if peek() == "::":
                take()
                continue
            break
        alias = None
        if peek() == "as":
            take()
            alias = take()
        if path and path[-1] == "self":
            path = path[:-1]
            alias = alias or (path[-1] if path else None)
        return [(path, alias, False)]

    items = []
    while peek() is not None:
        items += one([])
        if peek() == ",":
            take()
        elif peek() is not None and pos < len(toks):
            take()
    return items


@dataclass
class Crate:
    name: str
    files: dict[tuple[str, ...], str]  # module path -> file path
    children: dict[tuple[str, ...], set[str]]
    edges: dict[tuple[str, ...], dict[tuple[str, ...], list[str]]]  # a -> b -> where


def build_crate(name: str, files: list[str], rust: dict[str, RustFile]) -> Crate:
    prefix = f"{name}/src/"
    modules: dict[tuple[str, ...], str] = {}
    for f in files:
        if f.startswith(prefix) and f.endswith(".rs") and f in rust:
            m = module_path(f[len(prefix):])
            if m is not None:
                modules[m] = f
    # files declared as test modules (`#[cfg(test)] mod tests;`) are tests
    for m, f in list(modules.items()):
        for t in rust[f].test_mod_decls:
            modules.pop(m + (t,), None)
    children: dict[tuple[str, ...], set[str]] = {m: set() for m in modules}
    for m in modules:
        if m:
            children.setdefault(m[:-1], set()).add(m[-1])
    crate = Crate(name, modules, children, {m: {} for m in modules})

    # Each module's `use` aliases (name -> module), for a child's
    # `super::name` that reaches a module through its parent's import.
    module_aliases: dict[tuple[str, ...], dict[str, tuple[str, ...]]] = {}

    def scan(mod: tuple[str, ...], f: str, record: bool) -> None:
            rf = rust[f]
            if rf.whole_file_test:
                return
            code = list(rf.lexed.code)
            for s, e in rf.test_spans:
                _blank(code, s, e + 1)
            code_s = "".join(code)

            # inline modules (`mod x { .. }`): scope for `self`/`super`
            inline = []
            for m in _INLINE_MOD.finditer(code_s):
                brace = m.end() - 1
                inline.append((brace, match_close(code_s, brace), m.group(1)))

            def scope_at(offset: int) -> tuple[str, ...]:
                s = mod
                for a, b, n in sorted(inline):
                    if a < offset < b:
                        s = s + (n,)
                return s

            def is_module(p: tuple[str, ...]) -> bool:
                return p in modules

            def absolute(segs: list[str], scope: tuple[str, ...], aliases: dict[str, tuple[str, ...]]):
                if not segs:
                    return None
                s0 = segs[0]
                if s0 == "crate":
                    return tuple(segs[1:])
                if s0 == "self":
                    return scope + tuple(segs[1:])
                if s0 == "super":
                    k = 0
                    while k < len(segs) and segs[k] == "super":
                        k += 1
                    if k > len(scope):
                        return None
                    ancestor = scope[: len(scope) - k]
                    # `super::name` where the ancestor only imports `name` is that module.
                    through = module_aliases.get(ancestor, {})
                    if k < len(segs) and not is_module(ancestor + (segs[k],)) and segs[k] in through:
                        return through[segs[k]] + tuple(segs[k + 1 :])
                    return ancestor + tuple(segs[k:])
                if s0 in aliases:
                    return aliases[s0] + tuple(segs[1:])
                if is_module(scope + (s0,)):
                    return scope + tuple(segs)
                return None

            def reduce(p: tuple[str, ...]) -> tuple[str, ...]:
                while p not in modules:
                    p = p[:-1]
                return p

            def add_edge(target: tuple[str, ...], offset: int) -> None:
                if target == mod or not record:
                    return
                where = f"{f}:{rf.lexed.line_of(offset)}"
                crate.edges[mod].setdefault(target, []).append(where)

            uses = list(_USE.finditer(code_s))
            aliases: dict[str, tuple[str, ...]] = {}
            resolved_uses = []
            # two rounds: a `use` may name an alias brought by another `use`
            for _round in range(2):
                resolved_uses = []
                for u in uses:
                    scope = scope_at(u.start())
                    for segs, alias, glob in parse_use_tree(u.group(1)):
                        p = absolute(segs, scope, aliases)
                        if p is None:
                            continue
                        resolved_uses.append((p, u.start()))
                        if glob:
                            if p in modules:
                                for c in children.get(p, ()):
                                    aliases.setdefault(c, p + (c,))
                        elif p in modules and (alias or segs[-1]) not in ("self", "super", "crate"):
                            aliases.setdefault(alias or segs[-1], p)
            module_aliases[mod] = aliases
            for p, at in resolved_uses:
                add_edge(reduce(p), at)

            rest = list(code_s)
            for u in uses:
                _blank(rest, u.start(), u.end())
            rest_s = "".join(rest)
            for m in _PATH.finditer(rest_s):
                segs = [s.strip() for s in m.group(1).split("::")]
                p = absolute(segs, scope_at(m.start()), aliases)
                if p is not None:
                    add_edge(reduce(p), m.start())

    for _pass in (False, True):
        for mod, f in modules.items():
            scan(mod, f, _pass)
    return crate


def tarjan(nodes: list, edges: dict) -> list[list]:
    index: dict = {}
    low: dict = {}
    on_stack: set = set()
    stack: list = []
    sccs: list[list] = []
    counter = 0
    sys.setrecursionlimit(max(10000, sys.getrecursionlimit()))

    def visit(v) -> None:
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            scc = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                scc.append(w)
                if w == v:
                    break
            sccs.append(scc)

    for v in nodes:
        if v not in index:
            visit(v)
    return sccs


def cycles_of(crate: Crate, edges=None) -> list[dict]:
    edges = crate.edges if edges is None else edges
    result = []
    for scc in tarjan(sorted(crate.files), edges):
        if len(scc) < 2:
            continue
        members = sorted(scc)
        inside = []
        for a in members:
            for b, where in sorted(edges[a].items()):
                if b in scc:
                    inside.append({"from": fmt_mod(a), "to": fmt_mod(b), "refs": len(where), "at": where[0]})
        result.append({"crate": crate.name, "modules": [fmt_mod(m) for m in members], "edges": inside})
    result.sort(key=lambda c: (c["crate"], -len(c["modules"]), c["modules"]))
    return result


def without_ancestor_edges(crate: Crate) -> dict:
    return {
        a: {b: w for b, w in targets.items() if not (len(b) < len(a) and a[: len(b)] == b)}
        for a, targets in crate.edges.items()
    }


# ---------------------------------------------------------------------------
# Driver
# ---------------------------------------------------------------------------


def measure() -> dict:
    files = repo_files()
    isa = measure_isa(files)

    rust: dict[str, RustFile] = {}
    for f in files:
        if f.endswith(".rs"):
            text = read_text(f)
            if text is not None:
                rust[f] = analyse_rust(f, text)
    measured = [
        rf for f, rf in rust.items() if not is_test_path(f) and not is_generated(rf.lexed.text) and not rf.whole_file_test
    ]
    long_fns = sorted(
        (fn for rf in measured for fn in long_functions(rf)), key=lambda x: (-x["length"], x["path"], x["line"])
    )
    sizes = [file_size(rf) for rf in measured]
    large = sorted((s for s in sizes if s["non_test_lines"] > FILE_MAX_LINES), key=lambda s: -s["non_test_lines"])

    cycles = []
    cycles_no_ancestor = 0
    edge_count = 0
    for name in CRATES:
        crate = build_crate(name, files, rust)
        cycles += cycles_of(crate)
        cycles_no_ancestor += len(cycles_of(crate, without_ancestor_edges(crate)))
        edge_count += sum(len(t) for t in crate.edges.values())

    return {
        "metrics": {
            "isa_files_outside_folders": len(isa),
            "functions_over_80": len(long_fns),
            "files_over_600": len(large),
            "module_cycles": len(cycles),
        },
        "info": {
            "isa_lines": sum(f["lines"] for f in isa),
            "isa_comment_lines": sum(f["comment_lines"] for f in isa),
            "module_edges": edge_count,
            "module_cycles_without_child_to_ancestor_edges": cycles_no_ancestor,
        },
        "isa_files": isa,
        "long_functions": long_fns,
        "large_files": large,
        "cycles": cycles,
    }


def load_limits() -> dict | None:
    if not LIMITS_FILE.exists():
        return None
    return json.loads(LIMITS_FILE.read_text())


def write_limits(values: dict) -> None:
    LIMITS_FILE.write_text(json.dumps({k: values[k] for k in METRICS}, indent=2) + "\n")


def print_report(r: dict, limits: dict | None) -> None:
    isa = r["isa_files"]
    print(f"ISA names outside the ISA folders ({len(isa)} files; lines naming an ISA, of which comment-only):")
    for f in isa:
        print(f"  {f['lines']:5d} ({f['comment_lines']:4d} in comments)  {f['path']}:{f['first_line']}")
    print()
    print(f"Rust functions over {FUNCTION_MAX_LINES} lines ({len(r['long_functions'])}):")
    for fn in r["long_functions"]:
        print(f"  {fn['length']:5d}  {fn['path']}:{fn['line']}  {fn['name']}")
    print()
    print(f"Rust files over {FILE_MAX_LINES} non-test lines ({len(r['large_files'])}):")
    for s in r["large_files"]:
        print(f"  {s['non_test_lines']:5d} non-test ({s['lines']} in all)  {s['path']}")
    print()
    print(f"Module cycles ({len(r['cycles'])}):")
    for c in r["cycles"]:
        print(f"  {c['crate']}: {len(c['modules'])} modules: {', '.join(c['modules'])}")
        for e in c["edges"]:
            print(f"      {e['from']} -> {e['to']}  ({e['refs']} refs, e.g. {e['at']})")
    info = r["info"]
    print()
    print(
        f"(info: {info['isa_lines']} lines name an ISA outside the folders, {info['isa_comment_lines']} of them "
        f"comment-only; {info['module_edges']} module edges; "
        f"{info['module_cycles_without_child_to_ancestor_edges']} cycles without child->ancestor edges)"
    )
    print()
    for k in METRICS:
        lim = "none" if limits is None or k not in limits else limits[k]
        print(f"{k}: {r['metrics'][k]} (limit {lim})")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--json", action="store_true", help="print the measurements as JSON")
    ap.add_argument("--update", action="store_true", help="write the measured counts to the limits file")
    ap.add_argument("--allow-raise", action="store_true", help="with --update, let a limit go up")
    args = ap.parse_args()

    r = measure()
    limits = load_limits()
    measured = r["metrics"]

    exceeded = []
    if limits is not None:
        exceeded = [k for k in METRICS if k in limits and measured[k] > limits[k]]
    r["limits"] = limits
    r["exceeded"] = exceeded

    if args.json:
        print(json.dumps(r, indent=2))
    else:
        print_report(r, limits)

    out = sys.stderr if args.json else sys.stdout
    if args.update:
        if exceeded and not args.allow_raise:
            for k in exceeded:
                print(f"not updating: {k} would go up from {limits[k]} to {measured[k]} (--allow-raise)", file=out)
            return 1
        old = limits or {}
        write_limits(measured)
        changed = [f"{k} {old.get(k)} -> {measured[k]}" for k in METRICS if old.get(k) != measured[k]]
        print(
            f"updated {LIMITS_FILE.relative_to(ROOT)}" + (": " + ", ".join(changed) if changed else " (unchanged)"),
            file=out,
        )
        return 0
    if limits is None:
        print(f"no limits: {LIMITS_FILE.relative_to(ROOT)} is missing (create it with --update)", file=out)
        return 1
    for k in exceeded:
        print(f"FAIL: {k} is {measured[k]}, over its limit {limits[k]}", file=out)
    return 1 if exceeded else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:  # output piped into `head`
        sys.stdout = None
        sys.exit(1)
