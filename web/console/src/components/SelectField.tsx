import { useId, type ReactNode, type SelectHTMLAttributes } from "react";
import { fieldError, fieldInvalid } from "./ProblemAlert";

type SelectFieldProps = SelectHTMLAttributes<HTMLSelectElement> & {
  label: string;
  /** name is the request field, as a Problem's validate names it. */
  name: string;
  error?: unknown;
  children: ReactNode;
};

/** SelectField is a labelled drop-down that shows the Problem on it when validate names it. */
export function SelectField({ label, name, error, children, ...select }: SelectFieldProps) {
  const id = useId();
  const message = fieldError(error, name);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} aria-invalid={fieldInvalid(error, name) || undefined} aria-describedby={message ? `${id}-error` : undefined} {...select}>
        {children}
      </select>
      {message && (
        <small id={`${id}-error`} className="field-error">
          {message}
        </small>
      )}
    </div>
  );
}
