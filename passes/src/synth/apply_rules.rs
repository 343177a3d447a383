//! Offline rules applied to windows: the program rules give a whole
//! window, or the ops they give it down to values it computes, each
//! proved before use.

use super::block::{Dataflow, Window};
use super::grammar::Grammar;
use super::memo_text::decode;
use super::options::Options;
use super::plan::{new_ops, NewOp};
use super::program::{Program, Source, StepOp};
use super::proof_failure::ProofFailure;
use super::search::{Limits, Outcome};

/// The program offline rules give the whole window at the target, proved
/// (its leaves the lifted window's).
pub(super) fn by_rule(
    flow: &Dataflow,
    window: &Window,
    lifted: &Window,
    grammar: &Grammar,
    limits: &Limits,
) -> Option<Outcome> {
    let ruled = rules_for(flow, window, lifted, grammar, limits, false)?;
    let mut program = ruled.program;
    for step in &mut program.steps {
        for s in &mut step.operands {
            if let Source::Leaf(l) = s {
                *s = Source::Leaf(lifted.leaves.iter().position(|v| *v == ruled.leaves[*l])?);
            }
        }
    }
    if !no_dearer_on_cpu(flow, &window.ops, &program, grammar, limits) {
        return None;
    }
    let verdict = super::search::prove(flow, lifted, grammar, limits, &program);
    trace_rule(ruled.rule, &program, &verdict);
    verdict.ok().map(|()| Outcome::Found(program))
}

/// Largest window the rules with cuts look at, in ops.
pub(super) const RULE_WINDOW_OPS: usize = 48;

/// The ops rules give the window, down to values it computes that stay as
/// they are (read as inputs), proved over the ops replaced; with those ops.
/// Not memoized: a rule is a proof, not a search.
pub(super) fn by_rules_with_cuts(
    flow: &Dataflow,
    window: &Window,
    grammar: &Grammar,
    options: &Options,
) -> Option<(Vec<NewOp>, Vec<usize>)> {
    if options.limits.window_ms == 0 {
        return None;
    }
    let lifted = flow.lift_constants(window);
    let ruled = rules_for(flow, window, &lifted, grammar, &options.limits, true)?;
    let replaced = Window {
        ops: ruled.ops.iter().copied().filter(|p| flow.ops[*p].name != "arith.constant").collect(),
        leaves: ruled.leaves.clone(),
        root: window.root,
    };
    if !no_dearer_on_cpu(flow, &replaced.ops, &ruled.program, grammar, &options.limits) {
        return None;
    }
    let verdict = super::search::prove(flow, &replaced, grammar, &options.limits, &ruled.program);
    trace_rule(ruled.rule, &ruled.program, &verdict);
    verdict.ok()?;
    options.by_rules.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    Some((new_ops(grammar, &ruled.program, &replaced), ruled.ops))
}

/// Whether the rules' `program` is no dearer than the `ops` it replaces
/// on the CPU's model (the extraction counted instructions); true where
/// the CPU has no model or one side has no price.
fn no_dearer_on_cpu(flow: &Dataflow, ops: &[usize], program: &Program, grammar: &Grammar, limits: &Limits) -> bool {
    let before = super::op_price::cycles(limits.cpu, flow, ops.iter().map(|&p| &flow.ops[p]));
    match (before, program.cycles(grammar, limits.cpu)) {
        (Some(before), Some(after)) => after <= before + 1e-9,
        _ => true,
    }
}

fn rules_for(
    flow: &Dataflow,
    window: &Window,
    lifted: &Window,
    grammar: &Grammar,
    limits: &Limits,
    cuts: bool,
) -> Option<super::egraph::Ruled<'static>> {
    let rules = usable_rules(grammar, limits.target);
    let equalities = super::rules::RuleSet::embedded(grammar).map_or(&[][..], |s| &s.equalities[..]);
    super::egraph::by_rules(flow, window, lifted, grammar, rules, equalities, limits.target.register_bits(), cuts)
}

fn trace_rule(rule: &super::rules::Rule, program: &Program, verdict: &Result<(), ProofFailure>) {
    if std::env::var_os("HYDRIDE_SYNTH_TRACE").is_some() {
        eprintln!(
            "hydride: rules for {} ({}) give {} steps: {verdict:?}",
            rule.idiom,
            rule.target,
            program.steps.len()
        );
    }
}

/// Whether the target has every instruction of the rule's program.
fn rule_usable(grammar: &Grammar, rule: &super::rules::Rule, target: super::target::Target) -> bool {
    match decode(grammar, &rule.program) {
        Some(Outcome::Found(p)) => p.steps.iter().all(|s| match &s.op {
            StepOp::Instr { candidate, .. } => grammar.candidates[*candidate].allowed_on(target),
            StepOp::Swizzle(_) => true,
        }),
        _ => false,
    }
}

/// The embedded and recorded rules whose every instruction the target has
/// (once per target and grammar).
pub fn usable_rules(grammar: &Grammar, target: super::target::Target) -> &'static [super::rules::Rule] {
    use std::sync::{Mutex, OnceLock};
    type Usable = std::collections::HashMap<(String, u64), &'static [super::rules::Rule]>;
    static USABLE: OnceLock<Mutex<Usable>> = OnceLock::new();
    let map = USABLE.get_or_init(Default::default);
    let key = (target.name(), grammar.version);
    if let Some(r) = map.lock().ok().and_then(|m| m.get(&key).copied()) {
        return r;
    }
    let embedded = super::rules::RuleSet::embedded(grammar).map_or(&[][..], |s| &s.rules[..]);
    let usable: Vec<super::rules::Rule> =
        embedded.iter().chain(super::rules::recorded()).filter(|r| rule_usable(grammar, r, target)).cloned().collect();
    // Kept for the process's life, once per target (a handful).
    let usable: &'static [super::rules::Rule] = Box::leak(usable.into_boxed_slice());
    if let Ok(mut m) = map.lock() {
        m.insert(key, usable);
    }
    usable
}
