//! The generic LLVM operations priced per CPU: the lane-wise integer ops,
//! comparisons, selects and extensions hydride's regions hold, at every
//! vector type of 64 to 512 bits (wider values split as LLVM splits them,
//! into pieces of these), each as one function compiled by llc for the CPU.

use super::error::CostError;
use super::mca::Tools;
use super::set::CpuSet;
use super::shuffles::Pattern;
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

/// Binary lane-wise operations on two vectors of one type (LLVM's
/// instruction names; `smax` … are `llvm.smax.*` and their kin).
pub const BINARY: &[&str] =
    &["add", "sub", "mul", "and", "or", "xor", "shl", "lshr", "ashr", "smax", "smin", "umax", "umin"];

/// Operations by a splat constant (the shifts by a constant, masks,
/// products, quotients and remainders by a constant, which LLVM computes
/// with products).
pub const BY_CONSTANT: &[&str] = &["shl", "lshr", "ashr", "and", "mul", "add", "udiv", "sdiv", "urem", "srem"];

/// Comparisons (their predicate), whose result is a vector of `i1`.
pub const COMPARISONS: &[&str] = &["eq", "sgt", "ugt"];

const ELEMENTS: [u32; 4] = [8, 16, 32, 64];
const VECTOR_BITS: [u32; 4] = [64, 128, 256, 512];

/// `<lanes> x i<bits>` as a key's type: `v16i8`.
pub fn ty(lanes: u32, bits: u32) -> String {
    format!("v{lanes}i{bits}")
}

/// The key of an operation on one type: `add v16i8`, `lshr_const v8i16`,
/// `icmp_sgt v4i32`, `select v16i8`; of a conversion: `zext v16i8 v16i16`.
pub fn key(op: &str, lanes: u32, bits: u32) -> String {
    format!("{op} {}", ty(lanes, bits))
}

pub fn conversion_key(op: &str, lanes: u32, from_bits: u32, to_bits: u32) -> String {
    format!("{op} {} {}", ty(lanes, from_bits), ty(lanes, to_bits))
}

/// The key of a shuffle of vectors of `lanes` x `i<bits>` by `pattern`:
/// `shuffle_even v32i8`.
pub fn shuffle_key(pattern: Pattern, lanes: u32, bits: u32) -> String {
    key(&format!("shuffle_{}", pattern.name()), lanes, bits)
}

/// The key of a dot product of `a` extended by `ea` and `b` by `eb`
/// (`zext`, `sext`), `lanes` x `i<from>` each, summed in groups into
/// `groups` x `i<to>`: `dot_zext_sext v64i8 v16i32`.
pub fn dot_key((ea, eb): (&str, &str), (lanes, from): (u32, u32), (groups, to): (u32, u32)) -> String {
    format!("dot_{ea}_{eb} {} {}", ty(lanes, from), ty(groups, to))
}

/// The module's assembly for the CPU, and the key of each function `hydride_g{k}`.
pub struct GenericAsm {
    pub asm: String,
    pub keys: Vec<String>,
}

/// Every (key, LLVM function body) priced, functions numbered in order.
fn functions() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for bits in ELEMENTS {
        for vector in VECTOR_BITS {
            if vector < bits * 2 {
                continue;
            }
            let lanes = vector / bits;
            let (t, s, m) = (format!("<{lanes} x i{bits}>"), ty(lanes, bits), format!("<{lanes} x i1>"));
            for op in BINARY {
                let body = if op.starts_with('s') && op.len() == 4 || op.starts_with("um") {
                    format!("%r = call {t} @llvm.{op}.{s}({t} %a, {t} %b)\n  ret {t} %r")
                } else {
                    format!("%r = {op} {t} %a, %b\n  ret {t} %r")
                };
                out.push((key(op, lanes, bits), format!("{t} @F({t} %a, {t} %b) {{\n  {body}\n}}")));
            }
            for op in BY_CONSTANT {
                let c = match *op {
                    "and" => (1u64 << (bits / 2)) - 1,
                    "mul" | "udiv" | "sdiv" | "urem" | "srem" => 3,
                    _ => (bits / 2) as u64,
                };
                out.push((
                    key(&format!("{op}_const"), lanes, bits),
                    format!("{t} @F({t} %a) {{\n  %r = {op} {t} %a, splat (i{bits} {c})\n  ret {t} %r\n}}"),
                ));
            }
            for p in COMPARISONS {
                out.push((
                    key(&format!("icmp_{p}"), lanes, bits),
                    format!("{m} @F({t} %a, {t} %b) {{\n  %r = icmp {p} {t} %a, %b\n  ret {m} %r\n}}"),
                ));
            }
            deinterleaves(&mut out, lanes, bits);
            shuffles(&mut out, lanes, bits);
            memory_accesses(&mut out, lanes, bits);
            sums_of_groups(&mut out, lanes, bits);
            out.push((
                key("select", lanes, bits),
                format!("{t} @F({m} %c, {t} %a, {t} %b) {{\n  %r = select {m} %c, {t} %a, {t} %b\n  ret {t} %r\n}}"),
            ));
            conversions(&mut out, lanes, bits);
        }
    }
    out
}

/// Extensions and truncations by 2 and 4 (of what is loaded, into what
/// is stored), and the products and dot products of extended lanes.
fn conversions(out: &mut Vec<(String, String)>, lanes: u32, bits: u32) {
    let t = format!("<{lanes} x i{bits}>");
    for ratio in [2, 4] {
        let wide = bits * ratio;
        if wide > 64 || lanes * wide > 2 * 512 {
            continue;
        }
        let w = format!("<{lanes} x i{wide}>");
        for op in ["zext", "sext"] {
            out.push((
                conversion_key(op, lanes, bits, wide),
                format!("{w} @F({t} %a) {{\n  %r = {op} {t} %a to {w}\n  ret {w} %r\n}}"),
            ));
            // Extending what is loaded: LLVM folds the load into the extension.
            out.push((
                conversion_key(&format!("{op}_load"), lanes, bits, wide),
                format!("{w} @F(ptr %p) {{\n  %a = load {t}, ptr %p\n  %r = {op} {t} %a to {w}\n  ret {w} %r\n}}"),
            ));
        }
        if wide <= 32 {
            extended_products(out, (lanes, bits, wide), (&t, &w));
            dot_products(out, (lanes, bits, wide), ratio);
        }
        out.push((
            conversion_key("trunc", lanes, wide, bits),
            format!("{t} @F({w} %a) {{\n  %r = trunc {w} %a to {t}\n  ret {t} %r\n}}"),
        ));
        // Truncating what is stored: LLVM folds the store into the truncation.
        out.push((
            conversion_key("trunc_store", lanes, wide, bits),
            format!("void @F(ptr %p, {w} %a) {{\n  %r = trunc {w} %a to {t}\n  store {t} %r, ptr %p\n  ret void\n}}"),
        ));
    }
}

/// A vector's even and odd elements (`vector.deinterleave`), of a value in
/// a register and loaded (where LLVM may fold the two, as `ld2`). Keys
/// `deinterleave v64i8`, `deinterleave_load v64i8`.
fn deinterleaves(out: &mut Vec<(String, String)>, lanes: u32, bits: u32) {
    let (t, h) = (format!("<{lanes} x i{bits}>"), format!("<{} x i{bits}>", lanes / 2));
    let mask = |first: u32| {
        let picks: Vec<String> = (0..lanes / 2).map(|i| format!("i32 {}", 2 * i + first)).collect();
        format!("<{}>", picks.join(", "))
    };
    let pair = format!("{{{h}, {h}}}");
    let tail = format!(
        "%e = shufflevector {t} %a, {t} poison, <{n} x i32> {even}\n  \
         %o = shufflevector {t} %a, {t} poison, <{n} x i32> {odd}\n  \
         %r0 = insertvalue {pair} poison, {h} %e, 0\n  %r = insertvalue {pair} %r0, {h} %o, 1\n  ret {pair} %r",
        n = lanes / 2,
        even = mask(0),
        odd = mask(1),
    );
    out.push((key("deinterleave", lanes, bits), format!("{pair} @F({t} %a) {{\n  {tail}\n}}")));
    out.push((
        key("deinterleave_load", lanes, bits),
        format!("{pair} @F(ptr %p) {{\n  %a = load {t}, ptr %p\n  {tail}\n}}"),
    ));
}

/// Each priced shuffle pattern (`super::shuffles::Pattern`) of vectors
/// of `lanes` x `i<bits>`: keys `shuffle_even v32i8`, `shuffle_column1of2 v16i32`.
fn shuffles(out: &mut Vec<(String, String)>, lanes: u32, bits: u32) {
    let t = format!("<{lanes} x i{bits}>");
    for p in Pattern::all(lanes, bits) {
        let mask = p.mask(lanes, bits);
        let r = format!("<{} x i{bits}>", mask.len());
        let picks: Vec<String> = mask.iter().map(|k| format!("i32 {k}")).collect();
        let (params, second) =
            if p.operands() == 1 { (format!("{t} %a"), "poison") } else { (format!("{t} %a, {t} %b"), "%b") };
        out.push((
            shuffle_key(p, lanes, bits),
            format!(
                "{r} @F({params}) {{\n  %r = shufflevector {t} %a, {t} {second}, <{} x i32> <{}>\n  ret {r} %r\n}}",
                mask.len(),
                picks.join(", ")
            ),
        ));
    }
}

/// A plain load and store of one vector (`load v16i8`, `store v16i8`):
/// the memory a form reads or writes beyond another's, priced with the
/// resources of its access (see `mca::is_memory_access`).
fn memory_accesses(out: &mut Vec<(String, String)>, lanes: u32, bits: u32) {
    let t = format!("<{lanes} x i{bits}>");
    out.push((key("load", lanes, bits), format!("{t} @F(ptr %p) {{\n  %r = load {t}, ptr %p\n  ret {t} %r\n}}")));
    out.push((
        key("store", lanes, bits),
        format!("void @F(ptr %p, {t} %a) {{\n  store {t} %a, ptr %p\n  ret void\n}}"),
    ));
}

/// The sum of each group of `k` adjacent lanes, added to an accumulator
/// (`vector.multi_reduction <add>` over the inner dimension of a
/// `lanes/k x k` vector, as MLIR lowers it: the `k` strided picks of a
/// transpose, added): keys `sum_groups4 v16i32`, by the vector summed.
fn sums_of_groups(out: &mut Vec<(String, String)>, lanes: u32, bits: u32) {
    for k in [2u32, 4] {
        if lanes < 2 * k {
            continue;
        }
        let (t, g) = (format!("<{lanes} x i{bits}>"), format!("<{} x i{bits}>", lanes / k));
        let body = strided_sum(&t, &g, lanes, k, "%a");
        out.push((
            key(&format!("sum_groups{k}"), lanes, bits),
            format!("{g} @F({t} %a, {g} %acc) {{\n  {body}\n  ret {g} %r\n}}"),
        ));
    }
}

/// `%r = %acc + the sum of the k strided picks of `v``, as lines of IR.
fn strided_sum(t: &str, g: &str, lanes: u32, k: u32, v: &str) -> String {
    let mut lines = Vec::new();
    let mut sum = "%acc".to_string();
    for r in 0..k {
        let picks: Vec<String> = (0..lanes / k).map(|i| format!("i32 {}", i * k + r)).collect();
        lines.push(format!("%s{r} = shufflevector {t} {v}, {t} poison, <{} x i32> <{}>", lanes / k, picks.join(", ")));
        let next = if r + 1 == k { "%r".to_string() } else { format!("%t{r}") };
        lines.push(format!("{next} = add {g} {sum}, %s{r}"));
        sum = next;
    }
    lines.join("\n  ")
}

/// Dot products of extended lanes in groups of `ratio`, into an
/// accumulator: `multi_reduction <add>` of `ext(a) * ext(b)` grouped, which
/// LLVM selects as one unit where it can (`vpmaddwd` for pairs of signed
/// 16-bit lanes). Keys `dot_sext_sext v32i16 v16i32`, `dot_zext_sext
/// v64i8 v16i32`, by the vectors multiplied and the sums.
fn dot_products(out: &mut Vec<(String, String)>, (lanes, bits, wide): (u32, u32, u32), ratio: u32) {
    let (t, w) = (format!("<{lanes} x i{bits}>"), format!("<{lanes} x i{wide}>"));
    let g = format!("<{} x i{wide}>", lanes / ratio);
    if lanes / ratio < 2 {
        return;
    }
    for (ea, eb) in [("zext", "zext"), ("zext", "sext"), ("sext", "sext")] {
        let sum = strided_sum(&w, &g, lanes, ratio, "%p");
        out.push((
            dot_key((ea, eb), (lanes, bits), (lanes / ratio, wide)),
            format!(
                "{g} @F({t} %a, {t} %b, {g} %acc) {{\n  %x = {ea} {t} %a to {w}\n  %y = {eb} {t} %b to {w}\n  \
                 %p = mul {w} %x, %y\n  {sum}\n  ret {g} %r\n}}"
            ),
        ));
    }
}

/// The weight [`extended_products`] multiply by: no shift-and-add pair,
/// as a stencil's weights mostly are not.
pub const PRODUCT_WEIGHT: u32 = 85;

/// Products of extended lanes by a constant, `ext(x) * c` (the terms of a
/// sum of weighted taps), of `x` in a register and loaded: LLVM selects
/// the two as one unit, knowing the wide lanes' high bits (a 16-bit
/// multiply-add, `vpmaddwd`, where the product fits; a widening multiply,
/// `umull`), which the ops priced one by one miss. Keys `zext_mul v16i8
/// v16i32`, `sext_load_mul …`. The sum they go to is priced apart: LLVM
/// fuses a product into its add (`vpdpwssd`) only where the chain of adds
/// is short, and splits the fused form again where it lengthens the
/// chain's latency.
fn extended_products(out: &mut Vec<(String, String)>, (lanes, bits, wide): (u32, u32, u32), (t, w): (&str, &str)) {
    let c = PRODUCT_WEIGHT;
    for op in ["zext", "sext"] {
        let tail = format!("%e = {op} {t} %a to {w}\n  %r = mul {w} %e, splat (i{wide} {c})\n  ret {w} %r");
        out.push((conversion_key(&format!("{op}_mul"), lanes, bits, wide), format!("{w} @F({t} %a) {{\n  {tail}\n}}")));
        out.push((
            conversion_key(&format!("{op}_load_mul"), lanes, bits, wide),
            format!("{w} @F(ptr %p) {{\n  %a = load {t}, ptr %p\n  {tail}\n}}"),
        ));
    }
}

/// The generic operations' module for llc: each function `hydride_g{k}`.
pub fn module() -> (String, Vec<String>) {
    let mut ir = String::new();
    let mut keys = Vec::new();
    let mut declared = std::collections::BTreeSet::new();
    for (k, (key, function)) in functions().into_iter().enumerate() {
        for call in function.split("@llvm.").skip(1) {
            let name = call.split('(').next().unwrap_or("");
            if declared.insert(name.to_string()) {
                let t = function.split(" @F(").next().unwrap_or("");
                let _ = writeln!(ir, "declare {t} @llvm.{name}({t}, {t})");
            }
        }
        let _ = writeln!(ir, "define {}", function.replacen("@F(", &format!("@hydride_g{k}("), 1));
        keys.push(key);
    }
    (ir, keys)
}

/// The generic operations compiled by llc for `cpu` with `mattr` (files named by `stem`).
pub fn compile(
    tools: &Tools,
    set: &CpuSet,
    cpu: &str,
    mattr: &str,
    stem: &str,
    dir: &Path,
) -> Result<GenericAsm, CostError> {
    let (ir, keys) = module();
    let ll = dir.join(format!("{stem}-generic.ll"));
    let out_path = dir.join(format!("{stem}-generic-llc.s"));
    std::fs::write(&ll, ir).map_err(|source| CostError::Write { path: ll.clone(), source })?;
    let mut cmd = Command::new(&tools.llc);
    cmd.args(["-O2", &format!("-mtriple={}", set.triple), &format!("-mcpu={cpu}")]);
    if !mattr.is_empty() {
        cmd.arg(format!("-mattr={mattr}"));
    }
    let out = cmd
        .arg("-o")
        .arg(&out_path)
        .arg(&ll)
        .output()
        .map_err(|source| CostError::Spawn { tool: tools.llc.display().to_string(), source })?;
    if !out.status.success() {
        return Err(CostError::failed(&tools.llc, cpu, &out.stderr));
    }
    let asm =
        std::fs::read_to_string(&out_path).map_err(|source| CostError::Write { path: out_path.clone(), source })?;
    Ok(GenericAsm { asm, keys })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_module_names_each_function_by_its_key_once() {
        let (ir, keys) = module();
        let unique: std::collections::BTreeSet<&String> = keys.iter().collect();
        assert_eq!(unique.len(), keys.len());
        assert!(keys.contains(&"zext v32i8 v32i16".to_string()));
        assert!(keys.contains(&"trunc v32i16 v32i8".to_string()));
        assert!(keys.contains(&"lshr_const v16i16".to_string()));
        assert!(keys.contains(&"zext_load_mul v16i8 v16i32".to_string()));
        assert!(keys.contains(&"deinterleave_load v64i8".to_string()));
        assert!(ir.contains("shufflevector <64 x i8> %a, <64 x i8> poison, <32 x i32> <i32 1, i32 3,"));
        assert!(!keys.iter().any(|k| k.starts_with("zext_mul") && k.ends_with("i64")));
        assert!(ir.contains("declare <16 x i8> @llvm.smax.v16i8(<16 x i8>, <16 x i8>)"));
        assert_eq!(ir.matches("define ").count(), keys.len());
    }
}
