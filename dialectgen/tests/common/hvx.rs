//! HVX bindings for tests that translate hand-written definitions.
#![allow(dead_code)] // Not every test that shares `common` translates HVX.

use dialectgen::isa::hvx::bind::Binding;
use dialectgen::isa::hvx::c::translate::RegBinding;
use dialectgen::sema::ir::{Arg, ArgKind, ElemType};

/// `VdV = f(VuV, …)`: one 1024-bit vector register per input (`Vu` for
/// `VuV`, …) and the result `dst`, all with lanes of type `lane`.
pub fn vector_binding(inputs: &[&str], lane: ElemType) -> Binding {
    let vec = |name: &str| Arg {
        name: name.into(),
        kind: ArgKind::Vector,
        width: 1024,
        elem: lane,
        imm_bits: None,
        imm_range: None,
    };
    let reg = |var: &str, writable| RegBinding { var: var.into(), offset: 0, width: 1024, whole: None, writable };
    let mut regs = std::collections::BTreeMap::from([("VdV".to_string(), reg("dst", true))]);
    for name in inputs {
        regs.insert(format!("{name}V"), reg(name, false));
    }
    Binding {
        args: inputs.iter().map(|n| vec(n)).collect(),
        result: vec("dst"),
        regs,
        prologue: Vec::new(),
        parts: vec![("VdV".into(), 0, 1024)],
    }
}
