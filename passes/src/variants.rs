//! The accepted combinations of every generated op (`generated/op-variants.json`):
//! the compiled half of op verification, and the one-to-one autollvm → target
//! lowering.
//!
//! IRDL checks each operand type and attribute of an op on its own. Whether
//! they fit together (an `add` with 16 lanes of 32 bits, not of 8) is a
//! property of the instruction set, checked here against the variants the
//! generator wrote: one per instruction an op stands for.

use crate::table_error::TableError;
use dialectgen::design::{Allowed, TargetOp, Variant};
use std::collections::HashMap;
use std::sync::OnceLock;

/// An op instance as the verifier sees it (read through the C API by
/// `crate::ir::read::instance`): integer attributes in decimal, strings and
/// enum cases bare, types as the table writes them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OpInstance {
    pub name: String,
    pub attributes: Vec<(String, String)>,
    pub operand_types: Vec<String>,
    pub result_types: Vec<String>,
    pub regions: usize,
}

impl OpInstance {
    fn attribute(&self, name: &str) -> Option<&str> {
        self.attributes.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

/// Variants per full op name (`autollvm.add_sat_s`). Each op's list is read
/// from its JSON text the first time it is asked for: a process reads only
/// the ops it meets.
pub struct VariantTable {
    ops: HashMap<&'static str, (&'static str, OnceLock<Vec<Variant>>)>,
}

/// Why an op is no instance of any variant of the table.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VariantError {
    #[error(transparent)]
    Table(#[from] TableError),
    #[error("`{0}` is not in the variant table")]
    UnknownOp(String),
    #[error("the variant table's entry for `{0}` does not read; rebuild the plugin")]
    UnreadableEntry(String),
    #[error("takes no regions, has {0}")]
    Regions(usize),
    /// No variant with the op's attributes and types; `hint` says what
    /// would be accepted.
    #[error(
        "implements no instruction with attributes {{{attributes}}}, operands ({operands}) and result {result}{hint}"
    )]
    NoVariant { attributes: String, operands: String, result: String, hint: String },
    #[error("implements no instruction of {0} with these attributes and types")]
    NoTarget(String),
}

impl VariantTable {
    pub fn parse(text: &'static str) -> Result<VariantTable, serde_json::Error> {
        // Borrowed from the text: no entry is copied until it is read.
        let entries = crate::lines::index(text)?;
        Ok(VariantTable { ops: entries.into_iter().map(|(n, v)| (n, (v, OnceLock::new()))).collect() })
    }

    /// The table generated with the dialects, embedded in the plugin.
    pub fn embedded() -> Result<&'static VariantTable, TableError> {
        static TABLE: OnceLock<Result<VariantTable, TableError>> = OnceLock::new();
        TABLE
            .get_or_init(|| {
                VariantTable::parse(include_str!("../../generated/op-variants.json"))
                    .map_err(|e| TableError::VariantTable(e.to_string()))
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    pub fn len(&self) -> usize {
        self.ops.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ops.is_empty()
    }

    /// Every variant of the op named `name`.
    pub fn variants(&self, name: &str) -> &[Variant] {
        self.ops.get(name).map(|(raw, parsed)| Self::read(raw, parsed).as_slice()).unwrap_or_default()
    }

    /// An op's variants, read on first use (an entry that does not read has none).
    fn read<'t>(raw: &str, parsed: &'t OnceLock<Vec<Variant>>) -> &'t Vec<Variant> {
        parsed.get_or_init(|| serde_json::from_str(raw).unwrap_or_default())
    }

    /// The variant `op` is an instance of.
    pub fn find(&self, op: &OpInstance) -> Result<&Variant, VariantError> {
        let variants = self.ops.get(op.name.as_str()).ok_or_else(|| VariantError::UnknownOp(op.name.clone()))?;
        let variants = Self::read(variants.0, &variants.1);
        if variants.is_empty() {
            return Err(VariantError::UnreadableEntry(op.name.clone()));
        }
        if op.regions != 0 {
            return Err(VariantError::Regions(op.regions));
        }
        if let Some(v) = variants.iter().find(|v| matches(v, op)) {
            return Ok(v);
        }
        // Say what would be accepted with these types, or else with these attributes.
        let same_types: Vec<&Variant> = variants.iter().filter(|v| types_match(v, op)).collect();
        let hint = if same_types.is_empty() {
            let same_attrs: Vec<&Variant> = variants.iter().filter(|v| attributes_match(v, op)).collect();
            if same_attrs.is_empty() {
                format!("; accepted, e.g.: {}", show(&variants[0]))
            } else {
                format!("; with these attributes the types are: {}", list(&same_attrs))
            }
        } else {
            format!("; with these types the attributes are: {}", list(&same_types))
        };
        Err(VariantError::NoVariant {
            attributes: op.attributes.iter().map(|(n, v)| format!("{n} = {v}")).collect::<Vec<_>>().join(", "),
            operands: op.operand_types.join(", "),
            result: op.result_types.join(", "),
            hint,
        })
    }

    /// The op of `dialect` (`hydride_<isa>`) an autollvm op instance lowers
    /// to: the first variant it is an instance of whose target is there.
    pub fn target_in(&self, op: &OpInstance, dialect: &str) -> Result<&TargetOp, VariantError> {
        self.find(op)?;
        let targets = self.variants(&op.name).iter().filter(|v| matches(v, op));
        targets
            .filter(|v| v.target_dialect() == Some(dialect))
            .find_map(|v| v.target.as_ref())
            .ok_or_else(|| VariantError::NoTarget(dialect.to_string()))
    }
}

fn attributes_match(v: &Variant, op: &OpInstance) -> bool {
    v.attributes.iter().all(|(name, allowed)| match op.attribute(name) {
        Some(value) => allows(allowed, value),
        None => matches!(allowed, Allowed::DefaultCase(_)),
    })
}

fn types_match(v: &Variant, op: &OpInstance) -> bool {
    v.operand_types == op.operand_types && op.result_types.len() == 1 && op.result_types[0] == v.result_type
}

fn matches(v: &Variant, op: &OpInstance) -> bool {
    types_match(v, op) && attributes_match(v, op)
}

fn allows(allowed: &Allowed, value: &str) -> bool {
    match allowed {
        Allowed::Int(v) | Allowed::Case(v) | Allowed::DefaultCase(v) => v == value,
        Allowed::Range(lo, hi) => value.parse::<i128>().is_ok_and(|x| (*lo as i128..=*hi as i128).contains(&x)),
    }
}

fn show(v: &Variant) -> String {
    let attrs: Vec<String> = v
        .attributes
        .iter()
        .map(|(n, a)| match a {
            Allowed::Int(x) | Allowed::Case(x) => format!("{n} = {x}"),
            Allowed::DefaultCase(x) => format!("{n} = {x} (or absent)"),
            Allowed::Range(lo, hi) => format!("{n} in {lo}..{hi}"),
        })
        .collect();
    format!("{{{}}} ({}) -> {}", attrs.join(", "), v.operand_types.join(", "), v.result_type)
}

fn list(vs: &[&Variant]) -> String {
    let shown: Vec<String> = vs.iter().take(3).map(|v| show(v)).collect();
    let more = if vs.len() > 3 { format!(" (and {} more)", vs.len() - 3) } else { String::new() };
    shown.join(" | ") + &more
}
