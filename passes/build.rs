//! Compiles the C++ shim against the system MLIR and links the plugin and
//! driver to the shared `libMLIR.so`, so they share one MLIR with `mlir-opt`.

fn main() {
    let prefix = std::env::var("MLIR_SYS_220_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-22".into());
    println!("cargo:rerun-if-env-changed=MLIR_SYS_220_PREFIX");
    cc::Build::new()
        .cpp(true)
        .files([
            "cpp/dialects.cpp",
            "cpp/describe.cpp",
            "cpp/one_to_one.cpp",
            "cpp/to_llvm.cpp",
            "cpp/lower_to_autollvm.cpp",
            "cpp/pipeline.cpp",
        ])
        .include(format!("{prefix}/include"))
        .flag("-std=c++17")
        .flag("-fno-rtti")
        .flag("-Wno-unused-parameter")
        .opt_level(1)
        .compile("hydride_shim");
    println!("cargo:rerun-if-changed=cpp");
    println!("cargo:rustc-link-search=native={prefix}/lib");
    println!("cargo:rustc-link-lib=dylib=MLIR");
    println!("cargo:rustc-link-lib=dylib=LLVM");
    println!("cargo:rustc-link-arg=-Wl,-rpath,{prefix}/lib");
}
