//! Private extensions: a vector `arith.extsi` or `arith.extui` that several
//! multiplications of its block by computed values read, and nothing else,
//! is copied once per multiplication, the copy placed right before it, so
//! every product's dataflow starts at the narrow value.
//!
//! The idiom it serves is register blocking: a loop that keeps several
//! accumulators (rows of a batch, filters of a convolution, an unrolled
//! reduction) extends the operand they share once and multiplies it into
//! each. The synthesis grows a window back from each accumulator through
//! values read only inside it, so the shared extension ends every window
//! as a wide leaf, and a dot-product or widening-multiply instruction,
//! which reads the narrow elements, can no longer be found for any of them.
//! With a copy each, every window reads the narrow value; copies the
//! synthesis does not consume are the same computation as the original,
//! which LLVM merges again (common subexpressions of a block).
//!
//! Products by constants are left alone: sums of products by constants
//! (stencils' taps weighted in two sums, as a Sobel operator's) are taken
//! whole, a shared tap read once (`crate::synth::products`); copies split
//! them, and on Zen 4 Sobel 5x5 cost more.
//!
//! An extension with any other reader in its block is left shared: that
//! reader keeps it alive, so a window that took a copy would count as saved
//! an extension that stays (the synthesis joins a value read twice into
//! one window once all its readers are inside, which covers extensions
//! read by, say, both a maximum and a minimum). Readers in a nested region
//! (a loop body reading an extension made before the loop) are not
//! counted and keep the original, so nothing moves into a loop. The
//! rewrite changes no value, so it needs no proof.

use super::failure::RewriteError;
use super::raw;
use melior::ir::operation::{OperationLike, OperationResult};
use melior::ir::{BlockLike, OperationRef, Value, ValueLike};

const EXTENSIONS: [&str; 2] = ["arith.extsi", "arith.extui"];

/// Copies every vector extension under `root` that only multiplications
/// share, once per multiplication; returns
/// how many copies it made.
pub fn run(root: OperationRef) -> Result<usize, RewriteError> {
    let extensions: Vec<OperationRef> = raw::nested_ops(root)
        .into_iter()
        .filter(|op| op.name().as_string_ref().as_str().is_ok_and(|n| EXTENSIONS.contains(&n)))
        .filter(|op| op.result(0).is_ok_and(|r| super::read::ty(r.r#type()).is_some_and(|t| !t.dims.is_empty())))
        .collect();
    let mut copies = 0;
    for ext in extensions {
        copies += make_private(ext)?;
    }
    Ok(copies)
}

/// Whether `user` is an `arith.muli` whose operand other than `index` is
/// computed (not an `arith.constant`): a product by a constant belongs to
/// the sums of products by constants, which read a tap shared by several
/// of them once (`crate::synth::products`).
fn by_a_variable(user: OperationRef, index: usize) -> bool {
    if user.name().as_string_ref().as_str() != Ok("arith.muli") || user.operand_count() != 2 {
        return false;
    }
    let Ok(other) = user.operand(1 - index.min(1)) else { return false };
    OperationResult::try_from(other).map_or(true, |r| r.owner().name().as_string_ref().as_str() != Ok("arith.constant"))
}

/// Gives each multiplication reading `ext` in its block but the first its
/// own copy, if multiplications are all that read it there.
fn make_private(ext: OperationRef) -> Result<usize, RewriteError> {
    let Some(block) = ext.block() else { return Ok(0) };
    let wide: Value = ext.result(0)?.into();
    let narrow = ext.operand(0)?;
    let same_block: Vec<(OperationRef, usize)> =
        raw::uses(wide).into_iter().filter(|(user, _)| user.block() == Some(block)).collect();
    let products = same_block.iter().all(|&(user, index)| by_a_variable(user, index));
    if same_block.len() < 2 || !products {
        return Ok(0);
    }
    let mut copies = 0;
    for (user, index) in same_block.into_iter().skip(1) {
        let copy = block.insert_operation_before(user, raw::clone_with_operands(ext, &[narrow], ext.location()));
        raw::set_operand(user, index, copy.result(0)?.into());
        copies += 1;
    }
    Ok(copies)
}
