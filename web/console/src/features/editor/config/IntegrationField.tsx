import { useTranslation } from "react-i18next";
import { ariaDescribedByIds, descriptionId, getUiOptions, type FieldProps, type RJSFSchema } from "@rjsf/utils";
import type { ConfigFormContext } from "./formContext";
import { useDependencyTypes, useProjectIntegrations } from "../../integrations/integrations";
import "./texts";
import { FieldLabel } from "../../../components/RjsfTemplates";

/** acceptsEmpty: the schema takes "" for "no integration" (http.request's optional credential). */
function acceptsEmpty(schema: RJSFSchema): boolean {
  return (schema.anyOf ?? []).some((o) => typeof o === "object" && o.const === "");
}

/**
 * IntegrationField picks one of the project's integrations of the type the action takes, or
 * says which kind to create when the project has none.
 */
export function IntegrationField(props: FieldProps<unknown, RJSFSchema, ConfigFormContext>) {
  const { fieldPathId, formData, schema, uiSchema, name, required, readonly, disabled, registry, rawErrors } = props;
  const { projectId, dependencyTypeKey } = registry.formContext;
  const { t } = useTranslation("config");
  const { t: tc } = useTranslation();
  const integrations = useProjectIntegrations(projectId);
  const types = useDependencyTypes();
  const id = fieldPathId.$id;
  const label = getUiOptions(uiSchema).title ?? schema.title ?? name;
  const value = typeof formData === "string" ? formData : "";
  const mine = (integrations.data ?? []).filter((d) => d.dependency_type_key === dependencyTypeKey);
  const typeName = types.data?.find((d) => d.dependency_type_key === dependencyTypeKey)?.display_name ?? dependencyTypeKey;
  const empty = acceptsEmpty(schema);
  const known = value === "" || mine.some((d) => d.action_dependency_id === value);

  return (
    <div className="field">
      <FieldLabel id={id} label={label} required={required} />
      <select
        id={id}
        value={value}
        required={required}
        disabled={disabled || readonly || integrations.isPending}
        aria-invalid={(rawErrors?.length ?? 0) > 0}
        aria-describedby={ariaDescribedByIds(id)}
        onChange={(e) => props.onChange(e.target.value === "" && !empty ? undefined : e.target.value, fieldPathId.path)}
      >
        <option value="">{empty || !required ? t("integrationNone") : t("integrationChoose")}</option>
        {mine.map((d) => (
          <option key={d.action_dependency_id} value={d.action_dependency_id}>
            {d.status === "disabled" ? t("integrationDisabled", { name: d.name }) : d.name}
          </option>
        ))}
        {!known && <option value={value}>{t("integrationUnknown", { id: value })}</option>}
      </select>
      {integrations.isPending && <small className="config-hint">{tc("loading")}</small>}
      {integrations.isError && (
        <small className="config-hint field-error" role="alert">
          {t("integrationsFailed")}
        </small>
      )}
      {integrations.isSuccess && mine.length === 0 && <p className="config-missing">{t("integrationMissing", { type: typeName })}</p>}
      {schema.description && (
        <div id={descriptionId(id)} className="field-description">
          {schema.description}
        </div>
      )}
    </div>
  );
}
