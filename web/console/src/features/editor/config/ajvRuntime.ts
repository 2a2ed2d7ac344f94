// The helpers ajv's standalone code calls at run time, for the precompiled validators
// (compile-validators.mjs points the code at these). ajv ships them as CommonJS, whose default
// export the bundler hands over wrapped in a package of type "module"; these need no interop.

/** ucs2length counts a string's characters as JSON Schema does: by code point, not UTF-16 unit. */
export function ucs2length(s: string): number {
  return Array.from(s).length;
}
