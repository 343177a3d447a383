//! An op's assembly format, as MLIR's own ops are written: its operands by
//! name, an operand a mask form adds after its name (`mask %m : vector<16xi1>`),
//! its attributes, and one type where the operands and the result have
//! the same one in every variant (`autollvm.add_sat_s %a, %b {…} :
//! vector<32xi16>`, the operands' types inferred through `AllTypesMatch`),
//! else the op's function type.

use super::OpDesign;

/// The ODS `assemblyFormat` of an op and the traits it needs.
#[derive(Clone, Debug, PartialEq)]
pub struct Assembly {
    pub format: String,
    pub traits: Vec<String>,
}

/// The assembly format of `op`. A variant's operand types are those of its
/// required operands, then of the mask form's operands it takes.
pub fn assembly(op: &OpDesign) -> Assembly {
    let required: Vec<&str> = op.operands.iter().filter(|v| !v.optional).map(|v| v.name.as_str()).collect();
    let one_type = !required.is_empty()
        && !op.variants.is_empty()
        && op.variants.iter().all(|v| {
            v.operand_types.len() >= required.len()
                && v.operand_types[..required.len()].iter().all(|t| *t == v.result_type)
        });
    let mut parts: Vec<String> = Vec::new();
    if !required.is_empty() {
        parts.push(required.iter().map(|n| format!("${n}")).collect::<Vec<_>>().join(" `,` "));
    }
    for v in op.operands.iter().filter(|v| v.optional) {
        parts.push(if one_type {
            format!("(`{0}` ${0}^ `:` type(${0}))?", v.name)
        } else {
            format!("(`{0}` ${0}^)?", v.name)
        });
    }
    parts.push("attr-dict".into());
    let result = &op.result.name;
    if one_type {
        parts.push(format!("`:` type(${result})"));
    } else {
        parts.push("`:` functional-type(operands, results)".into());
    }
    let traits = if one_type {
        let names: Vec<String> = required.iter().map(|n| format!("\"{n}\"")).chain([format!("\"{result}\"")]).collect();
        vec![format!("AllTypesMatch<[{}]>", names.join(", "))]
    } else {
        Vec::new()
    };
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
        assert!(widening.format.ends_with("`:` functional-type(operands, results)"), "{}", widening.format);
        assert!(widening.traits.is_empty());
    }
}
