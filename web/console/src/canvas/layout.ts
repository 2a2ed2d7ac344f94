// "Tidy up": elkjs's layered layout, run in a Web Worker so a large graph never blocks the
// page. Each output is a port in a fixed order, so a condition's true stays above its false.
import ELK, { type ElkNode } from "elkjs/lib/elk-api";
import { handleId, handlesOf, NODE_HEIGHT, NODE_WIDTH, type Graph } from "./graph";

let elk: InstanceType<typeof ELK> | undefined;

function engine() {
  elk ??= new ELK({
    // The build emits workers as ES modules (vite.config worker.format), so a module worker.
    workerFactory: () => new Worker(new URL("elkjs/lib/elk-worker.min.js", import.meta.url), { type: "module" }),
  });
  return elk;
}

export type Positions = Map<string, { x: number; y: number }>;

/** layout places every action of the graph, left to right in the order runs flow. */
export async function layout(graph: Graph): Promise<Positions> {
  const root: ElkNode = {
    id: "root",
    layoutOptions: {
      "elk.algorithm": "layered",
      "elk.direction": "RIGHT",
      "elk.layered.spacing.nodeNodeBetweenLayers": "72",
      "elk.spacing.nodeNode": "40",
      "elk.layered.nodePlacement.strategy": "NETWORK_SIMPLEX",
    },
    children: graph.actions.map((a) => ({
      id: a.action_key,
      width: NODE_WIDTH,
      height: NODE_HEIGHT,
      layoutOptions: { "elk.portConstraints": "FIXED_ORDER" },
      ports: [
        { id: `${a.action_key}:in`, layoutOptions: { "elk.port.side": "WEST" } },
        // Every branch a connection may leave by (a trigger's unused error port changes nothing).
        ...handlesOf(a, false).map((b, i) => ({
          id: `${a.action_key}:${handleId(b)}`,
          layoutOptions: { "elk.port.side": "EAST", "elk.port.index": String(i) },
        })),
      ],
    })),
    edges: graph.connections.map((c, i) => ({
      id: `e${i}`,
      sources: [`${c.from}:${handleId(c.branch ?? "")}`],
      targets: [`${c.to}:in`],
    })),
  };
  const placed = await engine().layout(root);
  return new Map((placed.children ?? []).map((n) => [n.id, { x: n.x ?? 0, y: n.y ?? 0 }]));
}

type Place = { x: number; y: number };

// The room an action takes on the canvas, with the gap that keeps two apart.
const SLOT_WIDTH = NODE_WIDTH + 40;
const SLOT_HEIGHT = NODE_HEIGHT + 40;

/** clearOf is at, or the first place below it, a slot at a time, where an action covers
 * none of the actions placed at taken (their whole boxes, not only their corners). */
export function clearOf(taken: Place[], at: Place): Place {
  const covers = (p: Place) => taken.some((q) => Math.abs(q.x - p.x) < SLOT_WIDTH && Math.abs(q.y - p.y) < SLOT_HEIGHT);
  const spot = { ...at };
  while (covers(spot)) spot.y += SLOT_HEIGHT;
  return spot;
}
