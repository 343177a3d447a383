//! What an ISA says to have its code priced: the CPUs and how to compile for each.

use super::asm::CommentStyle;

/// The CPUs an ISA's code is priced for, and how to compile for each.
pub struct CpuSet {
    /// LLVM's target triple.
    pub triple: &'static str,
    /// The CPUs, by LLVM's names (`-mcpu`).
    pub cpus: &'static [&'static str],
    /// clang's flags for code for `cpu`, beside `-O1 -S`.
    pub clang_flags: fn(&str) -> Vec<String>,
    /// llc's and llvm-mca's `-mattr` for `cpu` (empty: the CPU's own features).
    pub mattr: fn(&str) -> String,
    /// The first line of the C file (the intrinsics' header).
    pub c_header: &'static str,
    /// How the target's assembly writes comments (llvm-mca's region markers).
    pub comments: CommentStyle,
    /// Targets narrower than some CPUs of the set, and the `-mattr` that
    /// narrows llc to them: the generic operations are priced again so
    /// (where a target's vectors are narrower than the CPU's, LLVM splits
    /// the widest).
    pub narrower: &'static [(&'static str, &'static str)],
    /// A plain vector load and store: the resources memory accesses use.
    pub load: &'static str,
    pub store: &'static str,
}
