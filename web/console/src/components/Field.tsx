import { useId, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes } from "react";
import { fieldError } from "./ProblemAlert";

type Labelled = {
  label: string;
  /** name is the request field, as a Problem's validate names it. */
  name: string;
  error?: unknown;
  hint?: string;
};

/** useField gives a field's control its id, and what describes it: the hint and the
 * Problem's detail when validate names the field. */
function useField({ name, error, hint }: Labelled) {
  const id = useId();
  const message = fieldError(error, name);
  const described = [hint && `${id}-hint`, message && `${id}-error`].filter(Boolean).join(" ") || undefined;
  const control = { id, name, "aria-invalid": message ? true : undefined, "aria-describedby": described };
  return { id, message, control };
}

function FieldFrame({ id, label, hint, message, children }: { id: string; label: string; hint?: string; message?: string; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      {hint && (
        <small id={`${id}-hint`} className="muted">
          {hint}
        </small>
      )}
      {message && (
        <small id={`${id}-error`} className="field-error">
          {message}
        </small>
      )}
    </div>
  );
}

/** Field is a labelled input that shows the Problem on it when validate names it. */
export function Field({ label, name, error, hint, ...input }: Labelled & InputHTMLAttributes<HTMLInputElement>) {
  const { id, message, control } = useField({ label, name, error, hint });
  return (
    <FieldFrame id={id} label={label} hint={hint} message={message}>
      <input {...control} {...input} />
    </FieldFrame>
  );
}

/** TextAreaField is Field for text of many lines. */
export function TextAreaField({ label, name, error, hint, ...area }: Labelled & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const { id, message, control } = useField({ label, name, error, hint });
  return (
    <FieldFrame id={id} label={label} hint={hint} message={message}>
      <textarea {...control} {...area} />
    </FieldFrame>
  );
}
