//! The cross-check of the HVX semantics against the manual's pseudocode
//! finds a deliberate bug in a hand-written manual text. (On the vendor
//! data, `scripts/test` runs `hydride isa hvx --manual` and
//! `scripts/check-report.py` requires every disagreement recorded.)

use dialectgen::isa::hvx::bind::Binding;
use dialectgen::isa::hvx::c::macros::MacroTable;
use dialectgen::isa::hvx::manual::{self, ManualVerdict};
use dialectgen::sema::ir::ElemType;
use std::path::PathBuf;

mod common;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn manual_macros() -> MacroTable {
    manual::manual_macros(&repo().join("isa-specs/hvx/manual-macros.yaml")).expect("manual macro table loads")
}

/// `Vd.b[i] = sat(Vu.b[i] + Vv.b[i])` over two 1024-bit vectors.
fn byte_binding() -> Binding {
    common::hvx::vector_binding(&["Vu", "Vv"], ElemType { width: 8, signed: true })
}

#[test]
fn a_wrong_saturation_in_the_manual_is_a_disagreement() {
    let macros = manual_macros();
    let b = byte_binding();
    let right = "for (i = 0; i < VELEM(8); i++) {Vd.b[i] = sat8(Vu.b[i]+Vv.b[i]) ;}";
    let wrong = "for (i = 0; i < VELEM(8); i++) {Vd.b[i] = usat8(Vu.b[i]+Vv.b[i]) ;}";
    let qemu = manual::translate_manual("V6_vaddbsat", right, &b, &macros).expect("translates");
    let same = manual::translate_manual("V6_vaddbsat", right, &b, &macros).expect("translates");
    let bug = manual::translate_manual("V6_vaddbsat", wrong, &b, &macros).expect("translates");
    assert_eq!(manual::compare(&qemu, &same, 2000), ManualVerdict::Agreed { by: "z3".into() });
    match manual::compare(&qemu, &bug, 2000) {
        ManualVerdict::Disagreed { witness: Some(w), .. } => assert_ne!(w.qemu, w.manual),
        other => panic!("expected a disagreement with a witness, got {other:?}"),
    }
    // Text the pseudocode reader does not take is reported with its place.
    let bad = manual::translate_manual("V6_x", "Vd.b[0] = frob(Vu.b[0]);", &b, &macros).unwrap_err();
    assert_eq!(bad.stage, "translate");
    assert!(bad.message.contains("frob"), "{bad}");
}
