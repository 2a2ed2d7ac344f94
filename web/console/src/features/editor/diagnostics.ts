// The server's diagnostics are of the draft it last saved; the editor may have changed it since.
import type { Graph } from "../../canvas/graph";
import { configPath, type Diagnostic } from "./config/errors";

function valueAt(value: unknown, path: string[]): unknown {
  let at = value;
  for (const part of path) {
    if (at === null || typeof at !== "object") return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return at;
}

/**
 * currentDiagnostics leaves out what the editing changed since the server checked `checked`:
 * a diagnostic of a config field whose value is no longer the one checked, and those of an
 * action no longer in the draft. The next save's check says whether the new value is right.
 */
export function currentDiagnostics(diagnostics: Diagnostic[], present: Graph, checked: Graph): Diagnostic[] {
  return diagnostics.filter((d) => {
    if (!d.action_key) return true;
    const now = present.actions.find((a) => a.action_key === d.action_key);
    if (!now) return false;
    const path = configPath(d);
    if (!path) return true;
    const then = checked.actions.find((a) => a.action_key === d.action_key);
    return JSON.stringify(valueAt(now.config, path)) === JSON.stringify(valueAt(then?.config, path));
  });
}
