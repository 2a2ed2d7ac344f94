import { useSyncExternalStore } from "react";

function watch(changed: () => void) {
  document.addEventListener("visibilitychange", changed);
  return () => document.removeEventListener("visibilitychange", changed);
}

/** useVisible tells whether the page is in view (its tab shown), so that what it shows
 * only counts as read while someone can read it. */
export function useVisible(): boolean {
  return useSyncExternalStore(watch, () => document.visibilityState === "visible");
}
