//! Reader for Intel Intrinsics Guide XML (`<intrinsics_list>` of `<intrinsic>`).

use std::path::{Path, PathBuf};

#[derive(Clone, Debug, PartialEq)]
pub struct GuideParam {
    pub c_type: String,
    pub varname: String,
    pub etype: String,
    pub immwidth: Option<u32>,
    /// What an immediate stands for (`_MM_CMPINT`: a comparison predicate).
    pub immtype: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct GuideInstruction {
    pub name: String,
    pub form: String,
}

/// One `<intrinsic>` entry, as written in the guide.
#[derive(Clone, Debug, PartialEq)]
pub struct GuideEntry {
    pub name: String,
    pub tech: String,
    pub cpuids: Vec<String>,
    pub categories: Vec<String>,
    pub types: Vec<String>,
    pub ret: GuideParam,
    pub params: Vec<GuideParam>,
    pub operation: Option<String>,
    pub instructions: Vec<GuideInstruction>,
    pub file: PathBuf,
    /// Line of the `<intrinsic>` element in `file`.
    pub line: u32,
    /// Line in `file` where the operation text starts.
    pub operation_line: u32,
}

#[derive(Debug, thiserror::Error)]
pub enum GuideError {
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{path}:{line}: malformed XML: {message}")]
    Xml { path: PathBuf, line: u32, message: String },
    // Why one `<intrinsic>` entry is skipped (its `SkippedEntry::reason`).
    #[error("missing `{0}`")]
    MissingAttribute(&'static str),
    #[error("missing <return>")]
    MissingReturn,
    #[error("a `{c_type}` parameter without `varname`")]
    UnnamedParameter { c_type: String },
    #[error("a `{c_type}` return without `varname`")]
    UnnamedReturn { c_type: String },
}

/// A malformed `<intrinsic>` element that was skipped.
#[derive(Clone, Debug, PartialEq)]
pub struct SkippedEntry {
    pub name: String,
    pub file: PathBuf,
    pub line: u32,
    pub reason: String,
}

pub struct Guide {
    pub entries: Vec<GuideEntry>,
    pub skipped: Vec<SkippedEntry>,
}

/// Byte offsets of line starts, for turning XML positions into line numbers.
struct LineIndex(Vec<usize>);

impl LineIndex {
    fn new(text: &str) -> LineIndex {
        LineIndex(std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect())
    }
    fn line_of(&self, byte: usize) -> u32 {
        self.0.partition_point(|start| *start <= byte) as u32
    }
}

fn param(node: roxmltree::Node) -> Result<GuideParam, GuideError> {
    let c_type = node.attribute("type").ok_or(GuideError::MissingAttribute("type"))?.trim().to_string();
    Ok(GuideParam {
        c_type,
        varname: node.attribute("varname").unwrap_or("").to_string(),
        etype: node.attribute("etype").unwrap_or("").to_string(),
        immwidth: node.attribute("immwidth").and_then(|w| w.parse().ok()),
        immtype: node.attribute("immtype").map(str::to_string),
    })
}

fn entry(node: roxmltree::Node, lines: &LineIndex, base: usize, path: &Path) -> Result<GuideEntry, GuideError> {
    let name = node.attribute("name").ok_or(GuideError::MissingAttribute("name"))?.to_string();
    fn children<'a, 'i>(
        node: roxmltree::Node<'a, 'i>,
        tag: &'static str,
    ) -> impl Iterator<Item = roxmltree::Node<'a, 'i>> {
        node.children().filter(move |c| c.has_tag_name(tag))
    }
    let texts = |tag: &'static str| {
        children(node, tag).filter_map(|c| c.text()).map(|t| t.trim().to_string()).collect::<Vec<_>>()
    };
    let ret = match children(node, "return").next() {
        Some(r) => param(r)?,
        None => return Err(GuideError::MissingReturn),
    };
    let params = children(node, "parameter").map(param).collect::<Result<Vec<_>, _>>()?;
    // `void` as the only parameter means no parameters.
    let params: Vec<GuideParam> =
        params.into_iter().filter(|p| !(p.c_type == "void" && p.varname.is_empty())).collect();
    if let Some(p) = params.iter().find(|p| p.varname.is_empty()) {
        return Err(GuideError::UnnamedParameter { c_type: p.c_type.clone() });
    }
    if !ret.c_type.contains("void") && ret.varname.is_empty() {
        return Err(GuideError::UnnamedReturn { c_type: ret.c_type.clone() });
    }
    let op_node = children(node, "operation").next();
    let operation = op_node.and_then(|o| o.text()).map(str::to_string).filter(|t| !t.trim().is_empty());
    let operation_line = op_node.map_or(0, |o| lines.line_of(base + o.range().start));
    Ok(GuideEntry {
        tech: node.attribute("tech").unwrap_or("").to_string(),
        cpuids: texts("CPUID"),
        categories: texts("category"),
        types: texts("type"),
        ret,
        params,
        operation,
        instructions: children(node, "instruction")
            .map(|i| GuideInstruction {
                name: i.attribute("name").unwrap_or("").to_string(),
                form: i.attribute("form").unwrap_or("").to_string(),
            })
            .collect(),
        file: path.to_path_buf(),
        line: lines.line_of(base + node.range().start),
        operation_line,
        name,
    })
}

/// Parses one guide file. Entries that lack required parts are skipped and
/// listed. When the file is not well-formed XML, each `<intrinsic>` element
/// is parsed on its own, so one broken entry costs only itself.
pub fn read_guide(path: &Path) -> Result<Guide, GuideError> {
    let text = std::fs::read_to_string(path).map_err(|source| GuideError::Io { path: path.to_path_buf(), source })?;
    let lines = LineIndex::new(&text);
    let mut guide = Guide { entries: Vec::new(), skipped: Vec::new() };
    match roxmltree::Document::parse(&text) {
        Ok(doc) => {
            for node in doc.root_element().children().filter(|n| n.has_tag_name("intrinsic")) {
                add_entry(&mut guide, node, &lines, 0, path);
            }
        }
        Err(e) => {
            let starts: Vec<usize> = text.match_indices("<intrinsic ").map(|(i, _)| i).collect();
            if starts.is_empty() {
                return Err(GuideError::Xml { path: path.to_path_buf(), line: e.pos().row, message: e.to_string() });
            }
            for (k, &start) in starts.iter().enumerate() {
                let end = starts.get(k + 1).copied().unwrap_or(text.len());
                let chunk = &text[start..end];
                let chunk = chunk.rfind("</intrinsic>").map_or(chunk, |i| &chunk[..i + "</intrinsic>".len()]);
                match roxmltree::Document::parse(chunk) {
                    Ok(doc) => add_entry(&mut guide, doc.root_element(), &lines, start, path),
                    Err(err) => guide.skipped.push(SkippedEntry {
                        name: attribute_in_tag(chunk, "name").unwrap_or_else(|| "?".into()),
                        file: path.to_path_buf(),
                        line: lines.line_of(start) + err.pos().row - 1,
                        reason: format!("malformed XML: {err}"),
                    }),
                }
            }
        }
    }
    Ok(guide)
}

fn add_entry(guide: &mut Guide, node: roxmltree::Node, lines: &LineIndex, base: usize, path: &Path) {
    match entry(node, lines, base, path) {
        Ok(e) => guide.entries.push(e),
        Err(reason) => guide.skipped.push(SkippedEntry {
            name: node.attribute("name").unwrap_or("?").to_string(),
            file: path.to_path_buf(),
            line: lines.line_of(base + node.range().start),
            reason: reason.to_string(),
        }),
    }
}

/// `attr="value"` from the first tag of `xml`, without parsing it.
fn attribute_in_tag(xml: &str, attr: &str) -> Option<String> {
    let tag = &xml[..xml.find('>')?];
    let key = format!("{attr}=\"");
    let start = tag.find(&key)? + key.len();
    Some(tag[start..].split('"').next()?.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_entries_and_skips_malformed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.xml");
        std::fs::write(
            &path,
            "<intrinsics_list>\n<intrinsic tech=\"SSE2\" name=\"_x\">\n<CPUID>SSE2</CPUID>\n<return type=\"__m128i\" varname=\"dst\" etype=\"UI8\"/>\n<parameter type=\"__m128i\" varname=\"a\" etype=\"UI8\"/>\n<operation>\ndst[127:0] := a[127:0]\n</operation>\n<instruction name=\"MOV\" form=\"xmm\"/>\n</intrinsic>\n<intrinsic name=\"_bad\"><CPUID>SSE2</CPUID></intrinsic>\n</intrinsics_list>\n",
        )
        .unwrap();
        let g = read_guide(&path).unwrap();
        assert_eq!(g.entries.len(), 1);
        assert_eq!(g.entries[0].line, 2);
        assert_eq!(g.entries[0].operation_line, 6);
        assert_eq!(g.skipped.len(), 1);
        assert_eq!(g.skipped[0].name, "_bad");
    }

    #[test]
    fn a_broken_entry_costs_only_itself() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.xml");
        let good = "<intrinsic name=\"_ok\"><CPUID>SSE2</CPUID><return type=\"int\" varname=\"dst\" etype=\"UI32\"/></intrinsic>";
        std::fs::write(&path, format!("<intrinsics_list>\n{good}\n<intrinsic name=\"_broken\">\n<CPUID>SSE2</CPU>\n</intrinsic>\n{good}\n</intrinsics_list>")).unwrap();
        let g = read_guide(&path).unwrap();
        assert_eq!(g.entries.len(), 2);
        assert_eq!(g.entries[1].line, 6);
        assert_eq!(g.skipped.len(), 1);
        assert_eq!(g.skipped[0].name, "_broken");
        assert_eq!(g.skipped[0].line, 4);
        assert!(g.skipped[0].reason.starts_with("malformed XML"), "{}", g.skipped[0].reason);
    }

    fn one_entry(dir: &tempfile::TempDir, param: &str, operation: &str) -> Guide {
        let path = dir.path().join("g.xml");
        std::fs::write(
            &path,
            format!("<intrinsics_list>\n<intrinsic tech=\"SSE2\" name=\"_x\">\n<CPUID>SSE2</CPUID>\n<return type=\"__m128i\" varname=\"dst\" etype=\"UI8\"/>\n{param}\n<operation>\n{operation}\n</operation>\n</intrinsic>\n</intrinsics_list>\n"),
        )
        .unwrap();
        read_guide(&path).unwrap()
    }

    #[test]
    fn a_parameter_without_a_name_skips_its_entry() {
        let dir = tempfile::tempdir().unwrap();
        let g = one_entry(&dir, "<parameter type=\"__m128i\" etype=\"UI8\"/>", "dst[127:0] := 0");
        assert!(g.entries.is_empty());
        assert_eq!((g.skipped[0].line, g.skipped[0].reason.as_str()), (2, "a `__m128i` parameter without `varname`"));
    }

    #[test]
    fn a_runaway_loop_is_a_located_error() {
        let dir = tempfile::tempdir().unwrap();
        let param = "<parameter type=\"__m128i\" varname=\"a\" etype=\"UI8\"/>";
        let g = one_entry(&dir, param, "FOR j := 0 to 4294967295\n\ti := j*8\n\tdst[i+7:i] := a[7:0]\nENDFOR");
        let none = crate::isa::x86::corrections::Corrections::default();
        let failure = crate::isa::x86::lower_entry(&g.entries[0], &none).err().expect("the loop is refused");
        assert!(failure.message.contains("runs more than 65536 times"), "{}", failure.message);
        assert!(failure.location.is_some_and(|at| at.ends_with(":7")), "the FOR line of the file");
    }

    #[test]
    fn a_file_without_entries_is_an_error_with_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.xml");
        std::fs::write(&path, "<intrinsics_list>\n<oops>\n</intrinsics_list>").unwrap();
        match read_guide(&path) {
            Err(GuideError::Xml { line, .. }) => assert_eq!(line, 3),
            other => panic!("expected XML error, got {:?}", other.map(|g| g.entries.len())),
        }
    }
}
