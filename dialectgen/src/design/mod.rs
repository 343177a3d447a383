//! Dialect design: plain data describing the generated dialects, built from
//! classes and validated semantics, rendered by the templates in `templates/`.

pub mod assembly;
pub mod build;
pub mod derived;
pub mod enum_attrs;
pub mod ods;
pub mod render;
pub mod tablegen;

use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DialectDesign {
    /// MLIR dialect name, e.g. `autollvm`.
    pub name: String,
    pub summary: String,
    /// The command that regenerates the files, for their header.
    pub generated_by: String,
    pub ops: Vec<OpDesign>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OpDesign {
    /// Op name inside the dialect.
    pub name: String,
    pub summary: String,
    /// Lines of description.
    pub description: Vec<String>,
    pub operands: Vec<ValueDesign>,
    pub attributes: Vec<AttrDesign>,
    pub result: ValueDesign,
    /// The combinations of attribute values and types the op accepts, one per
    /// instruction it stands for. The dialect's IRDL or ODS checks each operand, attribute and the
    /// result on its own; the plugin's compiled verifier checks that they
    /// form one of these.
    pub variants: Vec<Variant>,
    /// One instance per variant, for the round-trip tests.
    pub examples: Vec<Example>,
}

/// A consistent instance of an op: operand types, attributes as MLIR text,
/// result type.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Example {
    pub operand_types: Vec<String>,
    pub attributes: Vec<(String, String)>,
    pub result_type: String,
    /// For autollvm ops: the target op and its operands (`%arg2, %arg0`).
    pub target: Option<(String, String)>,
}

/// An operand or result: its name and the MLIR types it may have.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ValueDesign {
    pub name: String,
    pub types: Vec<String>,
    /// Zero or one operand (the operands a mask form adds).
    pub optional: bool,
}

/// A named attribute and the values it may take.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AttrDesign {
    pub name: String,
    pub domain: AttrDomain,
}

/// The values an attribute may take, over all of its op's variants.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum AttrDomain {
    /// Any integer: an immediate, its range checked per variant.
    AnyInteger,
    /// One of these integers, as MLIR text (`3 : i32`).
    Integers { values: Vec<String> },
    /// One case of the dialect's enum attribute of the attribute's name
    /// (`#autollvm.masking<merge>`); an absent attribute is `default`.
    /// `summary` says what the enum's cases choose.
    Cases { cases: Vec<String>, default: Option<String>, summary: String },
}

/// What one attribute of a variant may be.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Allowed {
    /// Exactly this integer (decimal text: class parameters may exceed 64 bits).
    Int(String),
    /// Exactly this case of the dialect's enum attribute of the attribute's name.
    Case(String),
    /// This case, which is also what the attribute's absence means.
    DefaultCase(String),
    /// An integer in `lo..=hi`.
    Range(i64, i64),
}

/// One accepted combination: attributes, operand types (in op order, the
/// variadic group included), result type; for autollvm ops, the target op
/// it becomes.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct Variant {
    pub attributes: Vec<(String, Allowed)>,
    pub operand_types: Vec<String>,
    pub result_type: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<TargetOp>,
}

/// The target op a variant lowers to, one to one.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct TargetOp {
    /// Full op name, `hydride_<isa>.<instruction>`.
    pub op: String,
    /// Target operand `i` is operand `operands[i]` of the class op.
    pub operands: Vec<usize>,
    /// Target attribute name, and the class attribute it takes its value from.
    pub attributes: Vec<(String, String)>,
}

impl Variant {
    /// The dialect of the target op (`hydride_<isa>`), if the variant has one.
    pub fn target_dialect(&self) -> Option<&str> {
        self.target.as_ref().map(|t| t.op.split_once('.').map_or(t.op.as_str(), |(d, _)| d))
    }

    /// One instance of the variant as an op of `dialect`.
    pub fn example(&self, dialect: &str) -> Example {
        Example {
            operand_types: self.operand_types.clone(),
            attributes: self.example_attributes(dialect),
            result_type: self.result_type.clone(),
            target: self.target.as_ref().map(|t| {
                let operands: Vec<String> = t.operands.iter().map(|i| format!("%arg{i}")).collect();
                (t.op.clone(), operands.join(", "))
            }),
        }
    }

    /// One instance's attributes as an op of `dialect` writes them, for
    /// tests and docs: exact values, ranges at their low end (or 1 when the
    /// range has it), a default case left out.
    pub fn example_attributes(&self, dialect: &str) -> Vec<(String, String)> {
        self.attributes
            .iter()
            .filter_map(|(n, a)| {
                let v = match a {
                    Allowed::Int(v) => int_attribute(v),
                    Allowed::Case(c) => enum_case(dialect, n, c),
                    Allowed::DefaultCase(_) => return None,
                    Allowed::Range(lo, hi) => format!("{} : i32", if *lo <= 1 && 1 <= *hi { 1 } else { *lo }),
                };
                Some((n.clone(), v))
            })
            .collect()
    }
}

/// The MLIR text of case `case` of `dialect`'s enum attribute `attribute`:
/// `#autollvm.masking<merge>`.
pub fn enum_case(dialect: &str, attribute: &str, case: &str) -> String {
    format!("#{dialect}.{attribute}<{case}>")
}

/// An integer attribute's MLIR text, typed `i32`, `i64` or `i128`, the
/// narrowest that holds the value.
pub fn int_attribute(decimal: &str) -> String {
    let bits = match decimal.parse::<i128>() {
        Ok(v) if i32::try_from(v).is_ok() => 32,
        Ok(v) if i64::try_from(v).is_ok() => 64,
        _ => 128,
    };
    format!("{decimal} : i{bits}")
}
