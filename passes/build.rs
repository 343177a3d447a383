//! Compiles the C++ shim against the system MLIR and links the plugin and
//! driver to the shared `libMLIR.so`, so they share one MLIR with `mlir-opt`.
//!
//! Debian ships MLIR's C API (which melior's mlir-sys binds) only as static
//! `libMLIRCAPI*.a` archives, while mlir-sys in shared mode asks for
//! `-lMLIR-C`. A linker script of that name in `OUT_DIR` groups the archives:
//! the C API's wrappers are linked in, and everything they call resolves to
//! the one `libMLIR.so`.

use std::fmt::Write as _;

/// autollvm's op definitions are split into this many translation units (mlir-tblgen
/// `-op-shard-count`), compiled in parallel: the ODS of a few hundred ops is some 10 MB of C++.
const OP_SHARDS: usize = 8;

fn main() {
    let prefix = std::env::var("MLIR_SYS_220_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-22".into());
    println!("cargo:rerun-if-env-changed=MLIR_SYS_220_PREFIX");
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    compile_autollvm_and_shim(&prefix, &out);
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

/// Runs mlir-tblgen on autollvm's ODS into `out`, writes one translation unit per shard of its op
/// definitions, compiles them (unoptimized: parsing, printing and verifying ops is not where time
/// goes; optimizing them took most of the build) on as many threads as cargo's job count, and
/// archives them with the shim.
fn compile_autollvm_and_shim(prefix: &str, out: &str) {
    let td = "../generated/autollvm.td";
    println!("cargo:rerun-if-changed={td}");
    let shards = format!("-op-shard-count={OP_SHARDS}");
    for (generator, file) in [
        ("-gen-dialect-decls", "autollvm_dialect.h.inc"),
        ("-gen-dialect-defs", "autollvm_dialect.cpp.inc"),
        ("-gen-op-decls", "autollvm_ops.h.inc"),
        ("-gen-op-defs", "autollvm_ops.cpp.inc"),
        ("-gen-enum-decls", "autollvm_enums.h.inc"),
        ("-gen-enum-defs", "autollvm_enums.cpp.inc"),
        ("-gen-attrdef-decls", "autollvm_attrs.h.inc"),
        ("-gen-attrdef-defs", "autollvm_attrs.cpp.inc"),
    ] {
        let status = std::process::Command::new(format!("{prefix}/bin/mlir-tblgen"))
            .args([generator, &shards, "-I", &format!("{prefix}/include"), td, "-o", &format!("{out}/{file}")])
            .status()
            .unwrap_or_else(|e| panic!("cannot run {prefix}/bin/mlir-tblgen (install mlir-22-tools): {e}"));
        assert!(status.success(), "mlir-tblgen {generator} rejects {td}");
    }
    let shard_files: Vec<String> = (0..OP_SHARDS)
        .map(|i| {
            let path = format!("{out}/autollvm_ops_{i}.cpp");
            let text = format!("#include \"autollvm.h\"\n#define GET_OP_DEFS_{i}\n#include \"autollvm_ops.cpp.inc\"\n");
            std::fs::write(&path, text).expect("writing a shard of autollvm's op definitions");
            path
        })
        .collect();
    let mut base = cc::Build::new();
    base.cpp(true)
        .include(format!("{prefix}/include"))
        .include("cpp")
        .include(out)
        .flag("-std=c++17")
        .flag("-fno-rtti")
        .flag("-Wno-unused-parameter");
    // clang of the same LLVM compiles MLIR's headers about twice as fast as GCC.
    let clang = format!("{prefix}/bin/clang++");
    if std::env::var_os("CXX").is_none() && std::path::Path::new(&clang).exists() {
        base.compiler(&clang);
    }
    let jobs = std::env::var("NUM_JOBS").ok().and_then(|n| n.parse().ok()).unwrap_or(1usize).clamp(1, OP_SHARDS);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let objects: Vec<std::path::PathBuf> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..jobs)
            .map(|_| {
                scope.spawn(|| {
                    let mut objects = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(file) = shard_files.get(i) else { return objects };
                        objects.extend(base.clone().opt_level(0).file(file).compile_intermediates());
                    }
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().expect("a shard's compiler thread")).collect()
    });
    base.opt_level(1).files(["cpp/shim.cpp", "cpp/autollvm.cpp"]).objects(objects).compile("hydride_shim");
}
