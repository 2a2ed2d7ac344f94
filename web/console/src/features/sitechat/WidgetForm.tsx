import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Field } from "../../components/Field";
import { ProblemAlert, fieldError } from "../../components/ProblemAlert";
import { SelectField } from "../../components/SelectField";
import { useSaveWidget, type ChatWidget } from "./queries";
import { TemplatesEditor } from "./TemplatesEditor";
import { bodyOf, draftOf, type WidgetDraft } from "./widgetForm";
import { WidgetPreview } from "./WidgetPreview";

const shownFields = ["name", "title", "subtitle", "accent_color", "position", "sampling_rate", "settings_json"];

/** WidgetForm creates a widget or changes one, beside a live preview of what the site's
 * visitors will see. */
export function WidgetForm({ projectId, widget, onSaved }: { projectId: string; widget?: ChatWidget; onSaved: (w: ChatWidget) => void }) {
  const { t } = useTranslation("siteChat");
  const [draft, setDraft] = useState<WidgetDraft>(() =>
    draftOf(widget, { name: t("desk"), title: t("defaultTitle"), subtitle: t("defaultSubtitle") }),
  );
  const [ownProblem, setOwnProblem] = useState<unknown>();
  const [saved, setSaved] = useState(false);
  const save = useSaveWidget(projectId);
  const error = ownProblem ?? save.error;
  const set = <K extends keyof WidgetDraft>(key: K, value: WidgetDraft[K]) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setSaved(false);
  };

  function submit(e: FormEvent) {
    e.preventDefault();
    setOwnProblem(undefined);
    let body;
    try {
      body = bodyOf(draft, widget?.settings_json, { duplicateTemplate: t("duplicateTemplate"), emptyTemplate: t("emptyTemplate"), samplingRate: t("samplingRateHint") });
    } catch (problem) {
      setOwnProblem(problem);
      return;
    }
    save.mutate(
      { id: widget?.chat_widget_id, body },
      {
        onSuccess: (w) => {
          setSaved(true);
          onSaved(w);
        },
      },
    );
  }

  const unshown = error && !shownFields.some((f) => fieldError(error, f));
  return (
    <div className="widget-layout">
      <form className="stack panel" onSubmit={submit} noValidate>
        <Field label={t("widgetName")} name="name" hint={t("widgetNameHint")} required maxLength={200} value={draft.name} error={error} onChange={(e) => set("name", e.target.value)} />
        <Field label={t("widgetTitle")} name="title" maxLength={120} value={draft.title} error={error} onChange={(e) => set("title", e.target.value)} />
        <Field label={t("widgetSubtitle")} name="subtitle" maxLength={200} value={draft.subtitle} error={error} onChange={(e) => set("subtitle", e.target.value)} />
        <div className="row align-end">
          <Field
            label={t("accentColor")}
            name="accent_color"
            hint={t("accentColorHint")}
            value={draft.accent_color}
            error={error}
            spellCheck={false}
            onChange={(e) => set("accent_color", e.target.value)}
          />
          <input
            type="color"
            className="swatch"
            aria-label={t("pickColor")}
            value={/^#[0-9a-fA-F]{6}$/.test(draft.accent_color) ? draft.accent_color : "#2563eb"}
            onChange={(e) => set("accent_color", e.target.value)}
          />
        </div>
        <SelectField label={t("position")} name="position" value={draft.position} error={error} onChange={(e) => set("position", e.target.value === "left" ? "left" : "right")}>
          <option value="right">{t("position_right")}</option>
          <option value="left">{t("position_left")}</option>
        </SelectField>
        <Field
          label={t("samplingRate")}
          name="sampling_rate"
          hint={t("samplingRateHint")}
          inputMode="decimal"
          value={draft.sampling_percent}
          error={error}
          onChange={(e) => set("sampling_percent", e.target.value)}
        />
        <label className="inline">
          <input type="checkbox" checked={draft.heavy_tracking_default} onChange={(e) => set("heavy_tracking_default", e.target.checked)} />
          {t("heavyTracking")}
        </label>
        <TemplatesEditor templates={draft.templates} onChange={(templates) => set("templates", templates)} error={error} />
        {unshown ? <ProblemAlert error={error} /> : null}
        <div className="row">
          <button type="submit" className="primary" disabled={save.isPending}>
            {save.isPending ? t("sending") : widget ? t("saveWidget") : t("createWidget")}
          </button>
          <span role="status" className="field-ok">
            {saved ? t("saved") : ""}
          </span>
        </div>
      </form>
      <WidgetPreview title={draft.title} subtitle={draft.subtitle} accent={draft.accent_color} position={draft.position} />
    </div>
  );
}
