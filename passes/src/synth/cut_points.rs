//! Cut points, the equivalence checkers' device for two circuits that
//! compute the same intermediate values in different ways: a sub-term of
//! one side that is proved equal to a sub-term of the other is replaced by
//! it, so the final query sees one shared term where it saw two spellings.
//!
//! A window's absolute difference `max(x, y) - min(x, y)` and an
//! instruction's `ABS(x - y)` are such a pair: each is a small query (two
//! 8-bit inputs), but a lane that sums eight of them is slow for the SAT
//! solver while the differences are spelt differently, and quick once they
//! are the same term.
//!
//! Soundness: every replacement is an equality proved for all inputs, so
//! the term after replacement equals the term before it everywhere, and a
//! query over it has the same answer.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::rc::Rc;
use std::time::Instant;
use z3::ast::{Ast, Dynamic, BV};

/// Sub-terms reading at most this many input bits are candidates: their
/// equality is a small query.
const CUT_INPUT_BITS: u32 = 32;
/// Sub-terms of one side considered, at most.
const MAX_CANDIDATES: usize = 512;
/// Equalities proved per lane, at most.
const MAX_PROOFS: usize = 64;
/// The budget of one equality's query.
const PROOF_MS: u32 = 200;
/// Random assignments a candidate pair must agree on before it is proved.
const SIMULATIONS: usize = 4;

/// An input element: leaf and element number, as `proof::leaf_term` names it.
type Element = (usize, u32);

/// What a sub-term reads, its width and its values on the assignments:
/// equal sub-terms have equal signatures.
type Signature = (Rc<BTreeSet<Element>>, u32, Vec<BV>);

/// A sub-term with the input elements it reads.
struct SubTerm {
    term: BV,
    reads: Rc<BTreeSet<Element>>,
}

/// `theirs` with each of its sub-terms that is proved equal to a sub-term
/// of `ours` (reading the same input elements, at most [`CUT_INPUT_BITS`]
/// of them) replaced by that sub-term; `theirs` unchanged when none is, or
/// when `deadline` passes first.
pub(super) fn share_equal_subterms(ours: &BV, theirs: &BV, deadline: Instant) -> BV {
    let mut leaves: HashMap<Element, BV> = HashMap::new();
    let our_terms = sub_terms(ours, &mut leaves);
    let their_terms = sub_terms(theirs, &mut leaves);
    let ours_present: HashSet<Dynamic> = our_terms.iter().map(|s| Dynamic::from_ast(&s.term)).collect();
    let assignments = assignments(&leaves);
    // Ours by what they read, their width and their values on the assignments.
    let mut by_signature: HashMap<Signature, Vec<BV>> = HashMap::new();
    for s in &our_terms {
        let key = (s.reads.clone(), s.term.get_size(), simulate(&s.term, &s.reads, &leaves, &assignments));
        by_signature.entry(key).or_default().push(s.term.clone());
    }
    let mut replacements: Vec<(BV, BV)> = Vec::new();
    let mut proofs = 0;
    for s in &their_terms {
        if proofs >= MAX_PROOFS || Instant::now() >= deadline {
            break;
        }
        if ours_present.contains(&Dynamic::from_ast(&s.term)) {
            continue;
        }
        let key = (s.reads.clone(), s.term.get_size(), simulate(&s.term, &s.reads, &leaves, &assignments));
        let Some(candidates) = by_signature.get(&key) else { continue };
        for ours in candidates {
            proofs += 1;
            if proved_equal(ours, &s.term, deadline) {
                replacements.push((s.term.clone(), ours.clone()));
                break;
            }
            if proofs >= MAX_PROOFS {
                break;
            }
        }
    }
    if replacements.is_empty() {
        return theirs.clone();
    }
    let pairs: Vec<(&BV, &BV)> = replacements.iter().map(|(from, to)| (from, to)).collect();
    theirs.substitute(&pairs).simplify()
}

/// The input element a leaf constant stands for, from its name `leaf{i}_{j}`.
pub(super) fn element_of(name: &str) -> Option<Element> {
    let (i, j) = name.strip_prefix("leaf")?.split_once('_')?;
    Some((i.parse().ok()?, j.parse().ok()?))
}

/// The bitvector sub-terms of `term` that read at most [`CUT_INPUT_BITS`]
/// input bits and are neither a numeral nor a leaf, largest first, with the
/// elements each reads; the leaves met are added to `leaves`.
fn sub_terms(term: &BV, leaves: &mut HashMap<Element, BV>) -> Vec<SubTerm> {
    let mut reads: HashMap<Dynamic, Rc<BTreeSet<Element>>> = HashMap::new();
    let mut found: Vec<SubTerm> = Vec::new();
    // Post-order without recursion: a node is finished once its children are.
    let mut stack: Vec<(Dynamic, bool)> = vec![(Dynamic::from_ast(term), false)];
    while let Some((t, children_done)) = stack.pop() {
        if reads.contains_key(&t) {
            continue;
        }
        if t.is_const() {
            let element = element_of(&t.decl().name());
            if let (Some(e), Some(bv)) = (element, t.as_bv()) {
                leaves.insert(e, bv);
            }
            reads.insert(t, Rc::new(element.into_iter().collect()));
            continue;
        }
        let children = t.children();
        if !children_done {
            stack.push((t, true));
            stack.extend(children.into_iter().filter(|c| !reads.contains_key(c)).map(|c| (c, false)));
            continue;
        }
        let mut mine: BTreeSet<Element> = BTreeSet::new();
        for c in &children {
            mine.extend(reads[c].iter().copied());
        }
        let mine = Rc::new(mine);
        let input_bits: u32 = mine.iter().filter_map(|e| leaves.get(e)).map(|l| l.get_size()).sum();
        if let Some(bv) = t.as_bv() {
            let numeral = t.kind() == z3::AstKind::Numeral;
            if !numeral && !mine.is_empty() && input_bits <= CUT_INPUT_BITS && found.len() < MAX_CANDIDATES {
                found.push(SubTerm { term: bv, reads: mine.clone() });
            }
        }
        reads.insert(t, mine);
    }
    // Post-order puts children first; the largest sub-term first spares
    // proving its parts.
    found.reverse();
    found
}

/// [`SIMULATIONS`] pseudo-random values for every leaf, as numerals.
fn assignments(leaves: &HashMap<Element, BV>) -> Vec<HashMap<Element, BV>> {
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut elements: Vec<&Element> = leaves.keys().collect();
    elements.sort();
    (0..SIMULATIONS)
        .map(|_| {
            elements
                .iter()
                .map(|e| {
                    let width = leaves[*e].get_size();
                    let value = if width >= 64 { next() } else { next() & ((1u64 << width) - 1) };
                    (**e, BV::from_u64(value, width))
                })
                .collect()
        })
        .collect()
}

/// `term`'s value under each assignment (of the elements it reads).
fn simulate(
    term: &BV,
    reads: &BTreeSet<Element>,
    leaves: &HashMap<Element, BV>,
    assignments: &[HashMap<Element, BV>],
) -> Vec<BV> {
    assignments
        .iter()
        .map(|values| {
            let pairs: Vec<(&BV, &BV)> = reads.iter().map(|e| (&leaves[e], &values[e])).collect();
            term.substitute(&pairs).simplify()
        })
        .collect()
}

/// Whether Z3 proves `a == b` for all inputs within [`PROOF_MS`] (and
/// before `deadline`).
fn proved_equal(a: &BV, b: &BV, deadline: Instant) -> bool {
    let left = deadline.saturating_duration_since(Instant::now()).as_millis();
    let ms = u32::try_from(left).unwrap_or(u32::MAX).min(PROOF_MS);
    if ms == 0 {
        return false;
    }
    let mut params = z3::Params::new();
    params.set_u32("timeout", ms);
    params.set_u32("rlimit", ms.saturating_mul(dialectgen::classify::proof::RLIMIT_PER_MS));
    let solver = z3::Solver::new();
    solver.set_params(&params);
    solver.assert(a.eq(b).not());
    solver.check() == z3::SatResult::Unsat
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn leaf(i: usize, j: u32) -> BV {
        BV::new_const(format!("leaf{i}_{j}"), 8)
    }

    /// `max - min` against `ABS` of the difference at ten bits: the
    /// differences become one shared term, and a sum of them then differs
    /// from the other side's only in how the adders are laid out.
    #[test]
    fn equal_spellings_become_one_term() {
        z3::with_z3_config(&z3::Config::new(), || {
            let deadline = Instant::now() + Duration::from_secs(10);
            let (a, b) = (leaf(0, 0), leaf(1, 0));
            let ours = b.bvule(&a).ite(&a.bvsub(&b), &b.bvsub(&a));
            let wide = a.zero_ext(2).bvsub(&b.zero_ext(2));
            let theirs_diff = BV::from_u64(0, 10).bvsle(&wide).ite(&a.bvsub(&b), &b.bvsub(&a));
            let theirs = theirs_diff.zero_ext(1);
            let shared = share_equal_subterms(&ours, &theirs, deadline);
            assert_eq!(shared, ours.zero_ext(1).simplify());
            // A different function is never replaced.
            let other = a.bvadd(&b).zero_ext(1);
            assert_eq!(share_equal_subterms(&ours, &other, deadline), other);
        });
    }

    #[test]
    fn leaf_names_parse() {
        assert_eq!(element_of("leaf3_17"), Some((3, 17)));
        assert_eq!(element_of("x"), None);
        assert_eq!(element_of("leafx_1"), None);
    }
}
