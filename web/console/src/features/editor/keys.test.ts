import { describe, expect, it } from "vitest";
import type { Graph } from "../../canvas/graph";
import { baseKeyOf, clipOf, copyOf, uniqueKey } from "./keys";

describe("action keys", () => {
  it("derives a snake_case key starting with a letter from the type", () => {
    expect(baseKeyOf("http.request")).toBe("http_request");
    expect(baseKeyOf("bot.wait_for_reply")).toBe("bot_wait_for_reply");
    expect(baseKeyOf("Email.Send")).toBe("email_send");
    expect(baseKeyOf("3d.print")).toBe("action_3d_print");
    expect(baseKeyOf("x".repeat(80))).toHaveLength(64);
  });

  it("numbers a key already taken, within 64 characters", () => {
    expect(uniqueKey("http_request", new Set())).toBe("http_request");
    expect(uniqueKey("http_request", new Set(["http_request"]))).toBe("http_request_2");
    expect(uniqueKey("http_request", new Set(["http_request", "http_request_2"]))).toBe("http_request_3");
    const long = "a".repeat(64);
    const key = uniqueKey(long, new Set([long]));
    expect(key).toHaveLength(64);
    expect(key.endsWith("_2")).toBe(true);
    expect(key).toMatch(/^[a-z][a-z0-9_]{0,63}$/);
  });
});

describe("copy and paste", () => {
  const graph: Graph = {
    actions: [
      { action_key: "hook", action_type_key: "webhook.trigger", ui: { position: { x: 0, y: 0 } } },
      { action_key: "check", action_type_key: "condition.branch", ui: { position: { x: 300, y: 0 } } },
      { action_key: "call", action_type_key: "http.request", config: { url: "https://x" }, ui: { position: { x: 600, y: 0 } } },
    ],
    connections: [
      { from: "hook", to: "check", branch: "" },
      { from: "check", to: "call", branch: "true" },
    ],
  };

  it("copies the chosen actions and only the connections among them", () => {
    const clip = clipOf(graph, new Set(["check", "call"]));
    expect(clip.actions.map((a) => a.action_key)).toEqual(["check", "call"]);
    expect(clip.connections).toEqual([{ from: "check", to: "call", branch: "true" }]);
  });

  it("pastes with fresh keys, the internal connections re-keyed, positions offset", () => {
    const clip = clipOf(graph, new Set(["check", "call"]));
    const taken = new Set(graph.actions.map((a) => a.action_key));
    const pasted = copyOf(clip, taken, { x: 40, y: 40 });
    expect(pasted.actions.map((a) => a.action_key)).toEqual(["check_2", "call_2"]);
    expect(pasted.actions[1].config).toEqual({ url: "https://x" });
    expect(pasted.actions[0].ui?.position).toEqual({ x: 340, y: 40 });
    expect(pasted.connections).toEqual([{ from: "check_2", to: "call_2", branch: "true" }]);
    const again = copyOf(clipOf({ ...graph, actions: [...graph.actions, ...pasted.actions] }, new Set(["call_2"])), new Set([...taken, "check_2", "call_2"]), { x: 40, y: 40 });
    expect(again.actions[0].action_key).toBe("call_3");
  });
});
