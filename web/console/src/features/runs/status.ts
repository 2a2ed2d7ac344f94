// The one reading of a run's or an action's status that every view of runs draws: the runs
// list, the inspector's header, steps and timeline, and the graph's nodes (data-status).

/** shownStatus is the status a person reads: the projection's, except that an action failed
 * with retry class canceled reads cancelled, as the projection now records it (runs
 * cancelled before it did recorded their interrupted action as failed). */
export function shownStatus(status: string, retryClass?: string | null): string {
  return status === "failed" && retryClass === "canceled" ? "cancelled" : status;
}

/** waitingChanges tells whether events may have moved a run between running and waiting: the server
 * decides that (only delays and waits for replies outstanding) without an event of its own. */
export const waitingChanges = (eventTypes: string[], status: string | undefined) =>
  status === "waiting" || eventTypes.some((type) => type === "action.waiting");
