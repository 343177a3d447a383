//! FNV-1a, 64 bits: a fast fingerprint for file names, cache keys, seeds and
//! change summaries. Not a defence against anyone who can write the input.

/// FNV-1a of `bytes`.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3))
}
