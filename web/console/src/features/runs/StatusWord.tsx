import { useTranslation } from "react-i18next";
import { statusGlyph } from "../../canvas/graph";
import "../../canvas/texts";

/** StatusWord is a run's or an action's status as glyph, word and colour together. */
export function StatusWord({ status }: { status: string }) {
  const { t } = useTranslation("canvas");
  return (
    <span className={`status-word status-${status}`}>
      <span aria-hidden="true">{statusGlyph[status] ?? "•"}</span> {t(`status_${status}` as "status_pending", { defaultValue: status })}
    </span>
  );
}
