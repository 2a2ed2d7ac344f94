// The editor's panel for one action: its label, key and type, its problems, and the form of
// its config generated from the type's schema.
import { useId, useMemo, type JSX } from "react";
import { useTranslation } from "react-i18next";
import { byKey, useActionTypes, type ActionType } from "../../../canvas/catalog";
import type { Action, Graph } from "../../../canvas/graph";
import { ConfigForm } from "./ConfigForm";
import { diagnosticText, type Diagnostic, type ErrorKey } from "./errors";
import type { ConfigFormContext } from "./formContext";
import { formSchema } from "./formSchema";
import { SchedulePreview } from "./SchedulePreview";
import { variablesInScope } from "./scope";
import "./config.css";
import "./texts";

export type ActionConfigPanelProps = {
  action: Action;
  actionType: ActionType | undefined;
  graph: Graph;
  projectId: string;
  testInput: Record<string, unknown>;
  diagnostics: Diagnostic[];
  onChange: (next: Action) => void;
};

export function ActionConfigPanel({ action, actionType, graph, projectId, testInput, diagnostics, onChange }: ActionConfigPanelProps): JSX.Element {
  const { t } = useTranslation("config");
  const titleId = useId();
  const labelId = useId();
  const catalog = useActionTypes();
  const types = useMemo(() => byKey(catalog.data ?? []), [catalog.data]);
  const schema = useMemo(() => (actionType ? formSchema(actionType.config_schema_json) : undefined), [actionType]);
  const variables = useMemo(
    () => variablesInScope({ graph, actionKey: action.action_key, types, testInput }),
    [graph, action.action_key, types, testInput],
  );
  const context = useMemo<ConfigFormContext>(
    () => ({ variables, projectId, dependencyTypeKey: actionType?.dependency_type_key ?? "" }),
    [variables, projectId, actionType],
  );
  const config = action.config ?? {};

  return (
    <section className="config-panel stack" aria-labelledby={titleId}>
      <header>
        <h2 id={titleId}>{t("panelTitle")}</h2>
        <dl className="config-facts">
          <dt>{t("type")}</dt>
          <dd>{actionType?.display_name ?? action.action_type_key}</dd>
          <dt>{t("actionKey")}</dt>
          <dd>
            <code>{action.action_key}</code>
            <small className="config-hint">{t("actionKeyHint", { key: action.action_key })}</small>
          </dd>
        </dl>
      </header>
      <div className="field">
        <label htmlFor={labelId}>{t("label")}</label>
        <input id={labelId} value={action.label ?? ""} maxLength={200} onChange={(e) => onChange({ ...action, label: e.target.value })} />
      </div>
      <DiagnosticList diagnostics={diagnostics} />
      {schema && actionType ? (
        <ConfigForm
          key={`${action.action_key}:${action.action_type_key}`}
          formKey={action.action_key}
          schema={schema}
          actionTypeKey={action.action_type_key}
          dependencyField={actionType.dependency_field}
          config={config}
          diagnostics={diagnostics}
          context={context}
          onChange={(next) => onChange({ ...action, config: next })}
        />
      ) : (
        <p className="alert">{t("unknownType", { type: action.action_type_key })}</p>
      )}
      {action.action_type_key === "schedule.trigger" && <SchedulePreview config={config} />}
    </section>
  );
}

/** DiagnosticList lists the server's problems with the action, each with its field. */
function DiagnosticList({ diagnostics }: { diagnostics: Diagnostic[] }) {
  const { t } = useTranslation("config");
  if (diagnostics.length === 0) return null;
  return (
    <div className="config-problems">
      <h3>{t("problems", { count: diagnostics.length })}</h3>
      <ul>
        {diagnostics.map((d, i) => (
          <li key={i} className={d.severity}>
            <strong>{t(d.severity === "error" ? "error" : "warning")}:</strong> {diagnosticText(d, (key: ErrorKey, values) => t(`errors.${key}`, values ?? {}))}
            {d.field && <span className="muted"> ({t("onField", { field: d.field })})</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}
