//! Why a chain of products by constants was not computed two products at a
//! time ([`super::products`]), as the remarks of `hydride-synthesize` say.

use super::proof_failure::ProofFailure;

/// A chain of `terms` products by constants that was not paired, and why.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("as a sum of {terms} products by constants, {how}: {why}")]
pub struct ChainUnpaired {
    pub terms: usize,
    /// How the chain was taken: two products at a time, or one.
    pub how: &'static str,
    pub why: NotPaired,
}

/// Why a chain of products was not paired.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum NotPaired {
    #[error("an input is lanes moved from another value")]
    MovedInputs,
    #[error("every weight is 1 or -1, no product to pair")]
    UnitWeights,
    /// No layout of the chain's inputs and sums in registers (what pairs need).
    #[error("no layout: pairs need {0}")]
    NoLayout(&'static str),
    #[error("a weight or a pair's sum does not fit a pairwise multiply-add")]
    WeightsDoNotFit,
    /// Taken one input at a time, the chain starts with a widening product.
    #[error("no weight past 1 is positive to start the chain with a product, or a weight is past a byte")]
    NoStartingProduct,
    /// The target has no instruction of a pair's width (bits).
    #[error("the target has no instruction of a pair's {0} bits")]
    NoInstructionOfWidth(u32),
    #[error("no program of the target computes a pair's window")]
    NoPairProgram,
    #[error("no program of the target adds a pair into the chain")]
    NoChainAdd,
    #[error("no program of the target adds the two inputs' products")]
    NoProductAdd,
    #[error("a pair's program reads other values")]
    ReadsOtherValues,
    #[error("the pairs read other inputs")]
    ReadsOtherInputs,
    #[error("an input has no type")]
    UntypedInput,
    #[error("the program differs from the chain on samples (please report this chain)")]
    DiffersOnSamples,
    /// The program costs no fewer instructions than LLVM's chain.
    #[error("the program costs {cost} instructions, not fewer than the chain's {chain} in target registers")]
    Dearer { cost: usize, chain: usize },
    /// Weighed with the chains that share its inputs, still no cheaper.
    #[error(
        "the program costs {cost} instructions, not fewer than the chain's {chain} in target registers; with the \
         {siblings} chains sharing its inputs, {together}, not fewer than their {theirs}"
    )]
    DearerWithSiblings { cost: usize, chain: usize, siblings: usize, together: usize, theirs: usize },
    /// On the CPU's model, the programs (with the chains sharing its
    /// inputs, if any) take no fewer cycles than LLVM's chains.
    #[error("the program is no cheaper than the chain: {0}")]
    DearerOnCpu(String),
    #[error("the chain is not proved equal to its pairs: {0}")]
    ChainUnproved(ProofFailure),
    #[error("pair {pair}'s program not proved: {why}")]
    PairUnproved { pair: usize, why: ProofFailure },
}
