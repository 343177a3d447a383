//! Why a table built into the plugin (the class database, the variant
//! table, an ISA's LLVM lowering table) does not load or lacks an entry.
//! Each table is read once per process and its error kept, so the error is
//! `Clone` and carries the reader's message as text.

/// A table built into the plugin that does not load, or an entry it lacks.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    #[error("hydride's embedded variant table does not load ({0}); rebuild the plugin")]
    VariantTable(String),
    #[error("{isa} LLVM lowering table: {why}")]
    LoweringTable { isa: String, why: String },
    #[error("the class database does not load: {0}")]
    Database(String),
    #[error("the class database is not written one class per line")]
    DatabaseNotLineWise,
    #[error("the class database's template of {class} does not read: {why}")]
    Template { class: String, why: String },
    /// An instruction (`isa/name`) the database does not hold.
    #[error("{0} is not in the class database")]
    NotInDatabase(String),
    /// A class line found by an instruction's name without that member.
    #[error("{0}: no member")]
    NoMember(String),
    #[error("class parameter {name} = {value} is not an integer")]
    NotAnInteger { name: String, value: String },
}
