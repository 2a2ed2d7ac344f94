import { describe, expect, it } from "vitest";
import { applyEvent, entries, lastOutcome, proposalOf, title, turnGoesOn, withDecision, type Session, type SessionEvent, type ToolCall } from "./transcript";

const sid = "00000000-0000-7000-8000-000000000001";

function session(over: Partial<Session> = {}): Session {
  return {
    ai_chat_session_id: sid,
    company_id: "c",
    project_id: "p",
    active_patch_proposal_id: null,
    active_tool_call_id: null,
    agent_runtime: "temporal_agent",
    agent_thread_id: "ai-session-" + sid,
    screen_scope: "project",
    status: "idle",
    session_revision: 1,
    page_context_json: {},
    last_page_context_json: {},
    runtime_state_json: {},
    working_memory_json: {},
    messages: [],
    tool_calls: [],
    action_dependency_id: null,
    model_id: "",
    created_at: "2026-05-01T10:00:00Z",
    updated_at: "2026-05-01T10:00:00Z",
    ...over,
  };
}

function call(id: string, over: Partial<ToolCall> = {}): ToolCall {
  return {
    ai_tool_call_id: id,
    ai_chat_session_id: sid,
    tool_key: "get_run",
    status: "succeeded",
    risk_level: "read",
    requires_approval: false,
    input_json: {},
    output_json: {},
    turn: 1,
    created_at: "2026-05-01T10:00:02Z",
    updated_at: "2026-05-01T10:00:02Z",
    ...over,
  };
}

let seq = 0;
function event(event_type: string, data: Record<string, unknown>, created_at = "2026-05-01T10:00:05Z"): SessionEvent {
  return { sequence: ++seq, turn: 1, event_type, data, created_at };
}

describe("entries", () => {
  it("puts each step's calls after its message and hides the empty messages of steps that only called tools", () => {
    const s = session({
      messages: [
        { message_id: "u", role: "user", content: "Why?", turn: 1, tool_call_ids: [], created_at: "2026-05-01T10:00:01Z" },
        { message_id: "s1", role: "assistant", content: "", turn: 1, tool_call_ids: ["a"], created_at: "2026-05-01T10:00:02Z" },
        { message_id: "s2", role: "assistant", content: "Looking closer", turn: 1, tool_call_ids: ["b"], created_at: "2026-05-01T10:00:03Z" },
        { message_id: "s3", role: "assistant", content: "Done", turn: 1, tool_call_ids: [], created_at: "2026-05-01T10:00:04Z" },
      ],
      tool_calls: [call("a"), call("b", { created_at: "2026-05-01T10:00:03Z" })],
    });
    expect(entries(s).map((e) => (e.kind === "message" ? e.message.message_id : e.call.ai_tool_call_id))).toEqual(["u", "a", "s2", "b", "s3"]);
  });

  it("places calls that came by the stream after what came before them, whatever their times", () => {
    const at = "2026-05-01T10:00:01Z";
    let s = session();
    s = applyEvent(s, event("message.created", { message_id: "u", role: "user", content: "Why?" }, at));
    s = applyEvent(s, event("tool_call.created", { ai_tool_call_id: "a", tool_key: "get_run", status: "running", risk_level: "read" }, at));
    s = applyEvent(s, event("message.created", { message_id: "m", role: "assistant", content: "The run failed." }, at));
    s = applyEvent(s, event("tool_call.created", { ai_tool_call_id: "b", tool_key: "propose_workflow_patch", status: "running", risk_level: "proposal" }, at));
    s = applyEvent(s, event("tool_call.updated", { ai_tool_call_id: "a", status: "succeeded" }, at));
    expect(entries(s).map((e) => (e.kind === "message" ? e.message.message_id : e.call.ai_tool_call_id))).toEqual(["u", "a", "m", "b"]);
  });

  it("shows a call no message names at the end", () => {
    const s = session({ messages: [{ message_id: "u", role: "user", content: "Why?", turn: 1, tool_call_ids: [], created_at: "" }], tool_calls: [call("a")] });
    expect(entries(s).map((e) => e.kind)).toEqual(["message", "tool_call"]);
  });
});

describe("applyEvent", () => {
  it("adds the person's message once and marks the turn running", () => {
    const e = event("message.created", { message_id: "u", role: "user", content: "<b>hi</b>" });
    const s = applyEvent(applyEvent(session(), e), e);
    expect(s.status).toBe("running");
    expect(s.messages).toEqual([{ message_id: "u", role: "user", content: "<b>hi</b>", turn: 1, tool_call_ids: [], created_at: e.created_at }]);
  });

  it("follows a call from created to updated, and a pause for approval", () => {
    let s = applyEvent(session({ status: "running" }), event("tool_call.created", { ai_tool_call_id: "a", tool_key: "apply_patch_proposal", status: "pending_approval", risk_level: "low", requires_approval: true, input_json: null, output_json: null }));
    s = applyEvent(s, event("approval.needed", { ai_tool_call_id: "a", tool_key: "apply_patch_proposal", status: "pending_approval", risk_level: "low", requires_approval: true }));
    expect(s.status).toBe("waiting_approval");
    expect(s.active_tool_call_id).toBe("a");
    expect(s.tool_calls).toHaveLength(1);
    expect(s.tool_calls[0]).toMatchObject({ status: "pending_approval", input_json: {}, output_json: {}, requires_approval: true, risk_level: "low" });
    s = applyEvent(s, event("tool_call.updated", { ai_tool_call_id: "a", status: "succeeded", output_json: { draft_actions: 3 } }, "2026-05-01T10:00:09Z"));
    expect(s.tool_calls[0]).toMatchObject({ tool_key: "apply_patch_proposal", status: "succeeded", output_json: { draft_actions: 3 }, risk_level: "low", updated_at: "2026-05-01T10:00:09Z" });
  });

  it("ends the turn with done or error, keeping how it ended", () => {
    const running = session({ status: "running", active_tool_call_id: "a" });
    const done = applyEvent(running, event("done", { turn: 1, status: "cancelled" }));
    expect(done).toMatchObject({ status: "idle", active_tool_call_id: null });
    expect(lastOutcome(done)).toEqual({ kind: "cancelled" });
    const failed = applyEvent(running, event("error", { turn: 1, status: "failed", detail: "provider said no" }));
    expect(lastOutcome(failed)).toEqual({ kind: "failed", detail: "provider said no" });
    expect(lastOutcome(applyEvent(running, event("done", { turn: 1, status: "done" })))).toBeUndefined();
  });

  it("leaves the session as it is for the text being written", () => {
    const s = session();
    expect(applyEvent(s, event("message.delta", { step: 1, text: "Hel" }))).toBe(s);
  });
});

describe("turnGoesOn", () => {
  it("is true while a turn runs, or waits for an approval already given or refused", () => {
    expect(turnGoesOn(session({ status: "running" }))).toBe(true);
    expect(turnGoesOn(session({ status: "idle" }))).toBe(false);
    const waiting = session({ status: "waiting_approval", tool_calls: [call("a", { status: "pending_approval" })] });
    expect(turnGoesOn(waiting)).toBe(false);
    expect(turnGoesOn(withDecision(waiting, call("a", { status: "approved" })))).toBe(true);
  });
});

describe("proposalOf", () => {
  const patch = { format: "service-workflow-patch-v1", operations: [] };
  const propose = call("p", {
    tool_key: "propose_workflow_patch",
    risk_level: "proposal",
    input_json: { workflow_id: "w", patch },
    output_json: { patch_proposal_id: "pp", workflow_id: "w" },
    created_at: "2026-05-01T10:00:02Z",
  });
  const apply = call("x", { tool_key: "apply_patch_proposal", status: "pending_approval", risk_level: "low", created_at: "2026-05-01T10:00:03Z" });

  it("finds the proposal an applying call applies: named, else the active one, else the latest before it", () => {
    const want = { proposalId: "pp", workflowId: "w", patch, applied: false };
    expect(proposalOf(session({ tool_calls: [propose, apply], active_patch_proposal_id: "pp" }), apply)).toEqual(want);
    expect(proposalOf(session({ tool_calls: [propose, apply] }), apply)).toEqual(want);
    const named = { ...apply, input_json: { patch_proposal_id: "other" } };
    expect(proposalOf(session({ tool_calls: [propose, named] }), named)).toBeUndefined();
    expect(proposalOf(session({ tool_calls: [propose] }), propose)).toEqual(want);
  });

  it("knows a proposal applied by a call that succeeded, and ignores proposals that failed", () => {
    const applied = { ...apply, status: "succeeded" as const, output_json: { patch_proposal_id: "pp" } };
    expect(proposalOf(session({ tool_calls: [propose, applied] }), propose)?.applied).toBe(true);
    const failed = { ...propose, status: "failed" as const, output_json: { error: "bad patch" } };
    expect(proposalOf(session({ tool_calls: [failed] }), failed)).toBeUndefined();
  });
});

describe("title", () => {
  it("is the first message of the person", () => {
    expect(title(session())).toBeUndefined();
    expect(title(session({ messages: [{ message_id: "u", role: "user", content: "Why?", turn: 1, tool_call_ids: [], created_at: "" }] }))).toBe("Why?");
  });
});
