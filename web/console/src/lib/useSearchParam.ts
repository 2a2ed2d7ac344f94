import { useEffect, useState } from "react";
import { useSearchParams } from "react-router";

/** useSearchParam is a text box's value kept in the URL's search parameter name: the URL
 * follows the box once typing pauses for 300 ms (so each pause, not each key, is one search,
 * and reloading or sharing the URL keeps it), and the box follows the URL when it changes
 * otherwise (a link to the page without it). Answers the box's value, its setter and the
 * settled value. */
export function useSearchParam(name: string): [string, (value: string) => void, string] {
  const [params, setParams] = useSearchParams();
  const settled = params.get(name) ?? "";
  const [value, setValue] = useState(settled);
  const [seen, setSeen] = useState(settled);
  if (settled !== seen) {
    setSeen(settled);
    if (value.trim() !== settled) setValue(settled);
  }
  useEffect(() => {
    const next = value.trim();
    if (next === settled) return;
    const timer = setTimeout(
      () =>
        setParams(
          (current) => {
            const out = new URLSearchParams(current);
            if (next) out.set(name, next);
            else out.delete(name);
            return out;
          },
          { replace: true },
        ),
      300,
    );
    return () => clearTimeout(timer);
  }, [value, settled, name, setParams]);
  return [value, setValue, settled];
}
