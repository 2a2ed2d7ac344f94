import { useTranslation } from "react-i18next";

/** atLengthLimit tells whether a text field's value has reached its maxLength: the browser
 * then takes no more, and cuts what is pasted, without a word of its own. */
export function atLengthLimit(value: unknown, maxLength: number | undefined): boolean {
  return maxLength !== undefined && maxLength > 0 && typeof value === "string" && value.length >= maxLength;
}

/** LengthLimit says, as a field's value reaches its maxLength, that this is the most it
 * takes, so a cut paste or a key that types nothing is explained. */
export function LengthLimit({ id, maxLength }: { id: string; maxLength: number }) {
  const { t } = useTranslation();
  return (
    <small id={id} className="field-limit" aria-live="polite">
      {t("lengthLimit", { count: maxLength })}
    </small>
  );
}
