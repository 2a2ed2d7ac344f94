// A conversation with the AI employee as the panel shows it: the session the API answers,
// moved on by the events of its stream, and read back in order. Pure, so Vitest covers it.
import type { components } from "../../api/schema.gen";

export type Session = components["schemas"]["AIChatSession"];
export type ToolCall = components["schemas"]["AIToolCall"];
export type Message = Session["messages"][number];

/** SessionEvent is the data of one message of the session's stream (docs/ai-employee.md). */
export type SessionEvent = {
  sequence: number;
  turn: number;
  event_type: string;
  data: Record<string, unknown> | null;
  created_at: string;
};

/** Entry is one line of the transcript: a message, or a tool call the employee made. */
export type Entry = { kind: "message"; message: Message } | { kind: "tool_call"; call: ToolCall };

/** entries orders the transcript: each message followed by the tool calls of its step. A
 * step that only called tools has an empty message, which is not shown. */
export function entries(session: Session): Entry[] {
  const calls = new Map(session.tool_calls.map((c) => [c.ai_tool_call_id, c]));
  const named = new Set(session.messages.flatMap((m) => m.tool_call_ids));
  const out: Entry[] = [];
  for (const message of session.messages) {
    if (message.role === "user" || message.content !== "") out.push({ kind: "message", message });
    for (const id of message.tool_call_ids) {
      const call = calls.get(id);
      if (call) out.push({ kind: "tool_call", call });
    }
  }
  for (const call of session.tool_calls) if (!named.has(call.ai_tool_call_id)) out.push({ kind: "tool_call", call });
  return out;
}

const str = (v: unknown) => (typeof v === "string" ? v : "");
const obj = (v: unknown): Record<string, unknown> => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** applyEvent is the session after one event of its stream. The deltas of the text being
 * written are not part of the session (the finished message is): they leave it as it is. */
export function applyEvent(session: Session, event: SessionEvent): Session {
  const data = obj(event.data);
  switch (event.event_type) {
    case "message.created": {
      const id = str(data.message_id);
      if (session.messages.some((m) => m.message_id === id)) return session;
      const role = data.role === "user" ? "user" : "assistant";
      const message: Message = { message_id: id, role, content: str(data.content), turn: event.turn, tool_call_ids: [], created_at: event.created_at };
      return { ...session, status: role === "user" ? "running" : session.status, messages: [...session.messages, message] };
    }
    case "tool_call.created":
    case "tool_call.updated":
      return withCall(session, event, data);
    case "approval.needed": {
      const next = withCall(session, event, data);
      return { ...next, status: "waiting_approval", active_tool_call_id: str(data.ai_tool_call_id) || null };
    }
    case "done":
    case "error": {
      const outcome: Record<string, unknown> = { last_turn: event.turn, last_outcome: str(data.status) || (event.event_type === "done" ? "done" : "failed") };
      if (event.event_type === "error") outcome.last_error = str(data.detail);
      return { ...session, status: "idle", active_tool_call_id: null, runtime_state_json: outcome };
    }
    default:
      return session;
  }
}

const statuses = new Set<ToolCall["status"]>(["pending_approval", "approved", "rejected", "running", "succeeded", "failed", "cancelled"]);
const risks = new Set<ToolCall["risk_level"]>(["read", "proposal", "low", "high"]);

function withCall(session: Session, event: SessionEvent, data: Record<string, unknown>): Session {
  const id = str(data.ai_tool_call_id);
  const status = statuses.has(data.status as ToolCall["status"]) ? (data.status as ToolCall["status"]) : "running";
  const known = session.tool_calls.find((c) => c.ai_tool_call_id === id);
  const call: ToolCall = {
    ai_tool_call_id: id,
    ai_chat_session_id: session.ai_chat_session_id,
    tool_key: str(data.tool_key) || known?.tool_key || "",
    status,
    risk_level: risks.has(data.risk_level as ToolCall["risk_level"]) ? (data.risk_level as ToolCall["risk_level"]) : (known?.risk_level ?? "read"),
    requires_approval: typeof data.requires_approval === "boolean" ? data.requires_approval : (known?.requires_approval ?? false),
    input_json: obj(data.input_json),
    output_json: obj(data.output_json),
    turn: known?.turn ?? event.turn,
    created_at: known?.created_at ?? event.created_at,
    updated_at: event.created_at,
  };
  if (known) return { ...session, tool_calls: session.tool_calls.map((c) => (c === known ? call : c)) };
  // The stream does not say a new call's step: it follows what came before it, the text of
  // its step or else the last message, which is where its step's message would show it.
  const last = session.messages.at(-1);
  const messages = last ? [...session.messages.slice(0, -1), { ...last, tool_call_ids: [...last.tool_call_ids, id] }] : session.messages;
  return { ...session, messages, tool_calls: [...session.tool_calls, call] };
}

/** withDecision is the session with a tool call as a decision on it answered. */
export function withDecision(session: Session, call: ToolCall): Session {
  return { ...session, tool_calls: session.tool_calls.map((c) => (c.ai_tool_call_id === call.ai_tool_call_id ? call : c)) };
}

/** endsStream tells whether the stream closes after this event. */
export function endsStream(event: SessionEvent): boolean {
  return event.event_type === "done" || event.event_type === "error" || event.event_type === "approval.needed";
}

/** turnGoesOn tells whether the employee is at work on the session: a turn runs, or it
 * waited for an approval the person has given or refused since. A turn that waits for the
 * person does not go on by itself. */
export function turnGoesOn(session: Session): boolean {
  if (session.status === "running") return true;
  return session.status === "waiting_approval" && !session.tool_calls.some((c) => c.status === "pending_approval");
}

/** Outcome is how the last turn ended, when it did not end as it should. */
export type Outcome = { kind: "cancelled" } | { kind: "failed"; detail: string } | undefined;

export function lastOutcome(session: Session): Outcome {
  if (session.status !== "idle") return undefined;
  const state = obj(session.runtime_state_json);
  if (state.last_outcome === "cancelled") return { kind: "cancelled" };
  if (state.last_outcome === "failed") return { kind: "failed", detail: str(state.last_error) };
  return undefined;
}

/** Proposal is a workflow change the employee proposed: the patch and the workflow. */
export type Proposal = { proposalId: string; workflowId: string; patch: Record<string, unknown>; applied: boolean };

/** proposalOf is the proposal a call is about: the one a proposing call made, or the one an
 * applying call applies (the one it names, else the session's active one, else the latest
 * made before it). Undefined when the session does not hold it. */
export function proposalOf(session: Session, call: ToolCall): Proposal | undefined {
  const made = session.tool_calls.filter((c) => c.tool_key === "propose_workflow_patch" && c.status === "succeeded" && str(c.output_json.patch_proposal_id));
  let proposing: ToolCall | undefined;
  if (call.tool_key === "propose_workflow_patch") {
    proposing = made.find((c) => c.ai_tool_call_id === call.ai_tool_call_id);
  } else if (call.tool_key === "apply_patch_proposal") {
    const id = str(call.input_json.patch_proposal_id) || session.active_patch_proposal_id;
    proposing = id
      ? made.find((c) => c.output_json.patch_proposal_id === id)
      : made.filter((c) => Date.parse(c.created_at) <= Date.parse(call.created_at)).at(-1);
  }
  if (!proposing) return undefined;
  const proposalId = str(proposing.output_json.patch_proposal_id);
  return {
    proposalId,
    workflowId: str(proposing.output_json.workflow_id) || str(proposing.input_json.workflow_id),
    patch: obj(proposing.input_json.patch),
    applied: session.tool_calls.some(
      (c) => c.tool_key === "apply_patch_proposal" && c.status === "succeeded" && c.output_json.patch_proposal_id === proposalId,
    ),
  };
}

/** title names a conversation by its first message, else undefined. */
export function title(session: Session): string | undefined {
  return session.messages.find((m) => m.role === "user")?.content;
}
