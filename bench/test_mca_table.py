"""The kernel x CPU table of scripts/mca-table
(python3 -m unittest discover -s bench -p 'test_*.py')."""

import unittest
from types import SimpleNamespace

from mca_table import TARGETS, table


class Table(unittest.TestCase):
    def test_a_dearer_loop_is_flagged_per_cpu_and_geomean_is_llvm_over_hydride(self):
        target = TARGETS["x86-avx512"]
        kernels = [SimpleNamespace(name="blur"), SimpleNamespace(name="dot")]
        cpus = target.cpus
        results = {"blur": {c: (12.0, 14.0) if c == "emeraldrapids" else (12.0, 6.0) for c in cpus},
                   "dot": {c: (8.0, 2.0) for c in cpus}}
        lines, dearer = table(target, kernels, results)
        self.assertEqual(dearer, ["x86-avx512 blur on emeraldrapids: hydride 14.00 cycles, LLVM 12.00"])
        self.assertIn("0.86 **dearer**", lines[4])
        self.assertEqual(lines[-1].split(" | ")[1], "2.828")  # sqrt(2 * 4) on znver4

    def test_every_cpu_of_the_documented_set_is_priced(self):
        priced = {c for t in TARGETS.values() for c in t.cpus}
        for cpu in ("znver3", "znver4", "znver5", "skylake-avx512", "icelake-server", "sapphirerapids",
                    "emeraldrapids", "alderlake", "x86-64-v3", "x86-64-v4", "neoverse-n1", "neoverse-v1",
                    "neoverse-n2", "neoverse-v2", "cortex-a78"):
            self.assertIn(cpu, priced)


if __name__ == "__main__":
    unittest.main()
