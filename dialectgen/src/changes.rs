//! What a regeneration changed, for a reviewer of an ISA update: which
//! instructions were added, removed or changed semantics, which classes
//! split or merged, which ops were added, removed or renamed. Read from two
//! `generated/` trees (the committed one and the new one), so a 2 MB diff
//! reads as a summary.

use crate::classify::engine::{member_semantics, SimilarityClass};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::Path;

/// What one `generated/` tree says about the instruction sets.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Snapshot {
    /// Per ISA, per instruction: a fingerprint of its semantics (its plain
    /// operation, masking and mask shape as the class database gives them).
    pub instructions: BTreeMap<String, BTreeMap<String, String>>,
    /// Per ISA, per class name: its members.
    pub classes: BTreeMap<String, BTreeMap<String, BTreeSet<String>>>,
    /// Every op of every dialect (`autollvm.add_sat_s`), with the instructions
    /// it stands for (an autollvm op: its class's members; a target op: itself).
    pub ops: BTreeMap<String, BTreeSet<String>>,
}

#[derive(Debug, thiserror::Error)]
pub enum ChangesError {
    #[error("cannot read {path}: {source}")]
    Read { path: String, source: std::io::Error },
    #[error("{path} does not load: {source}")]
    Json { path: String, source: serde_json::Error },
}

#[derive(serde::Deserialize)]
struct Database {
    classes: Vec<SimilarityClass>,
}

impl Snapshot {
    /// Adds one ISA's classes; `op_prefix` names the dialect whose ops stand
    /// for the classes (`autollvm`), if any.
    pub fn add_classes(&mut self, isa: &str, classes: &[SimilarityClass], op_prefix: Option<&str>) {
        let instructions = self.instructions.entry(isa.to_string()).or_default();
        let by_class = self.classes.entry(isa.to_string()).or_default();
        for class in classes {
            let members: BTreeSet<String> = class.members.iter().map(|m| m.intrinsic.clone()).collect();
            for m in &class.members {
                let plain = serde_json::to_string(&member_semantics(class, m)).unwrap_or_default();
                let mask = serde_json::to_string(&(&m.masking, &m.mask)).unwrap_or_default();
                instructions
                    .insert(m.intrinsic.clone(), format!("{:016x}", crate::fnv::fnv1a((plain + &mask).as_bytes())));
            }
            if let Some(prefix) = op_prefix {
                self.ops.insert(format!("{prefix}.{}", class.name), members.clone());
            }
            by_class.insert(class.name.clone(), members);
        }
    }

    /// Adds the ops of dialect `prefix`, one per class, each standing for
    /// the class's members.
    pub fn add_class_ops(&mut self, prefix: &str, classes: &[SimilarityClass]) {
        for class in classes {
            let members = class.members.iter().map(|m| m.intrinsic.clone()).collect();
            self.ops.insert(format!("{prefix}.{}", class.name), members);
        }
    }

    /// Adds target ops, each standing for its own instruction.
    pub fn add_ops(&mut self, ops: impl IntoIterator<Item = String>) {
        for op in ops {
            self.ops.entry(op.clone()).or_insert_with(|| BTreeSet::from([op]));
        }
    }

    /// Reads a `generated/` tree: each ISA's `class-database.json`, and the
    /// combined classes of `class-database.json` (autollvm's ops) and the
    /// target ops of `op-variants.json`.
    pub fn read(generated: &Path) -> Result<Snapshot, ChangesError> {
        let load = |path: &Path| -> Result<serde_json::Value, ChangesError> {
            let text = std::fs::read_to_string(path)
                .map_err(|source| ChangesError::Read { path: path.display().to_string(), source })?;
            serde_json::from_str(&text)
                .map_err(|source| ChangesError::Json { path: path.display().to_string(), source })
        };
        let mut snapshot = Snapshot::default();
        let mut isas: Vec<_> = std::fs::read_dir(generated)
            .map_err(|source| ChangesError::Read { path: generated.display().to_string(), source })?
            .filter_map(|e| e.ok())
            .filter(|e| e.path().join("class-database.json").is_file())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        isas.sort();
        for isa in &isas {
            let path = generated.join(isa).join("class-database.json");
            let db: Database = serde_json::from_value(load(&path)?)
                .map_err(|source| ChangesError::Json { path: path.display().to_string(), source })?;
            snapshot.add_classes(isa, &db.classes, None);
        }
        // autollvm's ops stand for the classes of every ISA's instructions together.
        let combined = generated.join("class-database.json");
        if combined.is_file() {
            let db: Database = serde_json::from_value(load(&combined)?)
                .map_err(|source| ChangesError::Json { path: combined.display().to_string(), source })?;
            snapshot.add_class_ops("autollvm", &db.classes);
        }
        let variants = load(&generated.join("op-variants.json"))?;
        let ops = variants.as_object().into_iter().flat_map(|m| m.keys());
        snapshot.add_ops(ops.filter(|k| !k.starts_with('_') && !k.starts_with("autollvm.")).cloned());
        Ok(snapshot)
    }
}

/// The changes from one snapshot to the next.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Changes {
    /// Per ISA: instructions added, removed, with changed semantics.
    pub added: BTreeMap<String, Vec<String>>,
    pub removed: BTreeMap<String, Vec<String>>,
    pub changed: BTreeMap<String, Vec<String>>,
    /// `isa/class` split into the new classes holding its members.
    pub split: Vec<(String, Vec<String>)>,
    /// `isa/class` holding members of several old classes, and those classes.
    pub merged: Vec<(String, Vec<String>)>,
    pub ops_added: Vec<String>,
    pub ops_removed: Vec<String>,
    /// Ops under a new name standing for the same instructions.
    pub ops_renamed: Vec<(String, String)>,
}

impl Changes {
    pub fn between(old: &Snapshot, new: &Snapshot) -> Changes {
        let mut c = Changes::default();
        let isas: BTreeSet<&String> = old.instructions.keys().chain(new.instructions.keys()).collect();
        let empty = BTreeMap::new();
        for isa in isas {
            let (o, n) = (old.instructions.get(isa).unwrap_or(&empty), new.instructions.get(isa).unwrap_or(&empty));
            let list = |xs: Vec<&String>| xs.into_iter().cloned().collect::<Vec<_>>();
            let added = list(n.keys().filter(|k| !o.contains_key(*k)).collect());
            let removed = list(o.keys().filter(|k| !n.contains_key(*k)).collect());
            let changed =
                list(n.iter().filter(|(k, v)| o.get(*k).is_some_and(|ov| ov != *v)).map(|(k, _)| k).collect());
            for (map, xs) in [(&mut c.added, added), (&mut c.removed, removed), (&mut c.changed, changed)] {
                if !xs.is_empty() {
                    map.insert(isa.clone(), xs);
                }
            }
        }
        // Splits and merges, by where each instruction's class went.
        let home = |s: &Snapshot| -> BTreeMap<(String, String), String> {
            s.classes
                .iter()
                .flat_map(|(isa, cs)| {
                    cs.iter().flat_map(move |(name, ms)| {
                        ms.iter().map(move |m| ((isa.clone(), m.clone()), format!("{isa}/{name}")))
                    })
                })
                .collect()
        };
        let (old_home, new_home) = (home(old), home(new));
        let mut went: BTreeMap<&String, BTreeSet<&String>> = BTreeMap::new();
        let mut came: BTreeMap<&String, BTreeSet<&String>> = BTreeMap::new();
        for (member, old_class) in &old_home {
            if let Some(new_class) = new_home.get(member) {
                went.entry(old_class).or_default().insert(new_class);
                came.entry(new_class).or_default().insert(old_class);
            }
        }
        c.split = went
            .into_iter()
            .filter(|(_, to)| to.len() > 1)
            .map(|(from, to)| (from.clone(), to.into_iter().cloned().collect()))
            .collect();
        c.merged = came
            .into_iter()
            .filter(|(_, from)| from.len() > 1)
            .map(|(to, from)| (to.clone(), from.into_iter().cloned().collect()))
            .collect();
        // Ops: a removed op and an added op standing for the same instructions are a rename.
        let mut added: Vec<&String> = new.ops.keys().filter(|k| !old.ops.contains_key(*k)).collect();
        for gone in old.ops.keys().filter(|k| !new.ops.contains_key(*k)) {
            match added.iter().position(|a| new.ops[*a] == old.ops[gone]) {
                Some(i) => c.ops_renamed.push((gone.clone(), added.remove(i).clone())),
                None => c.ops_removed.push(gone.clone()),
            }
        }
        c.ops_added = added.into_iter().cloned().collect();
        c
    }

    pub fn is_empty(&self) -> bool {
        *self == Changes::default()
    }
}

fn names(f: &mut fmt::Formatter<'_>, label: &str, xs: &[String]) -> fmt::Result {
    if !xs.is_empty() {
        writeln!(f, "    {label} ({}): {}", xs.len(), xs.join(", "))?;
    }
    Ok(())
}

impl fmt::Display for Changes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return writeln!(f, "no change to instructions, classes or ops");
        }
        let isas: BTreeSet<&String> = self.added.keys().chain(self.removed.keys()).chain(self.changed.keys()).collect();
        for isa in isas {
            let get = |m: &BTreeMap<String, Vec<String>>| m.get(isa).cloned().unwrap_or_default();
            writeln!(f, "{isa}: instructions")?;
            names(f, "added", &get(&self.added))?;
            names(f, "removed", &get(&self.removed))?;
            names(f, "semantics changed", &get(&self.changed))?;
        }
        for (from, to) in &self.split {
            writeln!(f, "class {from} split into {}", to.join(", "))?;
        }
        for (to, from) in &self.merged {
            writeln!(f, "class {to} merges {}", from.join(", "))?;
        }
        if !(self.ops_added.is_empty() && self.ops_removed.is_empty() && self.ops_renamed.is_empty()) {
            writeln!(f, "ops")?;
            names(f, "added", &self.ops_added)?;
            names(f, "removed", &self.ops_removed)?;
            let renamed: Vec<String> = self.ops_renamed.iter().map(|(a, b)| format!("{a} -> {b}")).collect();
            names(f, "renamed", &renamed)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_op_standing_for_the_same_instructions_under_a_new_name_is_a_rename() {
        let set = |xs: &[&str]| xs.iter().map(|x| x.to_string()).collect::<BTreeSet<String>>();
        let mut old = Snapshot::default();
        old.ops.insert("autollvm.add_epi_2".into(), set(&["_mm_add_epi16", "_mm_add_epi32"]));
        old.ops.insert("autollvm.gone".into(), set(&["_mm_x"]));
        let mut new = Snapshot::default();
        new.ops.insert("autollvm.add".into(), set(&["_mm_add_epi16", "_mm_add_epi32"]));
        new.ops.insert("autollvm.fresh".into(), set(&["_mm_y"]));
        let c = Changes::between(&old, &new);
        assert_eq!(c.ops_renamed, [("autollvm.add_epi_2".to_string(), "autollvm.add".to_string())]);
        assert_eq!(c.ops_removed, ["autollvm.gone"]);
        assert_eq!(c.ops_added, ["autollvm.fresh"]);
        assert!(c.to_string().contains("renamed (1): autollvm.add_epi_2 -> autollvm.add"), "{c}");
    }
}
