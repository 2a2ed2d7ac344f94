import { useTranslation } from "react-i18next";
import { Link, useNavigate, useParams } from "react-router";
import { AskFirst } from "../../components/AskFirst";
import { CopyButton } from "../../components/CopyButton";
import { ProblemAlert } from "../../components/ProblemAlert";
import { useActiveProjectId } from "../workspace/workspace";
import { useSaveWidget, useWidgets, type ChatWidget } from "./queries";
import { WidgetForm } from "./WidgetForm";
import "./texts";

/** WidgetPage is a new widget (/site-chat/widgets/new) or one of the project's: its form
 * and live preview, the script to paste into the site, pausing, resuming, archiving. */
export function WidgetPage() {
  const { chatWidgetId = "new" } = useParams();
  const { t } = useTranslation("siteChat");
  const { t: common } = useTranslation();
  const navigate = useNavigate();
  const projectId = useActiveProjectId();
  const widgets = useWidgets(projectId ?? "");
  if (!projectId) return <p className="page">{t("needsProject")}</p>;
  const isNew = chatWidgetId === "new";
  const widget = widgets.data?.find((w) => w.chat_widget_id === chatWidgetId);
  const crumbs = (
    <p className="crumbs">
      <Link to="/site-chat/widgets">{t("widgets")}</Link>
    </p>
  );
  if (!isNew && !widget) {
    return (
      <section className="page">
        {crumbs}
        <ProblemAlert error={widgets.error} />
        <p className="muted">{widgets.isPending ? common("loading") : common("notFoundBody")}</p>
      </section>
    );
  }
  return (
    <section className="page widget-page">
      {crumbs}
      <div className="page-head">
        <h1>{widget ? widget.name : t("newWidget")}</h1>
        {widget && <WidgetStatus projectId={projectId} widget={widget} />}
      </div>
      {widget && <Embed widget={widget} />}
      <WidgetForm
        key={widget?.chat_widget_id ?? "new"}
        projectId={projectId}
        widget={widget}
        onSaved={(w) => isNew && void navigate(`/site-chat/widgets/${w.chat_widget_id}`, { replace: true })}
      />
    </section>
  );
}

/** Embed is the one tag to paste into the site's pages, to copy. */
function Embed({ widget }: { widget: ChatWidget }) {
  const { t } = useTranslation("siteChat");
  return (
    <section className="panel stack" aria-labelledby="embed-title">
      <h2 id="embed-title">{t("embed")}</h2>
      <label className="field">
        <span>{t("embedScript")}</span>
        <textarea className="embed-script" readOnly value={widget.embed_script} spellCheck={false} onFocus={(e) => e.target.select()} aria-describedby="embed-hint" />
      </label>
      <div className="row">
        <CopyButton text={widget.embed_script} label={t("embedScript")} />
        <small id="embed-hint" className="muted">
          {t("embedHint")}
        </small>
      </div>
    </section>
  );
}

/** WidgetStatus shows whether the widget is on the site and pauses, resumes, archives or
 * restores it: a paused or archived widget shows nothing on the site. */
function WidgetStatus({ projectId, widget }: { projectId: string; widget: ChatWidget }) {
  const { t } = useTranslation("siteChat");
  const save = useSaveWidget(projectId);
  const to = (status: ChatWidget["status"]) => save.mutate({ id: widget.chat_widget_id, body: { status } });
  return (
    <div className="widget-status">
      <span className={widget.status === "active" ? "badge ok" : widget.status === "paused" ? "badge warn" : "badge muted"}>{t(`status_${widget.status}`)}</span>
      {widget.status === "active" && (
        <button type="button" onClick={() => to("paused")} disabled={save.isPending}>
          {t("pause")}
        </button>
      )}
      {widget.status === "paused" && (
        <button type="button" onClick={() => to("active")} disabled={save.isPending}>
          {t("resume")}
        </button>
      )}
      {widget.status === "archived" ? (
        <button type="button" onClick={() => to("active")} disabled={save.isPending}>
          {t("restore")}
        </button>
      ) : (
        <AskFirst label={t("archive")} question={t("archiveConfirm")} pending={save.isPending} onConfirm={() => to("archived")} />
      )}
      <ProblemAlert error={save.error} />
    </div>
  );
}
