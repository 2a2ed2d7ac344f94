import { describe, expect, it } from "vitest";
import type { Envelope } from "../operatorSocket";
import { callOf, duration, isLive, latest, mayRecord, phaseOf, recordingName, recordingType, ringsOperators, type CallSession } from "./callState";

const call = (over: Partial<CallSession> = {}): CallSession => ({
  call_session_id: "0192f6a4-2c5e-7d3a-9b1f-3e4d5c6b7a80",
  company_id: "c",
  project_id: "p",
  chat_widget_id: "w",
  visitor_id: "v",
  visit_session_id: "s",
  direction: "operator_to_visitor",
  requested_by: "operator",
  status: "offered",
  media_kind: "audio",
  recording_enabled: false,
  created_at: "2026-11-21T09:00:00Z",
  updated_at: "2026-11-21T09:00:00Z",
  ...over,
});

const envelope = (type: Envelope["type"], payload?: Record<string, unknown>): Envelope => ({ id: "e1", type, sent_at: "2026-11-21T09:00:00Z", payload });

describe("callOf", () => {
  it("reads the call a call notice carries", () => {
    expect(callOf(envelope("call.accept", call({ status: "accepted" })))?.status).toBe("accepted");
  });
  it("reads nothing from other envelopes or a payload that is not a call", () => {
    expect(callOf(envelope("chat.message", call()))).toBeUndefined();
    expect(callOf(envelope("webrtc.offer", { sdp: "v=0" }))).toBeUndefined();
    expect(callOf(envelope("call.end", { status: "ended" }))).toBeUndefined();
    expect(callOf(envelope("call.end"))).toBeUndefined();
  });
});

describe("which calls are live and which ring the operators", () => {
  it("is live while offered, ringing or accepted", () => {
    const live = (["offered", "ringing", "accepted", "rejected", "missed", "ended", "failed", "cancelled"] as const).filter((s) => isLive(call({ status: s })));
    expect(live).toEqual(["offered", "ringing", "accepted"]);
  });
  it("rings the operators for a visitor's call not yet answered", () => {
    expect(ringsOperators(call({ direction: "visitor_to_operator", status: "offered" }))).toBe(true);
    expect(ringsOperators(call({ direction: "visitor_to_operator", status: "ringing" }))).toBe(true);
    expect(ringsOperators(call({ direction: "visitor_to_operator", status: "accepted" }))).toBe(false);
    expect(ringsOperators(call({ direction: "operator_to_visitor", status: "offered" }))).toBe(false);
  });
});

describe("latest", () => {
  it("keeps the record updated last", () => {
    const offered = call({ updated_at: "2026-11-21T09:00:00Z" });
    const accepted = call({ status: "accepted", updated_at: "2026-11-21T09:00:05Z" });
    expect(latest(offered, accepted)).toBe(accepted);
    expect(latest(accepted, offered)).toBe(accepted);
  });
  it("never goes back from a final state to a live one, whatever the times say", () => {
    const ended = call({ status: "ended", updated_at: "2026-11-21T09:00:05Z" });
    const accepted = call({ status: "accepted", updated_at: "2026-11-21T09:00:09Z" });
    expect(latest(ended, accepted)).toBe(ended);
    expect(latest(accepted, ended)).toBe(ended);
  });
});

describe("phaseOf", () => {
  it("says calling, ringing, connecting, connected as the call goes", () => {
    expect(phaseOf("offered", "new")).toBe("calling");
    expect(phaseOf("ringing", "new")).toBe("ringing");
    expect(phaseOf("accepted", "new")).toBe("connecting");
    expect(phaseOf("accepted", "connecting")).toBe("connecting");
    expect(phaseOf("accepted", "connected")).toBe("connected");
  });
  it("says when the media is interrupted, and how the call ended", () => {
    expect(phaseOf("accepted", "disconnected")).toBe("interrupted");
    expect(phaseOf("accepted", "failed")).toBe("interrupted");
    expect(phaseOf("rejected", "new")).toBe("rejected");
    expect(phaseOf("ended", "closed")).toBe("ended");
    expect(phaseOf("missed", "new")).toBe("missed");
  });
});

describe("recording", () => {
  it("needs recording enabled and both of the visitor's consents", () => {
    const consented = { recording_enabled: true, privacy_consent_accepted_at: "2026-11-21T09:00:01Z", recording_consent_accepted_at: "2026-11-21T09:00:01Z" };
    expect(mayRecord(call(consented))).toBe(true);
    expect(mayRecord(call({ ...consented, recording_enabled: false }))).toBe(false);
    expect(mayRecord(call({ ...consented, recording_consent_accepted_at: undefined }))).toBe(false);
    expect(mayRecord(call({ ...consented, privacy_consent_accepted_at: undefined }))).toBe(false);
  });
  it("chooses a container the browser supports, or leaves it to the browser", () => {
    const chrome = (t: string) => t.startsWith("video/webm") || t.startsWith("audio/webm");
    const firefoxAudio = (t: string) => t.startsWith("audio/ogg");
    expect(recordingType("video", chrome)).toBe("video/webm;codecs=vp8,opus");
    expect(recordingType("audio", chrome)).toBe("audio/webm;codecs=opus");
    expect(recordingType("audio", firefoxAudio)).toBe("audio/ogg;codecs=opus");
    expect(recordingType("video", () => false)).toBe("");
  });
  it("names the file after the call's day and id, with the container's extension", () => {
    expect(recordingName(call(), "audio/webm;codecs=opus")).toBe("call-2026-11-21-0192f6a4.webm");
    expect(recordingName(call(), "audio/ogg")).toBe("call-2026-11-21-0192f6a4.ogg");
    expect(recordingName(call(), "")).toBe("call-2026-11-21-0192f6a4.webm");
  });
});

describe("duration", () => {
  it("writes m:ss, and h:mm:ss past an hour", () => {
    expect(duration(0, 0)).toBe("0:00");
    expect(duration(0, 65_400)).toBe("1:05");
    expect(duration(0, 3_725_000)).toBe("1:02:05");
    expect(duration(5_000, 0)).toBe("0:00");
  });
});
