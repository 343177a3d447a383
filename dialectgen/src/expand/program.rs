//! An expansion: the `vector`/`arith` ops that compute one instruction, as
//! plain data. The passes build them through MLIR's C API; [`Expansion::text`]
//! writes them as MLIR for tests, reports and the execution check.

use std::fmt::Write;

/// A type of the expansion: a vector of integers, or a scalar (no dims).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct VTy {
    pub dims: Vec<u32>,
    pub elem: u32,
}

impl VTy {
    pub fn vector(lanes: u32, elem: u32) -> VTy {
        VTy { dims: vec![lanes], elem }
    }

    pub fn lanes(&self) -> u32 {
        self.dims.iter().product()
    }

    pub fn bits(&self) -> u32 {
        self.lanes() * self.elem
    }
}

impl std::fmt::Display for VTy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.dims.is_empty() {
            return write!(f, "i{}", self.elem);
        }
        let dims: Vec<String> = self.dims.iter().map(u32::to_string).collect();
        write!(f, "vector<{}xi{}>", dims.join("x"), self.elem)
    }
}

/// A value the expansion reads: an operand of the op it expands, or the
/// result of one of its own ops.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValueRef {
    Operand(usize),
    Op(usize),
}

/// One op of an expansion: its name, operands, attributes (name and MLIR
/// attribute text) and result type.
#[derive(Clone, Debug, PartialEq)]
pub struct ExpandedOp {
    pub name: &'static str,
    pub operands: Vec<ValueRef>,
    pub attributes: Vec<(&'static str, String)>,
    pub result: VTy,
}

/// The ops in order, and the value that is the op's result.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Expansion {
    pub ops: Vec<ExpandedOp>,
    pub operand_types: Vec<VTy>,
    pub result: Option<ValueRef>,
}

impl Expansion {
    pub fn type_of(&self, v: ValueRef) -> &VTy {
        match v {
            ValueRef::Operand(k) => &self.operand_types[k],
            ValueRef::Op(k) => &self.ops[k].result,
        }
    }

    pub fn push(
        &mut self,
        name: &'static str,
        operands: Vec<ValueRef>,
        attributes: Vec<(&'static str, String)>,
        result: VTy,
    ) -> ValueRef {
        self.ops.push(ExpandedOp { name, operands, attributes, result });
        ValueRef::Op(self.ops.len() - 1)
    }

    /// The expansion as the body of `func.func @name`, in MLIR's generic
    /// form where an op has no short one the printer needs.
    pub fn text(&self, name: &str) -> String {
        let name_of = |v: ValueRef| match v {
            ValueRef::Operand(k) => format!("%arg{k}"),
            ValueRef::Op(k) => format!("%{k}"),
        };
        let params: Vec<String> = self.operand_types.iter().enumerate().map(|(k, t)| format!("%arg{k}: {t}")).collect();
        let result = self.result.map(|r| self.type_of(r).to_string()).unwrap_or_default();
        let mut out = format!("func.func @{name}({}) -> {result} {{\n", params.join(", "));
        for (k, op) in self.ops.iter().enumerate() {
            let operands: Vec<String> = op.operands.iter().map(|&v| name_of(v)).collect();
            let operand_types: Vec<String> = op.operands.iter().map(|&v| self.type_of(v).to_string()).collect();
            let attributes: Vec<String> = op.attributes.iter().map(|(n, a)| format!("{n} = {a}")).collect();
            let properties =
                if attributes.is_empty() { String::new() } else { format!(" <{{{}}}>", attributes.join(", ")) };
            let _ = writeln!(
                out,
                "  %{k} = \"{}\"({}){properties} : ({}) -> {}",
                op.name,
                operands.join(", "),
                operand_types.join(", "),
                op.result
            );
        }
        if let Some(r) = self.result {
            let _ = writeln!(out, "  return {} : {result}", name_of(r));
        }
        out.push_str("}\n");
        out
    }
}

impl VTy {
    /// `vector<4x16xi8>` or `i32`.
    pub fn parse(text: &str) -> Option<VTy> {
        if let Some(scalar) = text.strip_prefix('i') {
            return Some(VTy { dims: Vec::new(), elem: scalar.parse().ok()? });
        }
        let inner = text.strip_prefix("vector<")?.strip_suffix('>')?;
        let mut parts: Vec<&str> = inner.split('x').collect();
        let elem = parts.pop()?.strip_prefix('i')?.parse().ok()?;
        let dims = parts.iter().map(|d| d.parse().ok()).collect::<Option<Vec<u32>>>()?;
        (!dims.is_empty()).then_some(VTy { dims, elem })
    }

    /// The type of an instruction's argument or result in its dialect.
    pub fn of_arg(a: &crate::sema::ir::Arg) -> VTy {
        VTy::parse(&crate::design::build::mlir_type(a)).expect("the dialect's types parse")
    }
}
