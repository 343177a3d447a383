//! Compiles the C++ shim against the system MLIR and links the plugin and
//! driver to the shared `libMLIR.so`, so they share one MLIR with `mlir-opt`.
//!
//! Debian ships MLIR's C API (which melior's mlir-sys binds) only as static
//! `libMLIRCAPI*.a` archives, while mlir-sys in shared mode asks for
//! `-lMLIR-C`. A linker script of that name in `OUT_DIR` groups the archives:
//! the C API's wrappers are linked in, and everything they call resolves to
//! the one `libMLIR.so`.

use std::fmt::Write as _;

fn main() {
    let prefix = std::env::var("MLIR_SYS_220_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-22".into());
    println!("cargo:rerun-if-env-changed=MLIR_SYS_220_PREFIX");
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    // autollvm is compiled from its ODS: mlir-tblgen's C++ for it, into OUT_DIR.
    let td = "../generated/autollvm.td";
    println!("cargo:rerun-if-changed={td}");
    for (generator, file) in [
        ("-gen-dialect-decls", "autollvm_dialect.h.inc"),
        ("-gen-dialect-defs", "autollvm_dialect.cpp.inc"),
        ("-gen-op-decls", "autollvm_ops.h.inc"),
        ("-gen-op-defs", "autollvm_ops.cpp.inc"),
    ] {
        let status = std::process::Command::new(format!("{prefix}/bin/mlir-tblgen"))
            .args([generator, "-I", &format!("{prefix}/include"), td, "-o", &format!("{out}/{file}")])
            .status()
            .unwrap_or_else(|e| panic!("cannot run {prefix}/bin/mlir-tblgen (install mlir-22-tools): {e}"));
        assert!(status.success(), "mlir-tblgen {generator} rejects {td}");
    }
    cc::Build::new()
        .cpp(true)
        .files(["cpp/shim.cpp", "cpp/autollvm.cpp"])
        .include(format!("{prefix}/include"))
        .include(&out)
        .flag("-std=c++17")
        .flag("-fno-rtti")
        .flag("-Wno-unused-parameter")
        .opt_level(1)
        .compile("hydride_shim");
    println!("cargo:rerun-if-changed=cpp");

    let lib = format!("{prefix}/lib");
    let mut archives: Vec<String> = std::fs::read_dir(&lib)
        .unwrap_or_else(|e| panic!("cannot list {lib}: {e}"))
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.starts_with("libMLIRCAPI") && n.ends_with(".a"))
        .collect();
    assert!(!archives.is_empty(), "no libMLIRCAPI*.a in {lib} (install libmlir-22-dev)");
    archives.sort();
    let mut script = String::from("/* MLIR's C API archives, for -lMLIR-C (passes/build.rs). */\nGROUP (");
    for a in &archives {
        write!(script, " {lib}/{a}").expect("writing to a String");
    }
    script += " )\n";
    std::fs::write(format!("{out}/libMLIR-C.so"), script).expect("writing the linker script");
    println!("cargo:rustc-link-search=native={out}");
    println!("cargo:rustc-link-search=native={lib}");
    println!("cargo:rustc-link-lib=dylib=MLIR");
    println!("cargo:rustc-link-lib=dylib=LLVM");
    println!("cargo:rustc-link-arg=-Wl,-rpath,{lib}");
}
