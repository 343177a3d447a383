//! Reading the HVX vendor data: Qualcomm's instruction definitions (as
//! QEMU imports them), the manual's pseudocode (as Hydride extracted it) and
//! LLVM's instruction table (operands, versions).

use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Where the HVX data lives under an isa-data directory.
#[derive(Clone, Debug)]
pub struct HvxSources {
    /// `mmvec_expanded.json`: `{tag, syntax, attribs, descr, semantics}` records.
    pub definitions: PathBuf,
    /// `HVXInsts.json`: intrinsic → `{hvx_intrinsic, spec}` (manual pseudocode).
    pub manual: PathBuf,
    /// `HexagonDepInstrInfo.td`: operands and the HVX version of each instruction.
    pub instr_info: PathBuf,
}

impl HvxSources {
    pub fn under(isa_data: &Path) -> HvxSources {
        let hvx = isa_data.join("hvx");
        HvxSources {
            definitions: hvx.join("qemu-upstream-2023-07").join("mmvec_expanded.json"),
            manual: hvx.join("hydride").join("HVXInsts.json"),
            instr_info: hvx.join("llvm15").join("HexagonDepInstrInfo.td"),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum DataError {
    #[error("{path}: {source}")]
    Io { path: String, source: std::io::Error },
    #[error("{path}: {message}")]
    Format { path: String, message: String },
}

fn read(path: &Path) -> Result<String, DataError> {
    std::fs::read_to_string(path).map_err(|source| DataError::Io { path: path.display().to_string(), source })
}

/// One instruction definition.
#[derive(Clone, Debug, Deserialize)]
pub struct Definition {
    pub tag: String,
    pub syntax: String,
    pub attribs: String,
    #[serde(default)]
    pub descr: String,
    pub semantics: String,
}

impl Definition {
    pub fn has_attrib(&self, a: &str) -> bool {
        self.attribs.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).any(|x| x == a)
    }

    /// What synthesis counts as the instruction's cost on HVX, from its
    /// resource class: 2 for a double multiply (`A_CVI_VX_DV`), which takes
    /// both of the core's multiply resources and so issues alone among
    /// multiplies; 1 for any other. So a multiply-accumulate is not taken
    /// for cheaper than the add and shift by a power of two it would
    /// replace, while a double-vector unpack or add (`A_CVI_VP_VS`,
    /// `A_CVI_VA_DV`) still counts as the one instruction it is.
    pub fn cost(&self) -> u32 {
        if self.has_attrib("A_CVI_VX_DV") {
            2
        } else {
            1
        }
    }
}

pub fn read_definitions(path: &Path) -> Result<Vec<Definition>, DataError> {
    let text = read(path)?;
    serde_json::from_str(&text)
        .map_err(|e| DataError::Format { path: path.display().to_string(), message: e.to_string() })
}

/// The manual's pseudocode for one intrinsic.
#[derive(Clone, Debug, Deserialize)]
pub struct ManualEntry {
    pub hvx_intrinsic: String,
    pub spec: String,
}

/// Tag (`V6_vaddbsat`) → manual entry, from `hexagon_V6_vaddbsat_128B` keys.
pub fn read_manual(path: &Path) -> Result<BTreeMap<String, ManualEntry>, DataError> {
    let text = read(path)?;
    let raw: BTreeMap<String, ManualEntry> = serde_json::from_str(&text)
        .map_err(|e| DataError::Format { path: path.display().to_string(), message: e.to_string() })?;
    Ok(raw
        .into_iter()
        .map(|(k, v)| {
            let tag = k.strip_prefix("hexagon_").unwrap_or(&k);
            let tag = tag.strip_suffix("_128B").unwrap_or(tag);
            (tag.to_string(), v)
        })
        .collect())
}

/// A register class of an operand, as LLVM names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OperandClass {
    /// `HvxVR`: one 1024-bit vector.
    Vector,
    /// `HvxWR`: a register pair, 2048 bits.
    Pair,
    /// `HvxQR`: a 128-bit predicate, one bit per byte.
    Predicate,
    /// `IntRegs`: a 32-bit scalar.
    Scalar,
    /// `DoubleRegs`: a 64-bit scalar pair.
    ScalarPair,
    /// `uN_0Imm` / `sN_0Imm`: an immediate of `bits` bits.
    Immediate { bits: u32, signed: bool },
    /// Anything else (`PredRegs`: conditional execution), not modelled.
    Other,
}

impl OperandClass {
    fn parse(class: &str) -> OperandClass {
        match class {
            "HvxVR" => OperandClass::Vector,
            "HvxWR" => OperandClass::Pair,
            "HvxQR" => OperandClass::Predicate,
            "IntRegs" | "IntRegsLow8" => OperandClass::Scalar,
            "DoubleRegs" => OperandClass::ScalarPair,
            c => {
                let imm = c.strip_suffix("_0Imm").and_then(|r| {
                    let signed = r.starts_with('s');
                    let bits = r.strip_prefix(['s', 'u'])?.parse().ok()?;
                    Some(OperandClass::Immediate { bits, signed })
                });
                imm.unwrap_or(OperandClass::Other)
            }
        }
    }

    pub fn width(self) -> u32 {
        match self {
            OperandClass::Vector => 1024,
            OperandClass::Pair => 2048,
            OperandClass::Predicate => 128,
            OperandClass::Scalar | OperandClass::Immediate { .. } => 32,
            OperandClass::ScalarPair => 64,
            OperandClass::Other => 0,
        }
    }
}

/// An operand of an LLVM instruction definition: `HvxWR:$Vxx32in`.
#[derive(Clone, Debug, PartialEq)]
pub struct Operand {
    pub class: OperandClass,
    /// `Vxx32in` without the `$`.
    pub name: String,
}

impl Operand {
    /// The name Qualcomm's code uses: `Vxx32in` → `VxxV`, `Ii` → `uiV`/`siV`.
    pub fn source_name(&self) -> String {
        if let OperandClass::Immediate { signed, .. } = self.class {
            return if signed { "siV".into() } else { "uiV".into() };
        }
        let base = self.name.strip_suffix("in").unwrap_or(&self.name);
        let base = base.trim_end_matches(|c: char| c.is_ascii_digit());
        format!("{base}V")
    }
}

#[derive(Clone, Debug)]
pub struct InstrInfo {
    pub outs: Vec<Operand>,
    pub ins: Vec<Operand>,
    /// The HVX version that introduced it (60, 62, …, 69).
    pub version: Option<u32>,
}

/// `def V6_x : HInst<(outs …), (ins …), …, Requires<[UseHVXV60]>` records.
pub fn read_instr_info(path: &Path) -> Result<BTreeMap<String, InstrInfo>, DataError> {
    let text = read(path)?;
    let mut out = BTreeMap::new();
    let mut rest = text.as_str();
    while let Some(p) = rest.find("\ndef V6_") {
        rest = &rest[p + 5..];
        let Some(name_end) = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) else { break };
        let tag = rest[..name_end].to_string();
        let end = rest.find("\n}").unwrap_or(rest.len());
        let body = &rest[..end];
        let operands = |kw: &str| -> Vec<Operand> {
            let Some(s) = body.find(&format!("({kw}")) else { return Vec::new() };
            let list = &body[s + kw.len() + 1..];
            let list = &list[..list.find(')').unwrap_or(list.len())];
            list.split(',')
                .filter_map(|o| {
                    let (class, name) = o.trim().split_once(":$")?;
                    Some(Operand { class: OperandClass::parse(class.trim()), name: name.trim().to_string() })
                })
                .collect()
        };
        let version = body.find("UseHVXV").and_then(|p| {
            let digits: String = body[p + 7..].chars().take_while(char::is_ascii_digit).collect();
            digits.parse().ok()
        });
        out.insert(tag, InstrInfo { outs: operands("outs"), ins: operands("ins"), version });
    }
    if out.is_empty() {
        return Err(DataError::Format { path: path.display().to_string(), message: "no `def V6_…` records".into() });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operand_names_follow_the_definitions() {
        let o = Operand { class: OperandClass::Pair, name: "Vxx32in".into() };
        assert_eq!(o.source_name(), "VxxV");
        let q = Operand { class: OperandClass::Predicate, name: "Qx4".into() };
        assert_eq!(q.source_name(), "QxV");
        assert_eq!(OperandClass::parse("u3_0Imm"), OperandClass::Immediate { bits: 3, signed: false });
    }
}
