//! `lower-to-autollvm` for one block: windows from the last op backwards,
//! each replaced by the cheapest proved program (class ops and swizzles),
//! or left alone with the reason. The answer is a [`Plan`] that
//! `crate::ir::synthesize` applies to the IR.

use super::apply_rules::{by_rules_with_cuts, RULE_WINDOW_OPS};
use super::block::{BlockOp, Dataflow, Window};
use super::grammar::Grammar;
use super::memoized::{memo_or_synthesize, program_of_block};
use super::outcome::LeftAlone;
use super::pieces::{instantiate, instantiate_widened, piece_block, widened_block};
use super::plan::new_ops;
pub use super::plan::{NewOp, Plan, Ref, Rewrite};
use super::products_lowering::by_products;
use super::search::{Outcome, Unchanged};
use super::semantics::{supported, synthesizable};
use super::types::Ty;
use std::collections::BTreeSet;

pub use super::apply_rules::usable_rules;
pub use super::memoized::{proved_once, proved_once_by_key};
pub use super::options::Options;

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

/// Windows searched, rewritten, and left unchanged by reason (numbers
/// stripped), for a block's summary; with window remarks past the first
/// `MAX_WINDOW_REMARKS` of the block, counted only.
#[derive(Default)]
struct Tally {
    searched: usize,
    rewritten: usize,
    unchanged: std::collections::BTreeMap<String, usize>,
    unshown: usize,
    /// Windows offline rules had given programs before the block.
    rules_before: usize,
}

/// The plan for the block `ops`: each window, from the last op backwards,
/// rewritten or left with a remark saying why, and the block's summary.
pub fn lower_block(ops: &[BlockOp], grammar: &Grammar, options: &Options) -> Plan {
    let flow = Dataflow::new(ops);
    let mut consumed: BTreeSet<usize> = BTreeSet::new();
    let mut plan = Plan::default();
    let mut tally =
        Tally { rules_before: options.by_rules.load(std::sync::atomic::Ordering::Relaxed), ..Tally::default() };
    let deadline = std::time::Instant::now() + std::time::Duration::from_millis(options.block_ms);
    let widest = MAX_WINDOW_REGISTERS * options.limits.target.register_bits();
    let widest_result = widest_result(grammar, options.limits.target);
    let from_constants = from_constants(&flow, ops);
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
        if let Some((why, over_time)) = out_of_bounds(op, options, deadline, widest) {
            tally.searched += 1;
            *tally.unchanged.entry(reason_kind(&why)).or_default() += 1;
            // Out of time: counted in the summary only (there may be thousands).
            if over_time {
                continue;
            }
            let text = format!("window at this op not searched (target {}): {why}", options.limits.target.name());
            plan.remark_capped(root, text, &mut tally.unshown);
            continue;
        }
        let search = Search { flow: &flow, grammar, options, deadline };
        let Some((window, computing, found)) = search.windows_at(root, &consumed, widest_result) else { continue };
        tally.searched += 1;
        let found = match found {
            Ok(new) => Ok((new, window.ops.clone())),
            Err(why) => search.by_rules_or_products(root, &consumed, why),
        };
        match found {
            Ok((new, replaced)) => {
                tally.rewritten += 1;
                // Ops read outside the window (constants, an extension a
                // chain of products shares, and what such an op reads)
                // stay for other windows; they go once nothing reads them.
                let stays = staying(&flow, root, &replaced);
                consumed.extend(replaced.iter().filter(|p| ops[**p].name != "arith.constant" && !stays.contains(p)));
                plan.rewrites.push(Rewrite { root, ops: new, window: replaced });
            }
            Err(why) => {
                *tally.unchanged.entry(reason_kind(&why.to_string())).or_default() += 1;
                let text = format!(
                    "window of {computing} ops left unchanged (target {}): {why}",
                    options.limits.target.name()
                );
                plan.remark_capped(root, text, &mut tally.unshown);
            }
        }
    }
    for (pos, op) in ops.iter().enumerate() {
        if let Some(why) = not_understood(op) {
            plan.remark_capped(pos, why, &mut tally.unshown);
        }
    }
    summarize(&mut plan, ops.len(), &tally, grammar, options);
    plan.remarks.sort_by_key(|(pos, _)| std::cmp::Reverse(*pos));
    plan
}

/// The ops of `replaced` (a rewrite's window, its root `root`) that stay:
/// read by an op outside it, or by one that stays.
fn staying(flow: &Dataflow, root: usize, replaced: &[usize]) -> BTreeSet<usize> {
    let mut stays = BTreeSet::new();
    let mut inner: Vec<usize> = replaced.iter().copied().filter(|p| *p != root).collect();
    // Readers come after what they read: from the last op back.
    inner.sort_unstable_by(|a, b| b.cmp(a));
    for p in inner {
        let read = |q: &usize| !replaced.contains(q) || stays.contains(q);
        if flow.ops[p].results.iter().any(|r| flow.readers(*r).iter().any(read)) {
            stays.insert(p);
        }
    }
    stays
}

/// For each op, whether it computes from constants alone. Such ops are
/// LLVM's to fold: rewritten into target instructions, they would hide a
/// constant from an op left to LLVM (a division by a constant needs a
/// library routine on a target without vector division).
fn from_constants(flow: &Dataflow, ops: &[BlockOp]) -> Vec<bool> {
    let mut from_constants = vec![false; ops.len()];
    for (p, op) in ops.iter().enumerate() {
        let constant = |v: &usize| flow.defining_op(*v).is_some_and(|d| from_constants[d]);
        from_constants[p] = op.name == "arith.constant"
            || (!op.operands.is_empty() && !op.has_regions && op.operands.iter().all(constant));
    }
    from_constants
}

/// Bounds on hostile input: the block's time, the vectors' width. Why the
/// window at `op` is not searched, and whether it is for want of time.
fn out_of_bounds(op: &BlockOp, options: &Options, deadline: std::time::Instant, widest: u32) -> Option<(String, bool)> {
    let over_time = std::time::Instant::now() > deadline;
    let bits = op.operand_types.iter().chain(&op.result_types).flatten().map(Ty::bits).max().unwrap_or(0);
    let why = if over_time {
        format!("the block's time limit of {} ms was spent", options.block_ms)
    } else if bits > widest {
        format!(
            "its vectors are wider than {MAX_WINDOW_REGISTERS} registers of the target ({widest} bits); left to LLVM"
        )
    } else {
        return None;
    };
    Some((why, over_time))
}

/// Whether a window may hold `o`.
fn accept(o: &BlockOp) -> bool {
    synthesizable(o) && o.unmodelled_vectors.is_empty() && !o.has_regions
}

/// A window searched, its count of computing ops, and its new ops or why
/// none.
type Searched = (Window, usize, Result<Vec<NewOp>, Unchanged>);

/// The windows searched at a root, in order: at most `max-ops` ops and
/// eight levels, each inner value read once; the same with values read
/// twice joined where all their readers are inside; then, where neither
/// has a program, the root's whole cone (up to `cone-ops` ops) if one
/// instruction can read all its inputs: code that spells out an
/// instruction at length (a count of leading zeros as a chain of tests, a
/// saturating shift by a register as its cases) is that instruction.
#[derive(Clone, Copy, PartialEq, Eq)]
enum WindowKind {
    Bounded,
    Joined,
    Cone,
}

/// The time a cone's search (screening and proofs) may take: a cone is
/// tried after its root's windows, at most once per root, and one whose
/// proof takes longer is left to them.
const CONE_TIME: std::time::Duration = std::time::Duration::from_millis(1000);

/// What the windows of one block are searched with.
struct Search<'a> {
    flow: &'a Dataflow<'a>,
    grammar: &'a Grammar,
    options: &'a Options,
    deadline: std::time::Instant,
}

impl Search<'_> {
    /// The window at `root` without values read twice, then, if that finds
    /// nothing, with them joined where all their readers are inside
    /// (`max(x, y) - min(x, y)`, a clamp by compare and select): the
    /// smaller window is what was searched before, and often has a
    /// program where the larger has none. The last window searched; `None`
    /// where no window of two computing ops or more is left.
    fn windows_at(&self, root: usize, consumed: &BTreeSet<usize>, widest_result: u32) -> Option<Searched> {
        let (flow, grammar, options, deadline) = (self.flow, self.grammar, self.options, self.deadline);
        let ops = flow.ops;
        let mut tried: Vec<Window> = Vec::new();
        let mut result = None;
        for kind in [WindowKind::Bounded, WindowKind::Joined, WindowKind::Cone] {
            let window = match kind {
                WindowKind::Bounded => flow.window(root, options.max_ops, 8, false, &accept),
                WindowKind::Joined => flow.window(root, options.max_ops, 8, true, &accept),
                WindowKind::Cone => flow.window(root, options.cone_ops, options.cone_ops, true, &accept),
            };
            let window =
                Window { ops: window.ops.iter().copied().filter(|p| !consumed.contains(p)).collect(), ..window };
            let computing = window.ops.iter().filter(|p| ops[**p].name != "arith.constant").count();
            if computing < 2 || tried.contains(&window) {
                continue;
            }
            if kind == WindowKind::Cone && !self.cone_worth_searching(&window, &tried) {
                continue;
            }
            tried.push(window.clone());
            // A cone's constants stay its own: its program reads its inputs
            // alone (a cone of many constants would otherwise bind each to
            // each operand of each instruction).
            let lifted = if kind == WindowKind::Cone { window.clone() } else { flow.lift_constants(&window) };
            // A program's result is its last step's: a window whose result
            // is more than twice as wide as a pair of the target's widest
            // results has none at its width, and is searched by pieces only
            // (a search at its width costs time in proportion to it).
            let root_bits = ops[root].result_types.iter().flatten().map(Ty::bits).max().unwrap_or(0);
            let outcome = if root_bits > WIDEST_RESULTS * widest_result {
                Outcome::Unchanged(Unchanged::TooWide { bits: root_bits, times: WIDEST_RESULTS })
            } else {
                // A cone's search has a time of its own, within the block's.
                let deadline = match kind {
                    WindowKind::Cone => deadline.min(std::time::Instant::now() + CONE_TIME),
                    _ => deadline,
                };
                memo_or_synthesize(flow, &window, &lifted, grammar, options, deadline)
            };
            let found = match outcome {
                Outcome::Found(program) => Ok(new_ops(grammar, &program, &lifted)),
                // A cone's failure is the smaller window's: its remark, its pieces.
                Outcome::Unchanged(_) if kind == WindowKind::Cone => break,
                Outcome::Unchanged(why) => by_pieces(flow, &window, grammar, options, deadline)
                    .or_else(|| by_widening(flow, &window, grammar, options, deadline))
                    .ok_or(why),
            };
            let done = found.is_ok();
            result = Some((window, computing, found));
            if done {
                break;
            }
        }
        result
    }

    /// Whether the cone at a root, beyond the windows `tried`, is searched:
    /// it holds more ops than they do and reads no more inputs than one
    /// instruction of the grammar can.
    fn cone_worth_searching(&self, cone: &Window, tried: &[Window]) -> bool {
        let inputs = cone.leaves.iter().filter(|v| self.flow.constant(**v).is_none()).count();
        inputs <= self.grammar.most_operands() && tried.iter().all(|w| w.ops.len() < cone.ops.len())
    }

    /// Rules down to values the window at `root` computes, left in place,
    /// where nothing covers the window whole (`why`); then a chain of
    /// products by constants ending there, two at a time. The new ops and
    /// the ops they replace, or why not.
    fn by_rules_or_products(
        &self,
        root: usize,
        consumed: &BTreeSet<usize>,
        why: Unchanged,
    ) -> Result<(Vec<NewOp>, Vec<usize>), LeftAlone> {
        let (flow, grammar, options) = (self.flow, self.grammar, self.options);
        let wide = flow.window(root, RULE_WINDOW_OPS, 16, true, &accept);
        let wide = Window { ops: wide.ops.iter().copied().filter(|p| !consumed.contains(p)).collect(), ..wide };
        match by_rules_with_cuts(flow, &wide, grammar, options) {
            Some(found) => Ok(found),
            None => match by_products(flow, root, consumed, grammar, options, self.deadline) {
                Some(Ok(found)) => Ok(found),
                Some(Err(chain)) => Err(LeftAlone { search: why, chain: Some(chain) }),
                None => Err(LeftAlone { search: why, chain: None }),
            },
        }
    }
}

/// The block's summary remark, at its last op: how many windows were
/// searched, rewritten and left unchanged, and why; or, where none was
/// searched, how many remarks were not shown.
fn summarize(plan: &mut Plan, len: usize, tally: &Tally, grammar: &Grammar, options: &Options) {
    let Tally { searched, rewritten, ref unchanged, unshown, rules_before } = *tally;
    if searched == 0 && unshown > 0 {
        plan.remarks.push((
            len - 1,
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
            len - 1,
            format!(
                "hydride-synthesize searched {searched} windows of this block at target {} ({}): programs of one target intrinsic, or two instructions holding one, or three: one instruction over two one-step values (budget {} pairings, a quarter of them for three), of a matrix result also its transpose, over the {allowed} instructions of the grammar the target has ({intrinsics} of them intrinsics), after the offline rules; {rewritten} rewritten ({by_rules} by a rule, not from the memo), {} left unchanged{}{}",
                options.limits.target.name(),
                options.limits.cpu.describe(),
                options.limits.evaluations,
                searched - rewritten,
                if reasons.is_empty() { "" } else { " (" },
                if reasons.is_empty() { String::new() } else { reasons.join("; ") + ")" },
            ) + &if unshown > 0 { format!("; {unshown} more remarks of this block not shown (at most {MAX_WINDOW_REMARKS} per block)") } else { String::new() },
        ));
    }
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
