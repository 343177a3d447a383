//! Which extensions this CPU has, from `/proc/cpuinfo`.

use std::collections::HashSet;

/// The `/proc/cpuinfo` flag for a guide CPUID name.
pub fn cpuinfo_flag(cpuid: &str) -> Option<&'static str> {
    Some(match crate::x86::scope::normalize_cpuid(cpuid) {
        "SSE2" => "sse2",
        "SSE3" => "pni",
        "SSSE3" => "ssse3",
        "SSE4.1" => "sse4_1",
        "SSE4.2" => "sse4_2",
        "AVX" => "avx",
        "AVX2" => "avx2",
        "AVX512F" => "avx512f",
        "AVX512BW" => "avx512bw",
        "AVX512DQ" => "avx512dq",
        "AVX512VL" => "avx512vl",
        "AVX512CD" => "avx512cd",
        "AVX512_VNNI" => "avx512_vnni",
        "AVX512_VBMI" => "avx512vbmi",
        "AVX512_VBMI2" => "avx512_vbmi2",
        "AVX512_BITALG" => "avx512_bitalg",
        "AVX512VPOPCNTDQ" => "avx512_vpopcntdq",
        "AVX512IFMA52" => "avx512ifma",
        "AVX_VNNI" | "AVX-VNNI" => "avx_vnni",
        "GFNI" => "gfni",
        _ => return None,
    })
}

pub struct CpuFeatures(HashSet<String>);

impl CpuFeatures {
    pub fn detect() -> CpuFeatures {
        let text = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let flags = text
            .lines()
            .find(|l| l.starts_with("flags"))
            .and_then(|l| l.split_once(':'))
            .map(|(_, f)| f.split_whitespace().map(str::to_string).collect())
            .unwrap_or_default();
        CpuFeatures(flags)
    }

    /// The flags, sorted, as one string (part of cache keys).
    pub fn flags_string(&self) -> String {
        let mut v: Vec<&str> = self.0.iter().map(String::as_str).collect();
        v.sort_unstable();
        v.join(" ")
    }

    /// The first CPUID in `cpuids` this CPU lacks.
    pub fn missing<'a>(&self, cpuids: &'a [String]) -> Option<&'a str> {
        cpuids.iter().find(|c| !cpuinfo_flag(c).is_some_and(|f| self.0.contains(f))).map(String::as_str)
    }
}
