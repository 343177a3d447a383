//! The HVX part of `hydride gen`: semantics validated under qemu-hexagon,
//! and the LLVM intrinsic and cost of each instruction.

use super::c::macros::MacroTable;
use super::data::HvxSources;
use super::front::{self, FrontEndError};
use super::harness::{self, HarnessConfig};
use super::report::{self, HvxReport};
use super::validate::{self, HvxOutcome};
use crate::classify::engine::{Numbers, SimilarityClass};
use crate::classify::mask::MaskModel;
use crate::design::build;
use crate::gen_options::{GenError, GenOptions};
use crate::isa::front_end::{FrontEnd, Lowerings, Merging};
use crate::isa::Progress;
use crate::llvm_lowering::{Body, OpLowering, Signature};
use crate::sema::ir::Semantics;
use std::collections::BTreeMap;

/// Qualcomm Hexagon HVX in the ISA registry.
pub struct Hvx;

/// The LLVM intrinsic of an instruction: `V6_vaddhsat` → `llvm.hexagon.V6.vaddhsat.128B`.
pub fn llvm_intrinsic(tag: &str) -> String {
    format!("llvm.hexagon.{}.128B", tag.replace('_', "."))
}

/// A member's lowering in the class database: the LLVM intrinsic, and what
/// it costs ([`super::data::Definition::cost`]).
#[derive(serde::Serialize)]
struct HvxLowering {
    llvm_intrinsic: String,
    cost: u32,
}

fn err(e: impl std::error::Error + Send + Sync + 'static) -> GenError {
    GenError::isa("hvx", e)
}

impl crate::isa::Isa for Hvx {
    fn front_end_command(&self, cmd: clap::Command) -> clap::Command {
        super::cli::command(cmd)
    }

    fn run_front_end(&self, matches: &clap::ArgMatches, progress: &dyn Progress) -> anyhow::Result<()> {
        super::cli::run(matches, progress)
    }

    fn name(&self) -> &'static str {
        "hvx"
    }

    fn front_end(&self, opts: &GenOptions, progress: &dyn Progress) -> Result<Box<dyn FrontEnd>, GenError> {
        let specs = opts.specs_dir.join("hvx");
        let macros = MacroTable::load(&specs.join("macros.yaml"), Some("f")).map_err(err)?;
        let corrections_path = specs.join("definition-corrections.yaml");
        let corrections = if corrections_path.exists() {
            front::load_corrections(&corrections_path).map_err(err)?
        } else {
            Vec::new()
        };
        progress.update("hvx translate", 0, 1);
        let fe =
            front::run(&HvxSources::under(&opts.isa_data), &macros, &corrections).map_err(|e: FrontEndError| err(e))?;
        progress.update("hvx translate", 1, 1);
        let mut outcomes: Vec<Option<HvxOutcome>> = vec![None; fe.in_scope.len()];
        if opts.validate {
            if !harness::qemu().available() {
                return Err(err(std::io::Error::other(
                    "qemu-hexagon is not installed (scripts/setup installs qemu-user)",
                )));
            }
            let scratch = tempfile::tempdir().map_err(err)?;
            let cfg = HarnessConfig::new(opts.compiler.clone(), scratch.path().to_path_buf());
            progress.update("hvx run", 0, 1);
            outcomes = validate::validate(&fe.in_scope, &fe.info, &cfg);
            progress.update("hvx run", 1, 1);
        }
        let report = report::build(&fe, &outcomes);
        if report.mismatched > 0 {
            return Err(err(std::io::Error::other(format!(
                "{} HVX instructions disagree with qemu-hexagon (run `hydride isa hvx --validate --verbose`)",
                report.mismatched
            ))));
        }
        let semantics: Vec<Semantics> = fe
            .in_scope
            .iter()
            .zip(&outcomes)
            .filter(|(_, o)| !opts.validate || matches!(o, Some(HvxOutcome::Validated { .. })))
            .filter_map(|(t, _)| t.result.clone().ok())
            .collect();
        let costs = fe.in_scope.iter().map(|t| (t.def.tag.clone(), t.def.cost())).collect();
        Ok(Box::new(HvxFrontEnd { report, semantics, costs }))
    }
}

/// The definitions translated and validated, with each one's cost.
struct HvxFrontEnd {
    report: HvxReport,
    semantics: Vec<Semantics>,
    /// Each definition's cost, by its tag ([`super::data::Definition::cost`]).
    costs: BTreeMap<String, u32>,
}

impl FrontEnd for HvxFrontEnd {
    fn semantics(&self) -> &[Semantics] {
        &self.semantics
    }

    /// Classes whose members differ in numbers keep each member's values.
    fn merging(&self) -> Merging {
        Merging { mask: MaskModel::None, numbers: Numbers::OrMembersValues }
    }

    fn title(&self) -> &'static str {
        "Hexagon HVX (128-byte vectors)"
    }

    fn report(&self) -> Result<serde_json::Value, GenError> {
        Ok(serde_json::to_value(&self.report)?)
    }

    fn lowerings(&self, _: &[SimilarityClass], _: &GenOptions, _: &dyn Progress) -> Result<Lowerings, GenError> {
        let intrinsics: BTreeMap<String, String> =
            self.semantics.iter().map(|s| (s.name.clone(), llvm_intrinsic(&s.name))).collect();
        let per_member = intrinsics
            .iter()
            .filter_map(|(n, i)| Some((n, HvxLowering { llvm_intrinsic: i.clone(), cost: *self.costs.get(n)? })))
            .map(|(n, l)| Ok((n.clone(), serde_json::to_value(l)?)))
            .collect::<Result<_, GenError>>()?;
        // Every value passes as 32-bit words (`Signature::Words`).
        let table = intrinsics
            .iter()
            .map(|(k, name)| {
                let body =
                    Body::Intrinsic { name: name.clone(), args: None, signature: Signature::Words, generic: None };
                let lowering = OpLowering { body, features: vec!["hvx".into()], select: None, generic_ir: false };
                (format!("hydride_hvx.{}", build::op_name(k)), lowering)
            })
            .collect();
        Ok(Lowerings { database_fields: Vec::new(), per_member, table, coverage: None, cpu_costs: None })
    }
}
