// Undo and redo: a stack of drafts. apply shares every untouched action between drafts, so
// a step costs what it changed. Edits of one group close together in time (typing in one
// field, one burst of arrow-key moves) are one step.
import { apply, type Draft, type Operation } from "./document";

const LIMIT = 200;
/** BURST is how long after an edit another edit of its group joins its step, in ms. */
export const BURST = 1000;

export type History = {
  past: Draft[];
  present: Draft;
  future: Draft[];
  /** group and at are the last step's group and time, to join a burst. */
  group?: string;
  at: number;
};

export function begin(draft: Draft): History {
  return { past: [], present: draft, future: [], at: 0 };
}

/** commit applies the operation as a new step, or as part of the last one when it has the
 * same group within BURST ms; an operation that changes nothing is no step. */
export function commit(h: History, op: Operation, at: number, group?: string): History {
  const present = apply(h.present, op);
  if (present === h.present) return h;
  if (group !== undefined && group === h.group && at - h.at < BURST) return { ...h, present, future: [], at };
  return { past: [...h.past.slice(-(LIMIT - 1)), h.present], present, future: [], group, at };
}

export function undo(h: History): History {
  if (h.past.length === 0) return h;
  return { past: h.past.slice(0, -1), present: h.past[h.past.length - 1], future: [h.present, ...h.future], at: 0 };
}

export function redo(h: History): History {
  if (h.future.length === 0) return h;
  return { past: [...h.past, h.present], present: h.future[0], future: h.future.slice(1), at: 0 };
}
