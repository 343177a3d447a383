//! C test programs that call the real intrinsics.
//!
//! One program tests a batch of intrinsics. It reads records
//! `[u32 test][u32 imm][argument bytes]` from its input file and writes each
//! result with one `write` call, so after a crash the output length tells
//! which test was running.

use super::guide_types::CallSignature;
use std::fmt::Write as _;

/// A C function per intrinsic: unpack arguments, call, store the result.
pub fn c_program(tests: &[CallSignature]) -> String {
    let mut s = String::new();
    s.push_str("#include <immintrin.h>\n#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <unistd.h>\n\n");
    for (k, t) in tests.iter().enumerate() {
        test_function(&mut s, k, t);
    }
    tables(&mut s, tests);
    s.push_str(MAIN);
    s
}

/// Test `k`'s C function: `t`'s arguments unpacked from the input, the call
/// (one per immediate value where it takes one), the result stored.
fn test_function(s: &mut String, k: usize, t: &CallSignature) {
    let _ = writeln!(s, "/* {} */", t.name);
    let _ = writeln!(s, "static void t{k}(const uint8_t *in, uint8_t *out, unsigned imm) {{");
    let mut offset = 0;
    let mut call_args = Vec::new();
    for (i, a) in t.args.iter().enumerate() {
        if Some(i) == t.imm_index {
            call_args.push(None);
            continue;
        }
        let bytes = a.width / 8;
        let _ = writeln!(s, "  {} a{i}; memcpy(&a{i}, in + {offset}, {bytes});", a.c_type);
        offset += bytes;
        call_args.push(Some(format!("a{i}")));
    }
    let call = |imm: Option<u32>| -> String {
        let args: Vec<String> = call_args
            .iter()
            .enumerate()
            .map(|(i, a)| match a {
                Some(a) => a.clone(),
                None => format!("({}){}", t.args[i].c_type, imm.unwrap_or(0)),
            })
            .collect();
        format!("{}({})", t.name, args.join(", "))
    };
    let _ = writeln!(s, "  {} r;", t.ret_c_type);
    match t.imm_values.as_deref() {
        None => {
            let _ = writeln!(s, "  (void)imm;\n  r = {};", call(None));
        }
        Some(values) => {
            let _ = writeln!(s, "  switch (imm) {{");
            for v in values {
                let _ = writeln!(s, "  case {v}: r = {}; break;", call(Some(*v)));
            }
            let _ = writeln!(s, "  default: abort();\n  }}");
        }
    }
    let _ = writeln!(s, "  memcpy(out, &r, {});\n}}\n", t.ret_width / 8);
}

/// The tables `main` dispatches by: each test's function, input and output sizes.
fn tables(s: &mut String, tests: &[CallSignature]) {
    s.push_str("typedef void (*test_fn)(const uint8_t *, uint8_t *, unsigned);\n");
    let _ = writeln!(
        s,
        "static const test_fn TESTS[] = {{ {} }};",
        (0..tests.len()).map(|k| format!("t{k}")).collect::<Vec<_>>().join(", ")
    );
    let _ = writeln!(
        s,
        "static const unsigned IN_SIZE[] = {{ {} }};",
        tests.iter().map(|t| t.input_bytes().to_string()).collect::<Vec<_>>().join(", ")
    );
    let _ = writeln!(
        s,
        "static const unsigned OUT_SIZE[] = {{ {} }};",
        tests.iter().map(|t| (t.ret_width / 8).to_string()).collect::<Vec<_>>().join(", ")
    );
}

/// The program's `main`: reads `[u32 test][u32 imm][argument bytes]`
/// records from its first argument's file, runs each, writes each result to
/// its second's.
const MAIN: &str = r#"
int main(int argc, char **argv) {
  if (argc != 3) return 2;
  FILE *f = fopen(argv[1], "rb");
  if (!f) return 3;
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *buf = malloc(size > 0 ? size : 1);
  if (fread(buf, 1, size, f) != (size_t)size) return 4;
  fclose(f);
  FILE *o = fopen(argv[2], "wb");
  if (!o) return 5;
  int fd = fileno(o);
  long pos = 0;
  uint8_t out[64];
  while (pos < size) {
    uint32_t t, imm;
    memcpy(&t, buf + pos, 4);
    memcpy(&imm, buf + pos + 4, 4);
    pos += 8;
    memset(out, 0, sizeof out);
    TESTS[t](buf + pos, out, imm);
    pos += IN_SIZE[t];
    if (write(fd, out, OUT_SIZE[t]) != (ssize_t)OUT_SIZE[t]) return 6;
  }
  return 0;
}
"#;
