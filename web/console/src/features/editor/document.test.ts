import { describe, expect, it } from "vitest";
import type { ActionType } from "../../canvas/catalog";
import { fromFlow, toFlow } from "../../canvas/graph";
import { apply, connectionProblem, type Draft } from "./document";

const types = new Map<string, ActionType>(
  [
    { action_key: "manual.trigger", display_name: "Manual", category: "trigger", trigger: true },
    { action_key: "condition.branch", display_name: "Condition", category: "logic", trigger: false },
    { action_key: "http.request", display_name: "HTTP request", category: "integration", trigger: false },
  ].map((t) => [t.action_key, t as ActionType]),
);

const draft: Draft = {
  actions: [
    { action_key: "start", action_type_key: "manual.trigger", ui: { position: { x: 0, y: 0 } } },
    { action_key: "check", action_type_key: "condition.branch", ui: { position: { x: 300, y: 0 } } },
    { action_key: "call", action_type_key: "http.request", ui: { position: { x: 600, y: 0 } } },
  ],
  connections: [{ from: "start", to: "check", branch: "" }],
  test_input_json: {},
  change_description: "",
};

describe("connection rules", () => {
  it("accepts a new connection from an existing output", () => {
    expect(connectionProblem(draft, { from: "check", to: "call", branch: "true" }, types)).toBeUndefined();
  });
  it("rejects a connection to itself, a duplicate, into a trigger, and from an output the action lacks", () => {
    expect(connectionProblem(draft, { from: "call", to: "call", branch: "" }, types)).toBe("self");
    expect(connectionProblem(draft, { from: "start", to: "check", branch: "" }, types)).toBe("duplicate");
    expect(connectionProblem(draft, { from: "call", to: "start", branch: "" }, types)).toBe("trigger");
    expect(connectionProblem(draft, { from: "call", to: "check", branch: "true" }, types)).toBe("branch");
    expect(connectionProblem(draft, { from: "check", to: "call", branch: "" }, types)).toBe("branch");
  });
});

describe("operations", () => {
  it("adds an action connected after another, keeping the other actions as they were", () => {
    const next = apply(draft, { type: "addAction", action: { action_key: "call_2", action_type_key: "http.request" }, after: { from: "check", branch: "false" } });
    expect(next.actions.slice(0, 3).every((a, i) => a === draft.actions[i])).toBe(true);
    expect(next.connections).toContainEqual({ from: "check", to: "call_2", branch: "false" });
  });

  it("inserts an action in the middle of a connection, keeping its branch on the first half", () => {
    const withEdge = apply(draft, { type: "connect", connection: { from: "check", to: "call", branch: "true" } });
    const next = apply(withEdge, { type: "insertAction", action: { action_key: "mid", action_type_key: "http.request" }, between: { from: "check", to: "call", branch: "true" } });
    expect(next.connections).toEqual([
      { from: "start", to: "check", branch: "" },
      { from: "check", to: "mid", branch: "true" },
      { from: "mid", to: "call", branch: "" },
    ]);
  });

  it("removes actions with their connections", () => {
    const next = apply(draft, { type: "removeActions", keys: ["check"] });
    expect(next.actions.map((a) => a.action_key)).toEqual(["start", "call"]);
    expect(next.connections).toEqual([]);
  });

  it("moves only the actions named and changes nothing for a move to the same place", () => {
    const next = apply(draft, { type: "moveActions", positions: { call: { x: 610, y: 10 } } });
    expect(next.actions[2].ui?.position).toEqual({ x: 610, y: 10 });
    expect(next.actions[0]).toBe(draft.actions[0]);
    expect(apply(draft, { type: "moveActions", positions: { call: { x: 600, y: 0 } } })).toBe(draft);
  });

  it("renames the connections' ends when an action's key changes", () => {
    const next = apply(draft, { type: "updateAction", key: "check", action: { ...draft.actions[1], action_key: "is_big" } });
    expect(next.connections).toEqual([{ from: "start", to: "is_big", branch: "" }]);
  });

  it("ignores a duplicate connection", () => {
    expect(apply(draft, { type: "connect", connection: { from: "start", to: "check", branch: "" } })).toBe(draft);
  });

  it("round-trips through the canvas with positions as ui.position", () => {
    const { nodes, edges } = toFlow(draft, types);
    const back = fromFlow(nodes, edges);
    expect(back.actions.map((a) => a.ui?.position)).toEqual(draft.actions.map((a) => a.ui?.position));
    expect(back.connections).toEqual(draft.connections);
  });
});
