//! Names and string literals as TableGen and the C++ it generates take them.

/// A snake_case name as a TableGen record or C++ type name: `op_variant`
/// is `OpVariant`, `masking` is `Masking`.
pub fn camel_case(name: &str) -> String {
    name.split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next().map(|f| f.to_ascii_uppercase().to_string() + c.as_str()).unwrap_or_default()
        })
        .collect()
}

/// `s` safe inside a TableGen string literal.
pub fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}
