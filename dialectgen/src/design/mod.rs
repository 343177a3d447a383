//! Dialect design: plain data describing the generated dialects, built from
//! classes and validated semantics, rendered by the templates in `templates/`.

pub mod build;
pub mod render;

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
    /// One consistent instance (of the first member): operand types,
    /// attribute values and result type, for tests and docs.
    pub example: Example,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Example {
    pub operand_types: Vec<String>,
    pub attribute_values: Vec<i64>,
    pub result_type: String,
}

/// An operand or result: its name and the MLIR types it may have.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ValueDesign {
    pub name: String,
    pub types: Vec<String>,
}

/// A named integer attribute and the values a member implements.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AttrDesign {
    pub name: String,
    pub values: Vec<i64>,
}
