//! The front ends under mutation: vendor pseudocode (x86 operations and
//! guide XML, ARM ASL, HVX C semantics) and the YAML corrections, each fed
//! seeded mutants of real inputs (truncations, deleted, repeated and
//! swapped spans, inserted tokens, edge numbers). No front end may panic,
//! and every error must name its entry and a position in it.
//!
//! `HYDRIDE_FUZZ_CASES` (default 400 per front end) and
//! `HYDRIDE_FUZZ_SEED` (default 1) set the run; a failing case is written
//! to `target/front-end-fuzz/` and named in the test's failure.
//! `HYDRIDE_FUZZ_TRACE=1` names each case as it starts and keeps its input
//! there as `<front end>-current.txt`, for a case that hangs or runs out of
//! memory.

use dialectgen::isa::arm::asl::{instrs, parser};
use dialectgen::isa::hvx::c::macros::MacroTable;
use dialectgen::isa::hvx::c::translate::Arith;
use dialectgen::isa::hvx::data::HvxSources;
use dialectgen::isa::hvx::{front, manual};
use dialectgen::isa::x86::corrections::Corrections;
use dialectgen::isa::x86::{guide, load_guide, lower_entry};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

mod common;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn isa_data() -> PathBuf {
    std::env::var("HYDRIDE_ISA_DATA").map(PathBuf::from).unwrap_or_else(|_| repo().join("../shared/isa-data"))
}

fn cases() -> usize {
    std::env::var("HYDRIDE_FUZZ_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(400)
}

fn seed() -> u64 {
    std::env::var("HYDRIDE_FUZZ_SEED").ok().and_then(|c| c.parse().ok()).unwrap_or(1)
}

/// The library's seedable generator, one stream per front end: the same
/// cases for the same seed on every machine.
struct Rng(dialectgen::validate::cases::Rng);

impl Rng {
    fn new(seed: u64, stream: &str) -> Rng {
        Rng(dialectgen::validate::cases::Rng::new(dialectgen::validate::cases::seed_of(stream) ^ seed))
    }
    fn below(&mut self, n: usize) -> usize {
        self.0.below(n.max(1) as u64) as usize
    }
}

/// Tokens the mutator inserts: each language's keywords and punctuation,
/// and numbers at the edges.
const DICTIONARY: &[&str] = &[
    "FOR",
    "ENDFOR",
    "IF",
    "ELSE",
    "FI",
    "CASE",
    "ESAC",
    "DEFINE",
    "RETURN",
    "to",
    "TO",
    "DOWNTO",
    ":=",
    "[",
    "]",
    "(",
    ")",
    "{",
    "}",
    ":",
    ";",
    ",",
    ".",
    "..",
    "<<",
    ">>",
    "?",
    "+",
    "-",
    "*",
    "/",
    "%",
    "==",
    "!=",
    "<=",
    "&&",
    "||",
    "!",
    "~",
    "0",
    "-1",
    "63",
    "64",
    "65",
    "128",
    "4294967296",
    "18446744073709551616",
    "99999999999999999999999999999999",
    "-2147483648",
    "0x",
    "0xFFFFFFFFFFFFFFFFFFFF",
    "'1'",
    "'",
    "\"",
    "\\",
    "\n",
    "\t",
    "    ",
    "dst",
    "a",
    "i",
    "j",
    "tmp",
    ".byte",
    ".word",
    ".dword[",
    "bit[",
    "MAX",
    "NaN",
    "if",
    "then",
    "else",
    "elsif",
    "end",
    "case",
    "of",
    "when",
    "otherwise",
    "bits(",
    "integer",
    "boolean",
    "UInt(",
    "SInt(",
    "Elem[",
    "for",
    "while",
    "int",
    "short",
    "fVSATB(",
    "#",
    "- ",
    "---",
    "-",
    "key:",
    "null",
    "~",
    "[]",
    "{}",
    "&anchor",
    "*anchor",
    "!!str",
    "|",
    ">",
];

/// One mutant of `text`: one to four edits, each keeping it valid UTF-8.
fn mutate(rng: &mut Rng, text: &str) -> String {
    let mut s: Vec<char> = text.chars().collect();
    for _ in 0..1 + rng.below(4) {
        let n = s.len();
        let at = rng.below(n + 1);
        let span = 1 + rng.below(16);
        match rng.below(8) {
            0 => s.truncate(at),
            1 => {
                s.drain(at..(at + span).min(n));
            }
            2 => {
                let piece: Vec<char> = s[at..(at + span).min(n)].to_vec();
                let to = rng.below(n + 1);
                s.splice(to..to, piece.iter().cycle().take(piece.len() * (1 + rng.below(8))).copied());
            }
            3 | 4 => {
                let token = DICTIONARY[rng.below(DICTIONARY.len())];
                s.splice(at..at, token.chars());
            }
            5 if at < n => s[at] = char::from(b' ' + (rng.below(95) as u8)),
            6 => {
                // Two lines swapped.
                let text: String = s.iter().collect();
                let mut lines: Vec<&str> = text.split('\n').collect();
                let (x, y) = (rng.below(lines.len()), rng.below(lines.len()));
                lines.swap(x, y);
                s = lines.join("\n").chars().collect();
            }
            _ => {
                // A number replaced by an edge number.
                if let Some(d) =
                    (0..n).map(|k| (at + k) % n.max(1)).find(|&k| s.get(k).is_some_and(char::is_ascii_digit))
                {
                    let end = (d..n).find(|&k| !s[k].is_ascii_digit()).unwrap_or(n);
                    let edge = ["0", "4294967295", "18446744073709551616", "999999999999999999999", "65"][rng.below(5)];
                    s.splice(d..end, edge.chars());
                }
            }
        }
    }
    s.into_iter().collect()
}

/// The cases that failed: what, and the file holding the input.
#[derive(Default)]
struct Failures(Vec<String>);

impl Failures {
    /// Runs `check` on `input`; a panic or a broken property (`Err`) is
    /// recorded with the input written to `target/front-end-fuzz/`.
    fn check(&mut self, front_end: &str, case: usize, input: &str, check: impl FnOnce() -> Result<(), String>) {
        let dir = repo().join("target").join("front-end-fuzz");
        if std::env::var_os("HYDRIDE_FUZZ_TRACE").is_some() {
            // A case that hangs or exhausts memory never returns: leave it behind first.
            eprintln!("{front_end} case {case}");
            let _ = std::fs::create_dir_all(&dir);
            let _ = std::fs::write(dir.join(format!("{front_end}-current.txt")), input);
        }
        let verdict = match catch_unwind(AssertUnwindSafe(check)) {
            Ok(Ok(())) => return,
            Ok(Err(e)) => e,
            Err(panic) => {
                let text = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                format!("panicked: {text}")
            }
        };
        let _ = std::fs::create_dir_all(&dir);
        let path = dir.join(format!("{front_end}-seed{}-case{case}.txt", seed()));
        let _ = std::fs::write(&path, input);
        self.0.push(format!("{front_end} case {case} ({}): {verdict}", path.display()));
    }

    fn assert_none(self, front_end: &str, tried: usize) {
        eprintln!("{front_end}: {tried} mutants, {} failures", self.0.len());
        assert!(self.0.is_empty(), "{} of {tried} mutants failed:\n{}", self.0.len(), self.0.join("\n"));
    }
}

/// `file:line` at the end of a location, with a line of at least 1.
fn has_line(text: &str) -> bool {
    text.split(':').skip(1).any(|part| {
        part.trim().split(|c: char| !c.is_ascii_digit()).next().is_some_and(|d| d.parse::<u32>().is_ok_and(|l| l >= 1))
    })
}

/// x86: each mutated `<operation>` of a sample of the guide's entries is
/// parsed and type-checked; a failure must give the guide line it is at.
#[test]
fn x86_operations_fail_located() {
    let dir = isa_data().join("x86");
    if !dir.join("relevant.x86.xml").exists() {
        return common::skip("no x86 vendor data");
    }
    let guide = load_guide(&dir).expect("the guide loads");
    let sample: Vec<_> = guide.entries.iter().filter(|e| e.operation.is_some()).step_by(23).collect();
    let none = Corrections::default();
    let mut rng = Rng::new(seed(), "x86 operations");
    let mut failures = Failures::default();
    for case in 0..cases() {
        let mut entry = sample[rng.below(sample.len())].clone();
        let operation = mutate(&mut rng, entry.operation.as_deref().unwrap_or_default());
        entry.operation = Some(operation.clone());
        failures.check("x86-operation", case, &format!("{}\n{operation}", entry.name), || {
            match lower_entry(&entry, &none) {
                Ok(_) => Ok(()),
                Err(f) => match &f.location {
                    Some(at) if has_line(at) => Ok(()),
                    _ => Err(format!("{} {}: no guide line: {} ({:?})", entry.name, f.stage, f.message, f.location)),
                },
            }
        });
    }
    failures.assert_none("x86 operations", cases());
}

/// x86: mutants of a guide file of 40 intrinsics. The file is read (an
/// error names the file and line; a skipped entry its line) and each entry
/// read is lowered.
#[test]
fn x86_guide_files_fail_located() {
    let path = isa_data().join("x86").join("relevant.x86.xml");
    let Ok(text) = std::fs::read_to_string(&path) else { return common::skip("no x86 vendor data") };
    let end = text.match_indices("</intrinsic>").nth(39).map(|(i, m)| i + m.len()).expect("40 intrinsics");
    let seed_text = format!("{}\n</intrinsics_list>\n", &text[..end]);
    let work = tempfile::tempdir().unwrap();
    let file = work.path().join("guide.xml");
    let none = Corrections::default();
    let mut rng = Rng::new(seed(), "x86 guide");
    let mut failures = Failures::default();
    let count = cases() / 4;
    for case in 0..count {
        let mutant = mutate(&mut rng, &seed_text);
        std::fs::write(&file, &mutant).unwrap();
        failures.check("x86-guide", case, &mutant, || match guide::read_guide(&file) {
            Err(e) => {
                let m = e.to_string();
                (m.contains("guide.xml") && has_line(&m)).then_some(()).ok_or(format!("unlocated: {m}"))
            }
            Ok(g) => {
                if let Some(s) = g.skipped.iter().find(|s| s.line == 0) {
                    return Err(format!("skipped entry {} without a line: {}", s.name, s.reason));
                }
                for entry in &g.entries {
                    if let Err(f) = lower_entry(entry, &none) {
                        if !f.location.as_deref().is_some_and(has_line) {
                            return Err(format!("{} {}: no guide line: {}", entry.name, f.stage, f.message));
                        }
                    }
                }
                Ok(())
            }
        });
    }
    failures.assert_none("x86 guide files", count);
}

/// The YAML the project keeps beside the vendor data (corrections, macro
/// tables), mutated: loading never panics, and an error names the file
/// and a line in it or the entry at fault.
#[test]
fn yaml_corrections_fail_located() {
    type Loader = fn(&Path) -> Result<(), String>;
    let loaders: [(&str, Loader); 6] = [
        ("x86/corrections.yaml", |p| Corrections::load(p).map(drop).map_err(|e| e.to_string())),
        ("arm/corrections.yaml", |p| {
            dialectgen::isa::arm::corrections::Corrections::load(p).map(drop).map_err(|e| e.to_string())
        }),
        ("hvx/corrections.yaml", |p| manual::read_corrections(p).map(drop).map_err(|e| e.to_string())),
        ("hvx/definition-corrections.yaml", |p| front::load_corrections(p).map(drop).map_err(|e| e.to_string())),
        ("hvx/macros.yaml", |p| MacroTable::load(p, Some("f")).map(drop).map_err(|e| e.to_string())),
        ("hvx/manual-macros.yaml", |p| MacroTable::load(p, None).map(drop).map_err(|e| e.to_string())),
    ];
    let work = tempfile::tempdir().unwrap();
    let mut failures = Failures::default();
    let mut tried = 0;
    for (name, load) in loaders {
        let seed_text = std::fs::read_to_string(repo().join("isa-specs").join(name)).expect("the project's YAML");
        let file = work.path().join(name.replace('/', "-"));
        let mut rng = Rng::new(seed(), name);
        for case in 0..cases() / 4 {
            let mutant = mutate(&mut rng, &seed_text);
            std::fs::write(&file, &mutant).unwrap();
            tried += 1;
            failures.check(&name.replace('/', "-"), case, &mutant, || match load(&file) {
                Ok(()) => Ok(()),
                Err(m)
                    if m.contains(&*file.to_string_lossy())
                        && (m.contains("line ") || m.contains('#') || m.contains('`')) =>
                {
                    Ok(())
                }
                Err(m) => Err(format!("unlocated: {m}")),
            });
        }
    }
    failures.assert_none("YAML corrections", tried);
}

/// ARM: mutants of the project's ASL fixture file. The file is split into
/// instructions (an error names its line) and every block is parsed (an
/// error names a line inside the block).
#[test]
fn arm_asl_fails_located() {
    let path = repo().join("dialectgen/tests/fixtures/arm/asl/arch_instrs.asl");
    let seed_text = std::fs::read_to_string(&path).expect("the ASL fixture");
    let mut rng = Rng::new(seed(), "arm asl");
    let mut failures = Failures::default();
    for case in 0..cases() {
        let mutant = mutate(&mut rng, &seed_text);
        failures.check("arm-asl", case, &mutant, || match instrs::parse(&mutant, &path) {
            Err(e) => {
                let m = e.to_string();
                has_line(&m).then_some(()).ok_or(format!("unlocated: {m}"))
            }
            Ok(file) => {
                let blocks = file
                    .instructions
                    .iter()
                    .flat_map(|i| {
                        std::iter::once((&i.name, &i.execute)).chain(i.postdecode.iter().map(|b| (&i.name, b)))
                    })
                    .chain(file.encodings.iter().map(|e| (&e.name, &e.decode)));
                for (name, block) in blocks {
                    let last = block.line + block.text.lines().count() as u32;
                    if let Err(e) = parser::parse_block(&block.text, block.line) {
                        if e.span.line < block.line.max(1) || e.span.line > last.max(block.line) {
                            return Err(format!(
                                "{name}: error at {} outside lines {}..{last}: {}",
                                e.span, block.line, e.message
                            ));
                        }
                    }
                }
                Ok(())
            }
        });
    }
    failures.assert_none("ARM ASL", cases());
}

/// HVX: the semantics of a sample of the definitions in scope, mutated and
/// translated with their bindings: a fault names the definition and the
/// position of its token.
#[test]
fn hvx_semantics_fail_located() {
    let sources = HvxSources::under(&isa_data());
    if !sources.definitions.exists() {
        return common::skip("no HVX vendor data");
    }
    let macros = MacroTable::load(&repo().join("isa-specs/hvx/macros.yaml"), Some("f")).expect("macro table loads");
    let bound = front::bindings(&sources).expect("definitions read");
    let sample: Vec<_> = bound.iter().step_by(7).collect();
    let mut rng = Rng::new(seed(), "hvx semantics");
    let mut failures = Failures::default();
    for case in 0..cases() {
        let (def, binding) = sample[rng.below(sample.len())];
        let text = mutate(&mut rng, &def.semantics);
        failures.check("hvx-semantics", case, &format!("{}\n{text}", def.tag), || {
            match front::translate(&def.tag, &text, binding, &macros, Arith::C).0 {
                Ok(_) => Ok(()),
                Err(f) if f.tag == def.tag && f.at.is_some() => Ok(()),
                Err(f) => Err(format!("{} {}: no position: {}", f.tag, f.stage, f.message)),
            }
        });
    }
    failures.assert_none("HVX semantics", cases());
}
