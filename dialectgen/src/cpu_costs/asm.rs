//! Functions' machine instructions out of a compiler's assembly listing.

use std::collections::BTreeMap;

/// How a target's assembly writes comments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CommentStyle {
    /// `# …`.
    Hash,
    /// `// …`.
    Slashes,
}

impl CommentStyle {
    pub fn prefix(self) -> &'static str {
        match self {
            CommentStyle::Hash => "#",
            CommentStyle::Slashes => "//",
        }
    }
}

/// Each function's instructions (operands included, comments and
/// directives left out, and the return and `vzeroupper` at its end), by
/// label, for the functions whose names start `hydride_`.
pub fn bodies(asm: &str, comments: CommentStyle) -> BTreeMap<String, Vec<String>> {
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut current: Option<String> = None;
    let prefix = comments.prefix();
    for line in asm.lines() {
        let t = line.trim();
        let first = t.split_whitespace().next().unwrap_or("");
        if let Some(label) = first.strip_suffix(':').filter(|l| l.starts_with("hydride_")) {
            current = Some(label.to_string());
            out.entry(label.to_string()).or_default();
            continue;
        }
        let Some(name) = &current else { continue };
        if t.starts_with(&format!("{prefix} -- End function")) || t.starts_with(".Lfunc_end") {
            current = None;
            continue;
        }
        let t = t.split(prefix).next().unwrap_or("").trim();
        if t.is_empty() || t.starts_with('.') || t.ends_with(':') {
            continue;
        }
        let mnemonic = t.split_whitespace().next().unwrap_or("");
        if matches!(mnemonic, "retq" | "ret" | "vzeroupper") {
            continue;
        }
        out.entry(name.clone()).or_default().push(t.to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_comment_bodies_keep_operands_and_prefixes_and_drop_the_rest() {
        let asm = "\t.text\nhydride_f0:                             # @hydride_f0\n\t.cfi_startproc\n# %bb.0:\n\t{vex}\tvpdpbusd\t%ymm2, %ymm1, %ymm0   # comment\n\tvzeroupper\n\tretq\n.Lfunc_end0:\n\t.size x\nhydride_f1:\n\tretq\n# -- End function\nother:\n\tnop\n";
        let b = bodies(asm, CommentStyle::Hash);
        assert_eq!(b["hydride_f0"], vec!["{vex}\tvpdpbusd\t%ymm2, %ymm1, %ymm0"]);
        assert!(b["hydride_f1"].is_empty());
        assert_eq!(b.len(), 2);
    }

    #[test]
    fn slash_comment_bodies_are_read_too() {
        let asm = "hydride_f3:                             // @hydride_f3\n// %bb.0:\n\tusdot\tv0.4s, v1.16b, v2.16b // x\n\tret\n.Lfunc_end3:\n";
        assert_eq!(bodies(asm, CommentStyle::Slashes)["hydride_f3"], vec!["usdot\tv0.4s, v1.16b, v2.16b"]);
    }
}
