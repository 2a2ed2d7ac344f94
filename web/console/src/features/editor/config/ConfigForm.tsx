// The form of an action's config, generated from its type's config_schema_json by rjsf with
// our widgets, validated as the person types by the validator compiled at build time.
import { useEffect, useMemo, useRef } from "react";
import { useTranslation } from "react-i18next";
import Form from "@rjsf/core";
import { createSchemaUtils, type RJSFSchema, type RegistryFieldsType, type RegistryWidgetsType } from "@rjsf/utils";
import { rjsfTemplates } from "../../../components/RjsfTemplates";
import { useRjsfTranslator } from "../../../components/rjsfTexts";
import { BodyField } from "./BodyField";
import { formatDuration } from "./duration";
import { DurationWidget } from "./DurationWidget";
import { diagnosticErrors, localizeErrors, type Diagnostic, type ErrorKey } from "./errors";
import type { ConfigFormContext } from "./formContext";
import { IntegrationField } from "./IntegrationField";
import { JsonField } from "./JsonField";
import { TemplateWidget } from "./TemplateWidget";
import "./texts";
import { FIELD, uiSchemaFor, WIDGET } from "./uiSchema";
import { WorkflowField } from "./WorkflowField";
import { uncheckedValidator, validatorFor } from "./validator";
import { propertyOrder } from "./validators.gen";

type Config = Record<string, unknown>;

// rjsf types every widget and field with the form's data type; each of ours takes its own value.
const widgets: RegistryWidgetsType = {
  [WIDGET.template]: TemplateWidget,
  [WIDGET.duration]: DurationWidget,
};
const fields: RegistryFieldsType = {
  [FIELD.integration]: IntegrationField,
  [FIELD.json]: JsonField,
  [FIELD.body]: BodyField,
  [FIELD.workflow]: WorkflowField,
};

type Props = {
  /** formKey names the form's ids: two panels of two actions never share one. */
  formKey: string;
  schema: RJSFSchema;
  /** actionTypeKey finds the order of the schema's fields (the server answers them sorted). */
  actionTypeKey: string;
  /** dependencyField is the config field holding the integration id, "" when none. */
  dependencyField: string;
  config: Config;
  diagnostics: Diagnostic[];
  context: ConfigFormContext;
  onChange: (config: Config) => void;
};

export function ConfigForm({ formKey, schema, actionTypeKey, dependencyField, config, diagnostics, context, onChange }: Props) {
  const { t, i18n } = useTranslation("config");
  const translateString = useRjsfTranslator();
  const typeLabel = (type: string) => t(type === "string" ? "typeString" : type === "array" ? "typeArray" : type === "object" ? "typeObject" : type === "integer" || type === "number" ? "typeNumber" : type === "boolean" ? "typeBoolean" : "typeOther");
  const uiSchema = useMemo(
    () =>
      uiSchemaFor(schema, {
        dependencyField,
        typeLabel,
        integrationLabel: t("integration"),
        rootLabel: t("settings"),
        order: (path) => propertyOrder[path ? `${actionTypeKey}/${path}` : actionTypeKey],
        itemLabel: (n, title, singular) => (title ? t("item", { name: title, n }) : t("itemOf", { name: singular, n })),
        addLabel: (title, singular) => (title ? t("addItem", { name: lowerFirst(title) }) : t("addItemOf", { name: lowerFirst(singular) })),
      }),
    // typeLabel and t change with the language only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [schema, dependencyField, actionTypeKey, i18n.language],
  );
  const validator = useMemo(() => validatorFor(schema), [schema]);
  // The form shows the schema's defaults; handing it the config with them filled in keeps it
  // from reporting them as a change the person made when it opens.
  const shown = useMemo(() => createSchemaUtils(validator ?? uncheckedValidator, schema).getDefaultFormState(schema, config) as Config, [validator, schema, config]);
  // Errors show from the start, not only after the first change: a new action says what it needs.
  const form = useRef<Form<Config, RJSFSchema, ConfigFormContext>>(null);
  useEffect(() => {
    form.current?.validateForm();
  }, []);
  const errorText = (key: ErrorKey, values?: Record<string, string | number>) => t(`errors.${key}`, values ?? {});
  const extraErrors = useMemo(
    () => diagnosticErrors(diagnostics, errorText, !!validator),
    // errorText changes with the language only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [diagnostics, validator, i18n.language],
  );

  return (
    <>
      {!validator && <p className="config-hint">{t("unchecked")}</p>}
      <Form<Config, RJSFSchema, ConfigFormContext>
        tagName="div"
        idPrefix={`config-${formKey}`}
        schema={schema}
        uiSchema={uiSchema}
        ref={form}
        formData={shown}
        formContext={context}
        validator={validator ?? uncheckedValidator}
        widgets={widgets}
        fields={fields}
        templates={rjsfTemplates}
        liveValidate="onChange"
        showErrorList={false}
        noHtml5Validate
        extraErrors={extraErrors}
        transformErrors={(errors) => localizeErrors(errors, schema, errorText, (s) => formatDuration(s, i18n.language))}
        translateString={translateString}
        onChange={(e) => onChange(e.formData ?? {})}
        // The errors show on their fields; rjsf would also log them.
        onError={() => {}}
      />
    </>
  );
}

/** lowerFirst writes a name as it reads inside a sentence: "Case" as "case", "JSON field" as it is. */
function lowerFirst(name: string): string {
  return /^\p{Lu}\p{Ll}/u.test(name) ? name.charAt(0).toLowerCase() + name.slice(1) : name;
}
