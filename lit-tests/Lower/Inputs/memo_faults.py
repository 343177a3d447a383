"""The memo under concurrency, kills and unusable directories.

  memo_faults.py MODE --target TARGET --mlir-opt PATH --plugin PATH --work DIR INPUT...

Every mode lowers the INPUT files with lower-to-autollvm at TARGET and
compares each output with a reference: the same input lowered by one
process with a fresh memo. It prints one line per check and exits non-zero
at the first that fails.

  concurrent  8 processes at once, into one fresh memo directory, each
              lowering one of the inputs (so the same and different inputs
              meet); then once more from the shared memo (warm).
  kill        runs killed with SIGKILL at times spread over the reference
              run's duration, each into the same directory; after every
              kill, and after a run that finishes, each entry must verify
              under the memo's secret; the run that finishes must give the
              reference output, and no temporary file may be left.
  planted     an entry cut short under its final name (a writer that did
              not rename), another entry's bytes under a valid entry's
              name, and a dead writer's temporary file: the output is the
              reference and each is replaced or removed.
  unusable    the directory is a file: the run gives the reference output
              with exactly one remark saying the memo is not used.
  mounts      the same for a directory on a read-only file system, missing
              under one, and on a full file system (tmpfs mounts in a
              private mount namespace, `unshare -rm`); nothing may be left
              in the directory.

Each INPUT is split into its top-level functions, one input each.
"""
import argparse
import hashlib
import hmac
import json
import os
import re
import signal
import subprocess
import sys
import time

REMARK = "is not used ("


def fail(text):
    sys.exit(f"memo_faults: FAILED: {text}")


class Lowering:
    def __init__(self, args):
        self.mlir_opt, self.plugin, self.work, self.target = args.mlir_opt, args.plugin, args.work, args.target
        self.references = args.references
        self.key = os.path.join(self.work, "memo-key")
        self.env = dict(os.environ, HYDRIDE_MEMO_KEY=self.key)

    def command(self, cache, source):
        pipeline = f"builtin.module(func.func(lower-to-autollvm{{target={self.target} cache-dir={cache}}}))"
        return [self.mlir_opt, f"--load-dialect-plugin={self.plugin}", f"--load-pass-plugin={self.plugin}",
                f"--pass-pipeline={pipeline}", source]

    def start(self, cache, source):
        return subprocess.Popen(self.command(cache, source), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                env=self.env, text=True)

    def run(self, cache, source):
        p = self.start(cache, source)
        out, err = p.communicate(timeout=600)
        if p.returncode != 0:
            fail(f"mlir-opt exited {p.returncode} on {source}:\n{err}")
        return out, err


def split(sources, work):
    """One file per top-level `func.func` of the sources, in order."""
    found = []
    for source in sources:
        with open(source) as f:
            text = f.read()
        for function in re.findall(r"^func\.func .*?^}$", text, re.S | re.M):
            path = os.path.join(work, f"input-{len(found)}.mlir")
            with open(path, "w") as f:
                f.write(function + "\n")
            found.append(path)
    if not found:
        fail(f"no functions in {sources}")
    return found


def entries(cache):
    """The entry files and the temporary files of a memo directory."""
    names = sorted(os.listdir(cache)) if os.path.isdir(cache) else []
    return [n for n in names if n.endswith(".json")], [n for n in names if n.endswith(".tmp")]


def verifies(secret, path):
    """Whether the entry at `path` carries a valid tag (cache.rs's scheme:
    HMAC-SHA256 of key, newline, result)."""
    try:
        with open(path) as f:
            v = json.load(f)
        mac = hmac.new(secret, (v["key"] + "\n" + v["result"]).encode(), hashlib.sha256).hexdigest()
        return hmac.compare_digest(mac, v["mac"])
    except (OSError, ValueError, KeyError, TypeError):
        return False


def whole(low, inputs, refs):
    """All the inputs' functions in one file, with its reference."""
    path = os.path.join(low.work, "whole.mlir")
    with open(path, "w") as out:
        for source in inputs:
            with open(source) as f:
                out.write(f.read())
    refs.update(references(low, [path]))
    return path


def check_entries(low, cache, what, temporaries_allowed=False):
    with open(low.key, "rb") as f:
        secret = f.read()
    names, temporaries = entries(cache)
    bad = [n for n in names if not verifies(secret, os.path.join(cache, n))]
    if bad:
        fail(f"{what}: {len(bad)} entries do not verify: {bad[:3]}")
    if temporaries and not temporaries_allowed:
        fail(f"{what}: temporary files left: {temporaries[:3]}")
    return len(names), len(temporaries)


def references(low, inputs):
    """Each input lowered alone with a fresh memo, and how long it took; with
    --references, kept there by the input's text for the other modes' runs."""
    found = {}
    for source in inputs:
        with open(source, "rb") as f:
            kept = low.references and os.path.join(low.references, hashlib.sha256(f.read()).hexdigest() + ".json")
        if kept and os.path.exists(kept):
            with open(kept) as f:
                found[source] = tuple(json.load(f))
            continue
        start = time.monotonic()
        out, _ = low.run(os.path.join(low.work, "reference-" + os.path.basename(source)), source)
        found[source] = (out, time.monotonic() - start)
        if kept:
            os.makedirs(low.references, exist_ok=True)
            with open(kept + ".tmp", "w") as f:
                json.dump(found[source], f)
            os.replace(kept + ".tmp", kept)
        if "autollvm." not in out:
            fail(f"{source}: the reference lowering rewrote nothing; the input tests nothing")
    return found


def concurrent(low, inputs, refs):
    cache = os.path.join(low.work, "shared")
    jobs = [(source, low.start(cache, source)) for source in (inputs[i % len(inputs)] for i in range(8))]
    for source, p in jobs:
        out, err = p.communicate(timeout=600)
        if p.returncode != 0:
            fail(f"a concurrent run exited {p.returncode} on {source}:\n{err}")
        if out != refs[source][0]:
            fail(f"a concurrent run's output differs from one process's on {source}")
    count, _ = check_entries(low, cache, "after 8 concurrent runs")
    print(f"concurrent: 8 processes over {len(inputs)} inputs: outputs as one process's; {count} entries, all verify")
    for source in inputs:
        if low.run(cache, source)[0] != refs[source][0]:
            fail(f"the warm run's output differs on {source}")
    print("concurrent: warm runs from the shared memo: outputs as one process's")


def kill(low, inputs, refs, kills):
    source = whole(low, inputs, refs)
    duration = refs[source][1]
    cache = os.path.join(low.work, "killed")
    killed = 0
    for k in range(kills):
        p = low.start(cache, source)
        time.sleep(duration * (k + 1) / (kills + 1))
        if p.poll() is None:
            p.send_signal(signal.SIGKILL)
            killed += 1
        p.communicate()
        check_entries(low, cache, f"after kill {k + 1}", temporaries_allowed=True)
    out, _ = low.run(cache, source)
    if out != refs[source][0]:
        fail("the run after the kills does not give the reference output")
    count, _ = check_entries(low, cache, "after the run that finished")
    if killed == 0:
        fail("no run was killed before it finished")
    print(f"kill: {killed} of {kills} runs killed (SIGKILL) mid-run; every entry verifies after each; "
          f"the next run gives the reference output and leaves no temporary file ({count} entries)")


def planted(low, inputs, refs):
    source = whole(low, inputs, refs)
    cache = os.path.join(low.work, "planted")
    low.run(cache, source)
    names, _ = entries(cache)
    if len(names) < 2:
        fail(f"planted: the input leaves {len(names)} entries; two are needed")
    first, second = (os.path.join(cache, n) for n in names[:2])
    with open(first) as f:
        text = f.read()
    with open(first, "w") as f:
        f.write(text[: len(text) // 2])
    with open(second, "w") as f:
        f.write(text)
    # A process id above the kernel's limit (2^22) never runs.
    dead = os.path.join(cache, f".{names[0]}.4999999.0.tmp")
    with open(dead, "w") as f:
        f.write(text[:10])
    out, _ = low.run(cache, source)
    if out != refs[source][0]:
        fail("planted: the output differs from the reference")
    check_entries(low, cache, "planted")
    print("planted: a half entry, another entry's bytes and a dead writer's temporary file: "
          "output as the reference; the entries rewritten and verified, the temporary file removed")


def unusable_one(low, source, ref, cache, what):
    before = entries(cache) if os.path.isdir(cache) else None
    out, err = low.run(cache, source)
    if out != ref:
        fail(f"{what}: the output differs from the reference")
    remarks = err.count(REMARK)
    if remarks != 1:
        fail(f"{what}: {remarks} remarks saying the memo is not used, not one:\n{err}")
    line = next(l for l in err.splitlines() if REMARK in l)
    if before is not None and entries(cache) != before:
        fail(f"{what}: the directory changed: {entries(cache)}")
    print(f"unusable: {what}: reference output, one remark: {re.sub(r'^.*remark: ', '', line)}")


def mount_tmpfs(path, options):
    os.makedirs(path, exist_ok=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", path], check=True)


def unusable(low, inputs, refs):
    source = inputs[0]
    as_file = os.path.join(low.work, "a-file")
    with open(as_file, "w") as f:
        f.write("not a directory\n")
    unusable_one(low, source, refs[source][0], as_file, "a file in place of the directory")


def mounts(low, inputs, refs):
    source = inputs[0]
    ref = refs[source][0]
    readonly = os.path.join(low.work, "readonly")
    mount_tmpfs(readonly, "ro,size=64k")
    unusable_one(low, source, ref, readonly, "a read-only file system")
    unusable_one(low, source, ref, os.path.join(readonly, "missing", "memo"),
                 "a missing directory under a read-only file system")
    full = os.path.join(low.work, "full")
    mount_tmpfs(full, "size=64k")
    fd = os.open(os.path.join(full, "filler"), os.O_WRONLY | os.O_CREAT)
    try:
        while True:
            os.write(fd, b"\0" * 4096)
    except OSError:
        pass
    os.close(fd)
    unusable_one(low, source, ref, full, "a full file system")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=["concurrent", "kill", "planted", "unusable", "mounts"])
    ap.add_argument("--target", required=True, help="lower-to-autollvm's target")
    ap.add_argument("--mlir-opt", required=True)
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--kills", type=int, default=8)
    ap.add_argument("--references", help="directory keeping the reference lowerings (fresh memo, one input alone) "
                    "between runs of this script on the same inputs")
    ap.add_argument("--namespaced", action="store_true", help="(internal) already in a private mount namespace")
    ap.add_argument("inputs", nargs="+")
    a = ap.parse_args()
    if a.mode == "mounts" and not a.namespaced:
        # Mounts are made in a private mount namespace, undone when it ends.
        os.execvp("unshare", ["unshare", "-rm", sys.executable, *sys.argv, "--namespaced"])
    os.makedirs(a.work, exist_ok=True)
    low = Lowering(a)
    inputs = split(a.inputs, a.work)
    refs = references(low, inputs)
    run = {"concurrent": concurrent, "kill": kill, "planted": planted, "unusable": unusable, "mounts": mounts}
    if a.mode == "kill":
        kill(low, inputs, refs, a.kills)
    else:
        run[a.mode](low, inputs, refs)


if __name__ == "__main__":
    main()
