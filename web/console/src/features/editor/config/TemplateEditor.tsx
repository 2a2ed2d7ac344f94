// A CodeMirror editor for config text that reads variables: a template (one line or many),
// an expression, or JSON. It completes the variables in scope, and Tab leaves it like any
// other field (Tab never indents here).
import { useMemo } from "react";
import { EditorState, EditorView, type Extension } from "@uiw/react-codemirror";
import { autocompletion } from "@codemirror/autocomplete";
import { json } from "@codemirror/lang-json";
import { variableCompletion, type EditorLanguage } from "./completion";
import { CodeEditor } from "../../../components/CodeEditor";
import type { Variable } from "./scope";

type Props = {
  id: string;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  onFocus?: () => void;
  /** label names the field for assistive technology (the editor is not an <input>). */
  label: string;
  describedBy?: string;
  invalid?: boolean;
  required?: boolean;
  readOnly?: boolean;
  multiline: boolean;
  language: EditorLanguage;
  variables: Variable[];
};

// One-line templates refuse line breaks, typed or pasted, as an <input> would.
const oneLine = EditorState.transactionFilter.of((tr) => (tr.newDoc.lines > 1 ? [] : tr));
// In templates only braces close themselves: {{ becomes {{}} with the cursor inside.
const closeBraces = EditorState.languageData.of(() => [{ closeBrackets: { brackets: ["{"] } }]);

export function TemplateEditor(props: Props) {
  const { id, label, describedBy, invalid, required, multiline, language, variables } = props;
  const extensions = useMemo(() => {
    const out: Extension[] = [
      autocompletion({ override: [variableCompletion(variables, language)], activateOnTyping: true }),
      EditorView.contentAttributes.of({
        id,
        "aria-label": label,
        ...(describedBy ? { "aria-describedby": describedBy } : {}),
        "aria-invalid": invalid ? "true" : "false",
        "aria-required": required ? "true" : "false",
        "aria-multiline": multiline ? "true" : "false",
      }),
    ];
    if (language === "json") out.push(json());
    else out.push(closeBraces);
    // Long URLs wrap rather than scroll sideways, even on one line.
    out.push(EditorView.lineWrapping);
    if (!multiline) out.push(oneLine);
    return out;
  }, [id, label, describedBy, invalid, required, multiline, language, variables]);

  return (
    <CodeEditor
      className={`template-editor${multiline ? " multiline" : ""}${invalid ? " invalid" : ""}`}
      value={props.value}
      onChange={props.onChange}
      onBlur={props.onBlur}
      onFocus={props.onFocus}
      readOnly={props.readOnly}
      editable={!props.readOnly}
      indentWithTab={false}
      theme="light"
      extensions={extensions}
      basicSetup={{
        lineNumbers: multiline && language === "json",
        foldGutter: false,
        highlightActiveLine: false,
        highlightActiveLineGutter: false,
        autocompletion: false,
        closeBrackets: true,
        searchKeymap: false,
        crosshairCursor: false,
        rectangularSelection: false,
      }}
    />
  );
}
