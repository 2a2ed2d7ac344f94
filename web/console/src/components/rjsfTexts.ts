// rjsf's own texts (its buttons, its empty lists), by the name of its TranslatableString,
// for every form rjsf generates: the action config forms and the integration forms.
import { useTranslation } from "react-i18next";
import { replaceStringParameters, TranslatableString } from "@rjsf/utils";
import { texts } from "../lib/texts";

export const rjsf = texts(
  "rjsf",
  {
    ArrayItemTitle: "Item",
    EmptyArray: "No items yet.",
    YesLabel: "Yes",
    NoLabel: "No",
    AddButton: "Add",
    AddItemButton: "Add item",
    CopyButton: "Copy",
    MoveDownButton: "Move down",
    MoveUpButton: "Move up",
    RemoveButton: "Remove",
    ClearButton: "Clear",
    OptionPrefix: "Option %1",
    TitleOptionPrefix: "%1: option %2",
    KeyLabel: "%1 key",
    NewStringDefault: "New value",
    Type: "Type",
    Value: "Value",
    ErrorsLabel: "Errors",
    OptionalObjectAdd: "Add this optional field",
    OptionalObjectRemove: "Remove this optional field",
    OptionalObjectEmptyMsg: "Not set",
  },
  {
    ArrayItemTitle: "Элемент",
    EmptyArray: "Пока пусто.",
    YesLabel: "Да",
    NoLabel: "Нет",
    AddButton: "Добавить",
    AddItemButton: "Добавить элемент",
    CopyButton: "Копировать",
    MoveDownButton: "Ниже",
    MoveUpButton: "Выше",
    RemoveButton: "Удалить",
    ClearButton: "Очистить",
    OptionPrefix: "Вариант %1",
    TitleOptionPrefix: "%1: вариант %2",
    KeyLabel: "Ключ %1",
    NewStringDefault: "Новое значение",
    Type: "Тип",
    Value: "Значение",
    ErrorsLabel: "Ошибки",
    OptionalObjectAdd: "Добавить это необязательное поле",
    OptionalObjectRemove: "Убрать это необязательное поле",
    OptionalObjectEmptyMsg: "Не задано",
  },
);

type RjsfText = keyof typeof rjsf.en;
const names = new Map(Object.entries(TranslatableString).map(([name, english]) => [english as string, name]));

/** useRjsfTranslator is a form's translateString: rjsf's texts in the interface's language
 * (%1 and %2 are its parameters); one we have no words for stays as rjsf has it. */
export function useRjsfTranslator(): (english: TranslatableString, params?: string[]) => string {
  const { t } = useTranslation("rjsf");
  return (english, params) => {
    const name = names.get(english);
    const words = name && name in rjsf.en ? t(name as RjsfText) : english;
    return replaceStringParameters(words, params);
  };
}
