import { useId, type InputHTMLAttributes } from "react";
import { LengthLimit, atLengthLimit } from "./LengthLimit";
import { fieldError, fieldInvalid } from "./ProblemAlert";

type FieldProps = InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  /** name is the request field, as a Problem's validate names it. */
  name: string;
  error?: unknown;
  hint?: string;
};

/** Field is a labelled input that shows the Problem on it when validate names it. */
export function Field({ label, name, error, hint, ...input }: FieldProps) {
  const id = useId();
  const message = fieldError(error, name);
  const atLimit = atLengthLimit(input.value, input.maxLength);
  const described = [hint && `${id}-hint`, atLimit && `${id}-limit`, message && `${id}-error`].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} name={name} aria-invalid={fieldInvalid(error, name) || undefined} aria-describedby={described} {...input} />
      {hint && (
        <small id={`${id}-hint`} className="muted">
          {hint}
        </small>
      )}
      {atLimit && <LengthLimit id={`${id}-limit`} maxLength={input.maxLength!} />}
      {message && (
        <small id={`${id}-error`} className="field-error">
          {message}
        </small>
      )}
    </div>
  );
}
