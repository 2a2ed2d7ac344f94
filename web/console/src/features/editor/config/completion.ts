// Autocompletion of the variables in scope inside a CodeMirror editor: after {{ in a template
// (in text or in JSON strings), anywhere in an expression.
import type { Completion, CompletionContext, CompletionResult, CompletionSource } from "@codemirror/autocomplete";
import type { Variable } from "./scope";

/** How the editor's text reads variables. */
export type EditorLanguage = "template" | "expression" | "json";

const PATH = /[\w.]*$/;

/** variableCompletion offers the variables whose path starts like the word being typed. */
export function variableCompletion(variables: Variable[], language: EditorLanguage): CompletionSource {
  return (ctx: CompletionContext): CompletionResult | null => {
    const line = ctx.state.doc.lineAt(ctx.pos);
    const before = line.text.slice(0, ctx.pos - line.from);
    const word = PATH.exec(before)?.[0] ?? "";
    const from = ctx.pos - word.length;
    let closing = "";
    if (language === "expression") {
      if (!word && !ctx.explicit) return null;
    } else {
      // Only inside an open {{ … with nothing but spaces between it and the path.
      const open = before.lastIndexOf("{{");
      if (open < 0 || before.lastIndexOf("}}") > open) return null;
      if (before.slice(open + 2, before.length - word.length).trim() !== "") return null;
      const after = line.text.slice(ctx.pos - line.from);
      closing = /^\s*\}\}/.test(after) ? "" : " }}";
    }
    const options: Completion[] = variables.map((v) => ({
      label: v.path,
      detail: v.kind,
      info: v.description,
      type: "variable",
      apply: v.path + closing,
    }));
    return { from, options, validFor: /^[\w.]*$/ };
  };
}
