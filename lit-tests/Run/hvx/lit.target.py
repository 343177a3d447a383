# Hexagon HVX code runs under qemu-user on any host, as a v66 core with
# 128-byte HVX, built freestanding.
# Executed by lit-tests/lit.cfg.py with `config`, `lit_config`, `os` and `shutil`.
freestanding = "-O2 -ffreestanding -nostdlib -static -fuse-ld=lld -Wno-override-module"
config.substitutions.append(("%clang_hexagon", "clang-22 --target=hexagon -mcpu=hexagonv66 -mhvx -mhvx-length=128b " + freestanding))
if shutil.which("qemu-hexagon"):
    config.available_features.add("qemu-hexagon")
else:
    lit_config.note("qemu-hexagon not found: execution under it skipped (scripts/setup installs qemu-user)")
