import { useId, type TextareaHTMLAttributes } from "react";
import { LengthLimit, atLengthLimit } from "./LengthLimit";
import { fieldError, fieldInvalid } from "./ProblemAlert";

type TextAreaFieldProps = TextareaHTMLAttributes<HTMLTextAreaElement> & {
  label: string;
  /** name is the request field, as a Problem's validate names it. */
  name: string;
  error?: unknown;
};

/** TextAreaField is a labelled text area that shows the Problem on it when validate names it. */
export function TextAreaField({ label, name, error, ...textarea }: TextAreaFieldProps) {
  const id = useId();
  const message = fieldError(error, name);
  const atLimit = atLengthLimit(textarea.value, textarea.maxLength);
  const described = [atLimit && `${id}-limit`, message && `${id}-error`].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} name={name} aria-invalid={fieldInvalid(error, name) || undefined} aria-describedby={described} {...textarea} />
      {atLimit && <LengthLimit id={`${id}-limit`} maxLength={textarea.maxLength!} />}
      {message && (
        <small id={`${id}-error`} className="field-error">
          {message}
        </small>
      )}
    </div>
  );
}
