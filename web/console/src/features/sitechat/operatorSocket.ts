// The operator socket (docs/site-chat-sockets.md): one WebSocket per console tab, shared by
// every site chat view on the page. It opens with the first listener and closes a little
// after the last one leaves, reconnects with backoff (refreshing the session first, since a
// browser cannot put a bearer token on a WebSocket and the cookie's access token expires),
// and answers each send with the server's ack or its error as a ProblemError.
import { useEffect, useRef, useSyncExternalStore } from "react";
import { ProblemError, refreshOnce } from "../../api/client";
import type { Problem } from "../../api/problem";
import type { components } from "../../api/schema.gen";

export type Envelope = components["schemas"]["SiteChatWSEnvelope"];
export type EnvelopeType = Envelope["type"];
/** EnvelopeIDs are the ids an envelope may carry beside its payload. */
export type EnvelopeIDs = Pick<
  Envelope,
  "conversation_id" | "visit_session_id" | "visitor_id" | "chat_widget_id" | "project_id" | "call_session_id"
>;
type Listener = (e: Envelope) => void;
type Waiting = { resolve: (payload: Record<string, unknown>) => void; reject: (err: Error) => void };

const path = "/api/v1/site-chat/ws/operator";
const reconnectFirst = 500;
const reconnectMax = 30_000;
// A view that unmounts and another that mounts at once (a navigation) keep the socket.
const closeAfter = 2_000;
// A send the server does not answer within this long fails (the socket is likely gone).
const ackWithin = 15_000;

let ws: WebSocket | undefined;
let open = false;
let generation = 0; // counts openings, so views know to read again after a reconnect
let backoff = reconnectFirst;
let retry: ReturnType<typeof setTimeout> | undefined;
let idle: ReturnType<typeof setTimeout> | undefined;
let nextID = 0;
const listeners = new Set<Listener>();
const watchers = new Set<() => void>();
const waiting = new Map<string, Waiting>();

function changed() {
  watchers.forEach((w) => w());
}

function connect() {
  const url = new URL(path, location.href);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  const socket = (ws = new WebSocket(url));
  let opened = false;
  socket.onopen = () => {
    opened = true;
    open = true;
    generation++;
    backoff = reconnectFirst;
    changed();
  };
  socket.onmessage = (m) => {
    let e: Envelope;
    try {
      e = JSON.parse(String(m.data)) as Envelope;
    } catch {
      return;
    }
    if (e.type === "ack" || e.type === "error") settle(e);
    listeners.forEach((l) => l(e));
  };
  socket.onclose = () => {
    if (ws !== socket) return;
    ws = undefined;
    open = false;
    failWaiting();
    changed();
    if (!listeners.size) return;
    // Refused before the upgrade: most often an expired access token in the cookie.
    const again = opened ? Promise.resolve(true) : refreshOnce();
    const delay = backoff + Math.random() * backoff;
    backoff = Math.min(backoff * 2, reconnectMax);
    retry = setTimeout(() => void again.finally(() => listeners.size && connect()), delay);
  };
}

function settle(e: Envelope) {
  const w = waiting.get(e.id);
  if (!w) return;
  waiting.delete(e.id);
  const payload = (e.payload ?? {}) as Record<string, unknown>;
  // An error's payload is a Problem; the socket has no HTTP status, so 400 stands for it.
  if (e.type === "ack") w.resolve(payload);
  else w.reject(new ProblemError(400, payload as unknown as Problem));
}

/** disconnected is the error of a send the socket could not carry or answer: a 503 whose
 * Problem is titled `disconnected`, for the view to say so in its own words. */
function disconnected() {
  return new ProblemError(503, { status: "error", title: "disconnected", detail: "", action: "", validate: "", request_id: "" });
}

function failWaiting() {
  waiting.forEach((w) => w.reject(disconnected()));
  waiting.clear();
}

// A page with an open socket is not kept in the back/forward cache: the socket closes when
// the page is hidden (its views stay, so it comes back when the page is shown again).
function hide() {
  clearTimeout(retry);
  const socket = ws;
  if (!socket) return;
  ws = undefined;
  open = false;
  socket.close();
  failWaiting();
  changed();
}
addEventListener("pagehide", hide);
addEventListener("pageshow", (e: PageTransitionEvent) => {
  if (e.persisted && listeners.size && !ws) connect();
});

function listen(l: Listener): () => void {
  clearTimeout(idle);
  listeners.add(l);
  if (!ws) {
    clearTimeout(retry);
    connect();
  }
  return () => {
    listeners.delete(l);
    if (listeners.size) return;
    idle = setTimeout(() => {
      if (listeners.size || !ws) return;
      clearTimeout(retry);
      const socket = ws;
      ws = undefined;
      open = false;
      socket.close();
      failWaiting();
      changed();
    }, closeAfter);
  };
}

/** send sends one envelope and resolves with the payload of the server's ack (the ids of
 * what it created), or rejects with the Problem of its error, or when the socket is not open. */
export function send(type: EnvelopeType, payload: Record<string, unknown> = {}, ids: EnvelopeIDs = {}) {
  return new Promise<Record<string, unknown>>((resolve, reject) => {
    if (!ws || !open) {
      reject(disconnected());
      return;
    }
    const id = `op-${Date.now().toString(36)}-${++nextID}`;
    const envelope: Envelope = { id, type, sent_at: new Date().toISOString(), payload, ...ids };
    waiting.set(id, { resolve, reject });
    setTimeout(() => {
      const w = waiting.get(id);
      if (!w) return;
      waiting.delete(id);
      w.reject(disconnected());
    }, ackWithin);
    ws.send(JSON.stringify(envelope));
  });
}

function watch(w: () => void) {
  watchers.add(w);
  return () => watchers.delete(w);
}

/** SocketState says whether the socket is open and how many times it has opened: a view
 * reads its lists again when `generation` moves, since notices are delivered at most once
 * and those sent while it was away are lost. */
export type SocketState = { open: boolean; generation: number };
let state: SocketState = { open, generation };
function snapshot(): SocketState {
  if (state.open !== open || state.generation !== generation) state = { open, generation };
  return state;
}

/** useOperatorSocket keeps the operator socket open while the calling view is mounted and
 * hands it every envelope the server sends (notices, acks and errors alike). */
export function useOperatorSocket(onEnvelope: Listener): SocketState {
  const latest = useRef(onEnvelope);
  useEffect(() => {
    latest.current = onEnvelope;
  });
  useEffect(() => listen((e) => latest.current(e)), []);
  return useSyncExternalStore(watch, snapshot);
}
