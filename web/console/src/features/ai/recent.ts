// The person's conversations with the employee of a project, newest first. The API opens
// and reads sessions by id but does not list them, so this browser keeps the ids of the
// ones it opened (localStorage, per person and project); a session the API no longer
// answers is forgotten.
import { useCallback, useMemo, useSyncExternalStore } from "react";

/** recentLimit is how many conversations the list keeps. */
export const recentLimit = 8;

/** remember puts the session first. */
export function remember(ids: readonly string[], id: string): string[] {
  return [id, ...ids.filter((x) => x !== id)].slice(0, recentLimit);
}

/** forget drops the session. */
export function forget(ids: readonly string[], id: string): string[] {
  return ids.filter((x) => x !== id);
}

/** parseIds reads the stored list, ignoring anything that is not one. */
export function parseIds(raw: string | null): string[] {
  try {
    const value: unknown = JSON.parse(raw ?? "[]");
    return Array.isArray(value) ? value.filter((x): x is string => typeof x === "string").slice(0, recentLimit) : [];
  } catch {
    return [];
  }
}

const listeners = new Set<() => void>();

function subscribe(listener: () => void) {
  listeners.add(listener);
  window.addEventListener("storage", listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", listener);
  };
}

/** useRecentSessions is the list of the person's conversations in the project. */
export function useRecentSessions(userId: string | undefined, projectId: string) {
  const key = userId ? `ai-sessions:${userId}:${projectId}` : "";
  const raw = useSyncExternalStore(subscribe, () => (key ? localStorage.getItem(key) : null));
  const ids = useMemo(() => parseIds(raw), [raw]);
  const change = useCallback(
    (f: (ids: string[]) => string[]) => {
      if (!key) return;
      localStorage.setItem(key, JSON.stringify(f(parseIds(localStorage.getItem(key)))));
      listeners.forEach((l) => l());
    },
    [key],
  );
  return {
    ids,
    remember: useCallback((id: string) => change((ids) => remember(ids, id)), [change]),
    forget: useCallback((id: string) => change((ids) => forget(ids, id)), [change]),
  };
}
