/**
 * Each remote ships its own CSS as a string and injects it once, so a remote deployed alone
 * brings its styles with it and no global stylesheet has to know about it.
 */
export function injectStyles(id: string, css: string): void {
  if (typeof document === 'undefined' || document.getElementById(id)) return;
  const style = document.createElement('style');
  style.id = id;
  style.textContent = css;
  document.head.appendChild(style);
}
