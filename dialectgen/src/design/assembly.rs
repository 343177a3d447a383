//! An op's assembly format, as MLIR's own ops are written: its operands by
//! name, an operand a mask form adds after its name (`mask %m : vector<16xi1>`),
//! an enum attribute's case where it is not the default (`masking<merge>`,
//! as `arith.addf` writes `fastmath<fast>`), its other attributes, and its
//! types in the shortest form every variant allows:
//! - one type where the operands and the result have the same one
//!   (`autollvm.add_sat_s %a, %b : vector<32xi16>`), the operands' types
//!   inferred through `AllTypesMatch`;
//! - the operands' one type and the result's where only the operands share
//!   one (`autollvm.add_widen %a, %b : vector<16xi8> to vector<16xi16>`, as
//!   `arith.extsi` writes it);
//! - the result's type alone for an op without operands;
//! - else the op's function type.

use super::{AttrDomain, OpDesign, Variant};

/// The ODS `assemblyFormat` of an op and the traits it needs.
#[derive(Clone, Debug, PartialEq)]
pub struct Assembly {
    pub format: String,
    pub traits: Vec<String>,
}

/// How an op's types are written.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Types {
    /// The operands' type is the result's.
    One,
    /// The operands have one type, the result another.
    OperandsToResult,
    /// No operands: the result's type.
    ResultOnly,
    /// `(operand types) -> result type`.
    Functional,
}

/// How `op`'s types are written, from its variants' first `required` operand types.
fn types(op: &OpDesign, required: usize) -> Types {
    if op.variants.is_empty() {
        return Types::Functional;
    }
    let all = |f: &dyn Fn(&Variant, &[String]) -> bool| {
        op.variants.iter().all(|v| v.operand_types.get(..required).is_some_and(|ts| f(v, ts)))
    };
    if required == 0 {
        Types::ResultOnly
    } else if all(&|v, ts| ts.iter().all(|t| *t == v.result_type)) {
        Types::One
    } else if all(&|_, ts| ts.iter().all(|t| *t == ts[0])) {
        Types::OperandsToResult
    } else {
        Types::Functional
    }
}

/// The assembly format of `op`. A variant's operand types are those of its
/// required operands, then of the mask form's operands it takes.
pub fn assembly(op: &OpDesign) -> Assembly {
    let required: Vec<&str> = op.operands.iter().filter(|v| !v.optional).map(|v| v.name.as_str()).collect();
    let types = types(op, required.len());
    let mut parts: Vec<String> = Vec::new();
    if !required.is_empty() {
        parts.push(required.iter().map(|n| format!("${n}")).collect::<Vec<_>>().join(" `,` "));
    }
    for v in op.operands.iter().filter(|v| v.optional) {
        parts.push(if types == Types::Functional {
            format!("(`{0}` ${0}^)?", v.name)
        } else {
            format!("(`{0}` ${0}^ `:` type(${0}))?", v.name)
        });
    }
    for a in &op.attributes {
        if let AttrDomain::Cases { default: Some(_), .. } = a.domain {
            parts.push(format!("(`{0}` `` ${0}^)?", a.name));
        }
    }
    parts.push("attr-dict".into());
    let result = op.result.name.as_str();
    let quoted = |names: &[&str]| names.iter().map(|n| format!("\"{n}\"")).collect::<Vec<_>>().join(", ");
    let (written, traits) = match types {
        Types::One => {
            let names: Vec<&str> = required.iter().copied().chain([result]).collect();
            (format!("`:` type(${result})"), vec![format!("AllTypesMatch<[{}]>", quoted(&names))])
        }
        Types::OperandsToResult => {
            let traits =
                if required.len() > 1 { vec![format!("AllTypesMatch<[{}]>", quoted(&required))] } else { Vec::new() };
            (format!("`:` type(${}) `to` type(${result})", required[0]), traits)
        }
        Types::ResultOnly => (format!("`:` type(${result})"), Vec::new()),
        Types::Functional => ("`:` functional-type(operands, results)".into(), Vec::new()),
    };
    parts.push(written);
    Assembly { format: parts.join(" "), traits }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::{ValueDesign, Variant};

    fn value(name: &str, optional: bool) -> ValueDesign {
        ValueDesign { name: name.into(), types: vec!["vector<8xi16>".into()], optional }
    }

    fn op(variants: Vec<(Vec<&str>, &str)>) -> OpDesign {
        OpDesign {
            name: "add_sat_s".into(),
            summary: String::new(),
            description: Vec::new(),
            operands: vec![value("a0", false), value("a1", false), value("passthrough", true), value("mask", true)],
            attributes: Vec::new(),
            result: value("result", false),
            variants: variants
                .into_iter()
                .map(|(ops, result)| Variant {
                    attributes: Vec::new(),
                    operand_types: ops.into_iter().map(String::from).collect(),
                    result_type: result.into(),
                    target: None,
                })
                .collect(),
            examples: Vec::new(),
        }
    }

    #[test]
    fn one_type_where_every_variant_has_one() {
        let a = assembly(&op(vec![
            (vec!["vector<8xi16>", "vector<8xi16>"], "vector<8xi16>"),
            (vec!["vector<8xi16>", "vector<8xi16>", "vector<8xi1>"], "vector<8xi16>"),
        ]));
        assert_eq!(
            a.format,
            "$a0 `,` $a1 (`passthrough` $passthrough^ `:` type($passthrough))? (`mask` $mask^ `:` type($mask))? attr-dict `:` type($result)"
        );
        assert_eq!(a.traits, ["AllTypesMatch<[\"a0\", \"a1\", \"result\"]>"]);
        let widening = assembly(&op(vec![
            (vec!["vector<8xi16>", "vector<8xi16>"], "vector<8xi16>"),
            (vec!["vector<16xi8>", "vector<16xi8>"], "vector<8xi16>"),
        ]));
        assert!(widening.format.ends_with("attr-dict `:` type($a0) `to` type($result)"), "{}", widening.format);
        assert_eq!(widening.traits, ["AllTypesMatch<[\"a0\", \"a1\"]>"]);
        let mixed = assembly(&op(vec![(vec!["vector<8xi16>", "vector<16xi8>"], "vector<8xi16>")]));
        assert!(mixed.format.ends_with("`:` functional-type(operands, results)"), "{}", mixed.format);
        assert!(mixed.format.contains("(`mask` $mask^)?"), "{}", mixed.format);
        assert!(mixed.traits.is_empty());
    }

    #[test]
    fn an_enum_case_is_written_where_it_is_not_the_default() {
        let mut masked = op(vec![(vec!["vector<8xi16>", "vector<8xi16>"], "vector<8xi16>")]);
        let cases = vec!["none".into(), "zero".into()];
        let domain = AttrDomain::Cases { cases, default: Some("none".into()), summary: String::new() };
        masked.attributes.push(crate::design::AttrDesign { name: "masking".into(), domain });
        let a = assembly(&masked);
        assert!(
            a.format.contains("(`mask` $mask^ `:` type($mask))? (`masking` `` $masking^)? attr-dict"),
            "{}",
            a.format
        );
    }
}
