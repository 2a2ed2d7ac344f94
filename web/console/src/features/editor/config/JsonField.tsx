import { useTranslation } from "react-i18next";
import { ariaDescribedByIds, descriptionId, getUiOptions, type FieldProps, type RJSFSchema } from "@rjsf/utils";
import type { ConfigFormContext } from "./formContext";
import { JsonEditor, type JsonShape } from "./JsonEditor";
import { FieldLabel } from "../../../components/RjsfTemplates";

/** A map of names to values (data.set's fields, headers) that has no entry yet. */
function emptyMap(schema: RJSFSchema, value: unknown): boolean {
  // rjsf stubs properties for the entries a map already has, so a map is told by its
  // additionalProperties, and "no entry" by the value.
  const map = schema.type === "object" && typeof schema.additionalProperties === "object";
  return map && (value === undefined || value === null || (typeof value === "object" && Object.keys(value).length === 0));
}

/** JsonField edits a field whose value is free JSON: headers, a sample payload, a schema.
 * A map without entries says how to write one, instead of showing an empty box alone. */
export function JsonField(props: FieldProps<unknown, RJSFSchema, ConfigFormContext>) {
  const { t } = useTranslation("config");
  const { fieldPathId, formData, schema, uiSchema, name, required, readonly, disabled, registry, rawErrors } = props;
  const id = fieldPathId.$id;
  const shape: JsonShape = schema.type === "object" || schema.type === "array" ? schema.type : "any";
  const label = getUiOptions(uiSchema).title ?? schema.title ?? name;
  return (
    <div className="field">
      <FieldLabel id={id} label={label} required={required} />
      {emptyMap(schema, formData) && <p className="config-empty-map">{t("emptyMapHint")}</p>}
      <JsonEditor
        id={id}
        value={formData}
        shape={shape}
        onChange={(v) => props.onChange(v, fieldPathId.path)}
        label={label}
        describedBy={ariaDescribedByIds(id)}
        invalid={(rawErrors?.length ?? 0) > 0}
        readOnly={readonly || disabled}
        variables={registry.formContext.variables}
      />
      {schema.description && (
        <div id={descriptionId(id)} className="field-description">
          {schema.description}
        </div>
      )}
    </div>
  );
}
