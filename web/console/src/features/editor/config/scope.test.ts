import { describe, expect, it } from "vitest";
import type { ActionType } from "../../../canvas/catalog";
import type { Action, Graph } from "../../../canvas/graph";
import { upstreamOf, variablesInScope } from "./scope";

function type(action_key: string, trigger: boolean, result_schema_json: Record<string, unknown>): ActionType {
  return { action_key, display_name: action_key, trigger, result_schema_json } as ActionType;
}

const types = new Map<string, ActionType>(
  [
    type("webhook.trigger", true, { type: "object", additionalProperties: true }),
    type("manual.trigger", true, { type: "object", additionalProperties: true }),
    type("http.request", false, {
      type: "object",
      properties: {
        status_code: { type: "integer", description: "HTTP status of the response." },
        headers: { type: "object", additionalProperties: { type: "string" } },
        json: { description: "The body parsed as JSON." },
      },
    }),
    type("messenger_a.relay.trigger", true, {
      type: "object",
      properties: { chat: { type: "object", properties: { id: { type: ["integer", "string"] } } } },
    }),
    type("db.query", false, {
      type: "object",
      properties: { rows: { type: "array", items: { type: "object", properties: { id: { type: "integer" } } } } },
    }),
    type("condition.branch", false, { type: "object", properties: { result: { type: "boolean" } } }),
    type("stop", false, { type: "object", properties: {} }),
  ].map((t) => [t.action_key, t]),
);

const action = (action_key: string, action_type_key: string, config: Record<string, unknown> = {}): Action => ({
  action_key,
  action_type_key,
  label: action_key,
  config,
});

// hook -> fetch -> check -(true)-> vip -> done
//                        -(false)-> plain -> done
// and other, reached from hook, is on no path to done.
const branches: Graph = {
  actions: [
    action("hook", "webhook.trigger", { endpoint_key: "order_created", sample_payload_json: { customer: { email: "a@b.c" } } }),
    action("fetch", "http.request"),
    action("check", "condition.branch"),
    action("vip", "http.request"),
    action("plain", "db.query"),
    action("done", "stop"),
    action("other", "http.request"),
  ],
  connections: [
    { from: "hook", to: "fetch", branch: "" },
    { from: "fetch", to: "check", branch: "" },
    { from: "check", to: "vip", branch: "true" },
    { from: "check", to: "plain", branch: "false" },
    { from: "vip", to: "done", branch: "" },
    { from: "plain", to: "done", branch: "" },
    { from: "hook", to: "other", branch: "" },
  ],
};

const paths = (graph: Graph, key: string, testInput: Record<string, unknown> = {}) =>
  variablesInScope({ graph, actionKey: key, types, testInput }).map((v) => v.path);

describe("upstreamOf", () => {
  it("lists the actions before one, nearest first, through both branches", () => {
    expect(upstreamOf(branches, "done")).toEqual(["vip", "plain", "check", "fetch", "hook"]);
  });

  it("stops at a cycle instead of walking it forever", () => {
    const cycle: Graph = {
      actions: [action("a", "http.request"), action("b", "http.request"), action("c", "http.request")],
      connections: [
        { from: "a", to: "b", branch: "" },
        { from: "b", to: "c", branch: "" },
        { from: "c", to: "a", branch: "" },
      ],
    };
    expect(upstreamOf(cycle, "a")).toEqual(["c", "b"]);
    expect(paths(cycle, "b")).toContain("steps.c.status_code");
  });
});

describe("variablesInScope", () => {
  it("offers steps of upstream actions only", () => {
    const vip = paths(branches, "vip");
    expect(vip).toContain("steps.fetch.status_code");
    expect(vip).toContain("steps.check.result");
    expect(vip.some((p) => p.startsWith("steps.plain"))).toBe(false);
    expect(vip.some((p) => p.startsWith("steps.other"))).toBe(false);
    expect(vip.some((p) => p.startsWith("steps.vip"))).toBe(false);
    expect(vip.some((p) => p.startsWith("steps.done"))).toBe(false);
  });

  it("offers both branches to the action where they join", () => {
    const done = paths(branches, "done");
    expect(done).toContain("steps.vip.status_code");
    expect(done).toContain("steps.plain.rows");
  });

  it("offers nested result properties and array items", () => {
    const done = paths(branches, "done");
    expect(done).toContain("steps.plain.rows.0.id");
    expect(done).toContain("steps.vip.headers");
    const relay: Graph = { actions: [action("bot_in", "messenger_a.relay.trigger"), action("reply", "stop")], connections: [{ from: "bot_in", to: "reply", branch: "" }] };
    const reply = variablesInScope({ graph: relay, actionKey: "reply", types, testInput: {} });
    expect(reply.find((v) => v.path === "messenger_a_relay.chat.id")?.kind).toBe("integer | string");
    expect(reply.map((v) => v.path)).toEqual(expect.arrayContaining(["bot.chat.id", "bot_session.state_key", "messenger_a.update_id"]));
  });

  it("offers the trigger's namespace with its sample payload's fields", () => {
    const fetch = paths(branches, "fetch", { total: 120, items: [{ sku: "x" }] });
    expect(fetch).toEqual(
      expect.arrayContaining(["order_created", "order_created.customer.email", "order_created.total", "order_created.items.0.sku", "steps.hook.total"]),
    );
  });

  it("gives the test input to the manual trigger when there is one", () => {
    const graph: Graph = {
      actions: [action("hook", "webhook.trigger", { endpoint_key: "order" }), action("start", "manual.trigger"), action("next", "stop")],
      connections: [{ from: "start", to: "next", branch: "" }],
    };
    const next = paths(graph, "next", { customer: "c1" });
    expect(next).toContain("start.customer");
    expect(next).not.toContain("order.customer");
  });

  it("offers a manual start's sample fields", () => {
    const graph: Graph = {
      actions: [action("start", "manual.trigger", { sample_payload_json: { total: 250 } }), action("next", "stop")],
      connections: [{ from: "start", to: "next", branch: "" }],
    };
    expect(paths(graph, "next")).toEqual(expect.arrayContaining(["start.total", "steps.start.total"]));
  });

  it("always offers the system variables, and the trigger's action itself nothing upstream", () => {
    const hook = paths(branches, "hook");
    expect(hook).toEqual(expect.arrayContaining(["system.run_id", "system.run_url", "system.link", "system.id"]));
    expect(hook.some((p) => p.startsWith("steps."))).toBe(false);
  });

  it("offers the item, its fields and loop.index inside a loop's body, the outer item in an inner loop", () => {
    const graph: Graph = {
      actions: [
        action("start", "manual.trigger"),
        action("lines", "loop.for_each", { items: "start.lines" }),
        action("post", "http.request"),
        action("parts", "loop.for_each", { items: "item.parts" }),
        action("part", "stop"),
        action("after", "stop"),
      ],
      connections: [
        { from: "start", to: "lines", branch: "" },
        { from: "lines", to: "post", branch: "each" },
        { from: "post", to: "parts", branch: "" },
        { from: "parts", to: "part", branch: "each" },
        { from: "lines", to: "after", branch: "done" },
      ],
    };
    const input = { lines: [{ sku: "A-1", parts: [{ no: 1 }] }] };
    const post = paths(graph, "post", input);
    expect(post).toEqual(expect.arrayContaining(["item", "item.sku", "item.parts", "loop.index", "loop.count"]));
    expect(post.some((p) => p.startsWith("loop.parent"))).toBe(false);
    const part = paths(graph, "part", input);
    expect(part).toEqual(expect.arrayContaining(["item", "item.no", "loop.index", "loop.parent.item", "loop.parent.item.sku", "loop.parent.index"]));
    const after = paths(graph, "after", input);
    expect(after.some((p) => p === "item" || p.startsWith("item.") || p.startsWith("loop."))).toBe(false);
  });
});


describe("variablesInScope of a run.event_trigger", () => {
  it("offers the run that ended under run_event, from the trigger's result schema", () => {
    const watched = new Map(types);
    watched.set(
      "run.event_trigger",
      type("run.event_trigger", true, {
        type: "object",
        properties: {
          run_id: { type: "string", description: "The run that ended." },
          workflow_name: { type: "string" },
          failed_action_key: { type: "string" },
          error: { type: "string" },
          run_url: { type: "string" },
        },
      }),
    );
    const graph: Graph = {
      actions: [action("failed", "run.event_trigger", { events: ["run.failed"] }), action("tell", "http.request")],
      connections: [{ from: "failed", to: "tell", branch: "" }],
    };
    const vars = variablesInScope({ graph, actionKey: "tell", types: watched, testInput: {} });
    const got = vars.map((v) => v.path);
    for (const p of ["run_event", "run_event.run_id", "run_event.workflow_name", "run_event.failed_action_key", "run_event.error", "run_event.run_url"]) {
      expect(got).toContain(p);
    }
    expect(vars.find((v) => v.path === "run_event.run_id")?.description).toBe("The run that ended.");
  });
});
