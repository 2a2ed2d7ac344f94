import { describe, expect, it } from "vitest";
import type { Draft } from "./document";
import { begin, BURST, commit, redo, undo } from "./history";

const empty: Draft = { actions: [], connections: [], test_input_json: {}, change_description: "" };
const add = (key: string) => ({ type: "addAction" as const, action: { action_key: key, action_type_key: "http.request" } });
const keys = (d: Draft) => d.actions.map((a) => a.action_key);

describe("undo stack", () => {
  it("undoes and redoes operations in order", () => {
    let h = begin(empty);
    h = commit(h, add("a"), 1);
    h = commit(h, add("b"), 2);
    expect(keys(h.present)).toEqual(["a", "b"]);
    h = undo(h);
    expect(keys(h.present)).toEqual(["a"]);
    h = undo(h);
    expect(keys(h.present)).toEqual([]);
    expect(undo(h)).toBe(h);
    h = redo(h);
    expect(keys(h.present)).toEqual(["a"]);
    h = redo(h);
    h = redo(h);
    expect(keys(h.present)).toEqual(["a", "b"]);
  });

  it("forgets the redo steps after a new operation", () => {
    let h = commit(commit(begin(empty), add("a"), 1), add("b"), 2);
    h = commit(undo(h), add("c"), 3);
    expect(keys(h.present)).toEqual(["a", "c"]);
    expect(redo(h)).toBe(h);
  });

  it("makes a burst of one group one step, and a pause starts a new one", () => {
    const base = commit(begin(empty), add("a"), 1);
    const rename = (label: string, at: number, h = base) =>
      commit(h, { type: "updateAction", key: "a", action: { action_key: "a", action_type_key: "http.request", label } }, at, "update:a");
    let h = rename("H", 100);
    h = rename("He", 300, h);
    h = rename("Hel", 500, h);
    expect(h.past).toHaveLength(2);
    expect(undo(h).present.actions[0].label).toBeUndefined();
    h = rename("Hello", 500 + BURST + 1, h);
    expect(undo(h).present.actions[0].label).toBe("Hel");
  });

  it("takes no step for an operation that changes nothing", () => {
    const h = commit(begin(empty), add("a"), 1);
    expect(commit(h, { type: "disconnect", ids: ["x"] }, 2)).toBe(h);
  });

  it("keeps the actions an operation did not touch shared between steps", () => {
    const h = commit(commit(begin(empty), add("a"), 1), add("b"), 2);
    expect(h.present.actions[0]).toBe(h.past[1].actions[0]);
  });
});
