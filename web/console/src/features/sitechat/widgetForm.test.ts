import { describe, expect, it } from "vitest";
import { ProblemError } from "../../api/problem";
import type { ChatWidget } from "./queries";
import { bodyOf, draftOf } from "./widgetForm";

const texts = { duplicateTemplate: "twice", emptyTemplate: "empty", samplingRate: "percent" };
const defaults = { name: "Site chat", title: "Chat with us", subtitle: "We reply" };
const widget = {
  chat_widget_id: "w",
  name: "Shop",
  title: "Ask",
  subtitle: "Soon",
  accent_color: "#dc2626",
  position: "left",
  sampling_rate: 0.255,
  heavy_tracking_default: true,
  settings_json: { invite_templates: { promo: "10% off", bad: 3 }, theme: "dark" },
} as unknown as ChatWidget;

describe("draftOf", () => {
  it("reads a widget's templates and its sampling rate in percent", () => {
    const d = draftOf(widget, defaults);
    expect(d.templates).toEqual([{ name: "promo", text: "10% off" }]);
    expect(d.sampling_percent).toBe("25.5");
    expect(d.position).toBe("left");
  });
  it("starts a new widget with the API's defaults", () => {
    expect(draftOf(undefined, defaults)).toMatchObject({ title: "Chat with us", accent_color: "#2563eb", position: "right", sampling_percent: "100" });
  });
});

describe("bodyOf", () => {
  it("sends the templates by name inside settings_json, keeping its other keys", () => {
    const d = { ...draftOf(widget, defaults), sampling_percent: "50,5" };
    d.templates = [...d.templates, { name: " welcome ", text: " Hi! " }];
    const body = bodyOf(d, widget.settings_json, texts);
    expect(body.settings_json).toEqual({ theme: "dark", invite_templates: { promo: "10% off", welcome: "Hi!" } });
    expect(body.sampling_rate).toBe(0.505);
  });
  it("drops invite_templates when none is left", () => {
    const d = { ...draftOf(widget, defaults), templates: [] };
    expect(bodyOf(d, widget.settings_json, texts).settings_json).toEqual({ theme: "dark" });
  });
  it("refuses a template without a name or text, a name twice and a percentage out of range, on their fields", () => {
    const d = draftOf(widget, defaults);
    const problem = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e instanceof ProblemError ? `${e.problem.validate}: ${e.problem.detail}` : "other";
      }
      return "none";
    };
    expect(problem(() => bodyOf({ ...d, templates: [{ name: "a", text: " " }] }, {}, texts))).toBe("settings_json: empty");
    expect(problem(() => bodyOf({ ...d, templates: [{ name: "a", text: "x" }, { name: "a ", text: "y" }] }, {}, texts))).toBe("settings_json: twice");
    expect(problem(() => bodyOf({ ...d, sampling_percent: "120" }, {}, texts))).toBe("sampling_rate: percent");
    expect(problem(() => bodyOf({ ...d, sampling_percent: "" }, {}, texts))).toBe("sampling_rate: percent");
  });
});
