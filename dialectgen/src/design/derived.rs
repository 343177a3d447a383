//! Class parameters that follow from an op's types. A parameter that, in
//! every variant of its op, is the lane count, the last lane's index, the
//! element width or the width of the same operand (or of the result) is not
//! stored on the op: the variants the verifier checks fix the types, and
//! the types fix its value.

use super::{Allowed, Variant};

/// What a derived parameter measures of a type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    /// The index of the last lane (a loop's bound).
    LastLane,
    Lanes,
    ElemWidth,
    Width,
}

/// Which value's type a derived parameter measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    Operand(usize),
    Result,
}

/// How a parameter follows from the types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Derivation {
    pub measure: Measure,
    pub of: Slot,
}

/// Lanes and element width of an MLIR type written as `hydride gen` writes
/// them (`vector<32xi16>`, `i32`).
fn shape(ty: &str) -> Option<(i128, i128)> {
    let elem = |t: &str| t.strip_prefix('i')?.parse::<i128>().ok();
    match ty.strip_prefix("vector<").and_then(|t| t.strip_suffix('>')) {
        Some(inner) => {
            let (lanes, e) = inner.split_once('x')?;
            Some((lanes.parse().ok()?, elem(e)?))
        }
        None => Some((1, elem(ty)?)),
    }
}

impl Derivation {
    fn value(self, v: &Variant) -> Option<i128> {
        let ty = match self.of {
            Slot::Operand(k) => v.operand_types.get(k)?,
            Slot::Result => &v.result_type,
        };
        let (lanes, elem) = shape(ty)?;
        Some(match self.measure {
            Measure::LastLane => lanes - 1,
            Measure::Lanes => lanes,
            Measure::ElemWidth => elem,
            Measure::Width => lanes * elem,
        })
    }

    /// In words, for the op's description (`a0`'s element width).
    pub fn describe(self, operand_names: &[String]) -> String {
        let of = match self.of {
            Slot::Operand(k) => format!("`{}`'s", operand_names.get(k).map_or("?", String::as_str)),
            Slot::Result => "the result's".into(),
        };
        let what = match self.measure {
            Measure::LastLane => "lane count less one",
            Measure::Lanes => "lane count",
            Measure::ElemWidth => "element width",
            Measure::Width => "width in bits",
        };
        format!("{of} {what}")
    }
}

/// How the parameter `name` follows from the types in every one of
/// `variants` (the operands `single` ones first, which every variant has),
/// if it does: the operands before the result, and per value the loop
/// bound, lanes, element width, then width.
pub fn derivation(variants: &[Variant], name: &str, singles: usize) -> Option<Derivation> {
    let slots = (0..singles).map(Slot::Operand).chain(std::iter::once(Slot::Result));
    let measures = [Measure::LastLane, Measure::Lanes, Measure::ElemWidth, Measure::Width];
    let candidates = slots.flat_map(|of| measures.iter().map(move |&measure| Derivation { measure, of }));
    candidates.into_iter().find(|d| {
        variants.iter().all(|v| {
            let value = v.attributes.iter().find(|(n, _)| n == name).map(|(_, a)| a);
            match value {
                Some(Allowed::Int(x)) => x.parse::<i128>().ok().is_some_and(|x| Some(x) == d.value(v)),
                _ => false,
            }
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn variant(value: &str, operand: &str, result: &str) -> Variant {
        Variant {
            attributes: vec![("p".into(), Allowed::Int(value.into()))],
            operand_types: vec![operand.into()],
            result_type: result.into(),
            target: None,
        }
    }

    #[test]
    fn a_parameter_equal_to_a_measure_of_every_variant_is_derived() {
        let bound = [variant("31", "vector<32xi16>", "vector<32xi16>"), variant("7", "vector<8xi8>", "vector<8xi8>")];
        let d = derivation(&bound, "p", 1).expect("the operand's last lane");
        assert_eq!(d, Derivation { measure: Measure::LastLane, of: Slot::Operand(0) });
        let narrowing =
            [variant("15", "vector<8xi32>", "vector<16xi16>"), variant("7", "vector<4xi32>", "vector<8xi16>")];
        let d = derivation(&narrowing, "p", 1).expect("the result's last lane");
        assert_eq!(d, Derivation { measure: Measure::LastLane, of: Slot::Result });
        let widths = [variant("16", "vector<32xi16>", "vector<16xi32>"), variant("8", "vector<8xi8>", "vector<4xi16>")];
        assert_eq!(derivation(&widths, "p", 1), Some(Derivation { measure: Measure::ElemWidth, of: Slot::Operand(0) }));
        assert_eq!(derivation(&widths, "p", 1).unwrap().describe(&["a0".into()]), "`a0`'s element width");
    }

    #[test]
    fn a_parameter_that_differs_from_every_measure_somewhere_is_stored() {
        let mixed = [variant("31", "vector<32xi16>", "vector<32xi16>"), variant("3", "vector<8xi8>", "vector<8xi8>")];
        assert_eq!(derivation(&mixed, "p", 1), None);
        let ranged = [Variant { attributes: vec![("p".into(), Allowed::Range(0, 7))], ..variant("0", "i8", "i8") }];
        assert_eq!(derivation(&ranged, "p", 1), None);
    }
}
