import { describe, expect, it } from "vitest";
import { edgeStates } from "./edges";
import type { ActionRun, ActionStatus, RunGraphView } from "./types";

function graph(statuses: Record<string, [string, ActionStatus]>, connections: RunGraphView["connections"]): RunGraphView {
  return {
    workflow_run_id: "r", status: "running", connections,
    actions: Object.entries(statuses).map(([action_key, [action_type_key, status]]) => ({ action_key, action_type_key, status, attempt_count: 1, max_attempts: 1 })),
  };
}
function outputs(o: Record<string, Record<string, unknown>>): Map<string, ActionRun> {
  return new Map(
    Object.entries(o).map(([k, output_json]) => [k, { action_run_id: k, action_key: k, action_type_key: "", status: "succeeded", attempt_count: 1, input_json: {}, output_json, provider_response_json: {} }]),
  );
}

describe("edgeStates", () => {
  const branching = [
    { from: "start", to: "check", branch: "" as const },
    { from: "check", to: "yes", branch: "true" as const },
    { from: "check", to: "no", branch: "false" as const },
  ];

  it("marks the condition's chosen branch taken and the other untaken", () => {
    const g = graph({ start: ["manual.trigger", "succeeded"], check: ["condition.branch", "succeeded"], yes: ["http.request", "running"], no: ["http.request", "skipped"] }, branching);
    expect(Object.fromEntries(edgeStates(g, outputs({ check: { result: true } })))).toEqual({
      "start->check:": "taken",
      "check->yes:true": "taken",
      "check->no:false": "untaken",
    });
  });

  it("leaves connections undecided while their source runs or their target waits for others", () => {
    const g = graph({ start: ["manual.trigger", "succeeded"], check: ["condition.branch", "running"], yes: ["http.request", "pending"], no: ["http.request", "pending"] }, branching);
    expect(Object.fromEntries(edgeStates(g, new Map()))).toEqual({ "start->check:": "taken" });
  });

  it("marks the branch a condition did not choose untaken before its target is skipped", () => {
    const g = graph({ start: ["manual.trigger", "succeeded"], check: ["condition.branch", "succeeded"], yes: ["http.request", "pending"], no: ["http.request", "pending"] }, branching);
    expect(edgeStates(g, outputs({ check: { result: false } })).get("check->yes:true")).toBe("untaken");
    expect(edgeStates(g, outputs({ check: { result: false } })).get("check->no:false")).toBeUndefined();
  });

  it("takes nothing after a failed action or a stop", () => {
    const g = graph(
      { start: ["manual.trigger", "succeeded"], fetch: ["http.request", "failed"], done: ["stop", "succeeded"], after: ["http.request", "skipped"], tail: ["http.request", "skipped"] },
      [{ from: "fetch", to: "after", branch: "" }, { from: "done", to: "tail", branch: "" }],
    );
    expect(Object.fromEntries(edgeStates(g, new Map()))).toEqual({ "fetch->after:": "untaken", "done->tail:": "untaken" });
  });

  it("follows a switch's case, and an action's error path after it failed", () => {
    const g = graph(
      { route: ["condition.switch", "succeeded"], north: ["http.request", "failed"], south: ["http.request", "skipped"], tell: ["http.request", "succeeded"], next: ["http.request", "skipped"] },
      [
        { from: "route", to: "north", branch: "north" },
        { from: "route", to: "south", branch: "south" },
        { from: "north", to: "next", branch: "" },
        { from: "north", to: "tell", branch: "error" },
      ],
    );
    const receipts = outputs({ route: { case: "north" }, north: { error: { message: "refused" } } });
    receipts.set("north", { ...receipts.get("north")!, status: "failed" });
    expect(Object.fromEntries(edgeStates(g, receipts))).toEqual({
      "route->north:north": "taken",
      "route->south:south": "untaken",
      "north->next:": "untaken",
      "north->tell:error": "taken",
    });
  });

  it("takes an action's status from its receipt before the graph's", () => {
    const g = graph({ start: ["manual.trigger", "pending"], check: ["condition.branch", "pending"], yes: ["http.request", "pending"], no: ["http.request", "pending"] }, branching);
    const receipts = outputs({ start: {}, check: { result: true }, yes: {} });
    expect(Object.fromEntries(edgeStates(g, receipts))).toEqual({ "start->check:": "taken", "check->yes:true": "taken", "check->no:false": "untaken" });
  });

  it("follows a reply wait's timeout", () => {
    const g = graph(
      { wait: ["bot.wait_for_reply", "succeeded"], reply: ["http.request", "skipped"], late: ["http.request", "succeeded"] },
      [{ from: "wait", to: "reply", branch: "" }, { from: "wait", to: "late", branch: "timeout" }],
    );
    expect(Object.fromEntries(edgeStates(g, outputs({ wait: { timed_out: true } })))).toEqual({ "wait->reply:": "untaken", "wait->late:timeout": "taken" });
  });

  it("follows an approval's decision, and its timeout as timeout", () => {
    const connections = [
      { from: "approve", to: "ok", branch: "approved" as const },
      { from: "approve", to: "no", branch: "rejected" as const },
      { from: "approve", to: "late", branch: "timeout" as const },
    ];
    const g = graph({ approve: ["approval.wait", "succeeded"], ok: ["http.request", "skipped"], no: ["http.request", "succeeded"], late: ["http.request", "skipped"] }, connections);
    expect(Object.fromEntries(edgeStates(g, outputs({ approve: { decision: "rejected" } })))).toEqual({
      "approve->ok:approved": "untaken",
      "approve->no:rejected": "taken",
      "approve->late:timeout": "untaken",
    });
    const late = graph({ approve: ["approval.wait", "succeeded"], ok: ["http.request", "skipped"], no: ["http.request", "skipped"], late: ["http.request", "succeeded"] }, connections);
    expect(Object.fromEntries(edgeStates(late, outputs({ approve: { decision: "timed_out" } })))).toEqual({
      "approve->ok:approved": "untaken",
      "approve->no:rejected": "untaken",
      "approve->late:timeout": "taken",
    });
  });

  it("takes a loop's each into the body the item shown ran, and done once the loop succeeded", () => {
    const connections = [
      { from: "lines", to: "post", branch: "each" as const },
      { from: "post", to: "note", branch: "" as const },
      { from: "lines", to: "report", branch: "done" as const },
    ];
    // The run's graph has no status for a body action ("" from the server).
    const g = graph({ lines: ["loop.for_each", "succeeded"], post: ["http.request", "" as ActionStatus], note: ["http.request", "" as ActionStatus], report: ["http.request", "succeeded"] }, connections);
    const run = outputs({ lines: { count: 3, succeeded: 2, failed: 1 }, report: {} });
    expect(Object.fromEntries(edgeStates(g, run))).toEqual({ "lines->report:done": "taken" });
    const item = new Map(run);
    item.set("post", { ...outputs({ post: {} }).get("post")!, status: "failed" });
    expect(Object.fromEntries(edgeStates(g, item))).toEqual({ "lines->post:each": "taken", "post->note:": "untaken", "lines->report:done": "taken" });
  });

  it("takes neither of a loop's ways when its list was empty or it failed", () => {
    const connections = [{ from: "lines", to: "post", branch: "each" as const }, { from: "lines", to: "report", branch: "done" as const }];
    const empty = graph({ lines: ["loop.for_each", "succeeded"], post: ["http.request", "" as ActionStatus], report: ["http.request", "succeeded"] }, connections);
    expect(edgeStates(empty, outputs({ lines: { count: 0 } })).get("lines->post:each")).toBe("untaken");
    const failed = graph({ lines: ["loop.for_each", "failed"], post: ["http.request", "" as ActionStatus], report: ["http.request", "skipped"] }, connections);
    expect(edgeStates(failed, new Map()).get("lines->report:done")).toBe("untaken");
  });
});

