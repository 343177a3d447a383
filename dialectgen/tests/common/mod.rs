//! What the integration tests share.

/// Skips with a message where the prerequisite is optional; in CI (`CI`
/// set) a missing prerequisite fails instead, so a skip never ends CI green.
pub fn skip(why: &str) {
    assert!(std::env::var_os("CI").is_none(), "required in CI: {why}");
    eprintln!("SKIPPED: {why}");
}
