// Templates as the workflow engine renders them (models/automation/template.go): every
// {{ path }} is replaced with the value at that path, and a path with no value renders as
// nothing. The preview gives each path a sample value.

const pattern = /\{\{\s*([A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*)\s*\}\}/g;

/** templatePaths lists the paths the texts reference, each once, in order. */
export function templatePaths(...texts: string[]): string[] {
  const out: string[] = [];
  for (const text of texts) {
    for (const m of text.matchAll(pattern)) if (!out.includes(m[1])) out.push(m[1]);
  }
  return out;
}

/** renderTemplate is the text with each {{ path }} replaced by its sample ("" when none). */
export function renderTemplate(text: string, samples: Record<string, string>): string {
  return text.replace(pattern, (_whole, path: string) => samples[path] ?? "");
}
