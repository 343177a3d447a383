# AArch64 code runs under qemu-user on any host (`-cpu max`: every extension),
# built freestanding, or against the cross C library where it is installed.
# Executed by lit-tests/lit.cfg.py with `config`, `lit_config`, `os` and `shutil`.
freestanding = "-O2 -ffreestanding -nostdlib -static -fuse-ld=lld -Wno-override-module"
config.substitutions.append(("%clang_aarch64", "clang-22 --target=aarch64-linux-gnu -march=armv8.6-a+dotprod+i8mm " + freestanding))
# With the cross C library (scripts/setup installs libc6-dev-arm64-cross): a static AArch64 program using libc.
config.substitutions.append(("%libc_clang_aarch64", "clang-22 --target=aarch64-linux-gnu -march=armv8.6-a+dotprod+i8mm -O2 -static -fuse-ld=lld -Wno-override-module"))
if os.path.exists("/usr/aarch64-linux-gnu/lib/libc.a"):
    config.available_features.add("aarch64-libc")
else:
    lit_config.note("no /usr/aarch64-linux-gnu/lib/libc.a: AArch64 tests that need a C library skipped (scripts/setup installs libc6-dev-arm64-cross)")
if shutil.which("qemu-aarch64"):
    config.available_features.add("qemu-aarch64")
else:
    lit_config.note("qemu-aarch64 not found: execution under it skipped (scripts/setup installs qemu-user)")
