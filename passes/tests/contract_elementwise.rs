//! The normalization of `lower-to-autollvm` that rewrites an elementwise
//! `vector.contract` as `arith.muli` and `vector.multi_reduction`
//! (`hydride::ir::contract_elementwise`), proved with Z3 on the window
//! semantics the search uses: for the shapes the suite and the tests give
//! it, the two forms compute the same function of their inputs.

use dialectgen::eval::smt::Smt;
use hydride::synth::block::Dataflow;
use hydride::synth::screen::eval_window;
use z3::ast::BV;

mod common;

/// The function `func.func @f(%a, %b, %c)` ending in `%r`, as its window:
/// its result as a term over one constant per argument.
fn result_term(body: &str, narrow: &str, wide: &str, acc: &str) -> BV {
    let mlir = format!(
        "func.func @f(%a: {narrow}, %b: {narrow}, %c: {acc}) -> {acc} {{\n  %ea = arith.extui %a : {narrow} to {wide}\n  %eb = arith.extsi %b : {narrow} to {wide}\n{body}\n  return %r : {acc}\n}}"
    );
    let ops = common::function_blocks(&mlir).remove(0);
    let flow = Dataflow::new(&ops);
    let root = ops.len() - 2;
    let window = flow.window(root, 16, 8, true, &|_| true);
    // Leaves in first-use order: %a, %b, %c in both forms.
    let leaves: Vec<BV> = window
        .leaves
        .iter()
        .enumerate()
        .map(|(i, v)| BV::new_const(format!("leaf{i}"), flow.type_of(*v).expect("a modelled type").bits()))
        .collect();
    assert_eq!(leaves.len(), 3);
    let (value, _) = eval_window(&mut Smt::exact(), &flow, &window, &leaves).expect("the window evaluates");
    value.bits
}

fn equal(lanes: u32, depth: u32) {
    let (narrow, wide, acc) =
        (format!("vector<{lanes}x{depth}xi8>"), format!("vector<{lanes}x{depth}xi32>"), format!("vector<{lanes}xi32>"));
    let contract = format!(
        "  %r = vector.contract {{indexing_maps = [affine_map<(m, k) -> (m, k)>, affine_map<(m, k) -> (m, k)>, affine_map<(m, k) -> (m)>], iterator_types = [\"parallel\", \"reduction\"], kind = #vector.kind<add>}} %ea, %eb, %c : {wide}, {wide} into {acc}"
    );
    // What the pass writes: the product over the flattened operands, reshaped
    // for the reduction.
    let n = lanes * depth;
    let reduction = format!(
        "  %fa = vector.shape_cast %a : {narrow} to vector<{n}xi8>\n  %fb = vector.shape_cast %b : {narrow} to vector<{n}xi8>\n  %xa = arith.extui %fa : vector<{n}xi8> to vector<{n}xi32>\n  %xb = arith.extsi %fb : vector<{n}xi8> to vector<{n}xi32>\n  %p1 = arith.muli %xa, %xb : vector<{n}xi32>\n  %p = vector.shape_cast %p1 : vector<{n}xi32> to {wide}\n  %r = vector.multi_reduction <add>, %p, %c [1] : {wide} to {acc}"
    );
    let (x, y) = (result_term(&contract, &narrow, &wide, &acc), result_term(&reduction, &narrow, &wide, &acc));
    let solver = z3::Solver::new();
    solver.assert(x.eq(&y).not());
    let verdict = solver.check();
    let model = solver.get_model().map(|m| format!("{m}")).unwrap_or_default();
    assert_eq!(verdict, z3::SatResult::Unsat, "{lanes}x{depth}: the two forms differ:\n{model}\n{x}\n{y}");
}

#[test]
fn an_elementwise_contraction_is_a_product_and_a_reduction() {
    equal(4, 4);
    equal(2, 8);
    equal(16, 4);
}
