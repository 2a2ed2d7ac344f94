// Payloads can be megabytes (an http.request's body). Pretty-printing one whole, or putting
// it in the page, would freeze it; the inspector shows a bounded preview and more on demand.

/** PayloadPreview is the first part of a value's pretty JSON. */
export type PayloadPreview = {
  text: string;
  /** complete tells whether text is the whole value. */
  complete: boolean;
};

/** previewJson writes the value as indented JSON until maxChars, then stops walking it, so
 * its cost follows the preview, not the value. */
export function previewJson(value: unknown, maxChars: number): PayloadPreview {
  const out: string[] = [];
  let length = 0;
  const write = (s: string): boolean => {
    out.push(s);
    length += s.length;
    return length <= maxChars;
  };
  const walk = (v: unknown, indent: string): boolean => {
    // A long string is cut before it is quoted: its rest would not be shown anyway.
    if (typeof v === "string" && v.length > maxChars) return write(JSON.stringify(v.slice(0, maxChars + 1)));
    if (v === null || typeof v !== "object") return write(JSON.stringify(v) ?? "null");
    const inner = indent + "  ";
    const entries: [string | null, unknown][] = Array.isArray(v) ? v.map((x) => [null, x]) : Object.entries(v);
    const [open, close] = Array.isArray(v) ? ["[", "]"] : ["{", "}"];
    if (entries.length === 0) return write(open + close);
    if (!write(open + "\n")) return false;
    for (let i = 0; i < entries.length; i++) {
      const [key, item] = entries[i];
      if (!write(inner + (key === null ? "" : JSON.stringify(key) + ": "))) return false;
      if (!walk(item, inner)) return false;
      if (!write(i < entries.length - 1 ? ",\n" : "\n")) return false;
    }
    return write(indent + close);
  };
  const complete = walk(value, "");
  const text = out.join("");
  return { text: complete ? text : text.slice(0, maxChars), complete };
}

/** isEmptyPayload tells a payload with nothing in it, shown as a word instead of {}. */
export function isEmptyPayload(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === "object" && Object.keys(value).length === 0);
}
