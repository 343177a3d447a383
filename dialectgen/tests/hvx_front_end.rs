//! The HVX front end on the full vendor data (when present): every
//! definition in scope translates, and the diagnostics name their token.

use dialectgen::isa::hvx::c::macros::MacroTable;
use dialectgen::isa::hvx::data::HvxSources;
use dialectgen::isa::hvx::front;
use std::path::PathBuf;

mod common;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn macros() -> MacroTable {
    MacroTable::load(&repo().join("isa-specs/hvx/macros.yaml"), Some("f")).expect("macro table loads")
}

#[test]
fn every_definition_in_scope_translates() {
    let data = std::env::var("HYDRIDE_ISA_DATA").map(PathBuf::from).unwrap_or_else(|_| repo().join("../shared/isa-data"));
    let sources = HvxSources::under(&data);
    if !sources.definitions.exists() {
        common::skip("no HVX vendor data");
        return;
    }
    let corrections = front::load_corrections(&repo().join("isa-specs/hvx/definition-corrections.yaml")).expect("corrections load");
    let fe = front::run(&sources, &macros(), &corrections).expect("front end runs");
    let faults: Vec<String> = fe.in_scope.iter().filter_map(|t| t.result.as_ref().err()).map(|f| f.to_string()).collect();
    for f in &faults {
        eprintln!("{f}");
    }
    eprintln!("{} in scope, {} translated", fe.in_scope.len(), fe.in_scope.len() - faults.len());
    assert_eq!(fe.in_scope.len(), 387);
    // Left: the 10 histograms (they update registers they do not name) and
    // the 4 forms executed under a scalar predicate (`if (Ps4)`).
    let unbound: Vec<_> = fe.in_scope.iter().filter_map(|t| t.result.as_ref().err()).filter(|f| f.stage == "bind").collect();
    assert_eq!(unbound.len(), 14, "{faults:#?}");
    assert_eq!(faults.len(), 14, "{faults:#?}");
}
