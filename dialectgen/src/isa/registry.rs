//! The registered instruction sets: adding an ISA is its folder under
//! `isa/` and one line here.

use super::Isa;

/// Every instruction set hydride knows, in generation order.
pub fn all() -> Vec<&'static dyn Isa> {
    vec![&super::x86::generate::X86, &super::arm::generate::Arm, &super::hvx::generate::Hvx]
}

/// The registered ISA called `name`.
pub fn by_name(name: &str) -> Option<&'static dyn Isa> {
    all().into_iter().find(|isa| isa.name() == name)
}
