//! ISA-neutral parts of validation: test vectors, how a test program is
//! run (natively or under an emulator), and reading compiler errors. Each
//! ISA's harness and verdict bookkeeping live in its folder under `isa/`.

pub mod cases;
pub mod runner;

use std::path::Path;

/// Maps `file.c:LINE:COL: error: …` to the test whose function holds LINE
/// (test `k` is the function starting `static void t<k>(`).
pub fn blame_compile_errors(src: &str, stderr: &str, c_path: &Path) -> Vec<(usize, String)> {
    let starts: Vec<(usize, usize)> = src
        .lines()
        .enumerate()
        .filter_map(|(n, l)| {
            l.strip_prefix("static void t")
                .and_then(|r| r.split('(').next())
                .and_then(|k| k.parse().ok())
                .map(|k| (n + 1, k))
        })
        .collect();
    let mut blamed: Vec<(usize, String)> = Vec::new();
    for (line, msg) in compile_errors(stderr, c_path) {
        if let Some((_, k)) = starts.iter().rev().find(|(start, _)| *start <= line) {
            if !blamed.iter().any(|(t, _)| t == k) {
                blamed.push((*k, msg));
            }
        }
    }
    blamed
}

/// `(line, message)` of every `c_path:LINE:COL: error: message` the compiler printed.
pub fn compile_errors(stderr: &str, c_path: &Path) -> Vec<(usize, String)> {
    let prefix = format!("{}:", c_path.display());
    stderr
        .lines()
        .filter_map(|l| {
            let rest = l.strip_prefix(&prefix)?;
            let (_, msg) = rest.split_once("error:")?;
            let line = rest.split(':').next()?.parse().ok()?;
            Some((line, msg.trim().to_string()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compiler_errors_are_located_and_blamed() {
        let c = Path::new("/w/batch0.c");
        let stderr = "/w/batch0.c:5:9: error: argument value 8 is outside the valid range [0, 7]\n/w/batch0.c:5:9: note: x\nother.h:3:1: error: elsewhere\n/w/batch0.c:9:2: warning: w\n";
        assert_eq!(
            compile_errors(stderr, c),
            vec![(5, "argument value 8 is outside the valid range [0, 7]".to_string())]
        );
        let src = "#include <x>\nstatic void t0(int) {\n}\nstatic void t1(int) {\n  bad;\n}\n";
        assert_eq!(
            blame_compile_errors(src, stderr, c),
            vec![(1, "argument value 8 is outside the valid range [0, 7]".to_string())]
        );
    }
}
