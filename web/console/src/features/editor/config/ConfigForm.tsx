// The form of an action's config, generated from its type's config_schema_json by rjsf with
// our widgets, validated as the person types by the validator compiled at build time.
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import Form from "@rjsf/core";
import { replaceStringParameters, TranslatableString, type RJSFSchema, type RegistryFieldsType, type RegistryWidgetsType } from "@rjsf/utils";
import { BodyField } from "./BodyField";
import { formatDuration } from "./duration";
import { DurationWidget } from "./DurationWidget";
import { diagnosticErrors, localizeErrors, type Diagnostic, type ErrorKey } from "./errors";
import type { ConfigFormContext } from "./formContext";
import { IntegrationField } from "./IntegrationField";
import { JsonField } from "./JsonField";
import { TemplateWidget } from "./TemplateWidget";
import { config as configTexts } from "./texts";
import { FIELD, uiSchemaFor, WIDGET } from "./uiSchema";
import { uncheckedValidator, validatorFor } from "./validator";

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
};

type RjsfText = keyof typeof configTexts.en.rjsf;
const rjsfNames = new Map(Object.entries(TranslatableString).map(([name, english]) => [english as string, name]));

type Props = {
  /** formKey names the form's ids: two panels of two actions never share one. */
  formKey: string;
  schema: RJSFSchema;
  /** dependencyField is the config field holding the integration id, "" when none. */
  dependencyField: string;
  config: Config;
  diagnostics: Diagnostic[];
  context: ConfigFormContext;
  onChange: (config: Config) => void;
};

export function ConfigForm({ formKey, schema, dependencyField, config, diagnostics, context, onChange }: Props) {
  const { t, i18n } = useTranslation("config");
  const typeLabel = (type: string) => t(type === "string" ? "typeString" : type === "array" ? "typeArray" : type === "object" ? "typeObject" : type === "integer" || type === "number" ? "typeNumber" : type === "boolean" ? "typeBoolean" : "typeOther");
  const uiSchema = useMemo(
    () => uiSchemaFor(schema, dependencyField, typeLabel),
    // typeLabel changes with the language only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [schema, dependencyField, i18n.language],
  );
  const validator = useMemo(() => validatorFor(schema), [schema]);
  const extraErrors = useMemo(() => diagnosticErrors(diagnostics), [diagnostics]);

  return (
    <>
      {!validator && <p className="config-hint">{t("unchecked")}</p>}
      <Form<Config, RJSFSchema, ConfigFormContext>
        tagName="div"
        idPrefix={`config-${formKey}`}
        schema={schema}
        uiSchema={uiSchema}
        formData={config}
        formContext={context}
        validator={validator ?? uncheckedValidator}
        widgets={widgets}
        fields={fields}
        liveValidate="onChange"
        showErrorList={false}
        noHtml5Validate
        extraErrors={extraErrors}
        transformErrors={(errors) => localizeErrors(errors, schema, (key: ErrorKey, values) => t(`errors.${key}`, values ?? {}), (s) => formatDuration(s, i18n.language))}
        translateString={(english, params) => {
          const name = rjsfNames.get(english);
          const words = name && name in configTexts.en.rjsf ? t(`rjsf.${name as RjsfText}`) : english;
          return replaceStringParameters(words, params);
        }}
        onChange={(e) => onChange(e.formData ?? {})}
      />
    </>
  );
}
