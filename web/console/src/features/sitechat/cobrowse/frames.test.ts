import { EventType, type eventWithTime } from "@rrweb/types";
import { describe, expect, it } from "vitest";
import { afterStop, beforeLive, clock, eventOf, Frames, frameOf, fromFirstPage, onArrival, type Frame } from "./frames";
import type { Envelope } from "../operatorSocket";

const visit = "0193a000-0000-7000-8000-000000000001";
const meta = { type: EventType.Meta, data: { href: "https://shop.test/", width: 800, height: 600 }, timestamp: 1000 } as eventWithTime;
const full = { type: EventType.FullSnapshot, data: { node: { type: 0, id: 1, childNodes: [] }, initialOffset: { top: 0, left: 0 } }, timestamp: 1005 } as unknown as eventWithTime;
const move = {
  type: EventType.IncrementalSnapshot,
  data: { source: 1, positions: [{ x: 10, y: 20, id: 1, timeOffset: -50 }] },
  timestamp: 1200,
} as unknown as eventWithTime;

function frame(sequence: number, payload: unknown): Frame {
  return {
    frame_id: `f${sequence}`,
    visit_session_id: visit,
    sequence,
    kind: "snapshot",
    occurred_at: "2026-01-01T00:00:00Z",
    payload_json: payload as Record<string, unknown>,
    created_at: "2026-01-01T00:00:00Z",
  };
}

describe("frames", () => {
  it("reads a frame of the visit off its envelope, and nothing else", () => {
    const e = (type: Envelope["type"], visitSessionId: string, payload: unknown) =>
      ({ id: "1", type, sent_at: "2026-01-01T00:00:00Z", visit_session_id: visitSessionId, payload }) as Envelope;
    expect(frameOf(e("cursor.move", visit, frame(3, move)), visit)?.sequence).toBe(3);
    expect(frameOf(e("cursor.move", "another", frame(3, move)), visit)).toBeUndefined();
    expect(frameOf(e("monitoring.start", visit, frame(3, move)), visit)).toBeUndefined();
    expect(frameOf(e("click", visit, { sequence: "3" }), visit)).toBeUndefined();
  });

  it("takes only payloads shaped as rrweb events", () => {
    expect(eventOf(frame(1, meta))).toBe(meta);
    expect(eventOf(frame(1, { url: "https://shop.test/", root: {} }))).toBeUndefined();
    expect(eventOf(frame(1, { type: "4", data: {}, timestamp: 1 }))).toBeUndefined();
  });

  it("leaves out events the Replayer would stop on", () => {
    const page = (node: unknown) => ({ type: EventType.FullSnapshot, data: { node, initialOffset: { top: 0, left: 0 } }, timestamp: 1 });
    const el = (tagName: unknown, childNodes: unknown[] = [], more = {}) => ({ type: 2, id: 2, tagName, attributes: {}, childNodes, ...more });
    const doc = (...childNodes: unknown[]) => ({ type: 0, id: 1, childNodes });
    const incremental = (data: unknown) => ({ type: EventType.IncrementalSnapshot, data, timestamp: 1 });
    const shop = page(doc(el("html", [el("body", [{ type: 3, id: 3, textContent: "In stock" }])])));
    expect(eventOf(frame(1, shop))).toBe(shop);
    expect(eventOf(frame(1, page(doc(el("my-widget", [], { isCustom: true }), el("linearGradient"), el("mon-élément")))))).toBeDefined();
    for (const broken of [
      { type: EventType.Meta, data: { href: "https://shop.test/" }, timestamp: 1 },
      page(undefined),
      page(doc(el("html", [el("body", [{ type: 3, id: 3 }])]))),
      page(doc(el("html", [], { childNodes: undefined }))),
      page(doc(el("a b"))),
      page(doc(el("div", [], { isCustom: true }))),
      page(doc(el(7))),
      page(doc({ type: 4, id: 5, textContent: "x" })),
      page({ type: 0, id: 1, compatMode: "BackCompat", childNodes: [] }),
      { type: EventType.FullSnapshot, data: { node: doc() }, timestamp: 1 },
      incremental({ source: 1 }),
      incremental({ source: 1, positions: [] }),
      incremental({ source: 6, positions: [{ x: 1, y: 1, id: 1 }] }),
      incremental({ source: 2, id: 4, type: 99 }),
      incremental({ positions: [] }),
    ]) {
      expect(eventOf(frame(1, broken)), JSON.stringify(broken)).toBeUndefined();
    }
    expect(eventOf(frame(1, incremental({ source: 2, id: 4, type: 2 })))).toBeDefined();
    expect(eventOf(frame(1, incremental({ source: 0, adds: "rrweb checks its own mutations" })))).toBeDefined();
  });

  it("keeps each frame once, in sequence order, however it came", () => {
    const all = new Frames();
    expect(all.add(frame(3, move))).toBe(true);
    expect(all.add(frame(1, meta))).toBe(true);
    expect(all.add(frame(2, full))).toBe(true);
    expect(all.add(frame(3, move))).toBe(false);
    expect(all.add(frame(4, { not: "an event" }))).toBe(false);
    expect(all.events()).toEqual([meta, full, move]);
    expect([all.size, all.lastSequence]).toEqual([3, 3]);
  });

  it("starts a replay at the first whole page, with its Meta event", () => {
    expect(fromFirstPage([move, meta, full, move])).toEqual([meta, full, move]);
    expect(fromFirstPage([move, full, move])).toEqual([full, move]);
    expect(fromFirstPage([meta, move])).toEqual([]);
  });

  it("stamps live events with the operator's clock and earlier ones just before, in order", () => {
    expect(onArrival(move, 5000).timestamp).toBe(5000);
    expect(move.timestamp).toBe(1200);
    expect(beforeLive([meta, full, move], 5000).map((e) => e.timestamp)).toEqual([4997, 4998, 4999]);
  });

  it("writes durations as a clock does", () => {
    expect([clock(0), clock(65_400), clock(3_600_000 + 61_000)]).toEqual(["0:00", "1:05", "1:01:01"]);
  });

  it("tells a decline and a visitor's stop from the operator's", () => {
    expect(afterStop("requested", false)).toBe("declined");
    expect(afterStop("active", false)).toBe("visitorStopped");
    expect(afterStop("active", true)).toBe("stopped");
    expect(afterStop("requested", true)).toBe("stopped");
  });
});
