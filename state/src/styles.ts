/** Sheets this module adopted, by id (an id is adopted once). */
const adopted = new Map<string, CSSStyleSheet>();

/**
 * Each remote ships its own CSS as a string and injects it once, so a remote deployed alone
 * brings its styles with it and no global stylesheet has to know about it. The CSS is adopted
 * as a constructed stylesheet, which the Content-Security-Policy does not treat as inline code
 * (a <style> element would need its hash in the shell's policy, fixed at the shell's build).
 * An element with the id (a prerendered page's linked stylesheet) means the styles are there.
 */
export function injectStyles(id: string, css: string): void {
  if (typeof document === 'undefined' || hasStyles(id)) return;
  if (!('adoptedStyleSheets' in document) || typeof CSSStyleSheet.prototype.replaceSync !== 'function') {
    // Test DOMs (jsdom) without constructed stylesheets.
    const style = document.createElement('style');
    style.id = id;
    style.textContent = css;
    document.head.appendChild(style);
    return;
  }
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  adopted.set(id, sheet);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}

/** Whether the styles `id` are on the page (injected here, or an element with that id). */
export function hasStyles(id: string): boolean {
  return adopted.has(id) || document.getElementById(id) !== null;
}
