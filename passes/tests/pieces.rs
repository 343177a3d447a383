//! Width legalization: which windows are cut into register-sized pieces,
//! and the piece window synthesis sees.

use hydride::synth::attr::Attr;
use hydride::synth::block::{BlockOp, Dataflow, Window};
use hydride::synth::pieces::{piece_block, widened_block, Split, Widening};
use num_bigint::BigInt;

mod common;

fn block(body: &str, args: &str, result: &str) -> Vec<BlockOp> {
    common::function_blocks(&format!("func.func @f({args}) -> {result} {{\n{body}\n}}")).remove(0)
}

/// `trunc(min(ext a + ext b, 255))` over `lanes` u8 lanes, ending in `tail`.
fn saturating_add(lanes: u32, tail: &str, result: &str) -> Vec<BlockOp> {
    saturating_add_of(&format!("vector<{lanes}xi8>"), &format!("vector<{lanes}xi16>"), tail, result)
}

/// `trunc(min(ext a + ext b, 255))` from bytes of type `n` through `w`,
/// ending in `tail`.
fn saturating_add_of(n: &str, w: &str, tail: &str, result: &str) -> Vec<BlockOp> {
    block(
        &format!(
            "  %m = arith.constant dense<255> : {w}
  %0 = arith.extui %a : {n} to {w}
  %1 = arith.extui %b : {n} to {w}
  %2 = arith.addi %0, %1 : {w}
  %3 = arith.minui %2, %m : {w}
  %4 = arith.trunci %3 : {w} to {n}
{tail}"
        ),
        &format!("%a: {n}, %b: {n}"),
        result,
    )
}

/// `resize` applied to the window of `ops` rooted at `root`.
fn resized<T>(ops: &[BlockOp], root: usize, resize: impl Fn(&Dataflow, &Window) -> Option<T>) -> Option<T> {
    let flow = Dataflow::new(ops);
    let window = flow.window(root, 16, 8, true, &|_| true);
    resize(&flow, &window)
}

fn cut(ops: &[BlockOp], root: usize, register_bits: u32) -> Option<(Vec<BlockOp>, usize, Split)> {
    resized(ops, root, |flow, window| piece_block(flow, window, register_bits))
}

/// Every operand and result of every op is a vector of `dims`.
fn assert_every_value_is(ops: &[BlockOp], dims: &[u32]) {
    for op in ops {
        for t in op.operand_types.iter().chain(&op.result_types) {
            assert_eq!(t.as_ref().unwrap().dims, dims, "{op:?}");
        }
    }
}

#[test]
fn a_window_wider_than_the_registers_is_cut_into_equal_pieces() {
    let ops = saturating_add(64, "  return %4 : vector<64xi8>", "vector<64xi8>");
    let (piece, root, split) = cut(&ops, 5, 256).expect("cut at 256 bits");
    assert_eq!(split, Split { pieces: 2 });
    assert_eq!(piece[root].name, "arith.trunci");
    assert_every_value_is(&piece, &[32]);
    let constant = piece.iter().find(|o| o.name == "arith.constant").unwrap();
    assert_eq!(constant.attribute("value"), Some(&Attr::Elements(vec![BigInt::from(255); 32])));
    // At 128 bits, four pieces; at 512 it fits and is not cut.
    assert_eq!(cut(&ops, 5, 128).unwrap().2, Split { pieces: 4 });
    assert!(cut(&ops, 5, 512).is_none());
    // An n-D window without a reduction is cut as its flattening.
    let n = "vector<4x64xi8>";
    let ops = saturating_add_of(n, "vector<4x64xi16>", &format!("  return %4 : {n}"), n);
    let (piece, _, split) = cut(&ops, 5, 512).expect("cut at 512 bits");
    assert_eq!(split, Split { pieces: 4 });
    assert_every_value_is(&piece, &[64]);
}

#[test]
fn windows_that_are_not_lane_wise_or_feed_a_reduction_stay_whole() {
    // A constant that differs from piece to piece.
    let lanes: Vec<String> = (0..64).map(|i| (i % 7).to_string()).collect();
    let ops = block(
        &format!(
            "  %m = arith.constant dense<[{}]> : vector<64xi16>
  %0 = arith.extui %a : vector<64xi8> to vector<64xi16>
  %1 = arith.minui %0, %m : vector<64xi16>
  %2 = arith.trunci %1 : vector<64xi16> to vector<64xi8>
  return %2 : vector<64xi8>",
            lanes.join(", ")
        ),
        "%a: vector<64xi8>",
        "vector<64xi8>",
    );
    assert!(cut(&ops, 3, 256).is_none());
    // The result feeds a reduction.
    let ops = saturating_add(64, "  %r = vector.reduction <add>, %4 : vector<64xi8> into i8\n  return %r : i8", "i8");
    assert!(cut(&ops, 5, 256).is_none());
    // A widening square that feeds a reduction through a reshape (l2norm):
    // LLVM fuses the two, which pieces would hide.
    let ops = block(
        "  %e = arith.extsi %v : vector<32xi16> to vector<32xi32>
  %sq = arith.muli %e, %e : vector<32xi32>
  %sq2 = vector.shape_cast %sq : vector<32xi32> to vector<16x2xi32>
  %s = vector.multi_reduction <add>, %sq2, %a [1] : vector<16x2xi32> to vector<16xi32>
  return %s : vector<16xi32>",
        "%v: vector<32xi16>, %a: vector<16xi32>",
        "vector<16xi32>",
    );
    assert!(cut(&ops, 1, 128).is_none());
    // Through a reshape to a store, it is cut.
    let ops = block(
        "  %e = arith.extsi %v : vector<32xi16> to vector<32xi32>
  %sq = arith.muli %e, %e : vector<32xi32>
  %sq2 = vector.shape_cast %sq : vector<32xi32> to vector<16x2xi32>
  return %sq2 : vector<16x2xi32>",
        "%v: vector<32xi16>",
        "vector<16x2xi32>",
    );
    assert!(cut(&ops, 1, 128).is_some());
}

#[test]
fn a_reduction_of_each_row_is_cut_by_rows() {
    // A 4-way u8 x s8 dot product with an accumulator at 512 bits, rooted at
    // the reduction: at 128 bits, four pieces of 4 rows.
    let ops = block(
        "  %ae = arith.extui %a : vector<64xi8> to vector<64xi32>
  %be = arith.extsi %b : vector<64xi8> to vector<64xi32>
  %p = arith.muli %ae, %be : vector<64xi32>
  %p2 = vector.shape_cast %p : vector<64xi32> to vector<16x4xi32>
  %s = vector.multi_reduction <add>, %p2, %acc [1] : vector<16x4xi32> to vector<16xi32>
  return %s : vector<16xi32>",
        "%a: vector<64xi8>, %b: vector<64xi8>, %acc: vector<16xi32>",
        "vector<16xi32>",
    );
    let (piece, root, split) = cut(&ops, 4, 128).expect("cut at 128 bits");
    assert_eq!(split, Split { pieces: 4 });
    assert_eq!(piece[root].name, "vector.multi_reduction");
    assert_eq!(piece[root].operand_types[0].as_ref().unwrap().dims, vec![4, 4]);
    assert_eq!(piece[root].operand_types[1].as_ref().unwrap().dims, vec![4]);
    assert_eq!(piece[root].result_types[0].as_ref().unwrap().dims, vec![4]);
    // A reduction over the rows reads every piece: not cut.
    let ops = block(
        "  %ae = arith.extui %a : vector<64xi8> to vector<64xi32>
  %p2 = vector.shape_cast %ae : vector<64xi32> to vector<4x16xi32>
  %s = vector.multi_reduction <add>, %p2, %acc [0] : vector<4x16xi32> to vector<16xi32>
  return %s : vector<16xi32>",
        "%a: vector<64xi8>, %acc: vector<16xi32>",
        "vector<16xi32>",
    );
    assert!(cut(&ops, 2, 128).is_none());
}

fn widen(ops: &[BlockOp], root: usize, register_bits: u32) -> Option<(Vec<BlockOp>, usize, Widening)> {
    resized(ops, root, |flow, window| widened_block(flow, window, register_bits))
}

#[test]
fn a_window_narrower_than_the_registers_is_widened_to_fill_one() {
    let ops = saturating_add(64, "  return %4 : vector<64xi8>", "vector<64xi8>");
    let (wide, root, widening) = widen(&ops, 5, 1024).expect("widened at 1024 bits");
    assert_eq!(widening, Widening { factor: 2 });
    assert_eq!(wide[root].name, "arith.trunci");
    assert_every_value_is(&wide, &[128]);
    let constant = wide.iter().find(|o| o.name == "arith.constant").unwrap();
    assert_eq!(constant.attribute("value"), Some(&Attr::Elements(vec![BigInt::from(255); 128])));
    // Four times at 2048 bits; its own width at 512 (a register) is no widening.
    assert_eq!(widen(&ops, 5, 2048).unwrap().2, Widening { factor: 4 });
    assert!(widen(&ops, 5, 512).is_none());
    // A reduction to a scalar is not lane-wise.
    let ops = saturating_add(64, "  %r = vector.reduction <add>, %4 : vector<64xi8> into i8\n  return %r : i8", "i8");
    assert!(widen(&ops, 6, 1024).is_none());
    // A reduction of each row: its rows are repeated.
    let ops = block(
        "  %ae = arith.extui %a : vector<64xi8> to vector<64xi32>
  %p2 = vector.shape_cast %ae : vector<64xi32> to vector<16x4xi32>
  %s = vector.multi_reduction <add>, %p2, %acc [1] : vector<16x4xi32> to vector<16xi32>
  return %s : vector<16xi32>",
        "%a: vector<64xi8>, %acc: vector<16xi32>",
        "vector<16xi32>",
    );
    let (wide, root, widening) = widen(&ops, 2, 1024).expect("widened at 1024 bits");
    assert_eq!(widening, Widening { factor: 2 });
    assert_eq!(wide[root].operand_types[0].as_ref().unwrap().dims, vec![32, 4]);
    assert_eq!(wide[root].result_types[0].as_ref().unwrap().dims, vec![32]);
}
