//! What each op of a target dialect becomes in LLVM, the same description
//! for every ISA, read from the table the generator writes for it
//! (`generated/<isa>/llvm-lowering.json`, [`dialectgen::llvm_lowering`]):
//! the intrinsic clang-22 emits for it (its arguments, a masked `select`
//! after it, a generic intrinsic it stands for), one generic LLVM
//! instruction, clang's whole IR for it (a snippet; per value of its
//! immediate, or with the immediate's value in its place), or a data
//! movement by its immediate. `convert-hydride-<isa>-to-llvm`
//! ([`crate::ir::to_llvm`]) lowers by them, and synthesis uses only
//! instructions that have one. Here the entries' types are parsed; an
//! entry whose types synthesis does not model is no lowering.

use crate::synth::types::Ty;
use crate::table_error::TableError;
use dialectgen::llvm_snippet::ImmediateTemplate;
use std::collections::HashMap;
use std::sync::OnceLock;

/// One op's LLVM lowering.
#[derive(Clone, Debug, PartialEq)]
pub struct OpLowering {
    pub body: Body,
    /// The extensions the op needs on its ISA's targets.
    pub features: Vec<String>,
    /// For a mask form: the `select` on the mask the computed value goes
    /// through.
    pub select: Option<MaskSelect>,
    /// It is generic IR alone (a snippet of generic operations, a data
    /// movement whose `shufflevector` LLVM would make of the same shuffle):
    /// for synthesis never a program by itself, a step beside a target
    /// intrinsic.
    pub generic_ir: bool,
}

/// How the op's value is computed.
#[derive(Clone, Debug, PartialEq)]
pub enum Body {
    /// `llvm.call_intrinsic @name`.
    Intrinsic {
        name: String,
        /// Its arguments; `None`: the op's operands, then its immediate.
        args: Option<Vec<CallArg>>,
        /// Its parameter and result types.
        signature: Signature,
        /// The generic LLVM intrinsic it stands for, emitted instead.
        generic: Option<GenericIntrinsic>,
    },
    /// `llvm.<op>` over the op's two operands, of the result's type.
    Binary { op: String },
    /// Clang's IR for the intrinsic, an `llvm.func` inlined at the op: its
    /// parameters are the op's operands (bitcast), its result the op's.
    Snippet { params: Vec<Ty>, result: Ty, text: String },
    /// Clang's IR for each value of the op's immediate (from `lowest` up),
    /// each a snippet over the op's operands.
    SnippetPerImmediate {
        immediate: Immediate,
        lowest: i64,
        snippets: Vec<(Vec<Ty>, Ty, String)>,
        /// The last snippet is also the IR of every larger value up to this one.
        last_holds_up_to: Option<i64>,
    },
    /// Clang's IR with the op's immediate in its place, a snippet over the
    /// op's operands.
    SnippetOfImmediate { immediate: Immediate, params: Vec<Ty>, result: Ty, template: ImmediateTemplate },
    /// A data movement by the immediate: one `shufflevector` whose mask the
    /// instruction's semantics give for the op's immediate ([`crate::ir::movement`]).
    Movement {
        /// The instruction whose semantics give the arrangement.
        instruction: String,
        /// Size of the elements moved.
        elem_bits: u32,
        /// The op's immediate attribute.
        immediate: String,
        /// The shuffle's result type (the op's is a bitcast of it).
        result: Ty,
    },
}

/// An argument of an intrinsic call.
#[derive(Clone, Debug, PartialEq)]
pub enum CallArg {
    /// Operand `k` of the op.
    Operand(usize),
    /// The op's immediate attribute of this name, a constant.
    Immediate(String),
}

/// Which of the op's attributes is the immediate a snippet depends on.
#[derive(Clone, Debug, PartialEq)]
pub enum Immediate {
    /// The attribute of this name.
    Named(String),
    /// The op's one integer attribute.
    Only,
}

/// The types of an intrinsic's parameters and result.
#[derive(Clone, Debug, PartialEq)]
pub enum Signature {
    Given {
        params: Vec<Ty>,
        result: Ty,
    },
    /// Every value as the intrinsic takes it in 32-bit words: a vector as
    /// `<N x i32>`, a scalar or anything of at most 32 bits as `i32`
    /// (predicates are not modelled).
    Words,
}

/// A generic LLVM intrinsic (`llvm.smax.v8i16`) a target one stands for,
/// which LLVM's optimizer reasons about (known bits, ranges).
#[derive(Clone, Debug, PartialEq)]
pub struct GenericIntrinsic {
    pub name: String,
    /// It takes a trailing `i1 false` (`llvm.abs`: the minimum is not poison).
    pub poison_flag: bool,
    /// Only when the op's two operands are one value (`psign(x, x)` is `|x|`):
    /// then of the first alone.
    pub of_one_value: bool,
}

/// What a result element with a clear mask bit becomes.
#[derive(Clone, Debug, PartialEq)]
pub enum Otherwise {
    Zero,
    /// Operand `k` of the op (pass-through or the operation's own).
    Operand(usize),
}

#[derive(Clone, Debug, PartialEq)]
pub struct MaskSelect {
    /// The mask operand of the op.
    pub mask: usize,
    /// Result elements under the mask and their width in bits.
    pub elements: u32,
    pub elem_width: u32,
    pub otherwise: Otherwise,
}

impl OpLowering {
    /// Parameter and result types of an intrinsic for an op with these
    /// operand (then immediate) and result types.
    pub fn signature(&self, args: &[Ty], result: &Ty) -> Option<(Vec<Ty>, Ty)> {
        let Body::Intrinsic { signature, .. } = &self.body else { return None };
        match signature {
            Signature::Given { params, result } => Some((params.clone(), result.clone())),
            Signature::Words => Some((args.iter().map(word_type).collect::<Option<_>>()?, word_type(result)?)),
        }
    }

    /// The snippet for value `v` of the immediate, if one was recorded.
    pub fn snippet_at(&self, v: i64) -> Option<(&[Ty], &str)> {
        let Body::SnippetPerImmediate { lowest, snippets, last_holds_up_to, .. } = &self.body else { return None };
        let last = snippets.len().checked_sub(1)?;
        let k = usize::try_from(v.checked_sub(*lowest)?).ok()?;
        let k = match last_holds_up_to {
            Some(top) if v <= *top => k.min(last),
            _ => k,
        };
        snippets.get(k).map(|(p, _, t)| (p.as_slice(), t.as_str()))
    }
}

/// A value as an intrinsic taking 32-bit words takes it: vectors as
/// `<N x i32>`, scalars and every value of at most 32 bits (a scalar
/// register) as `i32`.
fn word_type(t: &Ty) -> Option<Ty> {
    if t.dims.is_empty() || t.bits() <= 32 {
        return (t.elem_bits <= 32).then(|| Ty { dims: Vec::new(), elem_bits: 32 });
    }
    (t.elem_bits > 1 && t.bits() % 32 == 0).then(|| Ty { dims: vec![t.bits() / 32], elem_bits: 32 })
}

/// Lowerings per target op name (`hydride_<isa>.<op>`), each read on
/// first use.
pub struct LoweringTable {
    /// FNV-1a of the table's text (part of the grammar's version).
    pub version: u64,
    lowerings: HashMap<&'static str, (&'static str, OnceLock<Option<OpLowering>>)>,
}

impl LoweringTable {
    /// The table of `isa` (its name, for errors): its generated text.
    pub fn parse(isa: &str, json: &'static str) -> Result<LoweringTable, TableError> {
        let entries = crate::lines::index(json)
            .map_err(|e| TableError::LoweringTable { isa: isa.to_string(), why: e.to_string() })?;
        Ok(LoweringTable {
            version: crate::synth::cache::fnv(json),
            lowerings: entries.into_iter().map(|(op, v)| (op, (v, OnceLock::new()))).collect(),
        })
    }

    /// The lowering of `op`; `None` if it has none hydride emits.
    pub fn get(&self, op: &str) -> Option<&OpLowering> {
        let (raw, parsed) = self.lowerings.get(op)?;
        parsed.get_or_init(|| read(raw)).as_ref()
    }
}

/// One entry of a table, its types parsed.
fn read(raw: &str) -> Option<OpLowering> {
    use dialectgen::llvm_lowering as table;
    let entry: table::OpLowering = serde_json::from_str(raw).ok()?;
    let ty = |t: &str| Ty::parse(t);
    let types = |ts: &[String]| ts.iter().map(|t| ty(t)).collect::<Option<Vec<Ty>>>();
    let snippet = |s: table::Snippet| Some((types(&s.params)?, ty(&s.result)?, s.text));
    let immediate = |i: table::Immediate| match i {
        table::Immediate::Named(name) => Immediate::Named(name),
        table::Immediate::Only => Immediate::Only,
    };
    let body = match entry.body {
        table::Body::Intrinsic { name, args, signature, generic } => Body::Intrinsic {
            name,
            args: args.map(|args| {
                args.into_iter()
                    .map(|a| match a {
                        table::CallArg::Operand(k) => CallArg::Operand(k),
                        table::CallArg::Immediate(name) => CallArg::Immediate(name),
                    })
                    .collect()
            }),
            signature: match signature {
                table::Signature::Given { params, result } => {
                    Signature::Given { params: types(&params)?, result: ty(&result)? }
                }
                table::Signature::Words => Signature::Words,
            },
            generic: generic.map(|g| GenericIntrinsic {
                name: g.name,
                poison_flag: g.poison_flag,
                of_one_value: g.of_one_value,
            }),
        },
        table::Body::Binary { op } => Body::Binary { op },
        table::Body::Snippet(s) => {
            let (params, result, text) = snippet(s)?;
            Body::Snippet { params, result, text }
        }
        table::Body::SnippetPerImmediate { immediate: i, lowest, snippets, last_holds_up_to } => {
            Body::SnippetPerImmediate {
                immediate: immediate(i),
                lowest,
                snippets: snippets.into_iter().map(snippet).collect::<Option<_>>()?,
                last_holds_up_to,
            }
        }
        table::Body::SnippetOfImmediate { immediate: i, params, result, template } => Body::SnippetOfImmediate {
            immediate: immediate(i),
            params: types(&params)?,
            result: ty(&result)?,
            template,
        },
        table::Body::Movement { instruction, elem_bits, immediate, result } => {
            Body::Movement { instruction, elem_bits, immediate, result: ty(&result)? }
        }
    };
    let select = entry.select.map(|s| MaskSelect {
        mask: s.mask,
        elements: s.elements,
        elem_width: s.elem_width,
        otherwise: match s.otherwise {
            table::Otherwise::Zero => Otherwise::Zero,
            table::Otherwise::Operand(k) => Otherwise::Operand(k),
        },
    });
    Some(OpLowering { body, features: entry.features, select, generic_ir: entry.generic_ir })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn intrinsic(signature: Signature) -> OpLowering {
        let body = Body::Intrinsic { name: "llvm.x".into(), args: None, signature, generic: None };
        OpLowering { body, features: Vec::new(), select: None, generic_ir: false }
    }

    #[test]
    fn entries_read_with_their_types_parsed() {
        let words =
            read(r#"{"body":{"intrinsic":{"name":"llvm.x","signature":"words"}},"features":["ext2"]}"#).unwrap();
        assert_eq!(words, OpLowering { features: vec!["ext2".into()], ..intrinsic(Signature::Words) });
        let call = read(r#"{"body":{"intrinsic":{"name":"llvm.x","args":[{"operand":1},{"immediate":"imm"}],"signature":{"given":{"params":["vector<16xi16>"],"result":"i32"}}}},"features":["ext1"],"select":{"mask":2,"elements":16,"elem_width":16,"otherwise":"zero"}}"#).unwrap();
        let Body::Intrinsic { args, signature: Signature::Given { params, result }, .. } = &call.body else {
            panic!("{call:?}")
        };
        assert_eq!(args.as_deref(), Some(&[CallArg::Operand(1), CallArg::Immediate("imm".into())][..]));
        assert_eq!((params[0].to_string(), result.to_string()), ("vector<16xi16>".to_string(), "i32".to_string()));
        assert_eq!(call.select.map(|s| s.otherwise), Some(Otherwise::Zero));
        // A type synthesis does not model: no lowering.
        assert_eq!(
            read(r#"{"body":{"snippet":{"params":["vector<4xf32>"],"result":"i32","text":""}},"features":[]}"#),
            None
        );
    }

    #[test]
    fn every_entry_of_every_table_reads() {
        for isa in crate::targets::REGISTRY {
            let json = isa.lowering();
            let entries = crate::lines::index(json).unwrap();
            assert!(!entries.is_empty(), "{}: an empty lowering table", isa.name());
            let unread: Vec<&str> = entries.iter().filter(|(_, raw)| read(raw).is_none()).map(|(op, _)| *op).collect();
            assert!(
                unread.is_empty(),
                "{}: {} of {} entries do not read: {:?}",
                isa.name(),
                unread.len(),
                entries.len(),
                &unread[..unread.len().min(8)]
            );
        }
    }

    #[test]
    fn word_signatures_pass_vectors_as_words_and_refuse_predicates() {
        let call = intrinsic(Signature::Words);
        let v = Ty::parse("vector<128xi8>").unwrap();
        let (params, result) = call.signature(&[v.clone(), v.clone()], &v).unwrap();
        assert_eq!(params[0].to_string(), "vector<32xi32>");
        assert_eq!(result.to_string(), "vector<32xi32>");
        assert_eq!(call.signature(&[Ty::parse("vector<2xi16>").unwrap()], &v).unwrap().0[0].to_string(), "i32");
        assert!(call.signature(&[Ty::parse("vector<128xi1>").unwrap()], &v).is_none());
    }

    #[test]
    fn the_last_snippet_holds_up_to_its_bound_and_no_further() {
        let ir = |t: &str| (Vec::new(), Ty { dims: Vec::new(), elem_bits: 8 }, t.to_string());
        let body = Body::SnippetPerImmediate {
            immediate: Immediate::Only,
            lowest: 1,
            snippets: vec![ir("one"), ir("two")],
            last_holds_up_to: Some(4),
        };
        let l = OpLowering { body, features: Vec::new(), select: None, generic_ir: false };
        let at = |v| l.snippet_at(v).map(|(_, t)| t.to_string());
        assert_eq!(at(0), None);
        assert_eq!(at(1).as_deref(), Some("one"));
        assert_eq!(at(2).as_deref(), Some("two"));
        assert_eq!(at(4).as_deref(), Some("two"));
        assert_eq!(at(5), None);
    }
}
