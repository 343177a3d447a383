//! The fingerprint of the vendor data a regeneration read, written into
//! every generated file's header: a reviewer sees which data produced it.

use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// SHA-256 over every file under `root/<isa>` for the given ISAs: each
/// file's path relative to `root` (with `/`), its length and its bytes, in
/// sorted path order. Independent of where `root` is and of the order the
/// file system lists entries in. The first 16 hex digits.
pub fn vendor_data_hash(root: &Path, isas: &[&str]) -> std::io::Result<String> {
    let mut files: Vec<PathBuf> = Vec::new();
    for isa in isas {
        collect(&root.join(isa), &mut files)?;
    }
    let mut named: Vec<(String, PathBuf)> = files
        .into_iter()
        .map(|f| {
            let rel = f.strip_prefix(root).unwrap_or(&f);
            let name: Vec<String> = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
            (name.join("/"), f)
        })
        .collect();
    named.sort();
    let mut hash = Sha256::new();
    for (name, path) in named {
        let bytes = std::fs::read(&path)?;
        hash.update(name.as_bytes());
        hash.update([0]);
        hash.update((bytes.len() as u64).to_le_bytes());
        hash.update(&bytes);
    }
    Ok(hash.finalize().iter().take(8).map(|b| format!("{b:02x}")).collect())
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    if !dir.is_dir() {
        return Ok(());
    }
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect(&path, out)?;
        } else {
            out.push(path);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in files {
            let path = dir.path().join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        dir
    }

    #[test]
    fn the_hash_depends_on_content_and_names_only() {
        let a = tree(&[("isa_a/guide.xml", "<a/>"), ("isa_b/asl/one.asl", "x"), ("isa_b/intr.json", "{}")]);
        let b = tree(&[("isa_b/intr.json", "{}"), ("isa_a/guide.xml", "<a/>"), ("isa_b/asl/one.asl", "x")]);
        let hash = |d: &tempfile::TempDir| vendor_data_hash(d.path(), &["isa_a", "isa_b"]).unwrap();
        assert_eq!(hash(&a), hash(&b));
        assert_eq!(hash(&a).len(), 16);
        let changed = tree(&[("isa_a/guide.xml", "<b/>"), ("isa_b/asl/one.asl", "x"), ("isa_b/intr.json", "{}")]);
        assert_ne!(hash(&a), hash(&changed));
        let renamed = tree(&[("isa_a/guide2.xml", "<a/>"), ("isa_b/asl/one.asl", "x"), ("isa_b/intr.json", "{}")]);
        assert_ne!(hash(&a), hash(&renamed));
        // Only the ISAs asked for count.
        let other = tree(&[
            ("isa_a/guide.xml", "<a/>"),
            ("isa_b/asl/one.asl", "x"),
            ("isa_b/intr.json", "{}"),
            ("isa_c/a", "1"),
        ]);
        assert_eq!(hash(&a), hash(&other));
    }
}
