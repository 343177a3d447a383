//! Hardware verdicts recorded in the repository
//! (`isa-specs/x86/validation-record.json`), so that what the dialects
//! contain does not depend on the CPU of the machine that generates them.
//!
//! An entry holds one intrinsic's verdict on a machine that executed it,
//! with the [`Evidence`] hashes of the semantics, the test vectors and the
//! hardware's results, and the run (CPU model and features) it came from.
//!
//! - A host that executes an intrinsic validates it itself; where the record
//!   has an entry for the same semantics and vectors, the two must agree
//!   (verdict and results), else the intrinsic is a mismatch.
//! - A host that cannot execute it takes the recorded verdict only if the
//!   recorded semantics and vectors hashes equal the current ones and the
//!   interpreter's results on those vectors hash to what the hardware
//!   returned. Anything else leaves it unvalidated: a record never turns a
//!   wrong answer into a right one.
//!
//! The file is written only by `hydride record x86`, one entry per line.

use super::evidence::Evidence;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The file's format version.
const FORMAT: u32 = 1;

/// How to refresh the record (printed where an entry is missing or stale).
pub const REFRESH: &str = "run `hydride record x86` (scripts/record) on a machine with the extensions and commit isa-specs/x86/validation-record.json";

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Validated,
    Mismatch,
}

/// One machine's validation run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Run {
    pub cpu: String,
    /// `/proc/cpuinfo` flags in use, sorted.
    pub features: String,
    /// The commit the run was made from, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub verdict: Verdict,
    /// Key into [`Record::runs`].
    pub run: String,
    #[serde(flatten)]
    pub evidence: Evidence,
    /// For a mismatch: the first differing case.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    pub runs: BTreeMap<String, Run>,
    pub entries: BTreeMap<String, Entry>,
}

#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    #[error("reading the validation record {path}: {source}")]
    Read { path: String, source: std::io::Error },
    #[error("the validation record {path} is malformed: {source}")]
    Parse { path: String, source: serde_json::Error },
    #[error("the validation record {path} has format {found}; this hydride reads format {FORMAT}")]
    Format { path: String, found: u32 },
    #[error("the validation record {path}: entry {name} names run {run}, which is not in `runs`")]
    UnknownRun { path: String, name: String, run: String },
}

#[derive(Deserialize)]
struct File {
    format: u32,
    #[serde(flatten)]
    record: Record,
}

/// What the record says of an intrinsic this host cannot execute.
#[derive(Clone, Debug, PartialEq)]
pub enum Vouch {
    /// The hardware agreed with these semantics on these vectors.
    Validated { run: String },
    /// The hardware disagreed with these semantics (or the interpreter now
    /// computes something else than what the hardware returned).
    Mismatch { detail: String },
    /// No usable entry: why.
    Unvalidated { reason: String },
}

impl Record {
    pub fn load(path: &Path) -> Result<Record, RecordError> {
        let p = || path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| RecordError::Read { path: p(), source })?;
        let file: File = serde_json::from_str(&text).map_err(|source| RecordError::Parse { path: p(), source })?;
        if file.format != FORMAT {
            return Err(RecordError::Format { path: p(), found: file.format });
        }
        for (name, e) in &file.record.entries {
            if !file.record.runs.contains_key(&e.run) {
                return Err(RecordError::UnknownRun { path: p(), name: name.clone(), run: e.run.clone() });
            }
        }
        Ok(file.record)
    }

    /// The file text: a header, the runs, then one entry per line.
    pub fn render(&self) -> String {
        let mut out = format!(
            "{{\"_about\": {:?},\n\"format\": {FORMAT},\n\"runs\": {{",
            "Hardware validation verdicts of x86 intrinsics (DO NOT EDIT: written by `hydride record x86`)."
        );
        for (i, (id, run)) in self.runs.iter().enumerate() {
            out.push_str(if i == 0 { "\n" } else { ",\n" });
            out.push_str(&format!("{id:?}: {}", one_line(run)));
        }
        out.push_str("\n},\n\"entries\": {");
        for (i, (name, entry)) in self.entries.iter().enumerate() {
            out.push_str(if i == 0 { "\n" } else { ",\n" });
            out.push_str(&format!("{name:?}: {}", one_line(entry)));
        }
        out.push_str("\n}}\n");
        out
    }

    /// Checks a verdict reached on this host against the record: `None` when
    /// they agree or the record has nothing for these semantics and vectors,
    /// else the disagreement.
    pub fn disagreement(&self, name: &str, verdict: &Verdict, evidence: &Evidence) -> Option<String> {
        let e = self.entries.get(name)?;
        if !Record::same_question(&e.evidence, evidence) {
            return None;
        }
        let run = &self.runs[&e.run];
        if &e.verdict != verdict {
            return Some(format!("this host finds {verdict:?} but the record ({}) says {:?}", run.cpu, e.verdict));
        }
        (e.evidence.results_sha256 != evidence.results_sha256).then(|| {
            format!("this host's results differ from the recorded hardware results ({}) on the same vectors", run.cpu)
        })
    }

    /// The recorded verdict for an intrinsic this host cannot execute,
    /// checked against `current`: the evidence the interpreter gives now.
    pub fn vouch(&self, name: &str, current: &Evidence) -> Vouch {
        let Some(e) = self.entries.get(name) else {
            return Vouch::Unvalidated { reason: format!("no recorded hardware verdict; {REFRESH}") };
        };
        if e.evidence.semantics_sha256 != current.semantics_sha256 {
            return Vouch::Unvalidated {
                reason: format!("the recorded verdict is stale (semantics changed since); {REFRESH}"),
            };
        }
        if e.evidence.vectors_sha256 != current.vectors_sha256 {
            return Vouch::Unvalidated {
                reason: format!("the recorded verdict is stale (test vectors changed since); {REFRESH}"),
            };
        }
        if e.evidence.harness_sha256 != current.harness_sha256 {
            return Vouch::Unvalidated {
                reason: format!(
                    "the recorded verdict is stale (the test harness or the call's C types changed since); {REFRESH}"
                ),
            };
        }
        let cpu = &self.runs[&e.run].cpu;
        match e.verdict {
            Verdict::Mismatch => Vouch::Mismatch {
                detail: format!("recorded on {cpu}: {}", e.detail.as_deref().unwrap_or("hardware differs")),
            },
            Verdict::Validated if e.evidence.results_sha256 != current.results_sha256 => Vouch::Mismatch {
                detail: format!(
                    "the interpreter's results differ from the hardware results recorded on {cpu} for the same semantics and vectors"
                ),
            },
            Verdict::Validated => Vouch::Validated { run: e.run.clone() },
        }
    }

    /// Whether two pieces of evidence answer the same question: the same
    /// semantics, vectors and harness (their results may differ).
    fn same_question(a: &Evidence, b: &Evidence) -> bool {
        a.semantics_sha256 == b.semantics_sha256
            && a.vectors_sha256 == b.vectors_sha256
            && a.harness_sha256 == b.harness_sha256
    }

    /// Whether the record has an entry for exactly these semantics, vectors and harness.
    pub fn covers(&self, name: &str, evidence: &Evidence) -> bool {
        self.entries.get(name).is_some_and(|e| Record::same_question(&e.evidence, evidence))
    }

    /// For an intrinsic this host executes but could not test (`stage`,
    /// `reason`): the disagreement if the record validated these semantics.
    pub fn failed_here(&self, name: &str, semantics_sha256: &str, stage: &str, reason: &str) -> Option<String> {
        let e = self.entries.get(name)?;
        (e.verdict == Verdict::Validated && e.evidence.semantics_sha256 == semantics_sha256).then(|| {
            format!(
                "this host executes it but could not test it ({stage}: {reason}), while the record ({}) validated it",
                self.runs[&e.run].cpu
            )
        })
    }

    /// The run id for `run`, adding it when new.
    pub fn run_id(&mut self, run: Run) -> String {
        if let Some((id, _)) = self.runs.iter().find(|(_, r)| **r == run) {
            return id.clone();
        }
        let last = self.runs.keys().filter_map(|k| k.strip_prefix("run")?.parse::<usize>().ok()).max().unwrap_or(0);
        let id = format!("run{}", last + 1);
        self.runs.insert(id.clone(), run);
        id
    }

    /// Takes in the verdicts `outcomes` reached on the host described by
    /// `run`: an entry per intrinsic validated or mismatched there (an
    /// unchanged entry keeps the run that first recorded it); entries of
    /// intrinsics the host could not execute are kept; entries of names not
    /// in `outcomes` (no longer modelled) are dropped.
    pub fn update(&mut self, outcomes: &[(String, super::outcome::Outcome)], run: Run) -> Update {
        use super::outcome::Outcome;
        let run = self.run_id(run);
        let names: std::collections::BTreeSet<&str> = outcomes.iter().map(|(n, _)| n.as_str()).collect();
        let before = self.entries.len();
        self.entries.retain(|name, _| names.contains(name.as_str()));
        let mut u = Update { dropped: before - self.entries.len(), ..Update::default() };
        for (name, outcome) in outcomes {
            let (verdict, evidence, detail) = match outcome {
                Outcome::Validated { evidence, by_record: None } => (Verdict::Validated, evidence, None),
                Outcome::Mismatch { detail, evidence: Some(evidence) } => {
                    (Verdict::Mismatch, evidence, Some(detail.clone()))
                }
                // Executable here but not testable: no verdict stands for it.
                Outcome::Failed { stage, .. } if *stage != "unvalidated" => {
                    if self.entries.remove(name).is_some() {
                        u.dropped += 1;
                    }
                    continue;
                }
                _ => continue,
            };
            let entry = Entry { verdict, run: run.clone(), evidence: evidence.clone(), detail };
            match self.entries.get(name) {
                None => u.added.push(name.clone()),
                Some(old) if Entry { run: old.run.clone(), ..entry.clone() } == *old => {
                    u.confirmed += 1;
                    continue;
                }
                Some(_) => u.changed.push(name.clone()),
            }
            self.entries.insert(name.clone(), entry);
        }
        self.prune_runs();
        u
    }

    /// Drops runs no entry names.
    pub fn prune_runs(&mut self) {
        let used: std::collections::BTreeSet<&String> = self.entries.values().map(|e| &e.run).collect();
        let keep: BTreeMap<String, Run> =
            self.runs.iter().filter(|(id, _)| used.contains(id)).map(|(k, v)| (k.clone(), v.clone())).collect();
        self.runs = keep;
    }
}

/// What [`Record::update`] did.
#[derive(Debug, Default, PartialEq)]
pub struct Update {
    pub added: Vec<String>,
    pub changed: Vec<String>,
    /// Entries this host re-confirmed unchanged.
    pub confirmed: usize,
    /// Entries of intrinsics no longer modelled, or that this host executes
    /// but could not test.
    pub dropped: usize,
}

/// One value as JSON on one line.
fn one_line<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn evidence(results: &str) -> Evidence {
        Evidence {
            vectors: 3,
            semantics_sha256: "s".into(),
            vectors_sha256: "v".into(),
            harness_sha256: "h".into(),
            results_sha256: results.into(),
        }
    }

    fn record() -> Record {
        let mut r = Record::default();
        let run = r.run_id(Run { cpu: "Zen 4".into(), features: "avx512f".into(), commit: None });
        r.entries.insert(
            "_mm512_x".into(),
            Entry { verdict: Verdict::Validated, run: run.clone(), evidence: evidence("r"), detail: None },
        );
        r.entries.insert(
            "_mm512_bad".into(),
            Entry { verdict: Verdict::Mismatch, run, evidence: evidence("q"), detail: Some("lane 3".into()) },
        );
        r
    }

    #[test]
    fn round_trips_through_its_text() {
        let r = record();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("record.json");
        std::fs::write(&path, r.render()).unwrap();
        assert_eq!(Record::load(&path).unwrap(), r);
        assert_eq!(r.render().lines().filter(|l| l.starts_with("\"_mm512")).count(), 2, "one entry per line");
    }

    #[test]
    fn vouches_only_for_the_exact_semantics_vectors_and_results() {
        let r = record();
        assert_eq!(r.vouch("_mm512_x", &evidence("r")), Vouch::Validated { run: "run1".into() });
        assert!(matches!(r.vouch("_mm512_x", &evidence("other")), Vouch::Mismatch { .. }));
        assert!(matches!(r.vouch("_mm512_bad", &evidence("q")), Vouch::Mismatch { .. }));
        let stale = Evidence { semantics_sha256: "s2".into(), ..evidence("r") };
        assert!(matches!(r.vouch("_mm512_x", &stale), Vouch::Unvalidated { reason } if reason.contains("semantics")));
        let stale = Evidence { vectors_sha256: "v2".into(), ..evidence("r") };
        assert!(matches!(r.vouch("_mm512_x", &stale), Vouch::Unvalidated { reason } if reason.contains("vectors")));
        let stale = Evidence { harness_sha256: "h2".into(), ..evidence("r") };
        assert!(matches!(r.vouch("_mm512_x", &stale), Vouch::Unvalidated { reason } if reason.contains("harness")));
        assert!(matches!(r.vouch("_mm512_absent", &evidence("r")), Vouch::Unvalidated { .. }));
    }

    #[test]
    fn a_host_verdict_must_agree_with_the_record() {
        let r = record();
        assert_eq!(r.disagreement("_mm512_x", &Verdict::Validated, &evidence("r")), None);
        assert!(r.disagreement("_mm512_x", &Verdict::Mismatch, &evidence("r")).is_some());
        assert!(r.disagreement("_mm512_x", &Verdict::Validated, &evidence("r2")).is_some());
        let other = Evidence { semantics_sha256: "s2".into(), ..evidence("r2") };
        assert_eq!(r.disagreement("_mm512_x", &Verdict::Validated, &other), None, "other semantics: no claim");
    }

    #[test]
    fn run_ids_are_never_reused() {
        let mut r = record();
        r.runs.insert("run3".into(), Run { cpu: "old".into(), features: String::new(), commit: None });
        let id = r.run_id(Run { cpu: "new".into(), features: String::new(), commit: None });
        assert_eq!(id, "run4");
        assert_eq!(r.runs["run3"].cpu, "old");
    }

    #[test]
    fn a_failure_here_contradicts_a_validated_entry() {
        let r = record();
        assert!(r.failed_here("_mm512_x", "s", "compile", "x").is_some());
        assert!(r.failed_here("_mm512_x", "other", "compile", "x").is_none());
        assert!(r.failed_here("_mm512_bad", "s", "compile", "x").is_none());
    }

    #[test]
    fn malformed_files_are_errors_with_the_path() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("record.json");
        std::fs::write(&path, "{\"format\": 1, \"runs\": {}, \"entries\": {\"x\": ").unwrap();
        assert!(Record::load(&path).unwrap_err().to_string().contains("record.json"));
        let mut r = record();
        r.runs.clear();
        std::fs::write(&path, r.render()).unwrap();
        assert!(matches!(Record::load(&path), Err(RecordError::UnknownRun { .. })));
        std::fs::write(&path, "{\"format\": 9, \"runs\": {}, \"entries\": {}}").unwrap();
        assert!(matches!(Record::load(&path), Err(RecordError::Format { found: 9, .. })));
    }
}
