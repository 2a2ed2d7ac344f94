import { useEffect, useState } from "react";

/** useNow is the time, ticking each second while ticking is on, so that the durations of
 * what is still running grow. */
export function useNow(ticking: boolean): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    if (!ticking) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [ticking]);
  return now;
}
