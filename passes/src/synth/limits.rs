//! The budgets of one window's search: candidates, bindings, proofs and time.

#[derive(Clone, Debug)]
pub struct Limits {
    /// Which instructions may be used.
    pub target: super::grammar::Target,
    /// The CPU forms are priced on (`cpu=`).
    pub cpu: super::target::Cpu,
    /// Z3 budget per proof, in milliseconds (as `hydride gen`'s).
    pub proof_ms: u32,
    /// Bindings (operands and immediates) tried per candidate.
    pub bindings: usize,
    /// Candidates proved at most per window.
    pub proofs: usize,
    /// Survivors of one class (by the last instruction's class) proved at most.
    pub per_class: usize,
    /// Two-step programs: intermediate values kept (the cheapest distinct ones).
    pub components: usize,
    /// Two-step programs: pairings of a second instruction with an
    /// intermediate value screened at most (a count, not a time, so the
    /// outcome is the same on every machine), and a quarter as many of a
    /// third instruction with two; 0 turns programs of more than one step
    /// off.
    pub evaluations: usize,
    /// Wall-clock limit for one window (screening and proofs), in milliseconds.
    pub window_ms: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            target: super::grammar::Target::named("native"),
            cpu: super::grammar::Target::named("native").cpu("").expect("the default CPU resolves"),
            proof_ms: 20_000,
            bindings: 512,
            proofs: 4,
            per_class: 2,
            components: 256,
            evaluations: 8_000,
            window_ms: 60_000,
        }
    }
}
