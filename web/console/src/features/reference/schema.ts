import type { Schema } from "./model";

const refPrefix = "#/components/schemas/";

/** refName is the component a schema points to, or "". */
export function refName(schema: Schema): string {
  return schema.$ref?.startsWith(refPrefix) ? schema.$ref.slice(refPrefix.length) : "";
}

/** resolved is the schema a $ref points to in schemas (the schema itself when it points
 * nowhere). */
export function resolved(schema: Schema, schemas: Record<string, Schema>): Schema {
  const name = refName(schema);
  return name && schemas[name] ? schemas[name] : schema;
}

/** typeLabel says in a few words what a value of the schema is: "string (uuid)", "array of
 * ClientView", "integer or null". */
export function typeLabel(schema: Schema): string {
  const name = refName(schema);
  if (name) return name;
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const label = types
    .map((type) => {
      if (type === "array" && schema.items) return `array of ${typeLabel(schema.items)}`;
      if (type === "object" && !schema.properties && typeof schema.additionalProperties === "object") {
        return `map of ${typeLabel(schema.additionalProperties)}`;
      }
      return schema.format && type !== "null" ? `${type} (${schema.format})` : type;
    })
    .join(" or ");
  if (label) return schema.nullable ? `${label} or null` : label;
  if (schema.allOf?.length === 1) return typeLabel(schema.allOf[0]);
  const variants = schema.oneOf ?? schema.anyOf;
  if (variants) return variants.map(typeLabel).join(" or ");
  if (schema.properties || schema.allOf) return "object";
  if (schema.enum) return "enum";
  if (schema.const !== undefined) return "constant";
  return "";
}

/** constraints are a schema's limits and defaults in the contract's own words
 * ("maxLength 200", "default 50"). */
export function constraints(schema: Schema): string[] {
  const out: string[] = [];
  const put = (key: keyof Schema, label: string = key) => {
    if (schema[key] !== undefined) out.push(`${label} ${JSON.stringify(schema[key])}`);
  };
  put("minimum");
  put("exclusiveMinimum");
  put("maximum");
  put("exclusiveMaximum");
  put("multipleOf");
  put("minLength");
  put("maxLength");
  put("minItems");
  put("maxItems");
  put("pattern");
  put("const");
  put("default");
  if (schema.readOnly) out.push("read-only");
  if (schema.writeOnly) out.push("write-only");
  if (schema.deprecated) out.push("deprecated");
  return out;
}

/** mergedObject joins an allOf's members into one object's properties and required names,
 * as a reader sees them. */
export function mergedObject(schema: Schema, schemas: Record<string, Schema>): { properties: Record<string, Schema>; required: string[] } {
  const properties: Record<string, Schema> = { ...(schema.properties ?? {}) };
  const required = new Set(schema.required ?? []);
  for (const member of schema.allOf ?? []) {
    const part = mergedObject(resolved(member, schemas), schemas);
    Object.assign(properties, part.properties);
    part.required.forEach((name) => required.add(name));
  }
  return { properties, required: [...required] };
}

/** hasFields says whether a schema has anything to unfold: fields, variants or the item
 * schema of an array of objects. */
export function hasFields(schema: Schema, schemas: Record<string, Schema>): boolean {
  const s = resolved(schema, schemas);
  if (s.properties || s.allOf || s.oneOf || s.anyOf) return true;
  if (s.items) return hasFields(s.items, schemas);
  return typeof s.additionalProperties === "object" && hasFields(s.additionalProperties, schemas);
}
