# lit configuration for hydride: dialect round trips, diagnostics and passes
# through stock mlir-opt with libhydride.so loaded as dialect and pass plugin.
import os
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

# Execution tests run the lowered code on this CPU.
try:
    with open("/proc/cpuinfo") as f:
        if "avx512bw" in f.read() and "avx512_vnni" in open("/proc/cpuinfo").read():
            config.available_features.add("avx512")
except OSError:
    pass
