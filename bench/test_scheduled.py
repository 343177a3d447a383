"""The scheduled forms (bench/scheduled.py) against the schedule they
implement (bench/schedule.py), and MLIR's verifier
(python3 -m unittest discover -s bench -p 'test_*.py')."""

import re
import subprocess
import unittest

import schedule
import scheduled
import suite

MLIR_OPT = "/usr/lib/llvm-22/bin/mlir-opt"


def kernels(bits):
    suite.VECTOR_BITS = bits if bits in (128, 1024) else 512
    try:
        return {k.name: k for k in scheduled.in_form(suite.all_kernels(), "scheduled", bits)}
    finally:
        suite.VECTOR_BITS = 512


class Scheduled(unittest.TestCase):
    def test_every_kernel_has_a_scheduled_form_that_verifies_at_every_width(self):
        for bits in (128, 256, 512, 1024):
            forms = kernels(bits)
            self.assertEqual(len(forms), len(suite.all_kernels()))
            module = "module {\n" + "".join(k.mlir for k in forms.values()) + "}\n"
            p = subprocess.run([MLIR_OPT, "--verify-diagnostics"], input=module, capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, f"{bits} bits: {p.stderr[-2000:]}")

    def test_a_separable_filter_keeps_2r_plus_1_rows_of_its_horizontal_pass(self):
        k = kernels(512)["gaussian7x7"]
        # u32 sums (7x7 binomial weights reach 4096), 7 rows of the image's width, aligned to a vector.
        self.assertRegex(k.mlir, r"memref\.alloca\(\) \{alignment = \d+ : i64\} : memref<13440xi32>")
        self.assertIn(f"step %c{schedule.STRIP_ROWS}", k.mlir)
        # The output at its natural width: 64 u8 lanes in 512 bits.
        self.assertIn("vector<64xi8>", k.mlir)

    def test_layers_keep_one_accumulator_per_batch_row_at_the_natural_i32_width(self):
        for bits, lanes in ((128, 4), (256, 8), (512, 16), (1024, 32)):
            k = kernels(bits)["matmul_b4"]
            self.assertIn(f"%acc:4 = scf.for", k.mlir)
            self.assertEqual(len(re.findall(r"vector\.load %W", k.mlir)), 1, "one weight load per step")
            self.assertIn(f"vector<{lanes}x{schedule.DOT_GROUP}xi32>", k.mlir)

    def test_the_convolution_shares_each_activation_vector_among_its_filters(self):
        k = kernels(1024)["conv_nn"]
        # 64 channels per tap: HVX's 32 i32 lanes of 4 bytes do not divide them, so 16 lanes.
        self.assertIn(f"%accy:{schedule.CONV_FILTERS}", k.mlir)
        self.assertEqual(len(re.findall(r"vector\.load %A", k.mlir)), 1)
        self.assertEqual(len(re.findall(r"vector\.load %W", k.mlir)), schedule.CONV_FILTERS)
        self.assertIn("vector<64xi8>", k.mlir)

    def test_a_row_that_is_not_whole_vectors_ends_with_one_shifted_vector(self):
        k = kernels(512)["box_blur3x3"]
        # Columns [1, 1889): 29 whole vectors of 64 from 1, then one vector ending at 1889.
        self.assertIn("scf.for %xs = %c1 to %c1857 step %c64", k.mlir)
        self.assertIn("scf.for %xs = %c1825 to %c1889 step %c64", k.mlir)


if __name__ == "__main__":
    unittest.main()
