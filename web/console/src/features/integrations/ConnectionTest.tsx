import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { ProblemAlert } from "../../components/ProblemAlert";
import { formatTime } from "../../lib/time";
import { useTestConnection, type Integration } from "./integrations";
import { TestStatus } from "./TestStatus";
import "./texts";

/** ConnectionTest runs one real call to the provider and shows the stored result: the
 * integration's last_test, as every page that reads it sees it. */
export function ConnectionTest({ integration: d, manage, testNow }: { integration: Integration; manage: boolean; testNow?: boolean }) {
  const { t, i18n } = useTranslation("integrations");
  const test = useTestConnection(d);
  // testNow is the page opened on a just-saved integration: its test runs once, unasked.
  const tested = useRef(false);
  useEffect(() => {
    if (!testNow || !manage || tested.current) return;
    tested.current = true;
    test.mutate();
  }, [testNow, manage, test]);
  const last = d.last_test;
  return (
    <section className="card" aria-labelledby="integration-test">
      <div className="page-head">
        <h2 id="integration-test">{t("connectionTest")}</h2>
        {manage && (
          <button type="button" className="primary" disabled={test.isPending} onClick={() => test.mutate()}>
            {test.isPending ? t("testing") : t("testConnection")}
          </button>
        )}
      </div>
      <ProblemAlert error={test.error} />
      {last ? (
        <dl className="facts" aria-live="polite">
          <dt>{t("result")}</dt>
          <dd>
            <TestStatus result={last} />
          </dd>
          <dt>{t("checkedAt")}</dt>
          <dd>{formatTime(last.checked_at, i18n.language)}</dd>
          {last.message && (
            <>
              <dt>{t("message")}</dt>
              <dd>{last.message}</dd>
            </>
          )}
          <dt>{t("reasonCode")}</dt>
          <dd>
            <code>{last.reason_code}</code>
          </dd>
          {last.retry_class && (
            <>
              <dt>{t("retryClass")}</dt>
              <dd>{t(`retry_${last.retry_class}`)}</dd>
            </>
          )}
        </dl>
      ) : (
        <p className="muted">{t("notTestedYet")}</p>
      )}
    </section>
  );
}
