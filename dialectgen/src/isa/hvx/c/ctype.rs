//! C integer types as the instruction definitions use them (LP64 host:
//! `int` is 32 bits, `long long` 64), with the promotions and the usual
//! arithmetic conversions of C.

use num_bigint::BigInt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CType {
    pub width: u32,
    pub signed: bool,
}

pub const INT: CType = CType { width: 32, signed: true };
pub const UINT: CType = CType { width: 32, signed: false };
pub const LLONG: CType = CType { width: 64, signed: true };
pub const ULLONG: CType = CType { width: 64, signed: false };

impl CType {
    pub const fn new(width: u32, signed: bool) -> CType {
        CType { width, signed }
    }

    /// The type a type name denotes: C's own (`int`, `unsigned short`,
    /// `long long`), QEMU's (`size4s_t`) or the short forms `s8` … `u64`.
    pub fn from_words(words: &[&str]) -> Option<CType> {
        if let [one] = words {
            if let Some(t) = Self::from_typedef(one) {
                return Some(t);
            }
        }
        let signed = !words.contains(&"unsigned");
        let rest: Vec<&str> = words.iter().copied().filter(|w| *w != "unsigned" && *w != "signed").collect();
        let width = match rest.as_slice() {
            [] | ["int"] => 32,
            ["char"] => 8,
            ["short"] | ["short", "int"] => 16,
            ["long"] | ["long", "int"] | ["long", "long"] | ["long", "long", "int"] => 64,
            _ => return None,
        };
        Some(CType { width, signed })
    }

    fn from_typedef(name: &str) -> Option<CType> {
        let (bytes, signed) = match name {
            "size1s_t" | "int8_t" | "s8" => (1, true),
            "size1u_t" | "uint8_t" | "u8" => (1, false),
            "size2s_t" | "int16_t" | "s16" => (2, true),
            "size2u_t" | "uint16_t" | "u16" => (2, false),
            "size4s_t" | "int32_t" | "s32" => (4, true),
            "size4u_t" | "uint32_t" | "u32" => (4, false),
            "size8s_t" | "int64_t" | "s64" => (8, true),
            "size8u_t" | "uint64_t" | "u64" => (8, false),
            _ => return None,
        };
        Some(CType { width: bytes * 8, signed })
    }

    /// Whether `word` can start a type name.
    pub fn is_type_word(word: &str) -> bool {
        matches!(word, "int" | "char" | "short" | "long" | "unsigned" | "signed") || Self::from_typedef(word).is_some()
    }

    pub fn min(self) -> BigInt {
        if self.signed {
            -(BigInt::from(1) << (self.width - 1))
        } else {
            BigInt::from(0)
        }
    }

    pub fn max(self) -> BigInt {
        if self.signed {
            (BigInt::from(1) << (self.width - 1)) - 1
        } else {
            (BigInt::from(1) << self.width) - 1
        }
    }

    /// Integer promotion: everything narrower than `int` becomes `int`.
    pub fn promoted(self) -> CType {
        if self.width < 32 {
            INT
        } else {
            self
        }
    }

    /// The common type of a binary operator's operands (after promotion).
    pub fn common(a: CType, b: CType) -> CType {
        let (a, b) = (a.promoted(), b.promoted());
        if a == b {
            return a;
        }
        if a.signed == b.signed {
            return if a.width >= b.width { a } else { b };
        }
        let (s, u) = if a.signed { (a, b) } else { (b, a) };
        if u.width >= s.width {
            u
        } else {
            s
        }
    }

    /// The type C gives an integer literal with `suffix` (`U`, `L`, `LL`, `ULL`).
    pub fn of_literal(value: &BigInt, suffix: &str, hex: bool) -> CType {
        let unsigned = suffix.contains('U');
        let long = suffix.contains('L');
        let candidates: &[CType] = match (unsigned, long) {
            (true, true) => &[ULLONG],
            (true, false) => &[UINT, ULLONG],
            (false, true) if hex => &[LLONG, ULLONG],
            (false, true) => &[LLONG],
            (false, false) if hex => &[INT, UINT, LLONG, ULLONG],
            (false, false) => &[INT, LLONG],
        };
        candidates.iter().copied().find(|t| *value <= t.max()).unwrap_or(ULLONG)
    }
}

impl std::fmt::Display for CType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", if self.signed { 's' } else { 'u' }, self.width)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usual_arithmetic_conversions() {
        let (s8, u16) = (CType::new(8, true), CType::new(16, false));
        assert_eq!(CType::common(s8, u16), INT);
        assert_eq!(CType::common(INT, UINT), UINT);
        assert_eq!(CType::common(UINT, LLONG), LLONG);
        assert_eq!(CType::common(LLONG, ULLONG), ULLONG);
        assert_eq!(CType::from_words(&["unsigned", "short"]), Some(CType::new(16, false)));
        assert_eq!(CType::from_words(&["long", "long"]), Some(LLONG));
        assert_eq!(CType::of_literal(&BigInt::from(0xFFFF_FFFFu32), "", true), UINT);
        assert_eq!(CType::of_literal(&BigInt::from(0xFFFF_FFFFu32), "", false), LLONG);
    }
}
