import { useTranslation } from "react-i18next";
import { statusGlyph } from "../../canvas/graph";
import "../../canvas/texts";
import { shownStatus } from "./status";

/** StatusWord is a run's or an action's status as glyph, word and colour together, as
 * shownStatus reads it. */
export function StatusWord({ status: recorded, retryClass }: { status: string; retryClass?: string | null }) {
  const { t } = useTranslation("canvas");
  const status = shownStatus(recorded, retryClass);
  return (
    <span className={`status-word status-${status}`}>
      <span aria-hidden="true">{statusGlyph[status] ?? "•"}</span> {t(`status_${status}` as "status_pending", { defaultValue: status })}
    </span>
  );
}
