//! The x86 part of `hydride gen`: the guide's validated semantics, and,
//! given their classes, clang's lowering and cost of each member (the class
//! database's) and the LLVM call each op becomes.

use super::survey::{survey, SurveyOptions};
use crate::classify::engine::{Numbers, SimilarityClass};
use crate::classify::mask::MaskModel;
use crate::gen_options::{GenError, GenOptions};
use crate::isa::front_end::{FrontEnd, Lowerings, Merging};
use crate::isa::x86::validate::record::Record;
use crate::isa::x86::validate::ValidationConfig;
use crate::isa::{Isa, Progress};
use crate::sema::ir::Semantics;
use std::collections::BTreeMap;

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

    fn front_end(&self, opts: &GenOptions, progress: &dyn Progress) -> Result<Box<dyn FrontEnd>, GenError> {
        let corrections = opts.specs_dir.join("x86").join("corrections.yaml");
        let survey_opts = SurveyOptions {
            isa_data: opts.isa_data.clone(),
            corrections: corrections.exists().then_some(corrections),
            validation: self.validation(opts)?,
            filter: None,
        };
        let s = survey(&survey_opts, progress).map_err(|e| GenError::isa("x86", e))?;
        let semantics: Vec<_> =
            s.semantics.into_iter().filter(|(_, ok)| *ok || !opts.validate).map(|(s, _)| s).collect();
        Ok(Box::new(X86FrontEnd { semantics, cpuids: s.cpuids, report: s.report }))
    }
}

/// The guide's validated intrinsics, with the CPU features each needs.
struct X86FrontEnd {
    semantics: Vec<Semantics>,
    cpuids: BTreeMap<String, Vec<String>>,
    report: super::report::Report,
}

impl FrontEnd for X86FrontEnd {
    fn semantics(&self) -> &[Semantics] {
        &self.semantics
    }

    /// Merging fits numbers to the signature only: the autollvm dialect
    /// and the synthesis grammar are built from these classes.
    fn merging(&self) -> Merging {
        Merging { mask: MaskModel::WriteMask, numbers: Numbers::OfSignature }
    }

    fn title(&self) -> &'static str {
        "x86"
    }

    fn report(&self) -> Result<serde_json::Value, GenError> {
        Ok(serde_json::to_value(&self.report)?)
    }

    fn lowerings(
        &self,
        classes: &[SimilarityClass],
        opts: &GenOptions,
        progress: &dyn Progress,
    ) -> Result<Lowerings, GenError> {
        let semantics = &self.semantics;
        progress.update("x86 lower", 0, semantics.len());
        let scratch =
            tempfile::tempdir().map_err(|source| GenError::Write { path: "temporary directory".into(), source })?;
        let lowerings = super::lowering::lowerings(semantics, &opts.compiler, COST_CPU, scratch.path())
            .map_err(|e| GenError::isa("x86", e))?;
        progress.update("x86 lower", semantics.len(), semantics.len());
        progress.update("x86 cpu costs", 0, super::cpus::CPUS.cpus.len());
        let cpu_costs = super::cpus::CPUS
            .price(&super::lowering::cost_functions(semantics, &self.cpuids), &opts.compiler, scratch.path())
            .map_err(|e| GenError::isa("x86", e))?;
        progress.update("x86 cpu costs", super::cpus::CPUS.cpus.len(), super::cpus::CPUS.cpus.len());
        let cost_source =
            format!("machine instructions of the intrinsic alone, clang-22 -O1 -march={COST_CPU} (immediates = 1)");
        let dialect = "hydride_x86";
        let calls = super::llvm_call::llvm_calls(dialect, classes, semantics, &lowerings, &self.cpuids);
        let coverage = super::llvm_call::coverage(dialect, semantics, &lowerings, &calls);
        let per_member = lowerings
            .iter()
            .map(|(k, v)| Ok((k.clone(), serde_json::to_value(v)?)))
            .collect::<Result<_, GenError>>()?;
        Ok(Lowerings {
            database_fields: vec![("cost_source", cost_source)],
            per_member,
            table: calls.into_iter().map(|(op, call)| (op, super::op_lowering::op_lowering(call))).collect(),
            coverage: Some(serde_json::to_value(&coverage)?),
            cpu_costs: Some(cpu_costs),
        })
    }
}
