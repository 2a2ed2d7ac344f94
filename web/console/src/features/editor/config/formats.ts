// Formats the precompiled validators check (compile-validators.mjs makes the code it writes
// read them from here): ajv-formats' own, and the catalog's iana-time-zone.
import { fullFormats } from "ajv-formats/dist/formats";

/** An IANA time zone name, as the browser's time zone database knows it. */
function ianaTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

export const formats = { ...fullFormats, "iana-time-zone": ianaTimeZone };
