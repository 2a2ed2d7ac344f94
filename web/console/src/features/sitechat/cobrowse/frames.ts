// The co-browse frames as the console reads them (docs/site-chat-sockets.md, "Co-browse
// frames"): each SiteCobrowseFrame carries one rrweb event of the visitor's page, live over
// the operator socket and stored by sequence for GET /site-visit-sessions/{id}/events.
import { EventType, IncrementalSource, MouseInteractions, NodeType, type eventWithTime } from "@rrweb/types";
import { api, data } from "../../../api/client";
import type { components } from "../../../api/schema.gen";
import type { Envelope } from "../operatorSocket";
import { isRecord } from "../../../lib/isRecord";

export type Frame = components["schemas"]["SiteCobrowseFrame"];
export type RRWebEvent = eventWithTime;

/** frameTypes are the envelopes that carry a frame. */
const frameTypes = new Set<Envelope["type"]>([
  "monitoring.snapshot",
  "monitoring.incremental",
  "cursor.move",
  "touch.move",
  "click",
  "scroll",
  "viewport",
  "page.navigate",
]);

/** frameOf is the frame of the visit an envelope carries, or undefined. */
export function frameOf(e: Envelope, visitSessionId: string): Frame | undefined {
  if (!frameTypes.has(e.type) || e.visit_session_id !== visitSessionId || !e.payload) return undefined;
  const f = e.payload as Partial<Frame>;
  return typeof f.sequence === "number" && f.payload_json && typeof f.payload_json === "object" ? (f as Frame) : undefined;
}

/** eventOf is the rrweb event a frame carries, or undefined when it carries none (the
 * payload is the visitor's to make: anything the Replayer cannot take is left out). */
export function eventOf(f: Frame): RRWebEvent | undefined {
  const p = f.payload_json as Record<string, unknown>;
  const shaped = typeof p.type === "number" && typeof p.timestamp === "number" && isRecord(p.data) && replayable(p.type, p.data);
  return shaped ? (p as unknown as RRWebEvent) : undefined;
}

type Fields = Record<string, unknown>;

const numbers = (o: Fields, ...keys: string[]) => keys.every((k) => typeof o[k] === "number" && Number.isFinite(o[k]));

/** replayable answers whether rrweb's Replayer can apply an event's data. The Replayer
 * trusts what it reads: an event it cannot apply throws inside its timer, which then
 * stops, and the view shows nothing more. These are the fields it reads unguarded (rrweb
 * 2.x; a mutation it applies inside its own try, so a broken one costs only itself).
 * A visitor's own script, or a broken recorder, could send anything else. */
function replayable(type: number, d: Fields): boolean {
  switch (type) {
    case EventType.Meta:
      return numbers(d, "width", "height");
    case EventType.FullSnapshot:
      return isRecord(d.initialOffset) && numbers(d.initialOffset, "top", "left") && buildable(d.node);
    case EventType.IncrementalSnapshot:
      if (typeof d.source !== "number") return false;
      switch (d.source) {
        case IncrementalSource.MouseMove:
        case IncrementalSource.TouchMove:
        case IncrementalSource.Drag:
          // Each position becomes a timed step; one without a time would hold up every later one.
          return Array.isArray(d.positions) && d.positions.length > 0 && d.positions.every(isPosition);
        case IncrementalSource.MouseInteraction:
          return numbers(d, "id") && typeof d.type === "number" && d.type in MouseInteractions;
      }
      return true;
  }
  return true;
}

const isPosition = (p: unknown) => isRecord(p) && numbers(p, "x", "y", "id", "timeOffset");

/** The element names every browser's createElement takes (XML names that start with an
 * ASCII letter), and those customElements.define takes (a hyphen, no capital letters):
 * rrweb makes each element it is given, and defines a custom one. */
const elementName = /^[A-Za-z][\p{L}\p{M}\p{N}._:-]*$/u;
const customElementName = /^[a-z][\p{Ll}\p{Lo}\p{M}\p{N}._]*-[\p{Ll}\p{Lo}\p{M}\p{N}._-]*$/u;

/** buildable answers whether rrweb can build a serialized node and everything under it. */
function buildable(n: unknown): boolean {
  if (!isRecord(n) || !numbers(n, "id")) return false;
  const children = n.childNodes === undefined || (Array.isArray(n.childNodes) && n.childNodes.every(buildable));
  switch (n.type) {
    case NodeType.Document:
      return Array.isArray(n.childNodes) && children && (n.compatMode !== "BackCompat" || n.childNodes.length > 0);
    case NodeType.DocumentType:
      return true;
    case NodeType.Element:
      return (
        typeof n.tagName === "string" &&
        elementName.test(n.tagName) &&
        (!n.isCustom || customElementName.test(n.tagName)) &&
        isRecord(n.attributes) &&
        Array.isArray(n.childNodes) &&
        children
      );
    case NodeType.Text:
    case NodeType.Comment:
      return typeof n.textContent === "string";
  }
  // CDATA sections cannot be made in an HTML document, and there are no other kinds.
  return false;
}

/** fromFirstPage is what a replay can start from: the events from the first whole page on
 * (its Meta event, then its full snapshot); nothing before one can be drawn. */
export function fromFirstPage(events: RRWebEvent[]): RRWebEvent[] {
  const full = events.findIndex((e) => e.type === EventType.FullSnapshot);
  if (full < 0) return [];
  const meta = full > 0 && events[full - 1].type === EventType.Meta ? full - 1 : full;
  return events.slice(meta);
}

/** Frames keeps a visit's frames in sequence order, each once, whichever way it came (the
 * socket, a page of the stored ones). */
export class Frames {
  private bySequence = new Map<number, RRWebEvent>();
  private last = 0;

  /** add keeps the frame's event and answers whether it was new. */
  add(f: Frame): boolean {
    const e = eventOf(f);
    if (!e || this.bySequence.has(f.sequence)) return false;
    this.bySequence.set(f.sequence, e);
    this.last = Math.max(this.last, f.sequence);
    return true;
  }

  get lastSequence() {
    return this.last;
  }

  get size() {
    return this.bySequence.size;
  }

  /** events are the events in sequence order. */
  events(): RRWebEvent[] {
    return [...this.bySequence.entries()].sort((a, b) => a[0] - b[0]).map(([, e]) => e);
  }
}

/** storedFrames reads the visit's stored frames after the sequence, to the last, the
 * largest page at a time. */
export async function storedFrames(visitSessionId: string, after: number, into: Frames): Promise<void> {
  let cursor: number | undefined = after;
  while (cursor !== undefined) {
    const page: { items: Frame[]; next_cursor: string } = await data(
      api.GET("/api/v1/site-visit-sessions/{visit_session_id}/events", {
        params: { path: { visit_session_id: visitSessionId }, query: { after_sequence: cursor, limit: 200 } },
      }),
    );
    page.items.forEach((f) => into.add(f));
    cursor = page.next_cursor ? Number(page.next_cursor) : undefined;
  }
}

/** latestPage is the sequence of the last stored frame before the visit's latest whole
 * page (its Meta event and full snapshot), from the visit's snapshot: where a view that
 * joins a monitoring under way reads from. */
export async function latestPage(visitSessionId: string): Promise<number> {
  const snapshot = await data(
    api.GET("/api/v1/site-visit-sessions/{visit_session_id}/snapshot", { params: { path: { visit_session_id: visitSessionId } } }),
  );
  const cobrowse = (snapshot as Record<string, unknown>).cobrowse as { snapshot_sequence?: unknown } | undefined;
  const full = typeof cobrowse?.snapshot_sequence === "number" ? cobrowse.snapshot_sequence : 0;
  // The Meta event goes just before the full snapshot.
  return Math.max(0, full - 2);
}

/** onArrival is a copy of a live event stamped with the operator's clock: the live view
 * shows each event as it arrives, whatever the visitor's clock says. */
export function onArrival(e: RRWebEvent, now: number): RRWebEvent {
  return { ...e, timestamp: now } as RRWebEvent;
}

/** beforeLive stamps events read before the live view started just before it, in order,
 * so the view applies them at once. */
export function beforeLive(events: RRWebEvent[], start: number): RRWebEvent[] {
  return events.map((e, i) => ({ ...e, timestamp: start - events.length + i }) as RRWebEvent);
}

/** clock writes a duration in milliseconds as m:ss (h:mm:ss from an hour). */
export function clock(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

export type Status = "idle" | "requested" | "active" | "stopped" | "declined" | "visitorStopped";

/** afterStop is what a monitoring that stopped came to: declined when the visitor never
 * let it start, stopped by them when they ended it, stopped when the operator did. */
export function afterStop(before: string | undefined, byOperator: boolean): Status {
  if (byOperator) return "stopped";
  if (before === "requested") return "declined";
  if (before === "active") return "visitorStopped";
  return "stopped";
}
