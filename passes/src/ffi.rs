//! The C boundary: the plugin entry points `mlir-opt` looks up, the calls
//! into the C++ shim (`cpp/shim.cpp`: registration, `MlirOptMain`), and the
//! Rust functions the shim calls back with MLIR handles (the passes and the
//! generated ops' verifier). Nothing crosses as text but names.
#![allow(unsafe_code)]

use crate::ir::{expand, raw, read, rewrites, to_llvm, to_target};
use crate::synth::target::{target_help, Isa, Target};
use crate::synth::{cache, lower};
use crate::variants::{VariantError, VariantTable};
use melior::StringRef;
use mlir_sys::{MlirOperation, MlirStringRef};
use std::ffi::{c_char, c_int, c_void};
use std::sync::OnceLock;

/// A generated dialect for the shim: its name and IRDL definition.
#[repr(C)]
pub struct Dialect {
    pub name: MlirStringRef,
    pub irdl: MlirStringRef,
}

/// `lower-to-autollvm`'s options, as the shim's pass holds them.
#[repr(C)]
pub struct LowerOptions {
    pub target: MlirStringRef,
    pub cpu: MlirStringRef,
    pub cache_dir: MlirStringRef,
    pub remarks: bool,
    pub proof_ms: u32,
    pub window_ms: u32,
    pub block_ms: u32,
    pub max_ops: u32,
    pub two_step_budget: u32,
    pub cone_ops: u32,
}

// SAFETY: the definitions are 'static and never written; the raw pointers
// are only read by the shim.
unsafe impl Sync for Dialect {}
unsafe impl Send for Dialect {}

fn dialects() -> &'static [Dialect] {
    static ALL: OnceLock<Vec<Dialect>> = OnceLock::new();
    ALL.get_or_init(|| {
        crate::dialects()
            .iter()
            .map(|(name, irdl)| Dialect { name: StringRef::new(name).to_raw(), irdl: StringRef::new(irdl).to_raw() })
            .collect()
    })
}

unsafe extern "C" {
    fn hydride_register_dialects(registry: *mut c_void, dialects: *const Dialect, count: usize);
    fn hydride_register_passes(dialects: *const Dialect, count: usize);
    fn hydride_opt_main(argc: c_int, argv: *mut *mut c_char, dialects: *const Dialect, count: usize) -> c_int;
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

extern "C" fn register(registry: *mut c_void) {
    let all = dialects();
    // SAFETY: `registry` is the `mlir::DialectRegistry*` mlir-opt passes to
    // plugin callbacks; the definitions live for the whole process.
    unsafe { hydride_register_dialects(registry, all.as_ptr(), all.len()) }
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
    let all = dialects();
    // SAFETY: registers the passes with MLIR's global registry; called by
    // mlir-opt once, before it runs any pass. The definitions are 'static.
    unsafe { hydride_register_passes(all.as_ptr(), all.len()) }
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

/// `pass(context, root)`, a panic reported as an error on `root` rather
/// than unwinding into MLIR.
fn guarded(
    root: MlirOperation,
    pass: &str,
    run: impl for<'c> FnOnce(&'c melior::Context, melior::ir::OperationRef<'c, 'c>) -> bool,
) -> bool {
    raw::with_operation(root, |context, op| {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(context, op))).unwrap_or_else(|_| {
            raw::emit(&op, false, &format!("{pass}: internal error (please report this input)"));
            false
        })
    })
}

/// The generated ops' verifier (after IRDL's): does the op implement one
/// of its variants? Emits the error on the op when not.
#[unsafe(no_mangle)]
pub extern "C" fn hydride_verify_op(op: MlirOperation) -> bool {
    raw::with_operation(op, |_, op| {
        let found =
            VariantTable::embedded().map_err(VariantError::from).and_then(|t| t.find(&read::instance(&op)).map(|_| ()));
        found.map_err(|e| raw::emit(&op, false, &e.to_string())).is_ok()
    })
}

/// A rewrite of `lower-to-autollvm` for the shim: its pass argument,
/// `--help` line and option set.
#[repr(C)]
pub struct RewriteInfo {
    pub argument: MlirStringRef,
    pub description: MlirStringRef,
    pub options: u32,
}

/// An ISA for the shim: its name, its title for `--help`, and the target
/// its pipeline lowers for unless told.
#[repr(C)]
pub struct IsaInfo {
    pub name: MlirStringRef,
    pub title: MlirStringRef,
    pub default_target: MlirStringRef,
}

// SAFETY: as for `Dialect`: 'static strings, only read.
unsafe impl Sync for RewriteInfo {}
unsafe impl Send for RewriteInfo {}
unsafe impl Sync for IsaInfo {}
unsafe impl Send for IsaInfo {}

/// Every rewrite, in `lower-to-autollvm`'s order; `count` is set to their number.
///
/// # Safety
/// `count` points to writable memory.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hydride_rewrites(count: *mut usize) -> *const RewriteInfo {
    static ALL: OnceLock<Vec<RewriteInfo>> = OnceLock::new();
    let all = ALL.get_or_init(|| {
        rewrites::REWRITES
            .iter()
            .map(|r| RewriteInfo {
                argument: StringRef::new(r.argument).to_raw(),
                description: StringRef::new(r.description).to_raw(),
                options: r.options as u32,
            })
            .collect()
    });
    // SAFETY: guaranteed by the caller.
    unsafe { *count = all.len() };
    all.as_ptr()
}

/// Every ISA with a dialect; `count` is set to their number.
///
/// # Safety
/// `count` points to writable memory.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hydride_isas(count: *mut usize) -> *const IsaInfo {
    static ALL: OnceLock<Vec<IsaInfo>> = OnceLock::new();
    let all = ALL.get_or_init(|| {
        Isa::all()
            .map(|i| IsaInfo {
                name: StringRef::new(i.name()).to_raw(),
                title: StringRef::new(i.title()).to_raw(),
                default_target: StringRef::new(i.default_target()).to_raw(),
            })
            .collect()
    });
    // SAFETY: guaranteed by the caller.
    unsafe { *count = all.len() };
    all.as_ptr()
}

/// The `target` option's `--help` text.
#[unsafe(no_mangle)]
pub extern "C" fn hydride_target_help() -> MlirStringRef {
    StringRef::new(target_help()).to_raw()
}

/// The `cpu` option's `--help` text.
#[unsafe(no_mangle)]
pub extern "C" fn hydride_cpu_help() -> MlirStringRef {
    StringRef::new(crate::synth::target::cpu_help()).to_raw()
}

/// Why `cpu` is no CPU for `target` (or `target` no target), or an empty
/// string; the text lives until this thread's next problem query.
///
/// # Safety
/// `target` and `cpu` are readable strings for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hydride_cpu_problem(target: MlirStringRef, cpu: MlirStringRef) -> MlirStringRef {
    // SAFETY: guaranteed by the caller.
    let (target, cpu) = unsafe { (raw::string(target), raw::string(cpu)) };
    problem_text(match Target::parse(&target) {
        Ok(t) => t.cpu(&cpu).err().map(|e| e.to_string()).unwrap_or_default(),
        Err(e) => e.to_string(),
    })
}

/// Why `target` names no target, or an empty string; the text lives
/// until this thread's next problem query.
///
/// # Safety
/// `target` is a readable string for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hydride_target_problem(target: MlirStringRef) -> MlirStringRef {
    // SAFETY: guaranteed by the caller.
    let name = unsafe { raw::string(target) };
    problem_text(Target::parse(&name).err().map(|e| e.to_string()).unwrap_or_default())
}

/// `problem` kept for the shim until this thread's next problem query
/// (`hydride_target_problem`, `hydride_cpu_problem`).
fn problem_text(problem: String) -> MlirStringRef {
    thread_local!(static PROBLEM: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) });
    PROBLEM.with(|p| {
        *p.borrow_mut() = problem;
        // The String is not touched again before the next query on this thread.
        StringRef::new(p.borrow().as_str()).to_raw()
    })
}

/// Rewrite `index` of [`rewrites::REWRITES`] on the root op.
///
/// # Safety
/// `options` points to a live `LowerOptions` whose strings are readable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hydride_run_rewrite(root: MlirOperation, index: usize, options: *const LowerOptions) -> bool {
    let rewrite = &rewrites::REWRITES[index];
    // SAFETY: guaranteed by the caller.
    let o = unsafe { &*options };
    // SAFETY: the strings are alive for the call (caller's contract).
    let (target, cpu, dir) = unsafe { (raw::string(o.target), raw::string(o.cpu), raw::string(o.cache_dir)) };
    guarded(root, rewrite.argument, |context, op| {
        let dir = if dir.is_empty() { cache::default_dir() } else { Some(std::path::PathBuf::from(dir)) };
        let options = lower::Options::new(
            &target,
            &cpu,
            o.proof_ms,
            u64::from(o.window_ms),
            u64::from(o.block_ms),
            o.max_ops as usize,
            o.two_step_budget as usize,
            o.cone_ops as usize,
            cache::Cache::new(dir.as_deref(), cache::default_key_path().and_then(|p| cache::memo_key(&p))),
        );
        match options {
            Ok(options) => rewrites::run(rewrite, context, op, &options, o.remarks).is_ok(),
            Err(e) => {
                raw::emit(&op, false, &format!("{}: {e}", rewrite.argument));
                false
            }
        }
    })
}

/// The ISA a pass names (a registered ISA's name), from the shim.
///
/// # Safety
/// `isa` is a readable string for the call.
unsafe fn isa_of(root: MlirOperation, isa: MlirStringRef) -> Option<Isa> {
    // SAFETY: guaranteed by the caller.
    let name = unsafe { raw::string(isa) };
    let found = Isa::parse(&name);
    if found.is_none() {
        raw::with_operation(root, |_, op| raw::emit(&op, false, &format!("hydride: no ISA named '{name}'")));
    }
    found
}

/// `convert-autollvm-to-<isa>` on the root op.
///
/// # Safety
/// `isa` is a readable string for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hydride_autollvm_to_target(root: MlirOperation, isa: MlirStringRef) -> bool {
    // SAFETY: guaranteed by the caller.
    let Some(isa) = (unsafe { isa_of(root, isa) }) else { return false };
    let pass = format!("convert-autollvm-to-{}", isa.name());
    guarded(root, &pass, |context, op| to_target::run(context, op, isa).is_ok())
}

/// `convert-hydride-<isa>-to-llvm` on the root op.
///
/// # Safety
/// `isa` is a readable string for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hydride_target_to_llvm(root: MlirOperation, isa: MlirStringRef) -> bool {
    // SAFETY: guaranteed by the caller.
    let Some(isa) = (unsafe { isa_of(root, isa) }) else { return false };
    let pass = format!("convert-hydride-{}-to-llvm", isa.name());
    guarded(root, &pass, |context, op| to_llvm::run(context, op, isa).is_ok())
}

/// Runs the `hydride-opt` driver on the process arguments.
pub fn run_opt_main() -> i32 {
    let args: Vec<std::ffi::CString> = std::env::args_os()
        .map(|a| std::ffi::CString::new(a.into_encoded_bytes()).expect("argument without NUL"))
        .collect();
    let mut argv: Vec<*mut c_char> = args.iter().map(|a| a.as_ptr().cast_mut()).collect();
    argv.push(std::ptr::null_mut());
    let all = dialects();
    // SAFETY: argv holds argc valid NUL-terminated strings followed by NULL,
    // alive until the call returns; the definitions are 'static.
    unsafe { hydride_opt_main(args.len() as c_int, argv.as_mut_ptr(), all.as_ptr(), all.len()) }
}

/// `expand-autollvm` (`which` empty) or `expand-hydride-<isa>` (`which`
/// the ISA's name) on the root op.
///
/// # Safety
/// `which` is a readable string for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hydride_expand(root: MlirOperation, which: MlirStringRef) -> bool {
    // SAFETY: guaranteed by the caller.
    let name = unsafe { raw::string(which) };
    let (expanded, pass) = if name.is_empty() {
        (expand::Expanded::Autollvm, "expand-autollvm".to_string())
    } else {
        // SAFETY: guaranteed by the caller.
        let Some(isa) = (unsafe { isa_of(root, which) }) else { return false };
        (expand::Expanded::Isa(isa), format!("expand-hydride-{}", isa.name()))
    };
    guarded(root, &pass, |context, op| expand::run(context, op, expanded).is_ok())
}
