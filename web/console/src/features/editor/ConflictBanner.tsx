import { useTranslation } from "react-i18next";
import "./texts";

/** ConflictBanner stops the editor when the draft was saved elsewhere since it was loaded,
 * and lets the person choose whose draft stays. */
export function ConflictBanner({ onLoadTheirs, onKeepMine }: { onLoadTheirs: () => void; onKeepMine: () => void }) {
  const { t } = useTranslation("editor");
  return (
    <div className="alert conflict" role="alert">
      <strong>{t("conflictTitle")}</strong>
      <p>{t("conflictBody")}</p>
      <div className="row">
        <button type="button" onClick={onLoadTheirs}>
          {t("loadTheirs")}
        </button>
        <button type="button" className="danger" onClick={onKeepMine}>
          {t("keepMine")}
        </button>
      </div>
    </div>
  );
}
