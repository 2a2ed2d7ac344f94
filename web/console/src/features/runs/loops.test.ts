import { describe, expect, it } from "vitest";
import { actionOfLoopKey, itemPreview, itemReceipts, loopCounts, loopRunKey, readItem } from "./loops";
import type { ActionRun } from "./types";

const receipt = (action_key: string, status: ActionRun["status"]): ActionRun => ({
  action_run_id: action_key, action_key, action_type_key: "http.request", status, attempt_count: 1, input_json: {}, output_json: {}, provider_response_json: {},
});

describe("a loop in the inspector", () => {
  it("reads the chosen item from the address, and nothing from a bad one", () => {
    expect(readItem(new URLSearchParams("action=lines&loop=lines&item=2"))).toEqual({ loop: "lines", index: 2 });
    expect(readItem(new URLSearchParams("loop=lines"))).toBeUndefined();
    expect(readItem(new URLSearchParams("loop=lines&item=-1"))).toBeUndefined();
    expect(readItem(new URLSearchParams("loop=lines&item=x"))).toBeUndefined();
  });

  it("keys an inner loop in the run by the outer item chosen", () => {
    const loops = new Map([["parts", "lines"], ["part", "parts"]]);
    expect(loopRunKey("lines", loops, undefined)).toBe("lines");
    expect(loopRunKey("parts", loops, undefined)).toBeUndefined();
    expect(loopRunKey("parts", loops, { loop: "lines", index: 2 })).toBe("lines[2].parts");
    expect(actionOfLoopKey("lines[2].parts")).toBe("parts");
  });

  it("lays an item's action runs over the run's receipts", () => {
    const run = new Map([["lines", receipt("lines", "succeeded")]]);
    expect(itemReceipts(run, undefined)).toBe(run);
    const item = { loop_key: "lines", item_index: 1, status: "failed" as const, item_json: {}, error: "", failed_action_key: "post", started_at: null, finished_at: null, actions: [receipt("post", "failed")] };
    const over = itemReceipts(run, item);
    expect([...over.keys()]).toEqual(["lines", "post"]);
    expect(over.get("post")?.status).toBe("failed");
    expect(run.has("post")).toBe(false);
  });

  it("counts from the loop's output once it has one, and previews an item on one line", () => {
    expect(loopCounts({ count: 3, succeeded: 2, failed: 1, results: [] })).toEqual({ count: 3, succeeded: 2, failed: 1 });
    expect(loopCounts({})).toBeUndefined();
    expect(itemPreview({ sku: "A-1", note: "<b>x</b>" })).toBe('{"sku":"A-1","note":"<b>x</b>"}');
    expect(itemPreview("x".repeat(200), 10)).toBe('"xxxxxxxx…');
  });
});
