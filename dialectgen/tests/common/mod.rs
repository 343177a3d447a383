//! What the integration tests share.

pub mod hvx;

/// Skips with a message where the prerequisite is optional; in CI (`CI`
/// set) a missing prerequisite fails instead, so a skip never ends CI green.
#[allow(dead_code)] // Not every test that shares `common` has an optional prerequisite.
pub fn skip(why: &str) {
    assert!(std::env::var_os("CI").is_none(), "required in CI: {why}");
    eprintln!("SKIPPED: {why}");
}
