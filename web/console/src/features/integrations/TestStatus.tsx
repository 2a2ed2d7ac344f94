import { useTranslation } from "react-i18next";
import type { TestResult } from "./integrations";
import "./texts";

const tone = { ok: "ok", failed: "danger", untestable: "muted" } as const;

/** TestStatus says in words, not only in colour, how a connection test ended. */
export function TestStatus({ result }: { result: TestResult }) {
  const { t } = useTranslation("integrations");
  return <span className={`badge ${tone[result.status]}`}>{t(`test_${result.status}`)}</span>;
}
