//! `hydride-opt`: `mlir-opt` with every upstream dialect and pass plus
//! hydride's dialects registered.

fn main() {
    std::process::exit(hydride::ffi::run_opt_main());
}
