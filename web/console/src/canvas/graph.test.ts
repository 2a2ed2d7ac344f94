import { describe, expect, it } from "vitest";
import type { ActionType } from "./catalog";
import { fromFlow, handlesOf, loopBody, loopsOf, outputsOf, toFlow, type Graph } from "./graph";

const types = new Map<string, ActionType>(
  [
    { action_key: "webhook.trigger", display_name: "Webhook", category: "trigger", trigger: true },
    { action_key: "condition.branch", display_name: "Condition", category: "logic", trigger: false },
    { action_key: "stop", display_name: "Stop", category: "control", trigger: false },
  ].map((t) => [t.action_key, t as ActionType]),
);

const graph: Graph = {
  actions: [
    { action_key: "hook", label: "Order placed", action_type_key: "webhook.trigger", config: {}, ui: { position: { x: 0, y: 0 } } },
    { action_key: "big", label: "Big order?", action_type_key: "condition.branch", config: { expression: "trigger.total > 100" }, ui: { position: { x: 300, y: 0 } } },
    { action_key: "done", label: "Done", action_type_key: "stop", config: {}, ui: { position: { x: 600, y: -40.4 } } },
  ],
  connections: [
    { from: "hook", to: "big", branch: "" },
    { from: "big", to: "done", branch: "true" },
    { from: "big", to: "done", branch: "false" },
  ],
};

describe("graph <-> canvas", () => {
  it("gives a condition a true and a false output, a reply wait a timeout, a switch its cases", () => {
    expect(outputsOf({ action_type_key: "condition.branch" })).toEqual(["true", "false"]);
    expect(outputsOf({ action_type_key: "bot.wait_for_reply" })).toEqual(["", "timeout"]);
    expect(outputsOf({ action_type_key: "http.request" })).toEqual([""]);
    expect(outputsOf({ action_type_key: "approval.wait" })).toEqual(["approved", "rejected", "timeout"]);
    const cases = [{ name: "north", text: "x" }, { name: "south", text: "y" }];
    expect(outputsOf({ action_type_key: "condition.switch", config: { cases } })).toEqual(["north", "south", "default"]);
    expect(outputsOf({ action_type_key: "condition.switch", config: { cases, default: false } })).toEqual(["north", "south"]);
    expect(handlesOf({ action_type_key: "loop.for_each" }, false)).toEqual(["each", "done", "error"]);
  });

  it("lets every action but a trigger leave by its error branch", () => {
    expect(handlesOf({ action_type_key: "http.request" }, false)).toEqual(["", "error"]);
    expect(handlesOf({ action_type_key: "condition.branch" }, false)).toEqual(["true", "false", "error"]);
    expect(handlesOf({ action_type_key: "webhook.trigger" }, true)).toEqual([""]);
  });

  it("draws each action as a node with its catalog type and each connection from its branch's handle", () => {
    const { nodes, edges } = toFlow(graph, types);
    expect(nodes.map((n) => [n.id, n.data.typeName, n.data.trigger])).toEqual([
      ["hook", "Webhook", true],
      ["big", "Condition", false],
      ["done", "Stop", false],
    ]);
    expect(edges.map((e) => [e.source, e.sourceHandle, e.target])).toEqual([
      ["hook", "out", "big"],
      ["big", "true", "done"],
      ["big", "false", "done"],
    ]);
    expect(new Set(edges.map((e) => e.id)).size).toBe(3);
  });

  it("gives back the same graph, positions rounded, after a round trip", () => {
    const { nodes, edges } = toFlow(graph, types);
    const back = fromFlow(nodes, edges);
    expect(back.connections).toEqual(graph.connections);
    expect(back.actions[2].ui?.position).toEqual({ x: 600, y: -40 });
    expect(back.actions.map((a) => a.config)).toEqual(graph.actions.map((a) => a.config));
  });

  it("names a type the catalog lacks by its key, and carries each view's marks", () => {
    const { nodes } = toFlow({ actions: [{ action_key: "x", action_type_key: "gone.type" }], connections: [] }, types, () => ({
      status: "failed",
    }));
    expect(nodes[0].data.typeName).toBe("gone.type");
    expect(nodes[0].data.status).toBe("failed");
  });
});

// start -> lines (each) -> make -> tell ; lines (each) -> note ; lines (done) -> report
// and inside make's loop: make -> parts (each) -> part; parts (done) -> tell
describe("a loop's body", () => {
  const a = (action_key: string, action_type_key = "http.request") => ({ action_key, action_type_key });
  const nested: Graph = {
    actions: [a("start", "manual.trigger"), a("lines", "loop.for_each"), a("make"), a("parts", "loop.for_each"), a("part"), a("tell"), a("note"), a("report")],
    connections: [
      { from: "start", to: "lines", branch: "" },
      { from: "lines", to: "make", branch: "each" },
      { from: "lines", to: "note", branch: "each" },
      { from: "lines", to: "report", branch: "done" },
      { from: "make", to: "parts", branch: "" },
      { from: "parts", to: "part", branch: "each" },
      { from: "parts", to: "tell", branch: "done" },
    ],
  };

  it("is what the each connections reach, not what done leads to", () => {
    expect([...loopBody(nested, "lines")].sort()).toEqual(["make", "note", "part", "parts", "tell"]);
    expect([...loopBody(nested, "parts")]).toEqual(["part"]);
    expect(loopBody(nested, "report").size).toBe(0);
  });

  it("belongs to the innermost loop, and its nodes are marked on the canvas", () => {
    expect(Object.fromEntries(loopsOf(nested))).toEqual({ make: "lines", note: "lines", parts: "lines", tell: "lines", part: "parts" });
    const { nodes } = toFlow(nested, types, (x) => (x.action_key === "part" ? { inLoop: "per_item" } : {}));
    expect(Object.fromEntries(nodes.map((n) => [n.id, n.data.inLoop]))).toEqual({
      start: undefined, lines: undefined, make: "body", parts: "body", part: "per_item", tell: "body", note: "body", report: undefined,
    });
  });

  it("stops at a cycle", () => {
    const cycle: Graph = { actions: [a("l", "loop.for_each"), a("x"), a("y")], connections: [{ from: "l", to: "x", branch: "each" }, { from: "x", to: "y", branch: "" }, { from: "y", to: "x", branch: "" }] };
    expect([...loopBody(cycle, "l")].sort()).toEqual(["x", "y"]);
  });
});
