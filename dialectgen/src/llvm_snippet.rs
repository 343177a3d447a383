//! Clang's LLVM IR for one intrinsic as an MLIR LLVM-dialect function: what
//! an instruction that clang lowers to generic IR (`add`, `zext`,
//! `shufflevector`, …) becomes. `mlir-translate --import-llvm` reads clang's
//! module; each function whose body is one block of pure operations is
//! written back as a small self-contained `llvm.func` (no attributes), which
//! the lowering to LLVM inlines at each op.

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
    tool_beside(compiler, "mlir-translate")
}

/// `opt` of the same LLVM as `compiler`.
pub fn opt_for(compiler: &Path) -> PathBuf {
    tool_beside(compiler, "opt")
}

/// `opt` refused an LLVM IR file: its first error line (or `failed`).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{} rejected {}: {message}", opt.display(), ll.display())]
pub struct OptRejected {
    pub opt: PathBuf,
    pub ll: PathBuf,
    pub message: String,
}

/// Rewrites the unoptimized LLVM IR file `ll` (clang `-O0 -Xclang
/// -disable-O0-optnone`) with the intrinsics' wrappers inlined and locals in
/// registers (`opt -passes=always-inline,sroa`): the builtins' own IR,
/// constants as written. `Ok(Err(_))` if opt rejects it; `Err` if opt
/// (of `compiler`'s LLVM) cannot run.
pub fn inline_wrappers(compiler: &Path, ll: &Path) -> std::io::Result<Result<(), OptRejected>> {
    let opt = opt_for(compiler);
    let out = Command::new(&opt)
        .args(["-passes=always-inline,sroa", "-S", "-o"])
        .arg(ll)
        .arg(ll)
        .output()
        .map_err(|e| std::io::Error::new(e.kind(), format!("cannot run {}: {e}", opt.display())))?;
    if out.status.success() {
        return Ok(Ok(()));
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    let message = stderr.lines().find(|l| l.contains("error")).unwrap_or("failed").to_string();
    Ok(Err(OptRejected { opt, ll: ll.to_path_buf(), message }))
}

/// The LLVM tool `tool` of the same version and directory as `compiler`.
pub fn tool_beside(compiler: &Path, tool: &str) -> PathBuf {
    let name = compiler.file_name().and_then(|n| n.to_str()).unwrap_or("clang");
    let tool = match name.strip_prefix("clang-") {
        Some(version) => format!("{tool}-{version}"),
        None => tool.to_string(),
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

/// A snippet whose text holds an immediate's value: `pieces` joined by the
/// value's decimal digits is clang's IR for that value, for the values in
/// `values` (inclusive), the range it was checked over.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ImmediateTemplate {
    pub params: Vec<String>,
    pub result: String,
    pub pieces: Vec<String>,
    pub values: (i64, i64),
    /// Values in `values` whose IR clang writes otherwise, with that IR: the
    /// top of a shift's range (`vshrq_n_s32(a, 32)` shifts by 31,
    /// `vshrq_n_u32(a, 32)` is zero).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub otherwise: Vec<(i64, String)>,
}

impl ImmediateTemplate {
    /// The snippet's text for `value`, if in `values`.
    pub fn text(&self, value: i64) -> Option<String> {
        if let Some((_, text)) = self.otherwise.iter().find(|(v, _)| *v == value) {
            return Some(text.clone());
        }
        (self.values.0..=self.values.1).contains(&value).then(|| self.pieces.join(&value.to_string()))
    }
}

/// The values of an immediate ranging over `lo..=hi` that its IR is
/// compiled at to find the template of the value: the first two tell the
/// value's place in the text, the rest check it, both ends of the range
/// among them. Not 0: LLVM writes a zero vector as `zeroinitializer`, which
/// imports as another constant (the template's `dense<0>` is the same value).
/// Empty if the range has fewer than six values.
pub fn template_values(lo: i64, hi: i64) -> Vec<i64> {
    if hi - lo < 5 {
        return Vec::new();
    }
    let mut values = Vec::new();
    for v in [lo + 3, lo + 5, lo + 1, lo + 2, (lo + hi) / 2, hi - 2, hi - 1, hi, lo] {
        if v != 0 && !values.contains(&v) {
            values.push(v);
        }
    }
    values
}

/// Tokens of a snippet's text: runs of letters, digits and `_`, and single
/// other characters, so that a number is one token (`dense<37>` is
/// `dense`, `<`, `37`, `>`).
fn tokens(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    for (i, c) in text.char_indices() {
        if !word(c) {
            if start < i {
                out.push(&text[start..i]);
            }
            out.push(&text[i..i + c.len_utf8()]);
            start = i + c.len_utf8();
        }
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

/// The template of clang's IR for an intrinsic compiled at several values of
/// its one immediate (`compiled`: value and snippet, the first two values
/// distinct, every value in `values`, the immediate's range): the tokens
/// where the first two texts differ must be those values, and the template
/// must give every other text exactly. `None` if the IR depends on the value
/// otherwise (a folded or canonicalized constant, another instruction).
pub fn immediate_template(compiled: &[(i64, &Snippet)], values: (i64, i64)) -> Option<ImmediateTemplate> {
    let [(v0, s0), (v1, s1), rest @ ..] = compiled else { return None };
    if v0 == v1 || s0.params != s1.params || s0.result != s1.result {
        return None;
    }
    let (t0, t1) = (tokens(&s0.text), tokens(&s1.text));
    if t0.len() != t1.len() {
        return None;
    }
    let (d0, d1) = (v0.to_string(), v1.to_string());
    let mut pieces = vec![String::new()];
    for (a, b) in t0.iter().zip(&t1) {
        if a == b {
            pieces.last_mut().expect("never empty").push_str(a);
        } else if *a == d0 && *b == d1 {
            pieces.push(String::new());
        } else {
            return None;
        }
    }
    let template = ImmediateTemplate {
        params: s0.params.clone(),
        result: s0.result.clone(),
        pieces,
        values,
        otherwise: Vec::new(),
    };
    let holds = |(v, s): &(i64, &Snippet)| {
        s.params == template.params && s.result == template.result && template.text(*v).as_ref() == Some(&s.text)
    };
    (template.pieces.len() > 1 && rest.iter().all(holds)).then_some(template)
}

/// As [`immediate_template`], or else a template of every value but the
/// range's top, which keeps the IR clang writes for it (a shift by the
/// element width, which clang writes as a shift by one less or a zero).
pub fn immediate_template_but_top(compiled: &[(i64, &Snippet)], values: (i64, i64)) -> Option<ImmediateTemplate> {
    if let Some(t) = immediate_template(compiled, values) {
        return Some(t);
    }
    let (top, below): (Vec<_>, Vec<_>) = compiled.iter().copied().partition(|(v, _)| *v == values.1);
    let [(_, s)] = top[..] else { return None };
    let mut t = immediate_template(&below, values)?;
    if s.params != t.params || s.result != t.result {
        return None;
    }
    t.otherwise.push((values.1, s.text.clone()));
    Some(t)
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

    fn rotate(value: &str) -> Snippet {
        Snippet {
            params: vec!["vector<8xi64>".into()],
            result: "vector<8xi64>".into(),
            text: format!(
                "llvm.func @snippet(%arg0: vector<8xi64>) -> vector<8xi64> {{\n  %0 = llvm.mlir.constant(dense<{value}> : vector<8xi64>) : vector<8xi64>\n  %1 = llvm.intr.fshl(%arg0, %arg0, %0) : (vector<8xi64>, vector<8xi64>, vector<8xi64>) -> vector<8xi64>\n  llvm.return %1 : vector<8xi64>\n}}"
            ),
        }
    }

    #[test]
    fn a_template_holds_the_immediate_where_the_texts_differ() {
        let (a, b, c) = (rotate("3"), rotate("5"), rotate("200"));
        let t = immediate_template(&[(3, &a), (5, &b), (200, &c)], (0, 255)).expect("the value alone differs");
        assert_eq!(t.pieces.len(), 2);
        assert_eq!(t.text(64), Some(rotate("64").text));
        // Outside the range it was checked over, no text.
        assert_eq!(t.text(256), None);
        // `8xi64` and `%1` are tokens of their own: no 8 or 1 in them is taken for a value.
        let one = rotate("1");
        assert!(immediate_template(&[(3, &a), (5, &b), (1, &one)], (0, 255)).is_some());
    }

    #[test]
    fn the_top_of_a_range_may_keep_its_own_ir() {
        let (a, b, c, top) = (rotate("3"), rotate("5"), rotate("62"), rotate("63"));
        let shift_by_width = rotate("63");
        let compiled = [(3, &a), (5, &b), (62, &c), (63, &top), (64, &shift_by_width)];
        assert!(immediate_template(&compiled, (1, 64)).is_none());
        let t = immediate_template_but_top(&compiled, (1, 64)).expect("all but the top are the value");
        assert_eq!(t.text(64), Some(rotate("63").text));
        assert_eq!(t.text(40), Some(rotate("40").text));
        assert_eq!(t.text(65), None);
        // The top's own IR must take the same operands and give the same type.
        let mut narrower = rotate("63");
        narrower.result = "vector<4xi64>".into();
        let compiled = [(3, &a), (5, &b), (62, &c), (63, &top), (64, &narrower)];
        assert!(immediate_template_but_top(&compiled, (1, 64)).is_none());
        // Only the top may differ.
        let wrong = rotate("7");
        let compiled = [(3, &a), (5, &b), (62, &wrong), (64, &shift_by_width)];
        assert!(immediate_template_but_top(&compiled, (1, 64)).is_none());
    }

    #[test]
    fn template_values_hold_both_ends_but_zero() {
        assert_eq!(template_values(0, 255), vec![3, 5, 1, 2, 127, 253, 254, 255]);
        assert_eq!(template_values(1, 32), vec![4, 6, 2, 3, 16, 30, 31, 32, 1]);
        assert!(template_values(0, 4).is_empty());
    }

    #[test]
    fn no_template_where_the_ir_depends_on_the_value_otherwise() {
        let (a, b) = (rotate("3"), rotate("5"));
        // Canonicalized (200 mod 64) or folded: the template does not give it.
        assert!(immediate_template(&[(3, &a), (5, &b), (200, &rotate("8"))], (0, 255)).is_none());
        // Texts differing in something other than the value.
        assert!(immediate_template(&[(3, &a), (4, &b)], (0, 255)).is_none());
        assert!(immediate_template(&[(3, &a), (3, &a)], (0, 255)).is_none());
    }

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
