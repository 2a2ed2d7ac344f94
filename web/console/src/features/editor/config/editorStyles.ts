// CodeMirror writes its styles into <style> elements in the document's head, which the
// console's Content-Security-Policy (style-src 'self', no nonce) does not apply, leaving the
// editors unstyled. The same rules in a constructed stylesheet adopted by the document are
// allowed, so this copies them there, and again whenever CodeMirror adds rules. Only head
// <style> elements are copied: the page's own HTML has none, React never writes one there,
// so they come from the bundle's own code.
let started = false;

export function adoptEditorStyles() {
  if (started || typeof CSSStyleSheet === "undefined" || !("adoptedStyleSheets" in document)) return;
  started = true;
  const sheet = new CSSStyleSheet();
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  const copy = () => sheet.replaceSync([...document.head.querySelectorAll("style")].map((s) => s.textContent ?? "").join("\n"));
  new MutationObserver(copy).observe(document.head, { childList: true, characterData: true, subtree: true });
  copy();
}
