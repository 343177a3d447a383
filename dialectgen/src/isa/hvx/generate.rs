//! The HVX part of `hydride gen`: validated semantics, their similarity
//! classes, the `hydride_hvx` dialect and the LLVM intrinsic of each op.

use super::c::macros::MacroTable;
use super::data::HvxSources;
use super::front::{self, FrontEndError};
use super::harness::{self, HarnessConfig};
use super::report;
use super::validate::{self, HvxOutcome};
use crate::classify::engine::{classify, Numbers};
use crate::design::build;
use crate::gen_options::{GenError, GenOptions};
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

    fn run_front_end(&self, matches: &clap::ArgMatches, progress: &dyn crate::isa::Progress) -> anyhow::Result<()> {
        super::cli::run(matches, progress)
    }

    fn name(&self) -> &'static str {
        "hvx"
    }

    fn generate(
        &self,
        opts: &GenOptions,
        progress: &dyn crate::isa::Progress,
    ) -> Result<crate::isa::IsaOutput, GenError> {
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
        let rep = report::build(&fe, &outcomes);
        if rep.mismatched > 0 {
            return Err(err(std::io::Error::other(format!(
                "{} HVX instructions disagree with qemu-hexagon (run `hydride isa hvx --validate --verbose`)",
                rep.mismatched
            ))));
        }
        let semantics: Vec<Semantics> = fe
            .in_scope
            .iter()
            .zip(&outcomes)
            .filter(|(_, o)| !opts.validate || matches!(o, Some(HvxOutcome::Validated { .. })))
            .filter_map(|(t, _)| t.result.clone().ok())
            .collect();
        progress.update("hvx classify", 0, semantics.len());
        let (classes, stats) =
            classify(&semantics, opts.timeout_ms, crate::classify::mask::MaskModel::None, Numbers::OrMembersValues);
        progress.update("hvx classify", semantics.len(), semantics.len());
        let dialect = build::target_dialect(
            "hydride_hvx",
            "Hexagon HVX (128-byte vectors)",
            &semantics,
            crate::gen_options::GENERATED_BY,
        );
        let intrinsics: BTreeMap<String, String> =
            semantics.iter().map(|s| (s.name.clone(), llvm_intrinsic(&s.name))).collect();
        let costs: BTreeMap<&str, u32> = fe.in_scope.iter().map(|t| (t.def.tag.as_str(), t.def.cost())).collect();
        let lowering = |n: &str| Some(HvxLowering { llvm_intrinsic: intrinsics.get(n)?.clone(), cost: *costs.get(n)? });
        let db = crate::gen_tables::class_database("hvx", &[], &classes, lowering)
            .map_err(|e| err(std::io::Error::other(e.to_string())))?;
        let calls: BTreeMap<String, String> =
            intrinsics.iter().map(|(k, v)| (format!("hydride_hvx.{}", build::op_name(k)), v.clone())).collect();
        let calls = crate::gen_tables::one_entry_per_line(calls.iter().map(|(k, v)| (k.clone(), v)))?;
        Ok(crate::isa::IsaOutput {
            semantics,
            classes,
            stats,
            dialect,
            report: serde_json::to_value(&rep)?,
            files: vec![("hvx/class-database.json".into(), db), ("hvx/llvm-intrinsics.json".into(), calls)],
        })
    }
}
