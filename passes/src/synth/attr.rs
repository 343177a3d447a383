//! The attributes synthesis reads from an op, as the MLIR C API gives them
//! (see `crate::ir::read`): typed values, never printed text.

use num_bigint::BigInt;
use std::fmt;

#[derive(Clone, Debug, PartialEq)]
pub enum Attr {
    /// An integer attribute (`arith.cmpi`'s predicate, an immediate).
    Int(BigInt),
    /// An array of integers (`array<i64: …>` or `[1 : i64, …]`).
    Ints(Vec<i64>),
    /// The elements of a dense integer elements attribute, row-major
    /// (a splat repeated), `i1` elements as 0 and 1.
    Elements(Vec<BigInt>),
    /// A vector combining kind (`#vector.kind<add>`): `add`.
    Kind(String),
    /// Affine maps whose results are dimensions: per map, its dimension
    /// count and result positions (`affine_map<(d0, d1, d2) -> (d0, d2)>`:
    /// `(3, [0, 2])`).
    Maps(Vec<(u32, Vec<u32>)>),
    Str(String),
    /// An attribute synthesis does not read, as MLIR prints it (for the
    /// memo's key and for messages only).
    Other(String),
}

impl Attr {
    pub fn int(&self) -> Option<&BigInt> {
        match self {
            Attr::Int(x) => Some(x),
            _ => None,
        }
    }

    pub fn ints(&self) -> Option<&[i64]> {
        match self {
            Attr::Ints(xs) => Some(xs),
            _ => None,
        }
    }

    /// One value per lane: a dense attribute's elements, or a scalar integer.
    pub fn lanes(&self, lanes: u32) -> Option<Vec<BigInt>> {
        match self {
            Attr::Elements(xs) if xs.len() == lanes as usize => Some(xs.clone()),
            Attr::Int(x) => Some(vec![x.clone(); lanes as usize]),
            _ => None,
        }
    }

    pub fn maps(&self) -> Option<&[(u32, Vec<u32>)]> {
        match self {
            Attr::Maps(m) => Some(m),
            _ => None,
        }
    }

    pub fn kind(&self) -> Option<&str> {
        match self {
            Attr::Kind(k) => Some(k),
            _ => None,
        }
    }
}

fn list<T: fmt::Display>(f: &mut fmt::Formatter<'_>, xs: &[T]) -> fmt::Result {
    for (i, x) in xs.iter().enumerate() {
        if i > 0 {
            write!(f, ", ")?;
        }
        write!(f, "{x}")?;
    }
    Ok(())
}

impl fmt::Display for Attr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Attr::Int(x) => write!(f, "{x}"),
            Attr::Ints(xs) => {
                write!(f, "[")?;
                list(f, xs)?;
                write!(f, "]")
            }
            Attr::Elements(xs) => {
                write!(f, "dense<[")?;
                list(f, xs)?;
                write!(f, "]>")
            }
            Attr::Kind(k) => write!(f, "#kind<{k}>"),
            Attr::Maps(maps) => {
                write!(f, "[")?;
                for (i, (dims, results)) in maps.iter().enumerate() {
                    let d = |k: &u32| format!("d{k}");
                    let all: Vec<String> = (0..*dims).map(|k| d(&k)).collect();
                    let res: Vec<String> = results.iter().map(d).collect();
                    write!(
                        f,
                        "{}affine_map<({}) -> ({})>",
                        if i > 0 { ", " } else { "" },
                        all.join(", "),
                        res.join(", ")
                    )?;
                }
                write!(f, "]")
            }
            Attr::Str(s) => write!(f, "{s:?}"),
            Attr::Other(text) => write!(f, "{text}"),
        }
    }
}

/// An attribute a rewrite sets on an op it creates.
#[derive(Clone, Debug, PartialEq)]
pub enum NewAttr {
    /// An integer attribute of type `i{bits}`.
    Int { value: BigInt, bits: u32 },
    /// `array<i64: …>`.
    I64s(Vec<i64>),
    /// `array<i32: …>`.
    I32s(Vec<i32>),
    /// An attribute in MLIR's syntax (`#autollvm.masking<merge>`).
    Parsed(String),
    /// A dense elements attribute of a vector type, row-major.
    Dense(super::types::Ty, Vec<BigInt>),
}

impl NewAttr {
    /// A class parameter given in decimal, typed as the dialects type it:
    /// `i32` when it fits, else `i64`, else `i128` (see `dialectgen::design::int_attribute`).
    pub fn parameter(decimal: &str) -> Option<NewAttr> {
        let value: BigInt = decimal.parse().ok()?;
        let bits = if i32::try_from(&value).is_ok() {
            32
        } else if i64::try_from(&value).is_ok() {
            64
        } else {
            128
        };
        Some(NewAttr::Int { value, bits })
    }
}
