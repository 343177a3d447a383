//! The targets `lower-to-autollvm` knows: which ISA's instructions it may
//! use, and which of them. The named targets compile anywhere
//! (cross-compiling needs no hardware); `native` is what this host executes.

use dialectgen::isa::x86::host::{x86_target_allows, Host};

/// An instruction set with a dialect: the `isa/` prefix of class members
/// and the `hydride_<isa>` dialect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Isa {
    X86,
    Arm,
    Hvx,
}

impl Isa {
    pub const ALL: [Isa; 3] = [Isa::X86, Isa::Arm, Isa::Hvx];

    /// `x86`, `arm`, `hvx`.
    pub fn name(self) -> &'static str {
        match self {
            Isa::X86 => "x86",
            Isa::Arm => "arm",
            Isa::Hvx => "hvx",
        }
    }

    /// `hydride_x86`, `hydride_arm`, `hydride_hvx`.
    pub fn dialect(self) -> String {
        dialectgen::classify::cross_isa::dialect_of(self.name())
    }

    pub fn parse(name: &str) -> Option<Isa> {
        Isa::ALL.into_iter().find(|i| i.name() == name)
    }

    /// How its vendor names its vector instructions, for `--help`.
    pub fn title(self) -> &'static str {
        match self {
            Isa::X86 => "x86",
            Isa::Arm => "Arm NEON",
            Isa::Hvx => "Hexagon HVX",
        }
    }

    /// What the rewrites around synthesis need to know of the ISA.
    pub fn tuning(self) -> Tuning {
        match self {
            Isa::X86 => Tuning {
                column_extrema_from_taps: 1,
                deinterleave_free_with_load: false,
                widening_crosses_lanes: true,
                pair_sums_as_dot: true,
                even_odd_identities: true,
            },
            Isa::Arm => Tuning {
                column_extrema_from_taps: 1,
                deinterleave_free_with_load: true,
                widening_crosses_lanes: false,
                pair_sums_as_dot: false,
                even_odd_identities: false,
            },
            Isa::Hvx => Tuning {
                column_extrema_from_taps: 5,
                deinterleave_free_with_load: false,
                widening_crosses_lanes: false,
                pair_sums_as_dot: false,
                even_odd_identities: false,
            },
        }
    }

    /// The target its `hydride-<isa>-to-llvm` pipeline lowers for unless told.
    pub fn default_target(self) -> &'static str {
        match self {
            Isa::X86 => "native",
            Isa::Arm => "aarch64-neon-dotprod-i8mm",
            Isa::Hvx => "hexagon-hvx128",
        }
    }
}

/// What the rewrites around synthesis need to know of an ISA, so that none
/// of them names one. Each figure was measured with `scripts/bench` against
/// LLVM's own path, as its field says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tuning {
    /// The narrowest stencil window (in taps) whose extremum
    /// `hydride-column-extrema` takes column by column: where the saved
    /// loads pay for the shuffles. x86 with AVX-512 VBMI (one `vpermt2b` per
    /// inner column) 1.5-3.8x faster on dilate 3x3 to 7x7, AVX2 1.4-3.4x,
    /// NEON 1.2-4.7x fewer cycles: at any width. HVX (one `valign` per inner
    /// column) 0.91x at 3x3 in packets, 1.05x at 5x5, 1.35x at 7x7: from 5.
    pub column_extrema_from_taps: u32,
    /// Whether a deinterleaved row comes free with its load (NEON's `ld2`),
    /// so `hydride-deinterleaved-extrema` leaves one deinterleave per row
    /// (max_pool's hot loop at NEON: 52 instructions, 54 the other way; at
    /// x86-avx2 51 -> 31, x86-avx512 73 -> 48, HVX 154 -> 146).
    pub deinterleave_free_with_load: bool,
    /// Whether extending and truncating vectors crosses 128-bit lanes on the
    /// shuffle pipes (x86's `vpmovzxbw`/`vpmovwb`), which
    /// `hydride-in-place-widening` avoids.
    pub widening_crosses_lanes: bool,
    /// Whether `hydride-sum-as-dot` also writes pair sums of bytes spelt by
    /// lanes (even plus odd elements) as dot products with ones (x86's
    /// `vpmaddubsw`).
    pub pair_sums_as_dot: bool,
    /// Whether the offline rules hold the even/odd identities that
    /// `hydride-even-odd` applies where no instruction computes a 4-way dot
    /// product.
    pub even_odd_identities: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// Zen 4's extensions (see [`x86_target_allows`]).
    X86Avx512,
    /// SSE2 … AVX2 only.
    X86Avx2,
    /// The x86 instructions whose extensions this host has (less any
    /// withheld with `HYDRIDE_WITHHOLD_FEATURES`): no VNNI instruction on a
    /// host without VNNI.
    Native,
    /// AArch64 Advanced SIMD of Armv8.0-A: 128-bit vectors.
    Aarch64Neon,
    /// Armv8.6-A Advanced SIMD with the dot product and int8 matrix
    /// multiply extensions (`sdot`, `usdot`, `smmla`, …; rdm is in v8.1).
    Aarch64NeonDotprodI8mm,
    /// Hexagon V66 HVX in 128-byte mode: 1024-bit vectors.
    HexagonHvx128,
}

/// The `target` option's `--help`: every target name `parse` accepts.
pub const TARGET_HELP: &str = "Target instruction set: native (the x86 this host executes, less \
     HYDRIDE_WITHHOLD_FEATURES), x86-avx512 (all modelled x86), x86-avx2 (SSE2 to AVX2), aarch64-neon (Armv8.0 Advanced \
     SIMD), aarch64-neon-dotprod-i8mm (Armv8.6 with dot product and i8mm) or hexagon-hvx128 (HVX v66, 128-byte vectors)";

/// Every target name `parse` accepts.
pub const TARGET_NAMES: &str = "native, x86-avx512, x86-avx2, aarch64-neon, aarch64-neon-dotprod-i8mm, hexagon-hvx128";

impl Target {
    /// How many targets there are.
    pub const COUNT: usize = 6;

    /// A number per target, `0..COUNT`.
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn parse(text: &str) -> Result<Target, String> {
        match text {
            "x86-avx512" => Ok(Target::X86Avx512),
            "x86-avx2" => Ok(Target::X86Avx2),
            "native" => Ok(Target::Native),
            "aarch64-neon" => Ok(Target::Aarch64Neon),
            "aarch64-neon-dotprod-i8mm" => Ok(Target::Aarch64NeonDotprodI8mm),
            "hexagon-hvx128" => Ok(Target::HexagonHvx128),
            other => Err(format!("unknown target '{other}' (known: {TARGET_NAMES})")),
        }
    }

    /// The ISA whose instructions the target uses.
    pub fn isa(self) -> Isa {
        match self {
            Target::X86Avx512 | Target::X86Avx2 | Target::Native => Isa::X86,
            Target::Aarch64Neon | Target::Aarch64NeonDotprodI8mm => Isa::Arm,
            Target::HexagonHvx128 => Isa::Hvx,
        }
    }

    /// What the target is: `native` with what it means on this host
    /// (`native=x86-avx2`), else the named target. Part of every cache key.
    pub fn name(self) -> String {
        match self {
            Target::X86Avx512 => "x86-avx512".into(),
            Target::X86Avx2 => "x86-avx2".into(),
            Target::Native => format!("native={}", Host::get().x86_target()),
            Target::Aarch64Neon => "aarch64-neon".into(),
            Target::Aarch64NeonDotprodI8mm => "aarch64-neon-dotprod-i8mm".into(),
            Target::HexagonHvx128 => "hexagon-hvx128".into(),
        }
    }

    /// The width of the target's vector registers, in bits: what a
    /// contraction is split to fit before synthesis.
    pub fn register_bits(self) -> u32 {
        match self {
            Target::X86Avx512 => 512,
            Target::X86Avx2 => 256,
            Target::Native if Host::get().x86_target().starts_with("x86-avx512") => 512,
            Target::Native => 256,
            Target::Aarch64Neon | Target::Aarch64NeonDotprodI8mm => 128,
            Target::HexagonHvx128 => 1024,
        }
    }

    /// How many vector registers the target has: 16 `ymm` without
    /// AVX-512, 32 `zmm` with it, 32 on NEON and HVX.
    pub fn vector_registers(self) -> u32 {
        match self {
            Target::X86Avx2 => 16,
            Target::Native if self.register_bits() == 256 => 16,
            _ => 32,
        }
    }

    /// Whether an instruction of the target's ISA needing these features
    /// (x86: guide CPUIDs; ARM: [`arm_features`]; HVX: `hvx`) runs on it.
    pub fn allows(self, features: &[String]) -> bool {
        let all = |f: &dyn Fn(&str) -> bool| !features.is_empty() && features.iter().all(|c| f(c));
        match self {
            Target::X86Avx512 => features.iter().all(|c| x86_target_allows("x86-avx512", c)),
            Target::X86Avx2 => all(&|c| x86_target_allows("x86-avx2", c)),
            Target::Native => !features.is_empty() && Host::get().executes(features),
            Target::Aarch64Neon => all(&|c| c == "neon"),
            Target::Aarch64NeonDotprodI8mm => all(&|c| matches!(c, "neon" | "rdm" | "dotprod" | "i8mm")),
            Target::HexagonHvx128 => all(&|c| c == "hvx"),
        }
    }
}

/// The AArch64 extensions an `llvm.aarch64.neon.*` intrinsic needs beyond
/// Advanced SIMD, from its name: the instructions LLVM guards by them.
pub fn arm_features(llvm_intrinsic: &str) -> Vec<String> {
    let op = llvm_intrinsic.strip_prefix("llvm.aarch64.").unwrap_or(llvm_intrinsic);
    let op = op.strip_prefix("neon.").or_else(|| op.strip_prefix("crypto.")).unwrap_or(op);
    let base = op.split('.').next().unwrap_or(op);
    let extension = match base {
        "sdot" | "udot" => Some("dotprod"),
        "usdot" | "sudot" | "smmla" | "ummla" | "usmmla" => Some("i8mm"),
        "sqrdmlah" | "sqrdmlsh" => Some("rdm"),
        "eor3u" | "eor3s" | "rax1" | "xar" | "bcaxu" | "bcaxs" => Some("sha3"),
        // `sha1c`, `sha256h`, `sha512su0`, … (not `shadd`, the signed halving add).
        _ if ["sha1", "sha256", "sha512", "aes", "sm3", "sm4"].iter().any(|p| base.starts_with(p)) => Some("crypto"),
        _ => None,
    };
    let mut features = vec!["neon".to_string()];
    features.extend(extension.map(str::to_string));
    features
}

#[cfg(test)]
mod tests {
    use super::{arm_features, Target, TARGET_NAMES};

    #[test]
    fn arm_extensions_by_intrinsic_name() {
        let needs = |name: &str| arm_features(name).last().cloned().unwrap_or_default();
        // The signed halving add is plain NEON, though its name starts like SHA's.
        assert_eq!(needs("llvm.aarch64.neon.shadd.v8i16"), "neon");
        assert_eq!(needs("llvm.aarch64.neon.sqadd.v8i16"), "neon");
        assert_eq!(needs("llvm.aarch64.crypto.sha256h"), "crypto");
        assert_eq!(needs("llvm.aarch64.crypto.aese"), "crypto");
        assert_eq!(needs("llvm.aarch64.crypto.eor3u.v16i8"), "sha3");
        assert_eq!(needs("llvm.aarch64.crypto.xar"), "sha3");
        assert_eq!(needs("llvm.aarch64.neon.usdot.v4i32.v16i8"), "i8mm");
        assert_eq!(needs("llvm.aarch64.neon.sqrdmlah.v8i16"), "rdm");
    }

    /// `Target::COUNT` covers every target: a candidate keeps one answer per index.
    #[test]
    fn every_target_has_its_own_index_below_count() {
        let mut seen: Vec<usize> = TARGET_NAMES.split(", ").map(|n| Target::parse(n).unwrap().index()).collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen, (0..Target::COUNT).collect::<Vec<_>>());
    }
}
