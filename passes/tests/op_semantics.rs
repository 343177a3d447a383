//! The synthesizer's semantics of each arith/vector op against what MLIR's
//! own LLVM lowering computes on this CPU: every case is compiled with stock
//! mlir-opt, mlir-translate and clang-22, run natively on random and edge
//! inputs, and compared with `hydride::synth::semantics` evaluated on the
//! same inputs. Inputs where the op is undefined (division by zero, shifts
//! by the width or more) are not run. Values cross the C boundary through
//! memory, never by value: how C and LLVM pass a vector by value depends on
//! the registers the CPU has (a 512-bit vector goes in memory for C and in
//! two ymm registers for LLVM on a machine without AVX-512). The harness is
//! built for this host's features (`Host::clang_flags`).

use dialectgen::eval::Concrete;
mod common;

use hydride::synth::block::{BlockOp, Dataflow};
use hydride::synth::screen::eval_window;
use hydride::synth::types::Ty;
use num_bigint::BigUint;
use std::fmt::Write as _;
use std::process::Command;

const BIN: &str = "/usr/lib/llvm-22/bin";

/// One op applied to function arguments: MLIR text of the op line (with
/// `%a`, `%b`, `%c` the arguments and `%r` the result), the attributes as
/// the shim prints them, argument and result types.
struct Case {
    mlir: String,
    name: &'static str,
    attrs: Vec<String>,
    args: Vec<&'static str>,
    result: &'static str,
}

fn case(name: &'static str, mlir: String, attrs: &[&str], args: &[&'static str], result: &'static str) -> Case {
    Case { mlir, name, attrs: attrs.iter().map(|s| s.to_string()).collect(), args: args.to_vec(), result }
}

fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    let ints = ["vector<16xi8>", "vector<8xi16>", "vector<4xi32>", "vector<2xi64>"];
    for ty in ints {
        for op in [
            "addi", "subi", "muli", "andi", "ori", "xori", "shli", "shrsi", "shrui", "divsi", "divui", "remsi",
            "remui", "maxsi", "minsi", "maxui", "minui",
        ] {
            let name: &'static str = Box::leak(format!("arith.{op}").into_boxed_str());
            out.push(case(name, format!("%r = arith.{op} %a, %b : {ty}"), &[], &[ty, ty], ty));
        }
    }
    for op in ["ceildivsi", "floordivsi"] {
        let name: &'static str = Box::leak(format!("arith.{op}").into_boxed_str());
        out.push(case(
            name,
            format!("%r = arith.{op} %a, %b : vector<8xi16>"),
            &[],
            &["vector<8xi16>", "vector<8xi16>"],
            "vector<8xi16>",
        ));
    }
    let preds = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"];
    for (p, pred) in preds.iter().enumerate() {
        let attr: &'static str = Box::leak(format!("predicate={p} : i64").into_boxed_str());
        out.push(case(
            "arith.cmpi",
            format!("%r = arith.cmpi {pred}, %a, %b : vector<8xi16>"),
            &[attr],
            &["vector<8xi16>", "vector<8xi16>"],
            "vector<8xi1>",
        ));
    }
    out.push(case(
        "arith.select",
        "%r = arith.select %a, %b, %c : vector<8xi1>, vector<8xi16>".into(),
        &[],
        &["vector<8xi1>", "vector<8xi16>", "vector<8xi16>"],
        "vector<8xi16>",
    ));
    out.push(case(
        "arith.extsi",
        "%r = arith.extsi %a : vector<8xi16> to vector<8xi32>".into(),
        &[],
        &["vector<8xi16>"],
        "vector<8xi32>",
    ));
    out.push(case(
        "arith.extui",
        "%r = arith.extui %a : vector<16xi8> to vector<16xi16>".into(),
        &[],
        &["vector<16xi8>"],
        "vector<16xi16>",
    ));
    out.push(case(
        "arith.trunci",
        "%r = arith.trunci %a : vector<8xi32> to vector<8xi16>".into(),
        &[],
        &["vector<8xi32>"],
        "vector<8xi16>",
    ));
    out.push(case(
        "vector.broadcast",
        "%r = vector.broadcast %a : i32 to vector<4xi32>".into(),
        &[],
        &["i32"],
        "vector<4xi32>",
    ));
    out.push(case(
        "vector.bitcast",
        "%r = vector.bitcast %a : vector<8xi16> to vector<16xi8>".into(),
        &[],
        &["vector<8xi16>"],
        "vector<16xi8>",
    ));
    out.push(case(
        "vector.shuffle",
        "%r = vector.shuffle %a, %b [0, 9, 2, 11, 7, 7, 15, 1] : vector<8xi16>, vector<8xi16>".into(),
        &["mask=array<i64: 0, 9, 2, 11, 7, 7, 15, 1>"],
        &["vector<8xi16>", "vector<8xi16>"],
        "vector<8xi16>",
    ));
    out.push(case(
        "vector.interleave",
        "%r = vector.interleave %a, %b : vector<8xi8> -> vector<16xi8>".into(),
        &[],
        &["vector<8xi8>", "vector<8xi8>"],
        "vector<16xi8>",
    ));
    out.push(case(
        "vector.reduction",
        "%r = vector.reduction <add>, %a : vector<8xi16> into i16".into(),
        &["kind=#vector.kind<add>"],
        &["vector<8xi16>"],
        "i16",
    ));
    // vector.contract over maps whose results are dimensions: a matmul, the
    // packed form with the RHS transposed on extended i8, a row-wise dot product.
    let matmul = "[affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]";
    let packed = "[affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]";
    let mnk = r#"["parallel", "parallel", "reduction"]"#;
    out.push(case(
        "vector.contract",
        format!("%l = vector.shape_cast %a : vector<8xi32> to vector<2x4xi32>\n  %m = vector.shape_cast %b : vector<8xi32> to vector<4x2xi32>\n  %n = vector.shape_cast %c : vector<4xi32> to vector<2x2xi32>\n  %k = vector.contract {{indexing_maps = {matmul}, iterator_types = {mnk}, kind = #vector.kind<add>}} %l, %m, %n : vector<2x4xi32>, vector<4x2xi32> into vector<2x2xi32>\n  %r = vector.shape_cast %k : vector<2x2xi32> to vector<4xi32>"),
        &["indexing_maps=", "kind=#vector.kind<add>"],
        &["vector<8xi32>", "vector<8xi32>", "vector<4xi32>"],
        "vector<4xi32>",
    ));
    out.push(case(
        "vector.contract",
        format!("%l = vector.shape_cast %a : vector<16xi8> to vector<2x8xi8>\n  %m = vector.shape_cast %b : vector<16xi8> to vector<2x8xi8>\n  %n = vector.shape_cast %c : vector<4xi32> to vector<2x2xi32>\n  %le = arith.extui %l : vector<2x8xi8> to vector<2x8xi32>\n  %me = arith.extsi %m : vector<2x8xi8> to vector<2x8xi32>\n  %k = vector.contract {{indexing_maps = {packed}, iterator_types = {mnk}, kind = #vector.kind<add>}} %le, %me, %n : vector<2x8xi32>, vector<2x8xi32> into vector<2x2xi32>\n  %r = vector.shape_cast %k : vector<2x2xi32> to vector<4xi32>"),
        &["indexing_maps=", "kind=#vector.kind<add>"],
        &["vector<16xi8>", "vector<16xi8>", "vector<4xi32>"],
        "vector<4xi32>",
    ));
    out.push(case(
        "vector.contract",
        "%l = vector.shape_cast %a : vector<8xi16> to vector<4x2xi16>\n  %m = vector.shape_cast %b : vector<8xi16> to vector<4x2xi16>\n  %le = arith.extsi %l : vector<4x2xi16> to vector<4x2xi32>\n  %me = arith.extsi %m : vector<4x2xi16> to vector<4x2xi32>\n  %r = vector.contract {indexing_maps = [affine_map<(m, k) -> (m, k)>, affine_map<(m, k) -> (m, k)>, affine_map<(m, k) -> (m)>], iterator_types = [\"parallel\", \"reduction\"], kind = #vector.kind<add>} %le, %me, %c : vector<4x2xi32>, vector<4x2xi32> into vector<4xi32>".into(),
        &["indexing_maps=", "kind=#vector.kind<add>"],
        &["vector<8xi16>", "vector<8xi16>", "vector<4xi32>"],
        "vector<4xi32>",
    ));
    for kind in ["add", "mul", "and", "or", "xor", "maxsi", "minui"] {
        let attr: &'static str = Box::leak(format!("kind=#vector.kind<{kind}>").into_boxed_str());
        out.push(case(
            "vector.multi_reduction",
            format!("%s = vector.shape_cast %a : vector<16xi32> to vector<4x4xi32>\n  %r = vector.multi_reduction <{kind}>, %s, %b [1] : vector<4x4xi32> to vector<4xi32>"),
            &[attr, "reduction_dims=array<i64: 1>"],
            &["vector<16xi32>", "vector<4xi32>"],
            "vector<4xi32>",
        ));
    }
    out.push(case(
        "vector.extract_strided_slice",
        "%r = vector.extract_strided_slice %a {offsets = [4], sizes = [8], strides = [1]} : vector<16xi8> to vector<8xi8>".into(),
        &["offsets=[4 : i64]", "sizes=[8 : i64]", "strides=[1 : i64]"],
        &["vector<16xi8>"],
        "vector<8xi8>",
    ));
    out.push(case(
        "vector.insert_strided_slice",
        "%r = vector.insert_strided_slice %a, %b {offsets = [4], strides = [1]} : vector<8xi8> into vector<16xi8>"
            .into(),
        &["offsets=[4 : i64]", "strides=[1 : i64]"],
        &["vector<8xi8>", "vector<16xi8>"],
        "vector<16xi8>",
    ));
    // Multi-result ops: `%r` names the result checked.
    for ty in ints {
        for op in ["mulsi_extended", "mului_extended"] {
            let name: &'static str = Box::leak(format!("arith.{op}").into_boxed_str());
            out.push(case(name, format!("%r, %unused = arith.{op} %a, %b : {ty}"), &[], &[ty, ty], ty));
            out.push(case(name, format!("%unused, %r = arith.{op} %a, %b : {ty}"), &[], &[ty, ty], ty));
        }
    }
    for (ty, half) in
        [("vector<16xi8>", "vector<8xi8>"), ("vector<16xi16>", "vector<8xi16>"), ("vector<8xi32>", "vector<4xi32>")]
    {
        for pick in ["%r, %unused", "%unused, %r"] {
            out.push(case(
                "vector.deinterleave",
                format!("{pick} = vector.deinterleave %a : {ty} -> {half}"),
                &[],
                &[ty],
                half,
            ));
        }
    }
    out.push(case(
        "vector.extract",
        "%r = vector.extract %a[5] : i32 from vector<8xi32>".into(),
        &["static_position=array<i64: 5>"],
        &["vector<8xi32>"],
        "i32",
    ));
    out.push(case(
        "vector.insert",
        "%r = vector.insert %a, %b[2] : i32 into vector<8xi32>".into(),
        &["static_position=array<i64: 2>"],
        &["i32", "vector<8xi32>"],
        "vector<8xi32>",
    ));
    out
}

/// The ops of a case's function as the passes read them (its `func.return`
/// dropped), after checking that each attribute the case names is read.
fn block(c: &Case, read: &[BlockOp]) -> Vec<BlockOp> {
    let mut ops = read.to_vec();
    assert_eq!(ops.pop().map(|o| o.name), Some("func.return".to_string()), "{}", c.mlir);
    assert!(ops.iter().any(|o| o.name == c.name), "{}: no {}", c.mlir, c.name);
    for a in &c.attrs {
        let name = a.split_once('=').map_or(a.as_str(), |(n, _)| n);
        assert!(ops.iter().any(|o| o.attribute(name).is_some()), "{}: attribute {name} not read", c.mlir);
    }
    ops
}

#[test]
fn op_semantics_agree_with_mlirs_lowering_on_this_cpu() {
    let cases = cases();
    let dir = tempfile::tempdir().unwrap();
    // The MLIR module: one function per case.
    let mut mlir = String::new();
    let mut c_src = String::from("#include <stdint.h>\n#include <stdio.h>\n#include <string.h>\n");
    for (k, c) in cases.iter().enumerate() {
        let params: Vec<String> = c.args.iter().zip(["a", "b", "c"]).map(|(t, n)| format!("%{n}: {t}")).collect();
        // A multi-result op's result checked is read by an identity shape_cast (the window's root).
        let body = if c.mlir.contains("%unused") {
            format!("{}\n  %s = vector.shape_cast %r : {} to {}\n  return %s", c.mlir, c.result, c.result)
        } else {
            format!("{}\n  return %r", c.mlir)
        };
        writeln!(mlir, "func.func @case{k}({}) -> {} {{\n  {body} : {}\n}}", params.join(", "), c.result, c.result)
            .unwrap();
    }
    // i1 vectors are awkward across the C ABI: widen them in MLIR wrappers.
    let mut wrappers = String::new();
    let widen = |t: &str| -> String {
        let ty = Ty::parse(t).unwrap();
        if ty.elem_bits == 1 {
            ty.with_elem(8).to_string()
        } else {
            t.to_string()
        }
    };
    for (k, c) in cases.iter().enumerate() {
        let names = ["a", "b", "c"];
        let mut params: Vec<String> = names[..c.args.len()].iter().map(|n| format!("%p{n}: !llvm.ptr")).collect();
        params.push("%pr: !llvm.ptr".into());
        let mut body = String::new();
        let mut call_args = Vec::new();
        for (t, n) in c.args.iter().zip(names) {
            writeln!(body, "  %{n} = llvm.load %p{n} {{alignment = 1 : i64}} : !llvm.ptr -> {}", widen(t)).unwrap();
            if widen(t) != *t {
                writeln!(body, "  %{n}1 = arith.trunci %{n} : {} to {t}", widen(t)).unwrap();
                call_args.push(format!("%{n}1"));
            } else {
                call_args.push(format!("%{n}"));
            }
        }
        writeln!(body, "  %r = func.call @case{k}({}) : ({}) -> {}", call_args.join(", "), c.args.join(", "), c.result)
            .unwrap();
        let ret = if widen(c.result) != c.result {
            writeln!(body, "  %w = arith.extui %r : {} to {}", c.result, widen(c.result)).unwrap();
            "%w"
        } else {
            "%r"
        };
        writeln!(body, "  llvm.store {ret}, %pr {{alignment = 1 : i64}} : {}, !llvm.ptr", widen(c.result)).unwrap();
        writeln!(wrappers, "func.func @wrap{k}({}) {{\n{body}  return\n}}", params.join(", ")).unwrap();
    }
    mlir.push_str(&wrappers);
    // The C harness: per line "case hex-args...", prints the result in hex.
    for (k, c) in cases.iter().enumerate() {
        let tys: Vec<Ty> = c.args.iter().map(|t| Ty::parse(&widen(t)).unwrap()).collect();
        let params = vec!["const void *"; tys.len()].join(", ");
        writeln!(c_src, "void wrap{k}({params}, void *);").unwrap();
        let mut off = 0;
        let mut pointers = Vec::new();
        for t in &tys {
            pointers.push(format!("in + {off}"));
            off += t.bits().div_ceil(8);
        }
        writeln!(
            c_src,
            "static void run{k}(unsigned char *in, unsigned char *out) {{ wrap{k}({}, out); }}",
            pointers.join(", ")
        )
        .unwrap();
    }
    c_src.push_str("int main(void) {\n  int k; char hex[4096];\n  while (scanf(\"%d %4095s\", &k, hex) == 2) {\n    unsigned char in[2048], out[256]; size_t n = strlen(hex) / 2;\n    for (size_t i = 0; i < n; ++i) sscanf(hex + 2 * i, \"%2hhx\", &in[i]);\n    switch (k) {\n");
    for (k, c) in cases.iter().enumerate() {
        let rt = Ty::parse(&widen(c.result)).unwrap();
        writeln!(c_src, "    case {k}: run{k}(in, out); for (int i = 0; i < {}; ++i) printf(\"%02x\", out[i]); printf(\"\\n\"); break;", rt.bits() / 8).unwrap();
    }
    c_src.push_str("    }\n  }\n  return 0;\n}\n");
    let mlir_path = dir.path().join("ops.mlir");
    std::fs::write(&mlir_path, &mlir).unwrap();
    std::fs::write(dir.path().join("harness.c"), &c_src).unwrap();
    let march = dialectgen::isa::x86::host::Host::get().clang_flags(None).join(" ");
    let sh = format!(
        "set -e; {BIN}/mlir-opt --lower-vector-multi-reduction --convert-vector-to-llvm --convert-arith-to-llvm --convert-ub-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts ops.mlir | {BIN}/mlir-translate --mlir-to-llvmir > ops.ll && clang-22 -O1 {march} -Wno-override-module harness.c ops.ll -o ops"
    );
    let built = Command::new("bash").arg("-c").arg(&sh).current_dir(dir.path()).output().unwrap();
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    // Inputs: random bytes and edge patterns, only where the op is defined.
    let mut state: u64 = 0x1234_5678_9abc_def1;
    let mut byte = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 32) as u8
    };
    let mut stdin = String::new();
    let mut expected = Vec::new();
    let read = common::function_blocks(&mlir);
    for (k, c) in cases.iter().enumerate() {
        let ops = block(c, &read[k]);
        let flow = Dataflow::new(&ops);
        let window = flow.close(ops.iter().map(|o| ops.iter().position(|p| p == o).unwrap()).collect(), ops.len() - 1);
        for round in 0..200 {
            let values: Vec<BigUint> = c
                .args
                .iter()
                .map(|t| {
                    let ty = Ty::parse(t).unwrap();
                    let bytes: Vec<u8> = (0..ty.bits().div_ceil(8))
                        .map(|i| match round % 5 {
                            4 => [0x00, 0xff, 0x7f, 0x80, 0x01][(byte() as usize + i as usize) % 5],
                            3 => byte() & 0x0f,
                            _ => byte(),
                        })
                        .collect();
                    BigUint::from_bytes_le(&bytes) & ((BigUint::from(1u8) << ty.bits()) - 1u8)
                })
                .collect();
            let Ok((v, defined)) = eval_window(&mut Concrete, &flow, &window, &values) else {
                panic!("{}: no semantics", c.mlir);
            };
            if defined.iter().any(|d| *d != BigUint::from(1u8)) {
                continue;
            }
            // A shift by the width or more is poison in its lane: LLVM may
            // compute anything there (AVX2 emulates byte shifts, and its
            // lanes differ from the bitvector shift's), so such inputs are
            // not compared.
            if c.name.starts_with("arith.sh") {
                let ty = Ty::parse(c.args[1]).unwrap();
                let mask = (BigUint::from(1u8) << ty.elem_bits) - 1u8;
                let over_wide = (0..ty.lanes())
                    .any(|i| ((&values[1] >> (i * ty.elem_bits)) & &mask) >= BigUint::from(ty.elem_bits));
                if over_wide {
                    continue;
                }
            }
            // Widened i1 values: one byte per lane.
            let to_hex = |x: &BigUint, t: &str| -> String {
                let ty = Ty::parse(t).unwrap();
                let bytes: Vec<u8> = if ty.elem_bits == 1 {
                    (0..ty.lanes()).map(|i| u8::from(x.bit(u64::from(i)))).collect()
                } else {
                    let mut b = x.to_bytes_le();
                    b.resize((ty.bits() / 8) as usize, 0);
                    b
                };
                bytes.iter().map(|b| format!("{b:02x}")).collect()
            };
            let input: String = values.iter().zip(&c.args).map(|(x, t)| to_hex(x, t)).collect();
            writeln!(stdin, "{k} {input}").unwrap();
            // An i1 result comes back as 0/1 bytes.
            expected.push((k, to_hex(&v.bits, c.result)));
        }
    }
    // Inputs from a file: a pipe both ways could fill up and stall.
    std::fs::write(dir.path().join("inputs.txt"), &stdin).unwrap();
    let out = Command::new(dir.path().join("ops"))
        .stdin(std::fs::File::open(dir.path().join("inputs.txt")).unwrap())
        .output()
        .unwrap();
    assert!(out.status.success(), "the harness failed: {:?}", out.status);
    let got: Vec<&str> = std::str::from_utf8(&out.stdout).unwrap().lines().collect();
    assert_eq!(got.len(), expected.len(), "every input ran");
    let mut mismatches = Vec::new();
    for ((k, want), got) in expected.iter().zip(&got) {
        if want != got {
            mismatches.push(format!("{}: expected {want}, LLVM computes {got}", cases[*k].mlir));
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} of {} differ, e.g. {:?}",
        mismatches.len(),
        expected.len(),
        &mismatches[..mismatches.len().min(5)]
    );
    eprintln!("{} ops, {} inputs, 0 mismatches", cases.len(), expected.len());
}
