//! What each op of a target dialect becomes in LLVM, one description for
//! every ISA, as `hydride gen` records it in `generated/<isa>/llvm-lowering.json`
//! (one entry per op, `"hydride_<isa>.<op>": {…}`): the intrinsic clang-22
//! emits for it (its arguments, a masked `select` after it, a generic
//! intrinsic it stands for), one generic LLVM instruction, clang's whole IR
//! for it (a snippet; per value of its immediate, or with the immediate's
//! value in its place), or a data movement by its immediate. Each ISA's
//! front end says which of these its instructions are
//! ([`crate::isa::front_end::Lowerings`]); the passes read every table the
//! same way (`passes::llvm_lowering`), and the target dialect's ODS says it
//! in each op's description.

use crate::llvm_snippet::ImmediateTemplate;
use serde::{Deserialize, Serialize};

/// One op's LLVM lowering.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OpLowering {
    pub body: Body,
    /// The extensions the op needs on its ISA's targets.
    pub features: Vec<String>,
    /// For a mask form: the `select` on the mask the computed value goes through.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub select: Option<MaskSelect>,
    /// It is generic IR alone (a snippet of generic operations, a data
    /// movement): for synthesis never a program by itself, a step beside a
    /// target intrinsic.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub generic_ir: bool,
}

/// How the op's value is computed. Types are MLIR's (`vector<8xi16>`, `i32`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Body {
    /// `llvm.call_intrinsic @name`.
    Intrinsic {
        name: String,
        /// Its arguments; `None`: the op's operands, then its immediate.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        args: Option<Vec<CallArg>>,
        signature: Signature,
        /// The generic LLVM intrinsic it stands for, emitted instead.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        generic: Option<GenericIntrinsic>,
    },
    /// `llvm.<op>` over the op's two operands, of the result's type.
    Binary { op: String },
    /// Clang's IR for the intrinsic, an `llvm.func` inlined at the op: its
    /// parameters are the op's operands (bitcast), its result the op's.
    Snippet(Snippet),
    /// Clang's IR for each value of the op's immediate (from `lowest` up).
    SnippetPerImmediate {
        immediate: Immediate,
        lowest: i64,
        snippets: Vec<Snippet>,
        /// The last snippet is also the IR of every larger value up to this one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        last_holds_up_to: Option<i64>,
    },
    /// Clang's IR with the op's immediate in its place, over the op's operands.
    SnippetOfImmediate { immediate: Immediate, params: Vec<String>, result: String, template: ImmediateTemplate },
    /// A data movement by the immediate: one `shufflevector` whose mask the
    /// instruction's semantics give for the op's immediate.
    Movement {
        /// The instruction whose semantics give the arrangement.
        instruction: String,
        /// Size of the elements moved.
        elem_bits: u32,
        /// The op's immediate attribute.
        immediate: String,
        /// The shuffle's result type (the op's is a bitcast of it).
        result: String,
    },
}

/// Clang's IR as `llvm.func @snippet(…)`, with its parameter and result types.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Snippet {
    pub params: Vec<String>,
    pub result: String,
    pub text: String,
}

/// An argument of an intrinsic call.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CallArg {
    /// Operand `k` of the op.
    Operand(usize),
    /// The op's immediate attribute of this name, a constant.
    Immediate(String),
}

/// Which of the op's attributes is the immediate a snippet depends on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Immediate {
    /// The attribute of this name.
    Named(String),
    /// The op's one integer attribute.
    Only,
}

/// The types of an intrinsic's parameters and result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Signature {
    Given {
        params: Vec<String>,
        result: String,
    },
    /// Every value as the intrinsic takes it in 32-bit words: a vector as
    /// `<N x i32>`, a scalar or anything of at most 32 bits as `i32`.
    Words,
}

/// A generic LLVM intrinsic (`llvm.smax.v8i16`) a target one stands for,
/// which LLVM's optimizer reasons about (known bits, ranges).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GenericIntrinsic {
    pub name: String,
    /// It takes a trailing `i1 false` (`llvm.abs`: the minimum is not poison).
    pub poison_flag: bool,
    /// Only when the op's two operands are one value (`psign(x, x)` is `|x|`):
    /// then of the first alone.
    pub of_one_value: bool,
}

/// The `select` a mask form's computed value goes through.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MaskSelect {
    /// The mask operand of the op.
    pub mask: usize,
    /// Result elements under the mask and their width in bits.
    pub elements: u32,
    pub elem_width: u32,
    pub otherwise: Otherwise,
}

/// What a result element with a clear mask bit becomes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Otherwise {
    Zero,
    /// Operand `k` of the op (pass-through or the operation's own).
    Operand(usize),
}

impl OpLowering {
    /// The LLVM intrinsics clang's IR for the op calls, each once, in order
    /// (none for a call, one instruction or a data movement).
    pub fn called_by_ir(&self) -> Vec<String> {
        let texts: Vec<&str> = match &self.body {
            Body::Snippet(s) => vec![s.text.as_str()],
            Body::SnippetPerImmediate { snippets, .. } => snippets.iter().map(|s| s.text.as_str()).collect(),
            Body::SnippetOfImmediate { template, .. } => template.pieces.iter().map(String::as_str).collect(),
            Body::Intrinsic { .. } | Body::Binary { .. } | Body::Movement { .. } => Vec::new(),
        };
        let mut names: Vec<String> = Vec::new();
        let called =
            texts.iter().flat_map(|t| t.split("llvm.call_intrinsic \"").skip(1)).filter_map(|c| c.split('"').next());
        for name in called {
            if !names.iter().any(|n| n == name) {
                names.push(name.to_string());
            }
        }
        names
    }

    /// One line for the op's description: what it becomes in LLVM.
    pub fn describe(&self) -> String {
        let ir = |per: &str| {
            let calls: Vec<String> = self.called_by_ir().iter().map(|n| format!("`{n}`")).collect();
            if calls.is_empty() {
                format!("clang-22's IR of generic operations{per}")
            } else {
                format!("clang-22's IR{per}, calling {}", calls.join(", "))
            }
        };
        let mask = if self.select.is_some() { ", then a `select` on the mask" } else { "" };
        let what = match &self.body {
            Body::Intrinsic { name, generic: Some(g), .. } if !g.of_one_value => {
                format!("a call of `{}` (LLVM's generic form of `{name}`)", g.name)
            }
            Body::Intrinsic { name, generic: Some(g), .. } => {
                format!("a call of `{name}`; of one value twice, `{}`", g.name)
            }
            Body::Intrinsic { name, .. } => format!("a call of `{name}`"),
            Body::Binary { op } => format!("one `llvm.{op}` of its operands"),
            Body::Movement { instruction, .. } => {
                format!("one `llvm.shufflevector` whose mask `{instruction}`'s semantics give for the immediate")
            }
            Body::Snippet(_) => ir(""),
            Body::SnippetPerImmediate { .. } => ir(" (per value of its immediate)"),
            Body::SnippetOfImmediate { .. } => ir(" (with its immediate's value in place)"),
        };
        let features =
            if self.features.is_empty() { String::new() } else { format!("; needs {}", self.features.join(", ")) };
        format!("Lowers to LLVM as {what}{mask}{features}.")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_read_back_as_written() {
        let call = OpLowering {
            body: Body::Intrinsic {
                name: "llvm.vendor.sign.w".into(),
                args: Some(vec![CallArg::Operand(0), CallArg::Immediate("imm".into())]),
                signature: Signature::Given { params: vec!["vector<16xi16>".into()], result: "vector<16xi16>".into() },
                generic: None,
            },
            features: vec!["ext1".into()],
            select: Some(MaskSelect { mask: 2, elements: 16, elem_width: 16, otherwise: Otherwise::Operand(1) }),
            generic_ir: false,
        };
        let text = serde_json::to_string(&call).unwrap();
        assert!(text.contains(r#""args":[{"operand":0},{"immediate":"imm"}]"#), "{text}");
        assert_eq!(serde_json::from_str::<OpLowering>(&text).unwrap(), call);
        let words = OpLowering {
            body: Body::Intrinsic {
                name: "llvm.vendor.addh.wide".into(),
                args: None,
                signature: Signature::Words,
                generic: None,
            },
            features: vec!["ext2".into()],
            select: None,
            generic_ir: false,
        };
        let text = serde_json::to_string(&words).unwrap();
        assert_eq!(serde_json::from_str::<OpLowering>(&text).unwrap(), words);
        assert_eq!(words.describe(), "Lowers to LLVM as a call of `llvm.vendor.addh.wide`; needs ext2.");
    }

    #[test]
    fn a_snippet_names_the_intrinsics_it_calls() {
        let text = "llvm.func @snippet(%arg0: vector<4xi16>) -> vector<4xi16> {\n  %0 = llvm.call_intrinsic \"llvm.vendor.abd.v4i16\"(%arg0, %arg0) : (vector<4xi16>, vector<4xi16>) -> vector<4xi16>\n  llvm.return %0 : vector<4xi16>\n}";
        let snippet =
            Snippet { params: vec!["vector<4xi16>".into()], result: "vector<4xi16>".into(), text: text.into() };
        let l =
            OpLowering { body: Body::Snippet(snippet), features: vec!["ext3".into()], select: None, generic_ir: false };
        assert_eq!(l.called_by_ir(), ["llvm.vendor.abd.v4i16"]);
        assert!(l.describe().contains("calling `llvm.vendor.abd.v4i16`"), "{}", l.describe());
    }
}
