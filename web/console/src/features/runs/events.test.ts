import { describe, expect, it } from "vitest";
import { applyToGraph, applyToReceipts, applyToRun, RunEventQueue } from "./events";
import type { ActionRun, RunEvent, RunGraphView, RunView } from "./types";

let seq = 0;
function event(event_type: string, action_key: string, status: string, extra: Partial<RunEvent> = {}): RunEvent {
  seq++;
  return { event_id: `e${seq}`, sequence: seq, event_type, action_key, status, message: "", data_json: {}, created_at: `2026-01-01T00:00:${String(seq).padStart(2, "0")}Z`, ...extra };
}

const run: RunView = {
  workflow_run_id: "r", workflow_id: "w", workflow_version_id: "v", project_id: "p", status: "pending", terminal: false,
  terminal_reason: "", error: "", trigger_type: "manual", trigger_action_key: "start", is_test: false, input_json: {},
  replay_of_run_id: null, started_at: null, finished_at: null, created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z", history_url: "",
};

function receipt(action_key: string, status: ActionRun["status"] = "pending"): ActionRun {
  return { action_run_id: action_key, action_key, action_type_key: "http.request", status, attempt_count: 0, input_json: {}, output_json: {}, provider_response_json: {} };
}

describe("RunEventQueue", () => {
  it("keeps each event once, in order, across a resumed stream that sends some again", () => {
    const q = new RunEventQueue();
    const [a, b, c] = [event("run.started", "", "running"), event("action.started", "fetch", "running"), event("action.succeeded", "fetch", "succeeded")];
    expect([a, b].map((e) => q.push(e))).toEqual([true, true]);
    expect([b, c].map((e) => q.push(e))).toEqual([false, true]);
    expect(q.drain().map((e) => e.sequence)).toEqual([a.sequence, b.sequence, c.sequence]);
    expect(q.drain()).toEqual([]);
    expect(q.lastSequence).toBe(c.sequence);
  });
});

describe("applyToRun", () => {
  it("follows the run from start to end and back on a retry", () => {
    const started = event("run.started", "", "running");
    const failed = event("run.failed", "", "failed", { message: "action fetch failed" });
    const after = applyToRun(run, [started, failed]);
    expect(after).toMatchObject({ status: "failed", terminal: true, started_at: started.created_at, finished_at: failed.created_at, terminal_reason: "action fetch failed" });
    expect(applyToRun(after, [event("run.resumed", "fetch", "running")])).toMatchObject({ status: "running", terminal: false, finished_at: null });
  });
  it("leaves the run as it is when no event concerns it", () => {
    expect(applyToRun(run, [event("action.started", "fetch", "running")])).toBe(run);
  });
});

describe("applyToGraph", () => {
  const graph: RunGraphView = {
    workflow_run_id: "r", status: "running", connections: [],
    actions: [
      { action_key: "start", action_type_key: "manual.trigger", status: "succeeded", attempt_count: 1, max_attempts: 1 },
      { action_key: "fetch", action_type_key: "http.request", status: "pending", attempt_count: 0, max_attempts: 3 },
    ],
  };
  it("takes each action's last status and keeps untouched actions as they were", () => {
    const next = applyToGraph(graph, [event("action.started", "fetch", "running"), event("action.succeeded", "fetch", "succeeded"), event("run.succeeded", "", "succeeded")]);
    expect(next.status).toBe("succeeded");
    expect(next.actions[1].status).toBe("succeeded");
    expect(next.actions[0]).toBe(graph.actions[0]);
  });
  it("is the same graph when nothing changes", () => {
    expect(applyToGraph(graph, [])).toBe(graph);
  });
});

describe("applyToReceipts", () => {
  it("records a failure's diagnostic and timing", () => {
    const receipts = [receipt("start", "succeeded"), receipt("fetch")];
    const started = event("action.started", "fetch", "running");
    const dead = event("action.dead_lettered", "fetch", "dead_lettered", { message: "the target answered 503", data_json: { retry_class: "transient", reason_code: "http_5xx" } });
    const next = applyToReceipts(receipts, [started, dead]);
    expect(next[0]).toBe(receipts[0]);
    expect(next[1]).toMatchObject({
      status: "dead_lettered", started_at: started.created_at, finished_at: dead.created_at, error: "the target answered 503",
      retry_class: "transient", diagnostics: { reason_code: "http_5xx", human_reason: "the target answered 503" },
    });
  });
  it("ignores events of actions it does not hold and statuses it does not know", () => {
    const receipts = [receipt("fetch")];
    expect(applyToReceipts(receipts, [event("action.started", "other", "running"), event("action.started", "fetch", "exploded")])).toBe(receipts);
  });
});
