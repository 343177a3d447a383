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

/// The instructions the template checks below name, translated from the
/// full vendor data (when present). That every definition in scope
/// translates is checked on regeneration's report (`scripts/check-report.py`:
/// the only faults are operands not bound), not translated again here.
#[test]
fn instructions_that_differ_in_numbers_read_alike_on_vendor_data() {
    let data =
        std::env::var("HYDRIDE_ISA_DATA").map(PathBuf::from).unwrap_or_else(|_| repo().join("../shared/isa-data"));
    let sources = HvxSources::under(&data);
    if !sources.definitions.exists() {
        common::skip("no HVX vendor data");
        return;
    }
    let corrections =
        front::load_corrections(&repo().join("isa-specs/hvx/definition-corrections.yaml")).expect("corrections load");
    let fe = front::run_only(&sources, &macros(), &corrections, &|tag| NAMED.contains(&tag)).expect("front end runs");
    assert_eq!(fe.in_scope.len(), NAMED.len(), "every named instruction is in scope");
    instructions_that_differ_in_numbers_read_alike(&fe);
}

/// Every instruction [`instructions_that_differ_in_numbers_read_alike`] names.
const NAMED: &[&str] = &[
    "V6_vaddbq",
    "V6_vaddhq",
    "V6_vaddwq",
    "V6_vsubbnq",
    "V6_vsubhnq",
    "V6_vsubwnq",
    "V6_vdmpyhsat",
    "V6_vdmpyhsusat",
    "V6_vgtw",
    "V6_veqh",
    "V6_vgtub",
    "V6_vmaxw",
    "V6_vminub",
    "V6_vmpabus",
    "V6_vmpauhb",
    "V6_vmpyub_acc",
    "V6_vdmpybus_acc",
    "V6_vavgub",
    "V6_vavgubrnd",
    "V6_vmpyhss",
    "V6_vmpyhsrs",
    "V6_vaddbnq",
    "V6_vavgw",
];

/// Forms the vendor writes differently but that compute alike up to
/// numbers have one template: the byte, halfword and word conditional adds
/// (one form of the predicate mask for every lane width), signed and
/// signed-by-unsigned products (no wraps that change nothing), greater
/// and equal (a comparison's predicate is a number), a product written in
/// either operand order, and a lane accumulated in place or widened into
/// two (a loop counter an index does not move with has coefficient 0); a
/// plain form is a rounding one with a neutral term.
fn instructions_that_differ_in_numbers_read_alike(fe: &front::FrontEnd) {
    use dialectgen::classify::canon::{canonicalize, Form};
    use dialectgen::classify::template::parameterize;
    let canonical = |name: &str| {
        let t = fe.in_scope.iter().find(|t| t.def.tag == name).unwrap_or_else(|| panic!("{name} in scope"));
        canonicalize(t.result.as_ref().unwrap_or_else(|f| panic!("{f}")), Form::Broad).sema
    };
    let key = |name: &str| parameterize(&canonical(name)).key;
    for group in [
        &["V6_vaddbq", "V6_vaddhq", "V6_vaddwq"][..],
        &["V6_vsubbnq", "V6_vsubhnq", "V6_vsubwnq"],
        &["V6_vdmpyhsat", "V6_vdmpyhsusat"],
        &["V6_vgtw", "V6_veqh", "V6_vgtub"],
        &["V6_vmaxw", "V6_vminub"],
        &["V6_vmpabus", "V6_vmpauhb"],
        &["V6_vmpyub_acc", "V6_vdmpybus_acc"],
    ] {
        let first = key(group[0]);
        for name in &group[1..] {
            assert!(key(name) == first, "{} and {name} have different templates", group[0]);
        }
    }
    // A rounding form and the plain one: the plain one with a neutral term
    // (`+ 0`) written where the rounding constant goes.
    for (plain, rounding) in [("V6_vavgub", "V6_vavgubrnd"), ("V6_vmpyhss", "V6_vmpyhsrs")] {
        let target = key(rounding);
        let variants = dialectgen::classify::identity::neutral_variants(&canonical(plain));
        assert!(variants.iter().any(|(_, v)| parameterize(v).key == target), "{plain} and {rounding}");
    }
    // Different operations stay apart.
    assert_ne!(key("V6_vaddbq"), key("V6_vaddbnq"));
    assert_ne!(key("V6_vmaxw"), key("V6_vavgw"));
}

/// `Vd = f(Vu)` over one 1024-bit register of `lane`-bit lanes.
fn one_operand_binding(lane: u32) -> dialectgen::isa::hvx::bind::Binding {
    common::hvx::vector_binding(&["Vu"], dialectgen::sema::ir::ElemType { width: lane, signed: false })
}

fn translated(text: &str, lane: u32) -> String {
    let (sema, _) = front::translate(
        "V6_test",
        text,
        &one_operand_binding(lane),
        &macros(),
        dialectgen::isa::hvx::c::translate::Arith::C,
    );
    dialectgen::sema::print::semantics_to_string(&sema.expect("translates"))
}

#[test]
fn extensions_of_values_already_in_range_are_the_values() {
    // A signed byte lane sign-extended from 8 bits is the lane itself ...
    let lane = translated("fHIDE(int i;) fVFOREACH(8, i) { VdV.b[i] = fVSATN(8, fSXTN(8, 16, VuV.b[i]) + 1); }", 8);
    assert!(!lane.contains("XOR"), "{lane}");
    assert!(lane.contains("SaturateAs("), "{lane}");
    // ... a halfword lane's low byte is not.
    let low = translated("fHIDE(int i;) fVFOREACH(16, i) { VdV.h[i] = fSXTN(8, 16, VuV.h[i]); }", 16);
    assert!(low.contains("XOR") && low.contains("AND"), "{low}");
    let zero = translated("fHIDE(int i;) fVFOREACH(16, i) { VdV.uh[i] = fZXTN(8, 16, VuV.uh[i]); }", 16);
    assert!(zero.contains("AND") && !zero.contains("XOR"), "{zero}");
    // Signed and unsigned saturation are one built-in with a flag.
    let unsigned = translated("fHIDE(int i;) fVFOREACH(8, i) { VdV.ub[i] = fVSATUN(8, VuV.ub[i] + 1); }", 8);
    assert!(unsigned.contains(", 8, 1)"), "{unsigned}");
}

#[test]
fn a_loop_written_with_a_stride_of_one_keeps_its_stride() {
    let stepped = translated("for (fHIDE(int) i = 0; i < fVBYTES(); i += 1) { VdV.b[i] = VuV.b[i]; }", 8);
    assert!(stepped.contains("i_step"), "{stepped}");
    let plain = translated("for (fHIDE(int) i = 0; i < fVBYTES(); i++) { VdV.b[i] = VuV.b[i]; }", 8);
    assert!(!plain.contains("i_step"), "{plain}");
}

#[test]
fn written_casts_are_kept_and_wraps_a_store_makes_are_not() {
    // The value fits a halfword, but the source casts: the cast stays.
    let kept = translated("fHIDE(int i;) fVFOREACH(16, i) { VdV.w[i/2] = (s16)(VuV.h[i] >> 1); }", 16);
    assert!(kept.contains("WrapAs("), "{kept}");
    // Storing into a halfword lane keeps only 16 bits anyway.
    let stored = translated("fHIDE(int i;) fVFOREACH(16, i) { VdV.h[i] = (u16)(VuV.h[i] + 1); }", 16);
    assert!(!stored.contains("WrapAs("), "{stored}");
}
