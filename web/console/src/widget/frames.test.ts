import { EventType, IncrementalSource, type eventWithTime } from "@rrweb/types";
import { describe, expect, it } from "vitest";
import { frameType, navigationTag, scrub } from "./frames";

const at = 1_700_000_000_000;
const incremental = (data: Record<string, unknown>) => ({ type: EventType.IncrementalSnapshot, data, timestamp: at }) as unknown as eventWithTime;

describe("frameType", () => {
  it("sends whole pages and their Meta event as snapshots", () => {
    expect(frameType({ type: EventType.Meta, data: { href: "https://shop.test/", width: 800, height: 600 }, timestamp: at }, 1)).toBe(
      "monitoring.snapshot",
    );
    expect(frameType({ type: EventType.FullSnapshot, data: { node: { type: 0, id: 1, childNodes: [] }, initialOffset: { top: 0, left: 0 } }, timestamp: at } as eventWithTime, 1)).toBe(
      "monitoring.snapshot",
    );
  });

  it("sends each kind of activity in its own envelope", () => {
    expect(frameType(incremental({ source: IncrementalSource.MouseMove, positions: [] }), 1)).toBe("cursor.move");
    expect(frameType(incremental({ source: IncrementalSource.TouchMove, positions: [] }), 1)).toBe("touch.move");
    expect(frameType(incremental({ source: IncrementalSource.MouseInteraction, type: 2, id: 5 }), 1)).toBe("click");
    expect(frameType(incremental({ source: IncrementalSource.ViewportResize, width: 400, height: 700 }), 1)).toBe("viewport");
    expect(frameType(incremental({ source: IncrementalSource.Mutation, adds: [], removes: [], texts: [], attributes: [] }), 1)).toBe(
      "monitoring.incremental",
    );
    expect(frameType(incremental({ source: IncrementalSource.Input, id: 9, text: "***", isChecked: false }), 1)).toBe("monitoring.incremental");
  });

  it("tells the page's scrolling from an element's", () => {
    expect(frameType(incremental({ source: IncrementalSource.Scroll, id: 1, x: 0, y: 300 }), 1)).toBe("scroll");
    expect(frameType(incremental({ source: IncrementalSource.Scroll, id: 42, x: 0, y: 300 }), 1)).toBe("monitoring.incremental");
  });

  it("sends a change of address as a navigation, other custom events as changes", () => {
    const custom = (tag: string) => ({ type: EventType.Custom, data: { tag, payload: {} }, timestamp: at }) as eventWithTime;
    expect(frameType(custom(navigationTag), 1)).toBe("page.navigate");
    expect(frameType(custom("other"), 1)).toBe("monitoring.incremental");
  });
});

describe("scrub", () => {
  it("takes event handlers and javascript: addresses out of a whole page", () => {
    const page = {
      type: EventType.FullSnapshot,
      timestamp: at,
      data: {
        initialOffset: { top: 0, left: 0 },
        node: {
          type: 0,
          id: 1,
          childNodes: [
            {
              type: 2,
              id: 2,
              tagName: "body",
              attributes: { onload: "steal()", class: "page" },
              childNodes: [
                { type: 2, id: 3, tagName: "img", attributes: { src: "/a.png", OnError: "steal()" }, childNodes: [] },
                { type: 2, id: 4, tagName: "a", attributes: { href: " JavaScript:steal()", title: "javascript is fine in text" }, childNodes: [] },
              ],
            },
          ],
        },
      },
    } as unknown as eventWithTime;
    expect(JSON.stringify(scrub(page))).not.toMatch(/steal/);
    expect(JSON.stringify(page)).toContain('"class":"page"');
    expect(JSON.stringify(page)).toContain("javascript is fine in text");
  });

  it("takes them out of a mutation's added nodes and changed attributes", () => {
    const change = incremental({
      source: IncrementalSource.Mutation,
      texts: [],
      removes: [],
      adds: [{ parentId: 2, nextId: null, node: { type: 2, id: 9, tagName: "div", attributes: { onclick: "steal()" }, childNodes: [] } }],
      attributes: [{ id: 3, attributes: { onmouseover: "steal()", src: "/b.png" } }],
    });
    expect(JSON.stringify(scrub(change))).not.toMatch(/steal/);
    expect(JSON.stringify(change)).toContain("/b.png");
  });
});
