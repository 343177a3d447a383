//! The C boundary: the dialect-plugin entry point that `mlir-opt` looks up,
//! and the calls into the C++ shim (`cpp/dialects.cpp`).
#![allow(unsafe_code)]

use std::ffi::{c_char, c_int, c_void};
use std::sync::OnceLock;

unsafe extern "C" {
    fn hydride_register_dialects(registry: *mut c_void, irdl: *const c_char, len: usize);
    fn hydride_opt_main(argc: c_int, argv: *mut *mut c_char, irdl: *const c_char, len: usize) -> c_int;
}

/// `mlir::DialectPluginLibraryInfo`, field for field.
#[repr(C)]
pub struct DialectPluginLibraryInfo {
    pub api_version: u32,
    pub plugin_name: *const c_char,
    pub plugin_version: *const c_char,
    pub register_dialect_registry_callbacks: extern "C" fn(*mut c_void),
}

/// `MLIR_PLUGIN_API_VERSION` of MLIR 22.
const MLIR_PLUGIN_API_VERSION: u32 = 1;

fn definitions() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(crate::dialect_definitions)
}

extern "C" fn register(registry: *mut c_void) {
    let text = definitions();
    // SAFETY: `registry` is the `mlir::DialectRegistry*` mlir-opt passes to
    // plugin callbacks; the definitions live for the whole process.
    unsafe { hydride_register_dialects(registry, text.as_ptr().cast(), text.len()) }
}

/// The entry point `mlir-opt --load-dialect-plugin` calls.
#[unsafe(no_mangle)]
pub extern "C" fn mlirGetDialectPluginInfo() -> DialectPluginLibraryInfo {
    DialectPluginLibraryInfo {
        api_version: MLIR_PLUGIN_API_VERSION,
        plugin_name: c"hydride".as_ptr(),
        plugin_version: c"0.1.0".as_ptr(),
        register_dialect_registry_callbacks: register,
    }
}

/// Runs the `hydride-opt` driver on the process arguments.
pub fn run_opt_main() -> i32 {
    let args: Vec<std::ffi::CString> = std::env::args_os()
        .map(|a| std::ffi::CString::new(a.into_encoded_bytes()).expect("argument without NUL"))
        .collect();
    let mut argv: Vec<*mut c_char> = args.iter().map(|a| a.as_ptr().cast_mut()).collect();
    argv.push(std::ptr::null_mut());
    let text = definitions();
    // SAFETY: argv holds argc valid NUL-terminated strings followed by NULL,
    // alive until the call returns; the definitions are 'static.
    unsafe { hydride_opt_main(args.len() as c_int, argv.as_mut_ptr(), text.as_ptr().cast(), text.len()) }
}
