import { useTranslation } from "react-i18next";
import type { FieldProps, RJSFSchema } from "@rjsf/utils";
import type { ConfigFormContext } from "./formContext";
import { useDependencyTypes, useProjectIntegrations } from "../../integrations/integrations";
import { ReferenceSelect } from "./ReferenceSelect";
import "./texts";

/** acceptsEmpty: the schema takes "" for "no integration" (http.request's optional credential). */
function acceptsEmpty(schema: RJSFSchema): boolean {
  return (schema.anyOf ?? []).some((o) => typeof o === "object" && o.const === "");
}

/**
 * IntegrationField picks one of the project's integrations of the type the action takes, or
 * says which kind to create when the project has none.
 */
export function IntegrationField(props: FieldProps<unknown, RJSFSchema, ConfigFormContext>) {
  const { schema, required, registry } = props;
  const { projectId, dependencyTypeKey } = registry.formContext;
  const { t } = useTranslation("config");
  const integrations = useProjectIntegrations(projectId);
  const types = useDependencyTypes();
  const mine = integrations.data?.filter((d) => d.dependency_type_key === dependencyTypeKey);
  const typeName = types.data?.find((d) => d.dependency_type_key === dependencyTypeKey)?.display_name ?? dependencyTypeKey;
  const empty = acceptsEmpty(schema);

  return (
    <ReferenceSelect
      field={props}
      none={empty || !required ? t("integrationNone") : t("integrationChoose")}
      options={mine?.map((d) => ({
        value: d.action_dependency_id,
        label: d.status === "disabled" ? t("integrationDisabled", { name: d.name }) : d.name,
      }))}
      unknown={(id) => t("integrationUnknown", { id })}
      pending={integrations.isPending}
      failed={integrations.isError ? t("integrationsFailed") : ""}
      keepsEmpty={empty}
    >
      {mine?.length === 0 && <p className="config-missing">{t("integrationMissing", { type: typeName })}</p>}
    </ReferenceSelect>
  );
}
