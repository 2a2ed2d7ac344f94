import { useTranslation } from "react-i18next";
import { ariaDescribedByIds, type RJSFSchema, type WidgetProps } from "@rjsf/utils";
import type { ConfigFormContext } from "./formContext";
import { TemplateEditor } from "./TemplateEditor";
import "./texts";

/** TemplateWidget edits a string that reads variables: a {{ template }} or an expression. */
export function TemplateWidget(props: WidgetProps<unknown, RJSFSchema, ConfigFormContext>) {
  const { id, value, options, label, rawErrors, required, readonly, disabled, registry } = props;
  const { t } = useTranslation("config");
  const language = options.mode === "expression" ? "expression" : "template";
  const hintId = `${id}__hint`;
  return (
    <>
      <TemplateEditor
        id={id}
        value={typeof value === "string" ? value : ""}
        onChange={(text) => props.onChange(text === "" ? options.emptyValue : text)}
        onBlur={() => props.onBlur(id, value)}
        onFocus={() => props.onFocus(id, value)}
        label={label}
        describedBy={`${ariaDescribedByIds(id)} ${hintId}`}
        invalid={(rawErrors?.length ?? 0) > 0}
        required={required}
        readOnly={readonly || disabled}
        multiline={options.multiline === true}
        language={language}
        variables={registry.formContext.variables}
      />
      <small id={hintId} className="config-hint">
        {t(language === "expression" ? "expressionHint" : "templateHint", { open: "{{" })}
      </small>
    </>
  );
}
