//! Arm's NEON intrinsics table (`intr.json`): signatures, the register each
//! argument goes to, immediate ranges, and the instruction they stand for.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A C type of the NEON intrinsics (`int16x8_t`, `uint8_t`, `const int`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CType {
    pub name: String,
    /// `int`, `uint`, `float`, `poly`, `bfloat` (empty for `void`).
    pub base: String,
    pub elem_bits: u32,
    pub lanes: u32,
    /// `x2`, `x3`, `x4` aggregates of vectors.
    pub aggregate: u32,
    pub pointer: bool,
}

impl CType {
    pub fn parse(text: &str) -> CType {
        let t = text.trim().trim_start_matches("const ").trim();
        let pointer = t.contains('*');
        let core = t.trim_end_matches('*').trim().trim_end_matches("const").trim();
        let core = core.strip_suffix("_t").unwrap_or(core);
        let base: String = core.chars().take_while(|c| c.is_ascii_alphabetic()).collect();
        let rest = &core[base.len()..];
        let mut nums = rest.split('x').map(|n| n.parse::<u32>().unwrap_or(0));
        let elem_bits = nums.next().unwrap_or(0);
        let lanes = nums.next().unwrap_or(1).max(1);
        let aggregate = nums.next().unwrap_or(1).max(1);
        let (base, elem_bits) =
            if base == "int" && elem_bits == 0 { ("int".to_string(), 32) } else { (base, elem_bits) };
        CType { name: t.to_string(), base, elem_bits, lanes, aggregate, pointer }
    }
    pub fn bits(&self) -> u32 {
        self.elem_bits * self.lanes
    }
    pub fn signed(&self) -> bool {
        self.base == "int"
    }
}

/// One argument of an intrinsic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IntrinsicArg {
    pub name: String,
    pub c_type: CType,
    /// The register operand it is passed in (`Vn.16B`, `Hm`, `Vm.4B`), if any.
    pub register: Option<String>,
    /// For immediates and lanes: the inclusive range of values.
    pub range: Option<(i64, i64)>,
}

/// One entry of `intr.json`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Intrinsic {
    pub name: String,
    pub ret: CType,
    pub args: Vec<IntrinsicArg>,
    /// The instruction mnemonic (`SQADD`); more than one for sequences.
    pub instructions: Vec<String>,
    /// The instruction's operands as Arm writes them (`Vd.8H,Vn.16B,Vm.16B`).
    pub operands: String,
    /// `Vector arithmetic|Add|Saturating addition`.
    pub group: String,
    /// The operation id into `op.json` (not used for semantics).
    pub operation: String,
    /// The register the result is in (`Vd.8H`).
    pub result_register: Option<String>,
    /// Position in the file (0-based entry index), for diagnostics.
    pub index: usize,
}

#[derive(Debug, thiserror::Error)]
pub enum IntrinsicsError {
    #[error("{path}: {source}")]
    Read { path: PathBuf, source: std::io::Error },
    #[error("{path}: not an intrinsics table: {source}")]
    Parse { path: PathBuf, source: serde_json::Error },
}

#[derive(Deserialize)]
struct RawEntry {
    name: String,
    return_type: RawRet,
    #[serde(default)]
    arguments: Vec<String>,
    #[serde(default)]
    results: Vec<BTreeMap<String, String>>,
    #[serde(rename = "Arguments_Preparation", default)]
    prep: Option<BTreeMap<String, BTreeMap<String, serde_json::Value>>>,
    #[serde(rename = "Operation", default)]
    operation: String,
    #[serde(default)]
    instruction_group: String,
    #[serde(default)]
    base_instruction: Option<Vec<String>>,
    #[serde(default)]
    operands: Option<String>,
}

#[derive(Deserialize)]
struct RawRet {
    value: String,
}

fn value_i64(v: &serde_json::Value) -> Option<i64> {
    match v {
        serde_json::Value::String(s) => s.trim().parse().ok(),
        serde_json::Value::Number(n) => n.as_i64(),
        _ => None,
    }
}

/// Reads `intr.json`.
pub fn load(path: &Path) -> Result<Vec<Intrinsic>, IntrinsicsError> {
    let text = std::fs::read_to_string(path).map_err(|source| IntrinsicsError::Read { path: path.into(), source })?;
    let raw: Vec<RawEntry> =
        serde_json::from_str(&text).map_err(|source| IntrinsicsError::Parse { path: path.into(), source })?;
    Ok(raw.into_iter().enumerate().map(|(index, r)| convert(r, index)).collect())
}

fn convert(r: RawEntry, index: usize) -> Intrinsic {
    let prep = r.prep.unwrap_or_default();
    let args = r
        .arguments
        .iter()
        .map(|a| {
            let (ty, name) = a.trim().rsplit_once(' ').unwrap_or(("", a.trim()));
            let name = name.trim_start_matches('*').to_string();
            let p = prep.get(&name);
            let register = p.and_then(|p| p.get("register")).and_then(|v| v.as_str()).map(|s| s.trim().to_string());
            let range = p.and_then(|p| Some((value_i64(p.get("minimum")?)?, value_i64(p.get("maximum")?)?)));
            IntrinsicArg { name, c_type: CType::parse(ty), register, range }
        })
        .collect();
    let result_register = r.results.first().and_then(|m| m.keys().next().cloned());
    Intrinsic {
        name: r.name,
        ret: CType::parse(&r.return_type.value),
        args,
        instructions: r.base_instruction.unwrap_or_default(),
        operands: r.operands.unwrap_or_default(),
        group: r.instruction_group,
        operation: r.operation,
        result_register,
        index,
    }
}

#[cfg(test)]
mod tests {
    use super::CType;

    #[test]
    fn c_types_parse() {
        let t = CType::parse("int16x8_t");
        assert_eq!((t.base.as_str(), t.elem_bits, t.lanes, t.bits()), ("int", 16, 8, 128));
        let t = CType::parse("uint8x16x2_t");
        assert_eq!((t.lanes, t.aggregate), (16, 2));
        let t = CType::parse("const int");
        assert_eq!((t.base.as_str(), t.elem_bits), ("int", 32));
        assert!(CType::parse("int8_t const *").pointer);
        assert_eq!(CType::parse("uint64_t").bits(), 64);
    }
}
