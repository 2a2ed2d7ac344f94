import type { UseMutationResult } from "@tanstack/react-query";
import { useRef } from "react";

/** useSingleFlight is a mutation's send that does nothing while a send is on its way: a
 * double click sends once. A button's disabled state comes a render later, after the second
 * click of a double click may already be in. (A write that must happen once also carries an
 * idempotency key, for the resend after an answer was lost.) */
export function useSingleFlight<D, V>(mutation: UseMutationResult<D, Error, V>): (variables: V) => void {
  const busy = useRef(false);
  return (variables: V) => {
    if (busy.current) return;
    busy.current = true;
    mutation.mutate(variables, {
      onSettled: () => {
        busy.current = false;
      },
    });
  };
}
