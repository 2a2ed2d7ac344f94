import { useId } from "react";
import { useTranslation } from "react-i18next";
import { fieldError } from "../../components/ProblemAlert";
import { authTypes, type WebhookAuthType } from "./webhooks";
import "./texts";

/** AuthTypeChoice picks how senders authenticate, each way explained in a line. */
export function AuthTypeChoice({ value, onChange, error }: { value: WebhookAuthType; onChange: (v: WebhookAuthType) => void; error?: unknown }) {
  const { t } = useTranslation("webhooks");
  const name = useId();
  const message = fieldError(error, "auth_type");
  return (
    <fieldset className="auth-types" aria-invalid={message ? true : undefined}>
      <legend>{t("authType")}</legend>
      {authTypes.map((type) => (
        <label key={type} className="auth-type">
          <input type="radio" name={name} value={type} checked={value === type} onChange={() => onChange(type)} />
          <span>
            <strong>{t(`auth_${type}`)}</strong>
            <small className="muted">{t(`auth_${type}_help`)}</small>
          </span>
        </label>
      ))}
      {message && <small className="field-error">{message}</small>}
    </fieldset>
  );
}
