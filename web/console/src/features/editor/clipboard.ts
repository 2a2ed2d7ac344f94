// The editor's clipboard. It outlives one editor, so actions copied in one workflow paste
// into another; each paste of the same copy lands a step further from the original.
import type { Graph } from "../../canvas/graph";

const OFFSET = 40;
let held: { graph: Graph; pastes: number } | undefined;

export function copyToClipboard(graph: Graph) {
  held = { graph, pastes: 0 };
}

/** nextPaste is what the clipboard holds and how far from the original to paste it. */
export function nextPaste(): { graph: Graph; offset: number } | undefined {
  if (!held) return undefined;
  held.pastes += 1;
  return { graph: held.graph, offset: held.pastes * OFFSET };
}

/** DUPLICATE_OFFSET is how far from the originals a duplicate lands. */
export const DUPLICATE_OFFSET = OFFSET;
