import { useId } from "react";
import { useTranslation } from "react-i18next";
import { CopyButton } from "./CopyButton";
import "./texts";

/** SecretReveal shows a freshly made secret, the one time the API hands it out. */
export function SecretReveal({ secret, onDone }: { secret: string; onDone: () => void }) {
  const { t } = useTranslation("webhooks");
  const id = useId();
  return (
    <div className="stack">
      <p className="secret-once" role="alert">
        {t("secretOnce")}
      </p>
      <div className="field">
        <label htmlFor={id}>{t("secret")}</label>
        <div className="row">
          <input id={id} className="secret" readOnly value={secret} onFocus={(e) => e.target.select()} spellCheck={false} />
          <CopyButton text={secret} label={t("secret")} />
        </div>
      </div>
      <div className="row end">
        <button type="button" className="primary" onClick={onDone}>
          {t("done")}
        </button>
      </div>
    </div>
  );
}
