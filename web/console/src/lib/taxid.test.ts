import { describe, expect, it } from "vitest";
import {
  bankState,
  bik,
  correspondentAccount,
  inn,
  kpp,
  legalEntityInn,
  ogrn,
  ogrnip,
  partyNumber,
  personInn,
  settlementAccount,
  taxIdProblems,
  taxIdState,
  type TaxIdProblem,
} from "./taxid";

// The same cases as models/taxid/taxid_test.go: real published registry data (Sberbank,
// Alfa-Bank, T-Bank and a sole proprietor) and the same changes to them, so the console
// and the API agree on every one.
const sberINN = "7707083893";
const alfaINN = "7728168971";
const personINN = "500100732259";
const sberKPP = "773601001";
const sberOGRN = "1027700132195";
const alfaOGRN = "1027700067328";
const soleOGRNIP = "304500116000157";
const sberBIK = "044525225";
const sberCorr = "30101810400000000225";
const tbankBIK = "044525974";
const tbankCorr = "30101810145250000974";
const alfaBIK = "044525593";
const alfaCorr = "30101810200000000593";
const sberClientAcc = "40702810938000000001";
const spbBIK = "044030653"; // Sberbank's North-West branch; digits 5-6 differ from Moscow's "25"

type Check = (value: string, bik: string) => TaxIdProblem | undefined;
const one =
  (f: (s: string) => TaxIdProblem | undefined): Check =>
  (s) =>
    f(s);

const cases: [string, Check, string, string, TaxIdProblem | undefined][] = [
  // INN, either length.
  ["Sberbank's 10-digit INN is valid", one(inn), sberINN, "", undefined],
  ["Alfa-Bank's 10-digit INN is valid", one(inn), alfaINN, "", undefined],
  ["a person's 12-digit INN is valid", one(inn), personINN, "", undefined],
  ["a 10-digit INN with its check digit changed fails the checksum", one(inn), "7707083894", "", "checksum"],
  ["a 10-digit INN with a body digit changed fails the checksum", one(inn), "7707083993", "", "checksum"],
  ["a 12-digit INN with its first check digit changed fails the checksum", one(inn), "500100732269", "", "checksum"],
  ["a 12-digit INN with its second check digit changed fails the checksum", one(inn), "500100732258", "", "checksum"],
  ["a 12-digit INN with a body digit changed fails the checksum", one(inn), "500100742259", "", "checksum"],
  ["an empty INN is a format error", one(inn), "", "", "format"],
  ["an 11-digit INN is a format error", one(inn), "77070838931", "", "format"],
  ["a 9-digit INN is a format error", one(inn), "770708389", "", "format"],
  ["an INN with a letter is a format error", one(inn), "77070838A3", "", "format"],
  ["an INN with a trailing space is a format error", one(inn), "770708389 ", "", "format"],
  ["an INN with an inner space is a format error", one(inn), "7707 083893", "", "format"],
  ["an INN in full-width Unicode digits is a format error", one(inn), "７７０７０８３８９３", "", "format"],
  ["an INN in Arabic-Indic digits is a format error", one(inn), "٧٧٠٧٠٨٣٨٩٣", "", "format"],
  ["a negative-looking INN is a format error", one(inn), "-707083893", "", "format"],

  // INN by kind.
  ["LegalEntityINN accepts a valid 10-digit INN", one(legalEntityInn), sberINN, "", undefined],
  ["LegalEntityINN rejects a valid 12-digit INN as a format error", one(legalEntityInn), personINN, "", "format"],
  ["LegalEntityINN rejects a changed check digit", one(legalEntityInn), "7728168972", "", "checksum"],
  ["LegalEntityINN rejects the empty string", one(legalEntityInn), "", "", "format"],
  ["PersonINN accepts a valid 12-digit INN", one(personInn), personINN, "", undefined],
  ["PersonINN rejects a valid 10-digit INN as a format error", one(personInn), sberINN, "", "format"],
  ["PersonINN rejects a changed check digit", one(personInn), "500100732250", "", "checksum"],
  ["PersonINN rejects a letter", one(personInn), "50010073225X", "", "format"],

  // KPP.
  ["Sberbank's KPP is valid", one(kpp), sberKPP, "", undefined],
  ["a KPP with upper-case letters as its reason code is valid", one(kpp), "7701AB001", "", undefined],
  ["a KPP with one letter and one digit as its reason code is valid", one(kpp), "77010Z001", "", undefined],
  ["a KPP with lower-case letters is a format error", one(kpp), "7701ab001", "", "format"],
  ["a KPP with a letter outside the reason code is a format error", one(kpp), "77A601001", "", "format"],
  ["a KPP with a letter in the sequence number is a format error", one(kpp), "77360100A", "", "format"],
  ["a KPP with a Cyrillic letter is a format error", one(kpp), "7701АБ001", "", "format"],
  ["an 8-character KPP is a format error", one(kpp), "77360100", "", "format"],
  ["a 10-character KPP is a format error", one(kpp), "7736010010", "", "format"],
  ["an empty KPP is a format error", one(kpp), "", "", "format"],

  // OGRN and OGRNIP.
  ["Sberbank's OGRN is valid", one(ogrn), sberOGRN, "", undefined],
  ["Alfa-Bank's OGRN is valid", one(ogrn), alfaOGRN, "", undefined],
  ["an OGRN with its check digit changed fails the checksum", one(ogrn), "1027700132196", "", "checksum"],
  ["an OGRN with a body digit changed fails the checksum", one(ogrn), "1027700132185", "", "checksum"],
  ["a 12-digit OGRN is a format error", one(ogrn), "102770013219", "", "format"],
  ["a 15-digit OGRNIP is not an OGRN", one(ogrn), soleOGRNIP, "", "format"],
  ["an OGRN with a letter is a format error", one(ogrn), "10277001321O5", "", "format"],
  ["an empty OGRN is a format error", one(ogrn), "", "", "format"],
  ["a sole proprietor's OGRNIP is valid", one(ogrnip), soleOGRNIP, "", undefined],
  ["an OGRNIP with its check digit changed fails the checksum", one(ogrnip), "304500116000158", "", "checksum"],
  ["an OGRNIP with a body digit changed fails the checksum", one(ogrnip), "304500116001157", "", "checksum"],
  ["a 13-digit OGRN is not an OGRNIP", one(ogrnip), sberOGRN, "", "format"],
  ["an OGRNIP with a space is a format error", one(ogrnip), "30450011600015 ", "", "format"],
  ["an empty OGRNIP is a format error", one(ogrnip), "", "", "format"],

  // BIK.
  ["Sberbank's BIK is valid", one(bik), sberBIK, "", undefined],
  ["an 8-digit BIK is a format error", one(bik), "04452522", "", "format"],
  ["a BIK with a letter is a format error", one(bik), "04452522X", "", "format"],
  ["an empty BIK is a format error", one(bik), "", "", "format"],

  // Settlement accounts.
  ["a client account at Sberbank is valid with Sberbank's BIK", settlementAccount, sberClientAcc, sberBIK, undefined],
  ["a settlement account with its key digit changed fails the checksum", settlementAccount, "40702810038000000001", sberBIK, "checksum"],
  ["a settlement account with its last digit changed fails the checksum", settlementAccount, "40702810938000000002", sberBIK, "checksum"],
  ["a Sberbank account checked against another bank's BIK fails the checksum", settlementAccount, sberClientAcc, alfaBIK, "checksum"],
  ["a 19-digit settlement account is a format error", settlementAccount, "4070281093800000000", sberBIK, "format"],
  ["a settlement account with a letter is a format error", settlementAccount, "40702810938000000O01", sberBIK, "format"],
  ["an empty settlement account is a format error", settlementAccount, "", sberBIK, "format"],
  ["a settlement account with an empty BIK is a format error", settlementAccount, sberClientAcc, "", "format"],
  ["a settlement account with a malformed BIK is a format error", settlementAccount, sberClientAcc, "04452522X", "format"],

  // Correspondent accounts.
  ["Sberbank's correspondent account is valid", correspondentAccount, sberCorr, sberBIK, undefined],
  ["T-Bank's correspondent account is valid", correspondentAccount, tbankCorr, tbankBIK, undefined],
  ["Alfa-Bank's correspondent account is valid", correspondentAccount, alfaCorr, alfaBIK, undefined],
  ["a correspondent account with its key digit changed fails the checksum", correspondentAccount, "30101810500000000225", sberBIK, "checksum"],
  ["a correspondent account with its last digit changed fails the checksum", correspondentAccount, "30101810400000000226", sberBIK, "checksum"],
  ["a Moscow correspondent account checked against a St Petersburg BIK fails the checksum", correspondentAccount, sberCorr, spbBIK, "checksum"],
  ["a correspondent account not starting with 301 is a format error", correspondentAccount, sberClientAcc, sberBIK, "format"],
  ["a 21-digit correspondent account is a format error", correspondentAccount, sberCorr + "0", sberBIK, "format"],
  ["an empty correspondent account is a format error", correspondentAccount, "", sberBIK, "format"],
  ["a correspondent account with a malformed BIK is a format error", correspondentAccount, sberCorr, "0445252", "format"],
];

describe("the validators agree with the API's", () => {
  it.each(cases)("%s", (_, check, value, bankBik, want) => {
    expect(check(value, bankBik)).toBe(want);
  });
});

// The property tests of the Go package: random bodies, the check digits computed by an
// oracle written apart from the code (BigInt for OGRN, the Bank of Russia "lowest digit of
// each product" recipe for accounts), and exactly the computed digit validates while every
// other fails the checksum.
const rounds = 2000;

/** A seeded generator (mulberry32), so a failure repeats. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randDigits(random: () => number, n: number): string {
  let s = "";
  for (let i = 0; i < n; i++) s += String(Math.floor(random() * 10));
  return s;
}

function weightedMod11(body: string, weights: number[]): number {
  return (weights.reduce((sum, w, i) => sum + Number(body[i]) * w, 0) % 11) % 10;
}

function bigMod(body: string, m: bigint): number {
  return Number((BigInt(body) % m) % 10n);
}

function accountKey(prefix: string, accountWithZeroKey: string): number {
  const s = prefix + accountWithZeroKey;
  const weights = [7, 1, 3];
  let sum = 0;
  for (let i = 0; i < s.length; i++) sum += (Number(s[i]) * weights[i % 3]) % 10;
  return ((sum % 10) * 3) % 10;
}

/** wrong lists, of the ten numbers build makes, those whose check is not "valid" for the
 * digit want and "checksum" for every other. */
function wrong(check: (s: string) => TaxIdProblem | undefined, build: (d: number) => string, want: number): string[] {
  const out: string[] = [];
  for (let d = 0; d < 10; d++) {
    const got = check(build(d));
    if (got !== (d === want ? undefined : "checksum")) out.push(`${build(d)}: ${got ?? "valid"}`);
  }
  return out;
}

describe("computed check digits validate and others fail", () => {
  const random = seeded(20240601);
  it("a random legal entity INN validates only with its computed check digit", () => {
    const bad: string[] = [];
    for (let r = 0; r < rounds; r++) {
      const body = randDigits(random, 9);
      const want = weightedMod11(body, [2, 4, 10, 3, 5, 9, 4, 6, 8]);
      bad.push(...wrong(legalEntityInn, (d) => body + d, want), ...wrong(inn, (d) => body + d, want));
    }
    expect(bad).toEqual([]);
  });
  it("a random personal INN validates only with both computed check digits", () => {
    const bad: string[] = [];
    for (let r = 0; r < rounds / 4; r++) {
      const body = randDigits(random, 10);
      const c1 = weightedMod11(body, [7, 2, 4, 10, 3, 5, 9, 4, 6, 8]);
      const c2 = weightedMod11(body + c1, [3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8]);
      for (let d1 = 0; d1 < 10; d1++) {
        for (let d2 = 0; d2 < 10; d2++) {
          const s = `${body}${d1}${d2}`;
          const want = d1 === c1 && d2 === c2 ? undefined : "checksum";
          if (personInn(s) !== want || inn(s) !== want) bad.push(s);
        }
      }
    }
    expect(bad).toEqual([]);
  });
  it("a random OGRN validates only with its computed check digit", () => {
    const bad: string[] = [];
    for (let r = 0; r < rounds; r++) {
      const body = randDigits(random, 12);
      bad.push(...wrong(ogrn, (d) => body + d, bigMod(body, 11n)));
    }
    expect(bad).toEqual([]);
  });
  it("a random OGRNIP validates only with its computed check digit", () => {
    const bad: string[] = [];
    for (let r = 0; r < rounds; r++) {
      const body = randDigits(random, 14);
      bad.push(...wrong(ogrnip, (d) => body + d, bigMod(body, 13n)));
    }
    expect(bad).toEqual([]);
  });
  it("a random settlement account validates only with its computed key", () => {
    const bad: string[] = [];
    for (let r = 0; r < rounds; r++) {
      const bankBik = randDigits(random, 9);
      const head = randDigits(random, 8);
      const tail = randDigits(random, 11);
      const want = accountKey(bankBik.slice(6, 9), head + "0" + tail);
      bad.push(...wrong((acc) => settlementAccount(acc, bankBik), (d) => head + d + tail, want));
    }
    expect(bad).toEqual([]);
  });
  it("a random correspondent account validates only with its computed key", () => {
    const bad: string[] = [];
    for (let r = 0; r < rounds; r++) {
      const bankBik = randDigits(random, 9);
      const head = "301" + randDigits(random, 5);
      const tail = randDigits(random, 11);
      const want = accountKey("0" + bankBik.slice(4, 6), head + "0" + tail);
      bad.push(...wrong((acc) => correspondentAccount(acc, bankBik), (d) => head + d + tail, want));
    }
    expect(bad).toEqual([]);
  });
});

describe("a field as the person types it", () => {
  it.each([
    ["an organisation's INN being typed is incomplete", "legal_entity", "inn", "770708", "incomplete"],
    ["an organisation's complete INN is valid", "legal_entity", "inn", sberINN, "valid"],
    ["an organisation's INN with a wrong check digit fails the checksum", "legal_entity", "inn", "7707083894", "checksum"],
    ["a sole proprietor's INN of ten digits is still being typed", "individual_entrepreneur", "inn", sberINN, "incomplete"],
    ["an organisation's INN of twelve digits is too long", "legal_entity", "inn", personINN, "format"],
    ["a letter in an INN is wrong at once", "legal_entity", "inn", "77A", "format"],
    ["an organisation's empty INN is required", "legal_entity", "inn", "", "incomplete"],
    ["a person's empty INN is fine", "individual", "inn", "", "empty"],
    ["a KPP's reason code may be letters while typing", "legal_entity", "kpp", "7701AB", "incomplete"],
    ["a letter in a KPP's sequence is wrong at once", "legal_entity", "kpp", "7701AB0C", "format"],
    ["an empty optional OGRN is fine", "legal_entity", "ogrn", "", "empty"],
    ["an OGRNIP on an organisation is wrong", "legal_entity", "ogrnip", soleOGRNIP, "format"],
    ["a KPP on a sole proprietor is wrong", "individual_entrepreneur", "kpp", sberKPP, "format"],
    ["a sole proprietor's OGRNIP is valid", "individual_entrepreneur", "ogrnip", soleOGRNIP, "valid"],
  ] as const)("%s", (_, type, field, value, want) => {
    expect(taxIdState(type, field, value)).toBe(want);
  });

  it("a number left short is wrong once the form is sent", () => {
    expect(taxIdState("legal_entity", "inn", "770708", true)).toBe("format");
  });

  it("names every field the API would refuse, as its Problem would", () => {
    expect(taxIdProblems("legal_entity", { inn: sberINN, kpp: sberKPP, ogrn: sberOGRN })).toEqual([]);
    expect(taxIdProblems("legal_entity", { inn: "7707083894", kpp: "77A", ogrnip: soleOGRNIP })).toEqual(["inn", "kpp", "ogrnip"]);
    expect(taxIdProblems("individual_entrepreneur", { inn: personINN, ogrnip: soleOGRNIP })).toEqual([]);
    expect(taxIdProblems("individual", {})).toEqual([]);
  });
});

describe("a bank field as the person types it", () => {
  it.each([
    ["a BIK being typed is incomplete", "bik", "04452", "", "incomplete"],
    ["a whole BIK is valid", "bik", sberBIK, "", "valid"],
    ["an account being typed is incomplete", "settlement_account", "407028", sberBIK, "incomplete"],
    ["an account that matches its bank's BIK is valid", "settlement_account", sberClientAcc, sberBIK, "valid"],
    ["an account of another bank fails the checksum", "settlement_account", sberClientAcc, alfaBIK, "checksum"],
    ["an account without a BIK beside it needs one", "settlement_account", sberClientAcc, "", "needsBik"],
    ["a correspondent account not starting with 301 is wrong", "correspondent_account", sberClientAcc, sberBIK, "format"],
    ["a correspondent account of its bank is valid", "correspondent_account", sberCorr, sberBIK, "valid"],
  ] as const)("%s", (_, field, value, bankBik, want) => {
    expect(bankState(field, value, bankBik)).toBe(want);
  });
});

describe("what a party lookup searches by", () => {
  it.each([
    ["an organisation's INN", sberINN, { inn: sberINN }],
    ["a person's INN", personINN, { inn: personINN }],
    ["an OGRN", sberOGRN, { ogrn: sberOGRN }],
    ["an OGRNIP", soleOGRNIP, { ogrn: soleOGRNIP }],
    ["nothing for a wrong check digit", "7707083894", undefined],
    ["nothing for a short number", "77070", undefined],
  ])("%s", (_, value, want) => {
    expect(partyNumber(value)).toEqual(want);
  });
});
