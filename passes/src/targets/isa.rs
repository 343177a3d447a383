//! What an ISA's folder tells the passes: the [`IsaTarget`] trait and the
//! types it speaks in.

/// The most targets one ISA may have (per-candidate answers are kept per target).
pub const MAX_TARGETS: usize = 8;

/// The most ISAs the registry may hold (grammars and tables are kept per ISA).
pub const MAX_ISAS: usize = 8;

/// What the passes need to know of one instruction set.
pub trait IsaTarget: Sync {
    /// Its name in pass names, dialect names and class members.
    fn name(&self) -> &'static str;
    /// How its vendor names its vector instructions, for `--help`.
    fn title(&self) -> &'static str;
    /// The target its `hydride-<isa>-to-llvm` pipeline lowers for unless told.
    fn default_target(&self) -> &'static str;
    /// The targets `lower-to-autollvm{target=…}` knows for it.
    fn targets(&self) -> &'static [TargetSpec];
    /// What the rewrites around synthesis need to know of it.
    fn tuning(&self) -> Tuning;
    /// Its dialect's IRDL definition (generated).
    fn dialect_irdl(&self) -> &'static str;
    /// How its ops reach LLVM: its generated lowering table
    /// (`generated/<isa>/llvm-lowering.json`), read as every ISA's is.
    fn lowering(&self) -> &'static str;
    /// What its instructions and LLVM's generic operations cost on each CPU
    /// of its set (generated `cpu-costs.json`), if it has CPU models.
    fn cpu_costs(&self) -> Option<&'static str> {
        None
    }
    /// The offline rules made for it (`hydride-rules`), if any.
    fn offline_rules(&self) -> Option<OfflineRules> {
        None
    }
}

/// Where an ISA has offline rewrite rules (`crate::synth::rules`): the
/// vector widths its idioms are written at, the targets the rules are
/// searched at, and the rules found (`generated/<isa>/rules.json`).
#[derive(Clone, Copy)]
pub struct OfflineRules {
    /// Widths, in bits, of the idioms and identities (`crate::synth::idioms`).
    pub widths: &'static [u32],
    /// Names of the targets each idiom is searched at.
    pub targets: &'static [&'static str],
    /// The generated rules, as `hydride-rules` wrote them.
    pub generated: &'static str,
}

/// One target of an ISA: a name and what it allows.
pub struct TargetSpec {
    pub name: &'static str,
    /// What it is, for the `target` option's `--help`.
    pub help: &'static str,
    /// What it means here, in cache keys (a host-dependent target says what
    /// it resolved to; else its name).
    pub resolved: fn() -> String,
    /// The width of its vector registers, in bits.
    pub register_bits: fn() -> u32,
    /// How many vector registers it has.
    pub vector_registers: fn() -> u32,
    /// Whether an instruction needing these features runs on it.
    pub allows: fn(&[String]) -> bool,
    /// The CPU its code is priced for unless `cpu=` says (LLVM's name; empty
    /// where the ISA has no CPU models).
    pub default_cpu: fn() -> String,
}

/// What the rewrites around synthesis need to know of an ISA, so that none
/// of them names one. Each figure was measured with `scripts/bench` against
/// LLVM's own path; the ISA's folder says how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tuning {
    /// The narrowest stencil window (in taps) whose extremum
    /// `hydride-column-extrema` takes column by column where the CPU's
    /// model prices neither form: where the saved loads pay for the
    /// shuffles (1: any width).
    pub column_extrema_from_taps: u32,
    /// Whether a deinterleaved row comes free with its load, so
    /// `hydride-deinterleaved-extrema` leaves one deinterleave per row
    /// where the CPU's model does not price the two forms.
    pub deinterleave_free_with_load: bool,
    /// Whether extending and truncating vectors crosses 128-bit lanes on the
    /// shuffle pipes, which `hydride-in-place-widening` avoids.
    pub widening_crosses_lanes: bool,
    /// Whether `hydride-sum-as-dot` also writes pair sums of bytes spelt by
    /// lanes (even plus odd elements) as dot products with ones.
    pub pair_sums_as_dot: bool,
    /// Whether the offline rules hold the even/odd identities that
    /// `hydride-even-odd` applies where no instruction computes a 4-way dot
    /// product and the CPU's model prices neither form.
    pub even_odd_identities: bool,
    /// Whether LLVM's own chains of products by constants extend their
    /// inputs from memory and factor equal weights (the cost a program of
    /// the synthesis is compared with; the factoring also where the CPU's
    /// model prices both).
    pub llvm_extends_and_factors: bool,
    /// Whether LLVM's own chains factor equal weights where they do not
    /// extend from memory (`w·a + w·b` as `w·(a + b)`: a widening add of
    /// the two inputs, then one product).
    pub llvm_factors_weights: bool,
    /// Whether the widening multiply-adds take pairs in the halves of a
    /// register pair (else in unpacked lanes).
    pub pairs_in_halves: bool,
    /// Whether the widening multiply-accumulates of bytes keep each lane in
    /// place and read either half of a register in place: chains of
    /// products by constants are then taken one input at a time
    /// (`synth::accumulate`), not in pairs.
    pub lanewise_widening_macs: bool,
}
