import { json } from "@codemirror/lang-json";
import { EditorView } from "@uiw/react-codemirror";
import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { CodeEditor } from "../../components/CodeEditor";
import "./texts";

type TestInputDialogProps = {
  value: Record<string, unknown>;
  onApply: (value: Record<string, unknown>) => void;
  onClose: () => void;
};

/** TestInputDialog edits the draft's test input, the JSON object a test run starts with. */
export function TestInputDialog({ value, onApply, onClose }: TestInputDialogProps) {
  const { t } = useTranslation("editor");
  const [text, setText] = useState(() => JSON.stringify(value, null, 2));
  const [error, setError] = useState("");
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const errorId = useId();
  useEffect(() => {
    const d = dialog.current;
    d?.showModal();
    return () => d?.close();
  }, []);
  const apply = () => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      setError(t("testInputInvalid", { error: (e as Error).message }));
      return;
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      setError(t("testInputNotObject"));
      return;
    }
    onApply(parsed as Record<string, unknown>);
    onClose();
  };
  return (
    <dialog ref={dialog} className="editor-dialog test-input" aria-labelledby={titleId} onCancel={onClose}>
      <h2 id={titleId}>{t("testInputTitle")}</h2>
      <p className="muted">{t("testInputHelp")}</p>
      <CodeEditor
        value={text}
        onChange={setText}
        extensions={[json(), EditorView.contentAttributes.of({ "aria-label": t("testInputTitle"), "aria-describedby": errorId })]}
        height="16rem"
        basicSetup={{ foldGutter: false }}
      />
      {error && (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      )}
      <div className="row">
        <button type="button" className="primary" onClick={apply}>
          {t("apply")}
        </button>
        <button type="button" onClick={onClose}>
          {t("cancel")}
        </button>
      </div>
    </dialog>
  );
}
