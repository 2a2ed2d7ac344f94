import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { askPath } from "./context";
import "./texts";

/** AskEmployeeLink opens the AI employee's panel on a workflow or a run, which the
 * messages then carry as their page context. */
export function AskEmployeeLink({ projectId, about }: { projectId: string; about: { workflowId: string } | { runId: string } }) {
  const { t } = useTranslation("ai");
  return (
    <Link className="button" to={askPath(projectId, about)}>
      {t("ask")}
    </Link>
  );
}
