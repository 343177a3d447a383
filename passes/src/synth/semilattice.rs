//! Proofs for windows built of one semilattice op (`arith.maxui`,
//! `maxsi`, `minui`, `minsi`), shuffles and deinterleaves.
//!
//! Such a window's result lane is the op over a set of input elements,
//! whatever the order and grouping and however often an element is read,
//! provided the op is associative, commutative and idempotent at its
//! element type. Z3 proves those three laws with the op's semantics
//! (`crate::synth::semantics`, as every proof does); the windows are then
//! equal if every result lane reduces the same set of input elements, which
//! is computed exactly. A bit-level query of two different maximum trees
//! over 49 taps is beyond Z3's budget; this proof costs three small queries
//! and set unions.

use super::attr::Attr;
use super::block::{BlockOp, Dataflow, RootWithoutResult, Window};
use super::proof::{windows_equal, LeafElements};
use super::proof_failure::ProofFailure;
use super::types::Ty;
use std::collections::{BTreeSet, HashMap};

/// Why two windows of a semilattice op were not proved equal.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SemilatticeFailure {
    /// Z3 did not prove one of the three laws for the op at its type.
    #[error("`{op}` at i{elem_bits} is not {law}: {why}")]
    NotALaw { op: String, elem_bits: u32, law: &'static str, why: ProofFailure },
    #[error("the results differ in lanes: {left} and {right}")]
    Lanes { left: usize, right: usize },
    /// The first result lane whose sets of input elements differ.
    #[error("result lane {0} reduces other input elements")]
    OtherElements(usize),
    /// An op of the window that is neither the semilattice op nor a move.
    #[error("`{op}` is neither `{semilattice}` nor a shuffle or deinterleave")]
    OtherOp { op: String, semilattice: String },
    #[error("{leaves} leaves, {sources} sources")]
    Sources { leaves: usize, sources: usize },
    #[error(transparent)]
    NoRootResult(#[from] RootWithoutResult),
    /// A window that is not well formed (what is wrong).
    #[error("{0}")]
    Malformed(&'static str),
}

/// The ops this proof covers.
pub const OPS: &[&str] = &["arith.maxui", "arith.maxsi", "arith.minui", "arith.minsi"];

/// Z3's budget for each law, in milliseconds (at most the pass's `proof-ms`).
const LAW_MS: u32 = 2_000;

/// Proves two windows of the semilattice op `name`, `vector.shuffle` and
/// `vector.deinterleave` equal, each leaf holding the input elements its [`LeafElements`] says.
pub fn windows_equal_reading(
    name: &str,
    left: (&Dataflow, &Window, &[LeafElements]),
    right: (&Dataflow, &Window, &[LeafElements]),
    ms: u32,
) -> Result<(), SemilatticeFailure> {
    let untyped = SemilatticeFailure::Malformed("an untyped result");
    let elem_bits = left.0.type_of(left.1.root_value(left.0)?).ok_or(untyped)?.elem_bits;
    laws(name, elem_bits, LAW_MS.min(ms))?;
    let (l, r) = (reduced_sets(name, left)?, reduced_sets(name, right)?);
    if l.len() != r.len() {
        return Err(SemilatticeFailure::Lanes { left: l.len(), right: r.len() });
    }
    match l.iter().zip(&r).position(|(a, b)| a != b) {
        None => Ok(()),
        Some(lane) => Err(SemilatticeFailure::OtherElements(lane)),
    }
}

/// The single-use tree of one semilattice op ending at op `root`: its ops
/// and the values it reads (its leaves, in the order met), each computed
/// in the block by an op of another kind or read elsewhere too. `None`
/// where `root` is no such op, is read by one op of its kind alone (whose
/// tree holds it), the tree reads a value from outside the block, or it
/// holds more than `most` ops and leaves.
pub fn tree(flow: &Dataflow, root: usize, most: usize) -> Option<(BTreeSet<usize>, Vec<usize>)> {
    let op = &flow.ops[root];
    if !OPS.contains(&op.name.as_str()) || op.results.len() != 1 {
        return None;
    }
    if let [only] = flow.readers(op.results[0]) {
        if flow.ops[*only].name == op.name {
            return None;
        }
    }
    let mut inside: BTreeSet<usize> = BTreeSet::from([root]);
    let mut pending: Vec<usize> = op.operands.clone();
    let mut leaves: Vec<usize> = Vec::new();
    while let Some(v) = pending.pop() {
        let def = flow.defining_op(v)?;
        let d = &flow.ops[def];
        if d.name == op.name && flow.readers(v).len() == 1 && !inside.contains(&def) {
            inside.insert(def);
            pending.extend(&d.operands);
        } else {
            leaves.push(v);
        }
        if inside.len() + leaves.len() > most {
            return None;
        }
    }
    Some((inside, leaves))
}

/// An input element: its source and position.
type Element = (usize, u32);

/// Per result lane, the input elements the window's op reduces.
fn reduced_sets(
    name: &str,
    (flow, window, sources): (&Dataflow, &Window, &[LeafElements]),
) -> Result<Vec<BTreeSet<Element>>, SemilatticeFailure> {
    use SemilatticeFailure::Malformed;
    if sources.len() != window.leaves.len() {
        return Err(SemilatticeFailure::Sources { leaves: window.leaves.len(), sources: sources.len() });
    }
    let mut sets: HashMap<usize, Vec<BTreeSet<Element>>> = HashMap::new();
    for (v, s) in window.leaves.iter().zip(sources) {
        let ty = flow.type_of(*v).ok_or(Malformed("an untyped leaf"))?;
        sets.insert(*v, (0..ty.lanes()).map(|i| BTreeSet::from([(s.source, s.first + i)])).collect());
    }
    let operand = |sets: &HashMap<usize, Vec<BTreeSet<Element>>>, v: &usize| {
        sets.get(v).cloned().ok_or(Malformed("an operand the window does not compute"))
    };
    for &pos in &window.ops {
        let op = &flow.ops[pos];
        let result = match op.name.as_str() {
            n if n == name && op.operands.len() == 2 => {
                let (a, b) = (operand(&sets, &op.operands[0])?, operand(&sets, &op.operands[1])?);
                a.into_iter().zip(b).map(|(x, y)| x.union(&y).copied().collect()).collect()
            }
            "vector.shuffle" if op.operands.len() == 2 => {
                let Some(Attr::Ints(mask)) = op.attribute("mask") else {
                    return Err(Malformed("a shuffle without a mask"));
                };
                let mut all = operand(&sets, &op.operands[0])?;
                all.extend(operand(&sets, &op.operands[1])?);
                mask.iter()
                    .map(|&m| {
                        usize::try_from(m)
                            .ok()
                            .and_then(|m| all.get(m).cloned())
                            .ok_or(Malformed("a mask index out of range"))
                    })
                    .collect::<Result<_, _>>()?
            }
            "vector.deinterleave" if op.operands.len() == 1 && op.results.len() == 2 => {
                // The even lanes, then the odd ones.
                let all = operand(&sets, &op.operands[0])?;
                let (even, odd): (Vec<_>, Vec<_>) = all.into_iter().enumerate().partition(|(i, _)| i % 2 == 0);
                sets.insert(op.results[0], even.into_iter().map(|(_, s)| s).collect());
                sets.insert(op.results[1], odd.into_iter().map(|(_, s)| s).collect());
                continue;
            }
            other => return Err(SemilatticeFailure::OtherOp { op: other.to_string(), semilattice: name.to_string() }),
        };
        let value = *op.results.first().ok_or(Malformed("an op without a result"))?;
        sets.insert(value, result);
    }
    sets.remove(&window.root_value(flow)?).ok_or(Malformed("the root computes nothing"))
}

/// Z3: `name` at `elem_bits`-bit integers is associative, commutative and
/// idempotent; proved once per process.
fn laws(name: &str, elem_bits: u32, ms: u32) -> Result<(), SemilatticeFailure> {
    use std::collections::HashSet;
    use std::sync::{Mutex, OnceLock, PoisonError};
    static HOLD: OnceLock<Mutex<HashSet<(String, u32)>>> = OnceLock::new();
    let hold = HOLD.get_or_init(Default::default);
    let key = (name.to_string(), elem_bits);
    if hold.lock().unwrap_or_else(PoisonError::into_inner).contains(&key) {
        return Ok(());
    }
    prove_laws(name, elem_bits, ms)?;
    hold.lock().unwrap_or_else(PoisonError::into_inner).insert(key);
    Ok(())
}

fn prove_laws(name: &str, elem_bits: u32, ms: u32) -> Result<(), SemilatticeFailure> {
    let ty = Ty { dims: Vec::new(), elem_bits };
    // Values 0, 1, 2 are the inputs a, b, c; results from 10 on.
    let op = |index: usize, a: usize, b: usize, result: usize| BlockOp {
        index,
        name: name.to_string(),
        operands: vec![a, b],
        operand_types: vec![Some(ty.clone()); 2],
        results: vec![result],
        result_types: vec![Some(ty.clone())],
        attributes: Vec::new(),
        has_regions: false,
        unmodelled_vectors: Vec::new(),
    };
    // The window of `ops` whose leaves are exactly `leaves`, in order.
    let prove = |law: &'static str, lhs: Vec<BlockOp>, rhs: Vec<BlockOp>, leaves: Vec<usize>| {
        let (lf, rf) = (Dataflow::new(&lhs), Dataflow::new(&rhs));
        let window =
            |ops: &[BlockOp]| Window { ops: (0..ops.len()).collect(), leaves: leaves.clone(), root: ops.len() - 1 };
        windows_equal((&lf, &window(&lhs)), (&rf, &window(&rhs)), ms).map_err(|why| SemilatticeFailure::NotALaw {
            op: name.to_string(),
            elem_bits,
            law,
            why,
        })
    };
    prove(
        "associative",
        vec![op(0, 0, 1, 10), op(1, 10, 2, 11)],
        vec![op(0, 1, 2, 10), op(1, 0, 10, 11)],
        vec![0, 1, 2],
    )?;
    prove("commutative", vec![op(0, 0, 1, 10)], vec![op(0, 1, 0, 10)], vec![0, 1])?;
    // `a op a` against `a op a op a`... idempotence as `(a op b) op b == a op b`.
    prove("idempotent", vec![op(0, 0, 1, 10), op(1, 10, 1, 11)], vec![op(0, 0, 1, 10)], vec![0, 1])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op(index: usize, name: &str, operands: Vec<usize>, result: usize, ty: &Ty, mask: Option<Vec<i64>>) -> BlockOp {
        BlockOp {
            index,
            name: name.to_string(),
            operand_types: vec![Some(ty.clone()); operands.len()],
            operands,
            results: vec![result],
            result_types: vec![Some(ty.clone())],
            attributes: mask.map(|m| vec![("mask".to_string(), Attr::Ints(m))]).unwrap_or_default(),
            has_regions: false,
            unmodelled_vectors: Vec::new(),
        }
    }

    /// Four lanes of one row of three taps at offsets 0, 1, 2: the max of
    /// the three loads equals the max of the outer two and the middle one
    /// shuffled out of them; a shuffle one element off does not, and the
    /// lane that differs is named.
    #[test]
    fn a_middle_column_shuffled_out_of_the_outer_ones_is_the_same_maximum() {
        let ty = Ty { dims: vec![4], elem_bits: 8 };
        let taps =
            vec![op(0, "arith.maxui", vec![0, 1], 10, &ty, None), op(1, "arith.maxui", vec![10, 2], 11, &ty, None)];
        let tap_flow = Dataflow::new(&taps);
        let tap_window = Window { ops: vec![0, 1], leaves: vec![0, 1, 2], root: 1 };
        let at = |first| LeafElements { source: 0, first };
        let tap_sources = [at(0), at(1), at(2)];
        let columns = |mask: Vec<i64>| {
            vec![
                op(0, "vector.shuffle", vec![0, 2], 10, &ty, Some(mask)),
                op(1, "arith.maxui", vec![0, 10], 11, &ty, None),
                op(2, "arith.maxui", vec![11, 2], 12, &ty, None),
            ]
        };
        let right = columns(vec![1, 2, 3, 6]);
        let right_flow = Dataflow::new(&right);
        let right_window = Window { ops: vec![0, 1, 2], leaves: vec![0, 2], root: 2 };
        let outer = [at(0), at(2)];
        let left = (&tap_flow, &tap_window, &tap_sources[..]);
        assert_eq!(windows_equal_reading("arith.maxui", left, (&right_flow, &right_window, &outer), 2_000), Ok(()));
        let wrong = columns(vec![1, 2, 3, 7]);
        let wrong_flow = Dataflow::new(&wrong);
        assert_eq!(
            windows_equal_reading("arith.maxui", left, (&wrong_flow, &right_window, &outer), 2_000),
            Err(SemilatticeFailure::OtherElements(3))
        );
    }

    /// The maximum of both halves of two deinterleaved rows is the maximum
    /// of the rows deinterleaved once; with only the even half of one row
    /// it is not, and the first lane that differs is named.
    #[test]
    fn halves_of_two_rows_are_the_halves_of_their_maximum() {
        let row = Ty { dims: vec![4], elem_bits: 8 };
        let half = Ty { dims: vec![2], elem_bits: 8 };
        let split = |index: usize, operand: usize, results: [usize; 2]| BlockOp {
            index,
            name: "vector.deinterleave".into(),
            operands: vec![operand],
            operand_types: vec![Some(row.clone())],
            results: results.to_vec(),
            result_types: vec![Some(half.clone()); 2],
            attributes: Vec::new(),
            has_regions: false,
            unmodelled_vectors: Vec::new(),
        };
        let max = |index: usize, operands: Vec<usize>, result: usize, ty: &Ty| {
            op(index, "arith.maxui", operands, result, ty, None)
        };
        let pool = |last: usize| {
            vec![
                split(0, 0, [10, 11]),
                split(1, 1, [12, 13]),
                max(2, vec![10, 11], 14, &half),
                max(3, vec![12, last], 15, &half),
                max(4, vec![14, 15], 16, &half),
            ]
        };
        let (left, wrong) = (pool(13), pool(12));
        let (left_flow, wrong_flow) = (Dataflow::new(&left), Dataflow::new(&wrong));
        let left_window = Window { ops: (0..5).collect(), leaves: vec![0, 1], root: 4 };
        let right = vec![max(0, vec![0, 1], 10, &row), split(1, 10, [11, 12]), max(2, vec![11, 12], 13, &half)];
        let right_flow = Dataflow::new(&right);
        let right_window = Window { ops: vec![0, 1, 2], leaves: vec![0, 1], root: 2 };
        let rows = [LeafElements { source: 0, first: 0 }, LeafElements { source: 1, first: 0 }];
        let new = (&right_flow, &right_window, &rows[..]);
        assert_eq!(windows_equal_reading("arith.maxui", (&left_flow, &left_window, &rows), new, 2_000), Ok(()));
        assert_eq!(
            windows_equal_reading("arith.maxui", (&wrong_flow, &left_window, &rows), new, 2_000),
            Err(SemilatticeFailure::OtherElements(0))
        );
    }

    /// Subtraction is not commutative: the laws refuse it.
    #[test]
    fn an_op_that_is_not_a_semilattice_is_refused() {
        assert!(laws("arith.maxsi", 8, 2_000).is_ok());
        let e = laws("arith.subi", 8, 2_000).unwrap_err();
        assert!(
            matches!(&e, SemilatticeFailure::NotALaw { law: "associative", why: ProofFailure::Differs { .. }, .. }),
            "{e}"
        );
    }
}
