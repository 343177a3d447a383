//! A dialect's enum attributes, in ODS: one `I32EnumAttr` per attribute
//! name whose ops take cases (`masking`), with the union of the cases its
//! ops use, and the per-op constraint that limits an op to its own cases
//! and gives the attribute its default.

use super::tablegen::{camel_case, escape};
use super::{AttrDomain, DialectDesign};
use serde::Serialize;
use std::collections::BTreeMap;

/// An enum attribute as the ODS template declares it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OdsEnum {
    /// Record of the enum (`Autollvm_Masking`); the attribute's is `<record>Attr`.
    pub record: String,
    /// C++ enum class (`Masking`), in the dialect's namespace.
    pub cpp_name: String,
    /// The attribute's mnemonic (`masking`: `#autollvm.masking<merge>`).
    pub mnemonic: String,
    /// Cases, numbered in order: the default first, the others sorted.
    pub cases: Vec<String>,
    pub summary: String,
}

/// The enum attributes of `design`, by attribute name.
pub fn enums(design: &DialectDesign, prefix: &str) -> Vec<OdsEnum> {
    let mut by_name: BTreeMap<&str, (Option<&str>, Vec<&str>, &str)> = BTreeMap::new();
    for a in design.ops.iter().flat_map(|op| &op.attributes) {
        if let AttrDomain::Cases { cases, default, summary } = &a.domain {
            let entry = by_name.entry(a.name.as_str()).or_default();
            entry.0 = entry.0.or(default.as_deref());
            entry.1.extend(cases.iter().map(String::as_str));
            entry.2 = summary;
        }
    }
    by_name
        .into_iter()
        .map(|(name, (default, mut cases, summary))| {
            cases.sort_by_key(|c| (Some(*c) != default, *c));
            cases.dedup();
            let cpp_name = camel_case(name);
            OdsEnum {
                record: format!("{prefix}_{cpp_name}"),
                cpp_name,
                mnemonic: name.to_string(),
                cases: cases.into_iter().map(String::from).collect(),
                summary: escape(summary),
            }
        })
        .collect()
}

/// The ODS constraint of attribute `name` of an op that takes `cases` of
/// its enum, absent meaning `default`.
pub fn case_constraint(prefix: &str, namespace: &str, name: &str, cases: &[String], default: Option<&str>) -> String {
    let cpp = camel_case(name);
    let checks: Vec<String> = cases.iter().map(|c| format!("v == {namespace}::{cpp}::{c}")).collect();
    let confined = format!(
        "ConfinedAttr<{prefix}_{cpp}Attr, [AttrConstraint<CPred<\"[]({namespace}::{cpp} v) {{ return {}; }}(::llvm::cast<{namespace}::{cpp}Attr>($_self).getValue())\">, \"one of {}\">]>",
        checks.join(" || "),
        cases.join(", ")
    );
    match default {
        Some(d) => format!("DefaultValuedAttr<{confined}, \"{namespace}::{cpp}::{d}\">"),
        None => confined,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::{AttrDesign, OpDesign, ValueDesign};

    fn op(cases: &[&str]) -> OpDesign {
        OpDesign {
            name: "add".into(),
            summary: String::new(),
            description: Vec::new(),
            operands: Vec::new(),
            attributes: vec![AttrDesign {
                name: "masking".into(),
                domain: AttrDomain::Cases {
                    cases: cases.iter().map(|c| c.to_string()).collect(),
                    default: Some("none".into()),
                    summary: "where masked elements come from".into(),
                },
            }],
            result: ValueDesign { name: "result".into(), types: vec!["i8".into()], optional: false },
            variants: Vec::new(),
            examples: Vec::new(),
        }
    }

    #[test]
    fn one_enum_per_attribute_with_every_case_its_ops_use_default_first() {
        let design = DialectDesign {
            name: "autollvm".into(),
            summary: String::new(),
            generated_by: String::new(),
            ops: vec![op(&["zero", "none"]), op(&["merge_a2", "merge", "none"])],
        };
        let e = enums(&design, "Autollvm");
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].record, "Autollvm_Masking");
        assert_eq!(e[0].cases, ["none", "merge", "merge_a2", "zero"]);
    }

    #[test]
    fn an_op_accepts_only_its_own_cases_and_defaults_to_its_default() {
        let c = case_constraint("Autollvm", "::autollvm", "masking", &["none".into(), "zero".into()], Some("none"));
        assert!(c.starts_with("DefaultValuedAttr<ConfinedAttr<Autollvm_MaskingAttr"), "{c}");
        assert!(c.contains("v == ::autollvm::Masking::zero") && !c.contains("Masking::merge"), "{c}");
        assert!(c.ends_with(", \"::autollvm::Masking::none\">"), "{c}");
    }
}
