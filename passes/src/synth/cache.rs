//! The on-disk memo of synthesis results, keyed by the canonical window,
//! the target and the class database's version. One file per key, written
//! to a temporary name and renamed into place, so parallel `mlir-opt` runs
//! never see half a file; each file repeats its key and a checksum, and a
//! file that does not match is ignored (and replaced), never trusted.

use std::path::{Path, PathBuf};

/// FNV-1a of `text`: file names, checksums, the database version.
pub fn fnv(text: &str) -> u64 {
    dialectgen::fnv::fnv1a(text.as_bytes())
}

pub struct Cache {
    dir: Option<PathBuf>,
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

impl Cache {
    /// A cache in `dir` (`None`: no caching).
    pub fn new(dir: Option<&Path>) -> Cache {
        Cache { dir: dir.map(Path::to_path_buf) }
    }

    fn path(&self, key: &str) -> Option<PathBuf> {
        self.dir.as_ref().map(|d| d.join(format!("{:016x}.json", fnv(key))))
    }

    /// The stored result for `key`, if a sound entry exists.
    pub fn get(&self, key: &str) -> Option<String> {
        let text = std::fs::read_to_string(self.path(key)?).ok()?;
        let v: serde_json::Value = serde_json::from_str(&text).ok()?;
        let (k, result, check) = (v["key"].as_str()?, v["result"].as_str()?, v["check"].as_str()?);
        let sound = k == key && check == format!("{:016x}", fnv(&format!("{k}\n{result}")));
        sound.then(|| result.to_string())
    }

    /// Stores `result` for `key`; failures only cost a later recomputation.
    pub fn put(&self, key: &str, result: &str) {
        let (Some(dir), Some(path)) = (&self.dir, self.path(key)) else { return };
        if std::fs::create_dir_all(dir).is_err() {
            return;
        }
        let check = format!("{:016x}", fnv(&format!("{key}\n{result}")));
        let text = serde_json::json!({ "key": key, "result": result, "check": check }).to_string();
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
        let cache = Cache::new(Some(dir.path()));
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
}
