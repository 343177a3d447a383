//! The AArch64 extensions an LLVM intrinsic needs, which the lowering
//! table records per op (the passes' targets allow ops by them).

/// The AArch64 extensions an `llvm.aarch64.neon.*` intrinsic needs beyond
/// Advanced SIMD, from its name: the instructions LLVM guards by them.
pub fn features(llvm_intrinsic: &str) -> Vec<String> {
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
    use super::features;

    #[test]
    fn arm_extensions_by_intrinsic_name() {
        let needs = |name: &str| features(name).last().cloned().unwrap_or_default();
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
}
