import { useTranslation } from "react-i18next";
import type { SaveState } from "./useDraftSave";
import "./texts";

type EditorToolbarProps = {
  state: SaveState;
  canUndo: boolean;
  canRedo: boolean;
  onUndo: () => void;
  onRedo: () => void;
  onTidy: () => void;
  onTestInput: () => void;
  onTestRun: () => void;
  testRunStarting: boolean;
  onSave: () => void;
};

const stateText = { saved: "saved", saving: "saving", unsaved: "unsaved", failed: "saveFailed", conflict: "saveFailed" } as const;

/** EditorToolbar holds the draft's commands and says whether it is saved. */
export function EditorToolbar(p: EditorToolbarProps) {
  const { t } = useTranslation("editor");
  return (
    <div className="editor-toolbar row" role="toolbar" aria-label={t("editorTitle")}>
      <button type="button" onClick={p.onUndo} disabled={!p.canUndo} title="Ctrl+Z">
        {t("undo")}
      </button>
      <button type="button" onClick={p.onRedo} disabled={!p.canRedo} title="Ctrl+Shift+Z">
        {t("redo")}
      </button>
      <button type="button" onClick={p.onTidy}>
        {t("tidy")}
      </button>
      <button type="button" onClick={p.onTestInput}>
        {t("testInput")}
      </button>
      <button type="button" onClick={p.onTestRun} disabled={p.testRunStarting || p.state === "conflict"}>
        {p.testRunStarting ? t("testRunStarting") : t("testRun")}
      </button>
      <span className={`save-state save-${p.state}`} role="status">
        {t(stateText[p.state])}
      </span>
      <button type="button" className="primary" onClick={p.onSave} disabled={p.state === "saved" || p.state === "saving" || p.state === "conflict"} title="Ctrl+S">
        {t("save")}
      </button>
    </div>
  );
}
