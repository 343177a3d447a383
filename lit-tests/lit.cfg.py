# lit configuration for hydride: dialect round trips, diagnostics and passes
# through stock mlir-opt with libhydride.so loaded as dialect and pass plugin.
import json
import os
import re
import subprocess
import lit.formats

config.name = "hydride"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)

repo = os.path.dirname(config.test_source_root)
llvm_bin = os.environ.get("LLVM_BIN", "/usr/lib/llvm-22/bin")
plugin = os.path.join(repo, "target", "release", "libhydride.so")

config.substitutions.append(("%mlir_opt", os.path.join(llvm_bin, "mlir-opt")))
config.substitutions.append(("%load_hydride_passes", "--load-pass-plugin=" + plugin))
config.substitutions.append(("%load_hydride", "--load-dialect-plugin=" + plugin))
config.substitutions.append(("%hydride_opt", os.path.join(repo, "target", "release", "hydride-opt")))
config.environment["PATH"] = llvm_bin + os.pathsep + os.environ.get("PATH", "")

config.substitutions.append(("%hydride", os.path.join(repo, "target", "release", "hydride")))
config.substitutions.append(("%mem_wrappers", "python3 " + os.path.join(config.test_source_root, "Run", "x86", "Inputs", "mem_wrappers.py")))
config.substitutions.append(("%to_llvm", "--lower-vector-multi-reduction --convert-vector-to-llvm --convert-arith-to-llvm "
                             "--convert-ub-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts"))
# Features withheld from this host reach every tool the tests start.
if "HYDRIDE_WITHHOLD_FEATURES" in os.environ:
    config.environment["HYDRIDE_WITHHOLD_FEATURES"] = os.environ["HYDRIDE_WITHHOLD_FEATURES"]

# Execution tests run only code this host executes: `hydride host` says what
# that is (CPUID flags less HYDRIDE_WITHHOLD_FEATURES) and how to compile for it.
host = json.loads(subprocess.run([os.path.join(repo, "target", "release", "hydride"), "host", "--json"],
                                 check=True, capture_output=True, text=True).stdout)
config.substitutions.append(("%host_clang_flags", " ".join(host["clang_flags"])))
features = set(host["features"])
# The host executes a target's code when it has every extension the target's
# grammar may use: `hydride host` names the richest such target ("x86-avx512",
# or "x86-avx512-avx512_vnni" on an AVX-512 machine without VNNI, ...).
label = host["x86_target"]
base = next(b for b in ("x86-avx512", "x86-avx2", "x86-sse2") if label.startswith(b))
lacking = [flag for sign, flag in re.findall(r"([+-])([^+-]+)", label[len(base):]) if sign == "-"]
executes = {"x86-avx2": base in ("x86-avx2", "x86-avx512"), "x86-avx512": base == "x86-avx512" and not lacking}
for target, ok in executes.items():
    if ok:
        config.available_features.add("host-" + target)
    else:
        base_flags = {"x86-avx2": ["avx2"], "x86-avx512": ["avx512f", "avx512bw", "avx512dq", "avx512vl", "avx512cd"]}
        why = ", ".join(lacking if base == "x86-avx512" else [f for f in base_flags[target] if f not in features])
        lit_config.note(f"execution of {target} code skipped on this host ({host['model']}): it lacks {why}; "
                        "its lowering and assembly are still checked")
