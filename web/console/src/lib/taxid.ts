// Russian registry identifiers checked as the API checks them (models/taxid): INN, KPP,
// OGRN, OGRNIP, BIK and the bank accounts keyed to a BIK. The forms check them as the
// person types, so a wrong digit shows before anything is sent; the API checks again.
//
// Every check takes the identifier exactly as stored: only ASCII digits (and, in a KPP's
// reason code, ASCII upper-case letters), no spaces. Each answers undefined when it is
// valid, "format" when its length or characters are wrong, "checksum" when it is well
// formed but a check digit does not match. The empty string is "format"; optional fields
// skip it themselves (see the rules below).

export type TaxIdProblem = "format" | "checksum";

// Weights of the INN check digits, from the Federal Tax Service algorithm.
const innWeights10 = [2, 4, 10, 3, 5, 9, 4, 6, 8];
const innWeights12a = [7, 2, 4, 10, 3, 5, 9, 4, 6, 8];
const innWeights12b = [3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8];

/** inn checks a taxpayer number: 10 digits (an organisation) or 12 (a person). */
export function inn(s: string): TaxIdProblem | undefined {
  if (s.length === 10) return legalEntityInn(s);
  if (s.length === 12) return personInn(s);
  return "format";
}

/** legalEntityInn checks an organisation's INN: 10 digits, the last (weighted sum of the
 * first 9 mod 11) mod 10. */
export function legalEntityInn(s: string): TaxIdProblem | undefined {
  if (!allDigits(s, 10)) return "format";
  return innCheck(s, innWeights10) === digit(s, 9) ? undefined : "checksum";
}

/** personInn checks a person's or sole proprietor's INN: 12 digits, the 11th checking the
 * first 10 and the 12th the first 11. */
export function personInn(s: string): TaxIdProblem | undefined {
  if (!allDigits(s, 12)) return "format";
  return innCheck(s, innWeights12a) === digit(s, 10) && innCheck(s, innWeights12b) === digit(s, 11) ? undefined : "checksum";
}

/** kpp checks a tax registration reason code: 4 digits, 2 digits or upper-case Latin
 * letters, 3 digits. It has no check digit. */
export function kpp(s: string): TaxIdProblem | undefined {
  return /^[0-9]{4}[0-9A-Z]{2}[0-9]{3}$/.test(s) ? undefined : "format";
}

/** ogrn checks an organisation's registration number: 13 digits, the last (the first 12
 * as a number mod 11) mod 10. */
export function ogrn(s: string): TaxIdProblem | undefined {
  return registrationNumber(s, 13, 11);
}

/** ogrnip checks a sole proprietor's registration number: 15 digits, the last (the first
 * 14 as a number mod 13) mod 10. */
export function ogrnip(s: string): TaxIdProblem | undefined {
  return registrationNumber(s, 15, 13);
}

/** bik checks a bank identification code: 9 digits, no check digit. */
export function bik(s: string): TaxIdProblem | undefined {
  return allDigits(s, 9) ? undefined : "format";
}

/** settlementAccount checks a 20-digit account at the bank with the BIK: the control key
 * runs over the BIK's last 3 digits, then the account. A malformed BIK is "format". */
export function settlementAccount(account: string, bankBik: string): TaxIdProblem | undefined {
  if (!allDigits(account, 20) || bik(bankBik)) return "format";
  return accountKeySum(bankBik.slice(6, 9), account) === 0 ? undefined : "checksum";
}

/** correspondentAccount checks a bank's 20-digit correspondent account: it starts with 301,
 * and the control key runs over "0", the BIK's 5th and 6th digits, then the account. */
export function correspondentAccount(account: string, bankBik: string): TaxIdProblem | undefined {
  if (!allDigits(account, 20) || !account.startsWith("301") || bik(bankBik)) return "format";
  return accountKeySum("0" + bankBik.slice(4, 6), account) === 0 ? undefined : "checksum";
}

// The remainder is taken digit by digit, so it does not need the number to fit a double.
function registrationNumber(s: string, n: number, m: number): TaxIdProblem | undefined {
  if (!allDigits(s, n)) return "format";
  let rem = 0;
  for (let i = 0; i < n - 1; i++) rem = (rem * 10 + digit(s, i)) % m;
  return rem % 10 === digit(s, n - 1) ? undefined : "checksum";
}

function innCheck(s: string, weights: number[]): number {
  let sum = 0;
  weights.forEach((w, i) => (sum += digit(s, i) * w));
  return (sum % 11) % 10;
}

// The Bank of Russia control sum, mod 10, of prefix+account with weights 7, 1, 3 repeated;
// a valid account gives 0.
function accountKeySum(prefix: string, account: string): number {
  const weights = [7, 1, 3];
  const all = prefix + account;
  let sum = 0;
  for (let i = 0; i < all.length; i++) sum += digit(all, i) * weights[i % 3];
  return sum % 10;
}

function allDigits(s: string, n: number): boolean {
  return s.length === n && /^[0-9]*$/.test(s);
}

function digit(s: string, i: number): number {
  return s.charCodeAt(i) - 48;
}

/** The identifier fields of clients and legal entities, as the API names them. */
export type TaxIdField = "inn" | "kpp" | "ogrn" | "ogrnip";

export const taxIdFields: readonly TaxIdField[] = ["inn", "kpp", "ogrn", "ogrnip"];

/** What a type takes of an identifier: its check, its length, whether it is required. */
type Rule = { check: (s: string) => TaxIdProblem | undefined; length: number; required: boolean };

/** The types a client or a company's legal entity can be (a person: clients only). */
export type TaxIdHolder = "legal_entity" | "individual_entrepreneur" | "individual";

/** taxIdRules are the API's rules per type (models/billing/client.go and
 * models/company/legal_entity.go): an organisation has a 10-digit INN and may have a KPP and
 * an OGRN; a sole proprietor a 12-digit INN and maybe an OGRNIP; a person maybe a 12-digit
 * INN. An identifier a type does not take must be empty. */
export const taxIdRules: Record<TaxIdHolder, Partial<Record<TaxIdField, Rule>>> = {
  legal_entity: {
    inn: { check: legalEntityInn, length: 10, required: true },
    kpp: { check: kpp, length: 9, required: false },
    ogrn: { check: ogrn, length: 13, required: false },
  },
  individual_entrepreneur: {
    inn: { check: personInn, length: 12, required: true },
    ogrnip: { check: ogrnip, length: 15, required: false },
  },
  individual: { inn: { check: personInn, length: 12, required: false } },
};

/** takes tells whether the type has the identifier field at all. */
export function takes(type: TaxIdHolder, field: TaxIdField): boolean {
  return taxIdRules[type][field] !== undefined;
}

// What can begin each identifier: digits, and in a KPP's 5th and 6th places Latin capitals.
const kppStart = /^(?:[0-9]{0,4}|[0-9]{4}[0-9A-Z]{1,2}|[0-9]{4}[0-9A-Z]{2}[0-9]{1,3})$/;

/** TaxIdState is what a field shows as the person types: nothing while empty and optional;
 * "incomplete" while digits are still coming (or when it is required and empty); then valid,
 * or the problem; a bank account without a valid BIK beside it "needsBik". */
export type TaxIdState = "empty" | "incomplete" | "valid" | "needsBik" | TaxIdProblem;

/** taxIdState judges one field of a type as typed so far. A number shorter than the type's
 * length that could still become one is "incomplete", not wrong; `done` (the form is being
 * sent) makes it "format". */
export function taxIdState(type: TaxIdHolder, field: TaxIdField, value: string, done = false): TaxIdState {
  const rule = taxIdRules[type][field];
  if (!rule) return value === "" ? "empty" : "format";
  if (value === "") return rule.required ? "incomplete" : "empty";
  const problem = rule.check(value);
  if (!problem) return "valid";
  const couldGrow = value.length < rule.length && (field === "kpp" ? kppStart.test(value) : /^[0-9]+$/.test(value));
  return couldGrow && !done ? "incomplete" : problem;
}

/** taxIdProblems names every identifier field that the API would refuse, in its order. */
export function taxIdProblems(type: TaxIdHolder, values: Partial<Record<TaxIdField, string>>): TaxIdField[] {
  return taxIdFields.filter((field) => {
    const state = taxIdState(type, field, values[field] ?? "", true);
    return state !== "valid" && state !== "empty";
  });
}

/** bankState judges a legal entity's bank field as typed so far (models/company/
 * legal_entity.go): each is optional; a BIK is 9 digits, and an account, 20 digits, is checked
 * against the BIK beside it, without which it cannot be. */
export function bankState(field: "bik" | "settlement_account" | "correspondent_account", value: string, bankBik: string, done = false): TaxIdState {
  if (value === "") return "empty";
  const length = field === "bik" ? 9 : 20;
  if (field !== "bik" && value.length === length && /^[0-9]+$/.test(value) && bik(bankBik)) return "needsBik";
  const problem = field === "bik" ? bik(value) : (field === "settlement_account" ? settlementAccount : correspondentAccount)(value, bankBik);
  if (!problem) return "valid";
  return value.length < length && /^[0-9]+$/.test(value) && !done ? "incomplete" : problem;
}

/** partyNumber tells what a party lookup searches by (models/billing/party_query.go): an
 * INN of either length, else an OGRN or OGRNIP; undefined when the number is neither. */
export function partyNumber(s: string): { inn: string } | { ogrn: string } | undefined {
  if (!inn(s)) return { inn: s };
  if (!ogrn(s) || !ogrnip(s)) return { ogrn: s };
  return undefined;
}
