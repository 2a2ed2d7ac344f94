import { json } from "@codemirror/lang-json";
import { EditorView } from "@uiw/react-codemirror";
import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { ProblemError } from "../../api/problem";
import { CodeEditor } from "../../components/CodeEditor";
import { Field } from "../../components/Field";
import { fieldError, ProblemAlert } from "../../components/ProblemAlert";
import { formProblem } from "../../lib/formProblem";
import { fieldsOf, fieldText, parseInput, valueOfField, type InputField } from "./runInput";
import "./texts";
import "./workflows.css";

type RunInputDialogProps = {
  title: string;
  help: string;
  /** value is the input the dialog starts from (the trigger's sample, the test input). */
  value: Record<string, unknown>;
  submitLabel: string;
  pending?: boolean;
  /** error is the API's answer to the last submit; its validate names input.<field>. */
  error?: unknown;
  onSubmit: (value: Record<string, unknown>) => void;
  onClose: () => void;
};

type FormValues = Record<string, string | boolean>;

const formValuesOf = (fields: InputField[], value: Record<string, unknown>): FormValues =>
  Object.fromEntries(fields.map((f) => [f.name, f.kind === "boolean" ? value[f.name] === true : fieldText(value[f.name])]));

/** RunInputDialog edits the JSON object a run starts with: a field for each of its fields
 * when it is a flat object, and the whole of it as JSON (the only way for nested input).
 * The focus goes into it as it opens and back to where it was as it closes. */
export function RunInputDialog({ title, help, value, submitLabel, pending, error, onSubmit, onClose }: RunInputDialogProps) {
  const { t } = useTranslation("workflows");
  const { t: common } = useTranslation();
  const initialFields = useMemo(() => fieldsOf(value), [value]);
  const [fields, setFields] = useState(initialFields);
  const [asJson, setAsJson] = useState(!initialFields);
  const [values, setValues] = useState<FormValues>(() => formValuesOf(initialFields ?? [], value));
  const [text, setText] = useState(() => JSON.stringify(value, null, 2));
  const [invalid, setInvalid] = useState<ProblemError>();
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const jsonErrorId = useId();
  useEffect(() => {
    const d = dialog.current;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (d && !d.open) d.showModal();
    return () => {
      d?.close();
      opener?.focus();
    };
  }, []);

  /** fromForm is the form's input, or undefined once the form's own Problem is shown. */
  const fromForm = (): Record<string, unknown> | undefined => {
    const out: Record<string, unknown> = {};
    const bad: string[] = [];
    for (const f of fields ?? []) {
      const v = f.kind === "boolean" ? values[f.name] : valueOfField(f, String(values[f.name]));
      if (v === undefined) bad.push(`input.${f.name}`);
      out[f.name] = v;
    }
    if (bad.length > 0) {
      setInvalid(formProblem(bad, t("inputNotANumber")));
      return undefined;
    }
    return out;
  };
  const fromJson = (): Record<string, unknown> | undefined => {
    const parsed = parseInput(text);
    if ("value" in parsed) return parsed.value;
    setInvalid(formProblem(["input"], parsed.error === "json" ? t("inputInvalidJson", { error: parsed.message }) : t("inputNotObject")));
    return undefined;
  };
  const toJson = () => {
    const v = fromForm();
    if (!v) return;
    setText(JSON.stringify(v, null, 2));
    setInvalid(undefined);
    setAsJson(true);
  };
  const toForm = () => {
    const v = fromJson();
    if (!v) return;
    const flat = fieldsOf(v);
    if (!flat) {
      setInvalid(formProblem(["input"], t("inputNotFlat")));
      return;
    }
    setFields(flat);
    setValues(formValuesOf(flat, v));
    setInvalid(undefined);
    setAsJson(false);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setInvalid(undefined);
    const v = asJson ? fromJson() : fromForm();
    if (v) onSubmit(v);
  };

  const problem = invalid ?? error;
  const shownOnFields = problem instanceof ProblemError && (asJson ? problem.names("input") : (fields ?? []).some((f) => problem.names(`input.${f.name}`)));
  const jsonError = asJson ? fieldError(problem, "input") : undefined;
  return (
    <dialog ref={dialog} className="dialog wide run-input" aria-labelledby={titleId} onCancel={onClose}>
      <form className="stack" onSubmit={submit} noValidate>
        <h2 id={titleId}>{title}</h2>
        <p className="muted">{help}</p>
        {asJson ? (
          <div className="field">
            <CodeEditor
              value={text}
              onChange={setText}
              extensions={[
                json(),
                EditorView.contentAttributes.of({
                  "aria-label": t("inputJson"),
                  ...(jsonError ? { "aria-describedby": jsonErrorId, "aria-invalid": "true" } : {}),
                }),
              ]}
              height="16rem"
              basicSetup={{ foldGutter: false }}
            />
            {jsonError && (
              <small id={jsonErrorId} className="field-error">
                {jsonError}
              </small>
            )}
          </div>
        ) : fields && fields.length > 0 ? (
          fields.map((f) =>
            f.kind === "boolean" ? (
              <CheckField
                key={f.name}
                label={f.name}
                name={`input.${f.name}`}
                checked={values[f.name] === true}
                onChange={(checked) => setValues({ ...values, [f.name]: checked })}
                error={problem}
              />
            ) : (
              <Field
                key={f.name}
                label={f.name}
                name={`input.${f.name}`}
                inputMode={f.kind === "number" ? "decimal" : undefined}
                value={String(values[f.name])}
                onChange={(e) => setValues({ ...values, [f.name]: e.target.value })}
                error={problem}
              />
            ),
          )
        ) : (
          <p className="muted">{t("inputNoFields")}</p>
        )}
        {!shownOnFields && <ProblemAlert error={problem} />}
        <div className="row">
          <button type="submit" className="primary" disabled={pending}>
            {pending ? t("starting") : submitLabel}
          </button>
          {asJson ? (
            initialFields && (
              <button type="button" onClick={toForm}>
                {t("inputAsForm")}
              </button>
            )
          ) : (
            <button type="button" onClick={toJson}>
              {t("inputAsJson")}
            </button>
          )}
          <button type="button" onClick={onClose}>
            {common("cancel")}
          </button>
        </div>
      </form>
    </dialog>
  );
}

/** CheckField is a labelled checkbox that shows the Problem on it when validate names it. */
function CheckField({ label, name, checked, onChange, error }: { label: string; name: string; checked: boolean; onChange: (checked: boolean) => void; error: unknown }) {
  const id = useId();
  const message = fieldError(error, name);
  return (
    <div className="run-input-check">
      <input
        id={id}
        type="checkbox"
        name={name}
        checked={checked}
        aria-invalid={message ? true : undefined}
        aria-describedby={message ? `${id}-error` : undefined}
        onChange={(e) => onChange(e.target.checked)}
      />
      <label htmlFor={id}>{label}</label>
      {message && (
        <small id={`${id}-error`} className="field-error">
          {message}
        </small>
      )}
    </div>
  );
}
