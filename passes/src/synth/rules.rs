//! Offline rewrite rules (the MISAAL direction): for each idiom of
//! [`super::idioms`] and each target an ISA's [`OfflineRules`] name, the
//! synthesizer finds and proves the cheapest program computing it, at
//! generation time; the pair (pattern, program) is a rule, stored in
//! `generated/<isa>/rules.json`
//! (`hydride-rules`, run by `scripts/regen`, checked fresh by
//! `scripts/regen --check`). Online, [`super::egraph`] matches rules
//! against a window by equality saturation before any search.

use super::block::{BlockOp, Dataflow, Window};
use super::grammar::Grammar;
use super::proof_failure::ProofFailure;
use super::search::{synthesize, Limits, Outcome};
use super::semantics::synthesizable;
use super::target::{Isa, Target};
use crate::ir::parse::ParseError;
use crate::targets::{OfflineRules, MAX_ISAS};
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// A rule's left-hand side: ops named by [`symbol`], over holes (the
/// window's inputs) and constants (ops without operands).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pattern {
    Hole(usize),
    Op { op: String, args: Vec<Pattern> },
}

/// What a program's leaf is bound to: a hole of the pattern, or the
/// constant with this symbol.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RuleLeaf {
    Hole(usize),
    Constant(String),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rule {
    /// The idiom it was found for.
    pub idiom: String,
    /// The target whose grammar the program is drawn from.
    pub target: String,
    pub lhs: Pattern,
    /// The program's leaves, in order.
    pub leaves: Vec<RuleLeaf>,
    /// The program, as the memo writes one (`found i INTRINSIC L0,L1 ;` …).
    pub program: String,
    /// Its cost in the grammar's cost model.
    pub cost: usize,
}

/// Two spellings of one computation over the same holes, proved equal: the
/// e-graph may rewrite the first into the second.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Equality {
    pub name: String,
    pub lhs: Pattern,
    pub rhs: Pattern,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RuleSet {
    #[serde(rename = "_generated_by")]
    pub generated_by: String,
    /// The grammar the programs were found in ([`Grammar::version`], hex).
    pub grammar: String,
    /// Idioms tried per target.
    pub idioms: usize,
    pub rules: Vec<Rule>,
    /// Proved identities ([`super::idioms::identities`]).
    pub equalities: Vec<Equality>,
}

impl RuleSet {
    /// The rules built into the plugin, if they were made from this grammar
    /// (rules from another grammar are not used: `scripts/regen --check`
    /// keeps them fresh).
    pub fn embedded(grammar: &Grammar) -> Option<&'static RuleSet> {
        static RULES: [OnceLock<Option<RuleSet>>; MAX_ISAS] = [const { OnceLock::new() }; MAX_ISAS];
        let set = RULES[grammar.isa.index()]
            .get_or_init(|| serde_json::from_str(grammar.isa.of().offline_rules()?.generated).ok());
        set.as_ref().filter(|s| s.grammar == format!("{:016x}", grammar.version))
    }
}

/// An op as the e-graph names it: name, operand and result types, attributes.
pub fn symbol(op: &BlockOp) -> String {
    let types = |ts: &[Option<super::types::Ty>]| {
        ts.iter().map(|t| t.as_ref().map_or("?".to_string(), |t| t.to_string())).collect::<Vec<_>>().join(",")
    };
    let attrs: Vec<String> = op.attributes.iter().map(|(n, v)| format!("{n}={v}")).collect();
    format!("{}({})->({}){{{}}}", op.name, types(&op.operand_types), types(&op.result_types), attrs.join(";"))
        .replace(char::is_whitespace, "_")
}

/// The pattern a window computes: its root's expression tree, leaves as
/// holes numbered in `lifted`'s order, constants as nullary ops. `None`
/// for a window with an op of several results.
pub fn pattern_of(flow: &Dataflow, window: &Window, lifted: &Window) -> Option<Pattern> {
    fn build(flow: &Dataflow, window: &Window, lifted: &Window, value: usize, depth: usize) -> Option<Pattern> {
        if let Some(op) = flow.constant(value) {
            return Some(Pattern::Op { op: symbol(op), args: Vec::new() });
        }
        let def = window.ops.iter().copied().find(|&p| flow.ops[p].results.contains(&value));
        match def {
            Some(p) if depth < 32 => {
                let op = &flow.ops[p];
                if op.results.len() != 1 {
                    return None;
                }
                let args = op
                    .operands
                    .iter()
                    .map(|v| build(flow, window, lifted, *v, depth + 1))
                    .collect::<Option<Vec<_>>>()?;
                Some(Pattern::Op { op: symbol(op), args })
            }
            Some(_) => None,
            None => lifted.leaves.iter().position(|l| *l == value).map(Pattern::Hole),
        }
    }
    let root = flow.ops[window.root].results.first().copied()?;
    build(flow, window, lifted, root, 0)
}

/// How a program's leaves bind: a variable leaf is the pattern's hole of
/// the same number; a constant leaf is named by its symbol.
pub fn leaves_of(flow: &Dataflow, lifted: &Window) -> Vec<RuleLeaf> {
    lifted
        .leaves
        .iter()
        .enumerate()
        .map(|(i, v)| match flow.constant(*v) {
            Some(op) => RuleLeaf::Constant(symbol(op)),
            None => RuleLeaf::Hole(i),
        })
        .collect()
}

/// The rule one idiom's block yields at `target`, if the synthesizer finds
/// and proves a program for the whole idiom (its ops but the return).
pub fn rule_for(idiom: &str, ops: &[BlockOp], grammar: &Grammar, target: Target) -> Option<Rule> {
    let flow = Dataflow::new(ops);
    let window = whole_window(&flow, ops, 16)?;
    let lifted = flow.lift_constants(&window);
    let limits = Limits { target, cpu: target.cpu("").ok()?, ..Limits::default() };
    let Outcome::Found(program) = synthesize(&flow, &lifted, grammar, &limits) else { return None };
    Some(Rule {
        idiom: idiom.to_string(),
        target: target.name(),
        lhs: pattern_of(&flow, &window, &lifted)?,
        leaves: leaves_of(&flow, &lifted),
        cost: program.cost(grammar),
        program: super::memo_text::encode(grammar, &Outcome::Found(program)),
    })
}

/// The window computing a one-function block's returned value (the ops but
/// the return), or `None` if the window does not hold them all.
fn whole_window(flow: &Dataflow, ops: &[BlockOp], max_ops: usize) -> Option<Window> {
    let ret = ops.iter().rposition(|o| o.name == "func.return")?;
    let value = *ops[ret].operands.first()?;
    let root = ops.iter().position(|o| o.results.contains(&value))?;
    let accept = |o: &BlockOp| synthesizable(o) && o.unmodelled_vectors.is_empty() && !o.has_regions;
    let window = flow.window(root, max_ops, 64, true, &accept);
    (window.ops.len() == ret).then_some(window)
}

/// Why an idiom or identity gives no rule.
#[derive(Debug, thiserror::Error)]
pub enum RuleError {
    #[error(transparent)]
    Parse(#[from] ParseError),
    #[error("not one function")]
    NotOneFunction,
    /// Which side (`left`, `right`) is not one window.
    #[error("the {0} side is not one window")]
    NotOneWindow(&'static str),
    #[error(transparent)]
    Unproved(#[from] ProofFailure),
    #[error("a side has an op of several results")]
    SeveralResults,
    /// An ISA (its name) whose target declares no offline rules.
    #[error("{0} has no offline rules")]
    NoOfflineRules(&'static str),
    /// An idiom or identity (its kind and name) that gives no rule.
    #[error("{kind} {name}: {why}")]
    Of { kind: &'static str, name: String, why: Box<RuleError> },
}

impl RuleError {
    fn of<'n>(kind: &'static str, name: &'n str) -> impl FnOnce(RuleError) -> RuleError + 'n {
        move |why| RuleError::Of { kind, name: name.to_string(), why: Box::new(why) }
    }
}

/// An identity's two sides as patterns, if Z3 proves them equal.
pub fn equality_for(identity: &super::idioms::Identity) -> Result<Equality, RuleError> {
    let side = |mlir: &str| -> Result<Vec<BlockOp>, RuleError> {
        let mut f = crate::ir::parse::functions(mlir)?;
        (f.len() == 1).then(|| f.remove(0).1).ok_or(RuleError::NotOneFunction)
    };
    let (lops, rops) = (side(&identity.lhs)?, side(&identity.rhs)?);
    let (lf, rf) = (Dataflow::new(&lops), Dataflow::new(&rops));
    let lw = whole_window(&lf, &lops, 64).ok_or(RuleError::NotOneWindow("left"))?;
    let rw = whole_window(&rf, &rops, 64).ok_or(RuleError::NotOneWindow("right"))?;
    super::proof::windows_equal((&lf, &lw), (&rf, &rw), 20_000)?;
    let pattern = |f: &Dataflow, w: &Window| pattern_of(f, w, &f.lift_constants(w)).ok_or(RuleError::SeveralResults);
    Ok(Equality { name: identity.name.clone(), lhs: pattern(&lf, &lw)?, rhs: pattern(&rf, &rw)? })
}

/// The ISAs that have offline rules, with them.
pub fn isas_with_rules() -> impl Iterator<Item = (Isa, OfflineRules)> {
    Isa::all().filter_map(|isa| Some((isa, isa.of().offline_rules()?)))
}

/// Every idiom at every target of `grammar`'s ISA's offline rules: the
/// rules found, in idiom order, each reported to `progress` as it is tried.
pub fn generate(grammar: &Grammar, progress: &mut dyn FnMut(String)) -> Result<RuleSet, RuleError> {
    let offline = grammar.isa.of().offline_rules().ok_or(RuleError::NoOfflineRules(grammar.isa.name()))?;
    let idioms = super::idioms::idioms(offline.widths);
    let mut rules = Vec::new();
    for idiom in &idioms {
        let functions =
            crate::ir::parse::functions(&idiom.mlir).map_err(|e| RuleError::of("idiom", &idiom.name)(e.into()))?;
        let [(_, ops)] = functions.as_slice() else {
            return Err(RuleError::of("idiom", &idiom.name)(RuleError::NotOneFunction));
        };
        for target in offline.targets.iter().map(|t| Target::named(t)) {
            let rule = rule_for(&idiom.name, ops, grammar, target);
            progress(match &rule {
                Some(r) => format!("{} at {}: {} (cost {})", idiom.name, target.name(), r.program, r.cost),
                None => format!("{} at {}: no program found", idiom.name, target.name()),
            });
            rules.extend(rule);
        }
    }
    let mut equalities = Vec::new();
    for identity in super::idioms::identities(offline.widths) {
        let e = equality_for(&identity).map_err(RuleError::of("identity", &identity.name))?;
        progress(format!("{}: proved", identity.name));
        equalities.push(e);
    }
    Ok(RuleSet {
        equalities,
        generated_by: "DO NOT EDIT: written by hydride-rules (scripts/regen), synthesized and proved from the idioms of passes/src/synth/idioms.rs".into(),
        grammar: format!("{:016x}", grammar.version),
        idioms: idioms.len(),
        rules,
    })
}

/// Where the search's findings are recorded as rules (one JSON rule per
/// line, appended), and read back as rules beside the embedded ones.
pub const RECORD_VARIABLE: &str = "HYDRIDE_RULES";

/// Appends what the search found for a window to the file named by
/// [`RECORD_VARIABLE`], if it is set, as a rule for the window's pattern:
/// the next compilation that reads the file applies it by equality
/// saturation (proved again, like every rule) instead of searching. A write
/// that fails is not reported: the file is a cache of findings.
pub fn record(
    flow: &Dataflow,
    window: &Window,
    lifted: &Window,
    grammar: &Grammar,
    target: Target,
    program: &super::program::Program,
) {
    let Some(path) = std::env::var_os(RECORD_VARIABLE) else { return };
    let Some(lhs) = pattern_of(flow, window, lifted) else { return };
    let rule = Rule {
        idiom: "recorded".into(),
        target: target.name(),
        lhs,
        leaves: leaves_of(flow, lifted),
        program: super::memo_text::encode(grammar, &Outcome::Found(program.clone())),
        cost: program.cost(grammar),
    };
    let Ok(mut line) = serde_json::to_string(&rule) else { return };
    line.push('\n');
    use std::io::Write;
    // One write of the whole line to a file opened for appending: lines
    // from processes writing at once do not interleave.
    if let Ok(mut f) = std::fs::OpenOptions::new().create(true).append(true).open(path) {
        let _ = f.write_all(line.as_bytes());
    }
}

/// The rules recorded in the file named by [`RECORD_VARIABLE`] (lines that
/// do not read as rules are skipped), read once per process.
pub fn recorded() -> &'static [Rule] {
    static RECORDED: OnceLock<Vec<Rule>> = OnceLock::new();
    RECORDED.get_or_init(|| {
        let Some(path) = std::env::var_os(RECORD_VARIABLE) else { return Vec::new() };
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let mut rules: Vec<Rule> = text.lines().filter_map(|l| serde_json::from_str(l).ok()).collect();
        rules.dedup();
        rules
    })
}
