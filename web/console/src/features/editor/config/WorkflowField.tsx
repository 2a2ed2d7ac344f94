import { useTranslation } from "react-i18next";
import { ariaDescribedByIds, descriptionId, getUiOptions, type FieldProps, type RJSFSchema } from "@rjsf/utils";
import type { ConfigFormContext } from "./formContext";
import { useProjectWorkflows } from "../../workflows/workflow";
import "./texts";
import { FieldLabel } from "../../../components/RjsfTemplates";

/** WorkflowField picks one of the project's workflows by name, for a config field that holds
 * a workflow's id; an id the project does not have stays shown as such. */
export function WorkflowField(props: FieldProps<unknown, RJSFSchema, ConfigFormContext>) {
  const { fieldPathId, formData, schema, uiSchema, name, required, readonly, disabled, registry, rawErrors } = props;
  const { t } = useTranslation("config");
  const { t: tc } = useTranslation();
  const workflows = useProjectWorkflows(registry.formContext.projectId);
  const id = fieldPathId.$id;
  const label = getUiOptions(uiSchema).title ?? schema.title ?? name;
  const value = typeof formData === "string" ? formData : "";
  const known = value === "" || !workflows.items || workflows.items.some((w) => w.workflow_id === value);

  return (
    <div className="field">
      <FieldLabel id={id} label={label} required={required} />
      <select
        id={id}
        value={value}
        required={required}
        disabled={disabled || readonly || workflows.isPending}
        aria-invalid={(rawErrors?.length ?? 0) > 0}
        aria-describedby={ariaDescribedByIds(id)}
        onChange={(e) => props.onChange(e.target.value === "" ? undefined : e.target.value, fieldPathId.path)}
      >
        <option value="">{t("workflowChoose")}</option>
        {(workflows.items ?? []).map((w) => (
          <option key={w.workflow_id} value={w.workflow_id}>
            {w.name}
          </option>
        ))}
        {!known && <option value={value}>{t("workflowUnknown", { id: value })}</option>}
      </select>
      {workflows.isPending && <small className="config-hint">{tc("loading")}</small>}
      {workflows.isError && (
        <small className="config-hint field-error" role="alert">
          {t("workflowsFailed")}
        </small>
      )}
      {schema.description && (
        <div id={descriptionId(id)} className="field-description">
          {schema.description}
        </div>
      )}
    </div>
  );
}
