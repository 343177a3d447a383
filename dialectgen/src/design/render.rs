//! Rendering designs with the tera templates of `templates/`.

use super::DialectDesign;
use std::path::Path;

#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error("template {path}: {source}")]
    Template { path: String, source: tera::Error },
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// Renders `design` with the template file `template`.
pub fn render(template: &Path, design: &DialectDesign) -> Result<String, RenderError> {
    render_value(template, design)
}

/// Renders any serializable `value` with the template file `template`.
pub fn render_value(template: &Path, design: &impl serde::Serialize) -> Result<String, RenderError> {
    let text = std::fs::read_to_string(template)?;
    let mut tera = tera::Tera::default();
    let name = template.display().to_string();
    tera.add_raw_template(&name, &text).map_err(|source| RenderError::Template { path: name.clone(), source })?;
    let context =
        tera::Context::from_serialize(design).map_err(|source| RenderError::Template { path: name.clone(), source })?;
    tera.render(&name, &context).map_err(|source| RenderError::Template { path: name, source })
}
