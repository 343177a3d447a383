//! The ODS (TableGen) form of a dialect design: what `mlir-tblgen` reads to
//! generate a dialect's C++ classes and its reference documentation.
//!
//! A design's types and attribute values are MLIR text; here each becomes an
//! ODS constraint: `vector<16xi32>` is `VectorOfLengthAndType<[16], [I32]>`,
//! an attribute that takes listed integers checks its value against them.

use super::enum_attrs::{case_constraint, enums, OdsEnum};
use super::tablegen::{camel_case, escape};
use super::{AttrDesign, AttrDomain, DialectDesign, OpDesign, ValueDesign};
use crate::llvm_lowering::OpLowering;
use serde::Serialize;
use std::collections::BTreeMap;

/// What each target op becomes in LLVM, by full op name
/// (`hydride_<isa>.<op>`), as its ISA's lowering table records it.
pub type LoweringTable = BTreeMap<String, OpLowering>;

/// A dialect as the ODS template writes it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OdsDialect {
    /// MLIR dialect name (`hydride_<isa>`).
    pub name: String,
    /// TableGen record prefix (`Hydride<Isa>`).
    pub prefix: String,
    /// C++ namespace of the generated classes (`::hydride::<isa>`).
    pub cpp_namespace: String,
    pub summary: String,
    pub generated_by: String,
    /// Its enum attributes (autollvm's `masking`), each with its cases.
    pub enums: Vec<OdsEnum>,
    pub ops: Vec<OdsOp>,
}

/// An op as the ODS template writes it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OdsOp {
    /// TableGen record name (`Hydride<Isa>_<op>Op`).
    pub record: String,
    pub mnemonic: String,
    pub summary: String,
    pub description: String,
    /// `constraint:$name`, operands then attributes.
    pub arguments: Vec<String>,
    pub result: String,
    /// Traits beyond `Pure` (operand segment sizes where several operands
    /// are optional, types that match).
    pub traits: Vec<String>,
    /// Its `assemblyFormat` ([`super::assembly`]).
    pub assembly_format: String,
}

/// The ODS form of `design`; a target op's description says what it becomes
/// in LLVM as `lowerings` records it (`None` for a dialect that does not
/// lower to LLVM directly, as autollvm), which `mlir-tblgen
/// -gen-dialect-doc` puts in the dialect's reference.
pub fn ods_dialect(design: &DialectDesign, lowerings: Option<&LoweringTable>) -> OdsDialect {
    let prefix = camel_case(&design.name);
    let namespace = format!("::{}", design.name.replace('_', "::"));
    OdsDialect {
        name: design.name.clone(),
        prefix: prefix.clone(),
        cpp_namespace: namespace.clone(),
        summary: escape(&design.summary),
        generated_by: design.generated_by.clone(),
        enums: enums(design, &prefix),
        ops: design
            .ops
            .iter()
            .map(|op| {
                let lowered = lowerings.map(|l| l.get(&format!("{}.{}", design.name, op.name)));
                ods_op(&prefix, &namespace, op, lowered)
            })
            .collect(),
    }
}

/// `lowered`: `None` for an op of a dialect without lowerings to LLVM, else its table entry, if any.
fn ods_op(prefix: &str, namespace: &str, op: &OpDesign, lowered: Option<Option<&OpLowering>>) -> OdsOp {
    let assembly = super::assembly::assembly(op);
    let mut lines = op.description.clone();
    match lowered {
        None => {}
        Some(None) => lines.push("No lowering to LLVM is recorded for it: synthesis does not use it.".into()),
        Some(Some(lowering)) => lines.push(lowering.describe()),
    }
    let mut arguments: Vec<String> =
        op.operands.iter().map(|v| format!("{}:${}", value_constraint(v), v.name)).collect();
    arguments
        .extend(op.attributes.iter().map(|a| format!("{}:${}", attribute_constraint(prefix, namespace, a), a.name)));
    OdsOp {
        record: format!("{prefix}_{}Op", op.name),
        mnemonic: op.name.clone(),
        summary: escape(&op.summary),
        description: description(&lines).replace("}]", "} ]"),
        arguments,
        result: format!("{}:${}", value_constraint(&op.result), op.result.name),
        traits: if op.operands.iter().filter(|v| v.optional).count() > 1 {
            vec!["AttrSizedOperandSegments".into()]
        } else {
            vec![]
        }
        .into_iter()
        .chain(assembly.traits)
        .collect(),
        assembly_format: assembly.format,
    }
}

/// Markdown of description lines: prose as paragraphs, pseudocode (an
/// instruction's signature line, indented lines) in code blocks.
fn description(lines: &[String]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut in_code = false;
    for (i, line) in lines.iter().enumerate() {
        let indented = line.starts_with("  ");
        let signature = !indented && line.contains(" -> ") && lines.get(i + 1).is_some_and(|l| l.starts_with("  "));
        let code = indented || signature;
        if code != in_code {
            out.push("```".into());
            in_code = code;
        } else if !code && !out.is_empty() {
            out.push(String::new());
        }
        out.push(line.clone());
    }
    if in_code {
        out.push("```".into());
    }
    out.join("\n")
}

/// The ODS constraint of an operand or result.
fn value_constraint(v: &ValueDesign) -> String {
    let types: Vec<String> = v.types.iter().map(|t| type_constraint(t)).collect();
    let one = if types.len() == 1 { types[0].clone() } else { format!("AnyTypeOf<[{}]>", types.join(", ")) };
    if v.optional {
        format!("Optional<{one}>")
    } else {
        one
    }
}

/// `vector<16xi32>` → `VectorOfLengthAndType<[16], [I32]>`, `i32` → `I32`.
fn type_constraint(t: &str) -> String {
    let integer = |s: &str| s.strip_prefix('i').filter(|w| w.parse::<u32>().is_ok()).map(|w| format!("I{w}"));
    if let Some(inner) = t.strip_prefix("vector<").and_then(|r| r.strip_suffix('>')) {
        if let Some((len, elem)) = inner.split_once('x') {
            if let (Ok(len), Some(elem)) = (len.parse::<u64>(), integer(elem)) {
                return format!("VectorOfLengthAndType<[{len}], [{elem}]>");
            }
        }
    }
    integer(t).unwrap_or_else(|| format!("Type<CPred<\"::llvm::isa<::mlir::Type>($_self)\">, \"{}\">", escape(t)))
}

/// The ODS constraint of an attribute: any integer, one of its integers, or
/// one of its cases of the dialect's enum attribute.
fn attribute_constraint(prefix: &str, namespace: &str, a: &AttrDesign) -> String {
    let values = match &a.domain {
        AttrDomain::AnyInteger => return "APIntAttr".into(),
        AttrDomain::Cases { cases, default, .. } => {
            return case_constraint(prefix, namespace, &a.name, cases, default.as_deref())
        }
        AttrDomain::Integers { values } => values,
    };
    let ints: Vec<&str> = values.iter().filter_map(|v| v.split(" : ").next()).collect();
    let checks: Vec<String> = ints.iter().map(|v| format!("v == ::llvm::APInt(128, \\\"{v}\\\", 10)")).collect();
    format!(
        "ConfinedAttr<APIntAttr, [AttrConstraint<CPred<\"[](::llvm::APInt v) {{ return {}; }}(::llvm::cast<::mlir::IntegerAttr>($_self).getValue().sextOrTrunc(128))\">, \"one of {}\">]>",
        checks.join(" || "),
        ints.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_become_ods_constraints() {
        assert_eq!(type_constraint("vector<16xi32>"), "VectorOfLengthAndType<[16], [I32]>");
        assert_eq!(type_constraint("i8"), "I8");
        let v = ValueDesign { name: "m".into(), types: vec!["vector<8xi1>".into(), "i8".into()], optional: true };
        assert_eq!(value_constraint(&v), "Optional<AnyTypeOf<[VectorOfLengthAndType<[8], [I1]>, I8]>>");
    }

    #[test]
    fn attributes_check_their_values() {
        let ints = AttrDesign {
            name: "k".into(),
            domain: AttrDomain::Integers { values: vec!["3 : i32".into(), "-1 : i32".into()] },
        };
        let c = attribute_constraint("Autollvm", "::autollvm", &ints);
        assert!(c.contains(r#"::llvm::APInt(128, \"3\", 10)"#) && c.contains(r#"\"-1\""#), "{c}");
        let cases = AttrDomain::Cases { cases: vec!["zero".into()], default: None, summary: String::new() };
        let masking = AttrDesign { name: "masking".into(), domain: cases };
        assert!(
            attribute_constraint("Autollvm", "::autollvm", &masking).starts_with("ConfinedAttr<Autollvm_MaskingAttr")
        );
        let any = AttrDesign { name: "i".into(), domain: AttrDomain::AnyInteger };
        assert_eq!(attribute_constraint("Autollvm", "::autollvm", &any), "APIntAttr");
    }

    #[test]
    fn pseudocode_goes_in_code_blocks() {
        let lines: Vec<String> =
            ["Members: a, b.", "f(x: i8) -> dst: i8", "  dst := x", "After."].iter().map(|s| s.to_string()).collect();
        assert_eq!(description(&lines), "Members: a, b.\n```\nf(x: i8) -> dst: i8\n  dst := x\n```\nAfter.");
    }
}
