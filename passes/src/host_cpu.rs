//! This host's CPU as LLVM names it, through LLVM's C API (libLLVM, linked
//! with MLIR): the one call, and the string it returns freed by LLVM.
#![allow(unsafe_code)]

use std::ffi::c_char;

unsafe extern "C" {
    // LLVM's C API (libLLVM, linked with MLIR).
    fn LLVMGetHostCPUName() -> *mut c_char;
    fn LLVMDisposeMessage(message: *mut c_char);
}

/// This host's CPU as LLVM names it (what `llc -mcpu=native` resolves to).
pub fn name() -> String {
    // SAFETY: LLVM returns a NUL-terminated string it allocated, freed here
    // with its own disposer after copying.
    unsafe {
        let raw = LLVMGetHostCPUName();
        if raw.is_null() {
            return String::new();
        }
        let name = std::ffi::CStr::from_ptr(raw).to_string_lossy().into_owned();
        LLVMDisposeMessage(raw);
        name
    }
}
