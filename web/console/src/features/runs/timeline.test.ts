import { describe, expect, it } from "vitest";
import { timelineRows } from "./timeline";
import type { ActionRun, ActionWithState } from "./types";

const action = (action_key: string): ActionWithState => ({ action_key, action_type_key: "http.request", status: "succeeded", attempt_count: 1, max_attempts: 1 });
const receipt = (action_key: string, started_at: string | null, finished_at: string | null): ActionRun => ({
  action_run_id: action_key, action_key, action_type_key: "http.request", status: "succeeded", attempt_count: 1,
  input_json: {}, output_json: {}, provider_response_json: {}, started_at, finished_at,
});

describe("timelineRows", () => {
  it("orders by start, places bars along the run, and leaves actions not started without a bar", () => {
    const receipts = new Map([
      ["b", receipt("b", "2026-01-01T00:00:01Z", "2026-01-01T00:00:04Z")],
      ["a", receipt("a", "2026-01-01T00:00:00Z", "2026-01-01T00:00:01Z")],
      ["c", receipt("c", null, null)],
    ]);
    const rows = timelineRows([action("c"), action("b"), action("a")], receipts, Date.parse("2026-01-01T00:01:00Z"));
    expect(rows.map((r) => [r.action.action_key, r.bar])).toEqual([
      ["a", { left: 0, width: 25 }],
      ["b", { left: 25, width: 75 }],
      ["c", undefined],
    ]);
  });

  it("shows an action decided inside the workflow (no start, a finish) as an instant", () => {
    const receipts = new Map([
      ["start", receipt("start", null, "2026-01-01T00:00:00Z")],
      ["fetch", receipt("fetch", "2026-01-01T00:00:00Z", "2026-01-01T00:00:10Z")],
      ["check", receipt("check", null, "2026-01-01T00:00:10Z")],
    ]);
    const rows = timelineRows([action("check"), action("fetch"), action("start")], receipts, 0);
    expect(rows.map((r) => [r.action.action_key, r.bar])).toEqual([
      ["fetch", { left: 0, width: 100 }],
      ["start", { left: 0, width: 0.5 }],
      ["check", { left: 99.5, width: 0.5 }],
    ]);
  });

  it("grows the span of a run still going in steps of ten seconds", () => {
    const receipts = new Map([
      ["a", receipt("a", "2026-01-01T00:00:00Z", "2026-01-01T00:00:01Z")],
      ["b", receipt("b", "2026-01-01T00:00:01Z", null)],
    ]);
    const rows = timelineRows([action("a"), action("b")], receipts, Date.parse("2026-01-01T00:00:12Z"));
    expect(rows[0].bar).toEqual({ left: 0, width: 5 });
    expect(rows[1].bar?.left).toBe(5);
    expect(rows[1].bar?.width).toBeCloseTo(55);
  });

  it("runs a bar still running up to now", () => {
    const receipts = new Map([
      ["a", receipt("a", "2026-01-01T00:00:00Z", "2026-01-01T00:00:01Z")],
      ["b", receipt("b", "2026-01-01T00:00:01Z", null)],
    ]);
    const rows = timelineRows([action("a"), action("b")], receipts, Date.parse("2026-01-01T00:00:10Z"));
    expect(rows[1].bar).toEqual({ left: 10, width: 90 });
  });
});
