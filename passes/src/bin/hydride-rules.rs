//! `hydride-rules`: synthesizes and proves the offline rewrite rules
//! (`hydride::synth::rules`) of every ISA that has them and writes them as
//! JSON.

use hydride::synth::grammar::Grammar;
use hydride::synth::rules::isas_with_rules;

const USAGE: &str = "usage: hydride-rules [--generated-dir DIR | --out FILE]

For every ISA whose target declares offline rules, finds, for every idiom
of passes/src/synth/idioms.rs at each of its widths and targets, the
cheapest program of the target's instructions that computes it, proves it
with Z3, proves the identities windows may be rewritten by, and writes them
to <isa>/rules.json under DIR (default: generated), or to FILE where one
ISA has rules. lower-to-autollvm applies them by equality saturation before
it searches. Progress goes to stderr.";

fn main() {
    let mut out = None;
    let mut generated = "generated".to_string();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--out" => match args.next() {
                Some(f) => out = Some(f),
                None => fail("--out needs a file"),
            },
            "--generated-dir" => match args.next() {
                Some(d) => generated = d,
                None => fail("--generated-dir needs a directory"),
            },
            "-h" | "--help" => {
                println!("{USAGE}");
                return;
            }
            other => fail(&format!("unknown argument `{other}`")),
        }
    }
    let isas: Vec<_> = isas_with_rules().collect();
    if out.is_some() && isas.len() != 1 {
        fail(&format!("--out names one file, and {} ISAs have offline rules; use --generated-dir", isas.len()));
    }
    for (isa, offline) in isas {
        let file = out.clone().unwrap_or_else(|| format!("{generated}/{}/rules.json", isa.name()));
        let started = std::time::Instant::now();
        let grammar = Grammar::embedded(isa).unwrap_or_else(|e| fail(&e.to_string()));
        let mut report = |line: String| eprintln!("hydride-rules: {line}");
        let set = hydride::synth::rules::generate(grammar, &mut report).unwrap_or_else(|e| fail(&e.to_string()));
        let mut text = serde_json::to_string_pretty(&set).unwrap_or_else(|e| fail(&e.to_string()));
        text.push('\n');
        std::fs::write(&file, text).unwrap_or_else(|e| fail(&format!("{file}: {e}")));
        eprintln!(
            "hydride-rules: {} rules from {} idioms x {} targets and {} proved identities in {:.1} s, written to {file}",
            set.rules.len(),
            set.idioms,
            offline.targets.len(),
            set.equalities.len(),
            started.elapsed().as_secs_f64()
        );
    }
}

fn fail(why: &str) -> ! {
    eprintln!("hydride-rules: {why}");
    std::process::exit(2)
}
