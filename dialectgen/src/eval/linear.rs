//! Linear forms over opaque terms, for deciding that two bit-range bounds
//! differ by a constant.

use num_bigint::BigInt;
use num_traits::Zero;
use std::collections::BTreeMap;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct LinearForm {
    constant: BigInt,
    /// Coefficient per opaque term (keyed by its printed form).
    terms: BTreeMap<String, BigInt>,
}

impl LinearForm {
    pub fn constant_of(c: BigInt) -> LinearForm {
        LinearForm { constant: c, terms: BTreeMap::new() }
    }
    pub fn atom(key: String) -> LinearForm {
        LinearForm { constant: BigInt::zero(), terms: BTreeMap::from([(key, BigInt::from(1))]) }
    }
    pub fn plus(&self, other: &LinearForm) -> LinearForm {
        let mut r = self.clone();
        r.constant += &other.constant;
        for (k, v) in &other.terms {
            *r.terms.entry(k.clone()).or_default() += v;
        }
        r.terms.retain(|_, v| !v.is_zero());
        r
    }
    pub fn minus(&self, other: &LinearForm) -> LinearForm {
        self.plus(&other.scaled(&BigInt::from(-1)))
    }
    pub fn scaled(&self, k: &BigInt) -> LinearForm {
        let mut r = LinearForm {
            constant: &self.constant * k,
            terms: self.terms.iter().map(|(t, v)| (t.clone(), v * k)).collect(),
        };
        r.terms.retain(|_, v| !v.is_zero());
        r
    }
    /// The value, when no opaque term remains.
    pub fn constant(&self) -> Option<BigInt> {
        self.terms.is_empty().then(|| self.constant.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_cancel() {
        let id = LinearForm::atom("id".into()).scaled(&BigInt::from(32));
        let hi = id.plus(&LinearForm::constant_of(BigInt::from(31)));
        assert_eq!(hi.minus(&id).constant(), Some(BigInt::from(31)));
        assert_eq!(hi.constant(), None);
    }
}
