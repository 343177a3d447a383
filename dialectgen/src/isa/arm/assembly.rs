//! An intrinsic's instruction written as assembly, with the register
//! numbering every ARM tool of hydride shares (destination `v0`, then `n`,
//! `m`, `a` in `v1`, `v2`, `v3`), and its encoding by the LLVM assembler.

use super::bind::role_register;
use super::intrinsics::Intrinsic;
use std::path::Path;
use std::process::{Command, Stdio};

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum AssemblyError {
    #[error("operand `{0}` cannot be written as assembly")]
    Operand(String),
    #[error("immediate `{0}` has no value")]
    MissingImmediate(String),
}

#[derive(Debug, thiserror::Error)]
pub enum EncodeError {
    #[error("cannot run {program}: {source}")]
    Run { program: String, source: std::io::Error },
}

/// Why one line has no encoding.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LineError {
    /// The assembler's message for the line.
    #[error("{0}")]
    Rejected(String),
    #[error("no encoding printed")]
    NoEncoding,
}

/// The LLVM assembler and the extensions the intrinsics use.
pub const LLVM_MC: &str = "llvm-mc-22";
pub const MATTR: &str = "-mattr=+v8.6a,+i8mm,+dotprod,+sha3,+rdm";

fn register(role: char) -> Option<u32> {
    role_register(role)
}

/// The value of an immediate operand: a literal, an argument (`n`), or an
/// argument scaled by a shift or factor (`(n<<1)`, the byte position of an
/// element index).
pub fn immediate_value(text: &str, imms: &[(String, i64)]) -> Option<i64> {
    let t = text.trim().trim_start_matches('(').trim_end_matches(')').trim();
    if let Ok(v) = t.parse::<i64>() {
        return Some(v);
    }
    let arg = |n: &str| imms.iter().find(|(name, _)| name == n.trim()).map(|(_, v)| *v);
    if let Some((n, k)) = t.split_once("<<") {
        return Some(arg(n)? << k.trim().parse::<u32>().ok()?);
    }
    if let Some((n, k)) = t.split_once('*') {
        return Some(arg(n)? * k.trim().parse::<i64>().ok()?);
    }
    arg(t)
}

/// One operand: `Vd.8H` → `v0.8h`, `Hm` → `h2`, `{Vn.16B}` → `{v1.16b}`,
/// `Vm.4B[lane]` → `v2.4b[1]`, `#n` → `#3`.
fn operand(op: &str, imms: &[(String, i64)]) -> Result<String, AssemblyError> {
    let op = op.trim();
    if let Some(text) = op.strip_prefix('#') {
        return match immediate_value(text, imms) {
            Some(v) => Ok(format!("#{v}")),
            None => Err(AssemblyError::MissingImmediate(text.to_string())),
        };
    }
    if imms.iter().any(|(n, _)| n == op) {
        // An immediate written without `#` (`XAR …, imm6`).
        return Ok(format!("#{}", immediate_value(op, imms).unwrap_or(0)));
    }
    if let Some(inner) = op.strip_prefix('{').and_then(|r| r.strip_suffix('}')) {
        return Ok(format!("{{{}}}", operand(inner, imms)?));
    }
    let (reg, index) = match op.split_once('[') {
        Some((r, rest)) => (r, Some(rest.trim_end_matches(']'))),
        None => (op, None),
    };
    let mut chars = reg.chars();
    let (Some(kind), Some(role)) = (chars.next(), chars.next()) else { return Err(AssemblyError::Operand(op.into())) };
    let n = register(role).ok_or_else(|| AssemblyError::Operand(op.into()))?;
    let rest: String = chars.collect();
    let mut text = match kind {
        'V' => format!("v{n}{}", rest.to_lowercase()),
        'B' | 'H' | 'S' | 'D' | 'Q' if rest.is_empty() => format!("{}{n}", kind.to_ascii_lowercase()),
        _ => return Err(AssemblyError::Operand(op.into())),
    };
    if let Some(idx) = index {
        let v = match idx.parse::<i64>() {
            Ok(v) => v,
            Err(_) => imms
                .iter()
                .find(|(n, _)| n == idx)
                .map(|(_, v)| *v)
                .ok_or_else(|| AssemblyError::MissingImmediate(idx.into()))?,
        };
        text.push_str(&format!("[{v}]"));
    }
    Ok(text)
}

/// The instruction as assembly, immediates given by argument name.
pub fn assembly_text(i: &Intrinsic, imms: &[(String, i64)]) -> Result<String, AssemblyError> {
    let mnemonic = i.instructions.first().ok_or_else(|| AssemblyError::Operand(i.operands.clone()))?.to_lowercase();
    // Split at commas outside braces.
    let mut ops = Vec::new();
    let mut depth = 0;
    let mut cur = String::new();
    for c in i.operands.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                ops.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    ops.push(cur);
    let written: Vec<String> =
        ops.iter().filter(|o| !o.trim().is_empty()).map(|o| operand(o, imms)).collect::<Result<_, _>>()?;
    Ok(format!("{mnemonic} {}", written.join(", ")))
}

/// Encodes many lines with one call of the LLVM assembler; per line its
/// 32-bit instruction word or the assembler's error.
pub fn encode(lines: &[String]) -> Result<Vec<Result<u32, LineError>>, EncodeError> {
    encode_with(Path::new(LLVM_MC), lines)
}

pub fn encode_with(llvm_mc: &Path, lines: &[String]) -> Result<Vec<Result<u32, LineError>>, EncodeError> {
    let run = |input: String| -> Result<std::process::Output, EncodeError> {
        let mut child = Command::new(llvm_mc)
            .args(["-triple=aarch64", MATTR, "--show-encoding"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|source| EncodeError::Run { program: llvm_mc.display().to_string(), source })?;
        let mut stdin = child.stdin.take().expect("piped");
        let writer = std::thread::spawn(move || std::io::Write::write_all(&mut stdin, input.as_bytes()));
        let out = child
            .wait_with_output()
            .map_err(|source| EncodeError::Run { program: llvm_mc.display().to_string(), source })?;
        let _ = writer.join();
        Ok(out)
    };
    // Newlines inside a line would shift the line numbers errors are reported at.
    let clean: Vec<String> = lines.iter().map(|l| l.replace(['\n', ';'], " ")).collect();
    let out = run(clean.join("\n") + "\n")?;
    let mut errors: std::collections::BTreeMap<usize, String> = std::collections::BTreeMap::new();
    for l in String::from_utf8_lossy(&out.stderr).lines() {
        if let Some(rest) = l.strip_prefix("<stdin>:") {
            let mut parts = rest.splitn(3, ':');
            if let (Some(line), Some(_), Some(msg)) = (parts.next(), parts.next(), parts.next()) {
                if let Ok(n) = line.parse::<usize>() {
                    errors.entry(n - 1).or_insert_with(|| msg.trim().trim_start_matches("error:").trim().to_string());
                }
            }
        }
    }
    let mut words = Vec::new();
    for l in String::from_utf8_lossy(&out.stdout).lines() {
        if let Some(p) = l.find("encoding: [") {
            let bytes: Vec<u32> = l[p + 11..]
                .trim_end_matches(']')
                .split(',')
                .filter_map(|x| u32::from_str_radix(x.trim().trim_start_matches("0x"), 16).ok())
                .collect();
            if bytes.len() == 4 {
                words.push(bytes[0] | bytes[1] << 8 | bytes[2] << 16 | bytes[3] << 24);
            }
        }
    }
    let mut next = words.into_iter();
    Ok((0..lines.len())
        .map(|k| match errors.get(&k) {
            Some(e) => Err(LineError::Rejected(e.clone())),
            None => next.next().ok_or(LineError::NoEncoding),
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::arm::intrinsics::{CType, Intrinsic, IntrinsicArg};

    fn intrinsic(mnemonic: &str, operands: &str, args: Vec<IntrinsicArg>) -> Intrinsic {
        Intrinsic {
            name: "t".into(),
            ret: CType::parse("int8x8_t"),
            args,
            instructions: vec![mnemonic.into()],
            operands: operands.into(),
            group: String::new(),
            operation: String::new(),
            result_register: Some("Vd.8B".into()),
            index: 0,
        }
    }

    #[test]
    fn operands_are_written_with_fixed_registers() {
        let i = intrinsic("SQADD", "Vd.8B,Vn.8B,Vm.8B", vec![]);
        assert_eq!(assembly_text(&i, &[]).unwrap(), "sqadd v0.8b, v1.8b, v2.8b");
        let lane = IntrinsicArg {
            name: "lane".into(),
            c_type: CType::parse("const int"),
            register: None,
            range: Some((0, 1)),
        };
        let i = intrinsic("SDOT", "Vd.4S,Vn.16B,Vm.4B[lane]", vec![lane]);
        assert_eq!(assembly_text(&i, &[("lane".into(), 1)]).unwrap(), "sdot v0.4s, v1.16b, v2.4b[1]");
        let i = intrinsic("TBL", "Vd.8B,{Vn.16B},Vm.8B", vec![]);
        assert_eq!(assembly_text(&i, &[]).unwrap(), "tbl v0.8b, {v1.16b}, v2.8b");
        let i = intrinsic("SQSHL", "Bd,Bn,Bm", vec![]);
        assert_eq!(assembly_text(&i, &[]).unwrap(), "sqshl b0, b1, b2");
        let i = intrinsic("SHL", "Vd.8B,Vn.8B,#n", vec![]);
        assert!(matches!(assembly_text(&i, &[]), Err(AssemblyError::MissingImmediate(_))));
        let i = intrinsic("EXT", "Vd.8B,Vn.8B,Vm.8B,#(n<<1)", vec![]);
        assert_eq!(assembly_text(&i, &[("n".into(), 3)]).unwrap(), "ext v0.8b, v1.8b, v2.8b, #6");
    }

    #[test]
    fn encodings_come_from_the_assembler() {
        if Command::new(LLVM_MC).arg("--version").output().is_err() {
            crate::isa::arm::assembly::tests::skip("llvm-mc-22 is not installed");
            return;
        }
        let r =
            encode(&["sqadd v0.8b, v1.8b, v2.8b".into(), "bogus v0".into(), "add v0.4s, v1.4s, v2.4s".into()]).unwrap();
        assert_eq!(r[0], Ok(0x0e220c20));
        assert!(r[1].is_err());
        assert_eq!(r[2], Ok(0x4ea28420));
    }

    pub(crate) fn skip(why: &str) {
        assert!(std::env::var_os("CI").is_none(), "required in CI: {why}");
        eprintln!("SKIPPED: {why}");
    }
}
