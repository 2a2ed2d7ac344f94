/** Selection is what the person has selected on the canvas: actions by key, connections by
 * edge id. It is the view's state, not the draft's, so undo leaves it alone. */
export type Selection = { actions: ReadonlySet<string>; edges: ReadonlySet<string> };

export const nothingSelected: Selection = { actions: new Set(), edges: new Set() };

export function selectActions(keys: Iterable<string>): Selection {
  return { actions: new Set(keys), edges: new Set() };
}
