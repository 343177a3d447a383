//! Outcomes memoized: a window's program from the memo or synthesized
//! (offline rules first), and proofs of normalizations held in the memo
//! the same way.

use super::apply_rules::by_rule;
use super::block::{BlockOp, Dataflow, Window};
use super::grammar::Grammar;
use super::memo_text::{canonical, decode, encode};
use super::options::Options;
use super::program::Program;
use super::search::{synthesize, Budget, Limits, Outcome, Unchanged};

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
    proved_once_by_key(options, &format!("{what}\n{}", canonical(flow, window, &options.limits, 0)), prove)
}

/// [`proved_once`] for a claim `key` names whole (not a window).
pub fn proved_once_by_key<E>(options: &Options, key: &str, prove: impl FnOnce() -> Result<(), E>) -> Result<(), E> {
    if proved_here(key, false) || options.cache.get(key).as_deref() == Some("proved") {
        return Ok(());
    }
    prove()?;
    options.cache.put(key, "proved");
    proved_here(key, true);
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
pub(super) fn memo_or_synthesize(
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

/// Under `HYDRIDE_SYNTH_TRACE`: a searched window's ops, its time and
/// whether a program was found (which windows a compile spends its time on).
fn trace_window(flow: &Dataflow, window: &Window, took: std::time::Duration, outcome: &Outcome) {
    if std::env::var_os("HYDRIDE_SYNTH_TRACE").is_some() {
        let ops: Vec<&str> = window.ops.iter().map(|&p| flow.ops[p].name.as_str()).collect();
        let found = if matches!(outcome, Outcome::Found(_)) { "a program" } else { "nothing" };
        eprintln!("hydride: window of {} ops searched in {took:?}, found {found}: {}", ops.len(), ops.join(" "));
    }
}

/// The program found (memo or search) for the window of all of `ops`, the
/// root at `root`, and that window with its constants lifted to leaves.
pub(super) fn program_of_block(
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
