// The contract's descriptions are plain text with a little Markdown: paragraphs, lists,
// `code`, **strong** and one fenced block. The page renders them as React elements from
// this reading, never as HTML, so a `<field>` in a description stays text.

export type Inline = { text: string; code?: true; strong?: true };

export type Block = { kind: "p"; inlines: Inline[] } | { kind: "ul" | "ol"; items: Inline[][] } | { kind: "pre"; text: string };

/** inlines splits a text into plain, `code` and **strong** runs. */
export function inlines(text: string): Inline[] {
  const runs: Inline[] = [];
  text.split("`").forEach((part, i) => {
    if (i % 2 === 1) {
      runs.push({ text: part, code: true });
      return;
    }
    part.split("**").forEach((piece, j) => {
      if (piece) runs.push(j % 2 === 1 ? { text: piece, strong: true } : { text: piece });
    });
  });
  return runs;
}

const bullet = /^\s*[-*]\s+/;
const numbered = /^\s*\d+\.\s+/;

/** blocks reads a description into paragraphs, lists and preformatted blocks. A line that
 * follows a list item without a blank line continues that item. */
export function blocks(text: string): Block[] {
  const out: Block[] = [];
  let para: string[] = [];
  let list: { kind: "ul" | "ol"; items: string[] } | null = null;
  let fence: string[] | null = null;
  const flush = () => {
    if (para.length) out.push({ kind: "p", inlines: inlines(para.join(" ")) });
    if (list) out.push({ kind: list.kind, items: list.items.map(inlines) });
    para = [];
    list = null;
  };
  for (const line of text.split("\n")) {
    if (fence) {
      if (line.trim().startsWith("```")) {
        out.push({ kind: "pre", text: fence.join("\n") });
        fence = null;
      } else fence.push(line);
      continue;
    }
    if (line.trim().startsWith("```")) {
      flush();
      fence = [];
      continue;
    }
    if (!line.trim()) {
      flush();
      continue;
    }
    const kind = bullet.test(line) ? "ul" : numbered.test(line) ? "ol" : null;
    if (kind) {
      if (para.length || (list && list.kind !== kind)) flush();
      list ??= { kind, items: [] };
      list.items.push(line.replace(kind === "ul" ? bullet : numbered, ""));
    } else if (list) {
      list.items[list.items.length - 1] += " " + line.trim();
    } else {
      para.push(line.trim());
    }
  }
  if (fence) out.push({ kind: "pre", text: fence.join("\n") });
  flush();
  return out;
}
