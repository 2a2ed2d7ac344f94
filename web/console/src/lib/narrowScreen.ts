import { useSyncExternalStore } from "react";

/** narrowScreen is the width below which the console is laid out for a phone: the header's
 * areas and controls behind a menu button, panels above the page instead of beside it.
 * styles.css uses the same query. */
export const narrowScreen = "(max-width: 760px)";

const query = typeof window === "undefined" ? undefined : window.matchMedia(narrowScreen);

function subscribe(changed: () => void): () => void {
  query?.addEventListener("change", changed);
  return () => query?.removeEventListener("change", changed);
}

/** useNarrowScreen tells whether the window is a phone's, following it as it turns or is
 * resized. */
export function useNarrowScreen(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => query?.matches ?? false,
    () => false,
  );
}
