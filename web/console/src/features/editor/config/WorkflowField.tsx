import { useTranslation } from "react-i18next";
import type { FieldProps, RJSFSchema } from "@rjsf/utils";
import type { ConfigFormContext } from "./formContext";
import { useProjectWorkflows } from "../../workflows/workflow";
import { ReferenceSelect } from "./ReferenceSelect";
import "./texts";

/** WorkflowField picks one of the project's workflows by name, for a config field that holds
 * a workflow's id (workflow.call's workflow, run.event_trigger's watched workflows). */
export function WorkflowField(props: FieldProps<unknown, RJSFSchema, ConfigFormContext>) {
  const { t } = useTranslation("config");
  const workflows = useProjectWorkflows(props.registry.formContext.projectId);
  return (
    <ReferenceSelect
      field={props}
      none={t("workflowChoose")}
      options={workflows.items?.map((w) => ({ value: w.workflow_id, label: w.name }))}
      unknown={(id) => t("workflowUnknown", { id })}
      pending={workflows.isPending}
      failed={workflows.isError ? t("workflowsFailed") : ""}
    />
  );
}
