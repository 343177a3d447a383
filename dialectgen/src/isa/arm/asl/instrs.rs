//! Reads Arm's instruction file (`arch_instrs.asl`): instructions, their
//! encodings (fields, opcode pattern, decode block) and execute blocks.

use std::path::{Path, PathBuf};

/// A named bit field of an encoding: `__field Q 30 +: 1`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    pub name: String,
    pub lo: u32,
    pub width: u32,
}

/// ASL text and the line of the file it starts at.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Block {
    pub text: String,
    pub line: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Encoding {
    pub name: String,
    pub instruction_set: String,
    pub fields: Vec<Field>,
    /// 32 characters, bit 31 first: `0`, `1` or `x`.
    pub opcode: String,
    pub decode: Block,
    /// Index into [`InstrFile::instructions`].
    pub instruction: usize,
}

impl Encoding {
    pub fn matches(&self, word: u32) -> bool {
        self.opcode.chars().enumerate().all(|(k, c)| {
            let bit = (word >> (31 - k)) & 1;
            match c {
                '0' => bit == 0,
                '1' => bit == 1,
                _ => true,
            }
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instruction {
    pub name: String,
    pub postdecode: Option<Block>,
    pub execute: Block,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InstrFile {
    pub path: PathBuf,
    pub instructions: Vec<Instruction>,
    pub encodings: Vec<Encoding>,
}

#[derive(Debug, thiserror::Error)]
pub enum InstrFileError {
    #[error("{path}: {source}")]
    Read { path: PathBuf, source: std::io::Error },
    #[error("{path}:{line}: {message}")]
    Malformed { path: PathBuf, line: u32, message: String },
}

enum Target {
    None,
    Decode,
    Postdecode,
    Execute,
}

/// Reads `path`.
pub fn read(path: &Path) -> Result<InstrFile, InstrFileError> {
    let text = std::fs::read_to_string(path).map_err(|source| InstrFileError::Read { path: path.into(), source })?;
    parse(&text, path)
}

pub fn parse(text: &str, path: &Path) -> Result<InstrFile, InstrFileError> {
    let mut file = InstrFile { path: path.into(), instructions: Vec::new(), encodings: Vec::new() };
    let mut target = Target::None;
    for (k, line) in text.lines().enumerate() {
        let no = k as u32 + 1;
        let t = line.trim();
        if let Some(rest) = t.strip_prefix("__") {
            target = directive(&mut file, rest, path, no)?;
            continue;
        }
        let block = match target {
            Target::None => {
                if t.is_empty() || t.starts_with("//") {
                    continue;
                }
                return Err(malformed(path, no, "text outside a decode or execute block"));
            }
            Target::Decode => file.encodings.last_mut().map(|e| &mut e.decode),
            Target::Postdecode => file.instructions.last_mut().and_then(|i| i.postdecode.as_mut()),
            Target::Execute => file.instructions.last_mut().map(|i| &mut i.execute),
        };
        if let Some(b) = block {
            b.text.push_str(line);
            b.text.push('\n');
        }
    }
    Ok(file)
}

/// A malformed-file error at `line`.
fn malformed(path: &Path, line: u32, message: &str) -> InstrFileError {
    InstrFileError::Malformed { path: path.into(), line, message: message.into() }
}

/// Applies the directive on line `no` (`rest` is its text after `__`): a new
/// instruction or encoding, an encoding detail, or the start of a block. The
/// block the lines after it belong to.
fn directive(file: &mut InstrFile, rest: &str, path: &Path, no: u32) -> Result<Target, InstrFileError> {
    let bad = |line: u32, message: &str| malformed(path, line, message);
    let mut words = rest.split_whitespace();
    let directive = words.next().unwrap_or("");
    match directive {
        "instruction" => {
            let name = words.next().ok_or_else(|| bad(no, "__instruction without a name"))?;
            file.instructions.push(Instruction { name: name.to_string(), postdecode: None, execute: Block::default() });
            Ok(Target::None)
        }
        "encoding" => {
            let name = words.next().ok_or_else(|| bad(no, "__encoding without a name"))?;
            let instruction =
                file.instructions.len().checked_sub(1).ok_or_else(|| bad(no, "__encoding outside an instruction"))?;
            file.encodings.push(Encoding {
                name: name.to_string(),
                instruction_set: String::new(),
                fields: Vec::new(),
                opcode: String::new(),
                decode: Block::default(),
                instruction,
            });
            Ok(Target::None)
        }
        "instruction_set" | "field" | "opcode" | "guard" | "unpredictable_unless" => {
            let enc = file.encodings.last_mut().ok_or_else(|| bad(no, "encoding detail outside an encoding"))?;
            encoding_detail(enc, directive, words, rest, path, no)?;
            Ok(Target::None)
        }
        "decode" => {
            let enc = file.encodings.last_mut().ok_or_else(|| bad(no, "__decode outside an encoding"))?;
            enc.decode.line = no + 1;
            Ok(Target::Decode)
        }
        "postdecode" => {
            let ins = file.instructions.last_mut().ok_or_else(|| bad(no, "__postdecode outside an instruction"))?;
            ins.postdecode = Some(Block { text: String::new(), line: no + 1 });
            Ok(Target::Postdecode)
        }
        "execute" => {
            let ins = file.instructions.last_mut().ok_or_else(|| bad(no, "__execute outside an instruction"))?;
            ins.execute.line = no + 1;
            Ok(Target::Execute)
        }
        _ => Err(bad(no, &format!("unknown directive __{directive}"))),
    }
}

/// An encoding's `__instruction_set`, `__field` or `__opcode` (`__guard` and
/// `__unpredictable_unless` are not kept); `words` are those after the directive.
fn encoding_detail<'a>(
    enc: &mut Encoding,
    directive: &str,
    mut words: impl Iterator<Item = &'a str>,
    rest: &str,
    path: &Path,
    no: u32,
) -> Result<(), InstrFileError> {
    let bad = |line: u32, message: &str| malformed(path, line, message);
    match directive {
        "instruction_set" => enc.instruction_set = words.next().unwrap_or("").to_string(),
        "field" => {
            let parts: Vec<&str> = words.collect();
            // NAME LO +: WIDTH
            let (Some(name), Some(lo), Some(w)) = (parts.first(), parts.get(1), parts.get(3)) else {
                return Err(bad(no, "malformed __field"));
            };
            let lo = lo.parse().map_err(|_| bad(no, "malformed __field position"))?;
            let width = w.parse().map_err(|_| bad(no, "malformed __field width"))?;
            enc.fields.push(Field { name: name.to_string(), lo, width });
        }
        "opcode" => {
            let pat: String = rest["opcode".len()..].chars().filter(|c| matches!(c, '0' | '1' | 'x')).collect();
            if pat.len() != 32 {
                return Err(bad(no, "opcode pattern is not 32 bits"));
            }
            enc.opcode = pat;
        }
        _ => {}
    }
    Ok(())
}
