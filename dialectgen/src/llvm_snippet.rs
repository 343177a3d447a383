//! Clang's LLVM IR for one intrinsic as an MLIR LLVM-dialect function: what
//! an instruction that clang lowers to generic IR (`add`, `zext`,
//! `shufflevector`, …) becomes. `mlir-translate --import-llvm` reads clang's
//! module; each function whose body is one block of pure operations is
//! written back as a small self-contained `llvm.func` (no attributes), which
//! the x86 lowering pass inlines at each op.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A function imported from clang's IR, in a form `Module::parse` reads.
#[derive(Clone, Debug, PartialEq)]
pub struct Snippet {
    /// MLIR types of the parameters (`vector<4xi64>`, `i32`).
    pub params: Vec<String>,
    pub result: String,
    /// `llvm.func @snippet(%arg0: …) -> … { … llvm.return … }`.
    pub text: String,
}

/// Operations a snippet may not hold: memory, calls of functions (not of
/// intrinsics), inline assembly, globals, control flow.
const IMPURE: [&str; 8] = [
    "llvm.load",
    "llvm.store",
    "llvm.alloca",
    "llvm.call @",
    "llvm.inline_asm",
    "llvm.mlir.addressof",
    "llvm.br",
    "llvm.cond_br",
];

/// `mlir-translate` of the same LLVM release as `compiler` (`clang-22` →
/// `mlir-translate-22`, `/usr/lib/llvm-22/bin/clang` → the `mlir-translate`
/// beside it).
pub fn mlir_translate_for(compiler: &Path) -> PathBuf {
    let name = compiler.file_name().and_then(|n| n.to_str()).unwrap_or("clang");
    let tool = match name.strip_prefix("clang-") {
        Some(version) => format!("mlir-translate-{version}"),
        None => "mlir-translate".to_string(),
    };
    match compiler.parent().filter(|p| !p.as_os_str().is_empty()) {
        Some(dir) => dir.join(tool),
        None => PathBuf::from(tool),
    }
}

/// Imports the LLVM IR file `ll` with `mlir-translate --import-llvm`.
pub fn import(translate: &Path, ll: &Path) -> std::io::Result<String> {
    let out = Command::new(translate).arg("--import-llvm").arg(ll).output()?;
    if !out.status.success() {
        return Err(std::io::Error::other(format!(
            "{} --import-llvm {} failed: {}",
            translate.display(),
            ll.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Every pure single-block function of an imported module, by name.
pub fn snippets(module: &str) -> BTreeMap<String, Snippet> {
    let mut out = BTreeMap::new();
    let mut lines = module.lines();
    while let Some(line) = lines.next() {
        let t = line.trim_start();
        if !t.starts_with("llvm.func ") || !t.ends_with('{') {
            continue;
        }
        let mut body = Vec::new();
        for l in lines.by_ref() {
            if l.trim() == "}" {
                break;
            }
            body.push(l.trim().to_string());
        }
        let Some((name, params, result)) = header(t) else { continue };
        let pure = body.iter().all(|l| !l.starts_with('^') && !IMPURE.iter().any(|i| l.contains(i)));
        if !pure || !body.last().is_some_and(|l| l.starts_with("llvm.return ")) {
            continue;
        }
        let args: Vec<String> = params.iter().enumerate().map(|(i, p)| format!("%arg{i}: {p}")).collect();
        let mut text = format!("llvm.func @snippet({}) -> {result} {{\n", args.join(", "));
        for l in &body {
            text.push_str("  ");
            text.push_str(l);
            text.push('\n');
        }
        text.push('}');
        out.insert(name, Snippet { params, result, text });
    }
    out
}

/// Name, parameter types and result type of an `llvm.func` header line
/// (`llvm.func local_unnamed_addr @f(%arg0: T {llvm.noundef}, …) -> (R {…}) attributes {…} {`).
fn header(line: &str) -> Option<(String, Vec<String>, String)> {
    let at = line.find('@')?;
    let open = at + line[at..].find('(')?;
    let name = line[at + 1..open].to_string();
    // The parameter list ends at the parenthesis that closes `(`.
    let mut depth = 0usize;
    let mut close = None;
    for (i, c) in line[open..].char_indices() {
        match c {
            '(' | '<' | '{' | '[' => depth += 1,
            ')' | '>' | '}' | ']' => {
                depth = depth.saturating_sub(1);
                if depth == 0 && c == ')' {
                    close = Some(open + i);
                    break;
                }
            }
            _ => {}
        }
    }
    let close = close?;
    let params: Vec<String> = line[open + 1..close]
        .split("%arg")
        .skip(1)
        .map(|p| {
            let ty = p.split_once(": ").map(|(_, t)| t).unwrap_or("");
            ty.split(" {").next().unwrap_or("").trim_end_matches([',', ' ']).to_string()
        })
        .collect();
    let rest = line[close + 1..].trim_start().strip_prefix("-> ")?;
    let rest = rest.strip_prefix('(').unwrap_or(rest);
    let result = rest.split([' ', ')']).next()?.to_string();
    let plain = |t: &String| t.starts_with("vector<") || t.starts_with('i');
    (params.iter().all(plain) && plain(&result)).then_some((name, params, result))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pure_functions_become_snippets() {
        let module = "module {\n  llvm.func local_unnamed_addr @f0(%arg0: vector<4xi64> {llvm.noundef}, %arg1: vector<4xi64> {llvm.noundef}) -> (vector<4xi64> {llvm.noundef}) attributes {dso_local, passthrough = [[\"target-cpu\", \"znver4\"]]} {\n    %0 = llvm.bitcast %arg0 : vector<4xi64> to vector<8xi32>\n    %1 = llvm.bitcast %arg1 : vector<4xi64> to vector<8xi32>\n    %2 = llvm.add %1, %0 : vector<8xi32>\n    %3 = llvm.bitcast %2 : vector<8xi32> to vector<4xi64>\n    llvm.return %3 : vector<4xi64>\n  }\n  llvm.func @f1(%arg0: !llvm.ptr) -> i32 {\n    %0 = llvm.load %arg0 : !llvm.ptr -> i32\n    llvm.return %0 : i32\n  }\n  llvm.func @f2(%arg0: vector<2xi64>) -> vector<4xi64> attributes {no_unwind} {\n    %0 = llvm.bitcast %arg0 : vector<2xi64> to vector<16xi8>\n    %1 = llvm.zext %0 : vector<16xi8> to vector<16xi16>\n    %2 = llvm.bitcast %1 : vector<16xi16> to vector<4xi64>\n    llvm.return %2 : vector<4xi64>\n  }\n}\n";
        let s = snippets(module);
        assert_eq!(s.keys().collect::<Vec<_>>(), ["f0", "f2"]);
        assert_eq!(s["f0"].params, ["vector<4xi64>", "vector<4xi64>"]);
        assert_eq!(s["f0"].result, "vector<4xi64>");
        assert!(s["f0"]
            .text
            .starts_with("llvm.func @snippet(%arg0: vector<4xi64>, %arg1: vector<4xi64>) -> vector<4xi64> {\n"));
        assert!(s["f0"].text.contains("  %2 = llvm.add %1, %0 : vector<8xi32>\n"));
        assert_eq!(s["f2"].params, ["vector<2xi64>"]);
        assert_eq!(s["f2"].result, "vector<4xi64>");
    }

    #[test]
    fn translate_is_the_compilers_release() {
        assert_eq!(mlir_translate_for(Path::new("clang-22")), PathBuf::from("mlir-translate-22"));
        assert_eq!(
            mlir_translate_for(Path::new("/usr/lib/llvm-22/bin/clang")),
            PathBuf::from("/usr/lib/llvm-22/bin/mlir-translate")
        );
    }
}
