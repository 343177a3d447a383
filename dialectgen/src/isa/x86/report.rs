//! The front-end report: counts per ISA and per CPUID, and every failure.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Counts {
    pub candidates: usize,
    pub parsed: usize,
    pub validated: usize,
    pub mismatched: usize,
    pub unsupported: usize,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Failure {
    pub name: String,
    /// `malformed`, `stale-correction`, `signature`, `parse`, `type`,
    /// `compile`, `harness`, `run`, `eval`, `mismatch`, `unvalidated` (this
    /// host cannot execute it and no record vouches for it).
    pub stage: String,
    pub reason: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_line: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub isa: String,
    pub sources: Vec<String>,
    /// Entries in the guide files (after removing repeated names).
    pub entries: usize,
    /// Malformed entries skipped while reading, with reasons in `failures`.
    pub malformed: usize,
    pub candidates: usize,
    pub parsed: usize,
    /// `null` unless validation ran.
    pub validated: Option<usize>,
    /// Of `validated`: executed on this host.
    pub validated_here: usize,
    /// Of `validated`: not executable here, taken from the validation record
    /// (whose hashes match the current semantics, vectors and results).
    pub validated_by_record: usize,
    /// Not executable here, with no record vouching for them (named in
    /// `failures`, stage `unvalidated`); they stay out of the dialects.
    pub unvalidated: usize,
    pub mismatched: Option<usize>,
    /// Entries in the validation record used, if any.
    pub record_entries: Option<usize>,
    /// Validated on this host but without a current record entry (none, or
    /// one for other semantics or vectors): a host that cannot execute them
    /// would leave them unvalidated until the record is refreshed.
    #[serde(default)]
    pub record_stale: Vec<String>,
    /// The machine the report was made on.
    pub host: Option<HostInfo>,
    pub unsupported: usize,
    pub corrections_applied: usize,
    /// Random and edge-value test vectors compared, over all intrinsics.
    pub test_vectors: u64,
    pub by_cpuid: BTreeMap<String, Counts>,
    pub excluded_by_reason: BTreeMap<String, usize>,
    pub failures: Vec<Failure>,
    pub seconds: f64,
}

/// The CPU a report was made on and the features in use.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct HostInfo {
    pub model: String,
    pub features: Vec<String>,
    /// Features the CPU has that `HYDRIDE_WITHHOLD_FEATURES` took away.
    pub withheld: Vec<String>,
}

impl HostInfo {
    pub fn of(host: &crate::isa::x86::host::Host) -> HostInfo {
        HostInfo {
            model: host.model.clone(),
            features: host.features.iter().cloned().collect(),
            withheld: host.withheld.iter().cloned().collect(),
        }
    }
}

impl Report {
    /// A short table for the terminal.
    pub fn table(&self) -> String {
        let mut s = String::new();
        let opt = |v: Option<usize>| v.map_or("-".to_string(), |x| x.to_string());
        s.push_str(&format!(
            "{:<28} {:>10} {:>7} {:>9} {:>10} {:>11}\n",
            "CPUID", "candidates", "parsed", "validated", "mismatched", "unsupported"
        ));
        for (k, c) in &self.by_cpuid {
            s.push_str(&format!(
                "{:<28} {:>10} {:>7} {:>9} {:>10} {:>11}\n",
                k, c.candidates, c.parsed, c.validated, c.mismatched, c.unsupported
            ));
        }
        s.push_str(&format!(
            "{:<28} {:>10} {:>7} {:>9} {:>10} {:>11}\n",
            "total",
            self.candidates,
            self.parsed,
            opt(self.validated),
            opt(self.mismatched),
            self.unsupported
        ));
        if self.validated.is_some() {
            s.push_str(&format!(
                "validated: {} on this host, {} by the record; {} unvalidated (this host lacks their extensions and no record vouches)\n",
                self.validated_here, self.validated_by_record, self.unvalidated
            ));
            if !self.record_stale.is_empty() {
                s.push_str(&format!(
                    "{} validated here have no current record entry (e.g. {}); {}\n",
                    self.record_stale.len(),
                    self.record_stale[0],
                    crate::isa::x86::validate::record::REFRESH
                ));
            }
            if self.unvalidated > 0 {
                s.push_str(&format!(
                    "unvalidated intrinsics stay out of the dialects; to vouch for them, {}\n",
                    crate::isa::x86::validate::record::REFRESH
                ));
            }
        }
        s.push_str(&format!(
            "{} entries read, {} malformed, {} corrections applied, {} test vectors, {:.1} s\n",
            self.entries, self.malformed, self.corrections_applied, self.test_vectors, self.seconds
        ));
        s
    }
}
