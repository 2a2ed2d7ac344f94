import { describe, expect, it } from "vitest";
import { toFlow, type Action, type Graph } from "../../canvas/graph";
import { defaultComparison, diffGraphs, diffValues, draftChoice } from "./diff";
import { NODE_HEIGHT, NODE_WIDTH } from "../../canvas/graph";

const hook: Action = { action_key: "hook", label: "Order placed", action_type_key: "webhook.trigger", config: {}, ui: { position: { x: 0, y: 0 } } };
const call: Action = {
  action_key: "call",
  label: "Tell the shop",
  action_type_key: "http.request",
  config: { url: "https://shop.example/a", headers: { Accept: "application/json" }, retry: [1, 5] },
  ui: { position: { x: 300, y: 0 } },
};
const check: Action = { action_key: "check", label: "Big?", action_type_key: "condition.branch", config: { text: "trigger.total > 100" } };
const done: Action = { action_key: "done", label: "Done", action_type_key: "stop", config: {} };

const from: Graph = {
  actions: [hook, call, check],
  connections: [
    { from: "hook", to: "call", branch: "" },
    { from: "call", to: "check", branch: "" },
  ],
};

describe("diffGraphs", () => {
  it("finds nothing between a graph and itself moved around", () => {
    const moved: Graph = {
      actions: from.actions.map((a, i) => ({ ...a, ui: { position: { x: i * 999, y: 7 } } })),
      connections: from.connections.map((c) => ({ ...c, description: "a note" })),
    };
    const diff = diffGraphs(from, moved);
    expect(diff.actions).toEqual([]);
    expect(diff.connections).toEqual([]);
  });

  it("marks added, removed and changed actions", () => {
    const to: Graph = {
      actions: [hook, { ...call, label: "Tell the shop now" }, done],
      connections: [
        { from: "hook", to: "call", branch: "" },
        { from: "call", to: "done", branch: "" },
      ],
    };
    const diff = diffGraphs(from, to);
    expect(diff.actions.map((c) => [c.change, c.action.action_key])).toEqual([
      ["changed", "call"],
      ["added", "done"],
      ["removed", "check"],
    ]);
    expect(diff.actions[0].fields).toEqual([{ path: "label", before: "Tell the shop", after: "Tell the shop now" }]);
    expect(diff.actionChange("hook")).toBeUndefined();
    expect(diff.actionChange("check")).toBe("removed");
  });

  it("tells connections apart by from, to and branch", () => {
    const branches: Graph = {
      actions: [hook, check, done],
      connections: [
        { from: "hook", to: "check", branch: "" },
        { from: "check", to: "done", branch: "true" },
      ],
    };
    const to: Graph = {
      ...branches,
      connections: [
        { from: "hook", to: "check", branch: "" },
        { from: "check", to: "done", branch: "false" },
      ],
    };
    const diff = diffGraphs(branches, to);
    expect(diff.connections).toEqual([
      { change: "added", connection: { from: "check", to: "done", branch: "false" } },
      { change: "removed", connection: { from: "check", to: "done", branch: "true" } },
    ]);
  });

  it("draws the removed actions and connections back into the graph, marked for the canvas", () => {
    const to: Graph = { actions: [hook, done], connections: [{ from: "hook", to: "done", branch: "" }] };
    const diff = diffGraphs(from, to);
    expect(diff.graph.actions.map((a) => a.action_key)).toEqual(["hook", "done", "call", "check"]);
    expect(diff.graph.connections).toHaveLength(3);
    const { edges } = toFlow(diff.graph, new Map());
    expect(edges.map((e) => [e.id, diff.edgeChange(e)])).toEqual([
      ["hook->done:", "added"],
      ["hook->call:", "removed"],
      ["call->check:", "removed"],
    ]);
  });

  it("draws no two actions over each other, a removed one replaced in its place included", () => {
    const placed = (a: Action, x: number, y: number): Action => ({ ...a, ui: { position: { x, y } } });
    const before: Graph = { actions: [hook, call, placed(check, 600, 0), placed(done, 600, 112)], connections: [] };
    // "ask" takes the removed "check"'s place and "done" stays below it.
    const ask: Action = { action_key: "ask", label: "Ask", action_type_key: "stop", config: {}, ui: { position: { x: 610, y: 10 } } };
    const after: Graph = { actions: [hook, { ...call, label: "Tell the shop now" }, ask, placed(done, 600, 112)], connections: [] };
    const { nodes } = toFlow(diffGraphs(before, after).graph, new Map());
    expect(nodes.map((n) => n.id)).toEqual(["hook", "call", "ask", "done", "check"]);
    for (const [i, a] of nodes.entries()) {
      for (const b of nodes.slice(i + 1)) {
        const apart = Math.abs(a.position.x - b.position.x) >= NODE_WIDTH || Math.abs(a.position.y - b.position.y) >= NODE_HEIGHT;
        expect(apart, `${a.id} at ${JSON.stringify(a.position)} covers ${b.id} at ${JSON.stringify(b.position)}`).toBe(true);
      }
    }
  });

  it("lists a changed config field by field, nested objects and arrays included", () => {
    const to: Graph = {
      ...from,
      actions: [
        hook,
        {
          ...call,
          action_type_key: "http.request.v2",
          config: { url: "https://shop.example/b", headers: { Accept: "application/json", "X-Key": "k" }, retry: [1, 10, 30] },
        },
        check,
      ],
    };
    const [change] = diffGraphs(from, to).actions;
    expect(change.change).toBe("changed");
    expect(change.fields).toEqual([
      { path: "action_type_key", before: "http.request", after: "http.request.v2" },
      { path: "config.url", before: "https://shop.example/a", after: "https://shop.example/b" },
      { path: "config.headers.X-Key", before: undefined, after: "k" },
      { path: "config.retry[1]", before: 5, after: 10 },
      { path: "config.retry[2]", before: undefined, after: 30 },
    ]);
  });
});

describe("diffValues", () => {
  it("takes an absent config for an empty one", () => {
    expect(diffValues("config", undefined, {})).toEqual([]);
  });

  it("reports a value that changed kind whole", () => {
    expect(diffValues("config.body", { a: 1 }, "text")).toEqual([{ path: "config.body", before: { a: 1 }, after: "text" }]);
    expect(diffValues("config.list", [1], null)).toEqual([{ path: "config.list", before: [1], after: null }]);
  });
});

describe("defaultComparison", () => {
  const version = (n: number, graph: Graph, isCurrent = false) => ({ ...graph, workflow_version_id: `v${n}`, version_number: n, is_current: isCurrent });
  const changed: Graph = { actions: [hook, done], connections: [] };

  it("compares the current version with a draft that moved on", () => {
    expect(defaultComparison([version(1, from, true), version(2, changed)], changed)).toEqual({ from: "v1", to: draftChoice });
  });

  it("compares the newest version with the draft when none is current", () => {
    expect(defaultComparison([version(1, from), version(2, changed)], from)).toEqual({ from: "v2", to: draftChoice });
  });

  it("compares the two latest versions when the draft is the current one unchanged", () => {
    expect(defaultComparison([version(1, from), version(2, changed, true)], changed)).toEqual({ from: "v1", to: "v2" });
  });

  it("never compares a graph with itself when one version was published from the draft", () => {
    const first = defaultComparison([version(1, from, true)], from);
    expect(first).toEqual({ from: "v1", to: draftChoice });
  });
});
