//! Equivalence proofs with Z3: three outcomes, and a budget on every query.
//!
//! The budget is Z3's resource limit (`rlimit`), which counts solver work,
//! not seconds, so a proof's outcome does not depend on the machine or its
//! load and generated files are reproducible. A wall-clock cap far above it
//! guards against work Z3 does not count. Each query runs in a fresh Z3
//! context, so what earlier queries left behind cannot change its course.
//!
//! A query that runs out of budget is tried once more with multiplication
//! and division as uninterpreted functions; "equal" there is a proof,
//! anything else leaves the verdict unknown.

use crate::eval::typing::{abstract_formula_over, formula_over};
use crate::sema::ir::Semantics;
use z3::ast::{Ast, BV};
use z3::{Params, SatResult, Solver};

#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    Equal,
    Differ,
    /// Timeout, solver `unknown`, or a formula that could not be built.
    Unknown(String),
}

/// Z3 resource units per millisecond of budget: about what Z3 spends on our
/// queries per millisecond on this kind of machine (measured: 0.1–2.8 M/s).
pub const RLIMIT_PER_MS: u32 = 2_000;
/// The wall-clock cap, as a multiple of the budget.
pub const WALL_CLOCK_FACTOR: u32 = 10;

/// What a proof may spend, in milliseconds: the query's own budget and that
/// of its retry with products abstracted (which only an "equal" ends). Each
/// becomes a resource limit of `ms * RLIMIT_PER_MS` and a wall-clock cap of
/// `ms * WALL_CLOCK_FACTOR`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Budget {
    pub ms: u32,
    pub abstracted_ms: u32,
}

impl Budget {
    /// The same budget for the query and its retry.
    pub fn uniform(ms: u32) -> Budget {
        Budget { ms, abstracted_ms: ms }
    }
}

/// Proves `a` and `b` compute the same result, where argument `k` of `b` is
/// argument `b_arg_from_a[k]` of `a`, with [`Budget::uniform`]`(budget_ms)`.
pub fn prove_equal(a: &Semantics, b: &Semantics, b_arg_from_a: &[usize], budget_ms: u32) -> Verdict {
    prove_equal_within(a, b, b_arg_from_a, Budget::uniform(budget_ms))
}

/// [`prove_equal`] within `budget`.
pub fn prove_equal_within(a: &Semantics, b: &Semantics, b_arg_from_a: &[usize], budget: Budget) -> Verdict {
    let key = query_key(a, b, b_arg_from_a, budget);
    let answered = || VERDICTS.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    if let Some(v) = key.as_ref().and_then(|k| answered().get(k).cloned()) {
        return v;
    }
    // A fresh context per query: term numbering, and with it the solver's
    // path and spent resources, then depend on this query alone.
    let verdict = z3::with_z3_config(&z3::Config::new(), || prove_in_context(a, b, b_arg_from_a, budget));
    if let Some(k) = key {
        answered().insert(k, verdict.clone());
    }
    verdict
}

/// Verdicts this process has reached, by query: the same query gets the
/// same verdict (the budget is a resource limit, not time), so a query met
/// again (an instruction's canonical form, proved when its ISA is
/// classified alone and again when all ISAs are) is answered at once.
static VERDICTS: std::sync::OnceLock<std::sync::Mutex<std::collections::HashMap<[u64; 2], Verdict>>> =
    std::sync::OnceLock::new();

/// A query's fingerprint: two independent 64-bit hashes (FNV-1a and
/// SipHash) of both semantics without their names (which only label
/// them), the argument order and the budget.
fn query_key(a: &Semantics, b: &Semantics, b_arg_from_a: &[usize], budget: Budget) -> Option<[u64; 2]> {
    use std::hash::{Hash, Hasher};
    let unnamed = |s: &Semantics| Semantics { name: String::new(), ..s.clone() };
    let bytes = serde_json::to_vec(&(unnamed(a), unnamed(b), b_arg_from_a, budget)).ok()?;
    let mut sip = std::hash::DefaultHasher::new();
    bytes.hash(&mut sip);
    Some([crate::fnv::fnv1a(&bytes), sip.finish()])
}

fn prove_in_context(a: &Semantics, b: &Semantics, b_arg_from_a: &[usize], budget: Budget) -> Verdict {
    if a.result.width != b.result.width || a.args.len() != b.args.len() {
        return Verdict::Differ;
    }
    let inputs: Vec<BV> = a.args.iter().enumerate().map(|(i, x)| BV::new_const(format!("x{i}"), x.width)).collect();
    let b_inputs: Vec<BV> = b_arg_from_a.iter().map(|&i| inputs[i].clone()).collect();
    if b.args.iter().zip(&b_inputs).any(|(arg, bv)| arg.width != bv.get_size()) {
        return Verdict::Differ;
    }
    let exact = match (formula_over(a, &inputs), formula_over(b, &b_inputs)) {
        (Ok(x), Ok(y)) => check_equal(&x, &y, budget.ms, a, b, "exact"),
        (Err(e), _) | (_, Err(e)) => return Verdict::Unknown(e.to_string()),
    };
    let Verdict::Unknown(reason) = exact else { return exact };
    // Products and quotients are where Z3 runs out of budget; when both
    // sides compute the same ones, they are equal as uninterpreted functions.
    // Only "equal" counts from this attempt: a difference under the
    // abstraction may not be one under the real operations.
    match (abstract_formula_over(a, &inputs), abstract_formula_over(b, &b_inputs)) {
        (Ok(x), Ok(y)) if check_equal(&x, &y, budget.abstracted_ms, a, b, "abstracted") == Verdict::Equal => {
            Verdict::Equal
        }
        _ => Verdict::Unknown(reason),
    }
}

/// Proves `a` and `b` equal one `piece`-bit slice of the result at a time,
/// each slice a query of its own with the whole budget: the proof of a
/// lane-wise operation too large to take at once (Z3 simplifies each
/// slice down to the lanes it reads). Equal when every slice is; the first
/// differing or unknown slice ends it. Arguments as in
/// [`prove_equal`].
pub fn prove_equal_by_slices(
    a: &Semantics,
    b: &Semantics,
    b_arg_from_a: &[usize],
    budget_ms: u32,
    piece: u32,
) -> Verdict {
    z3::with_z3_config(&z3::Config::new(), || {
        let width = a.result.width;
        if width != b.result.width || a.args.len() != b.args.len() || piece == 0 || width % piece != 0 {
            return prove_in_context(a, b, b_arg_from_a, Budget::uniform(budget_ms));
        }
        let inputs: Vec<BV> = a.args.iter().enumerate().map(|(i, x)| BV::new_const(format!("x{i}"), x.width)).collect();
        let b_inputs: Vec<BV> = b_arg_from_a.iter().map(|&i| inputs[i].clone()).collect();
        if b.args.iter().zip(&b_inputs).any(|(arg, bv)| arg.width != bv.get_size()) {
            return Verdict::Differ;
        }
        let (fa, fb) = match (formula_over(a, &inputs), formula_over(b, &b_inputs)) {
            (Ok(x), Ok(y)) => (x, y),
            (Err(e), _) | (_, Err(e)) => return Verdict::Unknown(e.to_string()),
        };
        for lo in (0..width).step_by(piece as usize) {
            let (x, y) = (fa.extract(lo + piece - 1, lo), fb.extract(lo + piece - 1, lo));
            match check_equal(&x, &y, budget_ms, a, b, "slice") {
                Verdict::Equal => {}
                Verdict::Differ => return Verdict::Differ,
                Verdict::Unknown(r) => return Verdict::Unknown(format!("bits {}..{}: {r}", lo, lo + piece)),
            }
        }
        Verdict::Equal
    })
}

/// [`prove_equal_within`], and where that runs out of budget on a result of
/// more than one `piece`, [`prove_equal_by_slices`]; with whether the slices
/// decided. An unknown by slices keeps the whole query's reason.
pub fn prove_equal_then_by_slices(
    a: &Semantics,
    b: &Semantics,
    b_arg_from_a: &[usize],
    budget: Budget,
    piece: u32,
) -> (Verdict, bool) {
    let whole = prove_equal_within(a, b, b_arg_from_a, budget);
    let width = a.result.width;
    if !matches!(whole, Verdict::Unknown(_)) || piece == 0 || width % piece != 0 || width == piece {
        return (whole, false);
    }
    match prove_equal_by_slices(a, b, b_arg_from_a, budget.ms, piece) {
        Verdict::Unknown(_) => (whole, false),
        decided => (decided, true),
    }
}

/// Whether `fa == fb` for every input, within the budget.
fn check_equal(fa: &BV, fb: &BV, budget_ms: u32, a: &Semantics, b: &Semantics, how: &str) -> Verdict {
    if fa == fb || fa.simplify() == fb.simplify() {
        return Verdict::Equal;
    }
    let solver = Solver::new();
    let mut params = Params::new();
    params.set_u32("rlimit", budget_ms.saturating_mul(RLIMIT_PER_MS));
    params.set_u32("timeout", budget_ms.saturating_mul(WALL_CLOCK_FACTOR));
    solver.set_params(&params);
    solver.assert(fa.eq(fb).not());
    let debug = log::log_enabled!(log::Level::Debug);
    let rlimit_count = |s: &Solver| match s.get_statistics().value("rlimit count") {
        Some(z3::StatisticsValue::UInt(n)) => u64::from(n),
        Some(z3::StatisticsValue::Double(x)) => x as u64,
        None => 0,
    };
    // Statistics only when they are logged: reading them is not free.
    let before = if debug { rlimit_count(&solver) } else { 0 };
    let started = std::time::Instant::now();
    let outcome = solver.check();
    if debug {
        let rlimit = rlimit_count(&solver).wrapping_sub(before);
        log::debug!("proof ({how}) {} vs {}: {outcome:?} in {:?}, rlimit {rlimit}", a.name, b.name, started.elapsed());
    }
    match outcome {
        SatResult::Unsat => Verdict::Equal,
        SatResult::Sat => Verdict::Differ,
        SatResult::Unknown => Verdict::Unknown(solver.get_reason_unknown().unwrap_or_else(|| "unknown".into())),
    }
}
