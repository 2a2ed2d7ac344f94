import { useTranslation } from "react-i18next";
import { ProblemAlert } from "../../../components/ProblemAlert";
import { dismissFailure } from "./callStore";
import "./texts";

/** CallFailure says why a call could not be made or answered: the browser's refusal of the
 * microphone or camera in our words, an API Problem in the API's. */
export function CallFailure({ error }: { error: unknown }) {
  const { t } = useTranslation("calls");
  return (
    <div className="call-failure">
      {error instanceof DOMException ? (
        <div role="alert" className="alert">
          {t("mediaRefused", { reason: error.name })}
        </div>
      ) : (
        <ProblemAlert error={error} />
      )}
      <button type="button" onClick={dismissFailure}>
        {t("close")}
      </button>
    </div>
  );
}
