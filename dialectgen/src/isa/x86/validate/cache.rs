//! A persistent cache of validation verdicts, one small file per
//! intrinsic, keyed by everything the verdict depends on: the semantics,
//! the C signature, the test-vector settings, the compiler, the CPU, and the
//! source of the interpreter and the validator themselves.
//!
//! A file that does not parse is ignored and rewritten, never trusted.

use super::config::ValidationConfig;
use super::evidence::Evidence;
use super::guide_types::CallSignature;
use super::outcome::Outcome;
use crate::sema::ir::Semantics;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The code a verdict depends on: a change to any of it invalidates the cache.
const VERDICT_CODE: &[&str] = &[
    include_str!("../../../eval/builtins.rs"),
    include_str!("../../../eval/concrete.rs"),
    include_str!("../../../eval/expr.rs"),
    include_str!("../../../eval/machine.rs"),
    include_str!("../../../eval/value.rs"),
    include_str!("../../../eval/write.rs"),
    include_str!("../../../validate/cases.rs"),
    include_str!("evidence.rs"),
    include_str!("harness.rs"),
    include_str!("guide_types.rs"),
    include_str!("mod.rs"),
];

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Cached {
    Validated { evidence: Evidence },
    Mismatch { detail: String, evidence: Evidence },
}

pub struct VerdictCache {
    dir: PathBuf,
    context: String,
}

impl VerdictCache {
    pub fn new(dir: &Path, cfg: &ValidationConfig, cpu_flags: &str) -> VerdictCache {
        let code = crate::fnv::fnv1a(VERDICT_CODE.concat().as_bytes());
        let context = format!(
            "{code:016x}|{}|{:?}|{}|{}|{cpu_flags}",
            cfg.compiler.display(),
            cfg.compiler_flags,
            cfg.random_cases,
            cfg.cases_per_immediate
        );
        VerdictCache { dir: dir.to_path_buf(), context }
    }

    fn path(&self, sema: &Semantics, call: &CallSignature) -> PathBuf {
        let key = format!(
            "{}|{}|{:?}|{}",
            self.context,
            serde_json::to_string(sema).unwrap_or_default(),
            call.args.iter().map(|a| &a.c_type).collect::<Vec<_>>(),
            call.ret_c_type
        );
        let h = crate::fnv::fnv1a(key.as_bytes());
        // Two independent hashes make an accidental match implausible.
        let h2 = crate::fnv::fnv1a(format!("{}{key}", key.len()).as_bytes());
        self.dir.join(format!("{}-{h:016x}{h2:016x}.json", sema.name))
    }

    pub fn get(&self, sema: &Semantics, call: &CallSignature) -> Option<Outcome> {
        let text = std::fs::read_to_string(self.path(sema, call)).ok()?;
        match serde_json::from_str::<Cached>(&text).ok()? {
            Cached::Validated { evidence } => Some(Outcome::Validated { evidence, by_record: None }),
            Cached::Mismatch { detail, evidence } => Some(Outcome::Mismatch { detail, evidence: Some(evidence) }),
        }
    }

    /// Records a verdict reached on this host; failures to run and verdicts
    /// taken from the record are not cached.
    pub fn put(&self, sema: &Semantics, call: &CallSignature, outcome: &Outcome) {
        let cached = match outcome {
            Outcome::Validated { evidence, by_record: None } => Cached::Validated { evidence: evidence.clone() },
            Outcome::Mismatch { detail, evidence: Some(evidence) } => {
                Cached::Mismatch { detail: detail.clone(), evidence: evidence.clone() }
            }
            _ => return,
        };
        let path = self.path(sema, call);
        let tmp = path.with_extension(format!("tmp{}", std::process::id()));
        // Write then rename, so concurrent runs never see half a file.
        if std::fs::create_dir_all(&self.dir).is_ok()
            && std::fs::write(&tmp, serde_json::to_string(&cached).unwrap_or_default()).is_ok()
        {
            let _ = std::fs::rename(&tmp, &path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sema::ir::{Arg, ArgKind, ElemType};

    fn sample() -> (Semantics, CallSignature) {
        let arg = Arg {
            name: "a".into(),
            kind: ArgKind::Vector,
            width: 128,
            elem: ElemType { width: 8, signed: false },
            imm_bits: None,
            imm_range: None,
        };
        let sema = Semantics {
            name: "_x".into(),
            args: vec![arg.clone()],
            result: Arg { name: "dst".into(), ..arg },
            functions: vec![],
            body: vec![],
        };
        (sema, super::super::evidence::sample_call())
    }

    #[test]
    fn verdicts_round_trip_and_corruption_is_ignored() {
        let dir = tempfile::tempdir().unwrap();
        let cache = VerdictCache::new(dir.path(), &ValidationConfig::default(), "avx2");
        let (sema, call) = sample();
        assert!(cache.get(&sema, &call).is_none());
        let validated = Outcome::Validated { evidence: Evidence::of(&sema, &call, &[], &[]), by_record: None };
        cache.put(&sema, &call, &validated);
        assert_eq!(cache.get(&sema, &call), Some(validated));
        // Another CPU is another key.
        let other = VerdictCache::new(dir.path(), &ValidationConfig::default(), "sse2");
        assert!(other.get(&sema, &call).is_none());
        // A damaged file is not trusted.
        std::fs::write(cache.path(&sema, &call), "{\"validated\": ").unwrap();
        assert!(cache.get(&sema, &call).is_none());
        // Failures are not cached.
        cache.put(&sema, &call, &Outcome::Failed { stage: "run", reason: "x".into() });
        assert!(cache.get(&sema, &call).is_none());
    }
}
