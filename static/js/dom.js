// Markup helpers. The pages run under a strict Content-Security-Policy (style-src 'self'):
// markup never carries an inline style attribute. Markup that needs per-element CSS (grid
// places, custom properties, animation delays) says it in data-css="prop: value; ..." and
// applyStyles() sets it through the CSSOM, which the policy allows.

export function css(declarations) {
  return declarations ? ` data-css="${declarations.replace(/"/g, "&quot;")}"` : "";
}

export function applyStyles(root) {
  for (const el of root.querySelectorAll("[data-css]")) {
    for (const declaration of el.dataset.css.split(";")) {
      const at = declaration.indexOf(":");
      if (at > 0) el.style.setProperty(declaration.slice(0, at).trim(), declaration.slice(at + 1).trim());
    }
  }
}
