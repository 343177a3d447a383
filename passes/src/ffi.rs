//! The C boundary: the plugin entry points `mlir-opt` looks up, the calls
//! into the C++ shim (`cpp/`), and the Rust functions the shim calls back
//! (op verification and lowering against the variant table). Strings cross
//! as pointer + length into Rust and as NUL-terminated strings Rust
//! allocated out of it, freed by `hydride_free_string`.
#![allow(unsafe_code)]

use crate::variants::{OpInstance, VariantTable};
use std::ffi::{c_char, c_int, c_void, CString};
use std::sync::OnceLock;

unsafe extern "C" {
    fn hydride_register_dialects(registry: *mut c_void, irdl: *const c_char, len: usize);
    fn hydride_register_passes();
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

/// `mlir::PassPluginLibraryInfo`, field for field.
#[repr(C)]
pub struct PassPluginLibraryInfo {
    pub api_version: u32,
    pub plugin_name: *const c_char,
    pub plugin_version: *const c_char,
    pub register_pass_registry_callbacks: extern "C" fn(),
}

extern "C" fn register_passes() {
    // SAFETY: registers C++ pass definitions with MLIR's global registry;
    // called by mlir-opt once, before it runs any pass.
    unsafe { hydride_register_passes() }
}

/// The entry point `mlir-opt --load-pass-plugin` calls.
#[unsafe(no_mangle)]
pub extern "C" fn mlirGetPassPluginInfo() -> PassPluginLibraryInfo {
    PassPluginLibraryInfo {
        api_version: MLIR_PLUGIN_API_VERSION,
        plugin_name: c"hydride".as_ptr(),
        plugin_version: c"0.1.0".as_ptr(),
        register_pass_registry_callbacks: register_passes,
    }
}

/// # Safety
/// `desc` points to `len` readable bytes.
unsafe fn read_instance(desc: *const c_char, len: usize) -> Result<OpInstance, String> {
    // SAFETY: guaranteed by the caller.
    let bytes = unsafe { std::slice::from_raw_parts(desc.cast::<u8>(), len) };
    let text = std::str::from_utf8(bytes).map_err(|e| format!("op description is not UTF-8: {e}"))?;
    OpInstance::parse(text).map_err(|e| e.to_string())
}

fn to_c(text: String) -> *mut c_char {
    CString::new(text.replace('\0', " ")).expect("NULs replaced").into_raw()
}

/// The answer of a call from the shim: the text, or null with the reason
/// in `*error`.
///
/// # Safety
/// `error` is writable.
unsafe fn answer(result: Result<String, String>, error: *mut *mut c_char) -> *mut c_char {
    match result {
        Ok(text) => to_c(text),
        Err(e) => {
            // SAFETY: guaranteed by the caller.
            unsafe { *error = to_c(e) };
            std::ptr::null_mut()
        }
    }
}

/// Called by the shim's verifier: null when the op is one of its variants,
/// else the error message.
///
/// # Safety
/// `desc` points to `len` readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hydride_check_op(desc: *const c_char, len: usize) -> *mut c_char {
    // SAFETY: forwarded from the caller.
    let found = unsafe { read_instance(desc, len) }.and_then(|op| VariantTable::embedded()?.find(&op).map(|_| ()));
    match found {
        Ok(()) => std::ptr::null_mut(),
        Err(e) => to_c(e),
    }
}

/// Called by `convert-autollvm-to-x86`: the target op name, the class
/// operand index of each target operand, then `target_attr class_attr` lines;
/// or null with the reason in `*error`.
///
/// # Safety
/// `desc` points to `len` readable bytes; `error` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hydride_target_of(desc: *const c_char, len: usize, error: *mut *mut c_char) -> *mut c_char {
    // SAFETY: forwarded from the caller.
    let found = unsafe { read_instance(desc, len) }.and_then(|op| VariantTable::embedded()?.target(&op).cloned());
    let text = found.map(|t| {
        let mut text = format!("{}\n", t.op);
        text += &t.operands.iter().map(|i| i.to_string()).collect::<Vec<_>>().join(" ");
        for (target, class) in &t.attributes {
            text += &format!("\n{target} {class}");
        }
        text
    });
    // SAFETY: `error` is writable (caller's contract).
    unsafe { answer(text, error) }
}

/// Called by `convert-hydride-x86-to-llvm`: the LLVM call of a target op
/// (see [`crate::llvm_calls::protocol`]), or null with the reason in `*error`.
///
/// # Safety
/// `name` points to `len` readable bytes; `error` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hydride_llvm_call_of(name: *const c_char, len: usize, error: *mut *mut c_char) -> *mut c_char {
    // SAFETY: forwarded from the caller.
    let name = unsafe { text_arg(name, len) };
    let found = crate::llvm_calls::CallTable::embedded().and_then(|t| {
        t.get(&name).map(crate::llvm_calls::protocol).ok_or_else(|| {
            format!("no LLVM lowering for {name}: clang lowers it to generic LLVM IR, not to one intrinsic")
        })
    });
    // SAFETY: `error` is writable (caller's contract).
    unsafe { answer(found, error) }
}

/// # Safety
/// `ptr` points to `len` readable bytes.
unsafe fn text_arg(ptr: *const c_char, len: usize) -> String {
    // SAFETY: guaranteed by the caller.
    let bytes = unsafe { std::slice::from_raw_parts(ptr.cast::<u8>(), len) };
    String::from_utf8_lossy(bytes).into_owned()
}

/// Called by `lower-to-autollvm` once per block: the plan of rewrites and
/// remarks (see [`crate::synth::lower::plan_text`]), or null with the
/// reason in `*error` (bad option, missing class database).
///
/// # Safety
/// Each pointer points to its length of readable bytes; `error` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hydride_lower_block(
    block: *const c_char,
    block_len: usize,
    options: *const c_char,
    options_len: usize,
    cache_dir: *const c_char,
    cache_dir_len: usize,
    error: *mut *mut c_char,
) -> *mut c_char {
    use crate::synth::{cache, grammar::Grammar, lower};
    // SAFETY: forwarded from the caller.
    let (block, options, dir) =
        unsafe { (text_arg(block, block_len), text_arg(options, options_len), text_arg(cache_dir, cache_dir_len)) };
    let run = || -> Result<String, String> {
        let dir = if dir.is_empty() { cache::default_dir() } else { Some(std::path::PathBuf::from(dir)) };
        let options = lower::Options::parse(&options, cache::Cache::new(dir.as_deref()))?;
        let grammar = Grammar::embedded()?;
        lower::lower_block(&block, grammar, &options).map(|p| lower::plan_text(&p))
    };
    // SAFETY: `error` is writable (caller's contract).
    unsafe { answer(run(), error) }
}

/// Frees a string returned by the functions above.
///
/// # Safety
/// `s` is null or came from one of them and was not freed yet.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hydride_free_string(s: *mut c_char) {
    if !s.is_null() {
        // SAFETY: allocated by `CString::into_raw` in `to_c`.
        drop(unsafe { CString::from_raw(s) });
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
