import { useTranslation } from "react-i18next";
import type { components } from "../../api/schema.gen";
import { ProblemAlert } from "../../components/ProblemAlert";
import type { useSideEffects } from "./run";
import { StatusWord } from "./StatusWord";
import "./texts";

type ActionEffect = components["schemas"]["ActionEffect"];

/** SideEffects is the server's preview of what a retry or a replay does again, with the
 * actions that are not idempotent flagged; a retry also lists the results it reuses. */
export function SideEffects({ preview, retry }: { preview: ReturnType<typeof useSideEffects>; retry: boolean }) {
  const { t } = useTranslation("runs");
  if (preview.error) return <ProblemAlert error={preview.error} />;
  if (!preview.data) return <p className="muted" aria-busy="true">{t("previewLoading")}</p>;
  const { acts_again, reused } = preview.data;
  const risky = acts_again.filter((a) => !a.idempotent).length;
  return (
    <div className="side-effects">
      {risky > 0 && (
        <p className="alert" role="note">
          <span aria-hidden="true">⚠ </span>
          {t("notIdempotentCount", { count: risky })}
        </p>
      )}
      <h3>{t("actsAgain")}</h3>
      <EffectList effects={acts_again} flag />
      {retry && (
        <>
          <h3>{t("reused")}</h3>
          <EffectList effects={reused} />
        </>
      )}
    </div>
  );
}

function EffectList({ effects, flag = false }: { effects: ActionEffect[]; flag?: boolean }) {
  const { t } = useTranslation("runs");
  if (effects.length === 0) return <p className="muted">{t("nothing")}</p>;
  return (
    <ul>
      {effects.map((a) => (
        <li key={a.action_key}>
          <strong>{a.label || a.action_key}</strong> <code>{a.action_type_key}</code>{" "}
          {a.status ? (
            <>
              <span className="muted">({t("inThisRun")}</span> <StatusWord status={a.status} />
              <span className="muted">)</span>
            </>
          ) : (
            <span className="muted">({t("notInThisRun")})</span>
          )}
          {flag && (a.idempotent ? <span className="muted"> · {t("idempotent")}</span> : <span className="not-idempotent"> · ⚠ {t("notIdempotent")}</span>)}
        </li>
      ))}
    </ul>
  );
}
