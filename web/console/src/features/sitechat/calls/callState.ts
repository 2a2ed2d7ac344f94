// What the console reads from a call's records and its media connection, kept apart from
// the WebRTC side so that it is tested on its own (callState.test.ts).
import type { components } from "../../../api/schema.gen";
import type { Envelope } from "../operatorSocket";

export type CallSession = components["schemas"]["SiteChatCallSession"];
export type MediaKind = CallSession["media_kind"];
export type CallStatus = CallSession["status"];

const callNotices = new Set<Envelope["type"]>(["call.request", "call.offer", "call.accept", "call.reject", "call.cancel", "call.end"]);

/** callOf is the call a call notice carries (the record re-read after the move), or
 * undefined for any other envelope. */
export function callOf(e: Envelope): CallSession | undefined {
  if (!callNotices.has(e.type) || !e.payload) return undefined;
  const p = e.payload as Partial<CallSession>;
  return typeof p.call_session_id === "string" && typeof p.status === "string" ? (p as CallSession) : undefined;
}

/** isLive: the call still waits for an answer or is in progress. */
export function isLive(c: CallSession): boolean {
  return c.status === "offered" || c.status === "ringing" || c.status === "accepted";
}

/** ringsOperators: a visitor's call that waits for an operator to answer. */
export function ringsOperators(c: CallSession): boolean {
  return c.direction === "visitor_to_operator" && (c.status === "offered" || c.status === "ringing");
}

/** latest is the later of two records of one call: notices and HTTP answers about one call
 * may arrive in either order, and a final state never goes back to a live one. */
export function latest(a: CallSession, b: CallSession): CallSession {
  if (isLive(a) !== isLive(b)) return isLive(a) ? b : a;
  return Date.parse(b.updated_at) >= Date.parse(a.updated_at) ? b : a;
}

/** Phase is what the operator is told of a call: the step it is at, or how it ended. */
export type Phase = "calling" | "ringing" | "connecting" | "connected" | "interrupted" | "rejected" | "missed" | "ended" | "failed" | "cancelled";

/** phaseOf joins the call's status with the state of its media connection: an accepted call
 * is connecting until the two browsers' media flows. */
export function phaseOf(status: CallStatus, connection: RTCPeerConnectionState): Phase {
  switch (status) {
    case "offered":
      return "calling";
    case "ringing":
      return "ringing";
    case "accepted":
      if (connection === "connected") return "connected";
      return connection === "disconnected" || connection === "failed" ? "interrupted" : "connecting";
    default:
      return status;
  }
}

/** mayRecord: the visitor gave both consents the API asks for a recording. */
export function mayRecord(c: CallSession): boolean {
  return c.recording_enabled && !!c.privacy_consent_accepted_at && !!c.recording_consent_accepted_at;
}

/** recordingType is the first container MediaRecorder supports for the call's media (the
 * API takes WebM and Ogg), or "" to leave the choice to the browser. */
export function recordingType(media: MediaKind, supported: (type: string) => boolean): string {
  const choices = media === "video" ? ["video/webm;codecs=vp8,opus", "video/webm"] : ["audio/webm;codecs=opus", "audio/webm", "audio/ogg;codecs=opus"];
  return choices.find(supported) ?? "";
}

/** recordingName is the file name a recording is uploaded under. */
export function recordingName(c: CallSession, type: string): string {
  const ext = type.includes("ogg") ? "ogg" : type.includes("mp4") ? "mp4" : "webm";
  return `call-${c.created_at.slice(0, 10)}-${c.call_session_id.slice(0, 8)}.${ext}`;
}

/** duration says how long a call lasted (or has lasted by now), as m:ss or h:mm:ss. */
export function duration(fromMs: number, toMs: number): string {
  const total = Math.max(0, Math.floor((toMs - fromMs) / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}
