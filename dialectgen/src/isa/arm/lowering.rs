//! What each ARM intrinsic becomes in LLVM IR: clang-22 compiles a call of
//! it for AArch64, and the function's body names the `llvm.aarch64.*`
//! intrinsic called (or the generic IR operations used). This is what a
//! `hydride_arm` op lowers to. Where that is more than one intrinsic call or
//! one generic instruction (`vabaq_u8` is `uabd` then `add`, `vmovl_s16` a
//! `sext`), the function itself, imported into MLIR's LLVM dialect, is
//! recorded as a snippet the lowering pass inlines.

use super::intrinsics::Intrinsic;
use crate::llvm_ir::{calls_and_ops, parse_declaration, split_ir, IntrinsicSignature};
use crate::llvm_snippet;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

/// Flags for compiling NEON code with dot product and i8mm.
pub const CLANG_FLAGS: &[&str] =
    &["--target=aarch64-linux-gnu", "-march=armv8.6-a+i8mm+dotprod+sha3+rdm", "-ffreestanding"];

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ArmLowering {
    /// `llvm.aarch64.neon.sqadd.v8i8`, when one intrinsic is called.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub llvm_intrinsics: Vec<String>,
    /// Generic IR operations (`add`, `shufflevector`, …).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub llvm_ops: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signature: Option<IntrinsicSignature>,
    /// Clang's whole function, when it is not one intrinsic call, takes no
    /// immediates and is one block of pure operations.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snippet: Option<ArmSnippet>,
    /// For an intrinsic whose one immediate has at most [`FEW_VALUES`]
    /// values and whose IR is more than one intrinsic call: clang's function
    /// for each value, when each is a snippet.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snippet_per_immediate: Option<SnippetPerImmediate>,
    /// For an intrinsic whose one immediate has more values and no other
    /// lowering: clang's unoptimized IR with the value in its place.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snippet_of_immediate: Option<llvm_snippet::ImmediateTemplate>,
    /// The one generic LLVM instruction over the intrinsic's two operands
    /// in order (either order if it commutes), of the result's type, that
    /// clang's IR is: the lowering pass emits it, and no snippet is recorded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub binary: Option<String>,
}

/// Clang's IR for each value of an immediate, from its smallest value up.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SnippetPerImmediate {
    pub lowest: i64,
    pub snippets: Vec<ArmSnippet>,
}

/// A snippet as the lowering table records it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ArmSnippet {
    /// MLIR types of the parameters, the op's operands in order.
    pub params: Vec<String>,
    pub result: String,
    /// `llvm.func @snippet(...) { ... llvm.return ... }`.
    pub text: String,
}

#[derive(Debug, thiserror::Error)]
pub enum ArmLoweringError {
    #[error("cannot run {compiler}: {source}")]
    Compiler { compiler: String, source: std::io::Error },
    #[error("{compiler} rejected the lowering source: {message}")]
    Rejected { compiler: String, message: String },
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// Why [`literal_ir`] produced no IR.
#[derive(Debug, thiserror::Error)]
enum LiteralIrError {
    #[error("{compiler}: {message}")]
    CompilerRejected { compiler: String, message: String },
    #[error(transparent)]
    OptRejected(#[from] llvm_snippet::OptRejected),
}

/// LLVM instructions over two operands of one type that the ARM lowering
/// pass emits itself when an intrinsic is just one of them over its two
/// operands (see [`ArmLowering::binary`]).
pub const DIRECT_BINARY_OPS: &[&str] = &["add", "sub", "mul", "and", "or", "xor", "ashr", "lshr", "shl"];

/// The instruction of [`DIRECT_BINARY_OPS`] that `snippet` is, if it is one
/// over its two parameters of the result's type, in order (either order for
/// one that commutes).
fn direct_binary(snippet: &ArmSnippet) -> Option<String> {
    let t = &snippet.result;
    if snippet.params.len() != 2 || snippet.params.iter().any(|p| p != t) {
        return None;
    }
    let body: Vec<&str> = snippet.text.lines().skip(1).map(str::trim).filter(|l| *l != "}").collect();
    let [op_line, ret] = body[..] else { return None };
    if ret != format!("llvm.return %0 : {t}") {
        return None;
    }
    DIRECT_BINARY_OPS
        .iter()
        .find(|op| {
            let commutes = matches!(**op, "add" | "mul" | "and" | "or" | "xor");
            op_line == format!("%0 = llvm.{op} %arg0, %arg1 : {t}")
                || commutes && op_line == format!("%0 = llvm.{op} %arg1, %arg0 : {t}")
        })
        .map(|op| op.to_string())
}

/// Immediates with at most this many values get clang's IR for each value
/// when their IR is more than one intrinsic call (lanes, shifts, `vext`).
const FEW_VALUES: i64 = 16;

/// The values of the intrinsic's one immediate, if it has one of at most
/// [`FEW_VALUES`] values.
fn few_values(i: &Intrinsic) -> Option<std::ops::RangeInclusive<i64>> {
    let [(lo, hi)] = i.args.iter().filter_map(|a| a.range).collect::<Vec<_>>()[..] else { return None };
    (hi >= lo && hi - lo < FEW_VALUES).then_some(lo..=hi)
}

/// The range of the intrinsic's one immediate, if it has more than
/// [`FEW_VALUES`] values.
fn many_values(i: &Intrinsic) -> Option<(i64, i64)> {
    let [(lo, hi)] = i.args.iter().filter_map(|a| a.range).collect::<Vec<_>>()[..] else { return None };
    (hi >= lo && hi - lo >= FEW_VALUES).then_some((lo, hi))
}

/// A C function `name` calling the intrinsic, with its immediates set to
/// `value` (or their smallest value).
fn c_function(s: &mut String, name: &str, i: &Intrinsic, value: Option<i64>) {
    let params: Vec<String> = i
        .args
        .iter()
        .enumerate()
        .filter(|(_, a)| a.range.is_none())
        .map(|(n, a)| format!("{} a{n}", a.c_type.name))
        .collect();
    let args: Vec<String> = i
        .args
        .iter()
        .enumerate()
        .map(|(n, a)| a.range.map_or_else(|| format!("a{n}"), |(lo, _)| value.unwrap_or(lo).to_string()))
        .collect();
    let _ = writeln!(s, "{} {name}({}) {{ return {}({}); }}", i.ret.name, params.join(", "), i.name, args.join(", "));
}

/// `hydride_f{k}` per intrinsic, immediates at their smallest value, and
/// `hydride_f{k}_v{value}` per value of an immediate of few values.
fn c_source(intrinsics: &[&Intrinsic]) -> String {
    let mut s = String::from("#include <arm_neon.h>\n");
    for (k, i) in intrinsics.iter().enumerate() {
        c_function(&mut s, &format!("hydride_f{k}"), i, None);
        for v in few_values(i).into_iter().flatten() {
            c_function(&mut s, &format!("hydride_f{k}_v{v}"), i, Some(v));
        }
    }
    s
}

/// One C function per intrinsic for pricing it alone
/// ([`crate::cpu_costs`]): `hydride_f{k}` calls the `k`-th, immediates at
/// their smallest value.
pub fn cost_functions(intrinsics: &[&Intrinsic]) -> crate::cpu_costs::table::CFunctions {
    intrinsics
        .iter()
        .enumerate()
        .map(|(k, i)| {
            let mut line = String::new();
            c_function(&mut line, &format!("hydride_f{k}"), i, None);
            crate::cpu_costs::table::CFunction {
                name: i.name.clone(),
                line: line.trim_end().to_string(),
                requires: Vec::new(),
            }
        })
        .collect()
}

/// Lowers every intrinsic (immediates at their smallest value).
pub fn lowerings(
    intrinsics: &[&Intrinsic],
    compiler: &Path,
    dir: &Path,
) -> Result<BTreeMap<String, ArmLowering>, ArmLoweringError> {
    let c_path = dir.join("arm-lowering.c");
    let ll_path = dir.join("arm-lowering.ll");
    std::fs::write(&c_path, c_source(intrinsics))?;
    let out = Command::new(compiler)
        .args(CLANG_FLAGS)
        .args(["-O1", "-w", "-S", "-emit-llvm", "-o"])
        .arg(&ll_path)
        .arg(&c_path)
        .output()
        .map_err(|source| ArmLoweringError::Compiler { compiler: compiler.display().to_string(), source })?;
    if !out.status.success() {
        let message =
            String::from_utf8_lossy(&out.stderr).lines().find(|l| l.contains("error")).unwrap_or("failed").to_string();
        return Err(ArmLoweringError::Rejected { compiler: compiler.display().to_string(), message });
    }
    let ir = std::fs::read_to_string(&ll_path)?;
    let mut snippets =
        llvm_snippet::snippets(&llvm_snippet::import(&llvm_snippet::mlir_translate_for(compiler), &ll_path)?);
    let bodies = split_ir(&ir);
    let declarations: BTreeMap<String, IntrinsicSignature> = ir.lines().filter_map(parse_declaration).collect();
    let mut result = BTreeMap::new();
    for (k, i) in intrinsics.iter().enumerate() {
        let mut l = ArmLowering::default();
        (l.llvm_intrinsics, l.llvm_ops) =
            calls_and_ops(bodies.get(&format!("hydride_f{k}")).map(Vec::as_slice).unwrap_or_default());
        let immediates = i.args.iter().any(|a| a.range.is_some());
        let operands = i.args.iter().filter(|a| a.range.is_none()).count();
        if let [only] = l.llvm_intrinsics.as_slice() {
            l.signature = declarations.get(only).cloned();
        }
        // One call takes the immediate as it is only where the intrinsic has
        // a scalar parameter for it; where clang folds it into a vector
        // operand (`vrshr_n` is `srshl` by a splat of minus the count), the
        // IR per value says what that operand is.
        if immediates && !l.signature.as_ref().is_some_and(|s| takes_immediate(s, operands)) {
            l.signature = None;
        }
        let one_call = l.llvm_intrinsics.len() == 1 && l.llvm_ops.is_empty() && l.signature.is_some();
        let mut snippet = |name: &str| {
            snippets.remove(name).filter(|s| s.params.len() == operands).map(|s| ArmSnippet {
                params: s.params,
                result: s.result,
                text: s.text,
            })
        };
        if !one_call && !immediates {
            let whole = snippet(&format!("hydride_f{k}"));
            match whole.as_ref().and_then(direct_binary) {
                Some(op) => l.binary = Some(op),
                None => l.snippet = whole,
            }
        }
        if let Some(values) = few_values(i).filter(|_| !one_call) {
            let lowest = *values.start();
            let per_value: Option<Vec<ArmSnippet>> = values.map(|v| snippet(&format!("hydride_f{k}_v{v}"))).collect();
            l.snippet_per_immediate = per_value.map(|snippets| SnippetPerImmediate { lowest, snippets });
        }
        result.insert(i.name.clone(), l);
    }
    immediate_templates(intrinsics, compiler, dir, &mut result)?;
    Ok(result)
}

/// Whether an intrinsic of `signature` takes a call's immediate as a
/// scalar parameter after its `operands` vector ones.
fn takes_immediate(signature: &IntrinsicSignature, operands: usize) -> bool {
    signature.params.len() > operands && signature.params[operands..].iter().all(|p| !p.starts_with("vector"))
}

/// An immediate of more values and no lowering yet: clang's IR, nothing
/// folded, as a template of the value.
fn immediate_templates(
    intrinsics: &[&Intrinsic],
    compiler: &Path,
    dir: &Path,
    result: &mut BTreeMap<String, ArmLowering>,
) -> Result<(), ArmLoweringError> {
    let unlowered: Vec<(usize, &Intrinsic, (i64, i64))> = intrinsics
        .iter()
        .enumerate()
        .filter(|(_, i)| {
            result
                .get(&i.name)
                .is_some_and(|l| !(l.llvm_intrinsics.len() == 1 && l.llvm_ops.is_empty() && l.signature.is_some()))
        })
        .filter_map(|(k, i)| Some((k, *i, many_values(i)?)))
        .collect();
    if !unlowered.is_empty() {
        let mut c = String::from("#include <arm_neon.h>\n");
        for (k, i, (lo, hi)) in &unlowered {
            for v in llvm_snippet::template_values(*lo, *hi) {
                c_function(&mut c, &format!("hydride_f{k}_t{v}"), i, Some(v));
            }
        }
        let (c_path, ll_path) = (dir.join("arm-lowering-templates.c"), dir.join("arm-lowering-templates.ll"));
        std::fs::write(&c_path, c)?;
        let compiled = literal_ir(compiler, &c_path, &ll_path)?;
        if let Err(message) = &compiled {
            eprintln!("hydride gen: arm: no templates of immediates: {message}");
        }
        let snippets = if compiled.is_err() {
            BTreeMap::new()
        } else {
            llvm_snippet::snippets(&llvm_snippet::import(&llvm_snippet::mlir_translate_for(compiler), &ll_path)?)
        };
        for (k, i, (lo, hi)) in &unlowered {
            let compiled: Option<Vec<(i64, &llvm_snippet::Snippet)>> = llvm_snippet::template_values(*lo, *hi)
                .into_iter()
                .map(|v| Some((v, snippets.get(&format!("hydride_f{k}_t{v}"))?)))
                .collect();
            let operands = i.args.iter().filter(|a| a.range.is_none()).count();
            let template = compiled
                .and_then(|c| llvm_snippet::immediate_template_but_top(&c, (*lo, *hi)))
                .filter(|t| t.params.len() == operands);
            if let (Some(t), Some(l)) = (template, result.get_mut(&i.name)) {
                l.snippet_of_immediate = Some(t);
            }
        }
    }
    Ok(())
}

/// Compiles `c_path` to LLVM IR at `ll_path` unoptimized, the intrinsics'
/// wrappers inlined ([`llvm_snippet::inline_wrappers`]): the builtins' own
/// IR, constants as written. `Ok(Err(_))` if clang or opt rejects it.
fn literal_ir(compiler: &Path, c_path: &Path, ll_path: &Path) -> Result<Result<(), LiteralIrError>, ArmLoweringError> {
    let out = Command::new(compiler)
        .args(CLANG_FLAGS)
        .args(["-O0", "-Xclang", "-disable-O0-optnone", "-w", "-S", "-emit-llvm", "-o"])
        .arg(ll_path)
        .arg(c_path)
        .output()
        .map_err(|source| ArmLoweringError::Compiler { compiler: compiler.display().to_string(), source })?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let message = stderr.lines().find(|l| l.contains("error")).unwrap_or("failed").to_string();
        return Ok(Err(LiteralIrError::CompilerRejected { compiler: compiler.display().to_string(), message }));
    }
    Ok(llvm_snippet::inline_wrappers(compiler, ll_path)?.map_err(LiteralIrError::from))
}

/// How many instructions have a lowering of each form, and why the rest
/// have none (the `llvm_lowering` part of the ARM report; the x86 report
/// has the same fields).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Coverage {
    pub instructions: usize,
    /// A call of one LLVM intrinsic.
    pub intrinsic_call: usize,
    /// Clang's IR, inlined (one generic instruction, or more than one
    /// operation).
    pub generic_ir: usize,
    /// Clang's IR for each value of an immediate of few values.
    pub generic_ir_per_immediate: usize,
    /// Clang's unoptimized IR with the immediate's value in its place.
    pub generic_ir_of_immediate: usize,
    /// No lowering, by reason.
    pub none: BTreeMap<String, usize>,
}

pub fn coverage(intrinsics: &[&Intrinsic], lowerings: &BTreeMap<String, ArmLowering>) -> Coverage {
    let mut c = Coverage { instructions: intrinsics.len(), ..Coverage::default() };
    for i in intrinsics {
        let Some(l) = lowerings.get(&i.name) else {
            *c.none.entry("clang does not compile the intrinsic alone".into()).or_default() += 1;
            continue;
        };
        if l.llvm_intrinsics.len() == 1 && l.llvm_ops.is_empty() && l.signature.is_some() {
            c.intrinsic_call += 1;
        } else if l.snippet_per_immediate.is_some() {
            c.generic_ir_per_immediate += 1;
        } else if l.snippet_of_immediate.is_some() {
            c.generic_ir_of_immediate += 1;
        } else if l.snippet.is_some() || l.binary.is_some() {
            c.generic_ir += 1;
        } else {
            let reason = match few_values(i) {
                _ if i.args.iter().filter(|a| a.range.is_some()).count() > 1 => "more than one immediate",
                None if i.args.iter().any(|a| a.range.is_some()) => "IR depends on an immediate of more than 16 values",
                _ => "IR is not one block of pure operations over vectors",
            };
            *c.none.entry(reason.into()).or_default() += 1;
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::arm::intrinsics::{CType, IntrinsicArg};

    fn intrinsic(name: &str, ret: &str, args: &[(&str, Option<(i64, i64)>)]) -> Intrinsic {
        Intrinsic {
            name: name.into(),
            ret: CType::parse(ret),
            args: args
                .iter()
                .enumerate()
                .map(|(k, (t, range))| IntrinsicArg {
                    name: format!("a{k}"),
                    c_type: CType::parse(t),
                    register: None,
                    range: *range,
                })
                .collect(),
            instructions: Vec::new(),
            operands: String::new(),
            group: String::new(),
            operation: String::new(),
            result_register: None,
            index: 0,
        }
    }

    #[test]
    fn a_generic_op_over_both_operands_in_order_is_emitted_directly() {
        let snippet = |params: &[&str], body: &str| ArmSnippet {
            params: params.iter().map(|p| p.to_string()).collect(),
            result: "vector<8xi16>".into(),
            text: format!("llvm.func @snippet(...) -> vector<8xi16> {{\n{body}\n  llvm.return %0 : vector<8xi16>\n}}"),
        };
        let two = ["vector<8xi16>", "vector<8xi16>"];
        let add = snippet(&two, "  %0 = llvm.add %arg1, %arg0 : vector<8xi16>");
        let sub = snippet(&two, "  %0 = llvm.sub %arg0, %arg1 : vector<8xi16>");
        let sub_swapped = snippet(&two, "  %0 = llvm.sub %arg1, %arg0 : vector<8xi16>");
        let not = snippet(
            &two[..1],
            "  %1 = llvm.mlir.constant(dense<-1> : vector<8xi16>) : vector<8xi16>\n  %0 = llvm.xor %arg0, %1 : vector<8xi16>",
        );
        assert_eq!(direct_binary(&add).as_deref(), Some("add"));
        assert_eq!(direct_binary(&sub).as_deref(), Some("sub"));
        assert_eq!(direct_binary(&sub_swapped), None);
        assert_eq!(direct_binary(&not), None);
    }

    #[test]
    fn immediates_of_few_values_get_a_function_per_value() {
        let shift = intrinsic(
            "vrsraq_n_s16",
            "int16x8_t",
            &[("int16x8_t", None), ("int16x8_t", None), ("const int", Some((1, 16)))],
        );
        let lane = intrinsic("vdupq_laneq_s8", "int8x16_t", &[("int8x16_t", None), ("const int", Some((0, 15)))]);
        let wide = intrinsic("vshlq_n_s64", "int64x2_t", &[("int64x2_t", None), ("const int", Some((0, 63)))]);
        assert_eq!(few_values(&shift), Some(1..=16));
        assert_eq!(few_values(&lane), Some(0..=15));
        assert_eq!(few_values(&wide), None);
        let c = c_source(&[&shift, &wide]);
        // The base function at the smallest value, then one per value of the shift's 16.
        assert!(c.contains("int16x8_t hydride_f0(int16x8_t a0, int16x8_t a1) { return vrsraq_n_s16(a0, a1, 1); }"));
        assert!(c.contains("int16x8_t hydride_f0_v16(int16x8_t a0, int16x8_t a1) { return vrsraq_n_s16(a0, a1, 16); }"));
        assert!(!c.contains("hydride_f0_v17") && !c.contains("hydride_f1_v"));
    }
}
