//! From a guide signature (C types and `etype`s) to typed IR arguments.

use super::guide::{GuideEntry, GuideParam};
use crate::sema::ir::{Arg, ArgKind, ElemType};

#[derive(Debug, thiserror::Error, Clone, PartialEq)]
pub enum SignatureError {
    #[error("parameter `{name}`: unsupported C type `{c_type}`")]
    UnsupportedType { name: String, c_type: String },
    #[error("parameter `{name}`: unsupported element type `{etype}`")]
    UnsupportedElement { name: String, etype: String },
}

/// Width in bits of a C type used by integer intrinsics.
pub fn c_type_width(c_type: &str) -> Option<u32> {
    let t = c_type.trim_start_matches("const ").trim();
    Some(match t {
        "__m128i" => 128,
        "__m256i" => 256,
        "__m512i" => 512,
        "__mmask8" => 8,
        "__mmask16" => 16,
        "__mmask32" => 32,
        "__mmask64" => 64,
        "char" | "unsigned char" | "__int8" => 8,
        "short" | "unsigned short" | "__int16" => 16,
        "int"
        | "unsigned int"
        | "unsigned"
        | "__int32"
        | "_MM_CMPINT_ENUM"
        | "_MM_PERM_ENUM"
        | "_MM_MANTISSA_NORM_ENUM" => 32,
        "__int64" | "unsigned __int64" | "long long" | "unsigned long long" => 64,
        _ => return None,
    })
}

/// `SI16` → signed 16-bit elements; `M128` → one unsigned 128-bit element.
pub fn elem_type(etype: &str, width: u32) -> Option<ElemType> {
    let (signed, rest) = if let Some(r) = etype.strip_prefix("SI") {
        (true, r)
    } else if let Some(r) = etype.strip_prefix("UI") {
        (false, r)
    } else if let Some(r) = etype.strip_prefix('M').filter(|r| r.chars().all(|c| c.is_ascii_digit())) {
        (false, r)
    } else {
        return match etype {
            "MASK" => Some(ElemType { width: 1, signed: false }),
            "IMM" => Some(ElemType { width: 8, signed: false }),
            "" => Some(ElemType { width, signed: false }),
            _ => None,
        };
    };
    rest.parse().ok().map(|w| ElemType { width: w, signed })
}

pub fn to_arg(p: &GuideParam, etype_override: Option<&str>) -> Result<Arg, SignatureError> {
    let width = c_type_width(&p.c_type)
        .ok_or_else(|| SignatureError::UnsupportedType { name: p.varname.clone(), c_type: p.c_type.clone() })?;
    let etype = etype_override.unwrap_or(&p.etype);
    let elem = elem_type(etype, width)
        .ok_or_else(|| SignatureError::UnsupportedElement { name: p.varname.clone(), etype: etype.to_string() })?;
    let kind = if p.etype == "IMM" {
        ArgKind::Immediate
    } else if p.c_type.starts_with("__mmask") {
        ArgKind::Mask
    } else if p.c_type.starts_with("__m") {
        ArgKind::Vector
    } else {
        ArgKind::Scalar
    };
    // A comparison predicate (`immtype="_MM_CMPINT"`, declared `_MM_CMPINT_ENUM`
    // or `const int`) is 3 bits: the operation reads `imm8[2:0]`, and clang
    // rejects values above 7 in either spelling.
    let predicate = p.immtype.as_deref() == Some("_MM_CMPINT") || p.c_type.contains("_MM_CMPINT_ENUM");
    let default_bits = if predicate { 3 } else { 8 };
    let imm_bits = (kind == ArgKind::Immediate).then(|| p.immwidth.unwrap_or(default_bits).min(8));
    Ok(Arg { name: p.varname.clone(), kind, width, elem, imm_bits, imm_range: None })
}

/// Arguments and result of an entry, with element-type corrections applied.
pub fn signature(
    e: &GuideEntry,
    etypes: &std::collections::BTreeMap<String, String>,
) -> Result<(Vec<Arg>, Arg), SignatureError> {
    let args = e
        .params
        .iter()
        .map(|p| to_arg(p, etypes.get(&p.varname).map(String::as_str)))
        .collect::<Result<Vec<_>, _>>()?;
    let ret = to_arg(&e.ret, etypes.get(&e.ret.varname).map(String::as_str))?;
    Ok((args, ret))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn immediate(c_type: &str, immtype: Option<&str>, immwidth: Option<u32>) -> Option<u32> {
        let p = GuideParam {
            c_type: c_type.into(),
            varname: "imm8".into(),
            etype: "IMM".into(),
            immwidth,
            immtype: immtype.map(str::to_string),
        };
        to_arg(&p, None).expect("an immediate").imm_bits
    }

    #[test]
    fn a_comparison_predicate_is_three_bits_in_either_spelling() {
        assert_eq!(immediate("_MM_CMPINT_ENUM", Some("_MM_CMPINT"), None), Some(3));
        assert_eq!(immediate("const int", Some("_MM_CMPINT"), None), Some(3));
        assert_eq!(immediate("const int", None, None), Some(8));
        assert_eq!(immediate("const int", Some("_MM_PERM"), None), Some(8));
        assert_eq!(immediate("const int", None, Some(5)), Some(5));
    }
}
