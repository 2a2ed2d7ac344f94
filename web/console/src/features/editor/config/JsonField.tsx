import { ariaDescribedByIds, descriptionId, getUiOptions, type FieldProps, type RJSFSchema } from "@rjsf/utils";
import type { ConfigFormContext } from "./formContext";
import { JsonEditor, type JsonShape } from "./JsonEditor";
import { FieldLabel } from "../../../components/RjsfTemplates";

/** JsonField edits a field whose value is free JSON: headers, a sample payload, a schema. */
export function JsonField(props: FieldProps<unknown, RJSFSchema, ConfigFormContext>) {
  const { fieldPathId, formData, schema, uiSchema, name, required, readonly, disabled, registry, rawErrors } = props;
  const id = fieldPathId.$id;
  const shape: JsonShape = schema.type === "object" || schema.type === "array" ? schema.type : "any";
  const label = getUiOptions(uiSchema).title ?? schema.title ?? name;
  return (
    <div className="field">
      <FieldLabel id={id} label={label} required={required} />
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
