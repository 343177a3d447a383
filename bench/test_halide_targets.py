"""The Halide target the bench picks for an x86 host
(python3 -m unittest discover -s bench -p 'test_*.py')."""

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "halide"))
from targets import for_x86_host  # noqa: E402

ZEN3 = {"sse4_1", "avx", "avx2", "fma", "f16c"}
ZEN4 = ZEN3 | {"avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl", "avx512ifma", "avx512vbmi",
               "avx512_vnni", "avx512_bf16", "avx512_vbmi2", "avx512_bitalg", "avx512_vpopcntdq"}
EMERALD_RAPIDS = ZEN4 | {"avx512_fp16", "avx_vnni", "amx_tile", "amx_int8"}


class HalideTargetOfHost(unittest.TestCase):
    def test_intel_with_avx512_fp16_and_avx_vnni_is_sapphire_rapids(self):
        self.assertEqual(for_x86_host(EMERALD_RAPIDS, "emeraldrapids").halide, "x86-64-linux-avx512_sapphirerapids")

    def test_zen4_is_zen4_and_tuned(self):
        self.assertEqual(for_x86_host(ZEN4, "znver4").halide, "x86-64-linux-tune_znver4-avx512_zen4")

    def test_withheld_avx512_falls_back_to_avx2(self):
        avx2_only = {f for f in EMERALD_RAPIDS if not f.startswith("avx512") and f != "avx_vnni"}
        self.assertEqual(for_x86_host(avx2_only, "emeraldrapids").halide, "x86-64-linux-avx-avx2-f16c-fma-sse41")
        self.assertEqual(for_x86_host(ZEN3, "znver3").halide, "x86-64-linux-tune_znver3-avx-avx2-f16c-fma-sse41")


if __name__ == "__main__":
    unittest.main()
