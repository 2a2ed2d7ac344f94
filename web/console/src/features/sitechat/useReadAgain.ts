import { useQueryClient, type QueryKey } from "@tanstack/react-query";
import { useEffect, useRef } from "react";

/** useReadAgain reads the queries under key again whenever the operator socket opens anew
 * (its generation moves): notices are delivered at most once, and those sent while the
 * socket was away, or before it first opened, are lost. */
export function useReadAgain(generation: number, key: QueryKey) {
  const queryClient = useQueryClient();
  const seen = useRef(generation);
  const latestKey = useRef(key);
  useEffect(() => {
    latestKey.current = key;
  });
  useEffect(() => {
    if (generation === seen.current) return;
    seen.current = generation;
    void queryClient.invalidateQueries({ queryKey: latestKey.current });
  }, [generation, queryClient]);
}
