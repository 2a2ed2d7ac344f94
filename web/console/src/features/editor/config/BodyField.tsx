import { useTranslation } from "react-i18next";
import { ariaDescribedByIds, descriptionId, getUiOptions, type FieldProps, type RJSFSchema } from "@rjsf/utils";
import type { ConfigFormContext } from "./formContext";
import { JsonEditor } from "./JsonEditor";
import { TemplateEditor } from "./TemplateEditor";
import "./texts";

type Kind = "none" | "text" | "json";

const kindOf = (v: unknown): Kind => (v === undefined ? "none" : typeof v === "string" ? "text" : "json");

/**
 * BodyField edits a value that is text or a JSON object (http.request's body): the person
 * says which, so JSON being typed is never sent as text by accident.
 */
export function BodyField(props: FieldProps<unknown, RJSFSchema, ConfigFormContext>) {
  const { fieldPathId, formData, schema, uiSchema, name, readonly, disabled, registry, rawErrors } = props;
  const { t } = useTranslation("config");
  const id = fieldPathId.$id;
  const kind = kindOf(formData);
  const label = getUiOptions(uiSchema).title ?? schema.title ?? name;
  const set = (v: unknown) => props.onChange(v, fieldPathId.path);
  const choose = (next: Kind) => set(next === "none" ? undefined : next === "text" ? "" : {});
  const variables = registry.formContext.variables;
  const invalid = (rawErrors?.length ?? 0) > 0;
  return (
    <fieldset className="config-body">
      <legend>{label}</legend>
      <div className="row" role="radiogroup" aria-label={t("bodyKind")}>
        {(["none", "text", "json"] as const).map((k) => (
          <label key={k} className="inline">
            <input type="radio" name={`${id}__kind`} checked={kind === k} disabled={disabled || readonly} onChange={() => choose(k)} />
            {t(k === "none" ? "bodyNone" : k === "text" ? "bodyText" : "bodyJson")}
          </label>
        ))}
      </div>
      {kind === "text" && (
        <TemplateEditor
          id={id}
          value={typeof formData === "string" ? formData : ""}
          onChange={set}
          label={label}
          describedBy={ariaDescribedByIds(id)}
          invalid={invalid}
          readOnly={readonly || disabled}
          multiline
          language="template"
          variables={variables}
        />
      )}
      {kind === "json" && (
        <JsonEditor
          id={id}
          value={formData}
          shape="object"
          onChange={(v) => set(v ?? {})}
          label={label}
          describedBy={ariaDescribedByIds(id)}
          invalid={invalid}
          readOnly={readonly || disabled}
          variables={variables}
        />
      )}
      {schema.description && (
        <div id={descriptionId(id)} className="field-description">
          {schema.description}
        </div>
      )}
    </fieldset>
  );
}
