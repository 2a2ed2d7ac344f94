import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { ariaDescribedByIds, descriptionId, getUiOptions, type FieldProps, type RJSFSchema } from "@rjsf/utils";
import type { ConfigFormContext } from "./formContext";
import { FieldLabel } from "../../../components/RjsfTemplates";

type Props = {
  field: FieldProps<unknown, RJSFSchema, ConfigFormContext>;
  /** none is the first option's text, which chooses nothing. */
  none: string;
  /** options are what the project has, once loaded (undefined until then). */
  options: { value: string; label: string }[] | undefined;
  /** unknown names a chosen id none of the options has. */
  unknown: (id: string) => string;
  pending: boolean;
  /** failed says why the options could not be loaded, "" when they were. */
  failed: string;
  /** keepsEmpty: choosing nothing stores "" (the schema takes it) instead of removing the field. */
  keepsEmpty?: boolean;
  /** children are notes shown under the list. */
  children?: ReactNode;
};

/**
 * ReferenceSelect is a config field that holds the id of something of the project (an
 * integration, a workflow), picked by name from a list; an id the project does not have
 * stays shown, and chosen, as such.
 */
export function ReferenceSelect({ field, none, options, unknown, pending, failed, keepsEmpty, children }: Props) {
  const { t } = useTranslation();
  const { fieldPathId, formData, schema, uiSchema, name, required, readonly, disabled, rawErrors } = field;
  const id = fieldPathId.$id;
  const label = getUiOptions(uiSchema).title ?? schema.title ?? name;
  const value = typeof formData === "string" ? formData : "";
  const known = value === "" || !options || options.some((o) => o.value === value);

  return (
    <div className="field">
      <FieldLabel id={id} label={label} required={required} />
      <select
        id={id}
        value={value}
        required={required}
        disabled={disabled || readonly || pending}
        aria-invalid={(rawErrors?.length ?? 0) > 0}
        aria-describedby={ariaDescribedByIds(id)}
        onChange={(e) => field.onChange(e.target.value === "" && !keepsEmpty ? undefined : e.target.value, fieldPathId.path)}
      >
        <option value="">{none}</option>
        {(options ?? []).map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
        {!known && <option value={value}>{unknown(value)}</option>}
      </select>
      {pending && <small className="config-hint">{t("loading")}</small>}
      {failed && (
        <small className="config-hint field-error" role="alert">
          {failed}
        </small>
      )}
      {children}
      {schema.description && (
        <div id={descriptionId(id)} className="field-description">
          {schema.description}
        </div>
      )}
    </div>
  );
}
