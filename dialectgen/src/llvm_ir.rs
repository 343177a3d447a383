//! Reading clang's LLVM IR: per function, the `llvm.*` intrinsics it calls
//! and the generic operations it uses, and the MLIR types of intrinsic
//! declarations. Each ISA's lowering table is built from these.

use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct IntrinsicSignature {
    pub params: Vec<String>,
    pub result: String,
}

/// `<16 x i32>` → `vector<16xi32>`, `i8` → `i8`; other types are not ours.
fn mlir_type_of_llvm(t: &str) -> Option<String> {
    let t = t.trim();
    let t = t.split_whitespace().next().filter(|_| !t.starts_with('<')).unwrap_or(t);
    if let Some(inner) = t.strip_prefix('<').and_then(|r| r.split('>').next()) {
        let (n, elem) = inner.split_once(" x ")?;
        let n: u32 = n.trim().parse().ok()?;
        let bits: u32 = elem.trim().strip_prefix('i')?.parse().ok()?;
        return Some(format!("vector<{n}xi{bits}>"));
    }
    let bits: u32 = t.strip_prefix('i')?.parse().ok()?;
    Some(format!("i{bits}"))
}

/// `declare <16 x i32> @llvm.x(<16 x i32>, i32 immarg) #1` → name and signature.
pub fn parse_declaration(line: &str) -> Option<(String, IntrinsicSignature)> {
    let rest = line.strip_prefix("declare ")?;
    let at = rest.find(" @llvm.")?;
    let result = mlir_type_of_llvm(rest[..at].split_whitespace().last()?).or_else(|| mlir_type_of_llvm(&rest[..at]))?;
    let after = &rest[at + 2..];
    let open = after.find('(')?;
    let name = after[..open].to_string();
    let close = after.rfind(')')?;
    let params = after[open + 1..close]
        .split(", ")
        .filter(|p| !p.trim().is_empty())
        .map(mlir_type_of_llvm)
        .collect::<Option<Vec<_>>>()?;
    Some((format!("llvm.{}", name.trim_start_matches("llvm.")), IntrinsicSignature { params, result }))
}

pub fn split_ir(ir: &str) -> BTreeMap<String, Vec<String>> {
    let mut out = BTreeMap::new();
    let mut current: Option<(String, Vec<String>)> = None;
    for line in ir.lines() {
        if line.starts_with("define ") {
            let name = line.split('@').nth(1).and_then(|r| r.split('(').next()).unwrap_or("").to_string();
            current = Some((name, Vec::new()));
        } else if line == "}" {
            if let Some((n, body)) = current.take() {
                out.insert(n, body);
            }
        } else if let Some((_, body)) = current.as_mut() {
            body.push(line.trim().to_string());
        }
    }
    out
}

/// The `llvm.*` intrinsics a function body calls and the other operations
/// it uses (casts and the calls themselves aside), each once, in order.
pub fn calls_and_ops(body: &[String]) -> (Vec<String>, Vec<String>) {
    let (mut calls, mut ops) = (Vec::new(), Vec::new());
    for line in body {
        if let Some(i) = line.find("@llvm.") {
            let callee: String = line[i + 1..].chars().take_while(|c| *c != '(').collect();
            if !calls.contains(&callee) {
                calls.push(callee);
            }
        } else if let Some((_, rhs)) = line.split_once(" = ") {
            let op = rhs.split_whitespace().next().unwrap_or("").to_string();
            if !matches!(op.as_str(), "bitcast" | "tail" | "call") && !ops.contains(&op) {
                ops.push(op);
            }
        }
    }
    (calls, ops)
}
