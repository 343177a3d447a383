//! Proving a program equal to its window with Z3, where the window is
//! defined: first with products and quotients abstracted, then exactly, one
//! result lane at a time. A lane whose two terms are another lane's with
//! the input elements renamed (the same per-lane function, shifted) is
//! proved by that lane's proof, so a lane-wise window costs one query per
//! lane shape, not one per lane.

use super::block::{Dataflow, Window};
use super::cut_points::{element_of, share_equal_subterms};
use super::grammar::Grammar;
use super::program::Program;
use super::proof_failure::ProofFailure;
pub use super::proof_pieces::LeafElements;
use super::screen::{eval_window, eval_window_with};
use super::types::Ty;
use dialectgen::eval::domain::Domain;
use dialectgen::eval::smt::Smt;
use num_bigint::BigUint;
use std::collections::{BTreeMap, HashMap, HashSet};
use z3::ast::{Ast, Dynamic, BV};

/// What a proof compares: the window (its constants' values fixed) and a program.
pub(super) struct Claim<'a> {
    pub flow: &'a Dataflow<'a>,
    pub window: &'a Window,
    pub leaf_types: &'a [Ty],
    pub constants: &'a [BigUint],
    pub grammar: &'a Grammar,
    pub program: &'a Program,
}

impl Claim<'_> {
    /// Z3: where the window is defined, the program computes the same bits.
    /// First with products and quotients as uninterpreted functions on both
    /// sides (equal there is equal for the real operations, and often quick
    /// when both multiply the same extended values), with a quarter of the
    /// budget; then exactly.
    pub fn prove(&self, ms: u32) -> Result<(), ProofFailure> {
        if self.check((ms / 4).max(1), true) == Ok(()) {
            return Ok(());
        }
        self.check(ms, false)
    }

    fn check(&self, ms: u32, abstracted: bool) -> Result<(), ProofFailure> {
        let Claim { flow, window, leaf_types, constants, grammar, program } = *self;
        z3::with_z3_config(&z3::Config::new(), || {
            let mut dom = if abstracted { Smt::abstracted() } else { Smt::exact() };
            let variable = leaf_types.len() - constants.len();
            let leaves: Vec<BV> = leaf_types
                .iter()
                .enumerate()
                .map(|(i, t)| match i.checked_sub(variable) {
                    Some(k) => dom.literal(&constants[k], t.bits()),
                    None => leaf_term(i, t),
                })
                .collect();
            let (root, defined) = eval_window(&mut dom, flow, window, &leaves).map_err(|e| e.to_string())?;
            let theirs = program.formula(grammar, &leaves, abstracted)?;
            if root.bits.simplify() == theirs.simplify() {
                return Ok(());
            }
            if abstracted && !applies_uninterpreted(&root.bits) && !applies_uninterpreted(&theirs) {
                // Nothing was abstracted: the exact query is the same query.
                return Err(ProofFailure::NotCompared("nothing abstracted".into()));
            }
            let lanes = if abstracted { 1 } else { root.ty.lanes().max(1) };
            lane_by_lane(&defined, &root.bits, &theirs, lanes, ms)
        })
    }
}

/// Leaf `i` as a Z3 term: one constant per element, `leaf{i}_{j}`,
/// concatenated (element 0 lowest), so a lane's term names the elements it
/// reads.
pub(super) fn leaf_term(i: usize, t: &Ty) -> BV {
    source_term(&LeafElements { source: i, first: 0 }, t)
}

/// Whether `term` applies an uninterpreted function (an abstracted product
/// or quotient).
fn applies_uninterpreted(term: &BV) -> bool {
    let mut seen: HashSet<Dynamic> = HashSet::new();
    let mut stack = vec![Dynamic::from_ast(term)];
    while let Some(t) = stack.pop() {
        if !seen.insert(t.clone()) {
            continue;
        }
        if t.is_app() && t.decl().kind() == z3::DeclKind::Uninterpreted && t.num_children() > 0 {
            return true;
        }
        stack.extend(t.children());
    }
    false
}

/// The input elements a term reads: leaf, element number, constant.
fn elements(terms: &[&BV]) -> BTreeMap<(usize, u32), BV> {
    let mut seen: HashSet<Dynamic> = HashSet::new();
    let mut found = BTreeMap::new();
    let mut stack: Vec<Dynamic> = terms.iter().map(|t| Dynamic::from_ast(*t)).collect();
    while let Some(t) = stack.pop() {
        if !seen.insert(t.clone()) {
            continue;
        }
        if t.is_const() {
            if let (Some(key), Some(bv)) = (element_of(&t.decl().name()), t.as_bv()) {
                found.insert(key, bv);
            }
            continue;
        }
        stack.extend(t.children());
    }
    found
}

/// One result lane's two terms (simplified) and the elements they read.
struct Lane {
    ours: BV,
    theirs: BV,
    reads: BTreeMap<(usize, u32), BV>,
}

impl Lane {
    /// Whether `other` is this lane with every leaf's elements moved by one
    /// offset per leaf: then `other`'s equality is a substitution instance of
    /// this one's (valid if this one is), checked by rewriting this lane's
    /// terms and comparing them with `other`'s.
    fn renames_to(&self, other: &Lane) -> bool {
        if self.reads.len() != other.reads.len() {
            return false;
        }
        let mut offsets: HashMap<usize, i64> = HashMap::new();
        let mut pairs: Vec<(BV, BV)> = Vec::new();
        for (((li, lj), from), ((oi, oj), to)) in self.reads.iter().zip(&other.reads) {
            let offset = i64::from(*oj) - i64::from(*lj);
            if li != oi || *offsets.entry(*li).or_insert(offset) != offset || from.get_size() != to.get_size() {
                return false;
            }
            pairs.push((from.clone(), to.clone()));
        }
        let refs: Vec<(&BV, &BV)> = pairs.iter().map(|(a, b)| (a, b)).collect();
        self.ours.substitute(&refs).simplify() == other.ours && self.theirs.substitute(&refs).simplify() == other.theirs
    }
}

/// Proves `ours == theirs` where every `defined` bit is 1, one result
/// lane at a time: the conjunction of the lanes' equalities is the whole
/// equality, so this is as sound as one query, and each query sees only the
/// part of both terms its lane depends on. Lanes whose two sides simplify to
/// the same term need no query; when the window is defined everywhere, nor
/// does a lane that is an earlier queried lane renamed ([`Lane::renames_to`];
/// with conditions, the renamed conditions would differ). The budget is
/// shared: each queried lane gets an equal part of the resource limit, and
/// all of them one wall-clock cap. Each query gets a fresh solver: Z3
/// bit-blasts a one-shot query, where push and pop would switch it to its
/// slower incremental core.
pub(super) fn lane_by_lane(defined: &[BV], ours: &BV, theirs: &BV, lanes: u32, ms: u32) -> Result<(), ProofFailure> {
    use dialectgen::classify::proof::{RLIMIT_PER_MS, WALL_CLOCK_FACTOR};
    let width = ours.get_size();
    let lane_bits = width / lanes;
    let deadline =
        std::time::Instant::now() + std::time::Duration::from_millis(u64::from(ms) * u64::from(WALL_CLOCK_FACTOR));
    let everywhere = defined.iter().all(|d| d.simplify().as_u64() == Some(1));
    // Each side simplified once whole and split into its lanes where it is a
    // concatenation of them: simplifying a lane extracted from the whole
    // rewrites the whole (bottom-up), once per lane.
    let split = |v: &BV| (lanes > 1).then(|| lanes_of(&v.simplify(), lane_bits)).flatten();
    let (our_lanes, their_lanes) = match (split(ours), split(theirs)) {
        (Some(o), Some(t)) if o.len() == lanes as usize && t.len() == lanes as usize => (Some(o), Some(t)),
        _ => (None, None),
    };
    // Lanes needing a query of their own, with the lane each stands for.
    let mut queried: Vec<(u32, Lane)> = Vec::new();
    for lane in 0..lanes {
        let (lo, hi) = (lane * lane_bits, lane * lane_bits + lane_bits - 1);
        let (a, b) = match (&our_lanes, &their_lanes) {
            _ if lanes == 1 => (ours.clone(), theirs.clone()),
            (Some(o), Some(t)) => (o[lane as usize].clone(), t[lane as usize].clone()),
            _ => (ours.extract(hi, lo).simplify(), theirs.extract(hi, lo).simplify()),
        };
        if a == b {
            continue;
        }
        let reads = if everywhere && lanes > 1 { elements(&[&a, &b]) } else { BTreeMap::new() };
        let this = Lane { ours: a, theirs: b, reads };
        if everywhere && lanes > 1 && queried.iter().take(REPRESENTATIVES).any(|(_, q)| q.renames_to(&this)) {
            continue;
        }
        queried.push((lane, this));
    }
    let rlimit = ms.saturating_mul(RLIMIT_PER_MS) / u32::try_from(queried.len().max(1)).unwrap_or(u32::MAX);
    for (lane, Lane { ours: a, theirs: b, .. }) in queried {
        let b = share_equal_subterms(&a, &b, deadline);
        let (verdict, why) = refute(defined, &a.eq(&b).not(), rlimit.max(1), deadline);
        match verdict {
            z3::SatResult::Unsat => {}
            z3::SatResult::Sat if lanes == 1 => return Err(ProofFailure::Differs { lane: None }),
            z3::SatResult::Sat => return Err(ProofFailure::Differs { lane: Some(lane) }),
            z3::SatResult::Unknown => return Err(ProofFailure::Unknown(why)),
        }
    }
    Ok(())
}

/// Whether `claim` holds for some input where every `defined` bit is 1,
/// within `rlimit` and `deadline`, and Z3's reason when it cannot tell.
/// A solver that bit-blasts straight to SAT goes first, with a quarter of
/// the budget: on sums and comparisons it answers in milliseconds where
/// the default QF_BV strategy's preprocessing can take seconds. The
/// default solver, whose preprocessing suits products, gets the rest.
/// Either answer is Z3's for the same query.
fn refute(defined: &[BV], claim: &z3::ast::Bool, rlimit: u32, deadline: std::time::Instant) -> (z3::SatResult, String) {
    let one = BV::from_u64(1, 1);
    let blasting = z3::Tactic::new("simplify")
        .and_then(&z3::Tactic::new("propagate-values"))
        .and_then(&z3::Tactic::new("bit-blast"))
        .and_then(&z3::Tactic::new("sat"));
    let mut why = String::new();
    for (solver, share) in [(blasting.solver(), 4u32), (z3::Solver::new(), 1)] {
        let left = deadline.saturating_duration_since(std::time::Instant::now()).as_millis().max(1) / u128::from(share);
        let mut params = z3::Params::new();
        params.set_u32("rlimit", (rlimit / share).max(1));
        params.set_u32("timeout", u32::try_from(left).unwrap_or(u32::MAX).max(1));
        solver.set_params(&params);
        for d in defined {
            solver.assert(d.eq(&one));
        }
        solver.assert(claim);
        match solver.check() {
            z3::SatResult::Unknown => why = solver.get_reason_unknown().unwrap_or_default(),
            verdict => return (verdict, String::new()),
        }
    }
    (z3::SatResult::Unknown, why)
}

/// Proves two windows of the same inputs (in order, constants inside) equal
/// wherever the first is defined; the second must be defined everywhere.
pub fn windows_equal(
    (lf, lw): (&Dataflow, &Window),
    (rf, rw): (&Dataflow, &Window),
    ms: u32,
) -> Result<(), ProofFailure> {
    let types: Vec<Ty> = lw.leaves.iter().map(|v| lf.type_of(*v)).collect::<Option<_>>().ok_or("an input type")?;
    let rtypes: Vec<Ty> = rw.leaves.iter().map(|v| rf.type_of(*v)).collect::<Option<_>>().ok_or("an input type")?;
    if types != rtypes {
        return Err(format!("the inputs differ: {types:?} and {rtypes:?}").into());
    }
    let own: Vec<LeafElements> = (0..types.len()).map(|i| LeafElements { source: i, first: 0 }).collect();
    windows_equal_reading((lf, lw, &own), (rf, rw, &own), ms)
}

/// [`windows_equal`] where each window's leaves are given as the input
/// elements they hold (one [`LeafElements`] per leaf, in the window's leaf
/// order).
///
/// Windows wider than a few registers whose ops keep lanes in place are
/// proved piece by piece ([`super::proof_pieces`]), so a proof's work grows
/// with the lanes, not faster; wider than
/// [`super::proof_pieces::WHOLE_BITS`] they are not proved whole.
pub fn windows_equal_reading(
    left: (&Dataflow, &Window, &[LeafElements]),
    right: (&Dataflow, &Window, &[LeafElements]),
    ms: u32,
) -> Result<(), ProofFailure> {
    by_pieces(left, right, ms, windows_equal_whole)
}

/// `prove` on `left` and `right` piece by piece where they can be cut,
/// whole where they need not be, and not at all where they are too wide
/// to prove whole and cannot be cut.
fn by_pieces(
    left: (&Dataflow, &Window, &[LeafElements]),
    right: (&Dataflow, &Window, &[LeafElements]),
    ms: u32,
    prove: fn(
        (&Dataflow, &Window, &[LeafElements]),
        (&Dataflow, &Window, &[LeafElements]),
        u32,
    ) -> Result<(), ProofFailure>,
) -> Result<(), ProofFailure> {
    if let Some(cut) = super::proof_pieces::Cut::of(left, right) {
        return cut.prove(left, right, ms, prove);
    }
    if let Some(why) = super::proof_pieces::too_wide_to_prove_whole(&[(left.0, left.1), (right.0, right.1)]) {
        return Err(ProofFailure::NotCompared(why));
    }
    prove(left, right, ms)
}

/// [`windows_equal_reading`] on the windows as they are.
fn windows_equal_whole(
    left: (&Dataflow, &Window, &[LeafElements]),
    right: (&Dataflow, &Window, &[LeafElements]),
    ms: u32,
) -> Result<(), ProofFailure> {
    // Products and quotients abstracted first, as in `Claim::prove`.
    if compare_windows(left, right, (ms / 4).max(1), true) == Ok(()) {
        return Ok(());
    }
    compare_windows(left, right, ms, false)
}

/// A window's leaves as Z3 terms of the input elements they hold.
fn leaf_terms(flow: &Dataflow, w: &Window, sources: &[LeafElements]) -> Result<Vec<BV>, ProofFailure> {
    if sources.len() != w.leaves.len() {
        return Err(format!("{} leaves, {} sources", w.leaves.len(), sources.len()).into());
    }
    w.leaves
        .iter()
        .zip(sources)
        .map(|(v, s)| flow.type_of(*v).map(|t| source_term(s, &t)).ok_or_else(|| ProofFailure::from("an input type")))
        .collect()
}

fn compare_windows(
    (lf, lw, lsources): (&Dataflow, &Window, &[LeafElements]),
    (rf, rw, rsources): (&Dataflow, &Window, &[LeafElements]),
    ms: u32,
    abstracted: bool,
) -> Result<(), ProofFailure> {
    z3::with_z3_config(&z3::Config::new(), || {
        let domain = || if abstracted { Smt::abstracted() } else { Smt::exact() };
        let (lleaves, rleaves) = (leaf_terms(lf, lw, lsources)?, leaf_terms(rf, rw, rsources)?);
        let (l, defined) = eval_window(&mut domain(), lf, lw, &lleaves).map_err(|e| e.to_string())?;
        let (r, rdefined) = eval_window(&mut domain(), rf, rw, &rleaves).map_err(|e| e.to_string())?;
        if l.ty != r.ty {
            return Err(format!("the results differ in type: {} and {}", l.ty, r.ty).into());
        }
        if !rdefined.iter().all(|d| d.simplify().as_u64() == Some(1)) {
            return Err("the second is not defined everywhere".into());
        }
        lane_by_lane(&defined, &l.bits, &r.bits, l.ty.lanes().max(1), ms)
    })
}

/// [`windows_equal_reading`] for two windows of sums of products by
/// constants (no saturation, no comparison): equal when Z3's simplifier,
/// writing each result lane as a sum of monomials, rewrites the lanes'
/// difference to false. Two orders of the same long sum, which a
/// bit-blasted query must reassociate bit by bit, are one rewrite here.
/// Either window must be defined everywhere. The simplifier has `ms`
/// milliseconds for all the lanes; a lane it has not rewritten by then is
/// not proved.
pub fn sums_equal_reading(
    left: (&Dataflow, &Window, &[LeafElements]),
    right: (&Dataflow, &Window, &[LeafElements]),
    ms: u32,
) -> Result<(), ProofFailure> {
    by_pieces(left, right, ms, sums_equal_whole)
}

/// [`sums_equal_reading`] on the windows as they are.
fn sums_equal_whole(
    (lf, lw, lsources): (&Dataflow, &Window, &[LeafElements]),
    (rf, rw, rsources): (&Dataflow, &Window, &[LeafElements]),
    ms: u32,
) -> Result<(), ProofFailure> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_millis(u64::from(ms));
    z3::with_z3_config(&z3::Config::new(), || {
        let (lleaves, rleaves) = (leaf_terms(lf, lw, lsources)?, leaf_terms(rf, rw, rsources)?);
        let (l, ldefined) = eval_window_with(&mut Smt::exact(), lf, lw, &lleaves, true).map_err(|e| e.to_string())?;
        let (r, rdefined) = eval_window_with(&mut Smt::exact(), rf, rw, &rleaves, true).map_err(|e| e.to_string())?;
        if l.ty != r.ty {
            return Err(format!("the results differ in type: {} and {}", l.ty, r.ty).into());
        }
        if !ldefined.iter().chain(&rdefined).all(|d| d.simplify().as_u64() == Some(1)) {
            return Err("a window is not defined everywhere".into());
        }
        let mut params = z3::Params::new();
        params.set_bool("som", true);
        let simplify = z3::Tactic::new("simplify").with(&params);
        let lanes = l.ty.lanes().max(1);
        let lane_bits = l.bits.get_size() / lanes;
        // Each lane's own term: the simplifier rewrites a goal bottom-up, so
        // a lane extracted from the whole vector would have it rewritten
        // whole, every lane's sum once per lane.
        let lane_terms = |v: &BV| -> Vec<BV> {
            lanes_of(v, lane_bits).filter(|ls| ls.len() == lanes as usize).unwrap_or_else(|| {
                (0..lanes).map(|i| v.extract(i * lane_bits + lane_bits - 1, i * lane_bits)).collect()
            })
        };
        // Simplified once whole first: an element read through the
        // concatenation of its input's elements becomes that element's own
        // constant.
        let (ls, rs) = (lane_terms(&l.bits.simplify()), lane_terms(&r.bits.simplify()));
        // A lane whose two terms are a proved lane's with each leaf's
        // elements moved by one distance (the lane-wise computation at
        // another position) is equal as that lane is.
        let mut proved: Vec<Lane> = Vec::new();
        for lane in 0..lanes as usize {
            let reads = elements(&[&ls[lane], &rs[lane]]);
            let this = Lane { ours: ls[lane].clone(), theirs: rs[lane].clone(), reads };
            if proved.iter().any(|p| p.renames_to(&this)) {
                continue;
            }
            let goal = z3::Goal::new(false, false, false);
            goal.assert(&this.ours.eq(&this.theirs).not());
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                return Err(format!("result lane {lane} not rewritten within {ms} ms").into());
            }
            let decided = simplify
                .try_for(left)
                .apply(&goal, None)
                .is_ok_and(|r| r.list_subgoals().all(|g| g.is_decided_unsat()));
            if !decided {
                return Err(format!(
                    "result lane {lane} is not the same sum of monomials (or not rewritten within {ms} ms)"
                )
                .into());
            }
            if proved.len() < REPRESENTATIVES {
                proved.push(this);
            }
        }
        Ok(())
    })
}

/// The lanes of `v`, `lane_bits` each, lowest first, where `v` is a
/// concatenation of terms that make up whole lanes (one a lane, or several
/// together); `None` where a part of it that spans lanes is some other term.
fn lanes_of(v: &BV, lane_bits: u32) -> Option<Vec<BV>> {
    // Z3 flattens nested concatenations, so a lane may be several pieces
    // (a widened sum is its zero bits and the sum): pieces are taken from
    // the lowest up, a lane's worth at a time; one across a lane boundary
    // leaves the value unsplit.
    let mut pieces = Vec::new();
    concatenated(v, &mut pieces)?;
    let mut out = Vec::new();
    let mut lane: Option<BV> = None;
    let mut bits = 0;
    for piece in pieces {
        bits += piece.get_size();
        if bits > lane_bits {
            return None;
        }
        lane = Some(match lane {
            None => piece,
            Some(low) => piece.concat(&low),
        });
        if bits == lane_bits {
            out.extend(lane.take());
            bits = 0;
        }
    }
    (bits == 0).then_some(out)
}

/// The pieces a concatenation is made of, the lowest first.
fn concatenated(v: &BV, out: &mut Vec<BV>) -> Option<()> {
    if v.is_app() && v.decl().kind() == z3::DeclKind::Concat {
        // A concatenation's first operand holds its highest bits.
        for child in v.children().iter().rev() {
            concatenated(&child.as_bv()?, out)?;
        }
    } else {
        out.push(v.clone());
    }
    Some(())
}

/// A leaf of type `t` holding `s`'s elements: one constant per element,
/// `leaf{source}_{element}`, concatenated (the first lowest).
fn source_term(s: &LeafElements, t: &Ty) -> BV {
    let n = t.lanes().max(1);
    let w = t.bits() / n;
    let element = |j: u32| BV::new_const(format!("leaf{}_{}", s.source, s.first + j), w);
    (1..n).fold(element(0), |bits, j| element(j).concat(&bits))
}

/// Queried lanes a lane is compared with before it gets a query of its own.
const REPRESENTATIVES: usize = 4;

#[cfg(test)]
mod tests {
    use super::lane_by_lane;
    use z3::ast::BV;

    /// A vector written as concatenated lanes splits into them, lowest
    /// first, a lane that is itself a concatenation (a zero extension)
    /// whole; a part spanning lanes that is no concatenation does not split.
    #[test]
    fn lanes_of_splits_concatenated_lanes() {
        z3::with_z3_config(&z3::Config::new(), || {
            let (a, b) = (BV::new_const("a", 8), BV::new_const("b", 4));
            let widened = BV::from_u64(0, 4).concat(&b);
            let v = widened.concat(&a);
            assert_eq!(super::lanes_of(&v, 8), Some(vec![a.clone(), widened]));
            let sum = v.bvadd(&v);
            assert_eq!(super::lanes_of(&sum, 8), None);
            // Lanes of a zero and a narrower sum each, as Z3 flattens them.
            let (c, d) = (BV::new_const("c", 9), BV::new_const("d", 9));
            let zero = BV::from_u64(0, 7);
            let flat = zero.concat(&c).concat(&zero).concat(&d);
            assert_eq!(super::lanes_of(&flat, 16), Some(vec![zero.concat(&d), zero.concat(&c)]));
            // A piece across a lane boundary leaves it unsplit.
            assert_eq!(super::lanes_of(&c.concat(&zero), 8), None);
            assert_eq!(super::lanes_of(&sum, 16).map(|l| l.len()), Some(1));
        });
    }

    /// Four 8-bit lanes: `x + x` against `x << 1` is equal in every lane;
    /// against `x << 1` with the top lane replaced by `x` it is not, and
    /// the lane that differs is named.
    #[test]
    fn lane_by_lane_proves_equal_lanes_and_names_a_differing_one() {
        z3::with_z3_config(&z3::Config::new(), || {
            let x = BV::new_const("x", 32);
            let lane = |i: u32| x.extract(8 * i + 7, 8 * i);
            let doubled = (0..4).rev().map(|i| lane(i).bvadd(&lane(i))).reduce(|a, b| a.concat(&b)).unwrap();
            let shifted = (0..4).rev().map(|i| lane(i).bvshl(&BV::from_u64(1, 8))).reduce(|a, b| a.concat(&b)).unwrap();
            let wrong = lane(3).concat(&shifted.extract(23, 0));
            assert_eq!(lane_by_lane(&[], &doubled, &shifted, 4, 1_000), Ok(()));
            assert_eq!(lane_by_lane(&[], &doubled, &shifted, 1, 1_000), Ok(()));
            assert_eq!(
                lane_by_lane(&[], &doubled, &wrong, 4, 1_000),
                Err(crate::synth::proof_failure::ProofFailure::Differs { lane: Some(3) })
            );
            // Where a `defined` bit excludes every input, nothing differs.
            let never = BV::from_u64(0, 1);
            assert_eq!(lane_by_lane(&[never], &doubled, &wrong, 4, 1_000), Ok(()));
        });
    }
}
