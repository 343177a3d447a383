//! Which CPU this host is, for tuning and pricing `native` code.
//!
//! LLVM names the host from CPUID's family and model (`-march=native`,
//! `llc -mcpu=native`). A virtual machine may report a model older than the
//! extensions it passes through: an Emerald Rapids Xeon shows as a Rocket
//! Lake, which has no AMX, AVX512-FP16 or AVX-VNNI. Code tuned for the named
//! model is then tuned for another core (LLVM splits `vpdpwssd` into
//! `vpmaddwd` and `vpaddd` for Rocket Lake and keeps it for Sapphire
//! Rapids), and hydride would price it on that core.
//!
//! Where the host has vector extensions the named CPU lacks, the host is
//! taken to be the CPU of its vendor, among those hydride prices
//! ([`KNOWN`]), whose vector extensions it has every one of, and most of
//! them; on a tie, the newer. Where none fits, or the named CPU has every
//! extension the host has, LLVM's name stands. Extensions the user withholds
//! (`HYDRIDE_WITHHOLD_FEATURES`) count as absent, so withholding never moves
//! the host to a CPU with more.

use super::host::Host;
use serde::Serialize;

/// A CPU hydride prices: LLVM's name, the `/proc/cpuinfo` vendor, and its
/// vector extensions as `/proc/cpuinfo` flags, in groups (clang's
/// `-march=<name>` enables exactly these among [`TRACKED`]; a test checks it).
#[derive(Clone, Copy, Debug)]
pub struct KnownCpu {
    pub name: &'static str,
    pub vendor: &'static str,
    groups: &'static [&'static [&'static str]],
}

impl KnownCpu {
    /// Its vector extensions.
    pub fn flags(&self) -> impl Iterator<Item = &'static str> {
        self.groups.iter().flat_map(|g| g.iter().copied())
    }

    fn has(&self, flag: &str) -> bool {
        self.flags().any(|f| f == flag)
    }
}

/// The vector extensions compared, as `/proc/cpuinfo` flags.
pub const TRACKED: &[&str] = &[
    "avx2",
    "fma",
    "f16c",
    "sha_ni",
    "vaes",
    "vpclmulqdq",
    "gfni",
    "avx_vnni",
    "avx512f",
    "avx512bw",
    "avx512cd",
    "avx512dq",
    "avx512vl",
    "avx512_vnni",
    "avx512vbmi",
    "avx512_vbmi2",
    "avx512_bitalg",
    "avx512_vpopcntdq",
    "avx512ifma",
    "avx512_bf16",
    "avx512_fp16",
    "avx512_vp2intersect",
    "amx_tile",
    "amx_int8",
    "amx_bf16",
];

// Extension groups the CPUs below share.
const AVX2: &[&str] = &["avx2", "fma", "f16c"];
const CRYPTO: &[&str] = &["sha_ni", "vaes", "vpclmulqdq"];
const AVX512: &[&str] = &["avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"];
/// What Ice Lake added to AVX-512 (Zen 4 has it too).
const ICELAKE_AVX512: &[&str] =
    &["gfni", "avx512_vnni", "avx512vbmi", "avx512_vbmi2", "avx512_bitalg", "avx512_vpopcntdq", "avx512ifma"];
const ICELAKE: &[&[&str]] = &[AVX2, CRYPTO, AVX512, ICELAKE_AVX512];
const SAPPHIRE_RAPIDS: &[&[&str]] = &[
    AVX2,
    CRYPTO,
    AVX512,
    ICELAKE_AVX512,
    &["avx_vnni", "avx512_bf16", "avx512_fp16", "amx_tile", "amx_int8", "amx_bf16"],
];

const fn cpu(name: &'static str, vendor: &'static str, groups: &'static [&'static [&'static str]]) -> KnownCpu {
    KnownCpu { name, vendor, groups }
}

/// The CPUs with cost tables ([`super::cpus::CPUS`] less the generic
/// levels), oldest first within each vendor.
pub const KNOWN: &[KnownCpu] = &[
    cpu("znver3", "AuthenticAMD", &[AVX2, CRYPTO]),
    cpu("znver4", "AuthenticAMD", &[AVX2, CRYPTO, AVX512, ICELAKE_AVX512, &["avx512_bf16"]]),
    cpu(
        "znver5",
        "AuthenticAMD",
        &[AVX2, CRYPTO, AVX512, ICELAKE_AVX512, &["avx512_bf16", "avx_vnni", "avx512_vp2intersect"]],
    ),
    cpu("skylake-avx512", "GenuineIntel", &[AVX2, AVX512]),
    cpu("icelake-server", "GenuineIntel", ICELAKE),
    cpu("rocketlake", "GenuineIntel", ICELAKE),
    cpu("alderlake", "GenuineIntel", &[AVX2, CRYPTO, &["gfni", "avx_vnni"]]),
    cpu("sapphirerapids", "GenuineIntel", SAPPHIRE_RAPIDS),
    cpu("emeraldrapids", "GenuineIntel", SAPPHIRE_RAPIDS),
];

/// The CPU the host is taken to be, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Identity {
    /// LLVM's name of the CPU code for this host is tuned and priced for.
    pub cpu: String,
    /// What LLVM's host detection names it.
    pub llvm_names: String,
    /// The host's vector extensions LLVM's CPU lacks (empty: LLVM's name stands).
    pub beyond_llvm: Vec<String>,
}

impl Identity {
    /// Whether the CPU differs from LLVM's name.
    pub fn corrected(&self) -> bool {
        self.cpu != self.llvm_names
    }
}

/// The CPU `host` is taken to be where LLVM's host detection names it
/// `llvm_name` (module doc).
pub fn identify(llvm_name: &str, host: &Host) -> Identity {
    let named = KNOWN.iter().find(|c| c.name == llvm_name);
    let beyond_llvm: Vec<String> = match named {
        Some(named) => TRACKED.iter().filter(|f| host.has(f) && !named.has(f)).map(|f| f.to_string()).collect(),
        None => Vec::new(),
    };
    let as_named = Identity { cpu: llvm_name.to_string(), llvm_names: llvm_name.to_string(), beyond_llvm };
    if as_named.beyond_llvm.is_empty() {
        return as_named;
    }
    // The most extensions; on a tie the later (newer) entry.
    let best = KNOWN.iter().filter(|c| c.vendor == host.vendor && c.flags().all(|f| host.has(f))).fold(
        None::<&KnownCpu>,
        |best, c| match best {
            Some(b) if b.flags().count() > c.flags().count() => Some(b),
            _ => Some(c),
        },
    );
    match best {
        Some(c) => Identity { cpu: c.name.to_string(), ..as_named },
        None => as_named,
    }
}

/// What `-march=native` names this host: clang-22's target CPU for it
/// (`-###` prints the `-target-cpu` it would pass); `None` if clang does
/// not run or says nothing.
pub fn llvm_host_name() -> Option<String> {
    let out = std::process::Command::new("clang-22")
        .args(["-march=native", "-c", "-x", "c", "/dev/null", "-o", "/dev/null", "-###"])
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stderr);
    let rest = &text[text.find("\"-target-cpu\" \"")? + "\"-target-cpu\" \"".len()..];
    Some(rest[..rest.find('"')?].to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn host(vendor: &str, cpu: &str, withhold: &str) -> Host {
        let flags: Vec<&str> = KNOWN.iter().find(|c| c.name == cpu).unwrap().flags().collect();
        let text = format!(
            "vendor_id\t: {vendor}\nmodel name\t: test\nflags\t\t: sse2 pni ssse3 sse4_1 sse4_2 avx {}\n",
            flags.join(" ")
        );
        Host::from_cpuinfo(&text, withhold)
    }

    #[test]
    fn a_virtualized_emerald_rapids_named_rocket_lake_is_emerald_rapids() {
        let h = host("GenuineIntel", "emeraldrapids", "");
        let id = identify("rocketlake", &h);
        assert_eq!(id.cpu, "emeraldrapids");
        assert!(id.corrected());
        assert!(
            id.beyond_llvm.contains(&"amx_tile".to_string()) && id.beyond_llvm.contains(&"avx512_fp16".to_string())
        );
    }

    #[test]
    fn a_host_with_no_more_than_its_name_keeps_it() {
        assert_eq!(identify("znver4", &host("AuthenticAMD", "znver4", "")).cpu, "znver4");
        assert!(!identify("rocketlake", &host("GenuineIntel", "rocketlake", "")).corrected());
        // An unknown name stands whatever the host has.
        assert_eq!(identify("graniterapids", &host("GenuineIntel", "emeraldrapids", "")).cpu, "graniterapids");
    }

    #[test]
    fn withheld_extensions_never_move_the_host_to_a_richer_cpu() {
        // AVX-512, AVX-VNNI and GFNI withheld: AMX is still there, but no
        // Intel CPU priced has AMX without AVX-512, so LLVM's name stands.
        let h = host("GenuineIntel", "emeraldrapids", "avx512*,avx_vnni,gfni");
        let id = identify("rocketlake", &h);
        assert_eq!(id.cpu, "rocketlake");
        assert!(!id.beyond_llvm.is_empty());
    }

    #[test]
    fn the_vendor_decides_between_equal_extension_sets() {
        // A Zen 4 named as a Zen 3 (an older hypervisor) is a Zen 4, never an Intel CPU.
        assert_eq!(identify("znver3", &host("AuthenticAMD", "znver4", "")).cpu, "znver4");
    }

    /// Each known CPU's flags are what clang-22's `-march=<cpu>` enables
    /// among the tracked extensions.
    #[test]
    fn known_extensions_match_clang() {
        let macro_of = |flag: &str| match flag {
            "sha_ni" => "__SHA__".to_string(),
            f if f.starts_with("amx_") => format!("__{}__", f.to_uppercase()),
            f => format!("__{}__", f.replace('_', "").to_uppercase()),
        };
        for c in KNOWN {
            let out = std::process::Command::new("clang-22")
                .args([&format!("-march={}", c.name), "-E", "-dM", "-x", "c", "/dev/null"])
                .output()
                .expect("clang-22 runs");
            let defined = String::from_utf8_lossy(&out.stdout).to_string();
            for f in TRACKED {
                let on = defined.lines().any(|l| l.starts_with(&format!("#define {} ", macro_of(f))));
                assert_eq!(on, c.has(f), "{}: {f} ({}) enabled by clang: {on}", c.name, macro_of(f));
            }
        }
    }
}
