//! What a class template computes, read off its statements: the
//! operations applied to data (not to indices), signedness at the places
//! it matters, saturation, rounding, and how elements are chosen. The
//! statements are read by [`super::scan::features`].

use std::collections::BTreeSet;

/// How a value's elements read as integers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Sign {
    Signed,
    Unsigned,
    /// Chosen by a class parameter (a signedness flag).
    ByParameter,
}

/// The operations a template applies to data (not to indices), in the
/// order their words appear in a name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Op {
    Galois,
    Abs,
    Neg,
    Add,
    Sub,
    AddOrSub,
    Mul,
    Div,
    Rem,
    Min,
    Max,
    And,
    Or,
    Xor,
    Not,
    Logic,
    Shl,
    Shr,
    Shift,
    PopCount,
    CountLeadingZeros,
    CountLeadingSignBits,
    Compare,
}

impl Op {
    pub(super) fn word(self) -> &'static str {
        match self {
            Op::Galois => "galois",
            Op::Abs => "abs",
            Op::Neg => "neg",
            Op::Add => "add",
            Op::Sub => "sub",
            Op::AddOrSub => "add_or_sub",
            Op::Mul => "mul",
            Op::Div => "div",
            Op::Rem => "rem",
            Op::Min => "min",
            Op::Max => "max",
            Op::And => "and",
            Op::Or => "or",
            Op::Xor => "xor",
            Op::Not => "not",
            Op::Logic => "logic",
            Op::Shl => "shl",
            Op::Shr => "shr",
            Op::Shift => "shift",
            Op::PopCount => "popcount",
            Op::CountLeadingZeros => "clz",
            Op::CountLeadingSignBits => "cls",
            Op::Compare => "cmp",
        }
    }
}

/// What a template does, read off its statements.
#[derive(Default)]
pub(super) struct Features {
    pub(super) ops: BTreeSet<Op>,
    /// Signedness of the operands of sign-sensitive operations.
    pub(super) signs: BTreeSet<Sign>,
    /// Fixed comparison predicates (`eq`, `gt`, …).
    pub(super) predicates: BTreeSet<&'static str>,
    pub(super) saturates: bool,
    pub(super) extends: bool,
    /// A narrowing that wraps (`Truncate`, a wrapping `NarrowAs`).
    pub(super) truncates: bool,
    /// A power of two added where the sum is then shifted right or its low bits dropped.
    pub(super) rounds: bool,
    /// Products in one result element.
    pub(super) products: usize,
    /// Registers read as factors of a product.
    pub(super) factors: BTreeSet<String>,
    /// A comparison whose predicate is a parameter (ordered ones among its values).
    pub(super) ordered_by_parameter: bool,
    /// An addition or subtraction of two elements of one operand.
    pub(super) pairwise: bool,
    /// An element is selected by data (a vector's element, a local computed from one).
    pub(super) data_index: bool,
    /// What is computed depends on an immediate or parameter through `CASE`.
    pub(super) case_on_argument: bool,
    /// A condition on data chooses between values.
    pub(super) conditional: bool,
    /// A literal added to a value.
    pub(super) added_literals: BTreeSet<num_bigint::BigInt>,
    /// A value's low bits dropped by a slice of a local (`v1[16:1]`).
    pub(super) drops_low_bits: bool,
    /// Where shift amounts come from.
    pub(super) shift_by: BTreeSet<ShiftBy>,
    /// A class parameter chooses between branches computing different things.
    pub(super) alternatives: bool,
    /// The operation runs within each 128-bit lane (a loop over lanes
    /// around an inner loop or a helper).
    pub(super) in_lanes: bool,
    /// An immediate's bits choose between branches (a blend).
    pub(super) chosen_by_immediate: bool,
    /// Signedness said outright (`AsInteger`, a saturation's flag, `Signed`).
    pub(super) explicit_signs: BTreeSet<Sign>,
    /// Signedness of extensions.
    pub(super) extend_signs: BTreeSet<Sign>,
    /// A loop that runs while a condition on data holds (counting).
    pub(super) counts_while: bool,
    /// One element read in every trip of a loop (a bound that does not step).
    pub(super) broadcasts: bool,
    /// One loop body writes the result from two different registers.
    pub(super) interleaves: bool,
}

/// Where a shift amount comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum ShiftBy {
    /// A number fixed by the class (a literal or a parameter).
    Constant,
    /// An immediate.
    Immediate,
    /// One value for every element (a register's low bits).
    Uniform,
    /// Each element its own amount.
    PerElement,
}
