"""Pricing a program's calls from qemu's block trace, on small inputs: the
linker map's code ranges, blocks qemu split without a branch, and
objdump's instructions as llvm-mca reads them
(python3 -m unittest discover -s bench -p 'test_*.py')."""

import os
import tempfile
import unittest

from qemu_trace import fall_through, for_mca, object_text

MAP = """\
             VMA              LMA     Size Align Out     In      Symbol
          200000           200000      300    16 .text
          200000           200000       a8     4         {work}/k.llvm.o:(.text)
          200000           200000       a8     1                 k
          2000b0           2000b0       40     4         {work}/k.halide.o:(.text.halide_k)
          2000f0           2000f0        0     4         {work}/k.halide.o:(.text.empty)
          200100           200100       20     4         {work}/k.halide.o:(.text.halide_k_argv)
          200120           200120       30     4         /usr/lib/libc.a(memset.o):(.text)
"""


class ObjectText(unittest.TestCase):
    def test_ranges_of_each_object_from_the_map(self):
        with tempfile.TemporaryDirectory() as work:
            path = os.path.join(work, "k.map")
            with open(path, "w") as f:
                f.write(MAP.format(work=work))
            llvm, halide = os.path.join(work, "k.llvm.o"), os.path.join(work, "k.halide.o")
            ranges = object_text(path, [llvm, halide])
            self.assertEqual(ranges[llvm], [(0x200000, 0x2000a8)])
            # Every non-empty code section of the object; the C library's code belongs to no path.
            self.assertEqual(ranges[halide], [(0x2000b0, 0x2000f0), (0x200100, 0x200120)])


class FallThrough(unittest.TestCase):
    def test_a_block_split_without_a_branch_continues_into_the_next(self):
        lines = {0x1000: "ldr q0, [x1]", 0x1004: "add v0.4s, v0.4s, v1.4s",  # split at a page boundary
                 0x1008: "str q0, [x2]", 0x100c: "b.ne 0x1000 <k+0x10>",
                 0x1010: "ret"}
        blocks = {0x1000: [(0x1000, ""), (0x1004, "")], 0x1008: [(0x1008, ""), (0x100c, "")], 0x1010: [(0x1010, "")]}
        self.assertEqual(fall_through(blocks, lines), {0x1000: 0x1008})


class ForMca(unittest.TestCase):
    def test_branch_targets_become_labels(self):
        self.assertEqual(for_mca("b.lo\t0x2381ac <sobel3x3+0xc>"), "b.lo target")
        self.assertEqual(for_mca("cbnz\tx8, 0x238000 <f+0x20>"), "cbnz\tx8, target")
        self.assertEqual(for_mca("uaddw\tv0.8h, v5.8h, v0.8b"), "uaddw\tv0.8h, v5.8h, v0.8b")


if __name__ == "__main__":
    unittest.main()
