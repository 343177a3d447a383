//! Unsigned division of `e`-bit lanes by a constant, as multiplications.
//!
//! LLVM divides an unsigned `x` by a constant `d` with its multiply-high
//! magic (Granlund and Montgomery): `mulhi(x, m) >> s`, where some `e`-bit
//! `m` is exact for every `x`. Where none is, and `d` is odd (an even `d`
//! is shifted out of `x` first), it takes an `e + 1`-bit multiplier and
//! adds its top bit back without overflow:
//! `(((x - q) >> 1) + q) >> (s - 1)` with `q = mulhi(x, m)`, five
//! operations. That fix-up halves `x + q` rounding down; where an
//! instruction halves a sum rounding up (`vpavgw`, `urhadd`,
//! `vavguh:rnd`), `avg(q, x) >> s` with another `m` is three, if that `m`
//! is exact for every `x`. [`rounding_average_form`] finds it, checking
//! every `x` of the type, and [`prove`] has Z3 prove it.

use super::proof_failure::ProofFailure;
use z3::ast::BV;

/// `x / d == avg(mulhi(x, multiplier), x) >> shift` for every `e`-bit `x`,
/// with `avg(a, b) = (a + b + 1) >> 1` computed without overflow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundingAverageForm {
    pub multiplier: u64,
    pub shift: u32,
}

/// The widest lanes [`rounding_average_form`] checks exhaustively.
pub const MAX_BITS: u32 = 16;

/// The rounding-average form of `x / divisor` over `bits`-bit lanes where
/// LLVM's own lowering needs its fix-up: `divisor` odd, above 1 and below
/// half the type's range, no `bits`-bit multiply-high magic exact for it,
/// and a rounding-average one exact for every `x`. `None` otherwise
/// (LLVM's form is as short, or no such multiplier exists), and for lanes
/// wider than [`MAX_BITS`].
pub fn rounding_average_form(divisor: u64, bits: u32) -> Option<RoundingAverageForm> {
    if !(2..=MAX_BITS).contains(&bits) || divisor < 3 || divisor % 2 == 0 || divisor >= 1 << (bits - 1) {
        return None;
    }
    if (0..bits).any(|s| multiply_high_exact(divisor, bits, s)) {
        return None;
    }
    (0..bits).find_map(|shift| {
        // x / d ~ x * (2^bits + m) / 2^(bits + 1 + shift): m near this.
        let near = (1u64 << (bits + 1 + shift)).div_ceil(divisor).checked_sub(1 << bits)?;
        [near.checked_sub(1), Some(near), Some(near + 1)]
            .into_iter()
            .flatten()
            .filter(|&m| m < 1 << bits)
            .map(|multiplier| RoundingAverageForm { multiplier, shift })
            .find(|form| form.exact(divisor, bits))
    })
}

/// Whether `mulhi(x, ceil(2^(bits + s) / d)) >> s` is `x / d` for every
/// `bits`-bit `x`, with a multiplier of `bits` bits.
fn multiply_high_exact(divisor: u64, bits: u32, s: u32) -> bool {
    let m = (1u64 << (bits + s)).div_ceil(divisor);
    m < 1 << bits && (0..1u64 << bits).all(|x| ((x * m) >> bits) >> s == x / divisor)
}

impl RoundingAverageForm {
    /// The form applied to one `bits`-bit `x`.
    pub fn apply(self, x: u64, bits: u32) -> u64 {
        let high = (x * self.multiplier) >> bits;
        ((high + x + 1) >> 1) >> self.shift
    }

    fn exact(self, divisor: u64, bits: u32) -> bool {
        (0..1u64 << bits).all(|x| self.apply(x, bits) == x / divisor)
    }
}

/// Z3's proof that `form` divides every `bits`-bit `x` by `divisor`: that
/// no `x` makes the form's result differ from `bvudiv(x, divisor)`,
/// bit-blasted, within `ms` milliseconds.
pub fn prove(form: RoundingAverageForm, divisor: u64, bits: u32, ms: u32) -> Result<(), ProofFailure> {
    z3::with_z3_config(&z3::Config::new(), || {
        let x = BV::new_const("x", bits);
        let wide = |v: &BV| v.zero_ext(bits);
        let constant = |v: u64| BV::from_u64(v, 2 * bits);
        let high = wide(&x).bvmul(&constant(form.multiplier)).bvlshr(&constant(u64::from(bits)));
        let average = high.bvadd(&wide(&x)).bvadd(&constant(1)).bvlshr(&constant(1));
        let quotient = average.extract(bits - 1, 0).bvlshr(&BV::from_u64(u64::from(form.shift), bits));
        // q is x / d iff q * d <= x < q * d + d (no term overflows 2 * bits).
        let product = wide(&quotient).bvmul(&constant(divisor));
        let quotient_of_x = product.bvule(&wide(&x)) & wide(&x).bvult(&product.bvadd(&constant(divisor)));
        let differs = quotient_of_x.not();
        let solver = z3::Tactic::new("simplify")
            .and_then(&z3::Tactic::new("bit-blast"))
            .and_then(&z3::Tactic::new("sat"))
            .solver();
        let mut params = z3::Params::new();
        params.set_u32("timeout", ms.max(1));
        solver.set_params(&params);
        solver.assert(&differs);
        match solver.check() {
            z3::SatResult::Unsat => Ok(()),
            z3::SatResult::Sat => Err(ProofFailure::Differs { lane: None }),
            z3::SatResult::Unknown => Err(ProofFailure::Unknown(solver.get_reason_unknown().unwrap_or_default())),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn z3_proves_the_forms_and_refutes_a_wrong_multiplier() {
        for (d, bits) in [(25u64, 16u32), (49, 16), (7, 16), (7, 8)] {
            let form = rounding_average_form(d, bits).unwrap();
            assert_eq!(prove(form, d, bits, 20_000), Ok(()), "{d}");
        }
        let form = rounding_average_form(25, 16).unwrap();
        let wrong = RoundingAverageForm { multiplier: form.multiplier + 1, ..form };
        assert_eq!(prove(wrong, 25, 16, 20_000), Err(ProofFailure::Differs { lane: None }));
    }

    #[test]
    fn forms_exist_where_llvm_needs_its_fix_up() {
        for d in [7u64, 21, 25, 49, 641] {
            let form = rounding_average_form(d, 16).expect("a rounding-average form");
            assert!((0..1u64 << 16).all(|x| form.apply(x, 16) == x / d), "{d}: {form:?}");
        }
        let form = rounding_average_form(7, 8).expect("a rounding-average form for bytes");
        assert!((0..256).all(|x| form.apply(x, 8) == x / 7));
    }

    #[test]
    fn none_where_llvm_is_as_short() {
        // 3, 5, 9 and 11 have 16-bit multiply-high magic; 10 and 100 are even;
        // 16 is a power of two; 40000 is above half the range.
        for d in [3u64, 5, 9, 11, 10, 100, 16, 40000, 1] {
            assert_eq!(rounding_average_form(d, 16), None, "{d}");
        }
        assert_eq!(rounding_average_form(7, 32), None);
    }
}
