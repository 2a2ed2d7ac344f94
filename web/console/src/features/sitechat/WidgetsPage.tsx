import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ListTable } from "../../components/ListTable";
import { ProblemAlert } from "../../components/ProblemAlert";
import { useActiveProjectId } from "../workspace/workspace";
import { previewColor } from "./WidgetPreview";
import { useWidgets } from "./queries";
import "./texts";

/** WidgetsPage is the active project's chat widgets, every status, and the way to a new one. */
export function WidgetsPage() {
  const { t } = useTranslation("siteChat");
  const { t: common } = useTranslation();
  const projectId = useActiveProjectId();
  const widgets = useWidgets(projectId ?? "");
  if (!projectId) return <p className="page">{t("needsProject")}</p>;
  return (
    <section className="page desk-page">
      <div className="page-head">
        <h1>{t("widgets")}</h1>
        <Link to="/site-chat/widgets/new" className="button primary">
          {t("newWidget")}
        </Link>
      </div>
      <ProblemAlert error={widgets.error} />
      {widgets.isPending ? (
        <p className="muted">{common("loading")}</p>
      ) : !widgets.data?.length ? (
        <p className="muted">{t("noWidgets")}</p>
      ) : (
        <ListTable columns={[t("widgetName"), t("widgetTitle"), t("position"), t("status")]}>
          {widgets.data.map((w) => (
            <tr key={w.chat_widget_id}>
              <td>
                <span className="swatch-dot" style={{ background: previewColor(w.accent_color) }} aria-hidden="true" />
                <Link to={`/site-chat/widgets/${w.chat_widget_id}`}>{w.name}</Link>
              </td>
              <td>{w.title}</td>
              <td>{t(`position_${w.position}`)}</td>
              <td>
                <span className={w.status === "active" ? "badge ok" : w.status === "paused" ? "badge warn" : "badge muted"}>{t(`status_${w.status}`)}</span>
              </td>
            </tr>
          ))}
        </ListTable>
      )}
    </section>
  );
}
