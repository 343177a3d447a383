//! The whole x86 front end in one call: read the guide, select the modelled
//! intrinsics, parse them, optionally validate them, and report.

use super::corrections::Corrections;
use super::guide::GuideError;
use super::scope;
use crate::isa::x86::report::{Failure, Report};
use crate::isa::x86::validate::{self, Outcome, ValidationConfig, ValidationError};
use crate::sema::ir::Semantics;
use rayon::prelude::*;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Clone, Debug)]
pub struct SurveyOptions {
    pub isa_data: PathBuf,
    pub corrections: Option<PathBuf>,
    /// Validate against this CPU with these settings.
    pub validation: Option<ValidationConfig>,
    /// Only entries whose name contains this text.
    pub filter: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum SurveyError {
    #[error("no Intel Intrinsics Guide XML under {0} (expected {0}/x86/*.xml)")]
    NoGuide(String),
    #[error(transparent)]
    Guide(#[from] GuideError),
    #[error(transparent)]
    Corrections(#[from] super::corrections::CorrectionsError),
    #[error(transparent)]
    Validation(#[from] ValidationError),
}

/// Reports the stage of long work: `(stage, done, total)`.
pub use crate::isa::Progress;

pub struct Survey {
    pub report: Report,
    /// Semantics of every parsed intrinsic, and whether it validated.
    pub semantics: Vec<(Semantics, bool)>,
    /// The CPUID features each parsed intrinsic needs, normalized.
    pub cpuids: std::collections::BTreeMap<String, Vec<String>>,
    /// Every validated intrinsic's outcome (empty without validation).
    pub outcomes: Vec<(String, Outcome)>,
}

pub fn survey(opts: &SurveyOptions, progress: &dyn Progress) -> Result<Survey, SurveyError> {
    let start = Instant::now();
    let guide = super::load_guide(&opts.isa_data)?;
    if guide.files.is_empty() {
        return Err(SurveyError::NoGuide(opts.isa_data.display().to_string()));
    }
    let corrections = match &opts.corrections {
        Some(p) => Corrections::load(p)?,
        None => Corrections::default(),
    };
    let mut report = guide_report(opts, &guide);
    let candidates = select_candidates(opts, &guide, &mut report);
    report.candidates = candidates.len();
    progress.update("x86 parse", 0, candidates.len());
    let lowered: Vec<_> = candidates.par_iter().map(|e| super::lower_entry(e, &corrections)).collect();
    progress.update("x86 parse", candidates.len(), candidates.len());
    report_stale_corrections(&corrections, &candidates, &mut report);
    report.corrections_applied = candidates.iter().filter(|e| corrections.matching(e).next().is_some()).count();

    let parsed_items = count_parsed(&candidates, &lowered, &mut report);
    report.parsed = parsed_items.len();
    let cpuids = parsed_items
        .iter()
        .map(|(e, _)| (e.name.clone(), e.cpuids.iter().map(|c| scope::normalize_cpuid(c).to_string()).collect()))
        .collect();
    let mut semantics = Vec::new();
    let mut all_outcomes = Vec::new();
    if let Some(cfg) = &opts.validation {
        let total = parsed_items.len();
        let outcomes = validate::validate(&parsed_items, cfg, &|done| progress.update("x86 validate", done, total))?;
        let (mut validated, mut mismatched) = (0, 0);
        for ((e, s), o) in parsed_items.iter().zip(outcomes) {
            let ok = matches!(o, Outcome::Validated { .. });
            validated += usize::from(ok);
            mismatched += usize::from(matches!(o, Outcome::Mismatch { .. }));
            all_outcomes.push((e.name.clone(), o.clone()));
            count_outcome(&mut report, e, o, cfg);
            semantics.push(((*s).clone(), ok));
        }
        report.record_entries = cfg.record.as_ref().map(|r| r.entries.len());
        report.validated = Some(validated);
        report.mismatched = Some(mismatched);
        report.unsupported = report.candidates - validated - mismatched;
        for c in report.by_cpuid.values_mut() {
            c.unsupported = c.candidates - c.validated - c.mismatched;
        }
    } else {
        report.unsupported = report.candidates - report.parsed;
        for c in report.by_cpuid.values_mut() {
            c.unsupported = c.candidates - c.parsed;
        }
        semantics = parsed_items.iter().map(|(_, s)| ((*s).clone(), false)).collect();
    }
    report.failures.sort_by(|a, b| a.name.cmp(&b.name));
    report.seconds = start.elapsed().as_secs_f64();
    Ok(Survey { report, semantics, cpuids, outcomes: all_outcomes })
}

/// The report's opening: the guide files read, their entry counts, the host,
/// and a `malformed` failure for every entry the guide reader skipped.
fn guide_report(opts: &SurveyOptions, guide: &super::X86Guide) -> Report {
    let mut report = Report {
        isa: "x86".into(),
        sources: guide.files.iter().map(|f| f.display().to_string()).collect(),
        entries: guide.entries.len(),
        malformed: guide.skipped.len(),
        host: Some(crate::isa::x86::report::HostInfo::of(
            opts.validation.as_ref().map_or(crate::isa::x86::host::Host::get(), |c| &c.host),
        )),
        ..Report::default()
    };
    for s in &guide.skipped {
        report.failures.push(Failure {
            name: s.name.clone(),
            stage: "malformed".into(),
            reason: s.reason.clone(),
            location: Some(format!("{}:{}", s.file.display(), s.line)),
            source_line: None,
        });
    }
    report
}

/// The guide entries in scope and matching the name filter; the others are
/// counted by exclusion reason.
fn select_candidates<'g>(
    opts: &SurveyOptions,
    guide: &'g super::X86Guide,
    report: &mut Report,
) -> Vec<&'g super::guide::GuideEntry> {
    let mut candidates = Vec::new();
    for e in &guide.entries {
        if opts.filter.as_deref().is_some_and(|f| !e.name.contains(f)) {
            continue;
        }
        match scope::classify(e) {
            Ok(()) => candidates.push(e),
            Err(x) => {
                let key = match x {
                    scope::Exclusion::Extension(_) => "extension".to_string(),
                    other => other.to_string(),
                };
                *report.excluded_by_reason.entry(key).or_default() += 1;
            }
        }
    }
    candidates
}

/// A `stale-correction` failure for every correction no candidate matches.
fn report_stale_corrections(corrections: &Corrections, candidates: &[&super::guide::GuideEntry], report: &mut Report) {
    for c in corrections.unused(candidates) {
        let name = c.instruction.clone().or_else(|| c.intrinsic.clone()).unwrap_or_default();
        log::warn!("correction for {name} matches no modelled intrinsic");
        report.failures.push(Failure {
            name,
            stage: "stale-correction".into(),
            reason: format!("correction matches no modelled intrinsic: {}", c.reason),
            location: None,
            source_line: None,
        });
    }
}

/// The `by_cpuid` key of an entry: its normalized CPUID features joined by `+`.
fn cpuid_key(e: &super::guide::GuideEntry) -> String {
    e.cpuids.iter().map(|c| scope::normalize_cpuid(c)).collect::<Vec<_>>().join("+")
}

/// The candidates that parsed, paired with their semantics; every candidate
/// is counted under its CPUID key, and every front-end failure reported.
fn count_parsed<'a>(
    candidates: &[&'a super::guide::GuideEntry],
    lowered: &'a [Result<Semantics, super::FrontEndFailure>],
    report: &mut Report,
) -> Vec<(&'a super::guide::GuideEntry, &'a Semantics)> {
    let mut parsed_items = Vec::new();
    for (e, l) in candidates.iter().zip(lowered) {
        let counts = report.by_cpuid.entry(cpuid_key(e)).or_default();
        counts.candidates += 1;
        match l {
            Ok(s) => {
                counts.parsed += 1;
                parsed_items.push((*e, s));
            }
            Err(f) => report.failures.push(Failure {
                name: e.name.clone(),
                stage: f.stage.into(),
                reason: f.message.clone(),
                location: f.location.clone(),
                source_line: f.source_line.clone(),
            }),
        }
    }
    parsed_items
}

/// One validation outcome in the report: the counts of the entry's CPUID
/// key, the test vectors and record use of a validated entry (and whether
/// the record is stale for it), or a failure.
fn count_outcome(report: &mut Report, e: &super::guide::GuideEntry, o: Outcome, cfg: &ValidationConfig) {
    let counts = report.by_cpuid.get_mut(&cpuid_key(e)).expect("counted above");
    match o {
        Outcome::Validated { evidence, by_record } => {
            if let (None, Some(record)) = (&by_record, &cfg.record) {
                if !record.covers(&e.name, &evidence) {
                    report.record_stale.push(e.name.clone());
                }
            }
            counts.validated += 1;
            report.test_vectors += evidence.vectors;
            match by_record {
                None => report.validated_here += 1,
                Some(_) => report.validated_by_record += 1,
            }
        }
        Outcome::Mismatch { detail, .. } => {
            counts.mismatched += 1;
            report.failures.push(Failure {
                name: e.name.clone(),
                stage: "mismatch".into(),
                reason: detail,
                location: None,
                source_line: None,
            });
        }
        Outcome::Failed { stage, reason } => {
            if stage == "unvalidated" {
                report.unvalidated += 1;
            }
            report.failures.push(Failure {
                name: e.name.clone(),
                stage: stage.into(),
                reason,
                location: None,
                source_line: None,
            })
        }
    }
}
