//! The Z3 domain: evaluating semantics over symbolic bitvectors yields the
//! instruction's formula.
//!
//! Z3 contexts are per thread (the `z3` crate's thread-local context), so a
//! formula must stay on the thread that built it.

use super::domain::{BvBinOp, BvCmp, Domain};
use num_bigint::BigUint;
use z3::ast::{Ast, BV};

#[derive(Default)]
pub struct Smt {
    /// Multiplication, division and remainder of non-constant terms as
    /// uninterpreted functions (one per operation and width). Two formulas
    /// equal under this abstraction are equal for every meaning of those
    /// functions, the real one included; the converse does not hold.
    abstract_arith: bool,
}

impl Smt {
    /// The exact domain.
    pub fn exact() -> Smt {
        Smt { abstract_arith: false }
    }

    /// The domain with multiplication and division abstracted (see the field).
    pub fn abstracted() -> Smt {
        Smt { abstract_arith: true }
    }
}

/// `op(a, b)` as an uninterpreted function of `width`-bit operands.
fn uninterpreted(op: BvBinOp, a: &BV, b: &BV) -> BV {
    let width = a.get_size();
    let sort = z3::Sort::bitvector(width);
    let f = z3::FuncDecl::new(format!("{op:?}{width}"), &[&sort, &sort], &sort);
    f.apply(&[a, b]).as_bv().expect("a bitvector-valued function")
}

fn bool_to_bv(b: &z3::ast::Bool) -> BV {
    b.ite(&BV::from_u64(1, 1), &BV::from_u64(0, 1))
}

impl Domain for Smt {
    type Bv = BV;

    fn literal(&mut self, value: &BigUint, width: u32) -> BV {
        let m = (BigUint::from(1u8) << width) - 1u8;
        let v = value & m;
        match u64::try_from(&v) {
            Ok(x) => BV::from_u64(x, width),
            Err(_) => BV::from_str(width, &v.to_str_radix(10)).expect("decimal numeral"),
        }
    }
    fn as_literal(&mut self, bv: &BV, _width: u32) -> Option<BigUint> {
        let numeral = |b: &BV| -> Option<BigUint> {
            if b.kind() != z3::AstKind::Numeral {
                return None;
            }
            if let Some(x) = b.as_u64() {
                return Some(BigUint::from(x));
            }
            // Wide numerals print as #x… or #b…
            let s = b.to_string();
            if let Some(h) = s.strip_prefix("#x") {
                return BigUint::parse_bytes(h.as_bytes(), 16);
            }
            if let Some(h) = s.strip_prefix("#b") {
                return BigUint::parse_bytes(h.as_bytes(), 2);
            }
            None
        };
        numeral(bv).or_else(|| numeral(&bv.simplify()))
    }
    fn extract(&mut self, bv: &BV, _w: u32, hi: u32, lo: u32) -> BV {
        bv.extract(hi, lo)
    }
    fn zero_extend(&mut self, bv: &BV, _w: u32, extra: u32) -> BV {
        bv.zero_ext(extra)
    }
    fn sign_extend(&mut self, bv: &BV, _w: u32, extra: u32) -> BV {
        bv.sign_ext(extra)
    }
    fn concat(&mut self, hi: &BV, _hw: u32, lo: &BV, _lw: u32) -> BV {
        hi.concat(lo)
    }
    fn binary(&mut self, op: BvBinOp, a: &BV, b: &BV, _w: u32) -> BV {
        let hard = matches!(op, BvBinOp::Mul | BvBinOp::UDiv | BvBinOp::URem | BvBinOp::SDiv | BvBinOp::SRem);
        let constant = |x: &BV| x.kind() == z3::AstKind::Numeral;
        if self.abstract_arith && hard && !(constant(a) || constant(b)) {
            return uninterpreted(op, a, b);
        }
        match op {
            BvBinOp::Add => a.bvadd(b),
            BvBinOp::Sub => a.bvsub(b),
            BvBinOp::Mul => a.bvmul(b),
            BvBinOp::UDiv => a.bvudiv(b),
            BvBinOp::URem => a.bvurem(b),
            BvBinOp::SDiv => a.bvsdiv(b),
            BvBinOp::SRem => a.bvsrem(b),
            BvBinOp::And => a.bvand(b),
            BvBinOp::Or => a.bvor(b),
            BvBinOp::Xor => a.bvxor(b),
            BvBinOp::Shl => a.bvshl(b),
            BvBinOp::LShr => a.bvlshr(b),
            BvBinOp::AShr => a.bvashr(b),
        }
    }
    fn not(&mut self, a: &BV, _w: u32) -> BV {
        a.bvnot()
    }
    fn compare(&mut self, op: BvCmp, a: &BV, b: &BV, _w: u32) -> BV {
        let c = match op {
            BvCmp::Eq => a.eq(b),
            BvCmp::Ult => a.bvult(b),
            BvCmp::Ule => a.bvule(b),
            BvCmp::Slt => a.bvslt(b),
            BvCmp::Sle => a.bvsle(b),
        };
        bool_to_bv(&c)
    }
    fn ite(&mut self, cond: &BV, then: &BV, otherwise: &BV, _w: u32) -> BV {
        cond.eq(BV::from_u64(1, 1)).ite(then, otherwise)
    }
}
