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
    /// Why the memo is not being kept (the first failure), if it is not.
    problem: std::sync::OnceLock<String>,
    /// Whether leftovers of killed writers have been looked for.
    swept: std::sync::Once,
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
        Cache {
            dir: dir.map(Path::to_path_buf),
            key,
            problem: std::sync::OnceLock::new(),
            swept: std::sync::Once::new(),
        }
    }

    /// The directory entries are kept in, if any.
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// Why results are not being memoized, once a write has failed (the
    /// directory is a file, read-only or on a full disk) or when there is
    /// a directory but no secret to tag entries with.
    pub fn problem(&self) -> Option<&str> {
        if self.dir.is_some() && self.key.is_none() {
            return Some("no memo secret could be read or made (see HYDRIDE_MEMO_KEY)");
        }
        self.problem.get().map(String::as_str)
    }

    fn failed(&self, what: &str, path: &Path, e: &std::io::Error) {
        let _ = self.problem.set(format!("{what} {}: {e}", path.display()));
    }

    /// Removes the temporary files of writers that no longer run (killed
    /// mid-write): their names carry the writer's process id. Once per
    /// cache; a temporary file is never read as an entry either way.
    fn sweep(&self, dir: &Path) {
        self.swept.call_once(|| {
            let Ok(entries) = std::fs::read_dir(dir) else { return };
            for entry in entries.flatten() {
                let name = entry.file_name();
                let Some(name) = name.to_str() else { continue };
                let Some(rest) = name.strip_prefix('.').and_then(|n| n.strip_suffix(".tmp")) else { continue };
                // `.{entry}.{pid}.{n}.tmp`
                let mut parts = rest.rsplitn(3, '.');
                let (_, pid) = (parts.next(), parts.next().and_then(|p| p.parse::<u32>().ok()));
                if let Some(pid) = pid {
                    if pid != std::process::id() && !Path::new(&format!("/proc/{pid}")).exists() {
                        let _ = std::fs::remove_file(entry.path());
                    }
                }
            }
        });
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
        if let Err(e) = std::fs::create_dir_all(dir) {
            return self.failed("cannot make the directory", dir, &e);
        }
        self.sweep(dir);
        let mac = hex(&tag(secret, key, result).finalize().into_bytes());
        let text = serde_json::json!({ "key": key, "result": result, "mac": mac }).to_string();
        static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let tmp = dir.join(format!(
            ".{}.{}.{n}.tmp",
            path.file_name().and_then(|f| f.to_str()).unwrap_or("entry"),
            std::process::id()
        ));
        let written = std::fs::write(&tmp, text).map_err(|e| ("cannot write", e));
        if let Err((what, e)) =
            written.and_then(|()| std::fs::rename(&tmp, &path).map_err(|e| ("cannot rename into", e)))
        {
            // Nothing half-written is left behind (a full disk, say).
            let _ = std::fs::remove_file(&tmp);
            self.failed(what, dir, &e);
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

    /// A file where the directory should be: nothing is stored, nothing
    /// is read, and the problem is told; the same for no secret.
    #[test]
    fn an_unusable_directory_is_a_problem_not_a_failure() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("cache");
        std::fs::write(&file, "not a directory").unwrap();
        let cache = Cache::new(Some(&file), Some([3; 32]));
        assert_eq!(cache.problem(), None);
        cache.put("k", "result");
        assert_eq!(cache.get("k"), None);
        assert!(cache.problem().unwrap().starts_with("cannot make the directory"), "{:?}", cache.problem());
        assert!(Cache::new(Some(dir.path()), None).problem().unwrap().contains("no memo secret"));
        assert_eq!(Cache::new(None, None).problem(), None);
    }

    /// A killed writer's temporary file is removed by the next writer;
    /// a live writer's (this process's) is not.
    #[test]
    fn leftovers_of_killed_writers_are_swept() {
        let dir = tempfile::tempdir().unwrap();
        // Process ids above the kernel's limit (2^22) are never alive.
        let dead = dir.path().join(".0123456789abcdef.json.4999999.0.tmp");
        let alive = dir.path().join(format!(".0123456789abcdef.json.{}.7.tmp", std::process::id()));
        std::fs::write(&dead, "{\"key\": \"k\", \"res").unwrap();
        std::fs::write(&alive, "").unwrap();
        let cache = Cache::new(Some(dir.path()), Some([4; 32]));
        cache.put("k", "result");
        assert!(!dead.exists());
        assert!(alive.exists());
        assert_eq!(cache.get("k").as_deref(), Some("result"));
        assert_eq!(cache.problem(), None);
    }
}
