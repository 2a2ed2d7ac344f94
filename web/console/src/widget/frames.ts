// What the co-browse recorder sends: the envelope each rrweb event travels in
// (docs/site-chat-sockets.md, "Co-browse frames"), and what is taken out of an event before
// it leaves the visitor's browser.
import { EventType, IncrementalSource, type eventWithTime } from "@rrweb/types";

export type FrameType =
  | "monitoring.snapshot"
  | "monitoring.incremental"
  | "cursor.move"
  | "touch.move"
  | "click"
  | "scroll"
  | "viewport"
  | "page.navigate";

/** navigationTag names the rrweb custom event the recorder adds when the page's address
 * changes without a new page (a single-page site's route, a hash). */
export const navigationTag = "navigation";

const bySource: Partial<Record<IncrementalSource, FrameType>> = {
  [IncrementalSource.MouseMove]: "cursor.move",
  [IncrementalSource.TouchMove]: "touch.move",
  [IncrementalSource.MouseInteraction]: "click",
  [IncrementalSource.ViewportResize]: "viewport",
};

/** frameType is the envelope type of an rrweb event. pageID is the id rrweb gave the
 * document: its scrolling is the page's (`scroll`), an element's scrolling a change of the
 * page like any other (`monitoring.incremental`). */
export function frameType(e: eventWithTime, pageID: number): FrameType {
  switch (e.type) {
    case EventType.Meta:
    case EventType.FullSnapshot:
      return "monitoring.snapshot";
    case EventType.Custom:
      return e.data.tag === navigationTag ? "page.navigate" : "monitoring.incremental";
    case EventType.IncrementalSnapshot:
      if (e.data.source === IncrementalSource.Scroll) return e.data.id === pageID ? "scroll" : "monitoring.incremental";
      return bySource[e.data.source] ?? "monitoring.incremental";
  }
  return "monitoring.incremental";
}

type Attributes = Record<string, unknown>;
type SerializedNode = { attributes?: Attributes; childNodes?: SerializedNode[] };

// Event handler attributes and javascript: addresses are code of the page: the operator's
// view needs none of it, so none of it leaves the browser.
const handler = /^on/i;
const scriptURL = /^\s*javascript:/i;

function clean(attributes: Attributes | undefined) {
  if (!attributes) return;
  for (const name of Object.keys(attributes)) {
    const value = attributes[name];
    if (handler.test(name) || (typeof value === "string" && scriptURL.test(value))) delete attributes[name];
  }
}

function cleanTree(n: SerializedNode) {
  clean(n.attributes);
  n.childNodes?.forEach(cleanTree);
}

/** scrub takes the page's script out of an event, in place: event handler attributes and
 * javascript: addresses of every element a snapshot or a mutation carries. (rrweb already
 * leaves out <script> elements, with slimDOMOptions.script.) */
export function scrub(e: eventWithTime): eventWithTime {
  if (e.type === EventType.FullSnapshot) cleanTree(e.data.node as SerializedNode);
  if (e.type === EventType.IncrementalSnapshot && e.data.source === IncrementalSource.Mutation) {
    e.data.adds.forEach((a) => cleanTree(a.node as SerializedNode));
    e.data.attributes.forEach((a) => clean(a.attributes as Attributes));
  }
  return e;
}
