//! The MLIR types synthesis reasons about: integers and vectors of integers.

use std::fmt;

/// `iN` (no dims) or `vector<d0 x d1 x … x iN>`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ty {
    pub dims: Vec<u32>,
    pub elem_bits: u32,
}

impl Ty {
    /// Parses `i32`, `vector<16xi32>`, `vector<16x4xi8>`; `None` for others.
    pub fn parse(text: &str) -> Option<Ty> {
        let text = text.trim();
        if let Some(inner) = text.strip_prefix("vector<").and_then(|r| r.strip_suffix('>')) {
            let parts: Vec<&str> = inner.split('x').collect();
            let (elem, dims) = parts.split_last()?;
            let dims = dims.iter().map(|d| d.parse().ok()).collect::<Option<Vec<u32>>>()?;
            let elem_bits = elem.strip_prefix('i')?.parse().ok()?;
            return (!dims.is_empty()).then_some(Ty { dims, elem_bits });
        }
        let elem_bits = text.strip_prefix('i')?.parse().ok()?;
        Some(Ty { dims: Vec::new(), elem_bits })
    }

    pub fn lanes(&self) -> u32 {
        self.dims.iter().product()
    }

    pub fn bits(&self) -> u32 {
        self.lanes() * self.elem_bits
    }

    pub fn with_elem(&self, elem_bits: u32) -> Ty {
        Ty { dims: self.dims.clone(), elem_bits }
    }
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.dims.is_empty() {
            return write!(f, "i{}", self.elem_bits);
        }
        write!(f, "vector<")?;
        for d in &self.dims {
            write!(f, "{d}x")?;
        }
        write!(f, "i{}>", self.elem_bits)
    }
}

/// Bits that hold every one of `xs` exactly, and whether any is negative.
pub fn constant_width(xs: &[num_bigint::BigInt]) -> (u32, bool) {
    let signed = xs.iter().any(|x| x.sign() == num_bigint::Sign::Minus);
    let bits = xs
        .iter()
        .map(|x| {
            if signed {
                // Two's complement: the bits of x (or of -x-1) plus a sign.
                let m = if x.sign() == num_bigint::Sign::Minus { -x - 1 } else { x.clone() };
                m.bits() as u32 + 1
            } else {
                x.bits() as u32
            }
        })
        .max()
        .unwrap_or(1);
    (bits.max(1), signed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_parse_and_print() {
        for t in ["i32", "vector<16xi32>", "vector<16x4xi8>", "vector<64xi1>"] {
            assert_eq!(Ty::parse(t).unwrap().to_string(), t);
        }
        assert_eq!(Ty::parse("vector<16x4xi8>").unwrap().bits(), 512);
        assert!(Ty::parse("f32").is_none());
        assert!(Ty::parse("vector<4xf32>").is_none());
    }
}
