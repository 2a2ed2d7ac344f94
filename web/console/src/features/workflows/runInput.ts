// The input a run starts with, as a person gives it: from the trigger's sample payload
// (its sample_payload_json), in a form when the sample is a flat object, else as JSON.
import type { Action } from "../../canvas/graph";
import { isRecord } from "../../lib/isRecord";

/** A form field of a flat input: one top-level key, typed by the sample's value. */
export type InputField = { name: string; kind: "string" | "number" | "boolean" | "null" };

/** testedTrigger is the trigger a test run starts from: the manual start, else the first
 * trigger (POST .../test-runs). */
export function testedTrigger(actions: Action[], isTrigger: (typeKey: string) => boolean): Action | undefined {
  const triggers = actions.filter((a) => isTrigger(a.action_type_key));
  return triggers.find((a) => a.action_type_key === "manual.trigger") ?? triggers[0];
}

/** manualTrigger is the action a manual run starts from: the first manual start. */
export function manualTrigger(actions: Action[]): Action | undefined {
  return actions.find((a) => a.action_type_key === "manual.trigger");
}

/** sampleOf is a trigger's sample payload, {} when it has none. */
export function sampleOf(trigger: Action | undefined): Record<string, unknown> {
  const sample = trigger?.config?.sample_payload_json;
  return isRecord(sample) ? sample : {};
}

/** testInputOf is what a test run starts with: the draft's test input, or while that is
 * empty the sample (as the server does). */
export function testInputOf(testInput: Record<string, unknown>, sample: Record<string, unknown>): Record<string, unknown> {
  return Object.keys(testInput).length > 0 ? testInput : sample;
}

/** fieldsOf are the form's fields of a flat object (no nested object or array), else
 * undefined: such an input is edited as JSON. */
export function fieldsOf(value: Record<string, unknown>): InputField[] | undefined {
  const fields: InputField[] = [];
  for (const [name, v] of Object.entries(value)) {
    if (v === null) fields.push({ name, kind: "null" });
    else if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") fields.push({ name, kind: typeof v as InputField["kind"] });
    else return undefined;
  }
  return fields;
}

/** fieldText is how a field's value is written in its text box. */
export function fieldText(v: unknown): string {
  return v === null || v === undefined ? "" : String(v);
}

/** valueOfField reads what was typed into a field as its kind, undefined when a number
 * field holds no number. An emptied null field stays null. */
export function valueOfField(field: InputField, text: string): unknown {
  switch (field.kind) {
    case "number": {
      const n = Number(text.trim().replace(",", "."));
      return text.trim() === "" || !Number.isFinite(n) ? undefined : n;
    }
    case "null":
      return text === "" ? null : text;
    default:
      return text;
  }
}

/** parseInput reads a JSON text as an input object: the object, or why it is not one. */
export function parseInput(text: string): { value: Record<string, unknown> } | { error: "json"; message: string } | { error: "notObject" } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    return { error: "json", message: (e as Error).message };
  }
  return isRecord(parsed) ? { value: parsed } : { error: "notObject" };
}
