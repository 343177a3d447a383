//! The x86 part of `hydride gen`: the guide's validated semantics, their
//! classes (which make `autollvm`), the `hydride_x86` dialect, the class
//! database with clang's lowering and cost of each member, and the LLVM
//! call each op becomes.

use super::survey::{survey, SurveyOptions};
use crate::classify::engine::classify;
use crate::design::build;
use crate::gen_options::{GenError, GenOptions, GENERATED_BY};
use crate::gen_tables::{class_database, one_entry_per_line};
use crate::isa::x86::validate::record::Record;
use crate::isa::x86::validate::ValidationConfig;
use crate::isa::{Isa, IsaOutput, Progress};

/// The CPU whose instruction counts are the costs.
const COST_CPU: &str = "znver4";

pub struct X86;

impl X86 {
    fn validation(&self, opts: &GenOptions) -> Result<Option<ValidationConfig>, GenError> {
        if !opts.validate {
            return Ok(None);
        }
        let record = if opts.no_record {
            None
        } else {
            let path = opts.record.clone().unwrap_or_else(|| opts.specs_dir.join("x86").join("validation-record.json"));
            Some(std::sync::Arc::new(Record::load(&path).map_err(|e| GenError::isa("x86", e))?))
        };
        let mut cfg = ValidationConfig { cache_dir: opts.cache_dir.clone(), record, ..ValidationConfig::default() };
        if let Some(j) = opts.jobs {
            cfg.jobs = j;
        }
        Ok(Some(cfg))
    }
}

impl Isa for X86 {
    fn front_end_command(&self, cmd: clap::Command) -> clap::Command {
        super::cli::command(cmd)
    }

    fn run_front_end(&self, matches: &clap::ArgMatches, progress: &dyn crate::isa::Progress) -> anyhow::Result<()> {
        super::cli::run(matches, progress)
    }

    fn refresh_record(
        &self,
        args: &crate::isa::cli::RecordArgs,
        progress: &dyn crate::isa::Progress,
    ) -> anyhow::Result<()> {
        super::cli::refresh_record(args, progress)
    }

    fn host(&self) -> Option<crate::isa::cli::HostReport> {
        super::cli::host_report()
    }

    fn name(&self) -> &'static str {
        "x86"
    }

    fn generate(&self, opts: &GenOptions, progress: &dyn Progress) -> Result<IsaOutput, GenError> {
        let corrections = opts.specs_dir.join("x86").join("corrections.yaml");
        let survey_opts = SurveyOptions {
            isa_data: opts.isa_data.clone(),
            corrections: corrections.exists().then_some(corrections),
            validation: self.validation(opts)?,
            filter: None,
        };
        let s = survey(&survey_opts, progress).map_err(|e| GenError::isa("x86", e))?;
        let cpuids = s.cpuids;
        let semantics: Vec<_> =
            s.semantics.into_iter().filter(|(_, ok)| *ok || !opts.validate).map(|(s, _)| s).collect();
        progress.update("classify", 0, semantics.len());
        // Merging fits numbers to the signature only: the autollvm dialect
        // and the synthesis grammar are built from these classes.
        let (classes, stats) = classify(
            &semantics,
            opts.timeout_ms,
            crate::classify::mask::MaskModel::WriteMask,
            crate::classify::engine::Numbers::OfSignature,
        );
        progress.update("classify", semantics.len(), semantics.len());
        progress.update("lower", 0, semantics.len());
        let scratch =
            tempfile::tempdir().map_err(|source| GenError::Write { path: "temporary directory".into(), source })?;
        let lowerings = super::lowering::lowerings(&semantics, &opts.compiler, COST_CPU, scratch.path())
            .map_err(|e| GenError::isa("x86", e))?;
        progress.update("lower", semantics.len(), semantics.len());
        let cost_source =
            format!("machine instructions of the intrinsic alone, clang-22 -O1 -march={COST_CPU} (immediates = 1)");
        let db = class_database("x86", &[("cost_source", &cost_source)], &classes, |n| lowerings.get(n))?;
        let dialect = build::target_dialect("hydride_x86", "x86", &semantics, GENERATED_BY);
        let calls = crate::isa::x86::llvm_call::llvm_calls(&dialect.name, &classes, &semantics, &lowerings, &cpuids);
        let coverage = crate::isa::x86::llvm_call::coverage(&dialect.name, &semantics, &lowerings, &calls);
        let calls = one_entry_per_line(calls.iter().map(|(k, v)| (k.clone(), v)))?;
        let mut report = serde_json::to_value(&s.report)?;
        report["llvm_lowering"] = serde_json::to_value(&coverage)?;
        Ok(IsaOutput {
            semantics,
            classes,
            stats,
            dialect,
            report,
            files: vec![("x86/class-database.json".into(), db), ("x86/llvm-calls.json".into(), calls)],
        })
    }
}
