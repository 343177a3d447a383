//! `hydride gen`: from vendor data to every generated file, in one call.
//!
//! Each registered ISA ([`crate::isa::registry::all`]) reads and validates
//! its instructions ([`crate::isa::front_end`]); this module classifies
//! them, designs each target dialect, writes each ISA's class database and
//! lowering table, then the `autollvm` dialect over the classes of every
//! ISA, the class summary, the op variant table and the dialects'
//! round-trip tests.

use crate::classify::cross_isa::{classify_across, prefixed};
use crate::classify::engine::{classify, SimilarityClass};
use crate::design::{build, ods, render::render, render::render_value, DialectDesign};
use crate::isa::registry;
use crate::isa::{Isa, IsaOutput, Progress};
use crate::sema::ir::Semantics;
use std::collections::HashMap;
use std::path::Path;

pub use crate::gen_options::{GenError, GenOptions, GENERATED_BY};
pub use crate::gen_tables::{class_database, one_entry_per_line};

pub struct GenSummary {
    /// Per ISA: its output.
    pub isas: Vec<(&'static str, IsaOutput)>,
    pub autollvm_ops: usize,
}

pub fn write(path: &Path, text: &str) -> Result<(), GenError> {
    let wrap = |source| GenError::Write { path: path.display().to_string(), source };
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(wrap)?;
    }
    std::fs::write(path, text).map_err(wrap)
}

/// The header's words for what produced a file: the command and the vendor
/// data's fingerprint (see [`crate::vendor_hash`]), in place of [`GENERATED_BY`].
pub fn provenance(vendor_hash: &str) -> String {
    format!("scripts/regen (hydride gen), vendor data sha256:{vendor_hash}")
}

pub fn generate(opts: &GenOptions, progress: &dyn Progress) -> Result<GenSummary, GenError> {
    let names: Vec<&'static str> = registry::all().iter().map(|isa| isa.name()).collect();
    let missing: Vec<&'static str> = names.iter().copied().filter(|n| !opts.isa_data.join(n).is_dir()).collect();
    if !missing.is_empty() {
        return Err(GenError::MissingVendorData { dir: opts.isa_data.clone(), missing });
    }
    let hash = crate::vendor_hash::vendor_data_hash(&opts.isa_data, &names)
        .map_err(|source| GenError::Write { path: opts.isa_data.display().to_string(), source })?;
    let header = provenance(&hash);
    // Every file's header names the command and the vendor data it came from.
    let write = |path: &Path, text: &str| write(path, &text.replace(GENERATED_BY, &header));
    let mut isas = Vec::new();
    for isa in registry::all() {
        let out = generate_isa(isa, opts, progress)?;
        for (rel, text) in &out.files {
            write(&opts.out.join(rel), text)?;
        }
        isas.push((isa.name(), out));
    }
    let mut summary = serde_json::Map::new();
    summary.insert("_generated_by".into(), GENERATED_BY.into());
    for (name, o) in &isas {
        let s = &o.stats;
        summary.insert(
            name.to_string(),
            serde_json::json!({ "instructions": s.instructions, "classes": s.classes, "unproved_pairs": s.unproved_pairs, "masked_members": s.masked_members, "rejected": s.rejected }),
        );
    }
    progress.update("classify all ISAs", 0, isas.iter().map(|(_, o)| o.semantics.len()).sum());
    let per_isa: Vec<(&str, &[Semantics])> = isas.iter().map(|(name, o)| (*name, o.semantics.as_slice())).collect();
    let names: Vec<(&str, &[SimilarityClass])> = isas.iter().map(|(name, o)| (*name, o.classes.as_slice())).collect();
    let (mut classes, combined) = classify_across(&per_isa, &names, opts.timeout_ms);
    // Classification compares templates by argument position; the ops say what each immediate does.
    classes.iter_mut().for_each(crate::classify::immediate_names::name_immediates);
    progress.update("classify all ISAs", combined.instructions, combined.instructions);
    summary.insert("combined".into(), serde_json::to_value(&combined)?);
    write(&opts.out.join("classes.json"), &(serde_json::to_string_pretty(&summary)? + "\n"))?;

    // The combined classes' database: what synthesis for every target reads,
    // each member with its own ISA's lowering.
    let lowerings: HashMap<String, serde_json::Value> =
        isas.iter().flat_map(|(name, o)| member_lowerings(name, &o.files)).collect();
    write(&opts.out.join("class-database.json"), &class_database("all", &[], &classes, |n| lowerings.get(n))?)?;

    let dialect_template = opts.templates.join("irdl_dialect.mlir.tera");
    let ods_template = opts.templates.join("ods_dialect.td.tera");
    let autollvm = build::autollvm_dialect(&classes, &prefixed(&per_isa), GENERATED_BY);
    // autollvm is defined by its ODS alone, compiled into the plugin: IRDL
    // cannot declare its enum attributes.
    write(&opts.out.join("autollvm.td"), &render_value(&ods_template, &ods::ods_dialect(&autollvm, None))?)?;
    let autollvm_ops = autollvm.ops.len();
    let mut designs: Vec<DialectDesign> = vec![autollvm];
    for (name, o) in &isas {
        write(
            &opts.out.join(name).join(format!("{}.irdl.mlir", o.dialect.name)),
            &render(&dialect_template, &o.dialect)?,
        )?;
        write(
            &opts.out.join(name).join(format!("{}.td", o.dialect.name)),
            &render_value(&ods_template, &ods::ods_dialect(&o.dialect, Some(&o.lowerings)))?,
        )?;
        let one_to_one = opts.lit_dir.join("Lower").join(name).join(format!("autollvm-to-{name}.mlir"));
        let tests = one_to_one_tests(&designs[0], name, &o.dialect.name)?;
        write(&one_to_one, &render_value(&opts.templates.join("lower_one_to_one.mlir.tera"), &tests)?)?;
        designs.push(o.dialect.clone());
    }
    write(&opts.out.join("op-variants.json"), &variant_table(&designs.iter().collect::<Vec<_>>())?)?;
    write(&opts.out.join("expansions.json"), &expansions_report(&isas, &designs[0], progress)?)?;
    for design in &designs {
        let path = opts.lit_dir.join("Dialect").join(&design.name).join("roundtrip.mlir");
        write(&path, &render(&opts.templates.join("roundtrip.mlir.tera"), design)?)?;
    }
    Ok(GenSummary { isas, autollvm_ops })
}

/// `expansions.json`: every instruction of every ISA expanded and checked
/// against its semantics ([`crate::expand::report`]).
fn expansions_report(
    isas: &[(&str, IsaOutput)],
    autollvm: &DialectDesign,
    progress: &dyn Progress,
) -> Result<String, GenError> {
    let instructions: usize = isas.iter().map(|(_, o)| o.semantics.len()).sum();
    progress.update("expansions", 0, instructions);
    let per_isa: Vec<_> = isas
        .iter()
        .map(|(_, o)| (o.dialect.name.clone(), crate::expand::report::isa_expansions(&o.dialect.name, &o.semantics)))
        .collect();
    progress.update("expansions", instructions, instructions);
    let mut expansions = crate::expand::report::report(autollvm, &per_isa);
    expansions["_generated_by"] = GENERATED_BY.into();
    Ok(serde_json::to_string_pretty(&expansions)? + "\n")
}

/// One ISA through the pipeline: its front end, its classes, its target
/// dialect (`hydride_<isa>`), its class database and its lowering table.
fn generate_isa(isa: &dyn Isa, opts: &GenOptions, progress: &dyn Progress) -> Result<IsaOutput, GenError> {
    let name = isa.name();
    let fe = isa.front_end(opts, progress)?;
    let semantics = fe.semantics();
    let stage = format!("{name} classify");
    progress.update(&stage, 0, semantics.len());
    let merging = fe.merging();
    let (classes, stats) = classify(semantics, opts.timeout_ms, merging.mask, merging.numbers);
    progress.update(&stage, semantics.len(), semantics.len());
    let lowerings = fe.lowerings(&classes, opts, progress)?;
    let dialect = build::target_dialect(&format!("hydride_{name}"), fe.title(), semantics, GENERATED_BY);
    let fields: Vec<(&str, &str)> = lowerings.database_fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let db = class_database(name, &fields, &classes, |n| lowerings.per_member.get(n))?;
    let mut report = fe.report()?;
    if let Some(coverage) = lowerings.coverage {
        report["llvm_lowering"] = coverage;
    }
    let table = one_entry_per_line(lowerings.table.iter().map(|(op, l)| (op.clone(), l)))?;
    let mut files = vec![(format!("{name}/class-database.json"), db), (format!("{name}/llvm-lowering.json"), table)];
    if let Some(costs) = &lowerings.cpu_costs {
        files.push((format!("{name}/cpu-costs.json"), crate::cpu_costs::table::render(costs, GENERATED_BY)?));
    }
    let lowerings = lowerings.table;
    Ok(IsaOutput { semantics: semantics.to_vec(), classes, stats, dialect, report, files, lowerings })
}

/// The autollvm dialect's instances that lower to `dialect`, for the
/// one-to-one lowering test of `convert-autollvm-to-<isa>`.
fn one_to_one_tests(autollvm: &DialectDesign, isa: &str, dialect: &str) -> Result<serde_json::Value, GenError> {
    let mut design = autollvm.clone();
    for op in &mut design.ops {
        op.examples.retain(|e| e.target.as_ref().is_some_and(|(t, _)| t.starts_with(&format!("{dialect}."))));
    }
    design.ops.retain(|op| !op.examples.is_empty());
    let mut value = serde_json::to_value(&design)?;
    value["isa"] = isa.into();
    Ok(value)
}

/// Each member's lowering (`isa/instruction` → value) from an ISA's class
/// database among its generated files.
fn member_lowerings(isa: &str, files: &[(String, String)]) -> Vec<(String, serde_json::Value)> {
    let Some((_, text)) = files.iter().find(|(rel, _)| rel.ends_with("class-database.json")) else {
        return Vec::new();
    };
    let Ok(db) = serde_json::from_str::<serde_json::Value>(text) else { return Vec::new() };
    db["classes"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|c| c["members"].as_array().into_iter().flatten())
        .filter_map(|m| Some((format!("{isa}/{}", m["intrinsic"].as_str()?), m.get("lowering")?.clone())))
        .filter(|(_, l)| !l.is_null())
        .collect()
}

/// `{"dialect.op": [variant, …], …}`, one op per line: what the plugin's
/// compiled verifier and the one-to-one lowering read.
fn variant_table(designs: &[&DialectDesign]) -> Result<String, GenError> {
    one_entry_per_line(
        designs.iter().flat_map(|d| d.ops.iter().map(move |op| (format!("{}.{}", d.name, op.name), &op.variants))),
    )
}
