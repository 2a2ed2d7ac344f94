import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { Variable } from "./scope";
import { TemplateEditor } from "./TemplateEditor";
import "./texts";

/** What the JSON must be: the schema's object or list, or any value. */
export type JsonShape = "object" | "array" | "any";

type Props = {
  id: string;
  value: unknown;
  shape: JsonShape;
  /** onChange receives parsed values only (undefined when emptied), never the text. */
  onChange: (value: unknown) => void;
  label: string;
  describedBy: string;
  invalid: boolean;
  readOnly?: boolean;
  variables: Variable[];
};

const pretty = (v: unknown) => (v === undefined ? "" : JSON.stringify(v, null, 2));
const serialize = (v: unknown) => JSON.stringify(v ?? null);

/**
 * JsonEditor edits a JSON value as text. Text that is not JSON of the right shape stays in
 * the editor with its error and is never handed on, so the config keeps its last valid value
 * and a half-typed object is not saved as a string.
 */
export function JsonEditor({ id, value, shape, onChange, label, describedBy, invalid, readOnly, variables }: Props) {
  const { t } = useTranslation("config");
  const basis = serialize(value);
  const [draft, setDraft] = useState<{ text: string; basis: string; error?: string }>(() => ({ text: pretty(value), basis }));
  // The value changed from outside (undo, another field): show it instead of the draft.
  if (draft.basis !== basis) setDraft({ text: pretty(value), basis });

  const change = (text: string) => {
    if (text.trim() === "") {
      setDraft({ text, basis: serialize(undefined) });
      onChange(undefined);
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      setDraft({ text, basis, error: t("invalidJson", { error: e instanceof Error ? e.message : String(e) }) });
      return;
    }
    const isObject = typeof parsed === "object" && parsed !== null && !Array.isArray(parsed);
    if (shape === "object" && !isObject) return setDraft({ text, basis, error: t("mustBeObject") });
    if (shape === "array" && !Array.isArray(parsed)) return setDraft({ text, basis, error: t("mustBeArray") });
    setDraft({ text, basis: serialize(parsed) });
    onChange(parsed);
  };

  const errorId = `${id}__json`;
  const hintId = `${id}__hint`;
  return (
    <>
      <TemplateEditor
        id={id}
        value={draft.text}
        onChange={change}
        label={label}
        describedBy={`${draft.error ? errorId + " " : ""}${describedBy} ${hintId}`}
        invalid={invalid || draft.error !== undefined}
        readOnly={readOnly}
        multiline
        language="json"
        variables={variables}
      />
      {draft.error && (
        <p id={errorId} className="field-error config-json-error" role="alert">
          {draft.error}
        </p>
      )}
      <small id={hintId} className="config-hint">
        {t("jsonHint", { open: "{{" })}
      </small>
    </>
  );
}
