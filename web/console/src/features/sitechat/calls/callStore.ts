// The tab's call (docs/console.md, "Calls"): at most one, kept outside React so that it
// goes on while the operator moves about the desk. Moves (offer, accept, reject, end) go
// over HTTP; the call's notices and the WebRTC signalling come and go over the operator
// socket, which the call bar (CallDock) listens to. The console always makes the WebRTC
// offer, for its own calls and for the visitor's, and the widget answers it.
import { useSyncExternalStore } from "react";
import { api, data } from "../../../api/client";
import { send, type Envelope } from "../operatorSocket";
import { callOf, isLive, latest, mayRecord, recordingName, ringsOperators, type CallSession, type MediaKind } from "./callState";
import { uploadRecording } from "./queries";
import { record, type Recording } from "./recorder";

export type RecordingState = "off" | "recording" | "saving" | "saved" | "failed";

/** ActiveCall is the tab's call as the views show it. */
export type ActiveCall = {
  call: CallSession;
  connection: RTCPeerConnectionState;
  /** connectedAt is when the media first flowed (this browser's clock). */
  connectedAt?: number;
  local: MediaStream;
  remote?: MediaStream;
  muted: boolean;
  cameraOff: boolean;
  recording: RecordingState;
  /** error is the last move or media step that failed during the call. */
  error?: unknown;
};

/** Failure is why the operator's last offer or answer was not made, and where: the visit
 * they called from, or the visitor's call they answered. */
export type Failure = { visitSessionId?: string; callSessionId?: string; error: unknown };

export type CallsState = {
  active?: ActiveCall;
  /** ringing are the visitors' calls waiting for an operator. */
  ringing: CallSession[];
  /** starting is the visit a call is being made with, while the media and the move are on their way. */
  starting?: string;
  failure?: Failure;
};

let state: CallsState = { ringing: [] };
const watchers = new Set<() => void>();

function set(next: Partial<CallsState>) {
  state = { ...state, ...next };
  watchers.forEach((w) => w());
}

/** patch changes the active call, if it is still the call of that id. */
function patch(id: string, next: Partial<ActiveCall>) {
  if (state.active?.call.call_session_id === id) set({ active: { ...state.active, ...next } });
}

function watch(w: () => void) {
  watchers.add(w);
  return () => watchers.delete(w);
}

/** useCalls is the tab's call and the visitors' calls ringing. */
export function useCalls(): CallsState {
  return useSyncExternalStore(watch, () => state);
}

// The WebRTC side of the active call, which the views never read.
type Peer = { id: string; pc?: RTCPeerConnection; steps: Promise<unknown> };
let peer: Peer | undefined;
let recording: Recording | undefined;

// Notices heard lately, for a call whose HTTP answer comes after its next notice (the
// visitor accepting before the offer's answer arrived).
const heard = new Map<string, CallSession>();
const heardAtMost = 50;

function busy() {
  return !!state.starting || (!!state.active && isLive(state.active.call));
}

function stopTracks(s?: MediaStream) {
  s?.getTracks().forEach((t) => t.stop());
}

function media(kind: MediaKind) {
  return navigator.mediaDevices.getUserMedia({ audio: true, video: kind === "video" });
}

/** offerCall calls the visitor of a visit. The microphone (and camera) come first, so that
 * an operator whose browser refuses them rings nobody. */
export async function offerCall(visitSessionId: string, kind: MediaKind, recordIfAgreed: boolean) {
  if (busy()) return;
  set({ starting: visitSessionId, failure: undefined });
  let local: MediaStream | undefined;
  try {
    local = await media(kind);
    const call = await data(
      api.POST("/api/v1/site-visit-sessions/{visit_session_id}/call-offer", {
        params: { path: { visit_session_id: visitSessionId } },
        body: { media_kind: kind, recording_enabled: recordIfAgreed },
      }),
    );
    begin(call, local);
  } catch (error) {
    stopTracks(local);
    set({ failure: { visitSessionId, error } });
  } finally {
    set({ starting: undefined });
  }
}

// The moves send the call's own media_kind: the contract's default makes it a required
// field of the generated request type, and the API checks it only as a value.

/** acceptCall answers a visitor's call. */
export async function acceptCall(call: CallSession) {
  if (busy()) return;
  const id = call.call_session_id;
  set({ starting: call.visit_session_id, failure: undefined });
  let local: MediaStream | undefined;
  try {
    local = await media(call.media_kind);
    const answered = await data(api.POST("/api/v1/site-chat/calls/{call_session_id}/accept", { params: { path: { call_session_id: id } }, body: { media_kind: call.media_kind } }));
    set({ ringing: state.ringing.filter((c) => c.call_session_id !== id) });
    begin(answered, local);
  } catch (error) {
    stopTracks(local);
    set({ failure: { callSessionId: id, error } });
  } finally {
    set({ starting: undefined });
  }
}

/** rejectCall declines a visitor's call. */
export async function rejectCall(call: CallSession) {
  const id = call.call_session_id;
  try {
    await data(api.POST("/api/v1/site-chat/calls/{call_session_id}/reject", { params: { path: { call_session_id: id } }, body: { media_kind: call.media_kind } }));
    set({ ringing: state.ringing.filter((c) => c.call_session_id !== id) });
  } catch (error) {
    set({ failure: { callSessionId: id, error } });
  }
}

/** endCall hangs up the tab's call: cancels it before an answer, ends it after. */
export async function endCall(reason = "", unloading = false) {
  const a = state.active;
  if (!a || !isLive(a.call)) return;
  const id = a.call.call_session_id;
  try {
    const call = await data(
      api.POST("/api/v1/site-chat/calls/{call_session_id}/end", {
        params: { path: { call_session_id: id } },
        body: { media_kind: a.call.media_kind, end_reason: reason },
        keepalive: unloading,
      }),
    );
    follow(call);
  } catch (error) {
    patch(id, { error });
  }
}

/** leaveCall ends the tab's call as the operator leaves the desk or the page: its media
 * and its signalling go with them, and nobody would hear the visitor any more. */
export function leaveCall(unloading = false) {
  void endCall("operator_left", unloading);
}
addEventListener("pagehide", () => leaveCall(true));

/** toggleMute stops or restarts sending the operator's voice (the track stays, silent). */
export function toggleMute() {
  const a = state.active;
  if (!a) return;
  a.local.getAudioTracks().forEach((t) => (t.enabled = a.muted));
  patch(a.call.call_session_id, { muted: !a.muted });
}

/** toggleCamera stops or restarts sending the operator's picture (black while off). */
export function toggleCamera() {
  const a = state.active;
  if (!a) return;
  a.local.getVideoTracks().forEach((t) => (t.enabled = a.cameraOff));
  patch(a.call.call_session_id, { cameraOff: !a.cameraOff });
}

/** dismiss puts a finished call out of sight. */
export function dismiss() {
  if (state.active && !isLive(state.active.call)) set({ active: undefined });
}

/** dismissFailure puts the last failed offer or answer out of sight. */
export function dismissFailure() {
  set({ failure: undefined });
}

/** onCallEnvelope takes what the operator socket brings: call notices for the call bar and
 * the active call, the visitor's WebRTC answer and candidates for the active call. */
export function onCallEnvelope(e: Envelope) {
  if (e.type === "webrtc.answer" || e.type === "webrtc.ice") {
    signal(e);
    return;
  }
  const call = callOf(e);
  if (!call) return;
  const id = call.call_session_id;
  heard.set(id, call);
  if (heard.size > heardAtMost) heard.delete(heard.keys().next().value as string);
  const ringing = state.ringing.filter((c) => c.call_session_id !== id);
  if (ringsOperators(call) && state.active?.call.call_session_id !== id) ringing.push(call);
  if (ringing.length !== state.ringing.length || ringsOperators(call)) set({ ringing });
  follow(call);
}

function begin(call: CallSession, local: MediaStream) {
  const known = heard.get(call.call_session_id);
  const now = known ? latest(call, known) : call;
  stopTracks(state.active?.local);
  set({ active: { call: now, local, connection: "new", muted: false, cameraOff: false, recording: "off" } });
  follow(now);
}

/** follow takes a newer record of the active call: an answered call connects, a final one
 * lets its media go. Records of other calls are not the tab's. */
function follow(call: CallSession) {
  const a = state.active;
  if (!a || a.call.call_session_id !== call.call_session_id) return;
  const now = latest(a.call, call);
  patch(now.call_session_id, { call: now });
  if (now.status === "accepted") connect(now, a.local);
  else if (!isLive(now)) hangUp(now);
}

/** connect makes the WebRTC offer with the ICE servers of the voice config. */
function connect(call: CallSession, local: MediaStream) {
  if (peer) return;
  const id = call.call_session_id;
  const p: Peer = { id, steps: Promise.resolve() };
  peer = p;
  p.steps = (async () => {
    const config = await data(api.GET("/api/v1/site-chat/voice-config"));
    if (peer !== p) return;
    const pc = new RTCPeerConnection({ iceServers: config.ice_servers });
    p.pc = pc;
    local.getTracks().forEach((t) => pc.addTrack(t, local));
    pc.ontrack = (ev) => {
      patch(id, { remote: ev.streams[0] ?? new MediaStream([ev.track]) });
      startRecording();
    };
    pc.onicecandidate = (ev) => {
      if (ev.candidate) send("webrtc.ice", { candidate: ev.candidate.toJSON() }, { call_session_id: id }).catch(() => {});
    };
    pc.onconnectionstatechange = () => connectionChanged(id, pc.connectionState);
    await pc.setLocalDescription(await pc.createOffer());
    await send("webrtc.offer", { sdp: pc.localDescription?.sdp ?? "" }, { call_session_id: id });
  })().catch((error: unknown) => mediaFailed(id, error));
}

/** signal applies the visitor's answer and candidates in the order they came. */
function signal(e: Envelope) {
  const p = peer;
  if (!p || e.call_session_id !== p.id) return;
  const payload = (e.payload ?? {}) as { sdp?: string; candidate?: RTCIceCandidateInit };
  p.steps = p.steps.then(async () => {
    if (!p.pc || p.pc.signalingState === "closed") return;
    if (e.type === "webrtc.answer") {
      await p.pc.setRemoteDescription({ type: "answer", sdp: payload.sdp }).catch((error: unknown) => mediaFailed(p.id, error));
    } else if (payload.candidate) {
      // A candidate that cannot be used leaves the others to connect.
      await p.pc.addIceCandidate(payload.candidate).catch(() => {});
    }
  });
}

function mediaFailed(id: string, error: unknown) {
  patch(id, { error });
  void endCall("media_failed");
}

function connectionChanged(id: string, connection: RTCPeerConnectionState) {
  const a = state.active;
  if (!a || a.call.call_session_id !== id || !isLive(a.call)) return;
  patch(id, { connection, connectedAt: a.connectedAt ?? (connection === "connected" ? Date.now() : undefined) });
  if (connection === "connected") startRecording();
  if (connection === "failed") void endCall("media_failed");
}

/** startRecording records a call the visitor agreed to have recorded, once its media flows. */
function startRecording() {
  const a = state.active;
  if (!a || recording || !a.remote || a.connection !== "connected" || !mayRecord(a.call)) return;
  try {
    recording = record(a.call.media_kind, a.local, a.remote);
    patch(a.call.call_session_id, { recording: "recording" });
  } catch (error) {
    patch(a.call.call_session_id, { recording: "failed", error });
  }
}

/** hangUp lets a finished call's media go and uploads its recording, if there is one. */
function hangUp(call: CallSession) {
  const id = call.call_session_id;
  const p = peer;
  peer = undefined;
  p?.pc?.close();
  const a = state.active;
  if (a?.call.call_session_id === id) {
    stopTracks(a.local);
    if (a.connection !== "closed") patch(id, { connection: "closed" });
  }
  const r = recording;
  recording = undefined;
  if (!r) return;
  patch(id, { recording: "saving" });
  r.stop()
    .then((blob) => uploadRecording(call, new File([blob], recordingName(call, r.type), { type: blob.type })))
    .then(
      () => patch(id, { recording: "saved" }),
      (error: unknown) => patch(id, { recording: "failed", error }),
    );
}
