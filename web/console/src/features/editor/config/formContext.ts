import type { Variable } from "./scope";

/** What the config form's own widgets need besides their field: rjsf hands it to each. */
export type ConfigFormContext = {
  variables: Variable[];
  projectId: string;
  /** dependencyTypeKey is the integration type the action's dependency field takes. */
  dependencyTypeKey: string;
};
