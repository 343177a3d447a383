//! `lower-to-autollvm` for one block: windows from the last op backwards,
//! each replaced by the cheapest proved program (class ops and swizzles),
//! or left alone with the reason. The answer is a [`Plan`] that
//! `crate::ir::synthesize` applies to the IR.

use super::block::{BlockOp, Dataflow, Window};
use super::cache::Cache;
use super::grammar::{Grammar, Target};
use super::memo_text::{canonical, decode, encode};
use super::pieces::{instantiate, instantiate_widened, piece_block, widened_block};
use super::plan::{new_ops, new_ops_reading};
pub use super::plan::{NewOp, Plan, Ref, Rewrite};
use super::program::{Program, Source, Step, StepOp};
use super::proof_failure::ProofFailure;
use super::search::{synthesize, Budget, Limits, Outcome, Unchanged};
use super::semantics::{supported, synthesizable};
use super::types::Ty;
use std::collections::BTreeSet;

pub struct Options {
    pub cache: Cache,
    pub limits: Limits,
    /// Largest window, in ops.
    pub max_ops: usize,
    /// Wall-clock limit per block, in ms: once spent, the block's remaining
    /// windows are left unchanged, and a window's search stops there too.
    pub block_ms: u64,
    /// Windows an offline rule has given a program (not the memo, not the search).
    pub by_rules: std::sync::atomic::AtomicUsize,
}

impl Options {
    /// The options `lower-to-autollvm` was given: target name, Z3 budget
    /// per proof, wall-clock limits per window and per block, largest
    /// window, two-step budget.
    pub fn new(
        target: &str,
        proof_ms: u32,
        window_ms: u64,
        block_ms: u64,
        max_ops: usize,
        two_step_budget: usize,
        cache: Cache,
    ) -> Result<Options, String> {
        let limits = Limits {
            target: Target::parse(target)?,
            proof_ms,
            window_ms,
            evaluations: two_step_budget,
            ..Limits::default()
        };
        Ok(Options { cache, limits, max_ops: max_ops.max(1), block_ms, by_rules: Default::default() })
    }
}

/// Window remarks per block; the rest are counted in its summary.
pub use super::plan::MAX_WINDOW_REMARKS;

/// Widest vector a window may hold, in target registers: wider ones (a
/// `vector<65536xi8>`) are left to LLVM, whose cost grows with the width
/// where synthesis's screening and proofs grow faster.
pub const MAX_WINDOW_REGISTERS: u32 = 64;

/// How many of the target's widest instruction results a window's result
/// may span and still be searched at its own width (see [`lower_block`]).
const WIDEST_RESULTS: u32 = 4;

/// The widest result of an instruction the target has, in bits.
fn widest_result(grammar: &Grammar, target: super::target::Target) -> u32 {
    grammar.candidates.iter().filter(|c| c.allowed_on(target)).map(|c| c.result.bits()).max().unwrap_or(0)
}

pub fn lower_block(ops: &[BlockOp], grammar: &Grammar, options: &Options) -> Plan {
    let flow = Dataflow::new(ops);
    let mut consumed: BTreeSet<usize> = BTreeSet::new();
    let mut plan = Plan::default();
    // Windows searched, rewritten, and left unchanged by reason (numbers
    // stripped), for the block's summary.
    let (mut searched, mut rewritten) = (0usize, 0usize);
    let rules_before = options.by_rules.load(std::sync::atomic::Ordering::Relaxed);
    let mut unchanged: std::collections::BTreeMap<String, usize> = std::collections::BTreeMap::new();
    let deadline = std::time::Instant::now() + std::time::Duration::from_millis(options.block_ms);
    let widest = MAX_WINDOW_REGISTERS * options.limits.target.register_bits();
    let widest_result = widest_result(grammar, options.limits.target);
    // Window remarks past the first MAX_WINDOW_REMARKS of the block, counted only.
    let mut unshown = 0usize;
    // Ops computing from constants alone are LLVM's to fold: rewritten
    // into target instructions, they would hide a constant from an op left
    // to LLVM (a division by a constant needs a library routine on Hexagon).
    let mut from_constants = vec![false; ops.len()];
    for (p, op) in ops.iter().enumerate() {
        let constant = |v: &usize| flow.defining_op(*v).is_some_and(|d| from_constants[d]);
        from_constants[p] = op.name == "arith.constant"
            || (!op.operands.is_empty() && !op.has_regions && op.operands.iter().all(constant));
    }
    for root in (0..ops.len()).rev() {
        let op = &ops[root];
        if consumed.contains(&root)
            || !synthesizable(op)
            || !op.unmodelled_vectors.is_empty()
            || op.has_regions
            || op.results.len() != 1
            || from_constants[root]
        {
            continue;
        }
        // Bounds on hostile input: the block's time, the vectors' width.
        let over_time = std::time::Instant::now() > deadline;
        let bits = op.operand_types.iter().chain(&op.result_types).flatten().map(Ty::bits).max().unwrap_or(0);
        let bound = if over_time {
            Some(format!("the block's time limit of {} ms was spent", options.block_ms))
        } else if bits > widest {
            Some(format!(
                "its vectors are wider than {MAX_WINDOW_REGISTERS} registers of the target ({widest} bits); left to LLVM"
            ))
        } else {
            None
        };
        if let Some(why) = bound {
            searched += 1;
            *unchanged.entry(reason_kind(&why)).or_default() += 1;
            // Out of time: counted in the summary only (there may be thousands).
            if over_time {
                continue;
            }
            let text = format!("window at this op not searched (target {}): {why}", options.limits.target.name());
            plan.remark_capped(root, text, &mut unshown);
            continue;
        }
        let accept = |o: &BlockOp| synthesizable(o) && o.unmodelled_vectors.is_empty() && !o.has_regions;
        // The window without values read twice, then, if that finds
        // nothing, with them joined where all their readers are inside
        // (`max(x, y) - min(x, y)`, a clamp by compare and select): the
        // smaller window is what was searched before, and often has a
        // program where the larger has none.
        let mut tried: Vec<Window> = Vec::new();
        let mut result = None;
        for join_shared in [false, true] {
            let window = flow.window(root, options.max_ops, 8, join_shared, &accept);
            let window =
                Window { ops: window.ops.iter().copied().filter(|p| !consumed.contains(p)).collect(), ..window };
            let computing = window.ops.iter().filter(|p| ops[**p].name != "arith.constant").count();
            if computing < 2 || tried.contains(&window) {
                continue;
            }
            tried.push(window.clone());
            let lifted = flow.lift_constants(&window);
            // A program's result is its last step's: a window whose result
            // is more than twice as wide as a pair of the target's widest
            // results has none at its width, and is searched by pieces only
            // (a search at its width costs time in proportion to it).
            let root_bits = ops[root].result_types.iter().flatten().map(Ty::bits).max().unwrap_or(0);
            let outcome = if root_bits > WIDEST_RESULTS * widest_result {
                Outcome::Unchanged(Unchanged::TooWide { bits: root_bits, times: WIDEST_RESULTS })
            } else {
                memo_or_synthesize(&flow, &window, &lifted, grammar, options, deadline)
            };
            let found = match outcome {
                Outcome::Found(program) => Ok(new_ops(grammar, &program, &lifted)),
                Outcome::Unchanged(why) => by_pieces(&flow, &window, grammar, options, deadline)
                    .or_else(|| by_widening(&flow, &window, grammar, options, deadline))
                    .ok_or_else(|| why.to_string()),
            };
            let done = found.is_ok();
            result = Some((window, computing, found));
            if done {
                break;
            }
        }
        let Some((window, computing, found)) = result else { continue };
        searched += 1;
        // Rules down to values the window computes, left in place, where
        // nothing covers the window whole; then a chain of products by
        // constants ending here, two at a time.
        let found = match found {
            Ok(new) => Ok((new, window.ops.clone())),
            Err(why) => {
                let wide = flow.window(root, RULE_WINDOW_OPS, 16, true, &accept);
                let wide = Window { ops: wide.ops.iter().copied().filter(|p| !consumed.contains(p)).collect(), ..wide };
                match by_rules_with_cuts(&flow, &wide, grammar, options) {
                    Some(found) => Ok(found),
                    None => match by_products(&flow, root, &consumed, grammar, options, deadline) {
                        Some(Ok(found)) => Ok(found),
                        Some(Err(chain)) => Err(format!("{why}; {chain}")),
                        None => Err(why),
                    },
                }
            }
        };
        match found {
            Ok((new, replaced)) => {
                rewritten += 1;
                // Ops read outside the window (constants, an extension a
                // chain of products shares) stay for other windows; they go
                // once nothing reads them.
                let read_outside = |p: usize| {
                    p != root && ops[p].results.iter().any(|r| flow.readers(*r).iter().any(|q| !replaced.contains(q)))
                };
                consumed.extend(replaced.iter().filter(|p| ops[**p].name != "arith.constant" && !read_outside(**p)));
                plan.rewrites.push(Rewrite { root, ops: new, window: replaced });
            }
            Err(why) => {
                *unchanged.entry(reason_kind(&why)).or_default() += 1;
                let text = format!(
                    "window of {computing} ops left unchanged (target {}): {why}",
                    options.limits.target.name()
                );
                plan.remark_capped(root, text, &mut unshown);
            }
        }
    }
    for (pos, op) in ops.iter().enumerate() {
        if let Some(why) = not_understood(op) {
            plan.remark_capped(pos, why, &mut unshown);
        }
    }
    if searched == 0 && unshown > 0 {
        plan.remarks.push((
            ops.len() - 1,
            format!("hydride-synthesize: {unshown} more ops of this block left to LLVM without a remark of their own (at most {MAX_WINDOW_REMARKS} per block)"),
        ));
    }
    if searched > 0 {
        let allowed = grammar.candidates.iter().filter(|c| c.allowed_on(options.limits.target)).count();
        let intrinsics =
            grammar.candidates.iter().filter(|c| !c.generic && c.allowed_on(options.limits.target)).count();
        let reasons: Vec<String> = unchanged.iter().map(|(why, n)| format!("{n}: {why}")).collect();
        let by_rules = options.by_rules.load(std::sync::atomic::Ordering::Relaxed) - rules_before;
        plan.remarks.push((
            ops.len() - 1,
            format!(
                "hydride-synthesize searched {searched} windows of this block at target {}: programs of one target intrinsic, or two instructions holding one, or three: one instruction over two one-step values (budget {} pairings, a quarter of them for three), of a matrix result also its transpose, over the {allowed} instructions of the grammar the target has ({intrinsics} of them intrinsics), after the offline rules; {rewritten} rewritten ({by_rules} by a rule, not from the memo), {} left unchanged{}{}",
                options.limits.target.name(),
                options.limits.evaluations,
                searched - rewritten,
                if reasons.is_empty() { "" } else { " (" },
                if reasons.is_empty() { String::new() } else { reasons.join("; ") + ")" },
            ) + &if unshown > 0 { format!("; {unshown} more remarks of this block not shown (at most {MAX_WINDOW_REMARKS} per block)") } else { String::new() },
        ));
    }
    plan.remarks.sort_by_key(|(pos, _)| std::cmp::Reverse(*pos));
    plan
}

/// `prove`'s verdict on a rewrite of `window` that a normalization makes
/// (`what` names it), memoized like a search's outcome: a proof that held
/// is not run again while the memo holds its tagged entry. Failures are
/// not memoized.
pub fn proved_once<E>(
    options: &Options,
    what: &str,
    flow: &Dataflow,
    window: &Window,
    prove: impl FnOnce() -> Result<(), E>,
) -> Result<(), E> {
    let key = format!("{what}\n{}", canonical(flow, window, &options.limits, 0));
    if proved_here(&key, false) || options.cache.get(&key).as_deref() == Some("proved") {
        return Ok(());
    }
    prove()?;
    options.cache.put(&key, "proved");
    proved_here(&key, true);
    Ok(())
}

/// The proofs this process has made, by key (at most [`PROVED_HERE`]):
/// a block of a thousand copies of one rewrite proves it once, with or
/// without a memo directory. With `insert`, `key` is added.
fn proved_here(key: &str, insert: bool) -> bool {
    use std::collections::HashSet;
    use std::sync::{Mutex, OnceLock, PoisonError};
    static PROVED: OnceLock<Mutex<HashSet<String>>> = OnceLock::new();
    let mut proved = PROVED.get_or_init(Default::default).lock().unwrap_or_else(PoisonError::into_inner);
    if insert && proved.len() < PROVED_HERE {
        proved.insert(key.to_string());
    }
    proved.contains(key)
}

/// The most proofs a process remembers besides the memo directory.
const PROVED_HERE: usize = 4096;

/// The window's outcome from the memo, or synthesized (and memoized unless
/// its time ran out).
fn memo_or_synthesize(
    flow: &Dataflow,
    window: &Window,
    lifted: &Window,
    grammar: &Grammar,
    options: &Options,
    deadline: std::time::Instant,
) -> Outcome {
    let key = canonical(flow, window, &options.limits, grammar.version);
    if let Some(o) = options.cache.get(&key).and_then(|t| decode(grammar, &t)) {
        // A program from the memo is checked against its window on fresh
        // samples (an entry a fault wrote is not trusted); one that differs
        // is searched and proved again, and its entry replaced.
        match &o {
            Outcome::Found(program) if !super::screen::agrees_on_fresh_samples(flow, lifted, grammar, program) => {}
            _ => return o,
        }
    }
    // A fault in synthesis costs this window, not the compilation. Offline
    // rules first (a proof, no search); the search where none applies.
    let attempt = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        // A window given no time gets no rule either.
        let ruled = (options.limits.window_ms > 0).then(|| by_rule(flow, window, lifted, grammar, &options.limits));
        match ruled.flatten() {
            Some(o) => {
                options.by_rules.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                o
            }
            None => {
                // A window's search ends with its block's time too.
                let left = deadline.saturating_duration_since(std::time::Instant::now()).as_millis() as u64;
                // Where less is left of the block than a proof's budget, the
                // proofs get what is left, and a window whose proof that left
                // unknown is out of time (not memoized: with its full budget
                // the proof may hold). Elsewhere the limits are the pass's.
                let cut = left < u64::from(options.limits.proof_ms);
                let limits = Limits {
                    window_ms: options.limits.window_ms.min(left.max(1)),
                    proof_ms: if cut {
                        u32::try_from(left).unwrap_or(u32::MAX).max(1)
                    } else {
                        options.limits.proof_ms
                    },
                    ..options.limits.clone()
                };
                let t0 = std::time::Instant::now();
                let o = synthesize(flow, lifted, grammar, &limits);
                trace_window(flow, window, t0.elapsed(), &o);
                match o {
                    Outcome::Found(program) => {
                        super::rules::record(flow, window, lifted, grammar, options.limits.target, &program);
                        Outcome::Found(program)
                    }
                    // A proof the shortened budget left unknown.
                    Outcome::Unchanged(why) if cut && why.proof_unknown() => {
                        let why = format!("{why} (the block's time limit cut its search short)");
                        Outcome::Unchanged(Unchanged::OutOfBudget { budget: Budget::Block, why })
                    }
                    other => other,
                }
            }
        }
    }));
    match attempt {
        Ok(o) => {
            if !matches!(&o, Outcome::Unchanged(why) if why.out_of_budget()) {
                options.cache.put(&key, &encode(grammar, &o));
            }
            o
        }
        Err(_) => Outcome::Unchanged(Unchanged::Internal),
    }
}

/// The program offline rules give the whole window at the target, proved
/// (its leaves the lifted window's).
fn by_rule(flow: &Dataflow, window: &Window, lifted: &Window, grammar: &Grammar, limits: &Limits) -> Option<Outcome> {
    let ruled = rules_for(flow, window, lifted, grammar, limits, false)?;
    let mut program = ruled.program;
    for step in &mut program.steps {
        for s in &mut step.operands {
            if let Source::Leaf(l) = s {
                *s = Source::Leaf(lifted.leaves.iter().position(|v| *v == ruled.leaves[*l])?);
            }
        }
    }
    let verdict = super::search::prove(flow, lifted, grammar, limits, &program);
    trace_rule(ruled.rule, &program, &verdict);
    verdict.ok().map(|()| Outcome::Found(program))
}

/// Largest window the rules with cuts look at, in ops.
const RULE_WINDOW_OPS: usize = 48;

/// The ops rules give the window, down to values it computes that stay as
/// they are (read as inputs), proved over the ops replaced; with those ops.
/// Not memoized: a rule is a proof, not a search.
fn by_rules_with_cuts(
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
    let verdict = super::search::prove(flow, &replaced, grammar, &options.limits, &ruled.program);
    trace_rule(ruled.rule, &ruled.program, &verdict);
    verdict.ok()?;
    options.by_rules.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    Some((new_ops(grammar, &ruled.program, &replaced), ruled.ops))
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

/// Under `HYDRIDE_SYNTH_TRACE`: a searched window's ops, its time and
/// whether a program was found (which windows a compile spends its time on).
fn trace_window(flow: &Dataflow, window: &Window, took: std::time::Duration, outcome: &Outcome) {
    if std::env::var_os("HYDRIDE_SYNTH_TRACE").is_some() {
        let ops: Vec<&str> = window.ops.iter().map(|&p| flow.ops[p].name.as_str()).collect();
        let found = if matches!(outcome, Outcome::Found(_)) { "a program" } else { "nothing" };
        eprintln!("hydride: window of {} ops searched in {took:?}, found {found}: {}", ops.len(), ops.join(" "));
    }
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

/// A lane-wise window wider than the target's registers, synthesized at the
/// width of one piece and applied to every piece ([`super::pieces`]).
fn by_pieces(
    flow: &Dataflow,
    window: &Window,
    grammar: &Grammar,
    options: &Options,
    deadline: std::time::Instant,
) -> Option<Vec<NewOp>> {
    let (piece_ops, root, split) = piece_block(flow, window, options.limits.target.register_bits())?;
    let program = synthesize_resized(&piece_ops, root, grammar, options, deadline)?;
    let root_ty = flow.ops[window.root].result_types[0].clone()?;
    instantiate(&program, &|v| flow.type_of(v), split, &root_ty)
}

/// The program found for a window resized from the block's (its ops, the
/// root at `root`), as new ops over the values it reads.
fn synthesize_resized(
    ops: &[BlockOp],
    root: usize,
    grammar: &Grammar,
    options: &Options,
    deadline: std::time::Instant,
) -> Option<Vec<NewOp>> {
    let (program, lifted) = program_of_block(ops, root, grammar, options, deadline)?;
    Some(new_ops(grammar, &program, &lifted))
}

/// The program found (memo or search) for the window of all of `ops`, the
/// root at `root`, and that window with its constants lifted to leaves.
fn program_of_block(
    ops: &[BlockOp],
    root: usize,
    grammar: &Grammar,
    options: &Options,
    deadline: std::time::Instant,
) -> Option<(Program, Window)> {
    let flow = Dataflow::new(ops);
    let window = flow.close((0..ops.len()).collect(), root);
    let lifted = flow.lift_constants(&window);
    match memo_or_synthesize(&flow, &window, &lifted, grammar, options, deadline) {
        Outcome::Found(program) => Some((program, lifted)),
        _ => None,
    }
}

/// A lane-wise window narrower than the target's registers, on a target
/// with no instruction whose result has the window's width: synthesized at
/// the width of a register and the first part of its result taken
/// ([`super::pieces::widened_block`]).
fn by_widening(
    flow: &Dataflow,
    window: &Window,
    grammar: &Grammar,
    options: &Options,
    deadline: std::time::Instant,
) -> Option<Vec<NewOp>> {
    let root_ty = flow.ops[window.root].result_types[0].clone()?;
    let target = options.limits.target;
    let of_its_width = |c: &super::grammar::Candidate| c.result.bits() == root_ty.bits() && c.allowed_on(target);
    if grammar.candidates.iter().any(of_its_width) {
        return None;
    }
    let (wide_ops, root, widening) = widened_block(flow, window, target.register_bits())?;
    let program = synthesize_resized(&wide_ops, root, grammar, options, deadline)?;
    instantiate_widened(&program, &|v| flow.type_of(v), widening, &root_ty)
}

/// The target's cheapest instruction adding two vectors of type `ty` lane
/// by lane, as its candidate index: the grammar's two-operand
/// instructions of that type checked against `a + b` on samples (the
/// search gives a lone add, which LLVM makes of `arith.addi` as well, no
/// program of its own). Whatever program reads it is proved before use.
fn adder(grammar: &Grammar, target: Target, ty: &Ty) -> Option<usize> {
    let (ops, root) = super::products::add_window(ty);
    let flow = Dataflow::new(&ops);
    let window = flow.close((0..ops.len()).collect(), root);
    grammar
        .candidates
        .iter()
        .enumerate()
        .filter(|(_, c)| {
            c.result == *ty
                && c.immediates.is_empty()
                && c.operands.len() == 2
                && c.operands.iter().all(|(_, t)| t == ty)
        })
        .filter(|(_, c)| c.allowed_on(target))
        .filter(|(i, _)| {
            super::screen::agrees_on_fresh_samples(&flow, &window, grammar, &Program::single(*i, &[0, 1], vec![]))
        })
        .min_by_key(|(_, c)| c.cost)
        .map(|(i, _)| i)
}

/// The weights a pair's program is searched at (see [`by_products`]).
const REPRESENTATIVE_PAIR: [(usize, i64); 2] = [(0, 3), (0, -5)];

/// A chain of multiply-accumulates by constants ending at `root`, two
/// products at a time ([`super::products`]): the program, proved, as new
/// ops, and the chain's ops it replaces. `None` where the chain is not a
/// sum of products, its pairs have no program, or the whole is no cheaper.
fn by_products(
    flow: &Dataflow,
    root: usize,
    consumed: &BTreeSet<usize>,
    grammar: &Grammar,
    options: &Options,
    deadline: std::time::Instant,
) -> Option<Result<(Vec<NewOp>, Vec<usize>), String>> {
    use super::products::linear_form;
    let form = linear_form(flow, root)?;
    if form.ops.iter().any(|p| consumed.contains(p)) {
        return None;
    }
    let n = form.terms.len();
    Some(
        products_program(flow, root, form, grammar, options, deadline)
            .map_err(|why| format!("as a sum of {n} products by constants, two at a time: {why}")),
    )
}

/// [`by_products`] for the chain `form` ending at `root`: the new ops and
/// the ops they replace, or why not.
fn products_program(
    flow: &Dataflow,
    root: usize,
    form: super::products::LinearForm,
    grammar: &Grammar,
    options: &Options,
    deadline: std::time::Instant,
) -> Result<(Vec<NewOp>, Vec<usize>), String> {
    use super::products::{chain_program, pair_window, paired_block, pairs};
    use super::products::{weight_constants, Arrangement, Layout, LinearForm, PairProgram};
    use super::proof::{sums_equal_reading, LeafElements};
    // Inputs that are lanes moved from other values (halves of a
    // deinterleave) are left alone: interleaving them again undoes what
    // LLVM folds into its extensions (average_pool at AVX-512: slower).
    let moved = |v: usize| {
        flow.defining_op(v).is_some_and(|p| {
            matches!(flow.ops[p].name.as_str(), "vector.deinterleave" | "vector.shuffle" | "vector.interleave")
        })
    };
    if form.terms.iter().any(|(v, _)| moved(*v)) {
        return Err("an input is lanes moved from another value".into());
    }
    // A sum of extensions alone has no products to pair: LLVM's adds of its
    // extensions (the loads folded into them) are as cheap (box_blur3x3 at
    // x86-avx2, paired, ran slower).
    if form.terms.iter().all(|(_, w)| w.abs() == 1) {
        return Err("every weight is 1 or -1, no product to pair".into());
    }
    let target = options.limits.target;
    let register = target.register_bits();
    let arrangement = Arrangement::of_isa(target.isa());
    let layout = Layout::of(&form, register, arrangement).ok_or(match arrangement {
        Arrangement::LaneUnpack => "no layout: pairs need inputs of whole 128-bit lanes of bytes, sums of 16 or 32 bits, and half the sum in a register",
        Arrangement::Halves => "no layout: pairs need inputs of bytes, sums of 16 bits, and two inputs in a register",
    })?;
    let elem_bits = layout.elem_bits;
    let pairs = pairs(&form.terms, elem_bits / 2, arrangement)
        .ok_or("a weight or a pair's sum does not fit a pairwise multiply-add")?;
    // The target's instructions of a pair's width: none, no search.
    if !grammar.candidates.iter().any(|c| c.result.bits() == layout.chain_bits() && c.allowed_on(target)) {
        return Err(format!("the target has no instruction of a pair's {} bits", layout.chain_bits()));
    }
    // One search per pair shape and target, at representative weights (one
    // positive, one negative: no program that holds for one sign alone);
    // the proof of each pair at its own weights follows.
    let pair_program = |accumulate: bool| -> Option<PairProgram> {
        let (ops, root) = pair_window(&layout.weights(&REPRESENTATIVE_PAIR), elem_bits, arrangement, accumulate);
        program_of_block(&ops, root, grammar, options, deadline)
            .map(|(program, lifted)| PairProgram { program, leaf_values: lifted.leaves })
    };
    let first = pair_program(false).ok_or("no program of the target computes a pair's window")?;
    // Without an instruction that adds a pair into the chain, the pair's
    // program then the target's add (`vpmaddwd` then `vpaddd` at x86-avx2).
    let next = pair_program(true)
        .or_else(|| {
            let add = adder(grammar, target, &Ty { dims: vec![layout.chain_bits() / elem_bits], elem_bits })?;
            let mut steps = first.program.steps.clone();
            let (pair, sum) = (Source::Step(steps.len() - 1), Source::Leaf(first.leaf_values.len()));
            steps.push(Step { op: StepOp::Instr { candidate: add, immediates: vec![] }, operands: vec![sum, pair] });
            let mut leaf_values = first.leaf_values.clone();
            leaf_values.push(2);
            Some(PairProgram { program: Program { steps }, leaf_values })
        })
        .ok_or("no program of the target adds a pair into the chain")?;
    let window = flow.close(form.ops.clone(), root);
    let lifted = flow.lift_constants(&window);
    // Where the chain holds each input's products apart, the target's add
    // sums them at the end.
    let result_ty = Ty { dims: vec![form.lanes], elem_bits };
    let add = match arrangement {
        Arrangement::LaneUnpack => None,
        Arrangement::Halves => {
            Some(adder(grammar, target, &result_ty).ok_or("no program of the target adds the two inputs' products")?)
        }
    };
    let program = chain_program(&lifted.leaves, &pairs, &layout, &first, &next, add)
        .ok_or("a pair's program reads other values")?;
    // Each sibling chain (another chain reading its inputs) as the same
    // pairs' programs would compute it.
    let sibling_cost = |f: &LinearForm| -> Option<usize> {
        let inputs: Vec<usize> = f.terms.iter().map(|(v, _)| *v).collect();
        let pairs = super::products::pairs(&f.terms, elem_bits / 2, arrangement)?;
        (Layout::of(f, register, arrangement).as_ref() == Some(&layout)).then_some(())?;
        Some(chain_program(&inputs, &pairs, &layout, &first, &next, add)?.cost(grammar))
    };
    let llvm = super::products::LlvmChain::of_isa(target.isa());
    chain_pays(flow, root, &form, program.cost(grammar), (register, llvm), sibling_cost)?;
    let weights = weight_constants(&pairs, &layout);
    // The program against the chain on samples first: the two-part proof
    // below holds for the program as `chain_program` strings it from the
    // pairs, and this checks that it computes the chain as `paired_block` has it.
    let extra: Vec<_> = weights.iter().map(|(_, v, _)| v.clone()).collect();
    if !super::screen::agrees_on_fresh_samples_reading(flow, &lifted, grammar, &program, &extra) {
        return Err("the program differs from the chain on samples (please report this chain)".into());
    }
    // The proof, in two parts: each pair's program equals its window at
    // that pair's weights (the search proved it at representative ones), and the
    // chain equals the pairs' windows strung together as the program
    // strings their programs.
    prove_pairs(&pairs, &layout, (&first, &next), grammar, options)?;
    let inputs = flow.type_of(form.terms[0].0).ok_or("an input has no type")?;
    let (paired_ops, paired_root) = paired_block(&pairs, &layout, &inputs);
    let paired_flow = Dataflow::new(&paired_ops);
    let paired = paired_flow.close((0..paired_ops.len()).collect(), paired_root);
    let sources = |w: &Window| -> Option<Vec<LeafElements>> {
        w.leaves
            .iter()
            .map(|v| window.leaves.iter().position(|l| l == v).map(|source| LeafElements { source, first: 0 }))
            .collect()
    };
    let (own, theirs) = sources(&window).zip(sources(&paired)).ok_or("the pairs read other inputs")?;
    let what = format!("sum of products {:016x}: {}", grammar.version, program.describe(grammar));
    proved_once(options, &what, flow, &window, || {
        sums_equal_reading((flow, &window, &own), (&paired_flow, &paired, &theirs), options.limits.proof_ms)
    })
    .map_err(|e| format!("the chain is not proved equal to its pairs: {e}"))?;
    let mut new: Vec<NewOp> = weights
        .into_iter()
        .map(|(ty, _, value)| NewOp {
            op: "arith.constant".into(),
            attributes: vec![("value".into(), value)],
            operands: vec![],
            result: ty,
        })
        .collect();
    let count = lifted.leaves.len();
    let leaf = |l: usize| if l < count { Ref::Value(lifted.leaves[l]) } else { Ref::Step(l - count) };
    new.extend(new_ops_reading(grammar, &program, &leaf, new.len()));
    Ok((new, window.ops))
}

/// Whether a chain's program (`program` instructions, and the loads it
/// needs that LLVM's chain does not) costs less than the chain's ops in
/// registers of the target as LLVM computes them (`llvm`), less the
/// extensions that stay for readers outside it; the reason not,
/// otherwise. Where those readers are chains too (a Sobel filter's other
/// gradient), the chains are weighed together, each sibling at
/// `sibling_cost`: each is rewritten where all of them cost less as
/// programs.
fn chain_pays(
    flow: &Dataflow,
    root: usize,
    form: &super::products::LinearForm,
    program: usize,
    (register, llvm): (u32, super::products::LlvmChain),
    sibling_cost: impl Fn(&super::products::LinearForm) -> Option<usize>,
) -> Result<(), String> {
    use super::products::{chains_cost, sibling_chains};
    let cost = program + llvm.program_loads(flow, &[(root, form)], register);
    let computing = chains_cost(flow, &[(root, form)], register, llvm);
    if cost < computing {
        return Ok(());
    }
    let alone =
        format!("the program costs {cost} instructions, not fewer than the chain's {computing} in target registers");
    let Some(siblings) = sibling_chains(flow, form, root).filter(|s| !s.is_empty()) else {
        return Err(alone);
    };
    let Some(costs) = siblings.iter().map(|(_, f)| sibling_cost(f)).collect::<Option<Vec<usize>>>() else {
        return Err(alone);
    };
    let mut chains = vec![(root, form)];
    chains.extend(siblings.iter().map(|(r, f)| (*r, f)));
    let together = program + llvm.program_loads(flow, &chains, register) + costs.iter().sum::<usize>();
    let theirs = chains_cost(flow, &chains, register, llvm);
    if together < theirs {
        return Ok(());
    }
    Err(format!(
        "{alone}; with the {} chains sharing its inputs, {together}, not fewer than their {theirs}",
        siblings.len()
    ))
}

/// Proves each pair's program (`first` for the first pair, `next` for the
/// rest) equal to its window at that pair's weights: the search proved
/// them at representative weights. Where the pair window's weights are an
/// input, the search's proof holds for every pair and nothing is left.
fn prove_pairs(
    pairs: &[[(usize, i64); 2]],
    layout: &super::products::Layout,
    (first, next): (&super::products::PairProgram, &super::products::PairProgram),
    grammar: &Grammar,
    options: &Options,
) -> Result<(), String> {
    use super::products::pair_window;
    let (elem_bits, arrangement) = (layout.elem_bits, layout.arrangement);
    if arrangement.any_weights() {
        return Ok(());
    }
    for (k, pair) in pairs.iter().enumerate() {
        let used = if k == 0 { first } else { next };
        let (ops, root) = pair_window(&layout.weights(pair), elem_bits, arrangement, k > 0);
        let pair_flow = Dataflow::new(&ops);
        let pair_window = pair_flow.close((0..ops.len()).collect(), root);
        let lifted = pair_flow.lift_constants(&pair_window);
        // The program's leaves in the order of this window's.
        let mut program = used.program.clone();
        for step in &mut program.steps {
            for o in &mut step.operands {
                if let Source::Leaf(l) = o {
                    *l = lifted
                        .leaves
                        .iter()
                        .position(|v| Some(v) == used.leaf_values.get(*l))
                        .ok_or("a pair's program reads other values")?;
                }
            }
        }
        let what = format!("pair of products {:016x}: {}", grammar.version, program.describe(grammar));
        proved_once(options, &what, &pair_flow, &pair_window, || {
            super::search::prove(&pair_flow, &lifted, grammar, &options.limits, &program)
        })
        .map_err(|e| format!("pair {k}'s program not proved: {e}"))?;
    }
    Ok(())
}

/// Ops that move vectors between memory and registers: where windows begin
/// and end, not computations to rewrite.
const BOUNDARIES: &[&str] = &[
    "vector.load",
    "vector.store",
    "vector.maskedload",
    "vector.maskedstore",
    "vector.transfer_read",
    "vector.transfer_write",
    "vector.gather",
    "vector.scatter",
    "vector.print",
];

/// Why synthesis cannot read `op`, an `arith`, `math` or `vector` op on
/// vectors (its remark: an op the pass passes over is never passed over
/// silently).
fn not_understood(op: &BlockOp) -> Option<String> {
    let dialect = ["arith.", "math.", "vector."].iter().any(|d| op.name.starts_with(d));
    let on_vectors = !op.unmodelled_vectors.is_empty()
        || op.operand_types.iter().chain(&op.result_types).any(|t| t.as_ref().is_some_and(|t| !t.dims.is_empty()));
    if !dialect || !on_vectors || BOUNDARIES.contains(&op.name.as_str()) {
        return None;
    }
    if !op.unmodelled_vectors.is_empty() {
        let mut types = op.unmodelled_vectors.clone();
        types.dedup();
        return Some(format!(
            "{} left to LLVM's lowering: synthesis models fixed-size vectors of integers, not {}",
            op.name,
            types.join(", ")
        ));
    }
    (!synthesizable(op)).then(|| {
        if supported(&op.name) {
            format!("{} left to LLVM's lowering: synthesis reads its one-dimensional form only", op.name)
        } else {
            format!("{} left to LLVM's lowering: it is not among the ops synthesis has semantics for", op.name)
        }
    })
}

/// A reason a window was left unchanged, with its numbers written `N` (so
/// the block's summary counts reasons, not windows).
fn reason_kind(why: &str) -> String {
    let mut out = String::new();
    let mut in_number = false;
    for ch in why.chars() {
        if ch.is_ascii_digit() {
            if !in_number {
                out.push('N');
            }
            in_number = true;
        } else {
            in_number = false;
            out.push(ch);
        }
    }
    out
}
