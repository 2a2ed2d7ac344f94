// The editor's keyboard: which key press means which command. Kept apart from the DOM so
// the mapping is tested; useEditorShortcuts decides when a press belongs to the editor.
import type { Position } from "./document";

export type Command = "undo" | "redo" | "delete" | "copy" | "paste" | "duplicate" | "save";

export type KeyPress = { key: string; ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean };

/** commandOf is the command a key press means; Ctrl and Cmd are the same modifier. */
export function commandOf(e: KeyPress): Command | undefined {
  if (e.altKey) return undefined;
  const mod = e.ctrlKey || e.metaKey;
  const key = e.key.toLowerCase();
  if (!mod) return e.key === "Delete" || e.key === "Backspace" ? "delete" : undefined;
  if (key === "z") return e.shiftKey ? "redo" : "undo";
  if (e.shiftKey) return undefined;
  switch (key) {
    case "y":
      return "redo";
    case "c":
      return "copy";
    case "v":
      return "paste";
    case "d":
      return "duplicate";
    case "s":
      return "save";
  }
  return undefined;
}

/** STEP and BIG_STEP are how far an arrow key moves the selected actions, in px. */
export const STEP = 10;
export const BIG_STEP = 50;

/** nudgeOf is how far an arrow key (with Shift, further) moves the selection. */
export function nudgeOf(e: KeyPress): Position | undefined {
  if (e.ctrlKey || e.metaKey || e.altKey) return undefined;
  const d = e.shiftKey ? BIG_STEP : STEP;
  switch (e.key) {
    case "ArrowLeft":
      return { x: -d, y: 0 };
    case "ArrowRight":
      return { x: d, y: 0 };
    case "ArrowUp":
      return { x: 0, y: -d };
    case "ArrowDown":
      return { x: 0, y: d };
  }
  return undefined;
}
