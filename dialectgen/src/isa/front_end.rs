//! What an ISA's front end gives `hydride gen` ([`super::Isa::front_end`]):
//! its validated semantics, how its classes are merged, the title of its
//! dialect and its report, and, once the classes are known, what each
//! instruction lowers to. Classification, the target dialect, the class
//! database and the file layout are the neutral pipeline's
//! (`crate::generate`), written once for every ISA.

use crate::classify::engine::{Numbers, SimilarityClass};
use crate::classify::mask::MaskModel;
use crate::gen_options::{GenError, GenOptions};
use crate::llvm_lowering::OpLowering;
use crate::sema::ir::Semantics;
use std::collections::{BTreeMap, HashMap};

/// How an ISA's instructions are merged into classes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Merging {
    pub mask: MaskModel,
    pub numbers: Numbers,
}

/// An ISA's front-end product; [`FrontEnd::lowerings`] keeps what the
/// front end learnt that its lowering needs (CPU features, costs, the
/// instructions' C names) inside the ISA.
pub trait FrontEnd: Send {
    /// The validated semantics, in the order the dialect lists them.
    fn semantics(&self) -> &[Semantics];
    /// How its classes are merged.
    fn merging(&self) -> Merging;
    /// What its dialect's description calls the ISA: its name for readers, not the folder name.
    fn title(&self) -> &'static str;
    /// Its report (`hydride gen --report`), as JSON.
    fn report(&self) -> Result<serde_json::Value, GenError>;
    /// What each instruction lowers to, given its classes.
    fn lowerings(
        &self,
        classes: &[SimilarityClass],
        opts: &GenOptions,
        progress: &dyn crate::progress::Progress,
    ) -> Result<Lowerings, GenError>;
}

/// What an ISA's instructions lower to.
pub struct Lowerings {
    /// Top-level fields of its class database besides the classes.
    pub database_fields: Vec<(&'static str, String)>,
    /// Each member's entry in the class database, by instruction name.
    pub per_member: HashMap<String, serde_json::Value>,
    /// What each op of its target dialect (`hydride_<isa>.<op>`) becomes in
    /// LLVM; ops hydride emits no lowering for are absent. Written as
    /// `generated/<isa>/llvm-lowering.json`.
    pub table: BTreeMap<String, OpLowering>,
    /// How many instructions have a lowering, of which form, for the report.
    pub coverage: Option<serde_json::Value>,
    /// What each instruction costs on each CPU of the ISA's set
    /// (`crate::cpu_costs`), written as `generated/<isa>/cpu-costs.json`.
    pub cpu_costs: Option<crate::cpu_costs::CpuCosts>,
}
