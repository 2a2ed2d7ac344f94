// The widget form's state and what it sends: the form keeps the sampling rate in percent
// and the invitation templates as rows; the API takes a fraction and an object by name
// inside settings_json, whose other keys stay as they were.
import { formProblem } from "../../lib/formProblem";
import type { ChatWidget, ChatWidgetPatch } from "./queries";
import type { Template } from "./TemplatesEditor";

export type WidgetDraft = {
  name: string;
  title: string;
  subtitle: string;
  accent_color: string;
  position: "left" | "right";
  sampling_percent: string;
  heavy_tracking_default: boolean;
  templates: Template[];
};

/** draftOf is the form's state for a widget, or for a new one (the API's defaults). */
export function draftOf(w: ChatWidget | undefined, defaults: { name: string; title: string; subtitle: string }): WidgetDraft {
  if (!w) {
    return { ...defaults, accent_color: "#2563eb", position: "right", sampling_percent: "100", heavy_tracking_default: false, templates: [] };
  }
  const raw = w.settings_json?.invite_templates;
  const templates =
    raw && typeof raw === "object" && !Array.isArray(raw)
      ? Object.entries(raw as Record<string, unknown>).flatMap(([name, text]) => (typeof text === "string" ? [{ name, text }] : []))
      : [];
  return {
    name: w.name,
    title: w.title,
    subtitle: w.subtitle,
    accent_color: w.accent_color,
    position: w.position,
    sampling_percent: String(Math.round(w.sampling_rate * 1000) / 10),
    heavy_tracking_default: w.heavy_tracking_default,
    templates,
  };
}

type Texts = { duplicateTemplate: string; emptyTemplate: string; samplingRate: string };

/** bodyOf is what the form sends, or the form's own Problem: a template without a name or
 * a text, two templates of one name, a percentage that is not one. */
export function bodyOf(d: WidgetDraft, settings: Record<string, unknown> | undefined, texts: Texts): ChatWidgetPatch {
  const percent = Number(d.sampling_percent.replace(",", "."));
  if (d.sampling_percent.trim() === "" || !Number.isFinite(percent) || percent < 0 || percent > 100) {
    throw formProblem(["sampling_rate"], texts.samplingRate);
  }
  const invite: Record<string, string> = {};
  for (const tpl of d.templates) {
    const name = tpl.name.trim();
    const text = tpl.text.trim();
    if (!name || !text) throw formProblem(["settings_json"], texts.emptyTemplate);
    if (name in invite) throw formProblem(["settings_json"], texts.duplicateTemplate);
    invite[name] = text;
  }
  const rest = { ...(settings ?? {}) };
  delete rest.invite_templates;
  return {
    name: d.name.trim(),
    title: d.title.trim(),
    subtitle: d.subtitle.trim(),
    accent_color: d.accent_color.trim(),
    position: d.position,
    sampling_rate: Math.round(percent * 10) / 1000,
    heavy_tracking_default: d.heavy_tracking_default,
    settings_json: d.templates.length ? { ...rest, invite_templates: invite } : rest,
  };
}
