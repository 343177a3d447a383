//! The on-disk memo of synthesis results, keyed by the canonical window,
//! the target and the class database's version. One file per key, written
//! to a temporary name and renamed into place, so parallel `mlir-opt` runs
//! never see half a file.
//!
//! Each file repeats its key and carries an HMAC-SHA256 of key and result
//! under a secret of 32 random bytes kept outside the cache directory
//! ([`memo_key`]). A file whose tag does not verify (truncated, corrupt,
//! of another version, edited or planted by anyone without the secret) is
//! ignored and replaced, never trusted. Only hydride writes tags, and only
//! for results it has proved or searched; so a cache directory others can
//! write (a shared `HYDRIDE_CACHE_DIR`) cannot make it apply a program it
//! did not prove. Memo hits are also checked against their window on
//! sample inputs before use (`crate::synth::lower`).

use hmac::{Hmac, Mac};
use sha2::Sha256;
use std::path::{Path, PathBuf};

/// FNV-1a of `text`: file names, the database version.
pub fn fnv(text: &str) -> u64 {
    dialectgen::fnv::fnv1a(text.as_bytes())
}

/// The memo's secret.
pub type MemoKey = [u8; 32];

pub struct Cache {
    dir: Option<PathBuf>,
    key: Option<MemoKey>,
}

/// The default directory: `$HYDRIDE_CACHE_DIR`, else `$XDG_CACHE_HOME/hydride`,
/// else `~/.cache/hydride`.
pub fn default_dir() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("HYDRIDE_CACHE_DIR").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(d));
    }
    if let Some(d) = std::env::var_os("XDG_CACHE_HOME").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(d).join("hydride"));
    }
    std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache").join("hydride"))
}

/// Where the memo's secret lives: `$HYDRIDE_MEMO_KEY`, else
/// `$XDG_CONFIG_HOME/hydride/memo-key`, else `~/.config/hydride/memo-key`.
pub fn default_key_path() -> Option<PathBuf> {
    if let Some(f) = std::env::var_os("HYDRIDE_MEMO_KEY").filter(|f| !f.is_empty()) {
        return Some(PathBuf::from(f));
    }
    if let Some(d) = std::env::var_os("XDG_CONFIG_HOME").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(d).join("hydride").join("memo-key"));
    }
    std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config").join("hydride").join("memo-key"))
}

/// The memo's secret at `path`, made on first use: 32 bytes from
/// `/dev/urandom` in a file only its owner may read (created under a
/// temporary name and linked into place, so concurrent first uses agree
/// on one secret). `None` where it cannot be read or made, or where others
/// may read or write it: then nothing is memoized.
pub fn memo_key(path: &Path) -> Option<MemoKey> {
    use std::io::Read;
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    if !path.exists() {
        let dir = path.parent()?;
        std::fs::create_dir_all(dir).ok()?;
        let mut secret = [0u8; 32];
        std::fs::File::open("/dev/urandom").ok()?.read_exact(&mut secret).ok()?;
        let tmp = dir.join(format!(".memo-key.{}.tmp", std::process::id()));
        let written = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&tmp)
            .and_then(|mut f| std::io::Write::write_all(&mut f, &secret));
        // A link fails where another process made the key first: theirs holds.
        let _ = written.and_then(|()| std::fs::hard_link(&tmp, path));
        let _ = std::fs::remove_file(&tmp);
    }
    let meta = std::fs::metadata(path).ok()?;
    if meta.permissions().mode() & 0o077 != 0 {
        return None;
    }
    let bytes = std::fs::read(path).ok()?;
    bytes.try_into().ok()
}

fn tag(secret: &MemoKey, key: &str, result: &str) -> Hmac<Sha256> {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret).expect("HMAC takes a key of any length");
    mac.update(key.as_bytes());
    mac.update(b"\n");
    mac.update(result.as_bytes());
    mac
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    if text.len() % 2 != 0 {
        return None;
    }
    (0..text.len()).step_by(2).map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok()).collect()
}

impl Cache {
    /// A cache in `dir` whose entries are tagged with `key` (`None` for
    /// either: no caching).
    pub fn new(dir: Option<&Path>, key: Option<MemoKey>) -> Cache {
        Cache { dir: dir.map(Path::to_path_buf), key }
    }

    fn path(&self, key: &str) -> Option<PathBuf> {
        self.dir.as_ref().map(|d| d.join(format!("{:016x}.json", fnv(key))))
    }

    /// The stored result for `key`, if an entry with a valid tag exists.
    pub fn get(&self, key: &str) -> Option<String> {
        let secret = self.key.as_ref()?;
        let text = std::fs::read_to_string(self.path(key)?).ok()?;
        let v: serde_json::Value = serde_json::from_str(&text).ok()?;
        let (k, result, mac) = (v["key"].as_str()?, v["result"].as_str()?, v["mac"].as_str()?);
        let verified = k == key && tag(secret, k, result).verify_slice(&unhex(mac)?).is_ok();
        verified.then(|| result.to_string())
    }

    /// Stores `result` for `key`; failures only cost a later recomputation.
    pub fn put(&self, key: &str, result: &str) {
        let (Some(dir), Some(path), Some(secret)) = (&self.dir, self.path(key), &self.key) else { return };
        if std::fs::create_dir_all(dir).is_err() {
            return;
        }
        let mac = hex(&tag(secret, key, result).finalize().into_bytes());
        let text = serde_json::json!({ "key": key, "result": result, "mac": mac }).to_string();
        static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let tmp = dir.join(format!(
            ".{}.{}.{n}.tmp",
            path.file_name().and_then(|f| f.to_str()).unwrap_or("entry"),
            std::process::id()
        ));
        if std::fs::write(&tmp, text).is_ok() && std::fs::rename(&tmp, &path).is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_and_corruption_is_ignored() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::new(Some(dir.path()), Some([7; 32]));
        assert_eq!(cache.get("k"), None);
        cache.put("k", "result");
        assert_eq!(cache.get("k").as_deref(), Some("result"));
        // Damage the file: the entry is no longer trusted.
        let path = cache.path("k").unwrap();
        let text = std::fs::read_to_string(&path).unwrap().replace("result", "tampered");
        std::fs::write(&path, text).unwrap();
        assert_eq!(cache.get("k"), None);
        std::fs::write(&path, "{not json").unwrap();
        assert_eq!(cache.get("k"), None);
    }

    /// An entry planted by someone without the secret (here: written with
    /// another one, as anyone can) is ignored; so is every entry when there
    /// is no secret.
    #[test]
    fn a_planted_entry_is_ignored() {
        let dir = tempfile::tempdir().unwrap();
        let ours = Cache::new(Some(dir.path()), Some([1; 32]));
        let planter = Cache::new(Some(dir.path()), Some([2; 32]));
        planter.put("k", "found i _mm512_subs_epu16 L0,L1");
        assert_eq!(ours.get("k"), None);
        ours.put("k", "found i _mm512_avg_epu16 L0,L1");
        assert_eq!(ours.get("k").as_deref(), Some("found i _mm512_avg_epu16 L0,L1"));
        assert_eq!(Cache::new(Some(dir.path()), None).get("k"), None);
    }

    /// The secret is made once, owner-only, and read back the same; a
    /// secret others may read is refused.
    #[test]
    fn the_secret_is_made_once_and_kept_private() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config").join("memo-key");
        let first = memo_key(&path).expect("a secret is made");
        assert_eq!(memo_key(&path), Some(first));
        assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        assert_eq!(memo_key(&path), None);
    }
}
