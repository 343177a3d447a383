"""Hot-loop picking on small assembly listings of the three ISAs
(python3 -m unittest discover -s bench -p 'test_*.py')."""

import unittest

import math

from asm import hot_loop, hot_packets, mca_cycles

X86 = """
f:
.LBB0_2:                                # outer
\tmovq\t%rax, %rcx
.LBB0_3:                                # vector body
\tvmovdqu64\t(%rdi,%rax), %zmm0
\tvpaddusb\t(%rsi,%rax), %zmm0, %zmm0   # imm = 0x40
\tvmovdqu8\t%zmm0, %zmm1 {%k1} {z}
\taddq\t$64, %rax
\tjne\t.LBB0_3
\tjmp\t.LBB0_2
.LBB0_5:                                # scalar remainder
\tmovzbl\t(%rdi,%rax), %ecx
\tincq\t%rax
\tjne\t.LBB0_5
"""

AARCH64 = """
.LBB1_4:                                // %loop
\tldr\tq0, [x10]
\tadd\tx10, x10, #16                     // #16 is an immediate
\tuqadd\tv0.16b, v0.16b, v1.16b
\tstr\tq0, [x8]
\tb.ne\t.LBB1_4
.LBB1_6:
\tldrb\tw9, [x0], #1
\tsubs\tx2, x2, #1
\tb.ne\t.LBB1_6
"""

# clang -O2 -march=alderlake: AVX-VNNI's VEX form carries the `{vex}` pseudo-prefix.
X86_AVX_VNNI = """
.LBB0_11:                               # =>This Inner Loop Header: Depth=1
\tvmovdqu\t(%rsi,%rdx,2), %xmm1
\tvmovdqu\t(%rdi,%rdx,2), %xmm2
\t{vex}\tvpdpwssd\t%xmm1, %xmm2, %xmm0
\taddq\t$8, %rdx
\tcmpq\t%rdx, %rax
\tjne\t.LBB0_11
"""

HEXAGON = """
.LBB2_7:                                // outer
\t{
\t\tr2 = add(r2,#1)
\t\tv0 = vmemu(r3+#0)
\t\tjump .LBB2_7
\t}
.LBB2_9:                                // inner
\t{
\t\tv1 = vmemu(r17++#1)
\t}
\t{
\t\tv0.ub = vadd(v1.ub,v2.ub):sat
\t\tvmemu(r16++#1) = v0
\t} :endloop0
"""


class HotLoop(unittest.TestCase):
    def test_x86_takes_the_vector_body_not_the_remainder(self):
        self.assertEqual(hot_loop(X86), ["vmovdqu64\t(%rdi,%rax), %zmm0", "vpaddusb\t(%rsi,%rax), %zmm0, %zmm0",
                                         "vmovdqu8\t%zmm0, %zmm1 {%k1} {z}", "addq\t$64, %rax", "jne\t.LBB0_3"])

    def test_x86_pseudo_prefix_is_kept_and_opens_no_packet(self):
        loop = hot_loop(X86_AVX_VNNI)
        self.assertEqual(len(loop), 6)
        self.assertEqual(loop[2], "{vex}\tvpdpwssd\t%xmm1, %xmm2, %xmm0")
        # llvm-mca prices it on a CPU with AVX-VNNI (it rejected `vex}`).
        self.assertTrue(math.isfinite(mca_cycles(loop, "alderlake")))

    def test_aarch64_keeps_immediates_and_drops_comments(self):
        loop = hot_loop(AARCH64)
        self.assertEqual(len(loop), 5)
        self.assertIn("add\tx10, x10, #16", loop)

    def test_hexagon_hardware_loop_in_packets(self):
        self.assertEqual(hot_packets(HEXAGON), [["v1 = vmemu(r17++#1)"], ["v0.ub = vadd(v1.ub,v2.ub):sat", "vmemu(r16++#1) = v0"]])

    def test_no_loop(self):
        self.assertEqual(hot_loop("f:\n\tretq\n"), [])


if __name__ == "__main__":
    unittest.main()
