import { texts } from "../lib/texts";

/** Texts of the registry identifiers: their names, and what their fields (TaxIdField) say as
 * the person types. */
export const taxid = texts(
  "taxid",
  {
    inn: "INN",
    kpp: "KPP",
    ogrn: "OGRN",
    ogrnip: "OGRNIP",
    bik: "BIK",
    settlement_account: "Settlement account",
    correspondent_account: "Correspondent account",
    typed: "{{n}} of {{length}}",
    checkDigitMatches: "The check digit matches",
    wellFormed: "Well formed",
    format: "{{length}} digits, nothing else",
    kppFormat: "9 characters: 4 digits, 2 digits or capital Latin letters, 3 digits",
    checksum: "The check digit does not match: a digit is mistyped",
    needsBik: "Checked against the bank's BIK: fill in the BIK",
  },
  {
    inn: "ИНН",
    kpp: "КПП",
    ogrn: "ОГРН",
    ogrnip: "ОГРНИП",
    bik: "БИК",
    settlement_account: "Расчётный счёт",
    correspondent_account: "Корреспондентский счёт",
    typed: "{{n}} из {{length}}",
    checkDigitMatches: "Контрольная цифра сходится",
    wellFormed: "Формат верный",
    format: "Ровно {{length}} цифр, без других знаков",
    kppFormat: "9 знаков: 4 цифры, 2 цифры или заглавные латинские буквы, 3 цифры",
    checksum: "Контрольная цифра не сходится: в номере опечатка",
    needsBik: "Счёт проверяется по БИК банка: заполните БИК",
  },
);
