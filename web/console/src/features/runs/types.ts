// The run shapes the inspector and the runs list read, as the contract names them.
import type { components } from "../../api/schema.gen";

export type RunView = components["schemas"]["RunView"];
export type RunStatus = components["schemas"]["RunStatus"];
export type RunGraphView = components["schemas"]["RunGraphView"];
export type ActionWithState = components["schemas"]["ActionWithState"];
export type ActionRun = components["schemas"]["ActionRunView"];
export type ActionStatus = components["schemas"]["ActionStatus"];
export type RunEvent = components["schemas"]["RunEventView"];
export type RetryClass = NonNullable<ActionRun["retry_class"]>;
