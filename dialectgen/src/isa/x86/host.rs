//! What this machine executes: the CPU model and its extensions, from
//! `/proc/cpuinfo`, less any the user withholds.
//!
//! `HYDRIDE_WITHHOLD_FEATURES` names `/proc/cpuinfo` flags to treat as
//! absent, separated by commas or spaces; a trailing `*` matches a prefix
//! (`avx512*,avx_vnni,gfni` makes an AVX-512 machine behave like an
//! AVX2-only one). Everything that decides what may run here (validation,
//! `target=native`, the test and benchmark harnesses through `hydride host`)
//! reads the features through this module, so withholding is honoured
//! everywhere at once.

use serde::Serialize;
use std::collections::BTreeSet;

/// The environment variable naming the features to withhold.
pub const WITHHOLD_ENV: &str = "HYDRIDE_WITHHOLD_FEATURES";

/// The `/proc/cpuinfo` flag of an Intel guide CPUID name.
pub fn cpuinfo_flag(cpuid: &str) -> Option<&'static str> {
    Some(match crate::isa::x86::scope::normalize_cpuid(cpuid) {
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

/// The clang/llc feature name of a `/proc/cpuinfo` flag, for the flags
/// whose absence changes code generation.
fn codegen_feature(flag: &str) -> Option<&'static str> {
    Some(match flag {
        "sse3" | "pni" => "sse3",
        "ssse3" => "ssse3",
        "sse4_1" => "sse4.1",
        "sse4_2" => "sse4.2",
        "avx" => "avx",
        "avx2" => "avx2",
        "fma" => "fma",
        "f16c" => "f16c",
        "bmi1" => "bmi",
        "bmi2" => "bmi2",
        "avx512f" => "avx512f",
        "avx512bw" => "avx512bw",
        "avx512dq" => "avx512dq",
        "avx512vl" => "avx512vl",
        "avx512cd" => "avx512cd",
        "avx512_vnni" => "avx512vnni",
        "avx512vbmi" => "avx512vbmi",
        "avx512_vbmi2" => "avx512vbmi2",
        "avx512_bitalg" => "avx512bitalg",
        "avx512_vpopcntdq" => "avx512vpopcntdq",
        "avx512ifma" => "avx512ifma",
        "avx512_bf16" => "avx512bf16",
        "avx512_fp16" => "avx512fp16",
        "avx_vnni" => "avxvnni",
        "gfni" => "gfni",
        "vaes" => "vaes",
        "vpclmulqdq" => "vpclmulqdq",
        "sha_ni" => "sha",
        _ => return None,
    })
}

/// The macro clang defines where the extension of guide CPUID `cpuid` is
/// enabled (`AVX512BW` → `__AVX512BW__`); `None` for SSE2, always there.
pub fn feature_macro(cpuid: &str) -> Option<String> {
    let feature = codegen_feature(cpuinfo_flag(cpuid)?)?;
    Some(format!("__{}__", feature.to_uppercase().replace('.', "_")))
}

/// The extensions a `/proc/cpuinfo` flag builds on.
fn requires(flag: &str) -> &'static [&'static str] {
    match flag {
        "avx512f" => &["avx2", "fma"],
        f if f.starts_with("avx512") => &["avx512f"],
        "avx_vnni" => &["avx2"],
        "avx2" | "fma" | "f16c" | "vaes" | "vpclmulqdq" => &["avx"],
        "avx" => &["sse4_2"],
        "sse4_2" => &["sse4_1"],
        "sse4_1" => &["ssse3"],
        "ssse3" => &["pni"],
        "pni" | "gfni" => &["sse2"],
        _ => &[],
    }
}

/// The guide CPUIDs of the named x86 target `x86-avx2`: SSE2 … AVX2.
const X86_AVX2_CPUIDS: &[&str] = &["SSE2", "SSE3", "SSSE3", "SSE4.1", "SSE4.2", "AVX", "AVX2"];

/// The named x86 targets, for which [`x86_target_allows`] is defined.
pub const X86_TARGETS: &[&str] = &["x86-avx512", "x86-avx2"];

/// Whether code for a named x86 target may use an instruction of guide
/// CPUID `cpuid`: `x86-avx512` is Zen 4's extensions, everything modelled
/// but AVX-VNNI (the VEX forms Zen 4 lacks); `x86-avx2` is SSE2 … AVX2.
pub fn x86_target_allows(target: &str, cpuid: &str) -> bool {
    let c = crate::isa::x86::scope::normalize_cpuid(cpuid);
    match target {
        "x86-avx512" => !matches!(c, "AVX_VNNI" | "AVX-VNNI"),
        "x86-avx2" => X86_AVX2_CPUIDS.contains(&c),
        _ => false,
    }
}

/// The modelled guide CPUIDs a named x86 target's code may use.
fn x86_target_cpuids(target: &str) -> Vec<&'static str> {
    crate::isa::x86::scope::SUPPORTED_CPUIDS.iter().copied().filter(|c| x86_target_allows(target, c)).collect()
}

/// This machine as hydride sees it.
#[derive(Clone, Debug, Serialize)]
pub struct Host {
    /// `model name` from `/proc/cpuinfo`.
    pub model: String,
    /// `vendor_id` from `/proc/cpuinfo` (`GenuineIntel`, `AuthenticAMD`).
    pub vendor: String,
    /// The flags in use: what the CPU reports, less the withheld ones.
    pub features: BTreeSet<String>,
    /// Flags the CPU has that `HYDRIDE_WITHHOLD_FEATURES` takes away.
    pub withheld: BTreeSet<String>,
}

impl Host {
    /// The host, read once per process.
    pub fn get() -> &'static Host {
        static HOST: std::sync::OnceLock<Host> = std::sync::OnceLock::new();
        HOST.get_or_init(|| {
            let text = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
            Host::from_cpuinfo(&text, std::env::var(WITHHOLD_ENV).ok().as_deref().unwrap_or(""))
        })
    }

    /// The host described by `/proc/cpuinfo` text, with `withhold` (patterns
    /// as in `HYDRIDE_WITHHOLD_FEATURES`) taken away.
    pub fn from_cpuinfo(cpuinfo: &str, withhold: &str) -> Host {
        let field = |name: &str| {
            cpuinfo
                .lines()
                .find(|l| l.split(':').next().is_some_and(|k| k.trim() == name))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
                .unwrap_or_default()
        };
        let all: BTreeSet<String> = field("flags").split_whitespace().map(str::to_string).collect();
        let patterns: Vec<&str> = withhold.split([',', ' ']).map(str::trim).filter(|p| !p.is_empty()).collect();
        let matches = |flag: &str| {
            patterns.iter().any(|p| match p.strip_suffix('*') {
                Some(prefix) => flag.starts_with(prefix),
                None => flag == *p,
            })
        };
        let mut withheld: BTreeSet<String> = all.iter().filter(|f| matches(f)).cloned().collect();
        // What needs a withheld extension is withheld too (clang's
        // `-mno-avx512f` turns off AVX512BW as well): to a fixed point.
        loop {
            let more: Vec<String> = all
                .iter()
                .filter(|f| !withheld.contains(*f) && requires(f).iter().any(|r| withheld.contains(*r)))
                .cloned()
                .collect();
            if more.is_empty() {
                break;
            }
            withheld.extend(more);
        }
        let features = all.into_iter().filter(|f| !withheld.contains(f)).collect();
        let model = field("model name");
        let vendor = field("vendor_id");
        Host { model: if model.is_empty() { "unknown".into() } else { model }, vendor, features, withheld }
    }

    pub fn has(&self, flag: &str) -> bool {
        self.features.contains(flag)
    }

    /// Whether this host executes an instruction needing every guide CPUID in `cpuids`.
    pub fn executes<S: AsRef<str>>(&self, cpuids: &[S]) -> bool {
        self.missing(cpuids).is_none()
    }

    /// The first guide CPUID in `cpuids` this host lacks.
    pub fn missing<'a, S: AsRef<str>>(&self, cpuids: &'a [S]) -> Option<&'a str> {
        cpuids.iter().map(AsRef::as_ref).find(|c| !cpuinfo_flag(c).is_some_and(|f| self.has(f)))
    }

    /// The flags in use, sorted, as one string.
    pub fn flags_string(&self) -> String {
        self.features.iter().cloned().collect::<Vec<_>>().join(" ")
    }

    /// Code-generation features to turn off so that a compiler targeting
    /// `native` emits nothing withheld (`avx512f`, `avxvnni`, …).
    pub fn disabled_codegen_features(&self) -> Vec<&'static str> {
        let mut v: Vec<&'static str> = self.withheld.iter().filter_map(|f| codegen_feature(f)).collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// clang flags for code that runs here: `-march=native`, or `-march=cpu`
    /// where LLVM's name of the host is corrected to `cpu`
    /// (`super::host_cpu`), less withheld features.
    pub fn clang_flags(&self, cpu: Option<&str>) -> Vec<String> {
        let cpu = cpu.unwrap_or("native");
        std::iter::once(format!("-march={cpu}"))
            .chain(self.disabled_codegen_features().into_iter().map(|f| format!("-mno-{f}")))
            .collect()
    }

    /// llc flags for code that runs here: `-mcpu=native`, or `-mcpu=cpu`
    /// where LLVM's name is corrected to `cpu`, less withheld features.
    pub fn llc_flags(&self, cpu: Option<&str>) -> Vec<String> {
        let off = self.disabled_codegen_features();
        let cpu = cpu.unwrap_or("native");
        let mut v = vec![format!("-mcpu={cpu}")];
        if !off.is_empty() {
            v.push(format!("-mattr={}", off.iter().map(|f| format!("-{f}")).collect::<Vec<_>>().join(",")));
        }
        v
    }

    /// The x86 target `native` means here: the richest named target whose
    /// base extensions this host has (`x86-avx512`: AVX512F/BW/DQ/VL/CD;
    /// `x86-avx2`: SSE2 … AVX2; else `x86-sse2`), then `-flag` for each
    /// modelled extension above that base the host lacks and `+flag` for
    /// each it has beyond the base. A Zen 4 is `x86-avx512`, a Zen 3
    /// `x86-avx2`, an AVX-512 machine without VNNI `x86-avx512-avx512_vnni-…`.
    pub fn x86_target(&self) -> String {
        const AVX512: &[&str] = &["AVX512F", "AVX512BW", "AVX512DQ", "AVX512VL", "AVX512CD"];
        let all = crate::isa::x86::scope::SUPPORTED_CPUIDS;
        let (name, base): (&str, Vec<&str>) = if self.executes(X86_AVX2_CPUIDS) && self.executes(AVX512) {
            ("x86-avx512", x86_target_cpuids("x86-avx512"))
        } else if self.executes(X86_AVX2_CPUIDS) {
            ("x86-avx2", x86_target_cpuids("x86-avx2"))
        } else {
            ("x86-sse2", vec!["SSE2"])
        };
        let mut label = name.to_string();
        let mut flags: Vec<(bool, &str)> = all
            .iter()
            .filter_map(|c| {
                let flag = cpuinfo_flag(c)?;
                let here = self.has(flag);
                (here != base.contains(c)).then_some((here, flag))
            })
            .collect();
        flags.sort_unstable();
        flags.dedup();
        for (here, flag) in flags {
            label.push(if here { '+' } else { '-' });
            label.push_str(flag);
        }
        label
    }

    /// The `/proc/cpuinfo` flags code for a named x86 target may need that
    /// this host lacks: empty when the host executes everything the target uses.
    pub fn lacks_for(&self, target: &str) -> Vec<String> {
        self.lacking(x86_target_cpuids(target))
    }

    /// The extensions of `wanted` (guide CPUID names) this host lacks, as `/proc/cpuinfo` flags.
    pub fn lacking<'a>(&self, wanted: impl IntoIterator<Item = &'a str>) -> Vec<String> {
        wanted
            .into_iter()
            .filter(|c| !cpuinfo_flag(c).is_some_and(|f| self.has(f)))
            .map(|c| cpuinfo_flag(c).map_or_else(|| c.to_string(), str::to_string))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ZEN4: &str = "processor\t: 0\nmodel name\t: AMD EPYC 9B14\nflags\t\t: fpu sse2 pni ssse3 sse4_1 sse4_2 avx avx2 avx512f avx512bw avx512vl avx512_vnni avx_vnni gfni\n";

    #[test]
    fn reads_model_and_flags() {
        let h = Host::from_cpuinfo(ZEN4, "");
        assert_eq!(h.model, "AMD EPYC 9B14");
        assert!(h.has("avx512_vnni") && h.withheld.is_empty());
        assert!(h.executes(&["AVX512F", "AVX512BW"]));
        assert_eq!(h.clang_flags(None), vec!["-march=native"]);
        assert_eq!(h.llc_flags(None), vec!["-mcpu=native"]);
        assert_eq!(h.clang_flags(Some("emeraldrapids")), vec!["-march=emeraldrapids"]);
        assert_eq!(h.llc_flags(Some("emeraldrapids")), vec!["-mcpu=emeraldrapids"]);
    }

    #[test]
    fn withholding_takes_features_away_everywhere() {
        let h = Host::from_cpuinfo(ZEN4, "avx512*, avx_vnni");
        assert!(!h.has("avx512f") && !h.has("avx512_vnni") && !h.has("avx_vnni"));
        assert!(h.has("avx2") && h.has("gfni"));
        assert_eq!(h.missing(&["AVX512F", "AVX512VL"]), Some("AVX512F"));
        assert!(h.executes(&["AVX2"]));
        assert_eq!(h.withheld.len(), 5);
        let flags = h.clang_flags(None);
        assert!(flags.contains(&"-mno-avx512f".to_string()) && flags.contains(&"-mno-avxvnni".to_string()));
        assert!(h.llc_flags(None)[1].starts_with("-mattr=-avx512bw,-avx512f"));
        assert_eq!(h.lacking(["AVX2", "AVX512_VNNI"]), vec!["avx512_vnni"]);
        assert!(h.lacks_for("x86-avx2").is_empty());
        assert!(h.lacks_for("x86-avx512").contains(&"avx512f".to_string()));
        assert!(Host::from_cpuinfo(ZEN4, "").lacks_for("x86-avx512").contains(&"avx512dq".to_string()));
        assert_eq!(h.x86_target(), "x86-avx2+gfni");
        assert_eq!(Host::from_cpuinfo(ZEN4, "avx512*,avx_vnni,gfni").x86_target(), "x86-avx2");
    }

    #[test]
    fn native_names_the_target_and_what_differs() {
        let all = "flags : sse2 pni ssse3 sse4_1 sse4_2 avx avx2 avx512f avx512bw avx512dq avx512vl avx512cd avx512_vnni avx512vbmi avx512_vbmi2 avx512_bitalg avx512_vpopcntdq avx512ifma avx_vnni gfni\n";
        assert_eq!(Host::from_cpuinfo(all, "avx_vnni").x86_target(), "x86-avx512");
        assert!(Host::from_cpuinfo(all, "avx_vnni").lacks_for("x86-avx512").is_empty());
        assert_eq!(Host::from_cpuinfo(all, "").x86_target(), "x86-avx512+avx_vnni");
        assert_eq!(Host::from_cpuinfo(all, "avx512_vnni").x86_target(), "x86-avx512-avx512_vnni+avx_vnni");
        assert_eq!(Host::from_cpuinfo("flags : sse2\n", "").x86_target(), "x86-sse2");
    }

    #[test]
    fn withholding_an_extension_withholds_what_builds_on_it() {
        let h = Host::from_cpuinfo(ZEN4, "avx512f");
        assert!(!h.has("avx512bw") && !h.has("avx512_vnni") && h.has("avx_vnni") && h.has("avx2"));
        let h = Host::from_cpuinfo(ZEN4, "avx2");
        assert!(!h.has("avx512f") && !h.has("avx_vnni") && h.has("avx") && h.has("gfni"));
        assert_eq!(h.x86_target(), "x86-sse2+avx+gfni+pni+sse4_1+sse4_2+ssse3");
    }

    #[test]
    fn unknown_cpuids_are_never_executable() {
        let h = Host::from_cpuinfo(ZEN4, "");
        assert_eq!(h.missing(&["AVX2", "KNCNI"]), Some("KNCNI"));
        assert_eq!(Host::from_cpuinfo("", "").model, "unknown");
    }
}
