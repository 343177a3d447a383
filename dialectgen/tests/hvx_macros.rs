//! The HVX macro table (`isa-specs/hvx/macros.yaml`): every parameter is
//! used or its documentation says why not, and the arithmetic macros, translated and evaluated on every pair
//! of edge values, agree with a model written here in Rust.

use dialectgen::eval::machine::Machine;
use dialectgen::eval::Concrete;
use dialectgen::isa::hvx::bind::Binding;
use dialectgen::isa::hvx::c::macros::MacroTable;
use dialectgen::isa::hvx::c::translate::Arith;
use dialectgen::isa::hvx::front;
use dialectgen::sema::ir::ElemType;
use num_bigint::BigUint;
use std::path::PathBuf;

mod common;

fn macros() -> MacroTable {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../isa-specs/hvx/macros.yaml");
    MacroTable::load(&path, Some("f")).expect("macro table loads")
}

#[test]
fn every_parameter_is_used_or_explained() {
    let table = macros();
    let mut unused = Vec::new();
    for name in table.names() {
        let def = table.get(name).expect("listed");
        let words: Vec<&str> = def.body.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).collect();
        let doc: Vec<&str> = def.doc.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).collect();
        for p in def.params.iter().filter(|p| *p != "...") {
            if !words.contains(&p.as_str()) && !doc.contains(&p.as_str()) {
                unused.push(format!("{name}({p})"));
            }
        }
    }
    assert!(unused.is_empty(), "parameters neither used nor explained: {unused:?}");
}

/// `VdV`, `VuV`, `VvV`: three 1024-bit registers of 16-bit lanes.
fn binding() -> Binding {
    common::hvx::vector_binding(&["Vu", "Vv"], ElemType { width: 16, signed: false })
}

const LANES: usize = 64;

/// Halfword edge values: 8 of them, so 64 lanes hold every pair.
const EDGES: [i64; 8] = [0, 1, -1, 2, 0x7fff, -0x8000, 0x00ff, -0x0081];

fn lanes(values: impl Fn(usize) -> i64) -> BigUint {
    (0..LANES).fold(BigUint::default(), |acc, i| acc | (BigUint::from((values(i) & 0xffff) as u64) << (16 * i)))
}

/// `assignment` (one statement over lane `i`) against `model(u, v)` for
/// every pair of edge values, read as signed (`.h`) or unsigned (`.uh`).
fn check(assignment: &str, unsigned: bool, model: impl Fn(i64, i64) -> i64) {
    let text = format!("fHIDE(int i;) fVFOREACH(16, i) {{ {assignment} ; }}");
    let (sema, _) = front::translate("V6_model", &text, &binding(), &macros(), Arith::C);
    let sema = sema.unwrap_or_else(|f| panic!("{assignment}: {f}"));
    let read = |x: i64| if unsigned { x & 0xffff } else { ((x & 0xffff) ^ 0x8000) - 0x8000 };
    let u = |i: usize| read(EDGES[i / 8]);
    let v = |i: usize| read(EDGES[i % 8]);
    let out = Machine::new(&mut Concrete, &sema).run(&[lanes(u), lanes(v)]).expect("evaluates");
    for i in 0..LANES {
        let got = ((&out >> (16 * i)) & BigUint::from(0xffffu32)).iter_u64_digits().next().unwrap_or(0) as i64;
        let want = model(u(i), v(i)) & 0xffff;
        assert_eq!(got, want, "{assignment}: u = {}, v = {}", u(i), v(i));
    }
}

fn clamp(x: i64, lo: i64, hi: i64) -> i64 {
    x.max(lo).min(hi)
}

#[test]
fn saturating_arithmetic_matches_the_model() {
    check("VdV.h[i] = fVSADDSAT(16, VuV.h[i], VvV.h[i])", false, |u, v| clamp(u + v, -0x8000, 0x7fff));
    check("VdV.h[i] = fVSSUBSAT(16, VuV.h[i], VvV.h[i])", false, |u, v| clamp(u - v, -0x8000, 0x7fff));
    check("VdV.uh[i] = fVUADDSAT(16, VuV.uh[i], VvV.uh[i])", true, |u, v| clamp(u + v, 0, 0xffff));
    check("VdV.uh[i] = fVUSUBSAT(16, VuV.uh[i], VvV.uh[i])", true, |u, v| clamp(u - v, 0, 0xffff));
    check("VdV.h[i] = fVSATN(8, VuV.h[i])", false, |u, _| clamp(u, -0x80, 0x7f));
    check("VdV.h[i] = fVSATUN(8, VuV.h[i])", false, |u, _| clamp(u, 0, 0xff));
}

#[test]
fn averages_and_extensions_match_the_model() {
    check("VdV.h[i] = fVAVGS(16, VuV.h[i], VvV.h[i])", false, |u, v| (u + v) >> 1);
    check("VdV.h[i] = fVAVGSRND(16, VuV.h[i], VvV.h[i])", false, |u, v| (u + v + 1) >> 1);
    check("VdV.h[i] = fSXTN(8, 16, VuV.h[i])", false, |u, _| ((u & 0xff) ^ 0x80) - 0x80);
    check("VdV.h[i] = fZXTN(8, 16, VuV.h[i])", false, |u, _| u & 0xff);
    check("VdV.h[i] = fSXTN(16, 32, VuV.h[i])", false, |u, _| u);
}

#[test]
fn multiplies_match_the_model() {
    // The high halfword of the 32-bit product.
    check("VdV.h[i] = fMPY16SS(VuV.h[i], VvV.h[i]) >> 16", false, |u, v| (u * v) >> 16);
    check("VdV.h[i] = fMPY16UU(VuV.uh[i], VvV.uh[i]) >> 16", true, |u, v| (u * v) >> 16);
    check("VdV.h[i] = fMPY16SU(VuV.h[i], VvV.uh[i]) >> 16", false, |u, v| (u * (v & 0xffff)) >> 16);
    // The byte multiplies widen their operands to 16 bits first: a
    // halfword operand is taken whole by the signed form, its low byte by
    // the unsigned one.
    check("VdV.h[i] = fMPY8SS(VuV.h[i], VvV.h[i])", false, |u, v| u * v);
    check("VdV.h[i] = fMPY8UU(VuV.h[i], VvV.h[i])", false, |u, v| (u & 0xff) * (v & 0xff));
}
