//! What synthesis finds: a short straight-line program of target
//! instructions (class members) and swizzles over the window's leaves, the
//! last step computing the window's root. Evaluated concretely for
//! screening and symbolically (Z3) for the proof, from the same code.

pub use super::grammar::arguments;
use super::grammar::{Candidate, Grammar};
use super::target::Cpu;
use dialectgen::eval::domain::Domain;
use dialectgen::eval::{Concrete, Machine};
use num_bigint::BigUint;
use z3::ast::BV;

/// Where a step's operand comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// A leaf of the window (index into `Window::leaves`).
    Leaf(usize),
    /// The result of an earlier step.
    Step(usize),
}

/// A data movement with a fixed pattern (the paper's §4.4 swizzles):
/// element `i` of the result is element `mask[i]` of the operands' elements
/// laid end to end (first operand's elements first).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Swizzle {
    /// `low_half`, `concat`, `interleave_lo`, …: for remarks and traces.
    pub name: &'static str,
    pub elem_bits: u32,
    /// Bits of each operand.
    pub operand_bits: u32,
    pub operands: usize,
    pub mask: Vec<u32>,
}

impl Swizzle {
    pub fn result_bits(&self) -> u32 {
        self.mask.len() as u32 * self.elem_bits
    }

    /// Machine instructions it costs: taking the low half of a register is
    /// free (a narrower view of it); a full interleave is two (unpack low
    /// and high); every other pattern is one shuffle.
    pub fn cost(&self) -> usize {
        match self.name {
            "low_half" => 0,
            "interleave" | "restore_lanes" => 2,
            _ => 1,
        }
    }

    /// The swizzles over `operands` operands of `bits` bits each, for every
    /// element size that divides them. One operand: its low or high half,
    /// halves swapped, rotation by one element. Two: concatenation,
    /// interleaving (of all elements, or of the low or high halves), even
    /// or odd elements (deinterleaving).
    pub fn family(bits: u32, operands: usize) -> Vec<Swizzle> {
        let make =
            |name, elem_bits: u32, mask: Vec<u32>| Swizzle { name, elem_bits, operand_bits: bits, operands, mask };
        // Halves and concatenation move whole halves: the widest element that fits.
        let widest = |total: u32| [64u32, 32, 16, 8].into_iter().find(|e| total % e == 0);
        let mut out = Vec::new();
        if operands == 1 {
            if let Some(e) = widest(bits / 2).filter(|_| bits % 2 == 0) {
                let n = bits / e;
                out.push(make("low_half", e, (0..n / 2).collect()));
                out.push(make("high_half", e, (n / 2..n).collect()));
                out.push(make("swap_halves", e, (0..n).map(|i| (i + n / 2) % n).collect()));
            }
            // Rotations by one element, down and up.
            for e in [8u32, 16, 32, 64].into_iter().filter(|e| bits % e == 0 && bits / e > 2) {
                let n = bits / e;
                out.push(make("rotate_down", e, (0..n).map(|i| (i + 1) % n).collect()));
                out.push(make("rotate_up", e, (0..n).map(|i| (i + n - 1) % n).collect()));
            }
            return out;
        }
        if let Some(e) = widest(bits) {
            out.push(make("concat", e, (0..2 * bits / e).collect()));
        }
        for e in [8u32, 16, 32, 64].into_iter().filter(|e| bits % e == 0) {
            let n = bits / e;
            out.push(make("interleave", e, (0..n).flat_map(|i| [i, n + i]).collect()));
        }
        for e in [8u32, 16, 32, 64] {
            if bits % (2 * e) != 0 {
                continue;
            }
            let n = bits / e;
            out.push(make("interleave_lo", e, (0..n / 2).flat_map(|i| [i, n + i]).collect()));
            out.push(make("interleave_hi", e, (n / 2..n).flat_map(|i| [i, n + i]).collect()));
            out.push(make("even", e, (0..n).map(|i| 2 * i).collect()));
            out.push(make("odd", e, (0..n).map(|i| 2 * i + 1).collect()));
        }
        out
    }

    /// The transpose of a `rows` x `cols` matrix of `elem_bits`-bit
    /// elements held row by row in one operand: the `cols` x `rows` matrix,
    /// row by row.
    pub fn transpose(rows: u32, cols: u32, elem_bits: u32) -> Swizzle {
        Swizzle {
            name: "transpose",
            elem_bits,
            operand_bits: rows * cols * elem_bits,
            operands: 1,
            mask: (0..cols).flat_map(|j| (0..rows).map(move |i| i * cols + j)).collect(),
        }
    }

    /// The transposes of one operand of `bits` bits: every shape of at
    /// least two rows and two columns, at every element size.
    pub fn transposes(bits: u32) -> Vec<Swizzle> {
        let mut out = Vec::new();
        for e in [8u32, 16, 32, 64].into_iter().filter(|e| bits % e == 0) {
            let n = bits / e;
            out.extend((2..=n / 2).filter(|r| n % r == 0).map(|r| Swizzle::transpose(r, n / r, e)));
        }
        out
    }

    pub fn apply<D: Domain>(&self, dom: &mut D, operands: &[D::Bv]) -> D::Bv {
        let (w, n) = (self.elem_bits, self.operand_bits / self.elem_bits);
        let element = |dom: &mut D, k: u32| {
            let (op, i) = ((k / n) as usize, k % n);
            dom.extract(&operands[op.min(operands.len() - 1)], self.operand_bits, (i + 1) * w - 1, i * w)
        };
        let mut bits = element(dom, self.mask[0]);
        for (j, &k) in self.mask.iter().enumerate().skip(1) {
            let e = element(dom, k);
            bits = dom.concat(&e, w, &bits, j as u32 * w);
        }
        bits
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum StepOp {
    /// A target instruction: the grammar's candidate and its immediates.
    Instr {
        candidate: usize,
        immediates: Vec<(String, u32)>,
    },
    Swizzle(Swizzle),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub op: StepOp,
    /// One per operand of the instruction (immediates excluded) or swizzle.
    pub operands: Vec<Source>,
}

/// Why a program has no value on the leaves given.
#[derive(Debug, thiserror::Error)]
pub enum ProgramError {
    /// An instruction's semantics cannot be evaluated on its arguments.
    #[error(transparent)]
    Semantics(#[from] dialectgen::eval::EvalError),
    /// An instruction's concrete evaluation gave no value.
    #[error("an instruction of the program was not evaluated")]
    Unevaluated,
    #[error("an empty program")]
    Empty,
}

impl From<ProgramError> for super::proof_failure::ProofFailure {
    fn from(e: ProgramError) -> Self {
        super::proof_failure::ProofFailure::NotCompared(e.to_string())
    }
}

/// Steps in order; the last computes the window's root.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    pub steps: Vec<Step>,
}

impl Program {
    pub fn single(candidate: usize, operands: &[usize], immediates: Vec<(String, u32)>) -> Program {
        let operands = operands.iter().map(|l| Source::Leaf(*l)).collect();
        Program { steps: vec![Step { op: StepOp::Instr { candidate, immediates }, operands }] }
    }

    /// Sum of the steps' costs (class database costs; swizzles as [`Swizzle::cost`]).
    pub fn cost(&self, grammar: &Grammar) -> usize {
        self.steps
            .iter()
            .map(|s| match &s.op {
                StepOp::Instr { candidate, .. } => grammar.candidates[*candidate].cost,
                StepOp::Swizzle(z) => z.cost(),
            })
            .sum()
    }

    /// Cycles per run on `cpu`'s model: its instructions' prices together
    /// on the CPU's ports ([`Cpu::throughput`]), each swizzle as the
    /// shuffle LLVM selects for its mask (`op_price::shuffle`); `None`
    /// where the CPU has no table, or an instruction or a swizzle's
    /// pattern has no price there.
    pub fn cycles(&self, grammar: &Grammar, cpu: Cpu) -> Option<f64> {
        let mut prices = Vec::new();
        for s in &self.steps {
            match &s.op {
                StepOp::Instr { candidate, .. } => {
                    prices.push(cpu.instruction(&grammar.candidates[*candidate].intrinsic)?.clone())
                }
                StepOp::Swizzle(z) if z.cost() == 0 => {}
                StepOp::Swizzle(z) => {
                    let lanes = z.operand_bits / z.elem_bits;
                    prices.push(super::op_price::shuffle(cpu, z.operands, lanes, z.elem_bits, &z.mask)?)
                }
            }
        }
        cpu.throughput(&prices)
    }

    /// `autollvm.x(…) ; shuffle(…)`: for remarks and traces.
    pub fn describe(&self, grammar: &Grammar) -> String {
        let names: Vec<String> = self
            .steps
            .iter()
            .map(|s| match &s.op {
                StepOp::Instr { candidate, .. } => grammar.candidates[*candidate].intrinsic.clone(),
                StepOp::Swizzle(z) => format!("{}<{}>", z.name, z.elem_bits),
            })
            .collect();
        names.join(" ; ")
    }

    /// The program's result on concrete leaves; `None` where an
    /// instruction's semantics cannot be evaluated. Instruction steps go
    /// through the grammar's memo of evaluations.
    pub fn run_concrete(&self, grammar: &Grammar, leaves: &[BigUint]) -> Option<BigUint> {
        let run = |_: &mut Concrete, index: usize, c: &Candidate, args: Vec<BigUint>| {
            grammar.evaluations.run(index, c, args).ok_or(ProgramError::Unevaluated)
        };
        self.evaluate_with(&mut Concrete, grammar, leaves, run).ok()
    }

    /// The program's result as a Z3 term over the leaves' terms; with
    /// `abstracted`, products and quotients are uninterpreted functions.
    pub fn formula(&self, grammar: &Grammar, leaves: &[BV], abstracted: bool) -> Result<BV, ProgramError> {
        use dialectgen::eval::smt::Smt;
        let mut dom = if abstracted { Smt::abstracted() } else { Smt::exact() };
        let run = |dom: &mut Smt, _: usize, c: &Candidate, args: Vec<BV>| {
            Machine::new(dom, c.semantics()).run(&args).map_err(ProgramError::from)
        };
        self.evaluate_with(&mut dom, grammar, leaves, run)
    }

    /// The program's result over any evaluation domain; `run` evaluates one
    /// instruction step (candidate index, candidate, arguments in its
    /// semantics' order).
    fn evaluate_with<D: Domain>(
        &self,
        dom: &mut D,
        grammar: &Grammar,
        leaves: &[D::Bv],
        mut run: impl FnMut(&mut D, usize, &Candidate, Vec<D::Bv>) -> Result<D::Bv, ProgramError>,
    ) -> Result<D::Bv, ProgramError> {
        let mut values: Vec<D::Bv> = Vec::with_capacity(self.steps.len());
        for step in &self.steps {
            let ops: Vec<D::Bv> = step.operands.iter().map(|s| fetch(s, leaves, &values).clone()).collect();
            let v = match &step.op {
                StepOp::Instr { candidate, immediates } => {
                    let c = &grammar.candidates[*candidate];
                    let imms: Vec<u32> = immediates.iter().map(|(_, v)| *v).collect();
                    // Immediates as literals of their widths, made before `arguments` borrows them.
                    let literals: Vec<((u32, u32), D::Bv)> = c
                        .immediates
                        .iter()
                        .zip(&imms)
                        .map(|((pos, _, _), &v)| {
                            let w = c.semantics().args[*pos].width;
                            ((v, w), dom.literal(&BigUint::from(v), w))
                        })
                        .collect();
                    let literal =
                        |v: u32, w: u32| literals.iter().find(|(k, _)| *k == (v, w)).expect("made above").1.clone();
                    let args = arguments(c, &ops, &imms, &literal);
                    run(&mut *dom, *candidate, c, args)?
                }
                StepOp::Swizzle(z) => z.apply(dom, &ops),
            };
            values.push(v);
        }
        values.pop().ok_or(ProgramError::Empty)
    }
}

fn fetch<'a, T>(s: &Source, leaves: &'a [T], values: &'a [T]) -> &'a T {
    match s {
        Source::Leaf(l) => &leaves[*l],
        Source::Step(k) => &values[*k],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lanes(x: &BigUint, w: u32, n: u32) -> Vec<u64> {
        (0..n).map(|i| ((x >> (i * w)) & BigUint::from((1u64 << w) - 1)).try_into().unwrap()).collect()
    }

    #[test]
    fn swizzles_move_elements_as_named() {
        let a = BigUint::from(0x0706_0504_0302_0100u64);
        let b = BigUint::from(0x1716_1514_1312_1110u64);
        let family = Swizzle::family(64, 2);
        let by = |name: &str, w: u32| family.iter().find(|z| z.name == name && z.elem_bits == w).unwrap();
        let r = by("interleave_lo", 8).apply(&mut Concrete, &[a.clone(), b.clone()]);
        assert_eq!(lanes(&r, 8, 8), [0x00, 0x10, 0x01, 0x11, 0x02, 0x12, 0x03, 0x13]);
        let r = by("odd", 16).apply(&mut Concrete, &[a.clone(), b.clone()]);
        assert_eq!(lanes(&r, 16, 4), [0x0302, 0x0706, 0x1312, 0x1716]);
        let r = by("concat", 64).apply(&mut Concrete, &[a.clone(), b.clone()]);
        assert_eq!(r, (b << 64u32) | &a);
        let halves = Swizzle::family(128, 1);
        let x = BigUint::from(0x1111u64) | (BigUint::from(0x2222u64) << 64u32);
        let hi = halves.iter().find(|z| z.name == "high_half").unwrap().apply(&mut Concrete, &[x.clone()]);
        assert_eq!(hi, BigUint::from(0x2222u64));
        let r =
            halves.iter().find(|z| z.name == "rotate_down" && z.elem_bits == 16).unwrap().apply(&mut Concrete, &[x]);
        assert_eq!(lanes(&r, 16, 8), [0, 0, 0, 0x2222, 0, 0, 0, 0x1111]);
    }

    #[test]
    fn transposes_swap_rows_and_columns() {
        // A 2x3 matrix of bytes, row by row: [[0, 1, 2], [0x10, 0x11, 0x12]].
        let m = BigUint::from(0x12_11_10_02_01_00u64);
        let t = Swizzle::transpose(2, 3, 8).apply(&mut Concrete, std::slice::from_ref(&m));
        assert_eq!(lanes(&t, 8, 6), [0x00, 0x10, 0x01, 0x11, 0x02, 0x12]);
        let back = Swizzle::transpose(3, 2, 8).apply(&mut Concrete, &[t]);
        assert_eq!(back, m);
        // Every shape of at least 2x2 whose size divides 128 bits, at each element size.
        let shapes: Vec<(u32, usize)> = Swizzle::transposes(128).iter().map(|z| (z.elem_bits, z.mask.len())).collect();
        assert!(shapes.contains(&(32, 4)) && shapes.contains(&(8, 16)) && !shapes.contains(&(64, 2)));
    }
}
