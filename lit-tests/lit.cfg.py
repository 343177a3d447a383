# lit configuration for hydride: dialect round trips, diagnostics and passes
# through stock mlir-opt with libhydride.so loaded as dialect and pass plugin.
import json
import os
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

config.substitutions.append(("%hydride_lib", plugin))
config.substitutions.append(("%mlir_opt", os.path.join(llvm_bin, "mlir-opt")))
config.substitutions.append(("%load_hydride_passes", "--load-pass-plugin=" + plugin))
config.substitutions.append(("%load_hydride", "--load-dialect-plugin=" + plugin))
config.substitutions.append(("%hydride_opt", os.path.join(repo, "target", "release", "hydride-opt")))
config.environment["PATH"] = llvm_bin + os.pathsep + os.environ.get("PATH", "")

config.substitutions.append(("%hydride", os.path.join(repo, "target", "release", "hydride")))
config.substitutions.append(("%mem_wrappers", "python3 " + os.path.join(config.test_source_root, "Run", "Inputs", "mem_wrappers.py")))
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
# A host executes a target's code when it lacks none of the extensions the
# target's grammar may use.
for target, lacking in host["lacks"].items():
    if not lacking:
        config.available_features.add("host-" + target)
    else:
        lit_config.note(f"execution of {target} code skipped on this host ({host['model']}): it lacks "
                        f"{', '.join(lacking)}; its lowering and assembly are still checked")

# What running each ISA's code needs (cross compilers, emulators, their
# features) comes from its folder: every `<suite>/<isa>/lit.target.py`.
import glob
import shutil
for target_cfg in sorted(glob.glob(os.path.join(config.test_source_root, "*", "*", "lit.target.py"))):
    with open(target_cfg) as f:
        exec(compile(f.read(), target_cfg, "exec"), {"config": config, "lit_config": lit_config, "os": os, "shutil": shutil})
config.substitutions.append(("%differential", "python3 " + os.path.join(config.test_source_root, "Run", "Inputs", "differential.py")))
# A differential fuzzer's kept failure, checked again (scripts/fuzz --replay).
# A sized program lowered at every target under the bounds tests' limits (Lower/bounds).
config.substitutions.append(("%bounds_of", "python3 " + os.path.join(config.test_source_root, "Lower", "Inputs", "bounds_of.py")))
config.substitutions.append(("%fuzz", "python3 " + os.path.join(repo, "scripts", "fuzz")))
config.substitutions.append(("%run_inputs", os.path.join(config.test_source_root, "Run", "Inputs")))

# A private mount namespace (for tmpfs mounts a test makes and drops: a
# read-only or full file system under the memo).
if subprocess.run(["unshare", "-rm", "true"], capture_output=True).returncode == 0:
    config.available_features.add("mount-namespace")
else:
    lit_config.note("unshare -rm fails here: the memo tests on read-only and full file systems skipped")
