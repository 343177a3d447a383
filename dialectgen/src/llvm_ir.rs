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

/// Where an argument of a call comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CallSource {
    /// Parameter `k` of the function, through `bitcast`s only.
    Param(usize),
    /// A constant, as the IR writes it (`i32 1`, `splat (i16 13)`).
    Constant(String),
}

/// The sources of the arguments of the first call of `callee` in a function
/// body, in order: each traced back through `bitcast`s to a parameter
/// (`%k`, numbered as clang numbers unnamed parameters), or a constant.
/// `None` where an argument comes from anything else or there is no call.
pub fn call_sources(body: &[String], callee: &str) -> Option<Vec<CallSource>> {
    let definition = |name: &str| body.iter().find_map(|l| l.strip_prefix(&format!("{name} = ")));
    let call = body.iter().find(|l| l.contains(&format!("@{callee}(")))?;
    let open = call.find(&format!("@{callee}("))? + callee.len() + 2;
    let close = call.rfind(')')?;
    let mut sources = Vec::new();
    for arg in split_top_level(&call[open..close]) {
        let value = arg.split_whitespace().last()?;
        if !value.starts_with('%') {
            // The whole argument past its type and attributes.
            let text =
                arg.split_whitespace().filter(|t| !matches!(*t, "noundef" | "immarg")).collect::<Vec<_>>().join(" ");
            sources.push(CallSource::Constant(text));
            continue;
        }
        let mut name = value.to_string();
        loop {
            match definition(&name) {
                None => {
                    sources.push(CallSource::Param(name.strip_prefix('%')?.parse().ok()?));
                    break;
                }
                Some(rhs) => {
                    // `bitcast <8 x i64> %1 to <32 x i16>`
                    let rest = rhs.strip_prefix("bitcast ")?;
                    let (from, _) = rest.split_once(" to ")?;
                    name = from.split_whitespace().last()?.to_string();
                }
            }
        }
    }
    Some(sources)
}

/// `a, b, c` split at the commas outside brackets and parentheses.
fn split_top_level(text: &str) -> Vec<&str> {
    let (mut depth, mut start, mut out) = (0i32, 0usize, Vec::new());
    for (i, c) in text.char_indices() {
        match c {
            '<' | '(' | '[' | '{' => depth += 1,
            '>' | ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(text[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    if !text[start..].trim().is_empty() {
        out.push(text[start..].trim());
    }
    out
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

#[cfg(test)]
mod tests {
    use super::*;

    /// `_mm512_shrdv_epi16(a, b, c)` is `llvm.fshr(b, a, c)`: the bitcasts
    /// come in another order than the parameters, and the sources say so.
    #[test]
    fn call_sources_follow_the_bitcasts_not_their_order() {
        let body: Vec<String> = [
            "%4 = bitcast <8 x i64> %1 to <32 x i16>",
            "%5 = bitcast <8 x i64> %0 to <32 x i16>",
            "%6 = bitcast <8 x i64> %2 to <32 x i16>",
            "%7 = tail call <32 x i16> @llvm.fshr.v32i16(<32 x i16> %4, <32 x i16> %5, <32 x i16> %6)",
            "%8 = bitcast <32 x i16> %7 to <8 x i64>",
            "ret <8 x i64> %8",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(
            call_sources(&body, "llvm.fshr.v32i16"),
            Some(vec![CallSource::Param(1), CallSource::Param(0), CallSource::Param(2)])
        );
        let shifted = vec![
            "%3 = tail call <32 x i16> @llvm.fshl.v32i16(<32 x i16> %1, <32 x i16> %0, <32 x i16> splat (i16 15))"
                .to_string(),
        ];
        assert_eq!(
            call_sources(&shifted, "llvm.fshl.v32i16"),
            Some(vec![
                CallSource::Param(1),
                CallSource::Param(0),
                CallSource::Constant("<32 x i16> splat (i16 15)".into())
            ])
        );
        let computed = vec![
            "%3 = add <4 x i32> %0, %1".to_string(),
            "%4 = tail call <4 x i32> @llvm.abs.v4i32(<4 x i32> %3, i1 false)".to_string(),
        ];
        assert_eq!(call_sources(&computed, "llvm.abs.v4i32"), None);
    }
}
