import { useId, type SelectHTMLAttributes } from "react";
import { fieldError } from "./ProblemAlert";

type SelectFieldProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, "onChange"> & {
  label: string;
  /** name is the request field, as a Problem's validate names it. */
  name: string;
  value: string;
  onChange: (value: string) => void;
  options: { value: string; label: string }[];
  /** none is the first choice, of the empty value, when there is one (nobody, no project). */
  none?: string;
  error?: unknown;
};

/** SelectField is a labelled drop-down that shows the Problem on it when validate names it. */
export function SelectField({ label, name, value, onChange, options, none, error, ...select }: SelectFieldProps) {
  const id = useId();
  const message = fieldError(error, name);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        name={name}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={message ? true : undefined}
        aria-describedby={message ? `${id}-error` : undefined}
        {...select}
      >
        {none !== undefined && <option value="">{none}</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {message && (
        <small id={`${id}-error`} className="field-error">
          {message}
        </small>
      )}
    </div>
  );
}
