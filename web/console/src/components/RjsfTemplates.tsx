// What every rjsf form of the console (the action config forms, the integration forms) draws
// in place of rjsf's own: labels with the house's required mark, and list buttons with inline
// icons (rjsf's use a glyph font the console does not load) named by rjsf's texts, in the
// person's language.
import { getDefaultRegistry } from "@rjsf/core";
import { getUiOptions, TranslatableString, type BaseInputTemplateProps, type FieldTemplateProps, type IconButtonProps, type TitleFieldProps } from "@rjsf/utils";

/** RequiredMark marks a required field's label. The field itself says it is required to
 * assistive technology (required, aria-required), so the mark is not read as part of its name. */
function RequiredMark() {
  return (
    <span className="required" aria-hidden="true">
      *
    </span>
  );
}

/** FieldLabel is the label of one field of a generated form. */
export function FieldLabel({ id, label, required }: { id: string; label: string; required?: boolean }) {
  return (
    <label htmlFor={id} className="control-label">
      {label}
      {required && <RequiredMark />}
    </label>
  );
}

const { BaseInputTemplate: DefaultInputTemplate, WrapIfAdditionalTemplate } = getDefaultRegistry().templates;

/** FieldTemplate is rjsf's, with our label. */
export function FieldTemplate(props: FieldTemplateProps) {
  const { id, label, children, errors, help, description, hidden, required, displayLabel, uiSchema } = props;
  const uiOptions = getUiOptions(uiSchema);
  if (hidden) return <div className="hidden">{children}</div>;
  return (
    <WrapIfAdditionalTemplate {...props}>
      {displayLabel && uiOptions.widget !== "checkbox" && label && <FieldLabel id={id} label={label} required={required} />}
      {displayLabel && description ? description : null}
      {children}
      {errors}
      {help}
    </WrapIfAdditionalTemplate>
  );
}

/** TitleField is the legend of a group of fields (an object, a list), with our mark. */
export function TitleField({ id, title, required, optionalDataControl }: TitleFieldProps) {
  return (
    <legend id={id}>
      {title}
      {required && <RequiredMark />}
      {optionalDataControl}
    </legend>
  );
}

// Stroked outlines on a 24-unit grid, as the console's other icons.
const paths = {
  add: "M12 5v14M5 12h14",
  remove: "M5 7h14M10 11v6M14 11v6M6 7l1 12h10l1-12M9 7V4h6v3",
  up: "M12 19V5M6 11l6-6 6 6",
  down: "M12 5v14M6 13l6 6 6-6",
  copy: "M9 9h10v10H9zM5 15V5h10",
  clear: "M6 6l12 12M18 6L6 18",
};

/** ButtonIcon is one of the list buttons' icons; the button's name says what it does. */
function ButtonIcon({ name }: { name: keyof typeof paths }) {
  return (
    <svg className="button-icon" viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
      <path d={paths[name]} fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/** iconButton is a list button drawn as its icon alone, named by rjsf's text for it. */
function iconButton(icon: keyof typeof paths, words: TranslatableString, kind: string) {
  return function ListButton({ id, className, disabled, onClick, registry }: IconButtonProps) {
    const name = registry.translateString(words);
    return (
      <button type="button" id={id} className={`icon-button ${kind} ${className ?? ""}`} disabled={disabled} onClick={onClick} aria-label={name} title={name}>
        <ButtonIcon name={icon} />
      </button>
    );
  };
}

/** AddItemButton adds an item to a list: its icon and its words, the list's own
 * (ui:options addLabel, "Add case") where its form names its items, else rjsf's. */
function AddItemButton({ id, className, disabled, onClick, registry, uiSchema }: IconButtonProps) {
  const { addLabel } = getUiOptions(uiSchema);
  return (
    <button type="button" id={id} className={`add-item ${className ?? ""}`} disabled={disabled} onClick={onClick}>
      <ButtonIcon name="add" />
      {typeof addLabel === "string" ? addLabel : registry.translateString(TranslatableString.AddItemButton)}
    </button>
  );
}

/** InputMarkedInvalid is rjsf's input, marked invalid while its field shows an error, as
 * our other fields are. */
function InputMarkedInvalid(props: BaseInputTemplateProps) {
  return <DefaultInputTemplate {...props} aria-invalid={(props.rawErrors?.length ?? 0) > 0 ? true : undefined} />;
}

const buttons = {
  AddButton: AddItemButton,
  RemoveButton: iconButton("remove", TranslatableString.RemoveButton, "remove-item"),
  MoveUpButton: iconButton("up", TranslatableString.MoveUpButton, "move-item"),
  MoveDownButton: iconButton("down", TranslatableString.MoveDownButton, "move-item"),
  CopyButton: iconButton("copy", TranslatableString.CopyButton, "copy-item"),
  ClearButton: iconButton("clear", TranslatableString.ClearButton, "clear-value"),
};

/** rjsfTemplates are the templates every rjsf form of the console uses instead of rjsf's. */
export const rjsfTemplates = {
  FieldTemplate,
  TitleFieldTemplate: TitleField,
  BaseInputTemplate: InputMarkedInvalid,
  ButtonTemplates: buttons,
};
