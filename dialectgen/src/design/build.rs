//! From semantics and classes to [`DialectDesign`]s.

use super::{AttrDesign, DialectDesign, Example, OpDesign, ValueDesign};
use crate::classify::engine::SimilarityClass;
use crate::sema::ir::{Arg, ArgKind, Semantics};
use crate::sema::print::semantics_to_string;
use num_traits::ToPrimitive;
use std::collections::BTreeSet;

/// The MLIR type of an instruction argument or result.
pub fn mlir_type(a: &Arg) -> String {
    match a.kind {
        ArgKind::Mask => format!("vector<{}xi1>", a.width),
        ArgKind::Scalar | ArgKind::Immediate => format!("i{}", a.width),
        ArgKind::Vector => {
            let e = a.elem.width;
            let e = if matches!(e, 8 | 16 | 32 | 64) && a.width.is_multiple_of(e) { e } else { 64 };
            format!("vector<{}xi{}>", a.width / e, e)
        }
    }
}

/// An operand or attribute name as MLIR wants it: lower case, `_` for
/// anything else, unique within `taken`.
pub fn value_name(name: &str, taken: &mut Vec<String>) -> String {
    let mut n: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' }).collect();
    if n.is_empty() || n.starts_with(|c: char| c.is_ascii_digit()) {
        n.insert(0, 'v');
    }
    while taken.contains(&n) {
        n.push('_');
    }
    taken.push(n.clone());
    n
}

/// `_mm512_mask_add_epi32` → `mm512_mask_add_epi32`.
pub fn op_name(intrinsic: &str) -> String {
    intrinsic.trim_start_matches('_').to_string()
}

fn values_of(a: &Arg) -> Vec<i64> {
    (0..(1i64 << a.imm_bits.unwrap_or(8).min(8))).collect()
}

/// One op per validated instruction, with its exact operand and result types;
/// immediates become integer attributes limited to the values they decode.
pub fn target_dialect(name: &str, isa: &str, semantics: &[Semantics], generated_by: &str) -> DialectDesign {
    let ops = semantics
        .iter()
        .map(|s| {
            let mut taken = Vec::new();
            let operands = s
                .args
                .iter()
                .filter(|a| a.kind != ArgKind::Immediate)
                .map(|a| ValueDesign { name: value_name(&a.name, &mut taken), types: vec![mlir_type(a)] })
                .collect();
            let attributes = s
                .args
                .iter()
                .filter(|a| a.kind == ArgKind::Immediate)
                .map(|a| AttrDesign { name: value_name(&a.name, &mut taken), values: values_of(a) })
                .collect();
            let example = Example {
                operand_types: s.args.iter().filter(|a| a.kind != ArgKind::Immediate).map(mlir_type).collect(),
                attribute_values: s.args.iter().filter(|a| a.kind == ArgKind::Immediate).map(|_| 1).collect(),
                result_type: mlir_type(&s.result),
            };
            OpDesign {
                example,
                name: op_name(&s.name),
                summary: format!("{isa} intrinsic {}", s.name),
                description: semantics_to_string(s).lines().map(str::to_string).collect(),
                operands,
                attributes,
                result: ValueDesign { name: "result".into(), types: vec![mlir_type(&s.result)] },
            }
        })
        .collect();
    DialectDesign {
        name: name.into(),
        summary: format!("{isa} vector instructions, one op per validated intrinsic"),
        generated_by: generated_by.into(),
        ops,
    }
}

/// One op per similarity class; class parameters become named integer
/// attributes limited to the values members use, operand types to the
/// members' types.
pub fn autollvm_dialect(classes: &[SimilarityClass], semantics: &[Semantics], generated_by: &str) -> DialectDesign {
    let by_name: std::collections::HashMap<&str, &Semantics> = semantics.iter().map(|s| (s.name.as_str(), s)).collect();
    let find = |n: &str| by_name.get(n).copied().expect("class member has semantics");
    let ops = classes
        .iter()
        .map(|c| {
            let first = find(&c.members[0].intrinsic);
            let arity = first.args.len();
            let mut operands = Vec::new();
            let mut attributes = Vec::new();
            for k in 0..arity {
                let arg = &c.template.args[k];
                if arg.kind == ArgKind::Immediate {
                    let values: BTreeSet<i64> =
                        c.members.iter().flat_map(|m| values_of(&find(&m.intrinsic).args[m.arg_order[k]])).collect();
                    attributes.push(AttrDesign { name: arg.name.clone(), values: values.into_iter().collect() });
                    continue;
                }
                let types: BTreeSet<String> =
                    c.members.iter().map(|m| mlir_type(&find(&m.intrinsic).args[m.arg_order[k]])).collect();
                operands.push(ValueDesign { name: arg.name.clone(), types: types.into_iter().collect() });
            }
            for (i, p) in c.params.iter().enumerate() {
                let values: BTreeSet<i64> = c.members.iter().filter_map(|m| m.values[i].to_i64()).collect();
                attributes.push(AttrDesign { name: p.name.clone(), values: values.into_iter().collect() });
            }
            let result_types: BTreeSet<String> =
                c.members.iter().map(|m| mlir_type(&find(&m.intrinsic).result)).collect();
            let m0 = &c.members[0];
            let example = Example {
                operand_types: (0..arity)
                    .filter(|k| c.template.args[*k].kind != ArgKind::Immediate)
                    .map(|k| mlir_type(&first.args[m0.arg_order[k]]))
                    .collect(),
                attribute_values: (0..arity)
                    .filter(|k| c.template.args[*k].kind == ArgKind::Immediate)
                    .map(|_| 1)
                    .chain(m0.values.iter().map(|v| v.to_i64().unwrap_or(0)))
                    .collect(),
                result_type: mlir_type(&first.result),
            };
            let mut description = vec![format!(
                "Members ({}): {}.",
                c.members.len(),
                c.members.iter().map(|m| m.intrinsic.as_str()).collect::<Vec<_>>().join(", ")
            )];
            description.push("Semantics with the class parameters as named values:".into());
            description.extend(semantics_to_string(&c.template).lines().skip(1).map(str::to_string));
            OpDesign {
                example,
                name: c.name.clone(),
                summary: format!(
                    "{} instructions computing the same thing up to {} parameter(s)",
                    c.members.len(),
                    c.params.len()
                ),
                description,
                operands,
                attributes,
                result: ValueDesign { name: "result".into(), types: result_types.into_iter().collect() },
            }
        })
        .collect();
    DialectDesign {
        name: "autollvm".into(),
        summary: "Target-independent vector operations, one per similarity class of instructions".into(),
        generated_by: generated_by.into(),
        ops,
    }
}
