import { useId, type InputHTMLAttributes } from "react";
import { useTranslation } from "react-i18next";
import { taxIdFields, taxIdRules, taxIdState, type TaxIdField as TaxIdName, type TaxIdHolder, type TaxIdState } from "../lib/taxid";
import { fieldError, fieldInvalid } from "./ProblemAlert";
import "./taxIdTexts";

type TaxIdFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, "value" | "onChange"> & {
  label: string;
  /** name is the request field, as a Problem's validate names it. */
  name: string;
  value: string;
  onChange: (value: string) => void;
  /** state is the identifier as typed so far, judged by lib/taxid. */
  state: TaxIdState;
  /** length is how many characters the identifier has. */
  length: number;
  /** checked tells whether the identifier has a check digit (KPP and BIK have none). */
  checked: boolean;
  error?: unknown;
};

/** TaxIdField is a registry identifier's input that says, as the person types, how many
 * digits are still to come, whether the check digit matches, or what is wrong; a Problem
 * naming the field shows as well. */
export function TaxIdField({ label, name, value, onChange, state, length, checked, error, ...input }: TaxIdFieldProps) {
  const { t } = useTranslation("taxid");
  const id = useId();
  const problem = fieldError(error, name);
  const wrong = state === "format" || state === "checksum" || state === "needsBik";
  const said =
    state === "incomplete" && value
      ? t("typed", { n: value.length, length })
      : state === "valid"
        ? t(checked ? "checkDigitMatches" : "wellFormed")
        : state === "format"
          ? t(name === "kpp" ? "kppFormat" : "format", { length })
          : state === "checksum"
            ? t("checksum")
            : state === "needsBik"
              ? t("needsBik")
              : "";
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        inputMode={name === "kpp" ? "text" : "numeric"}
        autoComplete="off"
        spellCheck={false}
        maxLength={length + 2}
        value={value}
        onChange={(e) => onChange(e.target.value.trim())}
        aria-invalid={wrong || fieldInvalid(error, name) || undefined}
        aria-describedby={[said && `${id}-state`, problem && `${id}-error`].filter(Boolean).join(" ") || undefined}
        {...input}
      />
      {said && (
        <small id={`${id}-state`} className={wrong ? "field-error" : state === "valid" ? "field-ok" : "muted"} aria-live="polite">
          {state === "valid" && <span aria-hidden="true">✓ </span>}
          {said}
        </small>
      )}
      {problem && !wrong && (
        <small id={`${id}-error`} className="field-error">
          {problem}
        </small>
      )}
    </div>
  );
}

/** TaxIdFields are the registry identifiers a client or legal entity of the type takes, each
 * a TaxIdField checked with the API's rules for the type. `sent` makes a number left short
 * show as wrong. */
export function TaxIdFields({
  holder,
  values,
  onChange,
  sent,
  error,
}: {
  holder: TaxIdHolder;
  values: Record<TaxIdName, string>;
  onChange: (field: TaxIdName, value: string) => void;
  sent: boolean;
  error: unknown;
}) {
  const { t } = useTranslation("taxid");
  return taxIdFields.map((field) => {
    const rule = taxIdRules[holder][field];
    if (!rule) return null;
    return (
      <TaxIdField
        key={field}
        label={t(field)}
        name={field}
        value={values[field]}
        onChange={(value) => onChange(field, value)}
        state={taxIdState(holder, field, values[field], sent)}
        length={rule.length}
        checked={field !== "kpp"}
        required={rule.required}
        error={error}
      />
    );
  });
}
